"""An item of an array set in a loop's body (SPEC 10, "Loops"): ``counts[n]++;``, ``xs[i] =
v;``, ``grid[i] += 1;`` on an array the program made before the loop (an array literal,
``new Array(n).fill(0)``, a new array of ``map``, ``slice``..., a version a statement made:
:func:`.arraychanges.array_version`) or that the loop pushes onto. JavaScript changes the
array itself; the change is the ``item`` contribution of the array's family (``push``): the
loop is a fold (:mod:`.loopfold`), whose step is ``prev.[]=(i, v)`` (the runtime's copy with
the item set, :mod:`dialectic.values.arraysets`, refused past the end or for an index that
is no item's), made in place when the fold owns the array
(:mod:`dialectic.resolve.foldstate`). An object's member set stays an ``entry``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.arraychanges import array_version

if TYPE_CHECKING:
    from dialectic.frontends.plan.loopcheck import Body

__all__ = ["array_accumulator", "call_result"]


def array_accumulator(body: Body, name: str) -> bool:
    """Whether the accumulator ``name`` of the loop ``body`` is an array: one an enclosing
    body changes as an array, or one its block defined as an array the program made."""
    b: Body | None = body
    while b is not None:
        kind = b.acc_kind.get(name)
        if kind is not None:
            return kind == "push"
        if name in b.defs:  # (a local of the body: `const row = [0, 0];`)
            value = b.defs[name][1]
            return array_version(value)
        if b.parent is None:
            before = b.state.finals.get(name)  # (an earlier loop's array: `push` family)
            if before is not None:
                return before[0] == "push"
            return name in b.aliases and (
                array_version(b.aliases[name]) or call_result(b.aliases[name])
            )
        b = b.parent
    return False


def call_result(value: Any) -> bool:
    """Whether ``value`` is a registered function's result (``await get_rows()``), whose type
    the reading does not know: its item sets are ``[]=``, which sets an array's item or an
    object's member as JavaScript does (and refuses anything else as it runs)."""
    return type(value) is dict and len(value) == 1 and str(next(iter(value)))[:1] != "$"
