"""Many programs on one event loop: ``run_many`` / ``run_many_async`` / ``as_completed``.

Every program shares the runtime (its registry, its prepared-program cache, its plugin sessions)
and one event loop. At most ``concurrency`` programs run at once: that many worker tasks take
the next program from one shared iterator (a fixed pool, not a task and a semaphore per program),
so the cost per program is preparing it (once per distinct text, through the runtime's cache)
and running it. Within each program the runtime's own limits (``max_concurrency``...) still hold.

A program never makes the batch raise: a bad one is a failure ``Outcome`` in its place. Cancelling
the batch cancels every program in flight; nothing of it runs after it returns.
"""

from __future__ import annotations

import asyncio
import copy
import gc
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable, Iterator, Mapping
from typing import Any

import anyio

from dialectic.batch.collector import batch_collector
from dialectic.limits import Limits
from dialectic.outcome.outcome import FAILURE, SUCCESS, ErrorInfo, Outcome

#: programs running at once when the caller does not say
DEFAULT_CONCURRENCY = 64
MAX_CONCURRENCY = 100_000

OnOutcome = Callable[[int, Outcome], Any]

#: outcomes kept between two freezes of the collector's heap (see :class:`Kept`)
FREEZE_EVERY = 1_000


class Kept:
    """Outcomes kept until the batch ends, out of the cyclic garbage collector's way.

    Each kept outcome (with its call log) is a dozen containers the collector tracks; as they
    pile up, its full collections scan them again and again (a quarter of ``run_many``'s time
    for 10,000 programs). So every ``FREEZE_EVERY`` outcomes the heap is frozen
    (``gc.freeze()``, constant time: what is tracked then is left out of later collections,
    and freed as usual when its last reference goes), and unfrozen (into the oldest generation)
    when the batch ends. Not done when the collector is off or the host keeps objects frozen
    itself (``unfreeze`` would release them too).

    Frozen cyclic garbage is never collected until the batch ends, so none may be frozen with
    the outcomes: a run leaves none (a failed one lets go of its tracebacks, see
    :func:`dialectic.run.finish.untangle`), but a plugin's failing function may (an exception
    in a cycle of its own). So when the outcomes since the last freeze include one that is not
    a success, the collector first runs a full collection, which scans only what is not frozen
    yet: those outcomes and what their runs left, a bounded cost, paid only by failures. (The
    first freeze of a batch also freezes the host's heap, a young collection first: a full one
    would scan the whole heap; what it misses is at most one stretch of outcomes' garbage.)"""

    __slots__ = ("active", "count", "froze", "dirty")

    def __init__(self) -> None:
        self.active = gc.isenabled() and gc.get_freeze_count() == 0
        self.count = 0
        self.froze = False
        #: an outcome since the last freeze was not a success (its run may have left garbage)
        self.dirty = False

    def kept(self, outcome: Outcome) -> None:
        """One more outcome is kept."""
        if outcome.status != SUCCESS:
            self.dirty = True
        self.count += 1
        if self.count >= FREEZE_EVERY and self.active:
            self.count = 0
            if self.dirty:
                self.dirty = False
                gc.collect(2 if self.froze else 1)
            gc.freeze()
            self.froze = True

    def release(self) -> None:
        """The batch has ended: what it froze goes back to the collector."""
        if self.froze:
            self.froze = False
            gc.unfreeze()


def check_concurrency(concurrency: int) -> int:
    """``concurrency`` must be a positive integer (a host's typo is a ValueError naming it)."""
    if (
        isinstance(concurrency, bool)
        or not isinstance(concurrency, int)
        or not 0 < concurrency <= MAX_CONCURRENCY
    ):
        raise ValueError(
            f"concurrency must be an integer from 1 to {MAX_CONCURRENCY}, got {concurrency!r}"
        )
    return concurrency


def internal_failure(exc: BaseException, where: str = "the batch") -> Outcome:
    """A failure Outcome for an error outside any program (never raised into the batch)."""
    message = f"{where} failed unexpectedly: {type(exc).__name__}: {exc}"
    return Outcome(
        FAILURE,
        message=message,
        error=ErrorInfo(
            "internal_error",
            message,
            hint="This is a bug in dialectic or a plugin, not in the program; please report it.",
            details={"exception": type(exc).__name__},
        ),
    )


def with_limits(runtime: Any, limits: Limits | Mapping[str, Any] | None) -> Any:
    """``runtime`` itself, or (with other ``limits``) a sibling sharing its plugins and
    functions under those limits (its own serializer and prepared-program cache)."""
    if limits is None:
        return runtime
    chosen = Limits.coerce(limits)
    if chosen == runtime.limits:
        return runtime
    sibling = copy.copy(runtime)
    registry = copy.copy(runtime.registry)
    # the sibling rebinds limit-dependent built-ins (``str``): in its own tables only
    for name in ("functions", "_params", "_signatures"):
        if isinstance(getattr(registry, name, None), dict):
            setattr(registry, name, dict(getattr(registry, name)))
    sibling.registry = registry
    sibling.limits = chosen
    sibling._rebuild()
    return sibling


def _pairs(
    programs: Iterable[Any], contexts: Iterable[Mapping[str, Any] | None] | None
) -> Iterator[tuple[int, Any, Mapping[str, Any] | None]]:
    if isinstance(programs, (str, bytes, bytearray, Mapping)):  # (would run each character)
        raise ValueError(
            f"programs must be a list of programs, got one program ({type(programs).__name__}); "
            "pass [program]"
        )
    if contexts is None:
        for i, program in enumerate(programs):
            yield i, program, None
        return
    if isinstance(contexts, Mapping):
        raise ValueError(
            "contexts must be one context per program (a list of mappings), not one mapping; "
            "to share one context, pass [context] * len(programs)"
        )
    ctx_iter = iter(contexts)
    done = object()
    for i, program in enumerate(programs):
        ctx = next(ctx_iter, done)
        if ctx is done:
            raise ValueError(f"contexts has fewer items than programs (none for program {i})")
        yield i, program, ctx  # type: ignore[misc]
    if next(ctx_iter, done) is not done:
        raise ValueError("contexts has more items than programs")


async def run_one(
    runtime: Any, program: Any, context: Mapping[str, Any] | None, lang: str | None
) -> Outcome:
    """One program to its Outcome; never raises an ``Exception``."""
    try:
        prepared = runtime.prepare(program, lang=lang)
        if prepared._sync is not None:  # synchronous and compiled: no await needed
            return prepared.run(context)  # type: ignore[no-any-return]
        return await prepared.run_async(context)  # type: ignore[no-any-return]
    except Exception as exc:
        return internal_failure(exc, "the program's run")


async def drive(
    jobs: Iterator[Any], concurrency: int, work: Callable[[Any], Awaitable[None]]
) -> None:
    """Run ``work(job)`` for every job, at most ``concurrency`` at once: a fixed pool of worker
    tasks sharing ``jobs``. An error in ``work`` or the iterator cancels the others and is
    raised; cancelling ``drive`` cancels them all. While it runs, the collector's young
    threshold is raised (:func:`dialectic.batch.collector.batch_collector`)."""

    async def worker() -> None:
        for job in jobs:
            await work(job)

    check_concurrency(concurrency)
    try:
        # the collector's young threshold raised while the batch runs (batch/collector.py)
        with batch_collector(concurrency):
            async with anyio.create_task_group() as tg:
                for _ in range(concurrency):
                    tg.start_soon(worker)
    except BaseExceptionGroup as group:  # one error: raise it as it was
        if len(group.exceptions) == 1:
            raise group.exceptions[0] from None
        raise


async def run_many_async(
    runtime: Any,
    programs: Iterable[Any],
    *,
    contexts: Iterable[Mapping[str, Any] | None] | None = None,
    lang: str | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    limits: Limits | Mapping[str, Any] | None = None,
    on_outcome: OnOutcome | None = None,
) -> list[Outcome]:
    """The outcomes of ``programs`` in input order; ``on_outcome(index, outcome)`` is called as
    each finishes. ``contexts``: one per program (or None)."""
    check_concurrency(concurrency)
    rt = with_limits(runtime, limits)
    results: list[Outcome | None] = []
    kept = Kept()

    async def work(job: tuple[int, Any, Mapping[str, Any] | None]) -> None:
        index, program, context = job
        try:  # (run_one, inline: a coroutine less per program)
            prepared = rt.prepare(program, lang=lang)
            if prepared._sync is not None:  # synchronous and compiled: no await needed
                outcome = prepared.run(context)
            else:
                outcome = await prepared.run_async(context)
        except Exception as exc:
            outcome = internal_failure(exc, "the program's run")
        while len(results) <= index:
            results.append(None)
        results[index] = outcome
        kept.kept(outcome)
        if on_outcome is not None:
            on_outcome(index, outcome)

    try:
        await drive(_pairs(programs, contexts), concurrency, work)
    finally:
        kept.release()
    return results  # type: ignore[return-value]  # every slot is filled


def run_many(
    runtime: Any,
    programs: Iterable[Any],
    *,
    contexts: Iterable[Mapping[str, Any] | None] | None = None,
    lang: str | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    limits: Limits | Mapping[str, Any] | None = None,
    on_outcome: OnOutcome | None = None,
) -> list[Outcome]:
    """:func:`run_many_async` on a fresh event loop (in a thread of its own when called from
    inside a running loop, as ``Prepared.run`` does)."""
    check_concurrency(concurrency)

    async def main() -> list[Outcome]:
        return await run_many_async(
            runtime,
            programs,
            contexts=contexts,
            lang=lang,
            concurrency=concurrency,
            limits=limits,
            on_outcome=on_outcome,
        )

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main())
    import threading

    box: list[Any] = []

    def target() -> None:
        try:
            box.append(asyncio.run(main()))
        except BaseException as exc:  # re-raised in the caller's thread
            box.append(exc)

    thread = threading.Thread(target=target, name="dialectic-run-many")
    thread.start()
    thread.join()
    if isinstance(box[0], BaseException):
        raise box[0]
    return box[0]  # type: ignore[no-any-return]


async def as_completed(
    runtime: Any,
    programs: Iterable[Any],
    *,
    contexts: Iterable[Mapping[str, Any] | None] | None = None,
    lang: str | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    limits: Limits | Mapping[str, Any] | None = None,
) -> AsyncGenerator[tuple[int, Outcome], None]:
    """``(index, outcome)`` pairs as the programs finish (asyncio). Leaving the loop early
    cancels the programs still running (use ``contextlib.aclosing`` to leave promptly)."""
    check_concurrency(concurrency)
    rt = with_limits(runtime, limits)
    queue: asyncio.Queue[tuple[int, Outcome] | BaseException | None] = asyncio.Queue(
        maxsize=concurrency
    )

    async def work(job: tuple[int, Any, Mapping[str, Any] | None]) -> None:
        index, program, context = job
        await queue.put((index, await run_one(rt, program, context, lang)))

    async def producer() -> None:
        try:
            await drive(_pairs(programs, contexts), concurrency, work)
        except Exception as exc:
            await queue.put(exc)
        else:
            await queue.put(None)

    task = asyncio.create_task(producer())
    try:
        while True:
            item = await queue.get()
            if item is None:
                break
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        if not task.done():
            task.cancel()
        await asyncio.gather(task, return_exceptions=True)
