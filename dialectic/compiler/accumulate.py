"""A ``reduce`` whose steps change its own accumulator in place (SPEC 1.8, "``reduce``").

The resolver (:mod:`dialectic.resolve.accumulate`) marks the ``reduce`` arrows whose
accumulator nothing but the step can hold, and the merge (``{...acc, [k]: v}``) or array
(``[...acc, x]``) that makes each step's result. Such a ``reduce`` applies its arrow in an
:class:`Owner` frame, which carries from step to step the accumulator the reduce made itself;
the marked merge evaluates its parts as before, then, when its base is that accumulator,
changes it in place (the cost of the change, not of the accumulator), else copies the base
once and owns the copy. The initial value, or an item of the array, is never changed; the keys
keep the places the copy would give them; every check (a part that is no object, the
10,000,000-item limit) is the copy's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dialectic.compiler.arrows import FRAME, Arrow, Frame, Steps, merge, spread_args
from dialectic.outcome.errors import JSONPath
from dialectic.run.evaluator import State

__all__ = ["Owner", "merge_owned", "reduce_owned", "reduce_owned_async", "spread_owned"]


class Owner(Frame):
    """A ``reduce`` step's frame; ``owned``: the accumulator this reduce made (a copy nothing
    else holds), which its step may change in place, or None."""

    __slots__ = ("owned",)

    def __init__(self, args: tuple[Any, ...], size: int, owned: Any) -> None:
        Frame.__init__(self, args, size)
        self.owned = owned


def merge_owned(frame: int, path: JSONPath, parts: list[Any]) -> dict[str, Any]:
    """``{...acc, ...parts}`` (``parts[0]`` is ``acc``) in the step of the reduce at nesting
    level ``frame``: ``acc`` changed in place when that reduce owns it (else a new object,
    which it owns from then on)."""
    owner = FRAME.get()[frame]
    base = parts[0]
    if type(owner) is not Owner:  # (not applied by a reduce that owns: as written)
        return merge(parts, path)
    if type(base) is dict:
        if base is not owner.owned:
            base = owner.owned = dict(base)
        return merge(parts[1:], path, base) if len(parts) > 1 else base
    out = owner.owned = merge(parts, path)  # ({...null, k: v}, or a failure)
    return out


def spread_owned(
    frame: int, spreads: Sequence[bool], path: JSONPath, items: list[Any]
) -> list[Any]:
    """``[...acc, ...items]`` (``items[0]`` is ``acc``, spread) as :func:`merge_owned`."""
    owner = FRAME.get()[frame]
    base = items[0]
    if type(owner) is not Owner:
        return spread_args(items, spreads, path)
    if type(base) is list:
        if base is not owner.owned:
            base = owner.owned = list(base)
        return spread_args(items[1:], spreads[1:], path, base)
    out = owner.owned = spread_args(items, spreads, path)  # ([..."ab", x], or a failure)
    return out


def reduce_owned(arrow: Arrow, s: State, xs: list[Any], acc: Any, start: int, steps: Steps) -> Any:
    """The loop of ``reduce_sync`` for an arrow that changes its accumulator in place."""
    body = arrow.body.sync
    assert body is not None
    size = arrow.locals
    outer = FRAME.get()
    var = FRAME
    owned = None
    for i in range(start, len(xs)):
        steps.take(s, 1)
        frame = Owner((acc, xs[i], i, xs), size, owned)
        token = var.set((*outer, frame))
        try:
            acc = body(s)
        finally:
            var.reset(token)
        owned = frame.owned
    return acc


async def reduce_owned_async(
    arrow: Arrow, s: State, xs: list[Any], acc: Any, start: int, steps: Steps
) -> Any:
    """:func:`reduce_owned` for an arrow that awaits."""
    body = arrow.body
    size = arrow.locals
    owned = None
    for i in range(start, len(xs)):
        steps.take(s, 1)
        frame = Owner((acc, xs[i], i, xs), size, owned)
        token = FRAME.set((*FRAME.get(), frame))
        try:
            acc = body.sync(s) if body.sync is not None else await body.aio(s)  # type: ignore[misc]
        finally:
            FRAME.reset(token)
        owned = frame.owned
    return acc
