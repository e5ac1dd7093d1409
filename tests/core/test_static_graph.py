"""Static call graphs (dialectic.run.dagrun): a program whose aliases are asynchronous calls of
literals, context values and other such aliases runs as a task per call. Each program here runs
both ways (the graph, and the lazy way with ``STATIC_DAGS`` off) and the outcomes must agree:
value, failure and its message, ambiguities and their order, partial results, and the call log
(which calls were made, with what, and how each ended). Timing is by events, not the clock."""

from __future__ import annotations

import asyncio
from typing import Any

import anyio
import pytest
import sniffio

from dialectic import Ambiguous, Candidate, Failure, FunctionDescription, Limits, Outcome, Runtime
from dialectic.compiler import dagplan
from dialectic.run.dagrun import DagRun
from dialectic.run.journal import MemoryJournal

calls_made: list[tuple[str, Any]] = []
#: the tasks that made calls of ``step`` (held: a dead task's id may be taken again)
step_tasks: set[asyncio.Task[Any] | None] = set()


async def step(a: int, b: int) -> int:
    calls_made.append(("step", (a, b)))
    if sniffio.current_async_library() == "asyncio":
        step_tasks.add(asyncio.current_task())
    await anyio.sleep(0)
    return (a * 31 + b) % 1_000_003


async def slow(x: Any, seconds: float) -> Any:
    calls_made.append(("slow", x))
    await anyio.sleep(seconds)
    return x


async def boom(msg: str, seconds: float) -> Any:
    calls_made.append(("boom", msg))
    await anyio.sleep(seconds)
    raise Failure(msg)


async def pick(name: str) -> str:
    calls_made.append(("pick", name))
    await anyio.sleep(0)
    raise Ambiguous(
        f"Which {name}?",
        [Candidate(f"{name} one", f"{name}1"), Candidate(f"{name} two", f"{name}2")],
    )


async def text(n: int) -> str:
    await anyio.sleep(0)
    return str(n)


async def user(id: int) -> dict[str, Any]:
    calls_made.append(("user", id))
    await anyio.sleep(0)
    return {"id": id, "name": f"u{id}", "data": {"n": id + 1}, "items": [5, 6], "big": 1e308 * 10}


async def hang(x: Any) -> Any:
    await anyio.sleep(3600)
    return x


def runtime(**limits: Any) -> Runtime:
    rt = Runtime(load_entry_points=False, limits=Limits(**limits) if limits else None)
    rt.register(
        FunctionDescription("step", "combine", step, {"a": "integer", "b": "integer"}, "integer"),
        FunctionDescription("slow", "x, later", slow, {"x": "any", "seconds": "number"}, "any"),
        FunctionDescription("boom", "fails later", boom, {"msg": "string", "seconds": "number"}),
        FunctionDescription("pick", "asks", pick, {"name": "string"}, "string"),
        FunctionDescription("text", "a number's text", text, {"n": "integer"}, "string"),
        FunctionDescription("hang", "never ends", hang, {"x": "any"}, "any", timeout=0.05),
        FunctionDescription("user", "a user", user, {"id": "integer"}, "object"),
    )
    return rt


def summary(out: Outcome) -> dict[str, Any]:
    """The outcome as JSON, with the call log's timings left out (and its order: calls that
    start together may be logged in either order)."""
    got = out.to_json(calls=True)
    log = got.pop("calls", [])
    got["calls"] = sorted(
        (c["function"], c["path"], c["status"], repr(c.get("arguments"))) for c in log
    )
    return got


def run_both(
    program: Any, context: dict[str, Any] | None = None, **limits: Any
) -> tuple[dict[str, Any], dict[str, Any], list[Any]]:
    """The program's outcome as a static graph and the lazy way (it must qualify), and the
    calls the graph's run made."""
    outs: list[dict[str, Any]] = []
    made: list[Any] = []
    for static in (True, False):
        dagplan.STATIC_DAGS = static
        try:
            rt = runtime(**limits)
            prepared = rt.prepare(program, lang="plan" if isinstance(program, str) else None)
            assert not prepared.errors, prepared.errors
            assert prepared.root is not None
            assert isinstance(getattr(prepared.root.aio, "__self__", None), DagRun) is static
            calls_made.clear()

            async def main(prepared: Any = prepared) -> Outcome:
                out = await prepared.run_async(context)
                # the run owns its tasks: none of them is left once it returns
                assert asyncio.all_tasks() == {asyncio.current_task()}
                return out  # type: ignore[no-any-return]

            outs.append(summary(asyncio.run(main())))
            if static:
                made = sorted(calls_made, key=repr)
        finally:
            dagplan.STATIC_DAGS = True
    return outs[0], outs[1], made


DIAMOND = "a = step(seed, 1); b = step(seed, 2); c = step(a, b); d = step(b, a); return step(c, d);"


def test_a_diamond_gives_the_same_value_and_call_log() -> None:
    static, lazy, made = run_both(DIAMOND, {"seed": 3})
    assert static == lazy
    assert static["status"] == "success"
    a, b = (3 * 31 + 1) % 1_000_003, (3 * 31 + 2) % 1_000_003
    c, d = (a * 31 + b) % 1_000_003, (b * 31 + a) % 1_000_003
    assert static["value"] == (c * 31 + d) % 1_000_003
    assert len(made) == 5 and len(static["calls"]) == 5


PROGRAMS = {
    "a failure stops the calls still running": (
        "a = boom('broke', 0.01); b = slow(1, 30); c = step(a, b); return c;"
    ),
    "the first of two failures is the run's": (
        "a = boom('first', 0.01); b = boom('second', 0.2); return step(a, b);"
    ),
    "ambiguities in program order": "a = pick('city'); b = pick('date'); return step(a, b);",
    "an ambiguity and a failure: the failure": (
        "a = pick('city'); b = boom('broke', 0.01); return step(a, b);"
    ),
    "an ambiguity waits for the other calls": (
        "a = pick('city'); b = slow(2, 0.05); c = step(b, 1); return step(a, c);"
    ),
    "an alias the result does not read is not called": (
        "u = slow(9, 0); a = slow(1, 0); return slow(a, 0);"
    ),
    "a result that is an alias": "a = slow(1, 0); b = slow(a, 0); return b;",
    "an alias read twice is called once": "a = slow(5, 0); return step(a, a);",
    "a failed run keeps the aliases that completed": (
        "a = slow(1, 0); b = boom('broke', 0.05); return step(a, b);"
    ),
    "a text coerced to an integer": "t = text(41); return step(t, 1);",
    "a value that cannot be an integer": "t = slow('abc', 0); return step(t, 1);",
    "a call's own timeout": "a = hang(1); b = slow(2, 30); return step(a, b);",
    "context values and literals": "a = step(seed, 7); return step(a, seed);",
    "nested calls": "a = step(seed, 1); return step(step(a, 2), step(seed, a));",
    "nested calls without aliases": "return step(step(seed, 1), step(2, seed));",
    "a nested call fails": "a = slow(1, 30); return step(a, boom('inner', 0.01));",
    "a nested call done, then a failure": (
        "a = slow(1, 0); return step(step(a, 2), boom('late', 0.05));"
    ),
    "an object of aliases": "a = slow(seed, 0); b = step(seed, 1); return {first: a, b};",
    "an object of aliases, one read twice": "a = slow(1, 0); return {x: a, y: a, 2: a, 1: a};",
    "an object's ambiguities in its order": (
        "a = pick('city'); b = slow(1, 0); c = pick('date'); return {c, b, a};"
    ),
    "an object's alias fails": "a = slow(1, 30); b = boom('broke', 0.01); return {a, b};",
    "an object holding a value that cannot leave the run": (
        "a = user(seed); b = step(seed, 1); return {a, b};"
    ),
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_the_graph_and_the_lazy_way_agree(name: str) -> None:
    static, lazy, _ = run_both(PROGRAMS[name], {"seed": 3})
    assert static == lazy


def test_the_cases_show_what_they_say() -> None:
    static, _, made = run_both(PROGRAMS["a failure stops the calls still running"])
    assert static["status"] == "failure" and "broke" in static["message"]
    statuses = {c[0]: c[2] for c in static["calls"]}
    assert statuses["boom"] == "failed" and statuses["slow"] != "done"
    static, _, _ = run_both(PROGRAMS["the first of two failures is the run's"])
    assert "first" in static["message"]
    static, _, _ = run_both(PROGRAMS["ambiguities in program order"])
    assert static["status"] == "ambiguous"
    assert static["message"].index("Which city?") < static["message"].index("Which date?")
    assert static["suggestions"][0]["replacement"] == ["city1", "date1"]
    static, _, made = run_both(PROGRAMS["an alias the result does not read is not called"])
    assert static["value"] == 1 and ("slow", 9) not in made
    static, _, made = run_both(PROGRAMS["an alias read twice is called once"])
    assert made.count(("slow", 5)) == 1
    static, _, _ = run_both(PROGRAMS["a failed run keeps the aliases that completed"])
    assert static["partial"] == {"a": 1}
    static, _, _ = run_both(PROGRAMS["a text coerced to an integer"])
    assert static["value"] == (41 * 31 + 1) % 1_000_003
    static, _, _ = run_both(PROGRAMS["a call's own timeout"])
    assert static["status"] == "failure" and static["error"]["code"] == "timeout"


def test_an_array_of_aliases_in_dialect_json() -> None:
    program = {
        "$let": {
            "a": {"slow": {"x": 1, "seconds": 0}},
            "b": {"pick": {"name": "city"}},
            "c": {"pick": {"name": "date"}},
        },
        "$return": [{"$ref": "a"}, {"$ref": "b"}, {"$ref": "c"}],
    }
    static, lazy, _ = run_both(program)
    assert static == lazy
    assert static["status"] == "ambiguous"
    ok = {"$let": {"a": {"slow": {"x": 1, "seconds": 0}}}, "$return": [{"$ref": "a"}] * 2}
    static, lazy, _ = run_both(ok)
    assert static == lazy and static["value"] == [1, 1]


def test_an_object_of_aliases_is_the_lazy_way_s_object() -> None:
    static, _, _ = run_both(PROGRAMS["an object of aliases"], {"seed": 3})
    assert static["value"] == {"first": 3, "b": (3 * 31 + 1) % 1_000_003}
    name = "an object holding a value that cannot leave the run"
    static, _, _ = run_both(PROGRAMS[name], {"seed": 3})
    assert static["status"] == "failure" and "Infinity" in static["message"]
    assert static["partial"] == {"b": 94} and static["partial_omitted"] == ["a"]
    static, _, made = run_both(PROGRAMS["an object of aliases, one read twice"])
    assert static["value"] == {"1": 1, "2": 1, "x": 1, "y": 1} and made == [("slow", 1)]
    # (the order written, as the lazy way keeps it: SPEC's table of differences from Node)
    assert list(static["value"]) == ["x", "y", "2", "1"]
    static, _, _ = run_both(PROGRAMS["an object's ambiguities in its order"])
    assert static["status"] == "ambiguous"
    assert static["message"].index("Which date?") < static["message"].index("Which city?")


def test_the_deadline_stops_every_call_and_leaves_no_task() -> None:
    static, lazy, _ = run_both("a = slow(1, 30); b = slow(2, 30); return step(a, b);", deadline=0.1)
    assert static == lazy
    assert static["status"] == "failure" and "deadline" in static["message"]


def test_a_chain_of_ten_thousand_aliases_runs() -> None:
    n = 10_000
    lines = ["a0 = step(seed, 1);"] + [f"a{i} = step(a{i - 1}, {i});" for i in range(1, n)]
    program = "\n".join(lines) + f"\nreturn a{n - 1};"
    rt = runtime(max_calls=n + 1, max_nodes=200_000)
    prepared = rt.prepare(program, lang="plan")
    assert not prepared.errors, prepared.errors
    assert prepared.root is not None and isinstance(prepared.root.aio.__self__, DagRun)  # type: ignore[union-attr]
    out = asyncio.run(prepared.run_async({"seed": 3}))
    v = (3 * 31 + 1) % 1_000_003
    for i in range(1, n):
        v = (v * 31 + i) % 1_000_003
    assert out.status == "success", out.message
    assert out.value == v


def test_observed_runs_and_trio_take_the_lazy_way_with_the_same_answer() -> None:
    rt = runtime()
    prepared = rt.prepare(DIAMOND, lang="plan")
    expected = asyncio.run(prepared.run_async({"seed": 3})).value
    journal = MemoryJournal()
    observed = asyncio.run(prepared.run_async({"seed": 3}, journal=journal))
    assert observed.value == expected
    assert journal.entries  # the journal saw the calls

    async def on_trio() -> Outcome:
        return await prepared.run_async({"seed": 3})

    assert anyio.run(on_trio, backend="trio").value == expected


def test_programs_that_do_not_qualify_run_the_lazy_way() -> None:
    rt = runtime()
    for program in (
        "a = step(seed, 1); b = a > 3 ? step(a, 1) : 0; return b;",  # a condition decides
        "a = step(seed, 1); b = step(seed, 2); return step(a || b, 2);",  # an operator decides
        "a = step(seed, 1); return [a, seed + 1];",  # a part that reads no call (may fail)
        "a = step(seed, 1); return step(step(a, 2) ?? 1, 2);",  # (operators: dagexprs)
    ):
        prepared = rt.prepare(program, lang="plan")
        assert not prepared.errors, (program, prepared.errors)
        assert prepared.root is not None
        assert not isinstance(getattr(prepared.root.aio, "__self__", None), DagRun), program
        assert asyncio.run(prepared.run_async({"seed": 3})).status == "success", program


MEMBERS = {
    "a member of an alias": "u = user(7); return step(u.id, 1);",
    "a nested member": "r = user(3); return step(r.data.n, seed);",
    "an item of an alias": "r = user(1); return step(r.items[1], 1);",
    "a member missing": "u = user(7); return step(u.nope, 1);",
    "a member missing while another call runs": (
        "u = user(7); b = slow(2, 30); return step(u.nope, b);"
    ),
    "a member missing, then a failure": (
        "u = user(7); b = boom('later', 0.05); return step(b, u.nope);"
    ),
    "a member of an ambiguous alias": "p = pick('city'); return slow(p.length, 0);",
    "a member of a failed alias": "u = boom('broke', 0); return step(u.id, 1);",
    "an infinity leaving for an any parameter": "u = user(1); return slow(u.big, 0);",
    "an alias read whole and by member": "u = user(2); return step(slow(u, 0).id, u.data.n);",
    "members of two aliases": "u = user(2); v = user(u.id); return step(u.data.n, v.id);",
}


@pytest.mark.parametrize("name", list(MEMBERS))
def test_member_reads_agree(name: str) -> None:
    static, lazy, _ = run_both(MEMBERS[name], {"seed": 3})
    assert static == lazy


def test_member_reads_run_in_the_graph() -> None:
    static, _, _ = run_both(MEMBERS["a member of an alias"])
    assert static["value"] == (7 * 31 + 1) % 1_000_003
    static, _, _ = run_both(MEMBERS["a member missing while another call runs"])
    assert static["status"] == "failure" and "nope" in static["message"]
    statuses = {c[0]: c[2] for c in static["calls"]}
    assert statuses["slow"] != "done"  # (stopped: the member was missing first)
    static, _, _ = run_both(MEMBERS["an infinity leaving for an any parameter"])
    assert static["status"] == "failure"
    static, _, made = run_both(MEMBERS["members of two aliases"])
    assert static["value"] == (3 * 31 + 2) % 1_000_003 and ("user", 2) in made


def test_each_call_reads_its_arguments_the_cheapest_way() -> None:
    """Calls of aliases only await their tasks in place; calls of literals and context values
    read them at once; the others (a member read, a value checked as it leaves) go through the
    general loop. The answers are the lazy way's (the cases above); here, the paths taken."""
    prepared = runtime().prepare(DIAMOND, lang="plan")
    dag = prepared.root.aio.__self__  # type: ignore[union-attr]
    assert type(dag) is DagRun
    roots = [c for c in dag.calls if c.dag_ready]  # type: ignore[union-attr]
    every = (*dag.calls, dag.pre[0], dag.root)  # type: ignore[index]
    joins = [c for c in every if c.dag_tasks is not None]  # type: ignore[union-attr]
    assert len(roots) == 2 and len(joins) == 3
    # c, read only by the result's call, is made by the run's own task first: three tasks
    assert len(dag.calls) == 3 and dag.root.dag_tasks == (3, 2)  # type: ignore[union-attr]
    assert prepared.memo_size == 0 and dag.memo_size > 0  # (a run makes its memo if it needs one)
    mixed = runtime().prepare("a = step(seed, 1); return step(a, seed);", lang="plan")
    last = mixed.root.aio.__self__.root  # type: ignore[union-attr]
    assert last.dag_tasks is None and not last.dag_ready
    out = asyncio.run(mixed.run_async({"seed": 3}))
    assert out.value == (((3 * 31 + 1) % 1_000_003) * 31 + 3) % 1_000_003


FIRST = {
    "a failure stops the call the run's own task makes": (
        "c = slow(1, 30); d = boom('broke', 0.01); return step(c, d);"
    ),
    "a call's own timeout stops the call the run's own task makes": (
        "c = slow(1, 30); d = hang(2); return step(c, d);"
    ),
    "the call the run's own task makes fails": (
        "c = boom('mine', 0.01); d = slow(2, 30); return step(c, d);"
    ),
    "the call the run's own task makes is ambiguous": (
        "c = pick('city'); d = slow(2, 0.02); return step(c, d);"
    ),
    "both ambiguous, in program order": "c = pick('city'); d = pick('date'); return step(c, d);",
    "the call the run's own task makes reads tasks": (
        "a = slow(1, 0); b = slow(2, 0.01); c = step(a, b); d = step(b, a); return step(c, d);"
    ),
    "it completed, then a failure: its value is kept": (
        "a = slow(1, 0); c = step(a, 2); d = boom('late', 0.05); return step(c, d);"
    ),
    "a member read of it": "u = user(4); d = slow(2, 0); return step(u.id, d);",
}


@pytest.mark.parametrize("name", list(FIRST))
def test_the_call_the_run_s_task_makes_first_agrees(name: str) -> None:
    static, lazy, _ = run_both(FIRST[name], {"seed": 3})
    assert static == lazy


def test_the_call_the_run_s_task_makes_first_is_stopped_and_kept() -> None:
    """The result's call reads a call no other call reads: the run's own task makes it, with no
    task of its own (DagRun.pre), and the graph's first failure stops it as it stops a task."""
    prepared = runtime().prepare(
        FIRST["a failure stops the call the run's own task makes"], lang="plan"
    )
    dag = prepared.root.aio.__self__  # type: ignore[union-attr]
    assert type(dag) is DagRun and dag.pre is not None and len(dag.calls) == 1
    static, _, _ = run_both(FIRST["a failure stops the call the run's own task makes"])
    assert static["status"] == "failure" and "broke" in static["message"]
    statuses = {c[0]: c[2] for c in static["calls"]}
    assert statuses["boom"] == "failed" and statuses["slow"] != "done"
    static, _, _ = run_both(FIRST["a call's own timeout stops the call the run's own task makes"])
    assert static["status"] == "failure" and static["error"]["code"] == "timeout"
    static, _, _ = run_both(FIRST["the call the run's own task makes fails"])
    assert "mine" in static["message"]
    assert {c[0]: c[2] for c in static["calls"]}["slow"] != "done"
    static, _, _ = run_both(FIRST["the call the run's own task makes is ambiguous"])
    assert static["status"] == "ambiguous"
    static, _, _ = run_both(FIRST["both ambiguous, in program order"])
    assert static["message"].index("Which city?") < static["message"].index("Which date?")
    static, _, _ = run_both(FIRST["it completed, then a failure: its value is kept"])
    assert static["partial"] == {"a": 1, "c": 33}


def test_the_caller_s_cancellation_of_the_run_goes_on_up() -> None:
    """A cancellation from outside while the run's own task makes a call of the graph is the
    caller's: it goes on up (nothing takes it back), and no task of the run is left."""
    prepared = runtime().prepare(
        "c = slow(1, 30); d = slow(2, 30); return step(c, d);", lang="plan"
    )
    assert prepared.root is not None and prepared.root.aio.__self__.pre is not None  # type: ignore[union-attr]
    assert _cancelled_by_its_caller(prepared, calls=2)


CHAINS = {
    "a chain of calls, each reading the one before": (
        "a = slow(1, 0); b = step(a, 2); c = step(b, 3); d = slow(5, 0.01); return step(c, d);"
    ),
    "a call in the middle of a chain fails": (
        "a = text(1); b = boom(a, 0.01); c = slow(b, 0); d = step(a, 2); e = slow(3, 30);"
        " return [c, d, e];"
    ),
    "a chain's first call is ambiguous": (
        "a = pick('city'); b = slow(a, 0); c = slow(b, 0); d = pick('date'); return [c, d];"
    ),
    "ambiguities along a chain and beside it, in program order": (
        "a = slow(1, 0); b = pick('city'); c = slow(b, 0); d = pick('date');"
        " e = slow(c, 0); return [e, d, a];"
    ),
    "a chain waits for the other call it reads": (
        "a = slow(1, 0); b = slow(2, 0.05); c = step(a, b); d = step(c, 1); e = step(a, 5);"
        " return [d, e];"
    ),
    "the run's own chain, then the others": (
        "a = slow(1, 0); b = slow(a, 0); c = slow(2, 0); d = slow(c, 0); return [b, d];"
    ),
    "a chain of member reads": (
        "u = user(1); v = user(u.id); w = user(v.data.n); return step(w.id, u.data.n);"
    ),
    "a failure elsewhere stops a chain that waits": (
        "a = slow(1, 0); b = slow(2, 30); c = step(a, b); d = step(c, 1);"
        " e = boom('broke', 0.01); return [d, e];"
    ),
    "a failed run keeps what the chains completed": (
        "a = slow(1, 0); b = slow(a, 0); c = slow(b, 0); e = boom('late', 0.05); return [c, e];"
    ),
    "a timeout in a chain": "a = slow(1, 0); b = hang(a); c = slow(b, 0); return [c, a];",
    "a 4 x 3 grid": (
        "a0 = step(seed, 0); a1 = step(seed, 1); a2 = step(seed, 2);"
        " b0 = step(a0, a1); b1 = step(a1, a2); b2 = step(a2, a0);"
        " c0 = step(b0, b1); c1 = step(b1, b2); c2 = step(b2, b0);"
        " d0 = step(c0, c1); d1 = step(c1, c2); d2 = step(c2, c0); return [d0, d1, d2];"
    ),
}


def _in_tasks(program: str) -> str:
    """``program`` with a call of its own first in the result (which the run's own task then
    makes), so that the chains run in tasks of their own."""
    return "z0 = slow(0, 0); " + program.replace("return [", "return [z0, ")


@pytest.mark.parametrize("name", list(CHAINS))
def test_chains_of_calls_agree(name: str) -> None:
    static, lazy, _ = run_both(CHAINS[name], {"seed": 3})
    assert static == lazy
    if "return [" in CHAINS[name]:
        static, lazy, _ = run_both(_in_tasks(CHAINS[name]), {"seed": 3})
        assert static == lazy


def test_a_chain_of_calls_is_one_task() -> None:
    """A call whose first reader in the graph's order reads no expression in its own task runs
    before that reader in one task (DagRun.starts); the run's own task makes one such chain
    that the result reads first (DagRun.own). What a chain stops, keeps and reports is the
    lazy way's (the cases above); here, the tasks."""
    dag = runtime().prepare(CHAINS["a 4 x 3 grid"], lang="plan").root.aio.__self__  # type: ignore[union-attr]
    assert type(dag) is DagRun
    # a column each: two tasks, and the run's own task makes the third
    assert [chain is not None and len(chain) == 3 for _, chain in dag.starts] == [True, True]
    assert len(dag.own) == 4 and len(dag.futures) == 2 * 3 + 4
    static, lazy, _ = run_both(CHAINS["a 4 x 3 grid"], {"seed": 3})
    assert static == lazy and static["status"] == "success" and len(static["calls"]) == 12
    assert _tasks_making_steps(CHAINS["a 4 x 3 grid"]) == 3
    assert _tasks_making_steps(DIAMOND) == 2  # (b then d; a, c and the result: the run's task)
    static, _, _ = run_both(CHAINS["a call in the middle of a chain fails"])
    assert static["status"] == "failure" and "`boom` failed: 1" in static["message"]
    assert {c[0]: c[2] for c in static["calls"]}["slow"] != "done"
    static, _, made = run_both(CHAINS["a failure elsewhere stops a chain that waits"])
    assert "broke" in static["message"] and not [c for c in made if c[0] == "step"]
    static, _, _ = run_both(CHAINS["a failed run keeps what the chains completed"])
    assert static["partial"] == {"a": 1, "b": 1, "c": 1}
    static, _, _ = run_both(CHAINS["ambiguities along a chain and beside it, in program order"])
    assert static["status"] == "ambiguous"
    assert static["message"].index("Which city?") < static["message"].index("Which date?")
    static, _, _ = run_both(CHAINS["a timeout in a chain"])
    assert static["error"]["code"] == "timeout"
    for name in (
        "a call in the middle of a chain fails",
        "a chain waits for the other call it reads",
    ):
        dag = runtime().prepare(_in_tasks(CHAINS[name]), lang="plan").root.aio.__self__  # type: ignore[union-attr]
        assert len(dag.own) == 1 and any(chain for _, chain in dag.starts)
    static, _, _ = run_both(_in_tasks(CHAINS["a failed run keeps what the chains completed"]))
    assert static["partial"] == {"z0": 0, "a": 1, "b": 1, "c": 1}


def test_the_caller_s_cancellation_stops_every_chain() -> None:
    """The caller cancels the run while its own task and a chain each wait in a call: both
    chains stop, and no task of the run is left."""
    prepared = runtime().prepare(
        "a = slow(1, 0); b = slow(a, 30); c = slow(2, 0); d = slow(c, 30); return [b, d];",
        lang="plan",
    )
    assert prepared.root is not None and prepared.root.aio.__self__.own  # type: ignore[union-attr]
    assert _cancelled_by_its_caller(prepared, calls=4)


def _tasks_making_steps(program: str) -> int:
    """How many tasks make the calls of ``step`` in the graph's run of ``program``."""
    prepared = runtime().prepare(program, lang="plan")
    step_tasks.clear()
    out = asyncio.run(prepared.run_async({"seed": 3}))
    assert out.status == "success", out.message
    return len(step_tasks)


def _cancelled_by_its_caller(prepared: Any, calls: int) -> bool:
    """Whether the run's cancellation by its caller, once ``calls`` calls were made, goes on up
    with no task of the run left."""

    async def main() -> bool:
        run = asyncio.create_task(prepared.run_async())
        while len(calls_made) < calls:
            await asyncio.sleep(0)
        run.cancel()
        try:
            await run
        except asyncio.CancelledError:
            return asyncio.all_tasks() == {asyncio.current_task()}
        return False

    calls_made.clear()
    return asyncio.run(main())
