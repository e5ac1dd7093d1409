"""A run owns its tasks and timers (SPEC section 6): when it returns, after a deadline, a
cancellation or a failure, no call of it is still running, and no per-call timeout timer of it
is left scheduled in the event loop, however many programs the loop has run."""

from __future__ import annotations

import asyncio
from typing import Any

import anyio
import pytest

from dialectic import Ambiguous, Candidate, Failure, FunctionDescription, Outcome, Runtime

BACKENDS = ["asyncio", "trio"]


class Calls:
    """Records which calls started and which finished their cleanup (after cancellation)."""

    def __init__(self) -> None:
        self.started: list[int] = []
        self.exited: list[int] = []
        self.all_started: anyio.Event | None = None
        self.expected = 0

    async def slow(self, n: int) -> int:
        self.started.append(n)
        if self.all_started is not None and len(self.started) == self.expected:
            self.all_started.set()
        try:
            await anyio.sleep(30)
        finally:
            # cleanup that takes a few turns of the loop, shielded as cleanups must be
            with anyio.CancelScope(shield=True):
                for _ in range(5):
                    await anyio.sleep(0)
            self.exited.append(n)
        return n

    def runtime(self, **limits: Any) -> Runtime:
        rt = Runtime(load_entry_points=False, limits=limits or None)
        rt.register(
            FunctionDescription("slow", "slow", self.slow, {"n": "integer"}),
            FunctionDescription("inc", "n + 1", lambda n: n + 1, {"n": "integer"}),
        )
        return rt


PROGRAMS = {
    "fan-out": [{"slow": n} for n in range(6)],  # launched as tasks of the implementation
    "computed arguments": [{"slow": {"inc": n}} for n in range(6)],
    "nested": [[{"slow": 0}, {"slow": 1}], [{"slow": 2}, [{"slow": 3}, {"slow": 4}]]],
    "single": {"slow": 0},
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("limits", [{}, {"max_concurrency": 3}], ids=["free", "limited"])
@pytest.mark.parametrize("shape", sorted(PROGRAMS))
def test_after_the_deadline_no_call_is_still_running(
    backend: str, limits: dict[str, Any], shape: str
) -> None:
    calls = Calls()
    prepared = calls.runtime(deadline=0.05, **limits).prepare(PROGRAMS[shape])

    async def main() -> tuple[Outcome, list[int], list[int]]:
        out = await prepared.run_async()
        # read at once, when the run has returned: nothing may still be cleaning up
        return out, sorted(calls.started), sorted(calls.exited)

    out, started, exited = anyio.run(main, backend=backend)
    assert out.error is not None and out.error.details.get("limit") == "deadline"
    assert started and exited == started


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", ["fan-out", "computed arguments", "nested"])
def test_a_cancelled_run_returns_only_after_its_calls_have_ended(backend: str, shape: str) -> None:
    calls = Calls()
    program = PROGRAMS[shape]
    prepared = calls.runtime().prepare(program)
    calls.expected = len(str(program).split("slow")) - 1

    async def main() -> tuple[list[int], list[int]]:
        calls.all_started = anyio.Event()
        seen: list[list[int]] = []

        async def run() -> None:
            try:
                await prepared.run_async()
            finally:
                seen.append(sorted(calls.exited))  # when the run gives up control

        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await calls.all_started.wait()  # every call is running: now cancel the run
            tg.cancel_scope.cancel()
        return sorted(calls.started), seen[0]

    started, exited_when_run_ended = anyio.run(main, backend=backend)
    assert len(started) == calls.expected
    assert exited_when_run_ended == started


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_failure_returns_only_after_the_cancelled_siblings_have_ended(backend: str) -> None:
    calls = Calls()

    async def broken() -> int:
        await anyio.sleep(0.01)
        raise Failure("the service is down")

    rt = calls.runtime()
    rt.register(FunctionDescription("broken", "broken", broken, {}))
    prepared = rt.prepare([{"slow": 0}, {"slow": 1}, {"broken": {}}, {"slow": 2}])

    async def main() -> tuple[Outcome, list[int]]:
        out = await prepared.run_async()
        return out, sorted(calls.exited)

    out, exited = anyio.run(main, backend=backend)
    assert out.error is not None and "the service is down" in out.error.message
    assert exited == [0, 1, 2]


def _live_timers(loop: asyncio.AbstractEventLoop) -> int:
    scheduled: list[asyncio.TimerHandle] = getattr(loop, "_scheduled")  # noqa: B009
    return sum(not h.cancelled() for h in scheduled)


def test_thousands_of_runs_leave_no_timer_behind() -> None:
    async def quick(n: int) -> int:
        await asyncio.sleep(0)
        return n

    async def fails(n: int) -> int:
        await asyncio.sleep(0)
        raise Failure("no")

    async def unsure(n: int) -> int:
        await asyncio.sleep(0)
        raise Ambiguous("Which?", [Candidate("this one", {"quick": n})])

    async def late(n: int) -> int:
        await asyncio.sleep(10)
        return n

    rt = Runtime(load_entry_points=False)
    rt.register(
        FunctionDescription("quick", "quick", quick, {"n": "integer"}),
        FunctionDescription("fails", "fails", fails, {"n": "integer"}),
        FunctionDescription("unsure", "unsure", unsure, {"n": "integer"}),
        FunctionDescription("late", "late", late, {"n": "integer"}, timeout=0.001),
        FunctionDescription("inc", "n + 1", lambda n: n + 1, {"n": "integer"}),
        FunctionDescription("block", "n", lambda n: n, {"n": "integer"}, blocking=True),
    )
    limited = Runtime(load_entry_points=False, limits={"max_concurrency": 2})
    limited.register(FunctionDescription("quick", "quick", quick, {"n": "integer"}))
    programs = [
        (rt.prepare({"quick": 1}), "success"),  # a single call (the run's own task)
        (rt.prepare([{"quick": n} for n in range(5)]), "success"),  # a launched fan-out
        (rt.prepare([{"quick": {"inc": n}} for n in range(3)]), "success"),
        (rt.prepare([{"quick": 1}, {"fails": 2}, {"quick": 3}]), "failure"),
        (rt.prepare([{"quick": 1}, {"unsure": 2}]), "ambiguous"),
        (rt.prepare([{"quick": 1}, {"late": 2}]), "failure"),  # a timeout fires
        (limited.prepare([{"quick": n} for n in range(4)]), "success"),  # with limiters
        (rt.prepare([{"block": 1}, {"quick": 2}]), "success"),  # a worker thread's timeout
    ]

    async def main() -> tuple[int, int, int, list[str]]:
        loop = asyncio.get_running_loop()
        baseline = _live_timers(loop)
        statuses = []
        for i in range(2000):
            prepared, _ = programs[i % len(programs)]
            statuses.append((await prepared.run_async()).status)
        await asyncio.sleep(0)
        scheduled: list[Any] = getattr(loop, "_scheduled")  # noqa: B009
        return baseline, _live_timers(loop), len(scheduled), statuses

    baseline, live, total, statuses = asyncio.run(main())
    expected = [programs[i % len(programs)][1] for i in range(2000)]
    assert statuses == expected
    assert live == baseline  # every per-call timeout timer was cancelled when its calls ended
    assert total < 1000  # and the loop has dropped the cancelled ones (it does so lazily)
