"""Fan-out: 100 independent async calls that each sleep 20 ms, in one program.

Prints the wall time against the ideal 20 ms (target: within 1.05x); the same 100 sleeps under a
bare ``asyncio.gather`` (what the event loop itself costs on this machine); the runtime's own
share (the difference, per call); and the per-call scheduling overhead, measured with calls that
do not sleep at all, in dialectic and under a bare gather. Rounds of each kind alternate, so
drift in the machine's load hits all of them alike.
Run: python benchmarks/fanout.py [--quick]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio

from dialectic import FunctionDescription, Runtime

CALLS = 100
SLEEP = 0.020
TARGET = 1.05


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
    rounds = 8 if quick else 60

    async def dialectic_sleepy() -> Any:
        out = await sleepy.run_async()
        assert out.status == "success", out.message
        return out

    async def dialectic_instant() -> Any:
        out = await instant.run_async()
        assert out.status == "success", out.message
        return out

    async def bare_gather() -> Any:
        return await asyncio.gather(*(nap(SLEEP) for _ in range(CALLS)))

    async def bare_instant() -> Any:
        return await asyncio.gather(*(nap(0) for _ in range(CALLS)))

    kinds: dict[str, Callable[[], Awaitable[Any]]] = {
        "dialectic": dialectic_sleepy,
        "bare": bare_gather,
        "instant": dialectic_instant,
        "bare instant": bare_instant,
    }

    async def run_all() -> dict[str, list[float]]:
        times: dict[str, list[float]] = {k: [] for k in kinds}
        for _ in range(2):  # warm-up
            for fn in kinds.values():
                await fn()
        for _ in range(rounds):
            for kind, fn in kinds.items():
                start = time.perf_counter()
                await fn()
                times[kind].append(time.perf_counter() - start)
        return times

    times = anyio.run(run_all)
    wall = statistics.median(times["dialectic"])
    bare = statistics.median(times["bare"])
    ratio = wall / SLEEP
    share = (wall - bare) / CALLS
    overhead = statistics.median(times["instant"]) / CALLS
    bare_overhead = statistics.median(times["bare instant"]) / CALLS
    rows = [
        ("100 calls x 20 ms sleep, wall (median)", f"{wall * 1e3:.2f} ms"),
        (f"ratio to 20 ms (target <= {TARGET})", f"{ratio:.3f}"),
        ("bare asyncio.gather of the sleeps (floor)", f"{bare * 1e3:.2f} ms"),
        ("floor's ratio to 20 ms", f"{bare / SLEEP:.3f}"),
        ("runtime's share over the floor, per call", f"{share * 1e6:.1f} µs"),
        ("scheduling overhead per call (no sleep)", f"{overhead * 1e6:.1f} µs"),
        ("the same, bare asyncio.gather", f"{bare_overhead * 1e6:.1f} µs"),
    ]
    print(f"{'measure':<44} {'value':>10}")
    for label, value in rows:
        print(f"{label:<44} {value:>10}")
    if ratio <= TARGET:
        print("target: met")
    elif bare / SLEEP > TARGET:
        print("target: NOT met; the event loop alone is over it on this machine")
    else:
        print("target: NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
