"""The evaluator: concurrency of independent branches (shown with events, not sleeps),
cancellation of siblings on failure, sync-inline and blocking-in-thread execution."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import anyio
import pytest

from dialectic import Failure, FunctionDescription, Optional, Runtime


def make_runtime(*descs: FunctionDescription, **limits: Any) -> Runtime:
    rt = Runtime(load_entry_points=False, limits=limits or None)
    rt.register(*descs)
    return rt


def test_independent_calls_overlap() -> None:
    # a waits for b's event and b waits for a's: only concurrent evaluation can finish.
    events: dict[str, anyio.Event] = {}

    async def meet(me: str, other: str) -> str:
        events.setdefault(me, anyio.Event()).set()
        with anyio.fail_after(5):
            await events.setdefault(other, anyio.Event()).wait()
        return me

    rt = make_runtime(
        FunctionDescription("meet", "rendezvous", meet, {"me": "string", "other": "string"}),
        FunctionDescription("pair", "both", lambda a, b: [a, b], {"a": "any", "b": "any"}),
    )
    out = rt.run({"pair": [{"meet": ["a", "b"]}, {"meet": ["b", "a"]}]})
    assert out.status == "success", out.message
    assert out.value == ["a", "b"]


def test_seed_domain_example_overlaps_in_plan() -> None:
    started: list[str] = []
    both = anyio.Event()

    async def domain_a(slot1: str) -> dict[str, Any]:
        started.append("A")
        if len(started) == 2:
            both.set()
        with anyio.fail_after(5):
            await both.wait()
        return {"field1": 7}

    async def domain_b(slot2: str) -> list[dict[str, Any]]:
        started.append("B")
        if len(started) == 2:
            both.set()
        with anyio.fail_after(5):
            await both.wait()
        return [{"field2": "x"}]

    rt = make_runtime(
        FunctionDescription("domainA", "A", domain_a, {"slot1": "string"}, "object"),
        FunctionDescription("domainB", "B", domain_b, {"slot2": "string"}, "array"),
        FunctionDescription(
            "domainC",
            "C",
            lambda slot3, slot4: f"{slot3}/{slot4}",
            {"slot3": "number", "slot4": "string"},
            "string",
        ),
    )
    plan = """return domainC({
      slot3: domainA({slot1: 'foo'}).field1,
      slot4: domainB({slot2: 'bar'})[0].field2,
    });"""
    out = rt.run(plan, lang="plan")
    assert out.status == "success", out.message
    assert out.value == "7/x"
    assert sorted(started) == ["A", "B"]


def test_alias_is_evaluated_at_most_once_and_orphans_never_run() -> None:
    calls: list[str] = []

    async def fetch(key: str) -> str:
        calls.append(key)
        await anyio.sleep(0)
        return key.upper()

    rt = make_runtime(
        FunctionDescription("fetch", "fetch", fetch, {"key": "string"}, "string"),
        FunctionDescription("both", "both", lambda a, b: a + b, {"a": "string", "b": "string"}),
    )
    plan = "a = fetch('x');\norphan = fetch('never');\nreturn both(a, a);"
    out = rt.run(plan, lang="plan")
    assert out.value == "XX"
    assert calls == ["x"]


def test_failure_cancels_running_siblings() -> None:
    cancelled: list[bool] = []
    waiting = anyio.Event()

    async def hang() -> str:
        try:
            waiting.set()
            await anyio.sleep_forever()
        except anyio.get_cancelled_exc_class():
            cancelled.append(True)
            raise
        return "never"

    async def fail() -> str:
        await waiting.wait()
        raise Failure("the service is down")

    rt = make_runtime(
        FunctionDescription("hang", "hang", hang, {}),
        FunctionDescription("fail", "fail", fail, {}),
    )
    out = rt.run([{"hang": {}}, {"fail": {}}])
    assert out.status == "failure"
    assert "the service is down" in (out.message or "")
    assert cancelled == [True]


def test_synchronous_program_runs_inline_without_event_loop() -> None:
    seen: list[bool] = []

    def probe() -> str:
        try:
            asyncio.get_running_loop()
            seen.append(True)
        except RuntimeError:
            seen.append(False)
        return "ok"

    rt = make_runtime(FunctionDescription("probe", "probe", probe, {}))
    assert rt.run({"probe": {}}).value == "ok"
    assert seen == [False]


def test_sync_function_inside_async_program_runs_in_the_loop_thread() -> None:
    threads: list[int] = []

    async def slow(value: int) -> int:
        await anyio.sleep(0)
        threads.append(threading.get_ident())
        return value

    def inc(n: int) -> int:
        threads.append(threading.get_ident())
        return n + 1

    rt = make_runtime(
        FunctionDescription("slow", "slow", slow, {"value": "integer"}),
        FunctionDescription("inc", "inc", inc, {"n": "integer"}),
    )
    assert rt.run({"inc": {"slow": 1}}).value == 2
    assert len(set(threads)) == 1


def test_blocking_function_runs_in_a_worker_thread() -> None:
    main = threading.get_ident()
    where: list[int] = []

    def blocking_io() -> str:
        where.append(threading.get_ident())
        return "done"

    rt = make_runtime(FunctionDescription("io", "io", blocking_io, {}, blocking=True))
    assert rt.run({"io": {}}).value == "done"
    assert where and where[0] != main


def test_run_async_and_run_inside_a_running_loop() -> None:
    async def twice(n: int) -> int:
        await anyio.sleep(0)
        return 2 * n

    rt = make_runtime(FunctionDescription("twice", "2n", twice, {"n": "integer"}))

    async def main() -> tuple[Any, Any]:
        a = await rt.run_async({"twice": 4})
        b = rt.run({"twice": 5})  # from inside a running loop: runs on a helper thread
        return a.value, b.value

    assert anyio.run(main) == (8, 10)


def test_concurrency_limit_and_per_function_limit() -> None:
    active = 0
    peak = {"all": 0}

    async def work(n: int) -> int:
        nonlocal active
        active += 1
        peak["all"] = max(peak["all"], active)
        await anyio.sleep(0.001)
        active -= 1
        return n

    rt = make_runtime(
        FunctionDescription("work", "work", work, {"n": "integer"}, "integer"),
        max_concurrency=3,
    )
    out = rt.run([{"work": i} for i in range(12)])
    assert out.value == list(range(12))
    assert peak["all"] == 3

    peak["all"] = 0
    rt2 = make_runtime(
        FunctionDescription("work", "work", work, {"n": "integer"}, "integer", max_concurrency=2)
    )
    assert rt2.run([{"work": i} for i in range(8)]).status == "success"
    assert peak["all"] == 2

    peak["all"] = 0
    rt3 = make_runtime(
        FunctionDescription("work", "work", work, {"n": "integer"}, "integer"),
        per_function_concurrency={"work": 1},
    )
    assert rt3.run([{"work": i} for i in range(5)]).status == "success"
    assert peak["all"] == 1


def test_call_timeout_names_the_function() -> None:
    async def stuck() -> str:
        await anyio.sleep_forever()
        return "never"

    rt = make_runtime(FunctionDescription("stuck", "stuck", stuck, {}), call_timeout=0.05)
    out = rt.run({"stuck": {}})
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "timeout"
    assert "`stuck`" in (out.message or "")


def test_total_deadline_is_a_limit_failure() -> None:
    async def stuck() -> str:
        await anyio.sleep_forever()
        return "never"

    rt = make_runtime(FunctionDescription("stuck", "stuck", stuck, {}), deadline=0.05)
    out = rt.run({"stuck": {}})
    assert out.error is not None and out.error.code == "limit_exceeded"
    assert out.error.details["limit"] == "deadline"


def test_ambiguity_and_failure_in_async_branches() -> None:
    from dialectic import Ambiguous, Candidate

    async def pick(name: str, n: int | None = None) -> str:
        await anyio.sleep(0)
        if n is None:
            raise Ambiguous(
                f"Which {name}?",
                [
                    Candidate(f"{name} #1", {"pick": [name, 1]}),
                    Candidate(f"{name} #2", {"pick": [name, 2]}),
                ],
            )
        return f"{name}{n}"

    rt = make_runtime(
        FunctionDescription("pick", "pick", pick, {"name": "string", "n": Optional("integer")})
    )
    out = rt.run([{"pick": "a"}, {"pick": "b"}, {"pick": ["c", 1]}])
    assert out.status == "ambiguous"
    assert len(out.suggestions) == 4
    assert "Which a?" in (out.message or "") and "Which b?" in (out.message or "")
    # each suggestion is the whole program with both calls refined: one more round trip
    first = out.suggestions[0].program
    assert first == [{"pick": ["a", 1]}, {"pick": ["b", 1]}, {"pick": ["c", 1]}]
    assert out.suggestions[0].replacement == [{"pick": ["a", 1]}, {"pick": ["b", 1]}]
    assert [rt.run(s.program).value for s in out.suggestions] == [
        ["a1", "b1", "c1"],
        ["a1", "b2", "c1"],
        ["a2", "b1", "c1"],
        ["a2", "b2", "c1"],
    ]


@pytest.mark.parametrize("lang", ["json", "plan"])
def test_alias_used_twice_reports_its_ambiguity_once(lang: str) -> None:
    import dialectic.testing

    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    program: Any = (
        {"$let": {"s": {"find": "validateToken"}}, "$return": [{"$ref": "s"}, {"$ref": "s"}]}
        if lang == "json"
        else "s = find('validateToken');\nreturn [s, s];"
    )
    out = rt.run(program, lang=lang)
    assert out.status == "ambiguous"
    assert len(out.suggestions) == 2
