"""What a front end's reading of a program may cost (SPEC 7): the nodes the tree it makes
has, counted as it makes them, and the time, bounded by the run's deadline.

A front end reads a program statement by statement (Plan) or alias by alias (Plan2). Each
tree it has finished is counted once (:func:`count_nodes`, as :func:`dialectic.tree.measure`
counts) and the count is checked against ``max_nodes`` there: a program of a megabyte fails at
the statement where its nodes pass the limit, not after reading it all and locating the node in
the whole tree. The clock (:class:`Clock`) is read every :data:`TICKS` statements: a reading that
takes longer than the run's ``deadline`` ends as a run past it does (``limit_exceeded``,
``deadline``)."""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any

__all__ = [
    "TICKS",
    "Clock",
    "count_nodes",
    "deadline_message",
    "nodes_message",
]

#: statements read between two looks at the clock (a statement costs microseconds to a
#: millisecond: the deadline is missed by far less than a second)
TICKS = 32

_NODES_HINT = "Simplify the program or raise the `max_nodes` limit."
_DEADLINE_HINT = "split the work into smaller programs, or raise the `deadline` limit"


def count_nodes(
    tree: Any, stop: int, skip: Collection[str] = (), counted: Collection[int] = ()
) -> int:
    """The JSON values of ``tree`` (each object, array and scalar; keys are not values), as
    :func:`dialectic.tree.measure.scan` counts them; the count stops once it is past
    ``stop`` (the result is then ``stop + 1`` or a little more).

    ``skip``: names whose one-key objects (``{"f": args}``, ``{"$ref": "f"}``) count nothing,
    their parts included (the uses of a program's own functions, which their bodies replace
    later, perhaps smaller): the count stays a lower bound of the tree's. ``counted``: the ids
    of objects and arrays counted before (the trees of a block's statements, inside the tree of
    the statement holding the block): they count nothing again."""
    count = 0
    level: list[Any] = [tree]
    while level:
        count += len(level)
        if count > stop:
            return count
        below: list[Any] = []
        extend = below.extend
        for value in level:
            t = type(value)
            if t is dict:
                if (skip and len(value) == 1 and _skipped(value, skip)) or (
                    counted and id(value) in counted
                ):
                    count -= 1
                    continue
                extend(value.values())
            elif t is list:
                if counted and id(value) in counted:
                    count -= 1
                    continue
                extend(value)
        level = below
    return count


def _skipped(node: dict[str, Any], skip: Collection[str]) -> bool:
    ((key, value),) = node.items()
    return key in skip or (key == "$ref" and type(value) is str and value in skip)


def nodes_message(max_nodes: int) -> tuple[str, str]:
    """The problem and hint of a program whose nodes pass ``max_nodes`` where it is read."""
    return (
        f"the program has more than {max_nodes} nodes (counted up to this statement)",
        _NODES_HINT,
    )


def deadline_message(deadline: float) -> tuple[str, str]:
    """The problem and hint of a program whose reading took longer than ``deadline``."""
    return (
        f"reading the program took longer than the run's deadline of {deadline:g} s",
        _DEADLINE_HINT,
    )


class Clock:
    """The run's deadline while a front end reads the program: :meth:`tick` once per
    statement; at the first and then every :data:`TICKS` of them it looks at the time."""

    __slots__ = ("deadline", "stop_at", "ticks")

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.stop_at = time.monotonic() + deadline
        self.ticks = TICKS - 1  # (the first tick looks: the work before it may have taken long)

    def tick(self) -> bool:
        """Whether the deadline has passed (looked at every :data:`TICKS` calls)."""
        self.ticks += 1
        if self.ticks < TICKS:
            return False
        self.ticks = 0
        return time.monotonic() > self.stop_at

    def past(self) -> bool:
        """Whether the deadline has passed (looked at now)."""
        return time.monotonic() > self.stop_at
