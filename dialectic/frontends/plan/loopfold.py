"""A loop that reads what it changes (SPEC 10, "Loops"): a fold. Each change to an accumulator
makes a new version of it (a hidden alias of the body), each read after a change reads the
latest version, and the loop is ``[...xs].reduce((_s, x) => {...; return state;}, initial)``
whose state holds every accumulator. Used by :mod:`.loopcheck` and :mod:`.loopemit`."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.loopbuild import Contribution, reducer, step, when
from dialectic.frontends.plan.spans import SpanRecord

__all__ = ["fold_step"]


def fold_step(
    c: Contribution,
    previous: str,
    fresh: Any,
    rec: SpanRecord | None,
) -> Any:
    """The accumulator's next version after the change ``c`` from version ``previous``: a new
    array or object (``[...prev, ...items]``, ``{...prev, ...Object.fromEntries(entries)}``),
    JavaScript's step on a number or a text, a loop inside the loop applied in turn."""
    prev = {"$ref": previous}
    value: Any = {"$ref": c.value} if c.value is not None else None
    out: Any
    if c.kind == "pop":  # `stack.pop()`: `stack.slice(0, -1)` (reading the item first)
        out = {"$method": [prev, "slice", 0, -1]}
        if value is not None:
            again = {"$method": [prev, "slice", 0, -1]}
            out = {"$if": [{"$op": ["typeof", value]}, out, again]}  # (a text: truthy)
    elif c.kind == "push":
        out = [{"$spread": prev}, {"$spread": value}]
    elif c.kind == "item":  # `xs[i] = v`: the pair [i, v] set (values/arraysets.py)
        out = {"$method": [prev, "[]=", {"$get": [value, 0]}, {"$get": [value, 1]}]}
    elif c.kind == "entry":
        out = {"$merge": [prev, {"$global": ["Object.fromEntries", value]}]}
    elif c.kind == "set":
        out = value
    elif c.nested is not None:
        key, changes = c.nested
        fn = reducer(fresh("_r"), key, changes, fresh, rec)
        out = {"$method": [value, "reduce", {"$fn": fn}, prev]}
    else:
        out = step(c.kind, prev, value)
    return when(c.reach, out, prev)
