"""Batches on Dask (``distributed``, an optional extra: ``pip install dialectic[dask]``).

The programs are cut into partitions; each partition is one task, run by a worker on its own
event loop with the runtime it built once from the batch's :class:`RuntimeSpec` (the same
plugin modules, entry points and limits as a local run). Partitions are submitted a few per
worker at a time (the input is read as the batch goes, never all at once) and their records
come back as each finishes, to be written by the caller's ``emit`` in the local format.

A worker that dies takes its running partitions with it; the scheduler runs them again on
another worker (up to ``distributed.scheduler.allowed-failures`` times). The caller's output
file writes each id once, so a partition that ran twice is written once. A partition that keeps
killing its workers ends as a ``worker_lost`` failure record per program: nothing is dropped.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Iterator
from typing import Any

from dialectic.batch.items import BatchItem, RuntimeSpec, problem_outcome, runner_for
from dialectic.outcome.outcome import ErrorInfo

#: programs per partition when the caller does not say
DEFAULT_PARTITION = 200


class DaskMissing(RuntimeError):
    """``distributed`` is not installed."""


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise DaskMissing(
            "--dask needs Dask's `distributed` package, which is not installed; install the "
            "extra: pip install 'dialectic[dask]'"
        ) from None
    return distributed


def run_partition(
    spec: RuntimeSpec, items: list[BatchItem], concurrency: int, calls: bool = True
) -> list[dict[str, Any]]:
    """The records of one partition (runs on a worker: the runtime is built once per process)."""
    runner = runner_for(spec)
    out: list[dict[str, Any]] = []
    asyncio.run(runner.records(iter(items), concurrency, out.append, calls))
    return out


#: how long to try reaching an existing scheduler before saying so (Dask's own default is 30 s)
CONNECT_TIMEOUT = 10.0


def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> tuple[Any, Any]:
    """A client for ``address``: a scheduler (``tcp://host:port``), or ``local`` /
    ``local:WORKERS`` for a new ``LocalCluster`` of worker processes (one thread each).
    Returns ``(client, cluster)``; ``cluster`` is None for an existing scheduler. A scheduler
    not reached within ``timeout`` seconds is a ``RuntimeError`` that says what to do."""
    distributed = _distributed()
    if address == "local" or address.startswith("local:"):
        _, _, count = address.partition(":")
        if count and (not count.isdigit() or not 0 < int(count) <= 1024):
            raise ValueError(f"--dask local:WORKERS needs a number of workers, got {count!r}")
        cluster = distributed.LocalCluster(
            n_workers=int(count) if count else None,
            threads_per_worker=1,
            processes=True,
            # its HTTP server (health, metrics) on a free port: the default, 8787, warns
            # into the user's output when another cluster holds it
            dashboard_address=":0",
        )
        return distributed.Client(cluster), cluster
    try:
        return distributed.Client(address, timeout=timeout), None
    except (OSError, TimeoutError) as exc:
        raise RuntimeError(
            f"could not reach a Dask scheduler at {address} within {timeout:g} s ({exc}). "
            "Start one with `dask scheduler` (it prints its address) and workers with "
            "`dask worker ADDRESS`, or use --dask local for a cluster on this machine"
        ) from None


def _partitions(items: Iterator[BatchItem], size: int) -> Iterator[list[BatchItem]]:
    while True:
        part = list(itertools.islice(items, size))
        if not part:
            return
        yield part


def _lost(part: list[BatchItem], exc: BaseException) -> list[dict[str, Any]]:
    info = ErrorInfo(
        "worker_lost",
        f"the program's partition did not finish on the cluster: {type(exc).__name__}: {exc}",
        hint="Its workers died or it failed repeatedly; run this program alone to see why.",
    )
    out = problem_outcome(info).to_json()
    return [{"id": item.id, "outcome": out, "timings": {}} for item in part]


def run_on_dask(
    client: Any,
    spec: RuntimeSpec,
    items: Iterator[BatchItem],
    emit: Callable[[dict[str, Any]], Any],
    *,
    partition_size: int = DEFAULT_PARTITION,
    concurrency: int = 64,
    pending_per_worker: int = 2,
    calls: bool = True,
) -> None:
    """Run ``items`` on the cluster behind ``client``; ``emit(record)`` for each, as partitions
    finish (in the caller's thread)."""
    distributed = _distributed()
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    parts = _partitions(items, partition_size)
    queue = distributed.as_completed()
    submitted: dict[str, list[BatchItem]] = {}

    def submit_next() -> None:
        part = next(parts, None)
        if part is not None:
            future = client.submit(run_partition, spec, part, concurrency, calls, pure=False)
            submitted[future.key] = part
            queue.add(future)

    for _ in range(workers * pending_per_worker):
        submit_next()
    for future in queue:
        part = submitted.pop(future.key)
        try:
            records = future.result()
        except Exception as exc:  # KilledWorker, or an error outside every program
            records = _lost(part, exc)
        future.release()
        submit_next()
        for record in records:
            emit(record)


# -- dialectic analyze --dask -------------------------------------------------------------------


def analyze_partition(
    programs: list[Any], options: dict[str, Any], spec: RuntimeSpec | None
) -> list[Any]:
    """The analysis records of one partition of programs (runs on a worker)."""
    from dialectic.tools.analysis.analyze import analyze_program

    runtime = runner_for(spec).runtime if spec is not None else None
    return [analyze_program(p.program, p.lang, p.id, runtime=runtime, **options) for p in programs]


def analyze_on_dask(
    client: Any,
    programs: Iterator[Any],
    *,
    options: dict[str, Any],
    spec: RuntimeSpec | None = None,
    partition_size: int = 500,
    on_partition: Callable[[int], Any] | None = None,
) -> list[Any]:
    """``analyze_program`` of every program on the cluster; the records in input order.
    ``on_partition(n)`` is called with the size of each partition as it finishes."""
    distributed = _distributed()
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    parts = enumerate(_partitions(programs, partition_size))
    queue = distributed.as_completed()
    index_of: dict[str, int] = {}
    done: dict[int, list[Any]] = {}

    def submit_next() -> None:
        nxt = next(parts, None)
        if nxt is not None:
            index, part = nxt
            future = client.submit(analyze_partition, part, options, spec, pure=False)
            index_of[future.key] = index
            queue.add(future)

    for _ in range(workers * 2):
        submit_next()
    for future in queue:
        records = future.result()  # an analysis never raises for a bad plan
        done[index_of.pop(future.key)] = records
        future.release()
        submit_next()
        if on_partition is not None:
            on_partition(len(records))
    return [r for i in sorted(done) for r in done[i]]


def analyze_with_dask(
    address: str,
    inputs: list[Any],
    lang: str | None,
    exclude: tuple[str, ...],
    progress: bool | None,
    plugins: tuple[str, ...],
    entry_points: bool,
    *,
    client: Any = None,
    **options: Any,
) -> list[Any]:
    """What ``dialectic analyze --dask ADDRESS`` does: the programs of ``inputs`` read here,
    analysed on the cluster (compiled against the plugins' registry when any are named)."""
    import sys

    from dialectic.tools.analysis.corpus import iter_programs

    spec = RuntimeSpec.make(plugins, entry_points) if plugins or entry_points else None
    programs = iter_programs(inputs, lang, exclude)
    show = sys.stderr.isatty() if progress is None else progress
    bar: Any = None
    if show:
        from tqdm import tqdm

        bar = tqdm(desc="analysing", unit=" plans", file=sys.stderr)
    cluster = None
    own = client is None
    if own:
        client, cluster = connect(address)
    try:
        return analyze_on_dask(
            client,
            programs,
            options=options,
            spec=spec,
            on_partition=bar.update if bar is not None else None,
        )
    finally:
        if bar is not None:
            bar.close()
        if own:
            client.close()
            if cluster is not None:
                cluster.close()
