"""What a run keeps alive: tracked containers per in-flight run, by kind (deterministic).

1,000 runs at once of ``schedule.py``'s 5-call program, every call held at a gate: once each
run is in its first two calls (the collector off), the objects ``gc.get_objects()`` lists that
were not there before, per run, by type; ``-l`` adds the lists and dicts by content and the
coroutines by name. Bare asyncio's version of the program is counted the same way.
Run: python benchmarks/footprint.py [-l]
"""

from __future__ import annotations

import asyncio
import collections
import gc
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from schedule import SMALL

from dialectic import FunctionDescription, Limits, Runtime

N = 1_000
GATE: list[asyncio.Event] = []
ENTERED = [0]


async def gated(a: int, b: int) -> int:
    ENTERED[0] += 1
    await GATE[0].wait()
    return (a * 31 + b) % 1_000_003


async def bare(seed: int) -> int:
    """schedule.py's ``small_bare``, its calls gated."""
    a = asyncio.create_task(gated(seed, 1))
    b = asyncio.create_task(gated(seed, 2))

    async def c_() -> int:
        return await gated(await a, await b)

    async def d_() -> int:
        return await gated(await b, await a)

    c = asyncio.create_task(c_())
    d = asyncio.create_task(d_())
    return await gated(await c, await d)


def describe(o: Any) -> str | None:
    if type(o) is list:
        return "list " + repr([type(x).__name__ for x in o])[:70]
    if type(o) is dict:
        return f"dict of {len(o)}"
    if type(o).__name__ == "coroutine":
        return "coroutine " + str(o.__qualname__)
    return None


async def count(label: str, one: Callable[[int], Awaitable[Any]], detail: bool) -> None:
    GATE[:] = [asyncio.Event()]
    GATE[0].set()
    await asyncio.gather(*(one(i) for i in range(10)))  # warm
    GATE[:] = [asyncio.Event()]
    ENTERED[0] = 0
    gc.collect()
    gc.disable()
    before = {id(o) for o in gc.get_objects()}
    runs = [asyncio.ensure_future(one(i)) for i in range(N)]
    while ENTERED[0] < 2 * N:
        await asyncio.sleep(0)
    for _ in range(3):
        await asyncio.sleep(0)
    new = [o for o in gc.get_objects() if id(o) not in before]
    print(f"{label}: {(len(new) - 1) / N:.2f} tracked containers per in-flight run")
    kinds = collections.Counter(type(o).__name__ for o in new)
    for kind, n in kinds.most_common():
        if n >= N // 2:
            print(f"  {n / N:5.2f} {kind}")
    if detail:
        contents = collections.Counter(d for d in map(describe, new) if d is not None)
        for what, n in contents.most_common():
            if n >= N // 2:
                print(f"  {n / N:5.2f} {what}")
    del new
    GATE[0].set()
    await asyncio.gather(*runs)
    gc.enable()


def main() -> int:
    detail = "-l" in sys.argv
    rt = Runtime(load_entry_points=False, limits=Limits(max_concurrency=10_000))
    rt.register(
        FunctionDescription("step", "s", gated, {"a": "integer", "b": "integer"}, "integer")
    )
    small = rt.prepare(SMALL, lang="plan")

    def dialectic_run(i: int) -> Awaitable[Any]:  # (the run's own coroutine, no wrapper)
        return small.run_async({"seed": i})

    async def body() -> None:
        await count("dialectic", dialectic_run, detail)
        await count("bare asyncio", bare, detail)

    asyncio.run(body())
    return 0


if __name__ == "__main__":
    sys.exit(main())
