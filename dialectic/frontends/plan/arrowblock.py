"""An arrow function's block body (:mod:`.arrows`): ``{ const a = ...; return expr; }``, its
expression statements, the changes it makes to its accumulator (``acc[k] = v;``,
``acc.push(x);``, see :mod:`.accumulator`) and what to write instead of a refused statement."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.accumulator import CHANGES as NEXT_VERSION
from dialectic.frontends.plan.accumulator import Changes, key_set
from dialectic.frontends.plan.arrowchanges import change_refusal
from dialectic.frontends.plan.base import CHANGES, DECLARATORS, ParseFailure
from dialectic.frontends.plan.keywords import (
    RESERVED,
    keyword_hint,
)
from dialectic.frontends.plan.logicalset import LOGICAL_SETS, only_if
from dialectic.frontends.plan.loopbuild import has_call
from dialectic.frontends.plan.order import first_read
from dialectic.frontends.plan.patterns import PatternsMixin
from dialectic.frontends.plan.redefinition import defined_twice
from dialectic.frontends.plan.runchanges import holds_statements

__all__ = ["ArrowBlockMixin"]

#: reserved words that start an expression statement of a body (`await f(x);`, `await new
#: Promise(r => setTimeout(r, ms));`): the expression parser reads them
_EXPRESSION_WORDS = frozenset(["await", "new"])


def _same_read(run: Any, value: Any) -> bool:
    """Whether the expression statement ``value`` reads the name the statement before it,
    ``run``, reads: running it again changes nothing (an alias runs once)."""
    return type(value) is dict and list(value) == ["$ref"] and run == value


class ArrowBlockMixin(PatternsMixin):
    """Reads an arrow function's block body; :class:`.arrows.ArrowsMixin` builds on it."""

    if TYPE_CHECKING:  # (:mod:`.loopchanges`)

        def fresh(self, prefix: str) -> str: ...

    _returned: tuple[int, int] = (0, 0)  # the last arrow block's `return` expression (tokens)

    def block_body(self, depth: int, acc: str | None = None) -> tuple[Any, Changes | None]:
        """``{ const a = ...; return expr; }`` as ``{"$let": ..., "$return": expr}``, and the
        changes the block makes to ``acc`` (its arrow's first parameter: ``acc[k] = v;``,
        ``acc.push(x);``, then ``return acc;``, see :mod:`.accumulator`), if any."""
        kinds, values = self.kinds, self.values
        self.pos += 1  # `{`
        bindings: dict[str, Any] = {}
        named_at: dict[str, int] = {}  # each name's token where the body declares it
        result: Any = None
        done = False
        changes: Changes | None = None
        #: the statements in order: a `const`'s name, or an expression statement's value
        order: list[tuple[str | None, Any, int, int]] = []
        while True:
            pos = self.pos
            kind = kinds[pos]
            if kind == ";":
                self.pos += 1
                continue
            if kind == "}":
                self.pos += 1
                break
            if done:
                raise self.fail(
                    "statements after `return` in an arrow function's body",
                    self.starts[pos],
                    "end the body with `return expr;`",
                )
            word = values[pos] if kind == "name" else None
            if acc is not None and word == acc and kinds[pos + 1] in (".", "["):
                changes = self._accumulate(changes, acc, pos, depth, bindings)
                continue
            if word in DECLARATORS and kinds[pos + 1] in ("[", "{"):
                # `const {name, price = 0} = item;`, `const [k, v] = entry;` (:mod:`.patterns`)
                if changes is not None:
                    raise self._const_after_change(pos, acc)
                for name, value, at, first, last in self.destructure(
                    pos, bindings, depth + 1, lambda: self.fresh("_parts")
                ):
                    if name in bindings:
                        raise self.fail(*defined_twice(self, name, named_at[name], at))
                    named_at[name] = at
                    bindings[name] = value
                    rec = self.rec
                    if rec is not None:
                        rec[(rec.pin(bindings), name)] = (self.starts[first], self.ends[last])
                    order.append((name, None, first, last))
                continue
            if word in DECLARATORS and kinds[pos + 1] == "name" and kinds[pos + 2] == "=":
                name = values[pos + 1]
                if name in bindings:  # (pointing at the first one declared again)
                    raise self.fail(*defined_twice(self, name, named_at[name], pos + 1))
                named_at[name] = pos + 1
                if changes is not None:
                    raise self._const_after_change(pos, acc)
                self.pos = pos + 3
                start = self.pos
                bindings[name] = self.expr(depth + 1)
                rec = self.rec
                if rec is not None:
                    rec[(rec.pin(bindings), name)] = (self.starts[start], self.ends[self.pos - 1])
                order.append((name, None, start, self.pos - 1))
                if holds_statements(bindings[name]):  # (its statements run: .runchanges)
                    order.append((None, {"$ref": name}, start, self.pos - 1))
                self.end_statement(f"definition of `{name}`")
            elif word == "return":
                self.pos = pos + 1
                result = self.expr(depth + 1)
                self._returned = (pos + 1, self.pos - 1)
                self.end_statement("`return` statement")
                done = True
            else:
                value = self._body_statement(pos, depth, acc, bindings)
                if not (order and order[-1][0] is None and _same_read(order[-1][1], value)):
                    order.append((None, value, pos, self.pos - 1))  # (`o;` after `o`'s run)
                self.end_statement("expression")
        if not done:
            raise self.fail(
                "the arrow function's body has no `return`",
                self.starts[self.pos - 1],
                "end the body with `return expr;`",
            )
        if changes is not None:
            if result != {"$ref": acc}:
                raise self.fail(
                    f"an arrow function that changes `{acc}` must return it",
                    changes.at,
                    f"end the body with `return {acc};`",
                )
            result = changes.value()
        if any(name is None for name, _, _, _ in order):
            return self._statements_body(order, bindings, result), changes
        if not bindings:
            return result, changes
        return {"$let": bindings, "$return": result}, changes

    def _const_after_change(self, pos: int, acc: str | None) -> ParseFailure:
        return self.fail(
            "a `const` after a change to the accumulator",
            self.starts[pos],
            f"define the consts first, then change `{acc}`, then `return {acc};`",
        )

    def _body_statement(self, pos: int, depth: int, acc: str | None, local: dict[str, Any]) -> Any:
        """An expression statement at token ``pos`` of an arrow's block body (a call run for
        its effect, ``console.log(x)`` read as ``[x]``): it runs in its place, as in
        JavaScript. A change to a value (``o.k = v``, ``t += 1``) is refused."""
        kinds, values = self.kinds, self.values
        refused = self._refused_statement(pos, acc, local)
        word = values[pos] if kinds[pos] == "name" else None
        if (
            word is not None
            and word not in _EXPRESSION_WORDS
            and (word in RESERVED or word in DECLARATORS)
        ):
            raise refused
        self.pos = pos
        value = self.expr(depth + 1)
        nxt = kinds[self.pos]
        if nxt == "=" or (nxt == "op" and values[self.pos] in CHANGES):
            raise refused
        return value

    def _statements_body(
        self, order: list[tuple[str | None, Any, int, int]], bindings: dict[str, Any], result: Any
    ) -> Any:
        """A block body with expression statements: ``{"$do": [...], "$return": result}``,
        its ``const``s as ``{"$let": {...}}`` steps in their places (SPEC 1.2)."""
        rec = self.rec
        items: list[Any] = []
        group: dict[str, Any] | None = None
        for name, value, first, last in order:
            if name is None:
                if rec is not None:
                    rec[(rec.pin(items), len(items))] = (self.starts[first], self.ends[last])
                items.append(value)
                group = None
                continue
            if group is None:
                group = {}
                items.append({"$let": group})
            group[name] = bindings[name]
            if rec is not None:
                rec[(rec.pin(group), name)] = (self.starts[first], self.ends[last])
        return {"$do": items, "$return": result}

    def _refused_statement(self, pos: int, acc: str | None, local: dict[str, Any]) -> ParseFailure:
        """The refusal of the statement at token ``pos`` of an arrow's block body: what it
        changes and what to write (:mod:`.arrowchanges`), else the statements a body holds."""
        said = change_refusal(self.kinds, self.values, pos, acc, local)
        if said is not None:
            return self.fail(said[0], self.starts[pos], said[1])
        return self.fail(
            "an arrow function's body holds `const name = expr;` lines, expression "
            "statements and one `return expr;`",
            self.starts[pos],
            self._statement_hint(pos),
        )

    def _accumulate(
        self, changes: Changes | None, acc: str, pos: int, depth: int, local: dict[str, Any]
    ) -> Changes:
        """``acc[k] = v;``, ``acc.k = v;`` or ``acc.push(a, b);`` at token ``pos``, added to
        ``changes`` (see :mod:`.accumulator`)."""
        if changes is None:
            changes = Changes(acc, self.starts[pos])
        self.pos = pos
        target = self.expr(depth + 1)
        kinds = self.kinds
        kind: str | None = None
        if kinds[self.pos] == "=" and type(target) is dict and set(target) == {"$get"}:
            got = target["$get"]
            if len(got) == 2 and got[0] == {"$ref": acc}:
                self.pos += 1
                value = self.expr(depth + 1)
                kind, parts = "object", [key_set(got[1], value)]
        elif (
            type(target) is dict
            and set(target) == {"$get"}
            and self.values[self.pos] in LOGICAL_SETS
        ):
            got = target["$get"]  # `acc[k] ??= v;` (:mod:`.logicalset`)
            if len(got) == 2 and got[0] == {"$ref": acc} and not has_call(got[1]):
                op = self.values[self.pos]
                self.pos += 1
                value = self.expr(depth + 1)
                part = only_if(op, target, key_set(got[1], value), {"$object": {}})
                kind, parts = "object", [part]
        elif type(target) is dict and set(target) == {"$method"}:
            called = target["$method"]
            if called[0] == {"$ref": acc} and called[1] == "push":
                kind, parts = "array", called[2:]
        elif type(target) is dict and len(target) == 1 and next(iter(target)) in NEXT_VERSION:
            ((method, called),) = target.items()  # `acc.set(k, v);` (:mod:`.collections`)
            if called[:1] == [{"$ref": acc}] and len(called) - 1 <= NEXT_VERSION[method]:
                kind, parts = "collection", [[method, *called[1:]]]
        if kind is None or changes.kind not in (None, kind):
            raise self._refused_statement(pos, acc, local)
        if changes.parts and first_read(parts, {acc}) is not None:
            raise self.fail(
                f"a change to `{acc}` that reads `{acc}` after another change",
                self.starts[pos],
                f"make one change per step, or return a new value: ({acc}, x) => "
                f"({{...{acc}, [x.key]: ...}})",
            )
        changes.kind = kind
        changes.parts.extend(parts)
        self.end_statement(f"change to `{acc}`")
        return changes

    def _statement_hint(self, pos: int) -> str:
        """What to write instead of the statement at token ``pos`` in an arrow's body: a change
        to a value (``acc[k] = v``, ``acc.push(x)``, ``total += x``) gets a new value instead."""
        kinds, values = self.kinds, self.values
        if values[pos] == "function" or values[pos : pos + 2] == ["async", "function"]:
            return keyword_hint("function")
        if kinds[pos] == "name":
            nxt = kinds[pos + 1]
            if (
                nxt == "."
                and values[pos + 3 : pos + 4] == ["("]
                and values[pos + 2] in ("push", "unshift", "splice", "pop", "shift")
            ):
                return (
                    "Plan does not follow this change inside an arrow function: return a new "
                    "array, as in "
                    "(acc, x) => [...acc, x]"
                )
            i, depth = pos + 1, 0
            while kinds[i] not in ("eof", ";") and not (depth == 0 and kinds[i] == "}"):
                kind = kinds[i]
                if kind in ("(", "[", "{"):
                    depth += 1
                elif kind in (")", "]", "}"):
                    depth -= 1
                elif (depth == 0 and kind == "=") or (kind == "op" and values[i] in CHANGES):
                    if nxt in (".", "["):
                        return (
                            "Plan does not follow this change inside an arrow function: "
                            "return a new object, as in "
                            "(acc, x) => ({...acc, [x.key]: (acc[x.key] ?? 0) + 1})"
                        )
                    return (
                        "Plan does not follow this change inside an arrow function: "
                        "return the new value, as in "
                        "(total, x) => total + x.price"
                    )
                i += 1
        return "compute values with expressions: x => { const p = x.price; return p * 2; }"
