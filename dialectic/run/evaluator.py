"""Run-time machinery shared by compiled closures: the per-run state, concurrency, ambiguity.

A compiled node is either synchronous (``Compiled.sync(state)``) or asynchronous
(``await Compiled.aio(state)``); a node is asynchronous only if something below it is. Synchronous
subtrees always run inline, with no task or event-loop overhead; independent asynchronous
children run concurrently (on asyncio as native tasks, a call with ready arguments as a task of
its implementation's own coroutine; on trio in an anyio task group), and a failure in one
cancels its siblings.
Ambiguities do not cancel siblings: every ambiguity in independent branches is collected so the
model can resolve them all in one round trip.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from functools import partial
from typing import Any, cast

import anyio
from anyio import CancelScope

from dialectic.limits import Limits
from dialectic.outcome.errors import Candidate, DialecticError, JSONPath
from dialectic.registry.descriptions import RunContext

SyncFn = Callable[["State"], Any]
AsyncFn = Callable[["State"], Awaitable[Any]]


class AmbiguityItem:
    """One ambiguous call: the question, its candidates and the path of the node to replace."""

    __slots__ = ("message", "candidates", "path", "function")

    def __init__(
        self, message: str, candidates: Sequence[Candidate], path: JSONPath, function: str
    ) -> None:
        self.message = message
        self.candidates = list(candidates)
        self.path = path
        self.function = function


class AmbiguityError(Exception):
    """Carries every ambiguity found so far up to the top of the run."""

    def __init__(self, items: list[AmbiguityItem]) -> None:
        super().__init__(f"{len(items)} ambiguities")
        self.items = items

    def merged(self, other: AmbiguityError | None) -> AmbiguityError:
        if other is None:
            return self
        seen = {id(i) for i in self.items}
        return AmbiguityError(self.items + [i for i in other.items if id(i) not in seen])


class Launch:
    """How to start an asynchronous call with no wrapper coroutine (asyncio): ``start`` evaluates
    the arguments now and returns the implementation's own coroutine, which becomes the task;
    ``result`` and ``error`` then turn how the task ended into the runtime's terms. ``start``
    returns None when the call needs the general path (a concurrency limiter applies)."""

    __slots__ = ("start", "result", "error", "timeout", "timed_out", "cancelled")

    def __init__(
        self,
        start: Callable[[State], Coroutine[Any, Any, Any] | None],
        result: Callable[[Any], Any],
        error: Callable[[Exception, State], BaseException],
        timeout: float,
        timed_out: Callable[[], DialecticError],
        cancelled: Callable[[], DialecticError],
    ) -> None:
        self.start = start
        self.result = result
        self.error = error
        self.timeout = timeout
        self.timed_out = timed_out
        self.cancelled = cancelled


class Compiled:
    """A compiled node: exactly one of ``sync`` and ``aio`` is set; an asynchronous call may
    also offer a ``launch``, the cheaper way to start it as one of several concurrent tasks."""

    __slots__ = ("sync", "aio", "launch")

    def __init__(
        self, sync: SyncFn | None = None, aio: AsyncFn | None = None, launch: Launch | None = None
    ) -> None:
        self.sync = sync
        self.aio = aio
        self.launch = launch

    @property
    def is_async(self) -> bool:
        return self.aio is not None


class State:
    """Everything one run needs: context, memo slots, warnings, limits, concurrency limiters."""

    __slots__ = (
        "context",
        "_ctx",
        "memo",
        "warnings",
        "limits",
        "deadline_at",
        "limiter",
        "fn_limiters",
        "debug",
        "_convert",
        "native",
        "_buckets",
        "_loop",
    )

    def __init__(
        self,
        context: Any,
        memo_size: int,
        limits: Limits,
        convert: tuple[Callable[..., Any], Callable[[Any], str]],
        debug: bool,
    ) -> None:
        self.context = context
        self.warnings: list[str] = []
        self._ctx: RunContext | None = None
        self._convert = convert
        self.memo: list[Any] = [MISSING] * memo_size if memo_size else []
        self.limits = limits
        self.deadline_at = time.monotonic() + limits.deadline
        self.limiter: anyio.CapacityLimiter | None = None
        self.fn_limiters: dict[str, anyio.CapacityLimiter] | None = None
        self.debug = debug
        #: running on asyncio: spawn children as native tasks (4x cheaper than a task group)
        self.native = False
        self._buckets: dict[int, TimeoutBucket] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def timeout_bucket(self, timeout: float) -> TimeoutBucket:
        """The shared per-call timeout for calls starting now (asyncio): one timer handle per
        millisecond of deadlines, however many calls start together."""
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
        key = int((loop.time() + timeout) * 1000) + 1  # rounded up to the next millisecond
        buckets = self._buckets
        if buckets is None:
            buckets = self._buckets = {}
        bucket = buckets.get(key)
        if bucket is None:
            bucket = buckets[key] = TimeoutBucket()
            loop.call_at(key / 1000, bucket.fire, buckets, key)
        return bucket

    @property
    def ctx(self) -> RunContext:
        """The RunContext handed to implementations (created on first use)."""
        if self._ctx is None:
            convert, stringify = self._convert
            self._ctx = RunContext(self.context, self.warnings, self.limits, convert, stringify)
        return self._ctx

    def function_limiter(self, name: str, cap: int) -> anyio.CapacityLimiter:
        if self.fn_limiters is None:
            self.fn_limiters = {}
        lim = self.fn_limiters.get(name)
        if lim is None:
            lim = self.fn_limiters[name] = anyio.CapacityLimiter(cap)
        return lim


class TimeoutBucket:
    """Calls sharing one timeout deadline; when it passes, the ones still running are
    cancelled (and marked, so they report a timeout rather than a cancellation)."""

    __slots__ = ("tasks", "fired")

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[Any]] = set()
        self.fired: set[asyncio.Task[Any]] = set()

    def fire(self, buckets: dict[int, TimeoutBucket], key: int) -> None:
        buckets.pop(key, None)
        for task in self.tasks:
            self.fired.add(task)
            task.cancel()


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class AsyncSlot:
    """A memo slot for an alias being computed asynchronously; waiters share one evaluation."""

    __slots__ = ("event", "value", "error")

    def __init__(self) -> None:
        self.event = anyio.Event()
        self.value: Any = None
        self.error: BaseException | None = None


def sync_many(children: Sequence[SyncFn]) -> Callable[[State], list[Any]]:
    """Evaluate synchronous children in order, collecting ambiguities from all of them."""
    kids = tuple(children)

    def many(state: State) -> list[Any]:
        out = []
        amb: AmbiguityError | None = None
        for kid in kids:
            try:
                out.append(kid(state))
            except AmbiguityError as exc:
                amb = exc.merged(amb)
                out.append(None)
        if amb is not None:
            raise amb
        return out

    return many


def async_many(children: Sequence[Compiled]) -> Callable[[State], Awaitable[list[Any]]]:
    """Evaluate children, synchronous ones inline and asynchronous ones concurrently."""
    kids = tuple(children)
    sync_idx = tuple((i, c.sync) for i, c in enumerate(kids) if c.sync is not None)
    async_idx = tuple((i, c.aio) for i, c in enumerate(kids) if c.aio is not None)
    async_kids = tuple((i, c) for i, c in enumerate(kids) if c.aio is not None)
    n = len(kids)

    async def many(state: State) -> list[Any]:
        out: list[Any] = [None] * n
        ambs: list[AmbiguityError] = []
        for i, fn in sync_idx:
            assert fn is not None
            try:
                out[i] = fn(state)
            except AmbiguityError as exc:
                ambs.append(exc)
        if not async_idx:
            pass
        elif len(async_idx) == 1:
            i, afn = async_idx[0]
            assert afn is not None
            try:
                out[i] = await afn(state)
            except AmbiguityError as exc:
                ambs.append(exc)
        elif state.native:
            await _gather_native(state, async_kids, out, ambs)
        else:
            failures: list[BaseException] = []
            found: list[tuple[int, AmbiguityError]] = []
            async with anyio.create_task_group() as tg:
                for i, afn in async_idx:
                    assert afn is not None
                    tg.start_soon(_child, state, afn, i, out, found, failures, tg.cancel_scope)
            if failures:
                raise failures[0]
            found.sort(key=lambda f: f[0])  # in the children's order, not the finishing order
            ambs.extend(exc for _, exc in found)
        if ambs:
            total = ambs[0]
            for extra in ambs[1:]:
                total = total.merged(extra)
            raise total
        return out

    return many


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


async def _gather_native(
    state: State,
    items: Sequence[tuple[int, Compiled]],
    out: list[Any],
    ambs: list[AmbiguityError],
) -> None:
    """The asyncio fast path of a task group, with the same semantics: the first failure (not an
    ambiguity) cancels the siblings and is raised once all have stopped; ambiguities are all
    collected, in the children's order. A call that offers a ``Launch`` runs as a task of the
    implementation's own coroutine: no wrapper frame, one callback, a shared timeout."""
    loop = asyncio.get_running_loop()
    tasks: list[asyncio.Task[Any]] = []
    failures: list[BaseException] = []
    found: list[tuple[int, AmbiguityError]] = []
    waiter: asyncio.Future[None] = loop.create_future()
    pending = 0
    stopping = False  # the tasks were cancelled on purpose: a failure, or our own cancellation

    def stop(exc: BaseException) -> None:
        nonlocal stopping
        failures.append(exc)
        stopping = True
        for t in tasks:
            t.cancel()

    def ended_badly(
        i: int, launch: Launch | None, bucket: TimeoutBucket | None, task: asyncio.Task[Any]
    ) -> None:
        if task.cancelled():
            if bucket is not None and task in bucket.fired:
                bucket.fired.discard(task)
                if launch is not None and not failures:
                    stop(launch.timed_out())
            elif not stopping and not failures:
                # not by us: the implementation raised CancelledError itself
                stop(
                    launch.cancelled()
                    if launch is not None
                    else DialecticError("cancelled", "a call was cancelled unexpectedly")
                )
            return
        exc = task.exception()
        if launch is not None and isinstance(exc, Exception):
            exc = launch.error(exc, state)
        if isinstance(exc, AmbiguityError):
            found.append((i, exc))
        elif not failures and exc is not None:
            stop(exc)

    def done(
        i: int, launch: Launch | None, bucket: TimeoutBucket | None, task: asyncio.Task[Any]
    ) -> None:
        nonlocal pending
        pending -= 1
        if bucket is not None:
            bucket.tasks.discard(task)
        try:
            value = task.result()
        except BaseException:
            ended_badly(i, launch, bucket, task)
        else:
            if launch is not None and type(value) is str:
                try:
                    value = launch.result(value)
                except DialecticError as err:
                    if not failures:
                        stop(err)
            out[i] = value
        if not pending and not waiter.done():
            waiter.set_result(None)

    # the task class itself unless the loop has a task factory (skips create_task's frame)
    direct = loop.get_task_factory() is None
    Task = asyncio.Task
    # calls launched within the same millisecond share a timeout bucket, set 1 ms late so that
    # each of them gets at least its whole timeout (and at most 2 ms more)
    clock = loop.time
    shared: dict[float, TimeoutBucket] = {}
    shared_until = 0.0
    for i, kid in items:
        launch = kid.launch
        coro: Coroutine[Any, Any, Any] | None = None
        bucket: TimeoutBucket | None = None
        if launch is not None:
            try:
                coro = launch.start(state)
            except AmbiguityError as exc:
                found.append((i, exc))
                continue
            except Exception as exc:
                stop(exc)
                break
            if coro is not None:
                now = clock()
                if now > shared_until:
                    shared.clear()
                    shared_until = now + 0.001
                bucket = shared.get(launch.timeout)
                if bucket is None:
                    bucket = shared[launch.timeout] = state.timeout_bucket(launch.timeout + 0.001)
            else:
                launch = None
        if coro is None:
            assert kid.aio is not None
            coro = cast("Coroutine[Any, Any, Any]", kid.aio(state))
        task = Task(coro, loop=loop) if direct else loop.create_task(coro)
        if bucket is not None:
            bucket.tasks.add(task)
        task.add_done_callback(partial(done, i, launch, bucket))
        tasks.append(task)
        pending += 1
    if pending:
        try:
            await waiter
        except asyncio.CancelledError:
            stopping = True
            for t in tasks:
                t.cancel()
            raise
    if failures:
        raise failures[0]
    if found:
        found.sort(key=lambda f: f[0])
        ambs.extend(exc for _, exc in found)


def deadline_error(limits: Limits, path: JSONPath = ()) -> DialecticError:
    from dialectic.outcome.errors import LimitExceeded

    return LimitExceeded(
        "deadline", f"the run took longer than its deadline of {limits.deadline:g} s", path
    )
