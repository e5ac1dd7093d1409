"""The native asyncio fan-out: independent asynchronous children as tasks of their own.

A call with ready arguments is a task of the implementation's own coroutine; an alias's value is
the task that evaluates it, its memo slot claimed as it starts (a sibling reading the same alias
waits on the slot, with no task of its own). Each task runs in a small wrapper that does the
child's bookkeeping as it ends, inside the task (no done callback: that would be a handle and a
turn of the event loop more per child before the parent wakes). The semantics are a task
group's: the first failure (not an ambiguity) stops the siblings and is raised once all have
ended; ambiguities are all collected; a cancellation from outside stops the children and waits
for them (SPEC section 6). Used by :func:`dialectic.run.gather.async_many` and by a call's
arguments (:mod:`dialectic.compiler.invoke_async`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, cast

from dialectic.outcome.errors import DialecticError
from dialectic.run.calllog import DONE, END, FAILED, STATUS, landed, now
from dialectic.run.compiled import AmbiguityError, Compiled, Launch
from dialectic.run.state import ABANDONED, MISSING, AsyncSlot, State, TimeoutBucket, current_of

_Future = asyncio.Future


async def settle_fanout(fan: _Fanout) -> None:
    """The parent of ``fan`` was cancelled while it waited: stop the children and wait until
    every one has ended (the caller then re-raises the cancellation)."""
    fan.stop(None)
    await settle_tasks(fan.running())


def fanout_values(fan: _Fanout, mark: Callable[[AmbiguityError], Any]) -> list[Any]:
    """The children's values once ``fan`` has settled: its failure raised, an ambiguous
    child's value ``mark(its ambiguity)``."""
    # the callbacks of the aliases it waited for refer to the fan-out: a cycle, which would
    # keep the run's state alive until the cyclic collector found it
    fan.waits = None
    if fan.failure is not None:
        raise fan.failure
    out = fan.out
    found = fan.found
    if found is not None:
        for i, amb in found:
            out[i] = mark(amb)
    return out


class _Fanout:
    """The bookkeeping of one native fan-out: its tasks, how many are still running, the first
    failure, the ambiguities found, and the future the parent waits on. Each task runs one of
    the wrappers below (:func:`_plain`, :func:`_alias`, :func:`_launched`) or a call's own
    ``call_async`` (:attr:`Compiled.into`), which does the child's bookkeeping as the child
    ends, inside its task: no done callback (a callback is a handle and a turn of the event loop
    more per child, before the parent can wake).

    A child's task is kept in ``out[i]`` until its value replaces it (no list of tasks: a
    value is plain data, never a future); a child that failed or was cancelled leaves its
    task there, and the fan-out then raises rather than return ``out``."""

    __slots__ = (
        "state",
        "out",
        "found",
        "failure",
        "pending",
        "stopping",
        "waiter",
        "waits",
    )

    def __init__(
        self,
        state: State,
        out: list[Any],
        found: list[tuple[int, AmbiguityError]] | None,
        waiter: asyncio.Future[None],
    ) -> None:
        self.state = state
        self.out = out
        #: the ambiguities found, (child, ambiguity) in the order found (None: none yet)
        self.found = found
        #: the first failure (the one raised)
        self.failure: BaseException | None = None
        self.pending = 0
        #: the tasks were stopped on purpose: a failure, or the parent's own cancellation (a
        #: task that has not begun then never runs its child: see the wrappers)
        self.stopping = False
        self.waiter = waiter
        #: aliases being evaluated elsewhere that this fan-out waits for
        self.waits: list[_AliasWait] | None = None

    def stop(self, exc: BaseException | None) -> None:
        if exc is not None and self.failure is None:
            self.failure = exc
            if isinstance(exc, Exception) and self.state.stopped_by is None:
                self.state.stopped_by = exc  # (what the evaluations it cancels end with)
        self.stopping = True
        # the tasks that began are cancelled; the others see ``stopping`` as they begin and
        # end without running their child (cancelling them would skip their bookkeeping);
        # a task that stops its own fan-out as it ends is not cancelled either
        current = asyncio.current_task()
        for t in self.out:
            if isinstance(t, _Future) and t is not current and not t.done() and _began(t):
                t.cancel()
        waits = self.waits
        if waits:  # no longer waited for (as a task would be cancelled at once)
            self.waits = None
            for wait in waits:
                slot = wait.slot
                if not slot.done:
                    slot.remove_callback(wait)
                    self.pending -= 1
            self.settled()

    def running(self) -> list[asyncio.Future[Any]]:
        """The children's tasks that have not ended."""
        return [t for t in self.out if isinstance(t, _Future) and not t.done()]

    def settled(self) -> None:
        """Wake the parent if nothing it waits for is still running."""
        if not self.pending and not self.waiter.done():
            self.waiter.set_result(None)

    def abandon(self, idx: int, slot: AsyncSlot) -> None:
        """The evaluation of alias ``idx`` into ``slot`` never began (its fan-out stopped
        first): the slot is unclaimed, and its readers start the evaluation again."""
        if self.state.memo[idx] is slot:
            self.state.memo[idx] = MISSING
        slot.error = ABANDONED
        slot.set()

    def alias_unbegun(self, idx: int, slot: AsyncSlot | None) -> None:
        """Child task evaluating alias ``idx`` into ``slot`` saw, as it began, that the fan-out
        had stopped (:meth:`AsyncCall.call_async` as a task of its own: see :func:`_alias`)."""
        assert slot is not None
        self.abandon(idx, slot)
        self.pending -= 1
        self.settled()

    def alias_failed(self, i: int, slot: AsyncSlot | None, exc: BaseException) -> None:
        """Child ``i``, evaluating an alias into ``slot`` as a task of its own call's
        coroutine, raised ``exc`` (the slot gets it: a cancellation as a new one)."""
        assert slot is not None
        if isinstance(exc, asyncio.CancelledError):
            # stopped by this fan-out's failure: the alias's other readers fail with it (the
            # run's failure), not with a cancellation of their own ("cancelled unexpectedly")
            failure = self.failure if self.stopping else None
            exc = failure if isinstance(failure, Exception) else asyncio.CancelledError()
        slot.error = exc
        slot.set()
        self.pending -= 1
        self.raised(i, exc)
        self.settled()

    def alias_value(self, i: int, slot: AsyncSlot | None, value: Any) -> None:
        """Child ``i``, evaluating an alias into ``slot`` as a task of its own call's
        coroutine, ended with ``value``."""
        assert slot is not None
        slot.value = value
        if slot._callbacks is None and slot._event is None:  # (slot.set(): nobody waits)
            slot.done = True
        else:
            slot.set()
        self.out[i] = value
        self.pending -= 1
        if not self.pending and not self.waiter.done():
            self.waiter.set_result(None)

    def raised(self, i: int, exc: BaseException) -> None:
        """Child ``i`` (not a launched call) raised ``exc``."""
        if isinstance(exc, asyncio.CancelledError):
            if not self.stopping and self.failure is None:
                # not by us: another fan-out's failure cancelled an alias's evaluation this
                # child read (that failure is the run's), or something inside raised
                # CancelledError itself
                self.stop(self._cancelled())
        else:
            self.ended_with(i, exc)

    def landed(
        self,
        i: int,
        value: Any,
        exc: BaseException | None,
        launch: Launch,
        bucket: TimeoutBucket,
        task: Any,
        rec: list[Any] | None,
        slot: AsyncSlot | None,
    ) -> None:
        """Launched call ``i`` (a task of the implementation's own coroutine, its call-log
        record ``rec`` if it is logged) has ended with ``value`` or ``exc``; with a ``slot``,
        the alias it evaluates gets what the alias's evaluation would have stored (its value,
        or its error: the same one the fan-out stops with)."""
        bucket.release(task)
        state = self.state
        cancelled = isinstance(exc, asyncio.CancelledError)
        if rec is not None:  # the call log's record of it (SPEC 18)
            landed(rec, None if cancelled else FAILED if exc is not None else DONE)
        if cancelled:
            if task in bucket.fired:
                bucket.fired.discard(task)
                err: BaseException = launch.timed_out()
                if self.failure is None:
                    self.stop(err)
            elif self.stopping:  # by this fan-out (a failure, or its own cancellation)
                err = asyncio.CancelledError()
            else:  # the implementation raised CancelledError itself
                err = launch.cancelled()
                self.stop(err)
            if slot is not None:
                slot.error = err
        else:
            if exc is None:
                t = type(value)
                if t is not int and t is not float and t is not bool and value is not None:
                    try:
                        value = launch.finish(value, state)
                    except (DialecticError, AmbiguityError) as err2:
                        exc = err2
                if exc is None:
                    self.out[i] = value
                    if slot is not None:
                        slot.value = value
            elif isinstance(exc, Exception):
                exc = launch.error(exc, state)
            if exc is not None:
                if slot is not None:
                    slot.error = exc
                self.ended_with(i, exc)
        if slot is not None:
            slot.set()

    def wait_alias(self, i: int, kid: Compiled, slot: AsyncSlot) -> None:
        """Child ``i`` reads an alias being evaluated elsewhere: wait for its slot."""
        wait = _AliasWait(self, i, kid, slot)
        if self.waits is None:
            self.waits = [wait]
        else:
            self.waits.append(wait)
        self.pending += 1
        slot.add_callback(wait)

    def alias_ready(self, wait: _AliasWait) -> None:
        """The alias ``wait`` waited for is done (its slot's callback)."""
        if self.waits is None:
            return  # stopped meanwhile
        i, slot = wait.i, wait.slot
        if slot.error is ABANDONED:  # never evaluated: this child evaluates it after all
            kid = wait.kid
            assert kid.aio is not None
            coro = cast("Coroutine[Any, Any, Any]", kid.aio(self.state))
            self.out[i] = asyncio.get_running_loop().create_task(_plain(self, i, coro))
            return
        self.pending -= 1
        self.alias_read(i, slot)
        self.settled()

    def alias_read(self, i: int, slot: AsyncSlot) -> None:
        """Child ``i`` has read an alias evaluated elsewhere: as its task would have ended."""
        exc = slot.error
        if exc is None:
            self.out[i] = slot.value
        elif isinstance(exc, asyncio.CancelledError):
            if not self.stopping and self.failure is None:
                self.stop(self._cancelled())
        else:
            self.ended_with(i, exc)

    def _cancelled(self) -> Exception:
        """What a child's cancellation that this fan-out did not make means: the failure that
        stopped another fan-out of the run (it cancelled an evaluation the child read), else
        an unexpected cancellation."""
        stopped_by = self.state.stopped_by
        if stopped_by is not None:
            return stopped_by
        return DialecticError("cancelled", "a call was cancelled unexpectedly")

    def ended_with(self, i: int, exc: BaseException) -> None:
        if isinstance(exc, AmbiguityError):
            if self.found is None:
                self.found = [(i, exc)]
            else:
                self.found.append((i, exc))
        elif self.failure is None:
            self.stop(exc)


def _close(coro: Any) -> None:
    """Close a child's coroutine that never ran (no "never awaited" warning, nothing run)."""
    close = getattr(coro, "close", None)
    if close is not None:
        close()


def _reraise(exc: BaseException) -> bool:
    """Whether a wrapper re-raises what its child raised, once its bookkeeping is done: a
    cancellation (the task ends cancelled, as it was) and what stops the process
    (KeyboardInterrupt, SystemExit); an error was taken over by the fan-out (re-raised, it
    would be logged as a task exception never retrieved)."""
    return not isinstance(exc, Exception)


async def _plain(fan: _Fanout, i: int, coro: Coroutine[Any, Any, Any]) -> None:
    """Child ``i``: a coroutine of the runtime's (an alias evaluated elsewhere fills its own
    slot), its value into ``fan.out[i]``."""
    if fan.stopping:  # stopped before it began
        _close(coro)
        fan.pending -= 1
        fan.settled()
        return
    try:
        value = await coro
    except BaseException as exc:
        fan.pending -= 1
        fan.raised(i, exc)
        fan.settled()
        if _reraise(exc):
            raise
        return
    fan.out[i] = value
    fan.pending -= 1
    if not fan.pending and not fan.waiter.done():
        fan.waiter.set_result(None)


async def _alias(
    fan: _Fanout, i: int, coro: Coroutine[Any, Any, Any], idx: int, slot: AsyncSlot, fills: bool
) -> None:
    """Child ``i`` evaluates alias ``idx`` into ``slot``, just claimed in the memo: with
    ``fills``, ``coro`` is the alias's evaluation, which fills the slot itself; otherwise it is
    the value's own coroutine, and the slot gets what the evaluation would have stored."""
    if fan.stopping:  # stopped before it began: unclaimed, its readers start it again
        _close(coro)
        fan.abandon(idx, slot)
        fan.pending -= 1
        fan.settled()
        return
    try:
        value = await coro
    except BaseException as exc:
        if not fills:
            slot.error = (
                asyncio.CancelledError() if isinstance(exc, asyncio.CancelledError) else exc
            )
            slot.set()
        fan.pending -= 1
        fan.raised(i, exc)
        fan.settled()
        if _reraise(exc):
            raise
        return
    if not fills:
        slot.value = value
        slot.set()
    fan.out[i] = value
    fan.pending -= 1
    if not fan.pending and not fan.waiter.done():
        fan.waiter.set_result(None)


async def _launched(
    fan: _Fanout,
    i: int,
    coro: Coroutine[Any, Any, Any],
    launch: Launch,
    bucket: TimeoutBucket,
    idx: int,
    slot: AsyncSlot | None,
    rec: list[Any] | None,
) -> None:
    """Child ``i``: a call launched with its arguments ready, ``coro`` the implementation's
    own, under the shared timeout ``bucket``, ``rec`` its call-log record (None: not logged);
    with a ``slot``, the call evaluates alias ``idx``."""
    if fan.stopping:  # stopped before it began: the implementation never ran a line
        _close(coro)
        task = current_of(fan.state._loop)
        fan.landed(i, None, asyncio.CancelledError(), launch, bucket, task, rec, None)
        if slot is not None:
            fan.abandon(idx, slot)
        fan.pending -= 1
        fan.settled()
        return
    try:
        value = await coro
    except BaseException as exc:
        fan.pending -= 1
        task = current_of(fan.state._loop)
        fan.landed(i, None, exc, launch, bucket, task, rec, slot)
        fan.settled()
        if _reraise(exc):
            raise
        return
    fan.pending -= 1
    t = type(value)
    if t is int or t is float or t is bool or value is None:  # (landed, inline: the usual end)
        state = fan.state
        bucket.tasks.discard(current_of(state._loop))  # (release: the run's end cancels it)
        if rec is not None:  # the call log's record of it (SPEC 18: landed, inline)
            rec[END], rec[STATUS] = now(), DONE
        fan.out[i] = value
        if slot is not None:
            slot.value = value
            slot.set()
    else:
        fan.landed(i, value, None, launch, bucket, current_of(fan.state._loop), rec, slot)
    if not fan.pending and not fan.waiter.done():
        fan.waiter.set_result(None)


class _AliasWait:
    """Child ``i`` of a fan-out waits for the alias being evaluated into ``slot`` (the slot's
    callback: one object, where a closure took six)."""

    __slots__ = ("fan", "i", "kid", "slot")

    def __init__(self, fan: _Fanout, i: int, kid: Compiled, slot: AsyncSlot) -> None:
        self.fan = fan
        self.i = i
        self.kid = kid
        self.slot = slot

    def __call__(self) -> None:
        fan = self.fan
        slot = self.slot
        if fan.waits is None or slot.error is ABANDONED:  # stopped meanwhile, or never evaluated
            fan.alias_ready(self)
            return
        # (alias_ready and alias_read, inline: the usual end, a value)
        fan.pending -= 1
        if slot.error is None:
            fan.out[self.i] = slot.value
        else:
            fan.alias_read(self.i, slot)
        if not fan.pending and not fan.waiter.done():
            fan.waiter.set_result(None)


def _began(task: Any) -> bool:
    """Whether the task's coroutine has started running (a call launched as a task calls
    nothing until then)."""
    coro: Any = task.get_coro()
    return (
        coro is None
        or getattr(coro, "cr_frame", None) is None
        or bool(getattr(coro, "cr_suspended", True) or getattr(coro, "cr_running", True))
    )


async def settle_tasks(tasks: list[asyncio.Future[Any]]) -> None:
    """Wait until every task has ended (they were cancelled): a run never returns while a child
    of it still runs. Cancelled again meanwhile (anyio repeats a scope's cancellation), keep
    waiting: the children were already told to stop, and cancelling them again would break
    into their own cleanup (which an anyio shield protects only from anyio's cancellation)."""
    while True:
        live = [t for t in tasks if not t.done()]
        if not live:
            return
        try:
            await asyncio.wait(live)
        except asyncio.CancelledError:
            continue
