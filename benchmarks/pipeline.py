"""A data-shaping pipeline over 10,000 objects, per element, side by side (issue: expressions).

    flights.filter(f => f.airline === 'United')
           .map(f => ({...f, total: f.price_usd * 2}))
           .toSorted((a, b) => a.total - b.total)
           .slice(0, 5)

dialectic runs it as a Dialect JSON call tree (the core forms `$method`, `$fn`, `$op`,
`$merge`), prepared once and evaluated with the data as context; the peers are a Python list
comprehension with ``sorted`` (the floor) and QuickJS evaluating the same JavaScript (the data
goes in as JSON, as any host value must). Results are checked equal. Rounds alternate the engines;
each figure is the median, in ns per input element of CPU time (``time.process_time``: other
processes' load on the shared machine does not count).

Target: dialectic within 3x of the list comprehension.
Run: python benchmarks/pipeline.py [--quick]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from dialectic import Runtime

N = 10_000
AIRLINES = ["United", "Delta", "American", "Alaska"]
FLIGHTS = [
    {"airline": AIRLINES[i % 4], "number": i, "price_usd": 100 + (i * 7919) % 900} for i in range(N)
]
TARGET = 3.0


def ref(name: str) -> dict[str, Any]:
    return {"$ref": name}


def get(target: Any, key: str) -> dict[str, Any]:
    return {"$get": [target, key]}


PROGRAM = {
    "$method": [
        {
            "$method": [
                {
                    "$method": [
                        {
                            "$method": [
                                ref("flights"),
                                "filter",
                                {
                                    "$fn": [
                                        ["f"],
                                        {"$op": ["===", get(ref("f"), "airline"), "United"]},
                                    ]
                                },
                            ]
                        },
                        "map",
                        {
                            "$fn": [
                                ["f"],
                                {
                                    "$merge": [
                                        ref("f"),
                                        {
                                            "$object": {
                                                "total": {
                                                    "$op": ["*", get(ref("f"), "price_usd"), 2]
                                                }
                                            }
                                        },
                                    ]
                                },
                            ]
                        },
                    ]
                },
                "toSorted",
                {
                    "$fn": [
                        ["a", "b"],
                        {"$op": ["-", get(ref("a"), "total"), get(ref("b"), "total")]},
                    ]
                },
            ]
        },
        "slice",
        0,
        5,
    ]
}

JS = """(function (flights) {
  return flights.filter(f => f.airline === 'United')
                .map(f => ({...f, total: f.price_usd * 2}))
                .slice().sort((a, b) => a.total - b.total)
                .slice(0, 5);
})"""


def python(flights: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = [{**f, "total": f["price_usd"] * 2} for f in flights if f["airline"] == "United"]
    return sorted(rows, key=lambda r: r["total"])[:5]


def engines() -> dict[str, Callable[[], Any]]:
    rt = Runtime(load_entry_points=False)
    prepared = rt.prepare(PROGRAM)
    context = {"flights": FLIGHTS}

    def dialectic_run() -> Any:
        out = prepared.run(context)
        if out.status != "success":
            raise SystemExit(f"dialectic failed: {out.message}")
        return out.value

    found: dict[str, Callable[[], Any]] = {
        "dialectic (prepared)": dialectic_run,
        "python comprehension": lambda: python(FLIGHTS),
    }
    try:
        import quickjs  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return found
    ctx = quickjs.Context()
    ctx.eval(f"var pipeline = {JS};")
    text = json.dumps(FLIGHTS)

    def quickjs_run() -> Any:
        return json.loads(ctx.eval(f"JSON.stringify(pipeline(JSON.parse({json.dumps(text)})))"))

    found["quickjs (data as JSON)"] = quickjs_run
    return found


def main() -> int:
    quick = "--quick" in sys.argv
    rounds = 3 if quick else 9
    runs = engines()
    expected = python(FLIGHTS)
    for name, run in runs.items():
        if run() != expected:
            raise SystemExit(f"{name} gave a different result")
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.process_time()
            run()
            times[name].append((time.process_time() - start) / N * 1e9)
    floor = statistics.median(times["python comprehension"])
    print(f"\npipeline over {N} objects: ns per element (median of {rounds} rounds)")
    print(f"{'engine':28} {'ns/element':>12} {'x comprehension':>16}")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"{name:28} {med:12.0f} {med / floor:16.2f}")
    ratio = statistics.median(times["dialectic (prepared)"]) / floor
    verdict = "met" if ratio <= TARGET else "NOT met"
    print(f"target: dialectic within {TARGET}x of the comprehension: {verdict} ({ratio:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
