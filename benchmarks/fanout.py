"""Fan-out: 100 independent async calls that each sleep 20 ms, in one program.

Prints the wall time against the ideal 20 ms (target: within 1.05x) and the per-call scheduling
overhead, measured with calls that do not sleep at all.
Run: python benchmarks/fanout.py [--quick]
"""

from __future__ import annotations

import statistics
import sys
import time

import anyio

from dialectic import FunctionDescription, Runtime

CALLS = 100
SLEEP = 0.020


async def nap(seconds: float) -> float:
    if seconds:
        await anyio.sleep(seconds)
    else:
        await anyio.lowlevel.checkpoint()
    return seconds


def main() -> int:
    quick = "--quick" in sys.argv
    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("nap", "sleep", nap, {"seconds": "number"}, "number"))
    sleepy = rt.prepare([{"nap": SLEEP} for _ in range(CALLS)])
    instant = rt.prepare([{"nap": 0} for _ in range(CALLS)])
    rounds = 5 if quick else 30

    async def timed(prepared: object) -> list[float]:
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            out = await prepared.run_async()  # type: ignore[attr-defined]
            times.append(time.perf_counter() - start)
            assert out.status == "success", out.message
        return times

    async def floor() -> list[float]:
        # the same 100 sleeps with bare asyncio.gather: what the event loop itself costs
        import asyncio

        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            await asyncio.gather(*(anyio.sleep(SLEEP) for _ in range(CALLS)))
            times.append(time.perf_counter() - start)
        return times

    async def run_all() -> tuple[list[float], list[float], list[float]]:
        return await timed(sleepy), await timed(instant), await floor()

    sleepy_times, instant_times, floor_times = anyio.run(run_all)
    wall = statistics.median(sleepy_times)
    overhead = statistics.median(instant_times) / CALLS
    ratio = wall / SLEEP
    print(f"{'measure':<42} {'value':>10}")
    print(f"{'100 calls x 20 ms sleep, wall (median)':<42} {wall * 1e3:>8.2f} ms")
    print(f"{'ratio to 20 ms (target <= 1.05)':<42} {ratio:>10.3f}")
    bare = statistics.median(floor_times)
    print(f"{'bare asyncio.gather of the sleeps (floor)':<42} {bare * 1e3:>8.2f} ms")
    print(f"{'scheduling overhead per call':<42} {overhead * 1e6:>8.1f} µs")
    print(f"target: {'met' if ratio <= 1.05 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
