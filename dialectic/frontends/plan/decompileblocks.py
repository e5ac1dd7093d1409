"""The statements of a block for :mod:`.decompile`: a ``$let``/``$return`` block's aliases
and its ``return``, ``$do``'s statements, ``if`` statements whose branches are blocks,
``try``/``catch`` and ``$while`` aliases as loops. :class:`BlockWriter` is the base of the
expression writer, which supplies :meth:`BlockWriter.expr`."""

from __future__ import annotations

import re
from typing import Any

from dialectic.frontends.plan.decompileliterals import DecompileError, identifier
from dialectic.frontends.plan.decompilewhile import renamed, while_parts
from dialectic.frontends.plan.order import reading_order
from dialectic.frontends.plan.rejections import caught_text, thrown_text

__all__ = ["PARAMS_CHANGES", "BlockWriter", "has_block_branch", "is_block", "is_statement"]

#: the changes a URLSearchParams makes (its next version: values/jsparams.py)
PARAMS_CHANGES = frozenset(["append", "set", "delete"])


class BlockWriter:
    """Writes blocks and statements; the expressions in them by :meth:`expr`."""

    def __init__(self, max_depth: int) -> None:
        self.max_depth = max_depth
        #: the aliases bound to a URLSearchParams (its changes are not a Map's)
        self.params: set[str] = set()

    def expr(self, node: Any, depth: int = 0) -> str:
        """``node`` as a Plan expression (the subclass writes it)."""
        raise NotImplementedError

    def makes_params(self, node: Any) -> bool:
        """Whether ``node`` is ``new URLSearchParams(...)``, an alias bound to one, or a change
        to one."""
        if type(node) is not dict or len(node) != 1:
            return False
        ((key, inner),) = node.items()
        if key == "$ref":
            return inner in self.params
        if key == "$global":
            return type(inner) is list and inner[:1] == ["URLSearchParams"]
        return (
            key == "$method"
            and type(inner) is list
            and len(inner) > 1
            and inner[1] in PARAMS_CHANGES
            and self.makes_params(inner[0])
        )

    def block(
        self,
        tree: dict[str, Any],
        depth: int,
        *,
        declare: str = "",
        finals: tuple[str, ...] = ("$return", "$use"),
        indent: str = "",
    ) -> list[str]:
        """The statements of a ``$let``/``$return`` block: its aliases, then its ``return``
        (a conditional whose branches are blocks as an ``if`` statement, where ``if_ok``)."""
        extra = set(tree) - {"$let", "$do", *finals}
        present = [k for k in finals if k in tree]
        if extra or len(present) != 1:
            if extra & {"$return", "$use"}:
                raise DecompileError(f"{sorted(extra)[0]} is only allowed at the top of a program")
            raise DecompileError("a block has `$let` (optional) and exactly one `$return`")
        bindings = tree.get("$let", {})
        if type(bindings) is not dict:
            raise DecompileError("$let takes an object of aliases")
        lines: list[str] = []
        for name in reading_order(bindings):  # (Plan reads a name after its definition)
            lines += self.binding(name, bindings[name], depth, declare, indent)
        if "$do" in tree:
            lines += self.statements(tree["$do"], depth, declare, indent)
        mode, body = present[0][1:], tree[present[0]]
        if not declare and mode == "return" and has_block_branch(body):
            lines.extend(self.if_statement(body, depth + 1, indent))
        elif mode == "return" and type(body) is dict and len(body) == 1 and "$try" in body:
            lines.extend(self.try_statement(body["$try"], depth + 1, indent))
        elif mode == "return" and type(body) is dict and len(body) == 1 and "$throw" in body:
            lines.append(f"{indent}throw {self.thrown(body['$throw'], depth)};")
        else:
            lines.append(f"{indent}{mode} {self.expr(body, depth + 1)};")
        return lines

    def binding(self, name: str, value: Any, depth: int, declare: str, indent: str) -> list[str]:
        """``name = value;``; a ``$while`` alias of a program's block is a `while` loop."""
        alias = identifier(name, "the alias")
        if self.makes_params(value):
            self.params.add(name)
        parts = None
        if not declare and type(value) is dict and len(value) == 1 and "$while" in value:
            parts = while_parts(value["$while"])
        if type(value) is dict and len(value) == 1 and "$try" in value:
            text = caught_text(value["$try"], lambda node: self.expr(node, depth + 1))
            if text is None:
                return self.try_binding(alias, value["$try"], depth, indent)
            return [f"{indent}{declare}{alias} = {text};"]  # `const v = f(x).catch(h);`
        if parts is None:
            return [f"{indent}{declare}{alias} = {self.expr(value, depth + 1)};"]
        state, t, test, s, step = parts
        inner = indent + "  "
        if is_block(step):
            lines = self.block(step, depth + 1, declare="const ", finals=("$return",))
            lines[-1] = f"{alias} = {lines[-1][len('return ') :]}"
        else:
            lines = [f"{alias} = {self.expr(step, depth + 1)};"]
        return [
            f"{indent}{alias} = {self.expr(state, depth + 1)};",
            f"{indent}while ({self.expr(renamed(test, t, name), depth + 1)}) {{",
            f"{inner}const {identifier(s, 'the parameter')} = {alias};",
            *(inner + line for line in lines),
            f"{indent}}}",
        ]

    def try_statement(self, value: Any, depth: int, indent: str) -> list[str]:
        """``$try`` as the value a block returns: ``try { ... } catch (e) { ... }``."""
        handler = value[1] if type(value) is list and len(value) == 2 else None
        fn = handler.get("$fn") if type(handler) is dict and len(handler) == 1 else None
        if type(fn) is not list or len(fn) != 2 or type(fn[0]) is not list or len(fn[0]) > 1:
            raise DecompileError('$try takes [body, {"$fn": [["e"], handler]}]')
        inner = indent + "  "
        param = f" ({identifier(fn[0][0], 'the parameter')})" if fn[0] else ""
        parts = [p if is_block(p) else {"$return": p} for p in (value[0], fn[1])]
        return [
            f"{indent}try {{",
            *self.block(parts[0], depth + 1, declare="const ", finals=("$return",), indent=inner),
            f"{indent}}} catch{param} {{",
            *self.block(parts[1], depth + 1, declare="const ", finals=("$return",), indent=inner),
            f"{indent}}}",
        ]

    def try_binding(self, alias: str, value: Any, depth: int, indent: str) -> list[str]:
        """An alias of a ``$try`` whose body and handler are expressions: ``let a; try { a =
        body; } catch (e) { a = handler; }``."""
        lines = self.try_statement(value, depth, indent)  # (checks the form)
        fn = value[1]["$fn"]
        if is_block(value[0]) or is_block(fn[1]):
            raise DecompileError(
                "an alias of a `$try` whose body or handler is a block has no Plan text: "
                "return the `$try` from a block"
            )
        inner = indent + "  "
        sets = []
        for part in (value[0], fn[1]):
            if type(part) is dict and len(part) == 1 and "$throw" in part:
                sets.append(f"{inner}throw {self.thrown(part['$throw'], depth)};")
            else:
                sets.append(f"{inner}{alias} = {self.expr(part, depth + 1)};")
        return [
            f"{indent}let {alias};",
            f"{indent}try {{",
            sets[0],
            next(line for line in lines if line.startswith(f"{indent}}} catch")),
            sets[1],
            f"{indent}}}",
        ]

    def thrown(self, value: Any, depth: int) -> str:
        return thrown_text(value, lambda node: self.expr(node, depth + 1))

    def statements(self, items: Any, depth: int, declare: str, indent: str) -> list[str]:
        """``$do``: expression statements and ``{"$let": {...}}`` groups, in program order."""
        if type(items) is not list:
            raise DecompileError("$do takes a list of statements")
        lines: list[str] = []
        for item in items:
            if type(item) is dict and set(item) == {"$let"} and type(item["$let"]) is dict:
                group = item["$let"]
                for name in reading_order(group):
                    lines += self.binding(name, group[name], depth, declare, indent)
                continue
            text = self.expr(item, depth + 1)
            if text[:1] in "{[(`" or re.match(r"(return|use|const|let|var|if)\b", text):
                text = f"({text})"  # not read as a block, a destructuring or a statement
            lines.append(f"{indent}{text};")
        return lines

    def if_statement(self, node: Any, depth: int, indent: str) -> list[str]:
        """``$if`` with a block in a branch, as ``if (...) { ... } else ...`` (the Plan
        statement whose branches end in ``return``)."""
        if depth > self.max_depth:
            raise DecompileError(f"the tree is nested more than {self.max_depth} levels deep")
        value = node["$if"]
        if type(value) is not list or len(value) != 3:
            raise DecompileError("$if takes a list [test, then, otherwise]")
        test, then, otherwise = value
        inner = indent + "  "
        lines = [f"{indent}if ({self.expr(test, depth + 1)}) {{"]
        lines += self.branch(then, depth + 1, inner)
        if has_block_branch(otherwise):
            nested = self.if_statement(otherwise, depth + 1, indent)
            lines.append(f"{indent}}} else {nested[0][len(indent) :]}")
            lines += nested[1:]
            return lines
        lines.append(f"{indent}}} else {{")
        lines += self.branch(otherwise, depth + 1, inner)
        lines.append(f"{indent}}}")
        return lines

    def branch(self, node: Any, depth: int, indent: str) -> list[str]:
        if is_block(node):
            return self.block(node, depth, finals=("$return",), indent=indent)
        if has_block_branch(node):
            return self.if_statement(node, depth, indent)
        if is_statement(node):  # `throw ...;`, `try { ... } catch ...`
            return self.block({"$return": node}, depth, finals=("$return",), indent=indent)
        return [f"{indent}return {self.expr(node, depth + 1)};"]


def is_block(node: Any) -> bool:
    return type(node) is dict and any(k in node for k in ("$let", "$return", "$use"))


def is_statement(node: Any) -> bool:
    """Whether ``node`` is a ``$try`` or a ``$throw``: Plan writes them as statements."""
    return type(node) is dict and len(node) == 1 and ("$try" in node or "$throw" in node)


def has_block_branch(node: Any) -> bool:
    """Whether ``node`` is a conditional with a block (aliases) in a branch, however deep in its
    ``else if`` chain: only an ``if`` statement can write it."""
    while type(node) is dict and len(node) == 1 and type(node.get("$if")) is list:
        branches = node["$if"]
        if len(branches) != 3:
            return False
        if any(is_block(b) or is_statement(b) for b in branches[1:]):
            return True
        if has_block_branch(branches[1]):
            return True
        node = branches[2]
    return False
