"""Fan-out: many independent asynchronous calls in one node. On asyncio each call runs as a task
of the implementation's own coroutine (arguments evaluated first, outcome mapped when the task
ends); on trio, anyio task groups. Both backends must give the same outcomes."""

from __future__ import annotations

import asyncio
from typing import Any

import anyio
import pytest

from dialectic import Ambiguous, Candidate, Failure, FunctionDescription, Outcome, Runtime

BACKENDS = ["asyncio", "trio"]


def make_runtime(*descs: FunctionDescription, **limits: Any) -> Runtime:
    rt = Runtime(load_entry_points=False, limits=limits or None)
    rt.register(*descs)
    return rt


def run_on(backend: str, rt: Runtime, program: Any) -> Outcome:
    prepared = rt.prepare(program)

    async def main() -> Outcome:
        return await prepared.run_async()

    return anyio.run(main, backend=backend)


async def nap(seconds: float) -> float:
    await anyio.sleep(seconds)
    return seconds


NAP = FunctionDescription("nap", "sleep, then return the seconds", nap, {"seconds": "number"})


class Naps:
    """A `nap` that records which calls started, finished and were cancelled: a test shows that
    a long sleep was not waited for by its events, not by the wall clock."""

    def __init__(self) -> None:
        self.started: list[float] = []
        self.finished: list[float] = []
        self.cancelled: list[float] = []

    async def nap(self, seconds: float) -> float:
        self.started.append(seconds)
        try:
            await anyio.sleep(seconds)
        except anyio.get_cancelled_exc_class():
            self.cancelled.append(seconds)
            raise
        self.finished.append(seconds)
        return seconds

    def description(self) -> FunctionDescription:
        return FunctionDescription("nap", "a recorded nap", self.nap, {"seconds": "number"})


@pytest.mark.parametrize("backend", BACKENDS)
def test_results_keep_the_program_order(backend: str) -> None:
    # later elements finish first; the array is still in program order
    rt = make_runtime(NAP)
    delays = [0.03, 0.02, 0.01, 0.0]
    out = run_on(backend, rt, [{"nap": d} for d in delays])
    assert out.status == "success", out.message
    assert out.value == delays


@pytest.mark.parametrize("backend", BACKENDS)
def test_arguments_are_evaluated_and_coerced_before_the_call(backend: str) -> None:
    seen: list[Any] = []

    async def echo(n: int, label: str) -> str:
        seen.append((n, label))
        await anyio.sleep(0)
        return f"{label}{n}"

    rt = make_runtime(
        FunctionDescription("echo", "echo", echo, {"n": "integer", "label": "string"}),
        FunctionDescription("inc", "n + 1", lambda n: n + 1, {"n": "integer"}, "integer"),
    )
    program = [
        {"echo": ["7", "a"]},  # text coerced to an integer
        {"echo": [{"inc": 1}, "b"]},  # a synchronous argument
        {"echo": {"n": 3, "label": 4}},  # a number coerced to text
    ]
    out = run_on(backend, rt, program)
    assert out.status == "success", out.message
    assert out.value == ["a7", "b2", "43"]
    assert sorted(seen) == [(2, "b"), (3, "4"), (7, "a")]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_timeout_names_the_call_and_cancels_the_others(backend: str) -> None:
    cancelled: list[str] = []

    async def stuck(name: str) -> str:
        try:
            await anyio.sleep(10 if name == "slow" else 0.5)
        except anyio.get_cancelled_exc_class():
            cancelled.append(name)
            raise
        return name

    rt = make_runtime(
        FunctionDescription("stuck", "stuck", stuck, {"name": "string"}, timeout=0.05)
    )
    out = run_on(backend, rt, [{"stuck": "a"}, {"stuck": "slow"}])
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "timeout"
    assert "`stuck`" in (out.message or "")
    # both calls were still running at 50 ms: both were stopped, neither ran on to 0.5 s
    assert sorted(cancelled) == ["a", "slow"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_first_failure_cancels_the_siblings(backend: str) -> None:
    cancelled: list[int] = []

    async def work(n: int) -> int:
        if n == 2:
            await anyio.sleep(0.01)
            raise Failure("the service is down")
        try:
            await anyio.sleep(5)
        except anyio.get_cancelled_exc_class():
            cancelled.append(n)
            raise
        return n

    rt = make_runtime(FunctionDescription("work", "work", work, {"n": "integer"}))
    out = run_on(backend, rt, [{"work": n} for n in range(5)])
    assert out.status == "failure"
    assert "`work` failed: the service is down" in (out.message or "")
    assert out.error is not None and out.error.path == "program[2]"
    assert sorted(cancelled) == [0, 1, 3, 4]  # stopped in their 5 s sleeps, not waited for


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_bad_argument_fails_before_any_call_is_waited_for(backend: str) -> None:
    naps = Naps()
    rt = make_runtime(naps.description())
    out = run_on(backend, rt, [{"nap": 5}, {"nap": "soon"}, {"nap": 5}])
    assert naps.finished == []  # no 5 s nap was waited for
    assert naps.cancelled == naps.started  # a nap launched before the bad argument was stopped
    assert out.status == "failure"
    assert out.error is not None and out.error.path == "program[1].nap"
    assert "soon" in (out.message or "")


@pytest.mark.parametrize("backend", BACKENDS)
def test_ambiguities_come_back_in_program_order(backend: str) -> None:
    async def pick(name: str, delay: float) -> str:
        await anyio.sleep(delay)
        raise Ambiguous(
            f"Which {name}?",
            [Candidate(f"{name} one", {"nap": 0}), Candidate(f"{name} two", {"nap": 0})],
        )

    rt = make_runtime(
        FunctionDescription("pick", "pick", pick, {"name": "string", "delay": "number"}), NAP
    )
    # completion order c, b, a; the outcome lists a, b, c
    out = run_on(backend, rt, [{"pick": ["a", 0.03]}, {"pick": ["b", 0.02]}, {"pick": ["c", 0]}])
    assert out.status == "ambiguous"
    message = out.message or ""
    assert message.index("Which a?") < message.index("Which b?") < message.index("Which c?")
    # each suggestion resolves all three, the combinations in program order
    assert [s.description for s in out.suggestions] == [
        f"a {x} and b {y} and c {z}"
        for x in ("one", "two")
        for y in ("one", "two")
        for z in ("one", "two")
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_unexpected_exception_names_the_function_and_the_element(backend: str) -> None:
    async def broken(n: int) -> int:
        await anyio.sleep(0)
        if n == 1:
            raise KeyError("boom")
        return n

    rt = make_runtime(FunctionDescription("broken", "broken", broken, {"n": "integer"}))
    out = run_on(backend, rt, [{"broken": 0}, {"broken": 1}])
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "function_error"
    assert out.error.path == "program[1]"
    assert "`broken` failed unexpectedly: KeyError" in (out.message or "")
    assert "Traceback" not in (out.message or "")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_returned_text_over_the_limit_fails(backend: str) -> None:
    async def big(n: int) -> str:
        await anyio.sleep(0)
        return "x" * n

    rt = make_runtime(
        FunctionDescription("big", "text", big, {"n": "integer"}), max_string_length=100
    )
    out = run_on(backend, rt, [{"big": 10}, {"big": 1000}])
    assert out.status == "failure"
    assert out.error is not None and out.error.details.get("limit") == "max_string_length"
    assert "`big` returned 1000 characters" in (out.message or "")


@pytest.mark.parametrize(
    ("program", "limits", "path"),
    [
        ([{"quits": 0}, {"quits": 1}], {}, "program[1]"),  # a fan-out
        ([{"quits": 0}, {"quits": 1}], {"max_concurrency": 1}, "program[1]"),  # with a limiter
        ({"quits": 1}, {}, "program"),  # a single call
    ],
)
def test_a_call_that_raises_cancelled_itself_is_a_failure_not_a_missing_value(
    program: Any, limits: dict[str, Any], path: str
) -> None:
    async def quits(n: int) -> int:
        await asyncio.sleep(0)
        if n:
            raise asyncio.CancelledError  # e.g. a client library's own cancellation leaking out
        return n

    rt = make_runtime(FunctionDescription("quits", "quits", quits, {"n": "integer"}), **limits)
    out = run_on("asyncio", rt, program)
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "cancelled"
    assert out.error.path == path
    assert out.error.details["function"] == "quits"
    assert "`quits` was cancelled unexpectedly" in (out.message or "")


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_deadline_stops_a_fan_out(backend: str) -> None:
    naps = Naps()
    rt = make_runtime(naps.description(), deadline=0.05)
    out = run_on(backend, rt, [{"nap": 10} for _ in range(20)])
    assert naps.finished == []  # the deadline stopped every 10 s nap
    assert len(naps.started) == 20 and sorted(naps.cancelled) == naps.started
    assert out.error is not None and out.error.code == "limit_exceeded"
    assert out.error.details["limit"] == "deadline"


def test_the_deadline_wins_when_a_function_turns_cancellation_into_an_error() -> None:
    async def stubborn() -> str:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            raise RuntimeError("interrupted") from None
        return "never"

    rt = make_runtime(FunctionDescription("stubborn", "stubborn", stubborn, {}), deadline=0.05)
    out = run_on("asyncio", rt, {"stubborn": {}})
    assert out.error is not None and out.error.details.get("limit") == "deadline"


def test_cancelling_the_run_cancels_every_call_and_leaves_no_task_behind() -> None:
    started = 0
    cancelled = 0

    async def slow(n: int) -> int:
        nonlocal started, cancelled
        started += 1
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            cancelled += 1
            raise
        return n

    rt = make_runtime(FunctionDescription("slow", "slow", slow, {"n": "integer"}))
    prepared = rt.prepare([{"slow": n} for n in range(10)])

    async def main() -> int:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(prepared.run_async(), 0.05)
        await asyncio.sleep(0.01)
        return len(asyncio.all_tasks()) - 1  # all but this one

    assert asyncio.run(main()) == 0
    assert started == cancelled == 10


def test_a_loop_task_factory_is_respected() -> None:
    made: list[str] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        made.append(getattr(coro, "__name__", "?"))
        return asyncio.Task(coro, loop=loop, **kwargs)

    rt = make_runtime(NAP)
    prepared = rt.prepare([{"nap": 0}, {"nap": 0.001}])

    async def main() -> Outcome:
        asyncio.get_running_loop().set_task_factory(factory)
        return await prepared.run_async()

    out = asyncio.run(main())
    assert out.value == [0, 0.001]
    assert made.count("nap") == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_limited_fan_out_takes_the_general_path_and_still_succeeds(backend: str) -> None:
    active = 0
    peak = 0

    async def work(n: int) -> int:
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        await anyio.sleep(0.001)
        active -= 1
        return n

    rt = make_runtime(
        FunctionDescription("work", "work", work, {"n": "integer"}), max_concurrency=4
    )
    out = run_on(backend, rt, [{"work": n} for n in range(16)])
    assert out.value == list(range(16))
    assert peak == 4


@pytest.mark.parametrize("backend", BACKENDS)
def test_nested_fan_outs(backend: str) -> None:
    async def add(a: float, b: float) -> float:
        await anyio.sleep(0)
        return a + b

    rt = make_runtime(FunctionDescription("add", "a + b", add, {"a": "number", "b": "number"}), NAP)
    program = [{"add": [{"nap": 0.001}, {"add": [1, {"nap": 0}]}]} for _ in range(5)]
    out = run_on(backend, rt, program)
    assert out.status == "success", out.message
    assert out.value == [1.001] * 5


def test_the_deadline_holds_when_a_function_swallows_the_cancellation() -> None:
    async def deaf() -> str:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            return "finished anyway"
        return "never"

    rt = make_runtime(FunctionDescription("deaf", "deaf", deaf, {}), deadline=0.05)
    prepared = rt.prepare({"deaf": {}})

    async def main() -> tuple[Outcome, int]:
        out = await prepared.run_async()
        task = asyncio.current_task()
        assert task is not None
        return out, task.cancelling()  # the run leaves no cancellation behind on our task

    out, cancelling = asyncio.run(main())
    assert out.error is not None and out.error.details.get("limit") == "deadline"
    assert cancelling == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_slow_synchronous_step_in_an_async_program_fails_the_deadline(backend: str) -> None:
    import time as clock

    def slow(x: float) -> float:
        clock.sleep(0.1)  # not interruptible: the run fails when it returns
        return x

    rt = make_runtime(
        NAP, FunctionDescription("slow", "slow", slow, {"x": "number"}), deadline=0.05
    )
    out = run_on(backend, rt, {"slow": {"nap": 0}})
    assert out.error is not None and out.error.details.get("limit") == "deadline"


def _small_program_handles(runs: int) -> tuple[list[Any], int]:
    """``schedule.py``'s 5-call program (two roots, two calls of both, one joining those) run
    ``runs`` times at once, with calls that sleep 0 s: its results, and how many handles
    (``call_soon``) the event loop was given meanwhile."""

    async def step(a: int, b: int) -> int:
        await asyncio.sleep(0)
        return a * 31 + b

    rt = make_runtime(FunctionDescription("step", "x", step, {"a": "integer", "b": "integer"}))
    prepared = rt.prepare(
        "a = step(seed, 1);\nb = step(seed, 2);\nc = step(a, b);\nd = step(b, a);\n"
        "return step(c, d);",
        lang="plan",
    )
    handles = [0]

    class Loop(asyncio.SelectorEventLoop):
        def call_soon(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            handles[0] += 1
            return super().call_soon(*args, **kwargs)

    async def main() -> list[Any]:
        handles[0] = 0
        outs = await asyncio.gather(*(prepared.run_async({"seed": i}) for i in range(runs)))
        return [o.value for o in outs]

    loop = Loop()
    try:
        values = loop.run_until_complete(main())
    finally:
        loop.close()
    return values, handles[0]


def test_a_fan_out_child_ends_with_no_callback_of_its_own() -> None:
    """A child's bookkeeping runs in its task as it ends (no done callback, which is a handle
    and a turn of the loop more per child before the parent wakes): the 5-call program takes
    14 handles, as bare asyncio's version with a task per call does (it took 18)."""
    values, handles = _small_program_handles(50)

    def step(a: int, b: int) -> int:
        return a * 31 + b

    expected = []
    for seed in range(50):
        a, b = step(seed, 1), step(seed, 2)
        expected.append(step(step(a, b), step(b, a)))
    assert values == expected
    # per program: 5 task starts (the run's own in gather, 4 children), 5 wake-ups after the
    # sleeps, 3 parents woken by their fan-outs, and gather's bookkeeping of the run
    assert handles <= 15 * 50, handles / 50


def test_children_stopped_before_they_began_leave_no_unawaited_coroutine() -> None:
    """A fan-out that fails as it starts stops the children it already started: they never
    run a line, and their coroutines are closed (no "never awaited" warning)."""
    import gc
    import warnings

    ran: list[int] = []

    async def slow(n: int) -> int:
        ran.append(n)
        await asyncio.sleep(1)
        return n

    def boom(n: int) -> int:
        raise ValueError("no")

    async def fetch(n: int) -> int:
        return n

    rt = make_runtime(
        FunctionDescription("slow", "x", slow, {"n": "integer"}, "integer"),
        FunctionDescription("boom", "x", boom, {"n": "integer"}, "integer"),
        FunctionDescription("fetch", "x", fetch, {"n": "integer"}, "integer"),
    )
    program = "a = slow(1);\nb = slow(2);\nreturn [a, b, slow(3), fetch(boom(1))];"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = rt.run(program, lang="plan")
        gc.collect()
    assert out.status == "failure" and out.error is not None
    assert "boom" in out.error.message
    assert ran == []
    assert not [w for w in caught if "never awaited" in str(w.message)], caught
