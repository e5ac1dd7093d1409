"""Run-time machinery shared by compiled closures: the per-run state, concurrency, ambiguity.

A compiled node is either synchronous (``Compiled.sync(state)``) or asynchronous
(``await Compiled.aio(state)``); a node is asynchronous only if something below it is. Synchronous
subtrees always run inline, with no task or event-loop overhead; independent asynchronous
children run concurrently in an anyio task group, and a failure in one cancels its siblings.
Ambiguities do not cancel siblings: every ambiguity in independent branches is collected so the
model can resolve them all in one round trip.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import anyio
from anyio import CancelScope

from .descriptions import RunContext
from .errors import Candidate, DialecticError, JSONPath
from .limits import Limits

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


class Compiled:
    """A compiled node: exactly one of ``sync`` and ``aio`` is set."""

    __slots__ = ("sync", "aio")

    def __init__(self, sync: SyncFn | None = None, aio: AsyncFn | None = None) -> None:
        self.sync = sync
        self.aio = aio

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
            await _gather_native(state, async_idx, out, ambs)
        else:
            failures: list[BaseException] = []
            async with anyio.create_task_group() as tg:
                for i, afn in async_idx:
                    assert afn is not None
                    tg.start_soon(_child, state, afn, i, out, ambs, failures, tg.cancel_scope)
            if failures:
                raise failures[0]
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
    ambs: list[AmbiguityError],
    failures: list[BaseException],
    scope: CancelScope,
) -> None:
    try:
        out[i] = await fn(state)
    except AmbiguityError as exc:
        ambs.append(exc)
    except Exception as exc:
        if not failures:
            failures.append(exc)
        scope.cancel()


async def _gather_native(
    state: State,
    items: Sequence[tuple[int, AsyncFn | None]],
    out: list[Any],
    ambs: list[AmbiguityError],
) -> None:
    """The asyncio fast path of a task group: same semantics (a failure cancels the siblings
    and is raised once all have stopped; ambiguities are collected), native tasks."""
    loop = asyncio.get_running_loop()
    failures: list[BaseException] = []
    tasks: list[asyncio.Future[Any]] = []

    def done(task: asyncio.Future[Any]) -> None:
        # the first failure (not an ambiguity) cancels the siblings
        if failures or task.cancelled():
            return
        exc = task.exception()
        if exc is not None and not isinstance(exc, AmbiguityError):
            failures.append(exc)
            for t in tasks:
                if t is not task:
                    t.cancel()

    indexes = [i for i, fn in items if fn is not None]
    for _, fn in items:
        if fn is not None:
            task: asyncio.Future[Any] = loop.create_task(fn(state))  # type: ignore[arg-type]
            task.add_done_callback(done)
            tasks.append(task)
    try:
        results = await asyncio.gather(*tasks, return_exceptions=True)
    except asyncio.CancelledError:
        for t in tasks:
            t.cancel()
        raise
    if failures:
        raise failures[0]
    for i, result in zip(indexes, results, strict=True):
        if isinstance(result, AmbiguityError):
            ambs.append(result)
        elif isinstance(result, BaseException):
            raise result
        else:
            out[i] = result


def deadline_error(limits: Limits, path: JSONPath = ()) -> DialecticError:
    from .errors import LimitExceeded

    return LimitExceeded(
        "deadline", f"the run took longer than its deadline of {limits.deadline:g} s", path
    )
