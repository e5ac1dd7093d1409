"""``run_batch``: read the items, skip those already in the output, run the rest here (one event
loop) or on Dask, write a record per program as it finishes, count them, summarize."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from dialectic.batch.items import BatchItem, Runner, RuntimeSpec
from dialectic.batch.jsonl import OutputFile, read_items
from dialectic.batch.local import DEFAULT_CONCURRENCY, check_concurrency
from dialectic.batch.progress import Progress


def _count_lines(path: Path) -> int | None:
    """Non-blank lines of a JSON Lines file (the bar's total), None for other inputs."""
    if not path.is_file() or path.suffix.lower() not in (".jsonl", ".ndjson"):
        return None
    with path.open("rb") as fh:
        return sum(1 for line in fh if line.strip())


def _pending(items: Iterator[BatchItem], done: dict[str, str]) -> Iterator[BatchItem]:
    for item in items:
        if item.id not in done:
            yield item


def run_batch(
    source: str | Path,
    out: str | Path | None = None,
    *,
    spec: RuntimeSpec | None = None,
    runtime: Any = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    dask: str | None = None,
    client: Any = None,
    partition_size: int | None = None,
    progress: bool | None = None,
    progress_stream: TextIO | None = None,
    stdout: BinaryIO | None = None,
    on_record: Any = None,
    calls: bool = True,
    dask_timeout: float | None = None,
) -> dict[str, Any]:
    """Run every program of ``source`` (JSON Lines, a folder, a NESTFUL/BFCL file); append a
    record per program to ``out`` (``stdout`` when None), skipping the ids already there.

    Locally the programs run on ``runtime`` (default: built from ``spec``); with ``dask``
    (``tcp://host:port``, ``local``, ``local:N``) or a ``client`` on a Dask cluster whose
    workers build their runtime from ``spec``. ``progress``: a bar on stderr (None: when stderr
    is a terminal). ``on_record(record)`` is called after each record is written. ``calls``:
    records carry the call log. ``dask_timeout``: seconds to reach an existing scheduler
    (default :data:`dialectic.batch.cluster.CONNECT_TIMEOUT`). Returns the summary."""
    spec = spec or RuntimeSpec()
    check_concurrency(concurrency)
    items = read_items(source)
    out_path = Path(out) if out is not None else None
    output = OutputFile(out_path, stdout or sys.stdout.buffer)
    total = _count_lines(Path(source))
    if total is not None:
        total = max(0, total - output.resumed)
    stream = progress_stream or sys.stderr
    show = stream.isatty() if progress is None else progress
    counter = Progress(show, total, output.resumed, stream)

    def emit(record: dict[str, Any]) -> None:
        if output.write(record):
            counter.add(record)
            if on_record is not None:
                on_record(record)

    pending = _pending(items, output.done)
    where = "local"
    try:
        if dask is None and client is None:
            runner = Runner(spec, runtime if runtime is not None else spec.build())
            asyncio.run(runner.records(pending, concurrency, emit, calls))
        else:
            where = _on_dask(
                spec, pending, emit, dask, client, concurrency, partition_size, calls, dask_timeout
            )
    finally:
        counter.close()
        output.close()
    return counter.summary(where=where, output=str(out_path) if out_path else None)


def _on_dask(
    spec: RuntimeSpec,
    pending: Iterator[BatchItem],
    emit: Any,
    address: str | None,
    client: Any,
    concurrency: int,
    partition_size: int | None,
    calls: bool,
    timeout: float | None,
) -> str:
    from dialectic.batch.cluster import CONNECT_TIMEOUT, DEFAULT_PARTITION, connect, run_on_dask

    cluster = None
    own = client is None
    if own:
        assert address is not None
        client, cluster = connect(address, CONNECT_TIMEOUT if timeout is None else timeout)
    try:
        where = f"dask {client.scheduler.address}"
        run_on_dask(
            client,
            spec,
            pending,
            emit,
            partition_size=partition_size or DEFAULT_PARTITION,
            concurrency=concurrency,
            calls=calls,
        )
        return where
    finally:
        if own:
            client.close()
            if cluster is not None:
                cluster.close()
