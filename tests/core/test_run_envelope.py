"""The cost of running a prepared program, and what the cheaper paths must keep.

- a synchronous program's fast path sets the same State and Outcome fields as the general
  constructors (``new_state``, ``outcome.success``), and the optional parts of a State (call
  log, observers, effects...) stay the class's defaults until a run needs them;
- an alias whose value is a call of ready arguments runs as the fan-out's task itself: read
  twice it is called once, and its value, its failure, its timeout and its ambiguity reach
  every reader as an alias evaluated in a task of its own did; cancelled before it began, its
  call never runs;
- a run's deadline is a timer shared by the runs whose deadlines fall in the same slice of
  time: concurrent runs arm one timer, and a run nested in another's task keeps the outer
  deadline;
- a native fan-out that waited for an alias leaves no reference cycle (the run's state is freed
  without the cyclic collector).
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

import pytest

from dialectic import Ambiguous, Candidate, FunctionDescription, Limits, Runtime
from dialectic.outcome import outcome as outcome_module
from dialectic.run.state import MISSING, State, new_state


def _runtime(**limits: Any) -> Runtime:
    return Runtime(load_entry_points=False, limits=Limits(**limits) if limits else None)


def _slots(obj: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {n: getattr(obj, n) for n in names if n != "__dict__"}


# -- the synchronous fast path ---------------------------------------------------------------
def test_the_fast_path_state_has_what_new_state_sets() -> None:
    rt = _runtime()
    prepared = rt.prepare({"$template": ["Hi ", {"$ref": "user"}]})
    assert prepared.run({"user": "Ada"}).value == "Hi Ada"
    seen: list[State] = []
    sync, *rest = prepared._fast  # type: ignore[misc]

    def spy(state: State) -> Any:
        seen.append(state)
        return sync(state)

    prepared._fast = (spy, *rest)
    context = {"user": "Bo"}
    assert prepared.run(context).value == "Hi Bo"
    (fast,) = seen
    general = new_state(context, prepared.memo_size, rt.limits, prepared._hooks, rt.debug)
    names = State.__slots__
    got, want = _slots(fast, names), _slots(general, names)
    assert abs(got.pop("deadline_at") - want.pop("deadline_at")) < 60
    assert got == want
    assert fast.__dict__ == {}  # nothing optional was needed
    optional: tuple[Any, ...] = (fast.calls, fast.observers, fast.effects, fast.limiter)
    assert optional == ((), None, None, None)


def test_the_fast_path_outcome_is_what_success_builds() -> None:
    rt = _runtime()
    prepared = rt.prepare('return "x" + "y";', lang="plan")
    fast = prepared.run()
    general = outcome_module.success("xy", [], prepared.mode, prepared._data)
    names = outcome_module.Outcome.__slots__
    assert _slots(fast, names) == _slots(general, names)
    assert fast.to_json() == {"status": "success", "value": "xy", "mode": "return"}
    fast.warnings.append("mine")  # each outcome owns its lists
    assert prepared.run().warnings == [] and prepared.run().suggestions == []


def test_an_asynchronous_run_s_inline_success_is_what_success_builds() -> None:
    rt = _runtime()

    async def double(x: int) -> int:
        await asyncio.sleep(0)
        return 2 * x

    rt.register(FunctionDescription("double", "twice x", double, {"x": "integer"}, "integer"))
    prepared = rt.prepare("a = double(x); b = double(a); return b;", lang="plan")
    fast = asyncio.run(prepared.run_async({"x": 3}))
    general = outcome_module.success(12, [], prepared.mode, prepared._data)
    names = tuple(n for n in outcome_module.Outcome.__slots__ if n != "_log")
    assert _slots(fast, names) == _slots(general, names)
    # the call log, as events.ended gives it to a success
    assert [(c["function"], c["status"], c["arguments"]) for c in fast.calls] == [
        ("double", "done", {"x": 3}),
        ("double", "done", {"x": 6}),
    ]
    assert fast.to_json(calls=True)["value"] == 12
    fast.warnings.append("mine")  # each outcome owns its lists
    again = asyncio.run(prepared.run_async({"x": 1}))
    assert (again.value, again.warnings, again.suggestions) == (4, [], [])


def test_a_new_state_has_its_own_lists_and_defaults() -> None:
    limits = Limits()
    a = new_state({}, 2, limits, (lambda v: v, str), False)
    b = new_state({}, 2, limits, (lambda v: v, str), False)
    assert a.memo == [MISSING, MISSING] and a.memo is not b.memo
    # no list of warnings until the run warns; then its own
    assert a.warnings == () and a.warnings is b.warnings
    a.warn("one")
    a.warn("two")
    assert list(a.warnings) == ["one", "two"] and b.warnings == ()
    empty = new_state({}, 0, limits, (lambda v: v, str), False)
    assert empty.memo == [] and empty.ctx._warnings is empty.warnings  # (a function may warn)
    with pytest.raises(AttributeError):  # the call log exists once a run sets it
        a.calls.append(1)
    a.calls = []
    a.calls.append(1)
    assert isinstance(b.calls, tuple) and not b.calls and a.calls == [1]


def test_a_logged_synchronous_call_is_in_the_log() -> None:
    rt = _runtime()

    def double(x: int) -> int:
        return 2 * x

    rt.register(FunctionDescription("double", "d", double, {"x": "integer"}, "integer"))
    prepared = rt.prepare("return double(double(2));", lang="plan")
    for _ in range(2):
        out = prepared.run()
        assert out.value == 8
        assert [c["function"] for c in out.calls] == ["double", "double"]


# -- an alias of a launched call ---------------------------------------------------------------
def _calls_runtime(started: list[str], **limits: Any) -> Runtime:
    rt = _runtime(**limits)

    async def fetch(x: int) -> int:
        started.append(f"fetch {x}")
        await asyncio.sleep(0.01)
        if x < 0:
            raise ValueError("negative")
        return x * 10

    async def slow(x: int) -> int:
        started.append(f"slow {x}")
        await asyncio.sleep(30)
        return x

    async def add(a: int, b: int) -> int:
        await asyncio.sleep(0)
        return a + b

    async def pick(name: str) -> str:
        await asyncio.sleep(0)
        raise Ambiguous(f"which {name}?", [Candidate(f"{name} one", {"pick": {"name": "1"}})])

    def boom(x: int) -> int:
        raise ValueError("boom")

    rt.register(
        FunctionDescription("fetch", "f", fetch, {"x": "integer"}, "integer"),
        FunctionDescription("slow", "s", slow, {"x": "integer"}, "integer"),
        FunctionDescription("add", "a", add, {"a": "integer", "b": "integer"}, "integer"),
        FunctionDescription("pick", "p", pick, {"name": "string"}, "string"),
        FunctionDescription("boom", "b", boom, {"x": "integer"}, "integer"),
    )
    return rt


def test_an_alias_of_a_ready_call_is_called_once_for_every_reader() -> None:
    started: list[str] = []
    rt = _calls_runtime(started)
    program = "a = fetch(1);\nb = fetch(2);\nc = add(a, b);\nd = add(b, a);\nreturn add(c, d);"
    out = rt.run(program, lang="plan")
    assert (out.status, out.value) == ("success", 60)
    assert sorted(started) == ["fetch 1", "fetch 2"]
    assert [c["status"] for c in out.calls] == ["done"] * 5


def test_a_failed_alias_reaches_each_reader_with_one_error() -> None:
    started: list[str] = []
    rt = _calls_runtime(started)
    program = "a = fetch(-1);\nc = add(a, 1);\nd = add(1, a);\nreturn [c, d];"
    out = rt.run(program, lang="plan")
    assert out.status == "failure" and out.error is not None
    assert "negative" in out.error.message
    assert started == ["fetch -1"]
    calls = [(c["function"], c["status"]) for c in out.calls]
    assert calls == [("fetch", "failed"), ("add", "not_started"), ("add", "not_started")]


def test_an_alias_past_its_call_timeout_reports_the_timeout() -> None:
    started: list[str] = []
    rt = _calls_runtime(started, call_timeout=0.05)
    out = rt.run("a = slow(1);\nreturn [add(a, 1), add(a, 2)];", lang="plan")
    assert out.status == "failure" and out.error is not None
    assert out.error.details.get("limit") == "call_timeout"
    assert started == ["slow 1"]
    calls = [(c["function"], c["status"]) for c in out.calls]
    assert calls == [("slow", "in_flight"), ("add", "not_started"), ("add", "not_started")]


def test_an_ambiguous_alias_is_reported_once_for_two_readers() -> None:
    rt = _calls_runtime([])
    out = rt.run('a = pick("x");\nreturn [a, a + "!"];', lang="plan")
    assert out.status == "ambiguous"
    assert (out.message or "").count("which x?") == 1


def test_an_alias_cancelled_before_it_began_never_runs() -> None:
    started: list[str] = []
    rt = _calls_runtime(started)
    # the fan-out launches `a`, then `fetch(boom(1))` fails as it starts: `a` is cancelled
    # before its implementation ran a line
    out = rt.run("a = slow(1);\nreturn [a, fetch(boom(1))];", lang="plan")
    assert out.status == "failure" and out.error is not None
    assert "boom" in out.error.message
    assert started == []


# -- the deadline --------------------------------------------------------------------------------
def test_concurrent_runs_share_their_deadline_timer() -> None:
    rt = _calls_runtime([], deadline=30, call_timeout=5)
    prepared = rt.prepare("return add(fetch(1), 1);", lang="plan")

    async def main() -> tuple[list[Any], int, int]:
        loop = asyncio.get_running_loop()
        before = len(loop._scheduled)  # type: ignore[attr-defined]
        runs = [asyncio.ensure_future(prepared.run_async()) for _ in range(50)]
        await asyncio.sleep(0.005)  # every run is in its first call
        during = [h for h in loop._scheduled if not h.cancelled()]  # type: ignore[attr-defined]
        deadlines = [h for h in during if h.when() > loop.time() + 20]
        outs = await asyncio.gather(*runs)
        return outs, len(deadlines), before

    outs, deadlines, before = asyncio.run(main())
    assert [o.value for o in outs] == [11] * 50
    assert before == 0 and 1 <= deadlines <= 2  # (two when the runs straddle a slice)


def test_a_nested_run_keeps_the_outer_deadline() -> None:
    rt = _runtime(deadline=0.3)
    inner_rt = _runtime()

    async def quick(x: int) -> int:
        return x

    inner_rt.register(FunctionDescription("quick", "q", quick, {"x": "integer"}, "integer"))
    inner = inner_rt.prepare("return quick(1);", lang="plan")

    async def outer(x: int) -> int:
        # a run in the same task, with a deadline ending in the same slice or not
        assert (await inner.run_async()).value == 1
        await asyncio.sleep(10)
        return x

    rt.register(FunctionDescription("outer", "o", outer, {"x": "integer"}, "integer"))
    start = time.monotonic()
    out = rt.run("return outer(1);", lang="plan")
    took = time.monotonic() - start
    assert out.status == "failure" and out.error is not None
    assert out.error.details.get("limit") == "deadline"
    assert took < 5  # cancelled at its deadline, not after the 10 s sleep


def test_a_deadline_still_stops_a_run_and_leaves_no_timer() -> None:
    rt = _calls_runtime([], deadline=0.1)
    prepared = rt.prepare("return [slow(1), slow(2)];", lang="plan")

    async def main() -> tuple[Any, list[Any]]:
        out = await prepared.run_async()
        await asyncio.sleep(0)
        loop = asyncio.get_running_loop()
        return out, [h for h in loop._scheduled if not h.cancelled()]  # type: ignore[attr-defined]

    out, live = asyncio.run(main())
    assert out.status == "failure" and out.error.details.get("limit") == "deadline"
    assert live == []


# -- no cycles -------------------------------------------------------------------------------------
def test_a_run_that_waited_for_an_alias_leaves_no_cyclic_garbage() -> None:
    rt = _calls_runtime([])
    prepared = rt.prepare(
        "a = fetch(1);\nb = fetch(2);\nc = add(a, b);\nd = add(b, a);\nreturn add(c, d);",
        lang="plan",
    )

    async def main() -> None:
        for _ in range(3):
            assert (await prepared.run_async()).value == 60

    asyncio.run(main())  # (the loop's own objects are freed here)
    gc.collect()
    gc.disable()
    try:
        asyncio.run(main())
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        ours = [o for o in gc.garbage if type(o).__module__.startswith("dialectic")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert ours == []


def test_huge_limits_of_seconds_arm_no_overflowing_timer() -> None:
    program = "a = fetch(1);\nreturn [add(a, 1), fetch(2)];"
    for limits in ({"deadline": 1e306}, {"call_timeout": 1.7e308, "deadline": 1.7e308}):
        rt = _calls_runtime([], **limits)
        assert rt.run(program, lang="plan").value == [11, 20]

        async def main(rt: Runtime = rt) -> Any:
            return (await rt.prepare(program, lang="plan").run_async()).value

        assert asyncio.run(main()) == [11, 20]


def test_a_call_s_exact_types_test_passes_only_values_that_need_nothing() -> None:
    """A positional asynchronous call whose arguments all have exact types tests them in one
    go; a value of another type still takes the coercion, and an ambiguous one is reported."""
    rt = _runtime()

    async def show(a: int, b: str) -> str:
        await asyncio.sleep(0)
        return f"{type(a).__name__}:{a}|{type(b).__name__}:{b}"

    rt.register(
        FunctionDescription(
            "show", "its arguments", show, {"a": "integer", "b": "string"}, "string"
        )
    )
    prepared = rt.prepare("return show(x, y);", lang="plan")
    call = prepared.root.aio.__self__  # type: ignore[union-attr]
    assert call.typed is not None
    cases: list[tuple[dict[str, Any], str]] = [
        ({"x": 3, "y": "s"}, "int:3|str:s"),
        ({"x": 3.0, "y": "s"}, "int:3|str:s"),  # coerced
        ({"x": 3, "y": 4}, "int:3|str:4"),  # coerced
    ]
    for context, want in cases:
        out = asyncio.run(prepared.run_async(context))
        assert (out.status, out.value) == ("success", want)
    out = asyncio.run(prepared.run_async({"x": True, "y": "s"}))
    assert out.status == "ambiguous" and "boolean" in (out.message or "")
