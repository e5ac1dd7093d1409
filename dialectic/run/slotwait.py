"""A call of aliases that are all being evaluated elsewhere: it waits on their memo slots in
its own frame (asyncio), with one future and one callback object, no fan-out.

The call ``d = step(b, a)`` after ``c = step(a, b)`` started ``a`` and ``b``: a native fan-out
would make a ``_Fanout``, its ``out`` and ``tasks`` lists, a list of waits and an
``_AliasWait`` per slot, and start no task at all. :func:`wait_slots` gives the same results:
the first failure (in time; among slots already done, the first in program order) is raised
at once and the call stops waiting; ambiguities are the arguments' (marked in program order); a
slot whose evaluation was cancelled before it began (``ABANDONED``) sends the call back to the
fan-out, which starts that evaluation.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from dialectic.outcome.errors import DialecticError
from dialectic.run.compiled import AmbiguityError
from dialectic.run.state import ABANDONED, MISSING, AsyncSlot, State

#: at most this many arguments take this path (a callback scans its call's slots: constant)
MAX_SLOTS = 4


class SlotsWait:
    """The slots of a call's arguments (aliases ``idxs`` of the run's ``memo``), waited for:
    ``waiter`` is set when all are done, at the first failure, or when one was abandoned.

    The slots are read from the memo, not kept in a list of their own: while they are waited
    for, a slot leaves the memo only when it is abandoned (``MISSING`` then), and a slot that
    is done stays."""

    __slots__ = ("memo", "idxs", "pending", "failure", "redo", "waiter")

    def __init__(
        self, memo: list[Any], idxs: tuple[int, ...], waiter: asyncio.Future[None]
    ) -> None:
        self.memo = memo
        self.idxs = idxs
        self.pending = len(idxs)
        self.failure: BaseException | None = None
        #: a slot was abandoned: the call takes the fan-out's path after all
        self.redo = False
        self.waiter: asyncio.Future[None] = waiter

    def __call__(self) -> None:
        """One of the slots is done (its callback)."""
        if self.waiter.done():
            return  # stopped meanwhile
        self.pending -= 1
        memo = self.memo
        for idx in self.idxs:
            slot = memo[idx]
            if slot is MISSING:  # abandoned (taken out of the memo as it ended)
                self.redo = True
            elif not (slot.done and slot.error is not None and _failed(self, slot)):
                continue
            self.stop()
            self.waiter.set_result(None)
            return
        if not self.pending:
            self.waiter.set_result(None)

    def stop(self) -> None:
        """No longer waited for (a failure, or the caller's own cancellation)."""
        memo = self.memo
        for idx in self.idxs:
            slot = memo[idx]
            if slot is not MISSING and not slot.done:
                slot.remove_callback(self)

    def values(self, mark: Callable[[AmbiguityError], Any]) -> list[Any] | None:
        """The arguments' values once settled (the failure raised; an ambiguous one's value
        ``mark(its ambiguity)``), or None: take the fan-out's path."""
        if self.redo:
            return None
        if self.failure is not None:
            raise self.failure
        out = []
        memo = self.memo
        for idx in self.idxs:
            slot = memo[idx]
            exc = slot.error
            out.append(slot.value if exc is None else mark(exc))
        return out


def _failed(wait: SlotsWait, slot: AsyncSlot) -> bool:
    """Whether ``slot`` (done) ends the wait: a failure (kept), or abandoned (``redo``)."""
    exc = slot.error
    if exc is None or isinstance(exc, AmbiguityError):
        return False
    if exc is ABANDONED:
        wait.redo = True
    elif isinstance(exc, asyncio.CancelledError):
        wait.failure = DialecticError("cancelled", "a call was cancelled unexpectedly")
    else:
        wait.failure = exc
    return True


def wait_slots(idxs: tuple[int, ...], state: State) -> SlotsWait | None:
    """The wait for the call's arguments, aliases ``idxs``, if every one is being evaluated
    elsewhere (else None: the fan-out starts the ones not begun, and reads the ones done)."""
    memo = state.memo
    for idx in idxs:
        slot = memo[idx]
        if slot is MISSING or slot.done:
            return None
    loop = state._loop
    assert loop is not None
    wait = SlotsWait(memo, idxs, loop.create_future())
    for idx in idxs:
        memo[idx].add_callback(wait)
    return wait
