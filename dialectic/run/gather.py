"""Evaluating independent children: synchronous ones inline, asynchronous ones concurrently.

On asyncio the children are native tasks (a call with ready arguments is a task of the
implementation's own coroutine); on trio they run in an anyio task group. Either way the first
failure cancels the siblings, every ambiguity is collected and reported in program order, and
the node returns (or raises) only once every child it started has ended (SPEC section 6).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from functools import partial
from typing import Any, cast

import anyio
from anyio import CancelScope

from dialectic.outcome.errors import DialecticError
from dialectic.run.calllog import landed
from dialectic.run.compiled import (
    AmbiguityError,
    AsyncFn,
    Compiled,
    Launch,
    SyncFn,
    merge,
    merge_in_order,
)
from dialectic.run.state import ABANDONED, MISSING, AsyncSlot, State, TimeoutBucket


def sync_many(children: Sequence[SyncFn]) -> Callable[[State], list[Any]]:
    """Evaluate synchronous children in order, collecting ambiguities from all of them."""
    kids = tuple(children)
    if len(kids) == 1:  # (an object of one field, a call's one argument)
        only = kids[0]
        return lambda state: [only(state)]
    if len(kids) == 2:
        first, second = kids

        def two(state: State) -> list[Any]:
            try:
                a = first(state)
            except AmbiguityError as exc:
                try:
                    second(state)
                except AmbiguityError as later:
                    raise exc.merged(later) from None
                raise
            return [a, second(state)]

        return two

    def many(state: State) -> list[Any]:
        out = []
        amb: AmbiguityError | None = None
        for kid in kids:
            try:
                out.append(kid(state))
            except AmbiguityError as exc:
                amb = merge(amb, exc)
                out.append(None)
        if amb is not None:
            raise amb
        return out

    return many


def async_many(
    children: Sequence[Compiled], mark: Callable[[AmbiguityError], Any] | None = None
) -> Callable[[State], Awaitable[list[Any]]]:
    """Evaluate children, synchronous ones inline and asynchronous ones concurrently. Their
    ambiguities are raised together, in program order; with ``mark``, an ambiguous child's
    value is instead ``mark(its ambiguity)`` (a call reports them with its coercions')."""
    kids = tuple(children)
    if sum(1 for c in kids if c.ordered) > 1:
        return _in_order(kids)  # effectful calls in program order (SPEC 17)
    sync_idx = tuple((i, c.sync) for i, c in enumerate(kids) if c.sync is not None)
    async_idx = tuple((i, c.aio) for i, c in enumerate(kids) if c.aio is not None)
    async_kids = tuple((i, c) for i, c in enumerate(kids) if c.aio is not None)
    n = len(kids)

    async def many(state: State) -> list[Any]:
        out: list[Any] = [None] * n
        found: list[tuple[int, AmbiguityError]] = []
        for i, fn in sync_idx:
            assert fn is not None
            try:
                out[i] = fn(state)
            except AmbiguityError as exc:
                found.append((i, exc))
        if not async_idx:
            pass
        elif len(async_idx) == 1:
            i, afn = async_idx[0]
            assert afn is not None
            try:
                out[i] = await afn(state)
            except AmbiguityError as exc:
                found.append((i, exc))
        elif state.native:  # started here, awaited in place (no coroutine of its own)
            fan = _start_native(state, async_kids, out, found)
            if fan.pending:
                try:
                    await fan.waiter
                except asyncio.CancelledError:
                    fan.stop(None)
                    await _settle(fan.tasks)
                    raise
            # the callbacks of the aliases it waited for refer to the fan-out: a cycle,
            # which would keep the run's state alive until the cyclic collector found it
            fan.waits = None
            if fan.failure is not None:
                raise fan.failure
        else:
            await _gather_group(state, async_idx, out, found)
        if found:
            if mark is None:  # in the children's order, not the order they were found in
                raise merge_in_order(found)
            for i, amb in found:
                out[i] = mark(amb)
        return out

    return many


def _in_order(kids: tuple[Compiled, ...]) -> Callable[[State], Awaitable[list[Any]]]:
    """Children with effectful calls (SPEC 17): one after the other, in program order; an
    ambiguity stops the ones after it, as a failure does (their effects must not run)."""

    async def in_order(state: State) -> list[Any]:
        out = []
        for kid in kids:
            fn = kid.sync
            out.append(fn(state) if fn is not None else await kid.aio(state))  # type: ignore[misc]
        return out

    return in_order


async def _gather_group(
    state: State,
    items: Sequence[tuple[int, AsyncFn | None]],
    out: list[Any],
    found: list[tuple[int, AmbiguityError]],
) -> None:
    """Any backend: an anyio task group (it waits for every child, also when cancelled)."""
    failures: list[BaseException] = []
    async with anyio.create_task_group() as tg:
        for i, afn in items:
            assert afn is not None
            tg.start_soon(_child, state, afn, i, out, found, failures, tg.cancel_scope)
    if failures:
        raise failures[0]


async def _child(
    state: State,
    fn: AsyncFn,
    i: int,
    out: list[Any],
    found: list[tuple[int, AmbiguityError]],
    failures: list[BaseException],
    scope: CancelScope,
) -> None:
    try:
        out[i] = await fn(state)
    except AmbiguityError as exc:
        found.append((i, exc))
    except Exception as exc:
        if not failures:
            failures.append(exc)
        scope.cancel()


class _Fanout:
    """The bookkeeping of one native fan-out: its tasks, how many are still running, the first
    failure, the ambiguities found, and the future the parent waits on."""

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
        "unstarted",
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
        #: the tasks were cancelled on purpose: a failure, or the parent's own cancellation
        self.stopping = False
        self.waiter = waiter
        #: aliases being evaluated elsewhere that this fan-out waits for
        self.waits: list[_AliasWait] | None = None
        #: the tasks it cancelled before they began (set by :meth:`stop`)
        self.unstarted: set[asyncio.Task[Any]] | None = None

    def stop(self, exc: BaseException | None) -> None:
        if exc is not None and self.failure is None:
            self.failure = exc
        self.stopping = True
        unstarted = self.unstarted
        for t in self.tasks:
            if not t.done() and not _began(t):
                if unstarted is None:
                    unstarted = self.unstarted = set()
                unstarted.add(t)
            t.cancel()
        waits = self.waits
        if waits:  # no longer waited for (as a task would be cancelled at once)
            self.waits = None
            for wait in waits:
                slot = wait.slot
                if not slot.done:
                    slot.remove_callback(wait)
                    self.pending -= 1
            if not self.pending and not self.waiter.done():
                self.waiter.set_result(None)

    def filled(self, i: int, idx: int, slot: AsyncSlot, task: asyncio.Task[Any]) -> None:
        """The task evaluating alias ``idx`` into ``slot`` (child ``i``) has ended."""
        if not slot.done:  # cancelled before it began: unclaim the slot, its readers retry
            if self.state.memo[idx] is slot:
                self.state.memo[idx] = MISSING
            slot.error = ABANDONED
            slot.set()
        self.done(i, None, None, task)

    def valued(self, i: int, idx: int, slot: AsyncSlot, task: asyncio.Task[Any]) -> None:
        """The task evaluating alias ``idx`` (child ``i``), its value's own coroutine, has
        ended: ``slot`` gets what ``fill`` would have stored in it, then as :meth:`done`."""
        if task.cancelled():
            if self.unstarted is not None and task in self.unstarted:
                if self.state.memo[idx] is slot:  # never began: unclaimed, readers retry
                    self.state.memo[idx] = MISSING
                slot.error = ABANDONED
            else:
                slot.error = asyncio.CancelledError()
        else:
            exc = task.exception()
            if exc is None:
                slot.value = task.result()
            else:
                slot.error = exc
        slot.set()
        self.done(i, None, None, task)

    def alias_landed(
        self, i: int, idx: int, slot: AsyncSlot, launch: Launch, bucket: TimeoutBucket, task: Any
    ) -> None:
        """The call evaluating alias ``idx`` (child ``i``), a task of the implementation's own
        coroutine, has ended: ``slot`` gets what the alias's evaluation would have stored (its
        value, or its error: the same one the fan-out stops with), then as :meth:`done`."""
        self.pending -= 1
        bucket.release(task)
        state = self.state
        if state.calls_launched:
            landed(state, task)  # the call log's record of it (SPEC 18)
        if task.cancelled():
            if task in bucket.fired:
                bucket.fired.discard(task)
                slot.error = err = launch.timed_out()
                if self.failure is None:
                    self.stop(err)
            elif self.stopping:  # by this fan-out (a failure, or its own cancellation)
                if self.unstarted is not None and task in self.unstarted:
                    if state.memo[idx] is slot:  # never began: unclaimed, readers retry
                        state.memo[idx] = MISSING
                    slot.error = ABANDONED
                else:
                    slot.error = asyncio.CancelledError()
            else:  # the implementation raised CancelledError itself
                slot.error = err = launch.cancelled()
                self.stop(err)
        else:
            exc = task.exception()
            if exc is None:
                value = task.result()
                t = type(value)
                if t is not int and t is not float and t is not bool and value is not None:
                    try:
                        value = launch.finish(value, state)
                    except (DialecticError, AmbiguityError) as err:
                        exc = err
                if exc is None:
                    slot.value = self.out[i] = value
            elif isinstance(exc, Exception):
                exc = launch.error(exc, state)
            if exc is not None:
                slot.error = exc
                self.ended_with(i, exc)
        slot.set()
        if not self.pending and not self.waiter.done():
            self.waiter.set_result(None)

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
            task = asyncio.get_running_loop().create_task(
                cast("Coroutine[Any, Any, Any]", kid.aio(self.state))
            )
            task.add_done_callback(partial(self.done, i, None, None))
            self.tasks.append(task)
            return
        self.pending -= 1
        self.alias_read(i, slot)
        if not self.pending and not self.waiter.done():
            self.waiter.set_result(None)

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

    def done(
        self, i: int, launch: Launch | None, bucket: TimeoutBucket | None, task: asyncio.Task[Any]
    ) -> None:
        self.pending -= 1
        if bucket is not None:
            bucket.release(task)
        if launch is not None and self.state.calls_launched:
            landed(self.state, task)  # the call log's record of it (SPEC 18)
        try:
            value = task.result()
        except BaseException:
            self.ended_badly(i, launch, bucket, task)
        else:
            if launch is not None:
                t = type(value)
                if t is not int and t is not float and t is not bool and value is not None:
                    try:
                        value = launch.finish(value, self.state)
                    except (DialecticError, AmbiguityError) as err:
                        self.ended_with(i, err)
            self.out[i] = value
        if not self.pending and not self.waiter.done():
            self.waiter.set_result(None)

    def ended_badly(
        self, i: int, launch: Launch | None, bucket: TimeoutBucket | None, task: asyncio.Task[Any]
    ) -> None:
        if task.cancelled():
            if bucket is not None and task in bucket.fired:
                bucket.fired.discard(task)
                if launch is not None and self.failure is None:
                    self.stop(launch.timed_out())
            elif not self.stopping and self.failure is None:
                # not by us: the implementation raised CancelledError itself
                self.stop(
                    launch.cancelled()
                    if launch is not None
                    else DialecticError("cancelled", "a call was cancelled unexpectedly")
                )
            return
        exc = task.exception()
        if launch is not None and isinstance(exc, Exception):
            exc = launch.error(exc, self.state)
        if exc is not None:
            self.ended_with(i, exc)

    def ended_with(self, i: int, exc: BaseException) -> None:
        if isinstance(exc, AmbiguityError):
            self.found.append((i, exc))
        elif self.failure is None:
            self.stop(exc)


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


def _start_native(
    state: State,
    items: Sequence[tuple[int, Compiled]],
    out: list[Any],
    found: list[tuple[int, AmbiguityError]],
) -> _Fanout:
    """The asyncio fast path of a task group, with the same semantics: the first failure (not an
    ambiguity) cancels the siblings and is raised once all have stopped; ambiguities are all
    collected; a cancellation from outside (the deadline, the caller) cancels the children and
    waits for them before it goes on. A call that offers a ``Launch`` runs as a task of the
    implementation's own coroutine: no wrapper frame, one callback, a shared timeout. This
    starts the children; the caller awaits ``fan.waiter`` while ``fan.pending`` (see ``many``
    in :func:`async_many`)."""
    loop = asyncio.get_running_loop()
    fan = _Fanout(state, out, found, loop.create_future())
    tasks = fan.tasks
    done = fan.done
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
        bucket: TimeoutBucket | None = None
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
                now = clock()
                if now > shared_until:
                    shared.clear()
                    shared_until = now + 0.001
                timeout = launch.timeout
                bucket = shared.get(timeout)
                if bucket is None or bucket.handle is None:
                    bucket = shared[timeout] = state.timeout_bucket(timeout + 0.001)
            else:
                launch = None
        if coro is None:
            if slot is not None:
                if value_of is not None:  # the value's coroutine, the slot filled as it ends
                    coro = cast("Coroutine[Any, Any, Any]", value_of(state))
                else:
                    coro = fill(state, slot)
            else:
                assert kid.aio is not None
                coro = cast("Coroutine[Any, Any, Any]", kid.aio(state))
        task = Task(coro, loop=loop) if direct else loop.create_task(coro)
        if bucket is not None:
            bucket.tasks.add(task)
        if slot is None:
            task.add_done_callback(partial(done, i, launch, bucket))
        elif launch is None:
            filled = fan.filled if value_of is None else fan.valued
            task.add_done_callback(partial(filled, i, idx, slot))
        else:
            assert bucket is not None
            task.add_done_callback(partial(fan.alias_landed, i, idx, slot, launch, bucket))
        tasks.append(task)
        fan.pending += 1
    if ready is not None and not fan.stopping:  # read once all are started, as tasks would be
        for i, slot in ready:
            fan.alias_read(i, slot)
    return fan


async def _settle(tasks: list[asyncio.Task[Any]]) -> None:
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
