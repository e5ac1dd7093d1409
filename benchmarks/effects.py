"""Effects (SPEC 17): a program of 100 independent reads and 10 ordered writes against the ideal
schedule, written by hand in bare asyncio (the reads concurrent, the writes one after the
other, both at once).

The program interleaves the statements: ten reads, then a write, and so on; the reads are of
a lookup service (their own scope), the writes of a key-value store (one scope: they must run
in program order, each after the previous one finished). Each read sleeps 20 ms and each write
5 ms, so the ideal takes max(20 ms, 10 x 5 ms) = 50 ms. Target: within 1.05x of bare asyncio.
Results are checked: the store's writes happened in program order. Rounds alternate dialectic
and bare asyncio on one event loop; medians are kept. Run: python benchmarks/effects.py
[--quick]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

from dialectic import FunctionDescription, Runtime

READS = 100
WRITES = 10
READ_SLEEP = 0.020
WRITE_SLEEP = 0.005
TARGET = 1.05


class Store:
    def __init__(self) -> None:
        self.order: list[int] = []

    async def put(self, key: int, value: int) -> None:
        await asyncio.sleep(WRITE_SLEEP)
        self.order.append(key)


async def lookup(key: int) -> int:
    await asyncio.sleep(READ_SLEEP)
    return key * 2


def program() -> str:
    lines = []
    per = READS // WRITES
    for w in range(WRITES):
        for r in range(w * per, (w + 1) * per):
            lines.append(f"r{r} = lookup({{key: {r}}});")
        lines.append(f"put({{key: {w}, value: {w}}});")
    lines.append("return [" + ", ".join(f"r{r}" for r in range(READS)) + "];")
    return "\n".join(lines)


async def bare(store: Store) -> list[int]:
    async def writes() -> None:
        for w in range(WRITES):
            await store.put(w, w)

    reads = asyncio.gather(*(lookup(r) for r in range(READS)))
    results, _ = await asyncio.gather(reads, writes())
    return list(results)


async def measure(rounds: int) -> tuple[float, float]:
    store = Store()
    rt = Runtime(load_entry_points=False)
    rt.register(
        FunctionDescription("lookup", "a read", lookup, {"key": "integer"}, "integer"),
        FunctionDescription(
            "put",
            "a write",
            store.put,
            {"key": "integer", "value": "integer"},
            effects="write",
            scope="store",
        ),
    )
    prepared = rt.prepare(program(), lang="plan")
    expected = [2 * r for r in range(READS)]
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(rounds):
        store.order.clear()
        t0 = time.perf_counter()
        out = await prepared.run_async()
        ours.append(time.perf_counter() - t0)
        assert out.status == "success" and out.value == expected, out.message
        assert store.order == list(range(WRITES)), store.order
        store.order.clear()
        t0 = time.perf_counter()
        assert await bare(store) == expected
        theirs.append(time.perf_counter() - t0)
    return statistics.median(ours), statistics.median(theirs)


def main() -> None:
    rounds = 5 if "--quick" in sys.argv else 21
    ours, theirs = asyncio.run(measure(rounds))
    ratio = ours / theirs
    verdict = "ok" if ratio <= TARGET else "SLOWER THAN TARGET"
    print("| workload | dialectic | bare asyncio (ideal) | ratio | target |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(
        f"| {READS} reads + {WRITES} ordered writes | {ours * 1000:.1f} ms | "
        f"{theirs * 1000:.1f} ms | {ratio:.3f}x | {TARGET}x ({verdict}) |"
    )


if __name__ == "__main__":
    main()
