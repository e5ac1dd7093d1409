"""Batches: 10,000 programs of 5 calls, each call an async function with 1 ms of simulated
latency, at most 100 programs at once.

Side by side, on this machine:

- ``bare asyncio``: the program written by hand (a task per call, each awaiting the tasks it
  depends on), 100 worker tasks taking the next program from a shared iterator;
- ``Prepared.run_async``: the runtime alone, 100 worker tasks awaiting the prepared program
  (what the batch layer adds is the difference to the next row);
- ``run_many``: ``Runtime.run_many`` on one event loop (the Plan program prepared once, a
  context per program);
- ``batch local``: ``dialectic batch`` end to end (JSON Lines in, a record per program with
  its call log written and flushed, resume bookkeeping) on one event loop; and with
  ``--no-calls`` (records without the call log);
- ``batch dask``: the same on a 2-worker ``distributed.LocalCluster`` (processes), the records
  streaming back to the same output file (``--no-dask`` skips it).

Target: ``run_many`` within 1.3x of bare asyncio. Results are checked equal. Rounds alternate
and medians are kept. This module is also the plugin the Dask workers load (``step``).
Run: python benchmarks/batch.py [--quick] [--no-dask] [--profile]
"""

from __future__ import annotations

import asyncio
import cProfile
import io
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from dialectic import FunctionDescription, Runtime, hookimpl

LATENCY = 0.001
CONCURRENCY = 100
TARGET = 1.3

PROGRAM = """\
a = step(seed, 1);
b = step(seed, 2);
c = step(a, b);
d = step(b, a);
return step(c, d);
"""


async def step(a: int, b: int) -> int:
    await asyncio.sleep(LATENCY)
    return (a * 31 + b) % 1_000_003


@hookimpl
def dialectic_register_functions(register: Any) -> None:
    register(
        FunctionDescription(
            "step", "combine two numbers, slowly", step, {"a": "integer", "b": "integer"}, "integer"
        )
    )


async def program_bare(seed: int) -> int:
    a = asyncio.create_task(step(seed, 1))
    b = asyncio.create_task(step(seed, 2))

    async def c_() -> int:
        return await step(await a, await b)

    async def d_() -> int:
        return await step(await b, await a)

    c = asyncio.create_task(c_())
    d = asyncio.create_task(d_())
    return await step(await c, await d)


async def many_bare(n: int) -> list[int]:
    results = [0] * n
    seeds: Iterator[int] = iter(range(n))

    async def worker() -> None:
        for seed in seeds:
            results[seed] = await program_bare(seed)

    await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
    return results


async def many_prepared(rt: Runtime, n: int) -> list[Any]:
    """The runtime without the batch layer: 100 workers awaiting ``Prepared.run_async``."""
    prepared = rt.prepare(PROGRAM, lang="plan")
    results: list[Any] = [None] * n
    seeds: Iterator[int] = iter(range(n))

    async def worker() -> None:
        for seed in seeds:
            results[seed] = (await prepared.run_async({"seed": seed})).value

    await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
    return results


def many_dialectic(rt: Runtime, n: int) -> list[Any]:
    outs = rt.run_many(
        [PROGRAM] * n,
        contexts=[{"seed": i} for i in range(n)],
        lang="plan",
        concurrency=CONCURRENCY,
    )
    return [o.value if o.status == "success" else o.message for o in outs]


def write_input(folder: Path, n: int) -> Path:
    src = folder / "in.jsonl"
    with src.open("wb") as fh:
        for i in range(n):
            rec = {"id": str(i), "program": PROGRAM, "lang": "plan", "context": {"seed": i}}
            fh.write(orjson.dumps(rec) + b"\n")
    return src


def batch_values(out: Path, n: int) -> list[Any]:
    values: list[Any] = [None] * n
    for line in out.read_bytes().splitlines():
        rec = orjson.loads(line)
        values[int(rec["id"])] = rec["outcome"].get("value")
    return values


def run_file(
    src: Path, folder: Path, n: int, client: Any = None, calls: bool = True
) -> tuple[float, list[Any]]:
    from dialectic.batch.driver import run_batch
    from dialectic.batch.items import RuntimeSpec

    out = folder / f"out-{time.perf_counter_ns()}.jsonl"
    spec = RuntimeSpec.make(["batch"], entry_points=False)
    start = time.perf_counter()
    run_batch(
        src,
        out,
        spec=spec,
        concurrency=CONCURRENCY,
        client=client,
        partition_size=500,
        progress=False,
        calls=calls,
    )
    took = time.perf_counter() - start
    values = batch_values(out, n)
    out.unlink()
    return took, values


def main() -> int:
    quick = "--quick" in sys.argv
    n = 2_000 if quick else 10_000
    rounds = 3 if quick else 5
    rt = Runtime(plugins=[sys.modules[__name__]], load_entry_points=False)
    expected = asyncio.run(many_bare(n))
    if many_dialectic(rt, n) != expected:
        raise SystemExit("run_many's results differ from bare asyncio's")
    if asyncio.run(many_prepared(rt, n)) != expected:
        raise SystemExit("Prepared.run_async's results differ from bare asyncio's")
    times: dict[str, list[float]] = {
        "bare": [],
        "prepared": [],
        "run_many": [],
        "batch local": [],
        "batch local, no calls": [],
    }
    folder = Path(tempfile.mkdtemp(prefix="dialectic-bench-"))
    src = write_input(folder, n)
    # CPU time of this process too (the machine is shared: CPU time is what another process's
    # load barely moves); for the Dask row it is the driver's alone
    cpu: dict[str, list[float]] = {k: [] for k in times}

    def timed(kind: str, fn: Any) -> None:
        start, cpu_start = time.perf_counter(), time.process_time()
        fn()
        times[kind].append(time.perf_counter() - start)
        cpu[kind].append(time.process_time() - cpu_start)

    for _ in range(rounds):
        timed("bare", lambda: asyncio.run(many_bare(n)))
        timed("prepared", lambda: asyncio.run(many_prepared(rt, n)))
        timed("run_many", lambda: many_dialectic(rt, n))
        took, values = run_file(src, folder, n)
        if values != expected:
            raise SystemExit("dialectic batch's results differ from bare asyncio's")
        times["batch local"].append(took)
        took, values = run_file(src, folder, n, calls=False)
        if values != expected:
            raise SystemExit("dialectic batch's results differ from bare asyncio's")
        times["batch local, no calls"].append(took)
    if "--no-dask" not in sys.argv:
        times["batch dask"] = dask_times(src, folder, n, rounds, expected)
    med = {k: statistics.median(v) for k, v in times.items()}
    cpu_med = {k: statistics.median(v) for k, v in cpu.items() if v}
    print(f"{n:,} programs x 5 calls x {LATENCY * 1e3:.0f} ms, {CONCURRENCY} programs at once")
    rows = [("", "seconds", "programs/s", "vs bare")]
    for kind, label in (
        ("bare", "bare asyncio (a task per call, 100 workers)"),
        ("prepared", "Prepared.run_async, 100 workers (no batch layer)"),
        ("run_many", "Runtime.run_many (one event loop)"),
        ("batch local", "dialectic batch, local (JSON Lines in and out)"),
        ("batch local, no calls", "dialectic batch, local, --no-calls (no call log)"),
        ("batch dask", "dialectic batch, 2-worker LocalCluster"),
    ):
        if kind in med:
            rows.append(
                (
                    label,
                    f"{med[kind]:.2f}",
                    f"{n / med[kind]:,.0f}",
                    f"{med[kind] / med['bare']:.2f}x",
                )
            )
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        print(
            f"{r[0]:<{widths[0]}}  "
            + "  ".join(f"{c:>{w}}" for c, w in zip(r[1:], widths[1:], strict=True))
        )
    for kind, label in (
        ("prepared", "Prepared.run_async"),
        ("run_many", "Runtime.run_many"),
    ):
        print(
            f"CPU time, {label} / bare asyncio: {cpu_med[kind]:.2f} / {cpu_med['bare']:.2f} s"
            f" = {cpu_med[kind] / cpu_med['bare']:.2f}x"
        )
    ratio = med["run_many"] / med["bare"]
    verdict = "met" if ratio <= TARGET else "NOT met"
    print(f"run_many within {TARGET}x of bare asyncio: {verdict} ({ratio:.2f}x)")
    if "--profile" in sys.argv:
        profiler = cProfile.Profile()
        profiler.enable()
        many_dialectic(rt, n)
        profiler.disable()
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(20)
        print(text.getvalue())
    return 0


def dask_times(src: Path, folder: Path, n: int, rounds: int, expected: list[Any]) -> list[float]:
    from dialectic.batch.cluster import connect

    client, cluster = connect("local:2")
    try:
        out: list[float] = []
        for _ in range(rounds):
            took, values = run_file(src, folder, n, client)
            if values != expected:
                raise SystemExit("the Dask batch's results differ from bare asyncio's")
            out.append(took)
        return out
    finally:
        client.close()
        cluster.close()


if __name__ == "__main__":
    sys.exit(main())
