"""A call of the built-in ``sleep`` (SPEC 17, "Waiting"): the delay, bounded by the run's
deadline.

A wait that would end after the run's deadline fails at once (``limit_exceeded``, the limit
``deadline``); one that ends before it sleeps on the run's event loop, where the run's
deadline (asyncio's timer, trio's cancel scope) or the run's cancellation cuts it. Nothing
waits on a thread: a program with a wait is asynchronous, and ``Runtime.run`` runs it on an
event loop of its own, as any asynchronous program.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import anyio

from dialectic.compiler.callsite import AmbiguousArg
from dialectic.outcome.errors import LimitExceeded
from dialectic.registry.waiting import delay_seconds
from dialectic.run.compiled import Compiled
from dialectic.values.data import UNDEFINED

if TYPE_CHECKING:
    from dialectic.compiler.callsite import CallSite
    from dialectic.run.state import State

__all__ = ["sleep_call"]


def sleep_call(site: CallSite) -> Compiled:
    """The closure of a ``sleep`` call: its argument, then the wait."""
    from dialectic.run.gather import async_many

    evaluate, kwargs = site.evaluate, site.kwargs
    amany = (
        None if site.all_sync else async_many([a.compiled for a in site.args], mark=AmbiguousArg)
    )
    path = site.path

    async def wait(s: State) -> Any:
        kw = kwargs(evaluate(s) if amany is None else await amany(s), s)
        seconds = delay_seconds(kw.get("ms", 0))
        left = s.deadline_at - time.monotonic()
        if seconds > left:
            exc = LimitExceeded(
                "deadline",
                f"the wait of {seconds * 1000:g} ms would end after the run's deadline "
                f"({max(left, 0.0) * 1000:.0f} ms left of {s.limits.deadline:g} s)",
                path,
            )
            exc.hint = "Wait less, poll fewer times, or raise the `deadline` limit."
            raise exc
        await anyio.sleep(seconds)
        return UNDEFINED  # (the promise's value: `await new Promise(...)` is undefined)

    return Compiled(aio=wait)
