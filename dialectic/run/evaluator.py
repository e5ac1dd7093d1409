"""Run-time machinery shared by compiled closures: the per-run state, concurrency, ambiguity.

A compiled node is either synchronous (``Compiled.sync(state)``) or asynchronous
(``await Compiled.aio(state)``); a node is asynchronous only if something below it is. Synchronous
subtrees always run inline, with no task or event-loop overhead; independent asynchronous
children run concurrently (on asyncio as native tasks, a call with ready arguments as a task of
its implementation's own coroutine; on trio in an anyio task group), and a failure in one
cancels its siblings. A node returns only once every child it started has ended.
Ambiguities do not cancel siblings: every ambiguity in independent branches is collected so the
model can resolve them all in one round trip, and they are reported in program order.

The pieces live in ``compiled`` (nodes, launches, ambiguities), ``state`` (the run's state and
shared timeouts) and ``gather`` (evaluating children); this module gathers their names.
"""

from __future__ import annotations

from dialectic.run.compiled import (
    AmbiguityError,
    AmbiguityItem,
    AsyncFn,
    Compiled,
    Launch,
    SyncFn,
    merge,
    merge_in_order,
)
from dialectic.run.gather import async_many, sync_many
from dialectic.run.state import (
    MISSING,
    AsyncSlot,
    State,
    TimeoutBucket,
    deadline_error,
    new_state,
)

__all__ = [
    "MISSING",
    "AmbiguityError",
    "AmbiguityItem",
    "AsyncFn",
    "AsyncSlot",
    "Compiled",
    "Launch",
    "State",
    "SyncFn",
    "TimeoutBucket",
    "async_many",
    "deadline_error",
    "merge",
    "merge_in_order",
    "new_state",
    "sync_many",
]
