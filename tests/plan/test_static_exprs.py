"""Static call graphs with synchronous expressions over their calls (dialectic.compiler.
dagexprs): operator, template, member and array arguments (``step(c, d + 1)``), the aliases
``await Promise.all`` destructures into, and results that are objects or arrays of more than
aliases (``{name: u.name, n: o.length, seed}``). Each program runs both ways (the graph, and the
lazy way with ``STATIC_DAGS`` off) and the outcomes must agree: value, failure and message,
ambiguities and their order, partial result, the call log; the happy paths also against Node."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from dialectic import Outcome
from dialectic.compiler import dagplan
from dialectic.run.dagrun import DagRun
from tests.core.test_static_graph import calls_made, runtime, summary
from tests.expressions.program_oracle import runs_as_in_node
from tests.expressions.program_oracle import runtime as oracle_runtime


def is_graph(prepared: Any) -> bool:
    return isinstance(getattr(prepared.root.aio, "__self__", None), DagRun)


def run_both(
    program: Any, context: dict[str, Any] | None = None, graph: bool = True, **limits: Any
) -> tuple[dict[str, Any], dict[str, Any], list[Any]]:
    """The program's outcome with static graphs on and off (``graph``: whether it runs as one
    when they are on), and the calls made the first way."""
    outs: list[dict[str, Any]] = []
    made: list[Any] = []
    for static in (True, False):
        dagplan.STATIC_DAGS = static
        try:
            prepared = runtime(**limits).prepare(
                program, lang="plan" if isinstance(program, str) else None
            )
            assert not prepared.errors, prepared.errors
            assert is_graph(prepared) is (static and graph), program
            calls_made.clear()

            async def main(prepared: Any = prepared) -> Outcome:
                out = await prepared.run_async(context)
                assert asyncio.all_tasks() == {asyncio.current_task()}  # (none left)
                return out  # type: ignore[no-any-return]

            outs.append(summary(asyncio.run(main())))
            if static:
                made = sorted(calls_made, key=repr)
        finally:
            dagplan.STATIC_DAGS = True
    return outs[0], outs[1], made


ARGUMENTS = {
    "an operator on an alias": "a = step(seed, 1); b = step(seed, 2); return step(a, b + 1);",
    "a template of a member": "u = user(seed); return slow(`u-${u.name}`, 0);",
    "members and operators": "u = user(seed); return step(u.items[0] * 2, u.data.n);",
    "an operator of two aliases": (
        "a = step(seed, 1); b = step(seed, 2); return step(a + b, b - a);"
    ),
    "parts that read fewer calls": (
        "a = step(seed, 1); b = step(seed, 2); return step(a * 2 + b, 1);"
    ),
    "a text made with +": "u = user(seed); return slow(u.name + '-' + u.id, 0);",
    "an object argument": "u = user(seed); return slow({id: u.id, n: u.data.n, k: 'x'}, 0);",
    "an array argument": "u = user(seed); v = user(u.id); return slow([u.id, v.name, seed], 0);",
    "a nested call in an expression": "return step(step(seed, 1) + 1, 2);",
    "a member of a nested call": "u = user(2); return step(slow(u, 0).id, u.data.n);",
    "a computed key": "u = user(seed); i = step(seed, 0); return slow(u.items[i - 3], 0);",
    "an alias that is an expression": "u = user(seed); n = u.data.n * 10; return step(n, n + 1);",
    "a chain of expression aliases": (
        "u = user(seed); a = u.items; b = a[1]; c = `${b}!`; return slow(c, 0);"
    ),
    "objects and arrays of literals and context values": (
        "a = slow({k: 1, s: seed}, 0); return slow([a.k, {n: [2, seed]}], 0);"
    ),
    "a member missing": "u = user(7); return step(u.nope.x, 1);",
    "a member missing while another call runs": (
        "u = user(7); b = slow(2, 30); return step(u.nope.x + 1, b);"
    ),
    "a member missing, then a failure": (
        "u = user(7); b = boom('later', 0.05); return step(b, u.nope.x + 1);"
    ),
    "a failure, then a member missing": (
        "u = user(7); v = slow(u, 0.05); b = boom('first', 0.01); return step(b, v.nope.x);"
    ),
    "a failed call in an expression": (
        "a = boom('broke', 0.01); b = slow(1, 30); return step(a + 1, b);"
    ),
    "an ambiguous alias in an expression": (
        "a = pick('city'); b = slow(2, 0); return step(a.length + 1, b);"
    ),
    "ambiguities in the order written": (
        "a = pick('city'); b = pick('date'); return slow(`${b}-${a}`, 0);"
    ),
    "ambiguities of parts in the order written": (
        "a = pick('city'); b = pick('date'); return step(b.length * 2 + a.length, 1);"
    ),
    "an ambiguity and a member missing": (
        "a = pick('city'); u = user(1); return step(a.length, u.nope.x);"
    ),
    "an infinity for an any parameter": "u = user(1); return slow(u.big * 2, 0);",
    "an infinity in an object argument": "u = user(1); return slow({b: u.big}, 0);",
    "a text that cannot be an integer": "u = user(1); return step(`${u.name}`, 1);",
    "a refused operator": "u = user(1); return slow(u.data + 1, 0);",
    "a call's own timeout": "a = hang(1); return step(a + 1, 2);",
    "a failed run keeps the aliases that completed": (
        "a = slow(1, 0); n = a + 1; b = boom('broke', 0.05); return step(n, b);"
    ),
}


@pytest.mark.parametrize("name", list(ARGUMENTS))
def test_arguments_agree(name: str) -> None:
    static, lazy, _ = run_both(ARGUMENTS[name], {"seed": 3})
    assert static == lazy


PROMISE_ALL = {
    "two calls": (
        "const [a, b] = await Promise.all([step(seed, 1), step(seed, 2)]); return step(a, b);"
    ),
    "then a chain": (
        "const [a, b] = await Promise.all([step(seed, 1), step(seed, 2)]);"
        " const c = await step(a, b); const d = await step(b, a); return step(c, d);"
    ),
    "members of what they give": (
        "const [u, v] = await Promise.all([user(1), user(2)]); return step(u.id, v.data.n);"
    ),
    "awaits one by one": (
        "const a = await step(seed, 1); const b = await step(a, 2); return {a, b};"
    ),
    "one fails": (
        "const [a, b] = await Promise.all([boom('x', 0.01), slow(1, 30)]); return step(a, b);"
    ),
    "one fails after the other is done": (
        "const [a, b] = await Promise.all([slow(1, 0), boom('x', 0.05)]); return step(a, b);"
    ),
    "both ambiguous": (
        "const [a, b] = await Promise.all([pick('city'), pick('date')]); return slow([b, a], 0);"
    ),
}


@pytest.mark.parametrize("name", list(PROMISE_ALL))
def test_promise_all_agrees(name: str) -> None:
    static, lazy, _ = run_both(PROMISE_ALL[name], {"seed": 3})
    assert static == lazy


RESULTS = {
    "aliases and a context value": "u = user(seed); o = user(u.id); return {u, o, seed};",
    "members of aliases": (
        "u = user(seed); o = user(u.id); return {name: u.name, n: o.items.length, seed};"
    ),
    "an array with literals": "a = slow(1, 0); return [a, 1, 'x', seed];",
    "an expression": "u = user(1); return u.data.n + 1;",
    "a template": "u = user(1); a = step(seed, 1); return `${u.name}: ${a}`;",
    "a member missing while another call runs": (
        "u = user(seed); b = slow(2, 30); return {x: u.nope.y, b};"
    ),
    "ambiguities in the order written": (
        "a = pick('city'); b = pick('date'); return {d: b.length, c: a};"
    ),
    "an infinity": "u = user(1); return {b: u.big, n: u.id};",
    "a failure keeps the aliases that completed": (
        "a = slow(1, 0); b = boom('broke', 0.05); return {n: a + 1, b};"
    ),
}


@pytest.mark.parametrize("name", list(RESULTS))
def test_results_agree(name: str) -> None:
    static, lazy, _ = run_both(RESULTS[name], {"seed": 3})
    assert static == lazy


def test_the_cases_show_what_they_say() -> None:
    static, _, _ = run_both(ARGUMENTS["an operator on an alias"], {"seed": 3})
    a, b = (3 * 31 + 1) % 1_000_003, (3 * 31 + 2) % 1_000_003
    assert static["value"] == (a * 31 + b + 1) % 1_000_003
    static, _, _ = run_both(ARGUMENTS["a member missing while another call runs"])
    assert static["status"] == "failure" and "nope" in static["message"]
    assert {c[0]: c[2] for c in static["calls"]}["slow"] != "done"  # (stopped at once)
    static, _, _ = run_both(ARGUMENTS["a failure, then a member missing"])
    assert "first" in static["message"]
    static, _, _ = run_both(ARGUMENTS["ambiguities in the order written"])
    assert static["status"] == "ambiguous"
    assert static["message"].index("Which date?") < static["message"].index("Which city?")
    static, _, _ = run_both(ARGUMENTS["ambiguities of parts in the order written"])
    assert static["message"].index("Which date?") < static["message"].index("Which city?")
    static, _, _ = run_both(ARGUMENTS["an infinity for an any parameter"])
    assert static["status"] == "failure" and "Infinity" in static["message"]
    static, _, _ = run_both(ARGUMENTS["a failed run keeps the aliases that completed"])
    assert static["partial"] == {"a": 1, "n": 2}
    static, _, _ = run_both(ARGUMENTS["a call's own timeout"])
    assert static["error"]["code"] == "timeout"
    static, _, _ = run_both(PROMISE_ALL["one fails after the other is done"])
    assert static["status"] == "failure" and "x" in static["message"]
    static, _, _ = run_both(RESULTS["members of aliases"], {"seed": 3})
    assert static["value"] == {"name": "u3", "n": 2, "seed": 3}
    static, _, _ = run_both(RESULTS["an infinity"])
    assert static["status"] == "failure" and "Infinity" in static["message"]
    static, _, _ = run_both(RESULTS["ambiguities in the order written"])
    assert static["message"].index("Which date?") < static["message"].index("Which city?")


CHAINS = {
    "a chain of awaits": (
        "const a = await slow(seed, 0); const b = await step(a, 2); const c = await step(b, 3);"
        " return {a, c};"
    ),
    "a failure keeps the chain's aliases that completed": (
        "const a = await slow(1, 0); const b = await slow(a + 1, 0); const c = await step(b, 1);"
        " const d = await boom(`${c}`, 0.02); return {a, d};"
    ),
    "a call in its reader's task times out": (
        "const a = await hang(seed); const b = await slow(a, 0); return {b};"
    ),
    "a failure elsewhere stops a call in its reader's task": (
        "const a = await slow(1, 30); const b = await slow(a, 0); const c = await boom('x', 0.01);"
        " return {b, c};"
    ),
    "an ambiguity in a chain": (
        "const a = await pick('city'); const b = await slow(a, 0); const c = await pick('date');"
        " return [b, c];"
    ),
}


@pytest.mark.parametrize("name", list(CHAINS))
def test_chains_agree(name: str) -> None:
    static, lazy, _ = run_both(CHAINS[name], {"seed": 3})
    assert static == lazy


def test_a_chain_of_awaits_runs_in_one_task() -> None:
    prepared = runtime().prepare(CHAINS["a chain of awaits"], lang="plan")
    dag = prepared.root.aio.__self__  # type: ignore[union-attr]
    # `a` is read twice (a task); `b` runs in `c`'s task
    assert type(dag) is DagRun and len(dag.calls) == 2 and dag.n_inline == 1
    static, _, _ = run_both(CHAINS["a failure keeps the chain's aliases that completed"])
    assert static["partial"] == {"a": 1, "b": 2, "c": 63}
    static, _, _ = run_both(CHAINS["a call in its reader's task times out"], {"seed": 3})
    assert static["error"]["code"] == "timeout"
    static, _, _ = run_both(CHAINS["a failure elsewhere stops a call in its reader's task"])
    statuses = [(c[1], c[2]) for c in static["calls"]]
    assert statuses == [
        ("program.$let.c", "failed"),  # boom
        ("program.$let.a", "in_flight"),  # stopped in `b`'s task
        ("program.$let.b", "not_started"),
    ]


def test_a_call_in_its_reader_s_task_counts_for_the_limiters() -> None:
    """A run that a concurrency limiter watches takes the lazy way: the graph checks the
    limiters of every function it calls, those run in their readers' tasks too."""
    program = "const a = await slow(seed, 0); const b = await text(a); return {a, c: step(b, 3)};"
    dag = runtime().prepare(program, lang="plan").root.aio.__self__  # type: ignore[union-attr]
    # (`text` runs in `step`'s task, and `step` in the run's own: the result reads it alone)
    assert type(dag) is DagRun and dag.n_inline == 2
    assert len(dag.shared) == 3  # slow, text, step
    static, lazy, _ = run_both(program, {"seed": 3}, max_concurrency=1)
    assert static == lazy and static["value"] == {"a": 3, "c": 96}


def test_the_deadline_stops_an_expression_s_graph() -> None:
    program = "a = slow(1, 30); b = slow(2, 30); return step(a + b, b * 2);"
    static, lazy, _ = run_both(program, deadline=0.1)
    assert static == lazy
    assert static["status"] == "failure" and "deadline" in static["message"]


def test_what_decides_whether_something_runs_keeps_the_lazy_way() -> None:
    for program in (
        "a = step(seed, 1); b = step(seed, 2); return step(a ?? b, 1);",
        "a = step(seed, 1); b = step(seed, 2); return step(a > 3 ? a : b, 1);",
        "a = step(seed, 1); b = step(seed, 2); return step(a && b, 1);",
        "u = user(seed); return step(u?.id, 1);",
        "u = user(seed); return slow(u.items.map(x => x + 1), 0);",
        # a part that reads no call and can fail: the lazy way evaluates it first
        "a = step(seed, 1); return step(a, seed.nope.x);",
        "a = step(seed, 1); return step(a, `${seed}` + 1);",
        # a + chain whose inner + reads fewer calls (compiled as one closure): the lazy way
        "a = step(seed, 1); b = step(seed, 2); return slow((a + 1) + b, 0);",
    ):
        static, lazy, _ = run_both(program, {"seed": 3}, graph=False)
        assert static == lazy, program


def test_the_happy_paths_give_node_s_answers() -> None:
    rt = oracle_runtime()
    texts = [
        "const a = await later(n); const b = await later(a + 1); return later(`${a}-${b}`);",
        "const [a, b] = await Promise.all([later(n), later(s)]); return later([b, a * 2]);",
        "const p = await later(people); const q = await later(p[1].name);"
        " return {who: q, age: p[0].age * 2, n};",
        "const d = await later(data); return later(d.c[2] + d.a);",
        "const a = await later(nums); const b = await later(words); return [a[4], b[0], n];",
        "const a = await later(n); const b = await later(3); return later(a % b + a / b);",
    ]
    for text in texts:
        prepared = rt.prepare(text, lang="plan")
        assert is_graph(prepared), text
    runs_as_in_node(texts, rt)


def test_a_large_fan_out_runs_the_lazy_way_and_is_compiled_once() -> None:
    """The search for expressions over calls has a budget per program (``MAX_EXPR_NODES``): a
    fan-out of thousands of calls gains nothing from the graph, and its twin would double its
    compile time (the 100k-node fan-out of benchmarks/scale.py took 1.8x the instructions)."""
    from dialectic.compiler.dagexprs import MAX_EXPR_NODES

    n = MAX_EXPR_NODES
    large = "return [" + ", ".join(f"step({i}, 1)" for i in range(n)) + "];"
    prepared = runtime().prepare(large, lang="plan")
    assert not prepared.errors and not is_graph(prepared)
    out = asyncio.run(prepared.run_async({}))
    assert out.status == "success" and out.value == [(i * 31 + 1) % 1_000_003 for i in range(n)]
    small = "return [" + ", ".join(f"step({i}, 1)" for i in range(10)) + "];"
    assert is_graph(runtime().prepare(small, lang="plan"))
