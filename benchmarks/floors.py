"""Floors: what the design itself costs in CPython, to tell a slow part from an impossible target.

dialectic compiles a program into a tree of Python closures (no eval/exec, no bytecode of its
own). Each floor below is the cheapest program a careful engineer could write *in that design*,
with none of dialectic's checks, limits, errors or outcomes, measured side by side with the
peer a target names and with dialectic itself:

- **one-shot** (the expression of ``expression.py``, a new JSON text each time): ``orjson`` +
  one recursive pass that builds a closure per node straight from the JSON, then one call.
  dialectic makes four passes (the size and depth check, typed nodes, the resolver, the
  closures) plus a front end and an outcome; simpleeval parses with CPython's C parser and makes
  one pass;
- **repeated** (the same expression, compiled once): calling that closure tree; dialectic adds
  the run's envelope (State, Outcome, the deadline check), which the rows "a constant" measure
  alone (a program with nothing to evaluate, beside RestrictedPython's ``eval`` of a constant);
- **pipeline** (``pipeline.py``'s filter / map / sort / slice over 10,000 objects): the closure
  tree applied per element (a frame for the arrow's parameter, a closure call per node), against
  the list comprehension;
- **scheduling** (``schedule.py``'s 1,000 concurrent 5-call programs, and its 5 x 20 DAG run 10
  times): bare asyncio (a task per call, each awaiting the tasks it reads) against what any
  runtime of data-flow programs on asyncio must do instead: a future per alias slot that later
  readers await (an alias runs at most once, whoever reads it), and a task per call whose
  coroutine awaits its inputs' slots, maps the implementation's errors and fills its slot; the
  run keeps its tasks (it owns them). No timeouts, call log, limits or outcome.

Rounds alternate; medians are kept; CPU time of this process (``time.process_time``); the
scheduling rows also in wall time (they sleep: the machine's load moves those).
Run: python benchmarks/floors.py [--quick]
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import sys
import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import expression
import orjson
import pipeline
import schedule

from dialectic import FunctionDescription, Limits, Runtime

Fn = Callable[[Any], Any]


# -- one-shot and repeated: a closure per JSON node, nothing else -----------------------------
def closure_of(node: Any) -> Fn:
    """The closure tree of the expression's JSON (only the forms the expression uses)."""
    if type(node) is dict:
        ((key, arg),) = node.items()
        if key == "$template":
            parts = [(p, None) if type(p) is str else ("", closure_of(p)) for p in arg]
            return lambda ctx: "".join(lit if fn is None else str(fn(ctx)) for lit, fn in parts)
        if key == "$get":
            target = closure_of(arg[0])
            keys = tuple(arg[1:])

            def get(ctx: Any) -> Any:
                v = target(ctx)
                for k in keys:
                    v = v[k]
                return v

            return get
        if key == "$ref":
            return lambda ctx: ctx[arg]
        fn = FUNCTIONS[key]
        if type(arg) is list:
            args = [closure_of(a) for a in arg]
            return lambda ctx: fn(*(a(ctx) for a in args))
        one = closure_of(arg)
        return lambda ctx: fn(one(ctx))
    return lambda ctx: node


FUNCTIONS: dict[str, Callable[..., Any]] = {"upper": str.upper, "str": str, "max": max}


def one_shot_floor(text: str) -> Any:
    return closure_of(orjson.loads(text))(expression.CONTEXT)


# -- pipeline: the same closure shape per element ---------------------------------------------
FRAME: ContextVar[tuple[Any, ...]] = ContextVar("floor_frame", default=())


def pipeline_floor(flights: list[dict[str, Any]]) -> Any:
    """filter / map / sort-by-key / slice as closures reading the arrow's parameter from a
    context variable, one frame per application (what concurrent applications need)."""

    def param(ctx: Any) -> Any:
        return FRAME.get()[-1]

    def airline(ctx: Any) -> Any:
        return param(ctx)["airline"]

    def is_united(ctx: Any) -> Any:
        return airline(ctx) == "United"

    def price(ctx: Any) -> Any:
        return param(ctx)["price_usd"]

    def total(ctx: Any) -> Any:
        return price(ctx) * 2

    def merged(ctx: Any) -> Any:
        return {**param(ctx), "total": total(ctx)}

    def key(ctx: Any) -> Any:
        return param(ctx)["total"]

    def apply(body: Fn, x: Any) -> Any:
        token = FRAME.set((x,))
        try:
            return body(None)
        finally:
            FRAME.reset(token)

    kept = [f for f in flights if apply(is_united, f)]
    rows = [apply(merged, f) for f in kept]
    keys = [apply(key, r) for r in rows]
    order = sorted(range(len(rows)), key=keys.__getitem__)
    return [rows[i] for i in order][:5]


# -- scheduling: a future per alias slot, a task per call ------------------------------------
async def _node(slot: asyncio.Future[int], a: Any, b: Any) -> None:
    """One call of a data-flow runtime, as its own task: the arguments that are aliases awaited
    on their slots, the call with the implementation's errors mapped, its alias's slot filled
    (readers await the slot: an alias runs at most once, however many read it)."""
    if type(a) is not int:
        a = await a
    if type(b) is not int:
        b = await b
    try:
        value = await schedule.step(a, b)
    except Exception as exc:  # where a runtime maps the implementation's errors
        slot.set_exception(RuntimeError(str(exc)))
        return
    slot.set_result(value)


async def _root(a: Any, b: Any) -> int:
    """The program's last call, awaited by the run itself (no task, no slot of its own)."""
    a, b = await a, await b
    try:
        return await schedule.step(a, b)
    except Exception as exc:
        raise RuntimeError(str(exc)) from None


async def small_floor(seed: int) -> int:
    """schedule.py's 5-call program: a future per alias (4), a task per call but the last
    (4; the run owns them: it keeps them in a list)."""
    loop = asyncio.get_running_loop()
    a, b, c, d = (loop.create_future() for _ in range(4))
    Task = asyncio.Task
    tasks = [
        Task(_node(a, seed, 1), loop=loop),
        Task(_node(b, seed, 2), loop=loop),
        Task(_node(c, a, b), loop=loop),
        Task(_node(d, b, a), loop=loop),
    ]
    value = await _root(c, d)
    del tasks
    return value


async def dag_floor() -> list[int]:
    """schedule.py's DAG (5 layers x 20 calls): a future per alias, a task per call."""
    loop = asyncio.get_running_loop()
    width = schedule.WIDTH
    Task = asyncio.Task
    layer = [loop.create_future() for _ in range(width)]
    tasks = [Task(_node(layer[j], j, 1), loop=loop) for j in range(width)]
    for _ in range(1, schedule.LAYERS):
        prev, layer = layer, [loop.create_future() for _ in range(width)]
        tasks += [
            Task(_node(layer[j], prev[j], prev[(j + 1) % width]), loop=loop) for j in range(width)
        ]
    values = [await slot for slot in layer]
    del tasks
    return values


async def _many_values(fn: Callable[[int], Any]) -> list[Any]:
    return list(await asyncio.gather(*(fn(i) for i in range(schedule.PROGRAMS))))


def _restricted_constant() -> Callable[[], Any]:
    """RestrictedPython's ``eval`` of the constant ``'x'`` (with its safe globals)."""
    try:
        from RestrictedPython.compile import compile_restricted_eval
        from RestrictedPython.Guards import safe_globals
    except ImportError:  # (the ``bench`` extra installs it)
        return lambda: "x"
    code = compile_restricted_eval("'x'").code
    assert code is not None
    scope = dict(safe_globals)
    return lambda: eval(code, scope, expression.CONTEXT)  # (as expression.py's eval)


def _scheduled(fn: Callable[[], Any], clock: Callable[[], float]) -> Callable[[], float]:
    """Milliseconds of ``await fn()`` on a new event loop, by ``clock`` (CPU or wall)."""

    async def timed() -> float:
        start = clock()
        await fn()
        return (clock() - start) * 1e3

    return lambda: asyncio.run(timed())


def _many(fn: Callable[[int], Any]) -> Callable[[], Any]:
    """schedule.py's 1,000 programs at once."""
    return lambda: asyncio.gather(*(fn(i) for i in range(schedule.PROGRAMS)))


def _dags(fn: Callable[[], Any]) -> Callable[[], Any]:
    """schedule.py's DAG, 10 times one after the other."""

    async def ten() -> None:
        for _ in range(10):
            await fn()

    return ten


def scheduling_measures(rt: Runtime, small: Any) -> dict[str, Callable[[], float]]:
    """Bare asyncio, the floor and dialectic, in CPU time and in wall time."""
    if asyncio.run(_many_values(small_floor)) != asyncio.run(_many_values(schedule.small_bare)):
        raise SystemExit("the scheduling floor is wrong")
    dag = rt.prepare(schedule.dag_program())
    if asyncio.run(dag_floor()) != asyncio.run(schedule.dag_bare()):
        raise SystemExit("the DAG floor is wrong")

    async def dialectic_small(i: int) -> Any:
        return (await small.run_async({"seed": i})).value

    async def dialectic_dag() -> Any:
        return (await dag.run_async()).value

    out: dict[str, Callable[[], float]] = {}
    workloads = (
        ("1,000 programs", _many(schedule.small_bare), _many(small_floor), _many(dialectic_small)),
        ("DAG x 10", _dags(schedule.dag_bare), _dags(dag_floor), _dags(dialectic_dag)),
    )
    for name, bare, floor, mine in workloads:
        for clock, label in ((time.process_time, "CPU"), (time.perf_counter, "wall")):
            out[f"{name}, {label}: bare asyncio"] = _scheduled(bare, clock)
            out[f"{name}, {label}: floor"] = _scheduled(floor, clock)
            out[f"{name}, {label}: dialectic"] = _scheduled(mine, clock)
    return out


def main() -> int:
    quick = "--quick" in sys.argv
    rounds = 3 if quick else 9
    rt = Runtime(load_entry_points=False, limits=Limits(max_concurrency=10_000))
    rt.register(
        FunctionDescription(
            "step", "combine", schedule.step, {"a": "integer", "b": "integer"}, "integer"
        )
    )
    source = orjson.dumps(expression.tree(12345)).decode().replace("12345", "@N@")
    engines = {e.name: e for e in expression.engines()}
    counter = [2000]

    def new_text(src: str) -> tuple[int, str]:
        counter[0] += 1
        return counter[0], expression.text_of(src, counter[0])

    def per_program(fn: Callable[[str], Any], src: str, n: int = 300) -> float:
        texts = [new_text(src) for _ in range(n)]
        start = time.process_time()
        for _, text in texts:
            fn(text)
        elapsed = (time.process_time() - start) / n * 1e6
        for literal, text in texts[:3]:
            if fn(text) != expression.expected(literal):
                raise SystemExit(f"wrong one-shot result for {text}")
        return elapsed

    prepared = rt.prepare(expression.tree(expression.LITERAL))
    closures = closure_of(expression.tree(expression.LITERAL))
    if closures(expression.CONTEXT) != expression.expected(expression.LITERAL):
        raise SystemExit("the closure floor is wrong")

    def per_run(fn: Callable[[], Any], n: int = 20_000) -> float:
        start = time.process_time()
        for _ in range(n):
            fn()
        return (time.process_time() - start) / n * 1e6

    piped = rt.prepare(pipeline.PROGRAM)
    context = {"flights": pipeline.FLIGHTS}
    if pipeline_floor(pipeline.FLIGHTS) != pipeline.python(pipeline.FLIGHTS):
        raise SystemExit("the pipeline floor is wrong")

    def per_element(fn: Callable[[], Any]) -> float:
        best = float("inf")
        for _ in range(3):  # the best of three: one run is short enough for a collection to
            gc.collect()  # land in it, whose cost grows with the rest of this process's heap
            start = time.process_time()
            fn()
            best = min(best, time.process_time() - start)
        return best / pipeline.N * 1e9

    small = rt.prepare(schedule.SMALL, lang="plan")
    constant = rt.prepare("return 'x';", lang="plan")
    constant_eval = _restricted_constant()
    if constant.run(expression.CONTEXT).value != "x" or constant_eval() != "x":
        raise SystemExit("the constant programs are wrong")

    measures: dict[str, Callable[[], float]] = {
        "one-shot: simpleeval": lambda: per_program(
            engines["simpleeval"].one_shot, expression.SIMPLE
        ),
        "one-shot: closure floor": lambda: per_program(one_shot_floor, source),
        "one-shot: dialectic (JSON)": lambda: per_program(
            lambda t: rt.prepare(t, lang="json").run(expression.CONTEXT).value, source
        ),
        "repeated: RestrictedPython": lambda: per_run(engines["RestrictedPython"].repeated),
        "repeated: closure floor": lambda: per_run(lambda: closures(expression.CONTEXT)),
        "repeated: dialectic (JSON)": lambda: per_run(
            lambda: prepared.run(expression.CONTEXT).value
        ),
        # a program with nothing to evaluate: what a run costs beyond its closures (dialectic's
        # envelope) and what `eval` costs beyond the bytecode (RestrictedPython's)
        "repeated: RestrictedPython, a constant": lambda: per_run(constant_eval),
        "repeated: dialectic, a constant (the envelope)": lambda: per_run(
            lambda: constant.run(expression.CONTEXT).value
        ),
        "pipeline: comprehension": lambda: per_element(lambda: pipeline.python(pipeline.FLIGHTS)),
        "pipeline: closure floor": lambda: per_element(lambda: pipeline_floor(pipeline.FLIGHTS)),
        "pipeline: dialectic": lambda: per_element(lambda: piped.run(context).value),
    }
    measures.update(scheduling_measures(rt, small))
    for peer in ("one-shot: simpleeval", "repeated: RestrictedPython"):
        if peer.split(": ")[1] not in engines:  # not installed (the ``bench`` extra has it)
            del measures[peer]
            measures.pop(peer + ", a constant", None)
    for fn in measures.values():  # warm up
        fn()
    times: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(rounds):
        for name, fn in measures.items():
            times[name].append(fn())
    units = {"one-shot": "µs", "repeated": "µs", "pipeline": "ns/elt"}
    width = max(len(n) for n in measures)
    print(f"{'measure':<{width}} {'median':>10}  unit     x first of its group")
    base = 0.0
    for name, ts in times.items():
        group = name.split(":")[0]
        med = statistics.median(ts)
        if name == next(n for n in measures if n.startswith(group + ":")):
            base = med
        print(f"{name:<{width}} {med:>10.2f}  {units.get(group, 'ms'):<8} {med / base:>5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
