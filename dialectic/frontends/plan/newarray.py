"""``Array(n)`` and ``new Array(n)`` as the ways models make a new array of ``n`` items (SPEC
10, "Mapping to the call tree"): read only with ``.fill(...)`` or ``.keys()`` right after them.

``Array(n).fill(v)`` is ``Array.from({length: n}, () => v)``, ``Array(n).fill()`` is
``Array.from({length: n})`` (``n`` undefined items), ``Array(n).keys()`` is
``Array.from({length: n}).keys()`` (so ``[...Array(n).keys()]`` is ``0..n-1``). ``fill``
changes the array in place in JavaScript: here the array is new, so nothing else holds it.
Anything else is refused: ``Array(n)`` alone is ``n`` holes, which ``map`` skips in JavaScript.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import ParserBase

__all__ = ["NewArrayMixin"]

_HINT = (
    "make the items at once: Array.from({length: n}, (_, i) => i), "
    "Array.from({length: n}, () => value), or Array(n).fill(value)"
)


def _plain(v: Any) -> bool:
    """Whether ``v`` is a value the front end may read once per item: a literal, a name, or an
    array or object literal of those (no call, operator or member that could run or fail)."""
    if v is None or type(v) in (str, int, float, bool):
        return True
    if type(v) is list:
        return all(_plain(x) for x in v)
    if type(v) is not dict:
        return False
    if len(v) != 1:  # an object literal of several keys (or none)
        return all(k[:1] != "$" and _plain(x) for k, x in v.items())
    ((key, inner),) = v.items()  # (one key not starting with `$`: a call)
    if key == "$ref" or key == "$undefined":
        return True
    if key == "$object" and type(inner) is dict:
        return all(_plain(x) for x in inner.values())
    return False


class NewArrayMixin(ParserBase):
    """``Array(n).fill(v)``, ``Array(n).fill()``, ``Array(n).keys()`` (and with ``new``)."""

    if TYPE_CHECKING:  # defined by the other mixins

        def arguments(self, args: list[Any], depth: int) -> None: ...

    def new_array(self, pos: int, depth: int) -> Any:
        """``Array(`` at token ``pos`` (``new`` before it is skipped by the caller), with its
        ``.fill(...)`` or ``.keys()``."""
        kinds, values = self.kinds, self.values
        self.pos = pos + 2
        args: list[Any] = []
        self.arguments(args, depth)
        if len(args) != 1 or (type(args[0]) is dict and "$spread" in args[0]):
            raise self.fail(
                "Array(...) takes one count here (Array(1, 2) is the array [1, 2] in "
                "JavaScript; write the array itself)",
                self.starts[pos],
                _HINT,
            )
        made: dict[str, Any] = {"$global": ["Array.from", {"$object": {"length": args[0]}}]}
        rec = self.rec
        if rec is not None:
            rec[(rec.pin(made["$global"]), 1)] = (self.starts[pos], self.ends[self.pos - 1])
            span = rec.get((id(args), 0))
            if span is not None:
                rec[(rec.pin(made["$global"][1]["$object"]), "length")] = span
            self.keep.append(args)
        p = self.pos
        member = values[p + 1] if kinds[p] == "." and kinds[p + 1] == "name" else None
        if member not in ("fill", "keys") or kinds[p + 2] != "(":
            raise self.fail(
                "Array(n) is an array of n holes, which JavaScript's map and forEach skip",
                self.starts[pos],
                _HINT,
            )
        self.pos = p + 3
        given: list[Any] = []
        self.arguments(given, depth)
        if member == "keys":
            if given:
                raise self.fail("keys() takes no arguments", self.starts[p + 1])
            return {"$method": [made, "keys"]}
        if not given:
            return made
        if len(given) > 1:
            raise self.fail(
                "fill(value, start, end) of a part of the array",
                self.starts[p + 1],
                "fill the whole array, Array(n).fill(v), or build it: "
                "Array.from({length: n}, (_, i) => i < k ? a : b)",
            )
        value = given[0]
        if not _plain(value):
            raise self.fail(
                "Array(n).fill(v) takes a literal or a name here (JavaScript computes v once; "
                "each item would compute it again)",
                self.starts[p + 1],
                "bind the value first: const v = ...; then Array(n).fill(v)",
            )
        if type(value) is list or (type(value) is dict and not {"$ref", "$undefined"} & set(value)):
            # (an array or object literal: JavaScript fills every item with the one value,
            # so a change to one item's part shows in all of them; `[v][0]`, the same value,
            # is no part the program wrote here for :func:`.nestedchanges.deep_fresh`)
            value = {"$get": [[value], 0]}
        return {"$method": [made, "map", {"$fn": [[], value]}]}
