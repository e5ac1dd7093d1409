"""The scheduling fast paths give the general path's outcomes.

On asyncio a call of aliases awaits their fan-out in its own frame, passes its arguments
positionally with no dict, reads an alias being evaluated elsewhere through a callback on its
slot, and a launched call's task does its own bookkeeping as it ends; a run is one coroutine.
On trio every one of these takes the general path (task groups, keyword arguments, events). The
same programs must end the same way on both, call logs included: a success, a failing call, a
``Failure``, an ambiguous argument (one or two), an undefined one, a per-call timeout, the
deadline, and a cancellation from outside that leaves nothing running."""

from __future__ import annotations

import asyncio
from typing import Any

import anyio
import pytest

from dialectic import Ambiguous, Candidate, Failure, FunctionDescription, Limits, Outcome, Runtime
from dialectic.run.state import TimeoutBucket, current_of, new_state

#: a diamond: two launched calls, two calls of aliases (the second reads both while the first
#: evaluates them), and a call of those two
DIAMOND = """\
a = step(seed, A);
b = step(seed, B);
c = step(a, b);
d = step(b, a);
return step(c, d);
"""

#: the diamond's ``c`` and ``d`` each read by three calls, two of them fan-outs
SHARED = """\
a = step(seed, A);
b = step(seed, B);
c = step(a, b);
d = step(b, a);
return [step(c, d), step(d, c), step(c, 5), c];
"""

STARTED: list[tuple[int, int]] = []
CANCELLED: list[tuple[int, int]] = []


async def step(a: int, b: int) -> int:
    """Combine two numbers; ``b`` below zero picks a way to end badly."""
    STARTED.append((a, b))
    try:
        await anyio.sleep(0.5 if b == -3 else 0)
    except anyio.get_cancelled_exc_class():
        CANCELLED.append((a, b))
        raise
    if b == -1:
        raise ValueError(f"no step from {a}")
    if b == -2:
        raise Failure(f"step {a} refused", hint="Try a positive number.")
    if b == -4:
        raise Ambiguous(
            f"which step from {a}?",
            [
                Candidate("up", {"step": {"a": a, "b": 1}}),
                Candidate("down", {"step": {"a": a, "b": 2}}),
            ],
        )
    return (a * 31 + b) % 1_000_003


def runtime(**limits: Any) -> Runtime:
    rt = Runtime(load_entry_points=False, limits=limits or None)
    rt.register(
        FunctionDescription("step", "combine", step, {"a": "integer", "b": "integer"}, "integer")
    )
    return rt


def comparable(out: Outcome) -> dict[str, Any]:
    """The outcome as JSON with its call log, without the times, the calls by path (concurrent
    calls start in the order each backend schedules them)."""
    data = out.to_json(calls=True)
    for call in data.get("calls", ()):
        call.pop("start", None)
        call.pop("duration", None)
    if "calls" in data:
        data["calls"].sort(key=lambda call: (call["path"], repr(call["arguments"])))
    return data


def run_on(backend: str, rt: Runtime, program: str, context: dict[str, Any]) -> Outcome:
    prepared = rt.prepare(program, lang="plan")
    assert not prepared.errors, prepared.errors

    async def main() -> Outcome:
        return await prepared.run_async(context)

    return anyio.run(main, backend=backend)


CASES: dict[str, tuple[str, dict[str, Any], str]] = {
    "success": (DIAMOND, {"seed": 3, "A": 1, "B": 2}, "success"),
    "a call raises": (DIAMOND, {"seed": 3, "A": 1, "B": -1}, "failure"),
    "a Failure": (DIAMOND, {"seed": 3, "A": -2, "B": 2}, "failure"),
    "one ambiguous argument": (DIAMOND, {"seed": 3, "A": 1, "B": -4}, "ambiguous"),
    "two ambiguous arguments": (DIAMOND, {"seed": 3, "A": -4, "B": -4}, "ambiguous"),
    "an undefined argument": (
        "a = step(seed, 1); b = step(seed, 2); return step(a, o.missing) + step(b, a);",
        {"seed": 3, "o": {}},
        "failure",
    ),
    # an alias whose value is a call of aliases is evaluated by that call's own coroutine as
    # its fan-out's task (no wrapper): its value read by several calls, then its failure
    "an alias of a call read by several calls": (
        SHARED,
        {"seed": 3, "A": 1, "B": 2},
        "success",
    ),
    "an alias of a call fails, read by several calls": (
        SHARED,
        {"seed": 3, "A": 1, "B": -1},
        "failure",
    ),
    "an alias of a call is ambiguous, read by several calls": (
        SHARED,
        {"seed": 3, "A": 1, "B": -4},
        "ambiguous",
    ),
    "a coerced argument": (
        "a = step(seed, 1); b = step(seed, 2); return step(a, b) + step(b, 2.0);",
        {"seed": 3},
        "success",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_asyncio_fast_paths_end_as_trio_does(case: str) -> None:
    program, context, status = CASES[case]
    rt = runtime()
    outs = {backend: run_on(backend, rt, program, context) for backend in ("asyncio", "trio")}
    assert outs["asyncio"].status == status, outs["asyncio"].message
    mine, general = comparable(outs["asyncio"]), comparable(outs["trio"])
    if status == "success":
        assert mine == general
        return
    # a sibling racing the failure (done or cancelled in flight) ends as each backend happens
    # to schedule it (trio shuffles its run queue): the failure itself, the question and
    # which calls the log names are the same
    for key in ("status", "message", "error", "suggestions"):
        assert mine.get(key) == general.get(key), key
    assert [c["path"] for c in mine["calls"]] == [c["path"] for c in general["calls"]]
    failed = [c for c in mine["calls"] if c["status"] == "failed"]
    assert failed == [c for c in general["calls"] if c["status"] == "failed"]
    if case == "two ambiguous arguments":  # both questions, in program order, combined
        assert "2 ambiguous parts" in (outs["asyncio"].message or "")
        assert len(outs["asyncio"].suggestions) == 4


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_a_call_timeout_in_the_diamond_names_its_call(backend: str) -> None:
    STARTED.clear()
    CANCELLED.clear()
    rt = runtime(call_timeout=0.05)
    out = run_on(backend, rt, DIAMOND, {"seed": 3, "A": 1, "B": -3})
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "timeout" and out.error.details["function"] == "step"
    assert out.error.path == "program.$let.b"
    assert CANCELLED == [(3, -3)]
    assert sorted(STARTED) == [(3, -3), (3, 1)]  # c, d and the return never called


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_the_deadline_stops_the_diamond(backend: str) -> None:
    STARTED.clear()
    CANCELLED.clear()
    rt = runtime(deadline=0.05)
    out = run_on(backend, rt, DIAMOND, {"seed": 3, "A": -3, "B": -3})
    assert out.error is not None and out.error.details["limit"] == "deadline"
    assert sorted(CANCELLED) == sorted(STARTED) == [(3, -3), (3, -3)]


def test_a_cancellation_from_outside_leaves_nothing_running() -> None:
    """Cancelled while ``d`` waits on the slots ``c`` is filling: every call is cancelled and
    waited for, no task of the run is left, and the run raises the cancellation."""
    STARTED.clear()
    CANCELLED.clear()
    prepared = runtime().prepare(DIAMOND, lang="plan")

    async def main() -> int:
        task = asyncio.ensure_future(prepared.run_async({"seed": 3, "A": -3, "B": -3}))
        while len(STARTED) < 2:  # both launched calls are running: c and d are waiting
            await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return len(asyncio.all_tasks()) - 1  # all but this one

    assert asyncio.run(main()) == 0
    assert sorted(CANCELLED) == sorted(STARTED) == [(3, -3), (3, -3)]


def test_many_runs_at_once_each_get_their_own_values() -> None:
    """Runs sharing timeout timers and the loop: each its own result (the bare computation)."""
    prepared = runtime().prepare(DIAMOND, lang="plan")

    def expected(seed: int) -> int:
        def f(a: int, b: int) -> int:
            return (a * 31 + b) % 1_000_003

        a, b = f(seed, 1), f(seed, 2)
        return f(f(a, b), f(b, a))

    async def main() -> list[Any]:
        outs = await asyncio.gather(
            *(prepared.run_async({"seed": i, "A": 1, "B": 2}) for i in range(200))
        )
        return [o.value for o in outs]

    assert asyncio.run(main()) == [expected(i) for i in range(200)]


@pytest.mark.parametrize(("timeout", "grain"), [(30.0, 0.031), (0.05, 0.001), (2.5, 0.003)])
def test_call_timeouts_share_one_timer_per_slice(timeout: float, grain: float) -> None:
    """A call's timeout fires at least its whole timeout after the call starts and at most one
    slice (1 ms per second of timeout, at least 1 ms) later; the calls starting within a slice
    share one timer, so a loop's heap gets a new timer per slice, not per millisecond."""

    async def main() -> tuple[int, list[tuple[float, float]]]:
        s = new_state({}, 0, Limits(), (lambda v, *a: v, str), False)
        s.timeout_bucket(timeout).cancel()  # (the run's first: its loop and clock)
        clock = [1000.0]
        s._clock = lambda: clock[0]
        seen: dict[int, TimeoutBucket] = {}
        fires: list[tuple[float, float]] = []
        for ms in range(200):
            clock[0] = 1000.0 + ms / 1000
            bucket = s.timeout_bucket(timeout)
            assert bucket.handle is not None
            seen[id(bucket)] = bucket
            fires.append((clock[0] + timeout, bucket.handle.when()))
        s.close()  # (no timer of it stays scheduled)
        assert all(b.handle is None for b in seen.values())
        return len(seen), fires

    count, fires = asyncio.run(main())
    for due, fire in fires:
        assert due < fire <= due + grain + 1e-9
    assert count <= 200 / (grain * 1000) + 2


def test_current_of_is_asyncio_current_task() -> None:
    """``current_of`` reads asyncio's table of running tasks directly where this Python keeps
    one there: it must name the task that runs, in the main task and in a child (if a Python
    moves the table, it answers None and the fast paths lose track of their tasks)."""

    async def child() -> bool:
        return current_of(asyncio.get_running_loop()) is asyncio.current_task()

    async def main() -> tuple[bool, bool, bool]:
        loop = asyncio.get_running_loop()
        me = current_of(loop)
        return me is asyncio.current_task(), me is not None, await asyncio.create_task(child())

    assert asyncio.run(main()) == (True, True, True)


def test_an_alias_of_a_call_stopped_before_it_began_never_runs() -> None:
    """``c``'s evaluation is its call's own coroutine, a task of the fan-out that fails as it
    starts (``fetch(boom(1))``'s argument raises): the task sees that as it begins, runs no
    line of the call (not even its arguments' evaluation), leaves no coroutine unawaited and
    no task behind, and the run fails with the first error."""
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

    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("slow", "x", slow, {"n": "integer"}, "integer"))
    rt.register(FunctionDescription("boom", "x", boom, {"n": "integer"}, "integer"))
    rt.register(FunctionDescription("fetch", "x", fetch, {"n": "integer"}, "integer"))
    rt.register(
        FunctionDescription("step", "combine", step, {"a": "integer", "b": "integer"}, "integer")
    )
    prepared = rt.prepare(
        "a = slow(1);\nb = slow(2);\nc = step(a, b);\nreturn [c, fetch(boom(1))];", lang="plan"
    )
    assert not prepared.errors, prepared.errors

    async def main() -> tuple[Outcome, int]:
        out = await prepared.run_async()
        await asyncio.sleep(0)
        return out, len(asyncio.all_tasks()) - 1  # all but this one

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out, left = asyncio.run(main())
        gc.collect()
    assert out.status == "failure" and out.error is not None
    assert "boom" in out.error.message
    assert ran == [] and left == 0
    assert not [w for w in caught if "never awaited" in str(w.message)], caught
