"""Object literals, read by the Plan parser (SPEC 10, "Mapping to the call tree"):
``{key: value}`` with name, text and number keys, shorthand properties, spreads and computed
keys (a ``$merge`` of the parts in JavaScript's order: ``[k]: v`` is the part
``Object.fromEntries([[k, v]])``, later keys win), a key written twice refused with the place
of the first, and the forms Plan does not have (methods, ``key = value``) refused with what to
write instead. The mixin :class:`ObjectLiteralsMixin` of
:class:`dialectic.frontends.plan.parser.Parser`, moved out of :mod:`.parser`, which keeps the
other literals and primary expressions.
"""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.jsnumber import js_number_to_string
from dialectic.frontends.plan.keywords import RESERVED
from dialectic.frontends.plan.readbudget import ReadBudgetMixin

__all__ = ["ObjectLiteralsMixin"]


class ObjectLiteralsMixin(ReadBudgetMixin):
    """``{...}`` in an expression (see the module)."""

    def _computed_member(self, pos: int, depth: int) -> Any:
        """``[key]: value`` at token ``pos`` (the ``[``) as a part of a ``$merge``."""
        self.pos = pos + 1
        key = self.expr(depth)
        if self.kinds[self.pos] != "]":
            raise self.unexpected(self.tok(self.pos), "`]` after the computed key")
        if self.kinds[self.pos + 1] != ":":
            raise self.unexpected(self.tok(self.pos + 1), "`:` after the computed key")
        self.pos += 2
        start = self.pos
        value = self.expr(depth)
        pair = [key, value]
        rec = self.rec
        if rec is not None:
            rec[(rec.pin(pair), 0)] = (self.starts[pos + 1], self.ends[start - 3])
            rec[(rec.pin(pair), 1)] = (self.starts[start], self.ends[self.pos - 1])
        return {"$global": ["Object.fromEntries", [pair]]}

    def _key_problem(self, key: str, first_seen: dict[str, int], pos: int) -> None:
        """A key of an object literal written twice; or (every 256 keys) too many keys for
        ``max_nodes`` (each value is a node at least)."""
        if key in first_seen:
            raise self.fail(
                f"duplicate key `{key}` in the object literal (first at "
                f"{self.index.where(self.starts[first_seen[key]])})",
                self.starts[pos],
                "each key may appear only once",
            )
        self.many_items(len(first_seen) + 1, pos)

    def obj(self, depth: int) -> Any:
        kinds = self.kinds
        values = self.values
        rec = self.rec
        out: dict[str, Any] = {}
        first_seen: dict[str, int] = {}  # key -> token index
        dollar = False
        parts: list[Any] = []  # with spreads: objects and spread values, in order
        depth += 1
        while True:
            pos = self.pos
            kind = kinds[pos]
            if kind == "}":
                self.pos = pos + 1
                break
            if kind == "name":
                key = values[pos]
            elif kind == "str":
                key = self.string(pos)
            elif kind == "num":
                # (a literal is a double: `1152921504606846976` is the key "1152921504606847000")
                key = js_number_to_string(float(self.number(pos)))
            elif kind == "[" or (kind == "op" and values[pos] == "..."):
                # `...x`, or `[k]: v` as the part `...Object.fromEntries([[k, v]])`
                # (JavaScript's order: the key, then the value; later keys win)
                if kind == "[":
                    part = self._computed_member(pos, depth)
                else:
                    self.pos = pos + 1
                    part = self.expr(depth)
                if out:
                    parts.append(self._object_part(out, dollar))
                    out, first_seen, dollar = {}, {}, False
                if rec is not None and kind != "[":
                    rec[(rec.pin(parts), len(parts))] = (
                        self.starts[pos + 1],
                        self.ends[self.pos - 1],
                    )
                parts.append(part)
                kind = kinds[self.pos]
                if kind == ",":
                    self.pos += 1
                elif kind != "}":
                    raise self.unexpected(self.tok(self.pos), "`,` or `}` in the object literal")
                continue
            else:
                raise self.unexpected(self.tok(pos), "a property name or `}`")
            if key in first_seen or not (len(first_seen) + 1) & 255:
                self._key_problem(key, first_seen, pos)
            first_seen[key] = pos
            if key[:1] == "$":
                dollar = True
            nxt = kinds[pos + 1]
            if nxt == ":":
                self.pos = pos + 2
                value = self.expr(depth)
                if rec is not None:
                    rec[(rec.pin(out), key)] = (self.starts[pos + 2], self.ends[self.pos - 1])
            elif kind == "name" and (nxt == "," or nxt == "}"):
                self.pos = pos + 1
                if key in RESERVED or key == "this":
                    raise self.fail(
                        f"`{key}` cannot be a shorthand property",
                        self.starts[pos],
                        f"write it in full: {{{key}: value}}",
                    )
                value = {"$undefined": None} if key == "undefined" else {"$ref": key}
                if rec is not None:
                    rec[(rec.pin(out), key)] = (self.starts[pos], self.ends[pos])
            elif nxt == "(":
                self.pos = pos + 1
                raise self.fail(
                    "Plan has no methods in object literals",
                    self.starts[pos + 1],
                    "write key: value pairs",
                )
            elif nxt == "=":
                self.pos = pos + 1
                raise self.fail(
                    "expected `:` after the property name, found `=`",
                    self.starts[pos + 1],
                    "object literals are written {key: value}",
                )
            else:
                self.pos = pos + 1
                raise self.unexpected(self.tok(pos + 1), "`:` after the property name")
            out[key] = value
            kind = kinds[self.pos]
            if kind == ",":
                self.pos += 1
            elif kind != "}":
                raise self.unexpected(self.tok(self.pos), "`,` or `}` in the object literal")
        if parts:
            if out:
                parts.append(self._object_part(out, dollar))
            return {"$merge": parts}
        return self._object_part(out, dollar)

    def _object_part(self, out: dict[str, Any], dollar: bool) -> Any:
        if len(out) == 1 or dollar:
            return {"$object": out}
        return out
