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
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, cast

from dialectic.outcome.errors import DialecticError
from dialectic.run.calllog import DONE, FAILED, landed
from dialectic.run.compiled import AmbiguityError, Compiled, Launch
from dialectic.run.state import ABANDONED, MISSING, AsyncSlot, State, TimeoutBucket


def native_start(children: Sequence[Compiled]) -> Callable[[State], _Fanout] | None:
    """For a caller that awaits the children in its own frame on asyncio (a call's arguments:
    no coroutine of :func:`async_many`'s between it and the tasks): ``start(state)`` evaluates
    the synchronous children and starts the asynchronous ones, a fan-out the caller awaits as
    ``many`` does (see :func:`await_fanout`). None unless two or more children are
    asynchronous and at most one is effectful (the cases ``many`` runs as a native fan-out)."""
    kids = tuple(children)
    if sum(1 for c in kids if c.ordered) > 1:
        return None
    sync_idx = tuple((i, c.sync) for i, c in enumerate(kids) if c.sync is not None)
    async_kids = tuple((i, c) for i, c in enumerate(kids) if c.aio is not None)
    if len(async_kids) < 2:
        return None
    n = len(kids)

    def start(state: State) -> _Fanout:
        out: list[Any] = [None] * n
        found: list[tuple[int, AmbiguityError]] = []
        for i, fn in sync_idx:
            assert fn is not None
            try:
                out[i] = fn(state)
            except AmbiguityError as exc:
                found.append((i, exc))
        return start_native(state, async_kids, out, found)

    return start


async def settle_fanout(fan: _Fanout) -> None:
    """The parent of ``fan`` was cancelled while it waited: stop the children and wait until
    every one has ended (the caller then re-raises the cancellation)."""
    fan.stop(None)
    await settle_tasks(fan.tasks)


def fanout_values(fan: _Fanout, mark: Callable[[AmbiguityError], Any]) -> list[Any]:
    """The children's values once ``fan`` has settled: its failure raised, an ambiguous
    child's value ``mark(its ambiguity)``."""
    # the callbacks of the aliases it waited for refer to the fan-out: a cycle, which would
    # keep the run's state alive until the cyclic collector found it
    fan.waits = None
    if fan.failure is not None:
        raise fan.failure
    out = fan.out
    for i, amb in fan.found:
        out[i] = mark(amb)
    return out


class _Fanout:
    """The bookkeeping of one native fan-out: its tasks, how many are still running, the first
    failure, the ambiguities found, and the future the parent waits on. Each task runs one of
    the wrappers below (:func:`_plain`, :func:`_alias`, :func:`_launched`), which does the
    child's bookkeeping as the child ends, inside its task: no done callback (a callback is a
    handle and a turn of the event loop more per child, before the parent can wake)."""

    __slots__ = (
        "state",
        "out",
        "found",
        "tasks",
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
        found: list[tuple[int, AmbiguityError]],
        waiter: asyncio.Future[None],
    ) -> None:
        self.state = state
        self.out = out
        self.found = found
        self.tasks: list[asyncio.Task[Any]] = []
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
        self.stopping = True
        # the tasks that began are cancelled; the others see ``stopping`` as they begin and
        # end without running their child (cancelling them would skip their bookkeeping);
        # a task that stops its own fan-out as it ends is not cancelled either
        current = asyncio.current_task()
        for t in self.tasks:
            if t is not current and not t.done() and _began(t):
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

    def raised(self, i: int, exc: BaseException) -> None:
        """Child ``i`` (not a launched call) raised ``exc``."""
        if isinstance(exc, asyncio.CancelledError):
            if not self.stopping and self.failure is None:
                # not by us: something inside raised CancelledError itself
                self.stop(DialecticError("cancelled", "a call was cancelled unexpectedly"))
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
        coro: Any,
        slot: AsyncSlot | None,
    ) -> None:
        """Launched call ``i`` (a task of the implementation's own coroutine ``coro``) has
        ended with ``value`` or ``exc``; with a ``slot``, the alias it evaluates gets what the
        alias's evaluation would have stored (its value, or its error: the same one the
        fan-out stops with)."""
        bucket.release(task)
        state = self.state
        cancelled = isinstance(exc, asyncio.CancelledError)
        if state.calls_launched:  # the call log's record of it (SPEC 18)
            landed(state, coro, None if cancelled else FAILED if exc is not None else DONE)
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
            self.tasks.append(asyncio.get_running_loop().create_task(_plain(self, i, coro)))
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
                self.stop(DialecticError("cancelled", "a call was cancelled unexpectedly"))
        else:
            self.ended_with(i, exc)

    def ended_with(self, i: int, exc: BaseException) -> None:
        if isinstance(exc, AmbiguityError):
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
) -> None:
    """Child ``i``: a call launched with its arguments ready, ``coro`` the implementation's
    own, under the shared timeout ``bucket``; with a ``slot``, the call evaluates alias
    ``idx``."""
    task = asyncio.current_task()
    if fan.stopping:  # stopped before it began: the implementation never ran a line
        _close(coro)
        fan.landed(i, None, asyncio.CancelledError(), launch, bucket, task, coro, None)
        if slot is not None:
            fan.abandon(idx, slot)
        fan.pending -= 1
        fan.settled()
        return
    try:
        value = await coro
    except BaseException as exc:
        fan.pending -= 1
        fan.landed(i, None, exc, launch, bucket, task, coro, slot)
        fan.settled()
        if _reraise(exc):
            raise
        return
    fan.pending -= 1
    fan.landed(i, value, None, launch, bucket, task, coro, slot)
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
        self.fan.alias_ready(self)


def _began(task: asyncio.Task[Any]) -> bool:
    """Whether the task's coroutine has started running (a call launched as a task calls
    nothing until then)."""
    coro: Any = task.get_coro()
    return (
        coro is None
        or getattr(coro, "cr_frame", None) is None
        or bool(getattr(coro, "cr_suspended", True) or getattr(coro, "cr_running", True))
    )


def start_native(
    state: State,
    items: Sequence[tuple[int, Compiled]],
    out: list[Any],
    found: list[tuple[int, AmbiguityError]],
) -> _Fanout:
    """The asyncio fast path of a task group, with the same semantics: the first failure (not an
    ambiguity) cancels the siblings and is raised once all have stopped; ambiguities are all
    collected; a cancellation from outside (the deadline, the caller) cancels the children and
    waits for them before it goes on. A call that offers a ``Launch`` runs as a task of the
    implementation's own coroutine (in a wrapper that does its bookkeeping as it ends), with
    a shared timeout. This starts the children; the caller awaits ``fan.waiter`` while
    ``fan.pending`` (see ``many`` in :func:`async_many`)."""
    loop = asyncio.get_running_loop()
    fan = _Fanout(state, out, found, loop.create_future())
    tasks = fan.tasks
    # the task class itself unless the loop has a task factory (skips create_task's frame)
    direct = loop.get_task_factory() is None
    Task = asyncio.Task
    # calls launched within the same millisecond share a timeout bucket, set 1 ms late so that
    # each of them gets at least its whole timeout (and at most 2 ms more)
    clock = loop.time
    shared: dict[float, TimeoutBucket] = {}
    shared_until = 0.0
    memo = state.memo
    ready: list[tuple[int, AsyncSlot]] | None = None
    for i, kid in items:
        alias = kid.alias
        slot: AsyncSlot | None = None
        idx = 0
        if alias is not None:
            idx, fill, launch, value_of = alias
            slot = memo[idx]
            if slot is not MISSING:
                if not slot.done:  # being evaluated elsewhere: no task to wait for it
                    fan.wait_alias(i, kid, slot)
                elif ready is None:
                    ready = [(i, slot)]
                else:
                    ready.append((i, slot))
                continue
            # evaluated by this fan-out; a later reader waits for it
            slot = memo[idx] = AsyncSlot()
        else:
            launch = kid.launch
        coro: Coroutine[Any, Any, Any] | None = None
        if launch is not None:
            try:
                coro = launch.start(state)
            except AmbiguityError as exc:
                if slot is not None:  # (as the alias's evaluation would have ended)
                    slot.error = exc
                    slot.set()
                found.append((i, exc))
                continue
            except Exception as exc:
                if slot is not None:
                    slot.error = exc
                    slot.set()
                fan.stop(exc)
                break
        if coro is not None:
            assert launch is not None
            now = clock()
            if now > shared_until:
                shared.clear()
                shared_until = now + 0.001
            timeout = launch.timeout
            bucket = shared.get(timeout)
            if bucket is None or bucket.handle is None:
                bucket = shared[timeout] = state.timeout_bucket(timeout + 0.001)
            call = _launched(fan, i, coro, launch, bucket, idx, slot)
            if direct:
                task = Task(call, loop=loop)
            else:  # the factory sees the call by its function's name, as without the wrapper
                named: Any = call
                named.__name__ = getattr(coro, "__name__", named.__name__)
                named.__qualname__ = getattr(coro, "__qualname__", named.__qualname__)
                task = loop.create_task(call)
            bucket.tasks.add(task)
        else:
            if slot is not None:
                if value_of is not None:  # the value's coroutine, the slot filled as it ends
                    coro = _alias(fan, i, value_of(state), idx, slot, False)  # type: ignore[arg-type]
                else:
                    coro = _alias(fan, i, fill(state, slot), idx, slot, True)
            else:
                assert kid.aio is not None
                coro = _plain(fan, i, cast("Coroutine[Any, Any, Any]", kid.aio(state)))
            task = Task(coro, loop=loop) if direct else loop.create_task(coro)
        tasks.append(task)
        fan.pending += 1
    if ready is not None and not fan.stopping:  # read once all are started, as tasks would be
        for i, slot in ready:
            fan.alias_read(i, slot)
    return fan


async def settle_tasks(tasks: list[asyncio.Task[Any]]) -> None:
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
