"""Call tree -> Plan text (the inverse of the parser, up to formatting).

``decompile(parse_plan(text).tree)`` is Plan text whose tree equals the original tree. Trees
written in Dialect JSON use shorthands the parser never produces; they are written as the
equivalent Plan: named-argument objects ``{"f": {"x": 1}}`` as ``f({x: 1})``, a scalar or other
single argument ``{"f": 3}`` as ``f(3)``, ``{"$quote": data}`` as the literal of ``data``.

This module writes expressions (:data:`_FORMS`); :mod:`.decompileblocks` writes blocks and
statements (the base of the writer), :mod:`.decompileliterals` literals and names, and
:mod:`.decompilewhile` a ``$while`` loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.frontends.plan.decompileblocks import (
    PARAMS_CHANGES,
    BlockWriter,
    is_block,
)
from dialectic.frontends.plan.decompileliterals import (
    DecompileError,
    identifier,
    key_text,
    number_literal,
    regex_literal,
    string_literal,
    template_text,
)
from dialectic.frontends.plan.decompilerecursive import apply_form, definitions, letrec_form
from dialectic.frontends.plan.keywords import LITERAL_WORDS, RESERVED, is_identifier_name
from dialectic.frontends.plan.rejections import caught_text, settled_text, settled_value
from dialectic.frontends.plan.setforms import write_set

__all__ = ["DecompileError", "decompile", "decompile_expression"]

_NESTED_BLOCK = (
    "a block ending in `$use` can be written only as a whole program (elsewhere a block is "
    "written as an arrow function called at once, which returns its value)"
)


#: the changes of a Map or a Set written as the expression that makes the next version, by the
#: length of their `$method` list
_NEXT_VERSION = {"set": 4, "add": 3}
#: the globals written with `new`
_CONSTRUCTED = frozenset(["Map", "Set", "Date", "URL", "URLSearchParams"])


class _Writer(BlockWriter):
    """Writes expressions (the core forms: :data:`_FORMS`); blocks by :class:`BlockWriter`."""

    #: the recursive functions met (``$letrec``): name -> its arrow's text
    recursive: dict[str, str]

    def expr(self, node: Any, depth: int = 0) -> str:
        if depth > self.max_depth:
            raise DecompileError(f"the tree is nested more than {self.max_depth} levels deep")
        kind = type(node)
        if kind is str:
            return string_literal(node)
        if kind is bool:
            return "true" if node else "false"
        if node is None:
            return "null"
        if kind is int or kind is float:
            return number_literal(node)
        if kind is list:
            if node and settled_value(node[0]) is not None:  # `Promise.allSettled([...])`
                text = settled_text(node, lambda inner: self.expr(inner, depth + 1))
                if text is not None:
                    return text
            return "[" + ", ".join(self.expr(item, depth + 1) for item in node) + "]"
        if kind is not dict:
            raise DecompileError(f"{type(node).__name__} is not a JSON value")
        if is_block(node):  # `(() => { const a = ...; return e; })()`
            if "$use" in node:
                raise DecompileError(_NESTED_BLOCK)
            lines = self.block(node, depth + 1, declare="const ", finals=("$return",))
            return f"(() => {{ {' '.join(lines)} }})()"
        if len(node) != 1:
            if any(str(k)[:1] == "$" for k in node):
                raise DecompileError(f"invalid core form with keys {sorted(node)}")
            return self.object(node, depth)
        ((key, value),) = node.items()
        if key[:1] != "$":
            return self.call(key, value, depth)
        form = _FORMS.get(key)
        if form is None:
            raise DecompileError(f"unknown core form {key}")
        return form(self, value, depth)

    # -- core forms (see _FORMS) ---------------------------------------------------------------

    def ref(self, value: Any, depth: int) -> str:
        if not isinstance(value, str):
            raise DecompileError("$ref takes a name (a string)")
        return "this" if value == "this" else identifier(value, "the name")

    def get_plain(self, value: Any, depth: int) -> str:
        return self.get(value, depth)

    def get_optional(self, value: Any, depth: int) -> str:
        return self.get(value, depth, "?.")

    def object_form(self, value: Any, depth: int) -> str:
        if type(value) is not dict:
            raise DecompileError("$object takes an object")
        return self.object(value, depth)

    def undefined(self, value: Any, depth: int) -> str:
        return "undefined"

    def conditional(self, value: Any, depth: int) -> str:
        if type(value) is not list or len(value) != 3:
            raise DecompileError("$if takes a list [test, then, otherwise]")
        test, then, otherwise = (self.operand(v, depth) for v in value)
        return f"({test} ? {then} : {otherwise})"

    def arrow(self, value: Any, depth: int) -> str:
        if type(value) is not list or len(value) != 2 or type(value[0]) is not list:
            raise DecompileError('$fn takes [["param", ...], body]')
        params = ", ".join(identifier(n, "the parameter") for n in value[0])
        body = value[1]
        if type(body) is dict and len(body) == 1 and ("$try" in body or "$throw" in body):
            body = {"$return": body}  # (a statement: `(x) => { try { ... } catch ... }`)
        if is_block(body):  # a block body: `(x) => { const a = ...; return e; }`
            lines = self.block(body, depth + 1, declare="const ", finals=("$return",))
            return f"(({params}) => {{ {' '.join(lines)} }})"
        body = self.operand(value[1], depth)
        if body.startswith("{"):  # an object literal, not a block body
            body = f"({body})"
        return f"(({params}) => {body})"

    def method(self, value: Any, depth: int, dot: str = ".") -> str:
        if type(value) is not list or len(value) < 2 or type(value[1]) is not str:
            raise DecompileError(
                f'${"method?" if dot == "?." else "method"} takes [target, "name", argument, ...]'
            )
        if type(value[1]) is str and value[1].startswith("searchParams."):
            raise DecompileError(
                f"a URL's {value[1]}() has no Plan expression (Plan reads it as the statement "
                f"`u.{value[1]}(...);`)"
            )
        if dot == "." and value[1] in PARAMS_CHANGES and self.makes_params(value[0]):
            return self.params_version(value, depth)
        if dot == "." and value[1] in _NEXT_VERSION and len(value) == _NEXT_VERSION[value[1]]:
            return self.next_version(value, depth)
        if dot == "." and value[1] in ("[]=", "length="):  # `xs[i] = v;`'s version
            return write_set(
                value,
                lambda inner: self.expr(inner, depth + 1),
                lambda inner: self.postfix_target(self.operand(inner, depth), inner),
            )
        if value[1] == "map" and dot == ".":  # `Promise.allSettled(xs.map(f))`
            text = settled_text({"$method": value}, lambda inner: self.expr(inner, depth + 1))
            if text is not None:
                return text
        target = self.postfix_target(self.operand(value[0], depth), value[0])
        args = ", ".join(self.expr(a, depth + 1) for a in value[2:])
        return f"{target}{dot}{identifier(value[1], 'the method')}({args})"

    def next_version(self, value: list[Any], depth: int) -> str:
        """A Map's or a Set's next version (SPEC 1.8, "Maps and Sets"), as an expression that
        makes it: ``m.set(k, v)`` is ``new Map([...m, [k, v]])``, ``s.add(x)`` ``new
        Set([...s, x])`` (Plan reads ``m.set(k, v)`` only as a statement)."""
        parts = [self.expr(v, depth + 1) for v in value]
        if value[1] == "set":
            return f"new Map([...{parts[0]}, [{parts[2]}, {parts[3]}]])"
        return f"new Set([...{parts[0]}, {parts[2]}])"

    def params_version(self, value: list[Any], depth: int) -> str:
        """A URLSearchParams' next version as an expression that makes it: ``p.append(k, v)``
        is ``new URLSearchParams([...p, [k, v]])``, ``p.delete(k)`` keeps the other pairs."""
        parts = [self.expr(v, depth + 1) for v in value]
        if value[1] == "append" and len(value) == 4:
            return f"new URLSearchParams([...{parts[0]}, [{parts[2]}, {parts[3]}]])"
        if value[1] == "delete" and len(value) == 3:
            return f"new URLSearchParams([...{parts[0]}].filter(([n]) => n !== String({parts[2]})))"
        raise DecompileError(
            f"a URLSearchParams' {value[1]}() has no Plan expression here (Plan reads it as a "
            "statement `p.set(k, v);`)"
        )

    def method_optional(self, value: Any, depth: int) -> str:
        return self.method(value, depth, "?.")

    def global_call(self, value: Any, depth: int) -> str:
        if type(value) is not list or not value or type(value[0]) is not str:
            raise DecompileError('$global takes ["Math.max", argument, ...]')
        args = ", ".join(self.expr(a, depth + 1) for a in value[1:])
        if value[0] == "new Set":  # a Set's items (SPEC 10)
            return f"[...new Set({args})]"
        if value[0] in _CONSTRUCTED:  # a Map, a Set, a Date, a URL as a value (SPEC 1.8, 10)
            return f"new {value[0]}({args})"
        if value[0] == "RegExp":  # SPEC 10, "Regular expressions"
            literal = regex_literal(value[1:])
            return f"new RegExp({args})" if literal is None else literal
        return f"{value[0]}({args})"

    def spread(self, value: Any, depth: int) -> str:
        if type(value) is dict and len(value) == 1 and "$global" in value:
            items = value["$global"]
            if type(items) is list and items and items[0] == "new Set":
                return "..." + self.global_call(items, depth)[4:-1]  # `...new Set(xs)`
        return "..." + self.operand(value, depth)

    def merge(self, value: Any, depth: int) -> str:
        if type(value) is not list:
            raise DecompileError("$merge takes a list of objects")
        return "{" + ", ".join("..." + self.operand(v, depth) for v in value) + "}"

    def unwrap(self, value: Any, depth: int) -> str:
        # the built-in function unwrap() has the same meaning
        return f"unwrap({self.expr(value, depth + 1)})"

    def operand(self, node: Any, depth: int) -> str:
        """An operand of an operator: negative number literals in parentheses (``(-2) ** 2``;
        every operator expression is written in parentheses itself)."""
        text = self.expr(node, depth + 1)
        return f"({text})" if text.startswith("-") else text

    def op(self, value: Any, depth: int) -> str:
        if type(value) is not list or len(value) not in (2, 3) or type(value[0]) is not str:
            raise DecompileError('$op takes a list ["operator", operand, ...]')
        op, *operands = value
        if op == "instanceof" and len(operands) == 2 and type(operands[1]) is str:
            return f"({self.operand(operands[0], depth)} instanceof {operands[1]})"
        parts = [self.operand(v, depth) for v in operands]
        if len(parts) == 1:
            if type(operands[0]) in (int, float) and not parts[0].startswith("("):
                # `-1` and `+1` read back as number literals: `-(1)` is the operator
                return f"({op}({parts[0]}))"
            space = " " if op[-1:].isalpha() else ""  # `typeof x`
            return f"({op}{space}{parts[0]})"
        return f"({parts[0]} {op} {parts[1]})"

    def call(self, name: str, args: Any, depth: int) -> str:
        if type(args) is list:
            parts = [self.expr(a, depth + 1) for a in args]
        elif type(args) is dict and len(args) != 1 and not any(k[:1] == "$" for k in args):
            parts = [self.object(args, depth + 1)]  # named arguments
        elif type(args) is dict and len(args) == 1 and next(iter(args))[:1] != "$":
            parts = [self.object(args, depth + 1)]  # one named argument (no registry here)
        else:
            parts = [self.expr(args, depth + 1)]
        if is_identifier_name(name) and name not in RESERVED and name not in LITERAL_WORDS:
            return f"{name}({', '.join(parts)})"
        if is_identifier_name(name) and parts:
            # a keyword as a function name is still a valid method name: x.delete(y)
            receiver = self.postfix_target(parts[0], args[0] if type(args) is list else args)
            return f"{receiver}.{name}({', '.join(parts[1:])})"
        space, _, rest = name.partition(".")
        if (
            rest
            and is_identifier_name(space)
            and space not in RESERVED
            and space not in LITERAL_WORDS
            and all(is_identifier_name(part) for part in rest.split("."))
        ):
            return f"{name}({', '.join(parts)})"  # a namespace's function (SPEC 2.2)
        raise DecompileError(f"the function name {name!r} cannot be written in Plan")

    def try_form(self, value: Any, depth: int) -> str:
        text = caught_text(value, lambda node: self.expr(node, depth + 1))  # `f(x).catch(h)`
        if text is not None:
            return text
        raise DecompileError(
            "a `$try` of anything but a call is a statement: Plan writes it only as the value "
            "a block returns (`try { ... } catch (e) { ... }`) or an alias of it (of a call: "
            "`f(x).catch((e) => ...)`)"
        )

    def throw_form(self, value: Any, depth: int) -> str:  # `Promise.reject(new Error(m))`
        return f"Promise.reject({self.thrown(value, depth)})"

    def while_form(self, value: Any, depth: int) -> str:
        raise DecompileError(
            "a `$while` loop is a statement: Plan writes it only as an alias of the program's "
            "block (`x = state; while (...) { ... }`), not inside an expression; Plan2, whose "
            "`${...}` are expressions, has no loops"
        )

    def postfix_target(self, text: str, node: Any) -> str:
        if type(node) in (int, float) and type(node) is not bool:
            return f"({text})"
        return text

    def get(self, value: Any, depth: int, first: str = "") -> str:
        if type(value) is not list or len(value) < 2:
            raise DecompileError("$get takes a list [target, key, ...] with at least one key")
        out = [self.postfix_target(self.expr(value[0], depth + 1), value[0])]
        for i, key in enumerate(value[1:]):
            lead = first if i == 0 else ""
            if type(key) is str and is_identifier_name(key):
                out.append((lead or ".") + key)
            else:
                out.append(lead + "[" + self.expr(key, depth + 1) + "]")
        return "".join(out)

    def template(self, parts: Any, depth: int) -> str:
        if type(parts) is not list:
            raise DecompileError("$template takes a list of parts")
        out = ["`"]
        text = ""  # adjacent texts are escaped together: "$" then "{" must not form "${"
        for part in parts:
            if type(part) is str:
                text += part
                continue
            if text:
                out.append(template_text(text))
                text = ""
            out.append("${" + self.expr(part, depth + 1) + "}")
        if text:
            out.append(template_text(text))
        out.append("`")
        return "".join(out)

    def object(self, entries: dict[str, Any], depth: int) -> str:
        if not entries:
            return "{}"
        items = [f"{key_text(k)}: {self.expr(v, depth + 1)}" for k, v in entries.items()]
        return "{" + ", ".join(items) + "}"

    def data(self, value: Any, depth: int) -> str:
        """A JSON value as a literal whose evaluation is that value (for ``$quote``)."""
        if depth > self.max_depth:
            raise DecompileError(f"the tree is nested more than {self.max_depth} levels deep")
        if type(value) is list:
            return "[" + ", ".join(self.data(v, depth + 1) for v in value) + "]"
        if type(value) is dict:
            if not value:
                return "{}"
            items = [f"{key_text(k)}: {self.data(v, depth + 1)}" for k, v in value.items()]
            return "{" + ", ".join(items) + "}"
        return self.expr(value, depth)


#: the writer of each core form (its value and depth -> Plan text)
_FORMS: dict[str, Callable[[_Writer, Any, int], str]] = {
    "$ref": _Writer.ref,
    "$get": _Writer.get_plain,
    "$template": _Writer.template,
    "$object": _Writer.object_form,
    "$quote": _Writer.data,
    "$undefined": _Writer.undefined,
    "$op": _Writer.op,
    "$if": _Writer.conditional,
    "$get?": _Writer.get_optional,
    "$fn": _Writer.arrow,
    "$method": _Writer.method,
    "$method?": _Writer.method_optional,
    "$global": _Writer.global_call,
    "$spread": _Writer.spread,
    "$merge": _Writer.merge,
    "$unwrap": _Writer.unwrap,
    "$while": _Writer.while_form,
    "$try": _Writer.try_form,
    "$throw": _Writer.throw_form,
    "$letrec": letrec_form,
    "$apply": apply_form,
}


def decompile_expression(tree: Any, *, max_depth: int = 1000) -> str:
    """One expression of the call tree as Plan text. Raises :class:`DecompileError`."""
    writer = _Writer(max_depth)
    writer.recursive = {}
    try:
        text = writer.expr(tree)
    except RecursionError:
        raise DecompileError("the tree is nested too deeply to write as Plan")
    if writer.recursive:
        raise DecompileError("a recursive function ($letrec) is written only in a whole program")
    return text


def decompile(tree: Any, *, max_depth: int = 1000) -> str:
    """A whole program as Plan text: ``a = f(1);\\nreturn g(a);``.

    A tree that is not a ``$let``/``$return``/``$use`` block is written as ``return <tree>;``.
    A conditional whose branches define aliases becomes an ``if`` statement, and an arrow
    function's block body ``{ const a = ...; return e; }``. Raises :class:`DecompileError` for
    trees with no Plan equivalent (a block anywhere else, function names that are not
    identifiers, NaN/Infinity).
    """
    writer = _Writer(max_depth)
    writer.recursive = {}
    block = tree if is_block(tree) else {"$return": tree}
    try:
        lines = writer.block(block, 0)
    except RecursionError:
        raise DecompileError("the tree is nested too deeply to write as Plan")
    return "\n".join([*definitions(writer), *lines])
