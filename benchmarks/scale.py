"""Prepare time per node at 1k, 10k and 100k nodes: does compiling stay linear?

Three shapes, each prepared from scratch (new program objects, so no cache helps):

- ``fan-out (JSON)``: an array of N/2 independent calls ``{"lookup": i}`` of a registered async
  function (a call and its literal argument are two nodes);
- ``data tree (JSON)``: a 10-wide object tree of depth 3, 4 or 5 whose leaves are integers, every
  fourth a call ``{"double": i}`` (the data an LLM passes around: many literals, a few calls);
- ``fan-out (Plan)``: the same fan-out written as Plan text, ``return [lookup(0), lookup(1),
  ...];`` (the front end's share grows with the text; Plan text is limited to 1 MB).

Node counts are the JSON values of the program (for Plan, of the equivalent JSON). Each size
is prepared ``--rounds`` times, shapes alternating, and the median is kept; µs per node should
stay flat from 1k to 100k. Preparing pauses the garbage collector; the time includes the
collection that resuming it leaves to the next allocation (a cost of preparing, paid later).
Times are CPU time of this process (``time.process_time``: the machine is shared).
Target: a 100k-node fan-out prepared in under 1 s, in JSON and in Plan (each is reported).
Results are checked: the 1k and 10k programs are run and their values compared with the
expected ones.
Run: python benchmarks/scale.py [--quick]
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from dialectic import FunctionDescription, Limits, Runtime

SIZES = (1_000, 10_000, 100_000)
TARGET_SECONDS = 1.0
LIMITS = Limits(
    max_program_bytes=50_000_000,
    max_nodes=10_000_000,
    max_calls=10_000_000,
    max_output_bytes=500_000_000,
    deadline=600.0,
)


async def lookup(id: int) -> int:
    await asyncio.sleep(0)
    return id * 10


def double(x: int) -> int:
    return x * 2


def runtime() -> Runtime:
    rt = Runtime(load_entry_points=False, limits=LIMITS)
    rt.register(
        FunctionDescription("lookup", "look an id up", lookup, {"id": "integer"}, "integer"),
        FunctionDescription("double", "twice x", double, {"x": "integer"}, "integer"),
    )
    return rt


def fanout_json(nodes: int) -> tuple[Any, Any]:
    calls = nodes // 2
    return [{"lookup": i} for i in range(calls)], [i * 10 for i in range(calls)]


def _tree(depth: int, start: list[int]) -> tuple[Any, Any]:
    if depth == 0:
        i = start[0]
        start[0] += 1
        return ({"double": i}, i * 2) if i % 4 == 0 else (i, i)
    program: dict[str, Any] = {}
    value: dict[str, Any] = {}
    for k in range(10):
        program[f"k{k}"], value[f"k{k}"] = _tree(depth - 1, start)
    return program, value


def data_tree(nodes: int) -> tuple[Any, Any]:
    depth = {1_000: 3, 10_000: 4, 100_000: 5}[nodes]
    return _tree(depth, [0])


_nonce = [0]


def fanout_plan(nodes: int) -> tuple[Any, Any]:
    calls = nodes // 2
    _nonce[0] += 1  # a new text every time: prepare's cache of program texts must not help
    text = f"// {_nonce[0]}\nreturn [" + ",\n".join(f"lookup({i})" for i in range(calls)) + "];"
    return text, [i * 10 for i in range(calls)]


SHAPES: dict[str, Callable[[int], tuple[Any, Any]]] = {
    "fan-out (JSON)": fanout_json,
    "data tree (JSON)": data_tree,
    "fan-out (Plan)": fanout_plan,
}


def count_nodes(value: Any) -> int:
    """JSON values in a program: containers and scalars (object keys not counted)."""
    if isinstance(value, dict):
        return 1 + sum(count_nodes(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(count_nodes(v) for v in value)
    return 1


def check(rt: Runtime, shape: str, nodes: int) -> None:
    program, expected = SHAPES[shape](nodes)
    prepared = rt.prepare(program, lang="plan" if isinstance(program, str) else None)
    outcome = prepared.run()
    if outcome.status != "success" or outcome.value != expected:
        raise SystemExit(f"{shape} at {nodes} nodes: wrong result {outcome!r}")


def main() -> int:
    quick = "--quick" in sys.argv
    rounds = 3 if quick else 7
    checker = runtime()  # its cache of program texts keeps what it prepared: not timed
    for shape in SHAPES:  # results are checked, and every code path is warm
        for nodes in SIZES[:2]:
            check(checker, shape, nodes)
    del checker
    gc.collect()
    rt = runtime()
    samples: dict[tuple[str, int], list[float]] = {}
    counts: dict[tuple[str, int], int] = {}
    for nodes in SIZES:
        for r in range(rounds if nodes < 100_000 else max(rounds // 2, 3)):
            for shape, make in SHAPES.items():
                # 1k programs are cheap: prepare several per sample to rise above timer noise
                per = 20 if nodes == 1_000 else 1
                programs = [make(nodes)[0] for _ in range(per)]
                if r == 0:
                    first = programs[0]
                    json_form = fanout_json(nodes)[0] if isinstance(first, str) else first
                    counts[shape, nodes] = count_nodes(json_form)
                start = time.process_time()
                for program in programs:
                    prepared = rt.prepare(
                        program, lang="plan" if isinstance(program, str) else None
                    )
                    # the next allocation runs the collection that resuming the collector
                    # left pending (a cost of preparing, paid by whatever allocates next)
                    after = [prepared]
                    if after[0].errors:
                        raise SystemExit(f"{shape}: {prepared.errors[0]}")
                elapsed = (time.process_time() - start) / per
                del prepared, programs, after
                samples.setdefault((shape, nodes), []).append(elapsed)
    print(f"{'shape':<18} {'nodes':>8} {'prepare (median)':>17} {'µs/node':>8} {'vs 1k':>6}")
    for shape in SHAPES:
        base = None
        for nodes in SIZES:
            secs = statistics.median(samples[shape, nodes])
            n = counts[shape, nodes]
            per_node = secs / n * 1e6
            base = base or per_node
            print(
                f"{shape:<18} {n:>8} {secs * 1e3:>14.1f} ms {per_node:>8.2f} "
                f"{per_node / base:>5.2f}x"
            )
    for shape in ("fan-out (JSON)", "fan-out (Plan)"):
        big = statistics.median(samples[shape, 100_000])
        verdict = "met" if big < TARGET_SECONDS else "NOT met"
        print(
            f"target: a 100k-node {shape} prepared in < {TARGET_SECONDS:.0f} s: {verdict} "
            f"({big:.2f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
