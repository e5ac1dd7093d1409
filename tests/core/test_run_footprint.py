"""What a run keeps alive while its calls are in flight, and the slot wait of a call of aliases.

The cyclic collector's cost grows with the containers concurrent runs keep alive, so the count
per in-flight run of the 5-call diamond is held under a bound (deterministic: objects, not
time): 78 tracked containers before the fan-outs' lazy ``found`` lists, a slot's one callback
without a list, the call-log record handed to its task, the slot wait and the run's one timeout
bucket kept without a dict (63 after), 61 since an alias whose value is a call of aliases runs
that call's own coroutine as its task (no ``_alias`` wrapper coroutine), 59 since a fan-out keeps
its children's tasks in its ``out`` list (no list of tasks), 58 since the run reads asyncio's
clock as ``time.monotonic`` (no bound ``loop.time`` per run). A call
whose arguments are all aliases being evaluated elsewhere (``d = step(b, a)``) waits on their
slots in its own frame (:mod:`dialectic.run.slotwait`): its results are the fan-out's."""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

import pytest

from dialectic import FunctionDescription, Limits, Runtime
from dialectic.outcome.errors import DialecticError
from dialectic.run import state as state_module
from dialectic.run.compiled import AmbiguityError, Compiled
from dialectic.run.fanout import fanout_values, settle_tasks
from dialectic.run.fanstart import start_native
from dialectic.run.slotwait import SlotsWait, wait_slots
from dialectic.run.state import ABANDONED, MISSING, AsyncSlot, State, TimeoutBucket, new_state

DIAMOND = """\
a = step(seed, 1);
b = step(seed, 2);
c = step(a, b);
d = step(b, a);
return step(c, d);
"""

#: tracked containers per in-flight run of DIAMOND (57.8 when this was written; 58.8 with a bound
#: ``loop.time`` per run, 60.8 with a list of tasks per fan-out too, 62.8 with the ``_alias``
#: wrappers too, 77.8 before the changes above)
BOUND = 59

RUNS = 300


def test_an_in_flight_run_keeps_few_containers_alive() -> None:
    gate: asyncio.Event | None = None
    entered = 0

    async def step(a: int, b: int) -> int:
        nonlocal entered
        entered += 1
        assert gate is not None
        await gate.wait()
        return (a * 31 + b) % 1_000_003

    rt = Runtime(load_entry_points=False, limits=Limits(max_concurrency=10_000))
    rt.register(
        FunctionDescription("step", "combine", step, {"a": "integer", "b": "integer"}, "integer")
    )
    prepared = rt.prepare(DIAMOND, lang="plan")
    assert not prepared.errors

    async def main() -> float:
        nonlocal gate, entered
        gate = asyncio.Event()
        gate.set()
        await asyncio.gather(*(prepared.run_async({"seed": i}) for i in range(5)))  # warm
        gate = asyncio.Event()
        entered = 0
        gc.collect()
        gc.disable()
        try:
            before = {id(o) for o in gc.get_objects()}
            runs = [asyncio.ensure_future(prepared.run_async({"seed": i})) for i in range(RUNS)]
            while entered < 2 * RUNS:  # every run in its first two calls
                await asyncio.sleep(0)
            for _ in range(3):
                await asyncio.sleep(0)
            new = [o for o in gc.get_objects() if id(o) not in before]
            per_run = (len(new) - 1) / RUNS  # (less the list ``runs``)
            del new
            gate.set()
            outs = await asyncio.gather(*runs)
        finally:
            gc.enable()
        assert [o.status for o in outs] == ["success"] * RUNS
        return per_run

    per_run = asyncio.run(main())
    print(f"{per_run:.2f} tracked containers per in-flight run")
    assert per_run <= BOUND, f"{per_run:.1f} tracked containers per in-flight run"


def test_the_diamonds_second_call_of_aliases_waits_on_their_slots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``d = step(b, a)`` takes the slot wait; ``step(c, d)`` and ``c = step(a, b)``, which start
    the aliases they read, do not (in the order they run)."""
    waits: list[SlotsWait | None] = []
    real = wait_slots

    def spy(idxs: tuple[int, ...], state: State) -> SlotsWait | None:
        wait = real(idxs, state)
        waits.append(wait)
        return wait

    monkeypatch.setattr("dialectic.compiler.invoke_async.wait_slots", spy)
    # (the lazy way's slots: this program would otherwise run as a static call graph)
    monkeypatch.setattr("dialectic.compiler.dagplan.STATIC_DAGS", False)

    async def step(a: int, b: int) -> int:
        await asyncio.sleep(0)
        return (a * 31 + b) % 1_000_003

    rt = Runtime(load_entry_points=False)
    rt.register(
        FunctionDescription("step", "combine", step, {"a": "integer", "b": "integer"}, "integer")
    )
    out = asyncio.run(rt.prepare(DIAMOND, lang="plan").run_async({"seed": 3}))
    assert out.status == "success", out.message
    a, b = (3 * 31 + 1) % 1_000_003, (3 * 31 + 2) % 1_000_003
    c, d = (a * 31 + b) % 1_000_003, (b * 31 + a) % 1_000_003
    assert out.value == (c * 31 + d) % 1_000_003
    assert [w is not None for w in waits] == [False, False, True]


# -- SlotsWait on its own: slots settled by hand --------------------------------------------


def _state(slots: int) -> State:
    state = new_state({}, slots, Limits(), (lambda *a: a, str), False)
    state._loop = asyncio.get_running_loop()
    return state


def _claim(state: State, *idxs: int) -> list[AsyncSlot]:
    slots = [AsyncSlot() for _ in idxs]
    for idx, slot in zip(idxs, slots, strict=True):
        state.memo[idx] = slot
    return slots


def _mark(exc: AmbiguityError) -> Any:
    return ("ambiguous", exc)


def test_a_slot_wait_gives_the_values_in_argument_order() -> None:
    async def main() -> None:
        state = _state(3)
        a, b = _claim(state, 0, 2)
        wait = wait_slots((2, 0), state)
        assert wait is not None
        b.value = "B"
        b.set()
        assert not wait.waiter.done()
        amb = AmbiguityError.__new__(AmbiguityError)
        a.error = amb
        a.set()
        assert wait.waiter.done()
        assert wait.values(_mark) == ["B", ("ambiguous", amb)]

    asyncio.run(main())


def test_a_slot_wait_is_not_taken_unless_every_slot_is_in_flight() -> None:
    async def main() -> None:
        state = _state(2)
        assert wait_slots((0, 1), state) is None  # neither begun
        a, b = _claim(state, 0, 1)
        a.value = 1
        a.set()
        assert wait_slots((0, 1), state) is None  # one done: the fan-out reads it
        assert b._callbacks is None

    asyncio.run(main())


def test_a_slot_wait_stops_at_the_first_failure() -> None:
    async def main() -> None:
        state = _state(2)
        a, b = _claim(state, 0, 1)
        wait = wait_slots((0, 1), state)
        assert wait is not None
        boom = DialecticError("boom", "it failed")
        b.error = boom
        b.set()
        assert wait.waiter.done()
        assert a._callbacks is None  # no longer waited for
        with pytest.raises(DialecticError) as info:
            wait.values(_mark)
        assert info.value is boom

    asyncio.run(main())


def test_a_cancelled_slot_is_an_unexpected_cancellation() -> None:
    async def main() -> None:
        state = _state(2)
        a, b = _claim(state, 0, 1)
        wait = wait_slots((0, 1), state)
        assert wait is not None
        a.error = asyncio.CancelledError()
        a.set()
        with pytest.raises(DialecticError, match="cancelled unexpectedly"):
            wait.values(_mark)
        assert b._callbacks is None

    asyncio.run(main())


def test_an_abandoned_slot_sends_the_call_back_to_the_fan_out() -> None:
    async def main() -> None:
        state = _state(2)
        a, b = _claim(state, 0, 1)
        wait = wait_slots((0, 1), state)
        assert wait is not None
        state.memo[0] = MISSING  # (as _Fanout.abandon leaves it)
        a.error = ABANDONED
        a.set()
        assert wait.waiter.done() and wait.redo
        assert wait.values(_mark) is None
        assert b._callbacks is None

    asyncio.run(main())


def test_a_stopped_slot_wait_leaves_the_other_callbacks() -> None:
    async def main() -> None:
        state = _state(2)
        a, b = _claim(state, 0, 1)
        seen: list[str] = []
        a.add_callback(lambda: seen.append("first"))
        wait = wait_slots((0, 1), state)
        assert wait is not None
        a.add_callback(lambda: seen.append("third"))
        wait.stop()  # the caller was cancelled
        assert b._callbacks is None
        a.value = 1
        a.set()
        assert seen == ["first", "third"]
        assert not wait.waiter.done()

    asyncio.run(main())


def test_a_runs_one_timeout_bucket_is_kept_without_a_dict(monkeypatch: pytest.MonkeyPatch) -> None:
    """The buckets a run used: the one itself, a dict from the second still armed; ``close``
    cancels the timers of both kinds whose calls have all ended."""
    # the runs' clock stands still: calls made one after the other fall in the same slice of
    # time (31 ms for a 30 s timeout) however loaded the machine is
    now = time.monotonic()
    monkeypatch.setattr(state_module, "loop_clock", lambda loop: lambda: now)

    async def main() -> None:
        state = _state(0)
        state._loop = None  # (set by the first bucket, as in a run)
        first = state.timeout_bucket(30.0)
        assert state._buckets is first and first.handle is not None
        assert state.timeout_bucket(30.0) is first and state._buckets is first
        state.close()
        assert first.handle is None and state._buckets is None
        one = state.timeout_bucket(30.0)
        other = state.timeout_bucket(1_000.0)
        assert isinstance(state._buckets, dict)
        assert set(state._buckets.values()) == {one, other}
        assert all(isinstance(b, TimeoutBucket) for b in state._buckets.values())
        state.close()
        assert one.handle is None and other.handle is None
        # a bucket whose calls have all ended stays armed for the run's next calls in its
        # slice (one timer per slice, not per call); the run's end cancels it
        state = _state(0)
        ended = state.timeout_bucket(30.0)
        task = asyncio.current_task()
        ended.tasks.add(task)
        ended.release(task)
        assert ended.handle is not None and state.timeout_bucket(30.0) is ended
        later = state.timeout_bucket(2_000.0)
        assert isinstance(state._buckets, dict) and set(state._buckets.values()) == {ended, later}
        state.close()
        assert ended.handle is None and later.handle is None

    asyncio.run(main())


# -- a fan-out keeps its children's tasks in ``out`` (no list of tasks) ---------------------


def test_an_abandoned_alias_is_evaluated_by_the_fan_out_that_waited_for_it() -> None:
    """A fan-out waiting for an alias being evaluated elsewhere starts the evaluation itself
    when it is abandoned (stopped before it began): that task is kept in ``out`` with the
    others until the values replace them."""

    async def main() -> None:
        state = _state(1)
        (slot,) = _claim(state, 0)
        gate = asyncio.Event()

        async def value(s: State) -> int:
            return 42

        async def other(s: State) -> str:
            await gate.wait()
            return "two"

        async def fill(s: State, slot: AsyncSlot) -> Any:
            raise AssertionError("the fan-out reads the slot: it does not fill it")

        kid = Compiled(aio=value)
        kid.alias = (0, fill, None, None, None)
        fan = start_native(state, ((0, kid), (1, Compiled(aio=other))), [None, None], None)
        assert fan.out[0] is None and isinstance(fan.out[1], asyncio.Task)
        assert fan.running() == [fan.out[1]]
        state.memo[0] = MISSING  # (as _Fanout.abandon leaves it)
        slot.error = ABANDONED
        slot.set()
        assert isinstance(fan.out[0], asyncio.Task) and len(fan.running()) == 2
        gate.set()
        await fan.waiter
        assert fanout_values(fan, _mark) == [42, "two"]
        assert fan.running() == []

    asyncio.run(main())


def test_a_stopped_fan_out_cancels_the_tasks_it_keeps_in_out() -> None:
    """The parent's cancellation: every child task that began is cancelled and waited for;
    the one that had not begun never runs a line."""

    async def main() -> None:
        state = _state(0)
        began: list[int] = []
        cancelled: list[int] = []

        def child(n: int) -> Compiled:
            async def run(s: State) -> int:
                began.append(n)
                try:
                    await asyncio.sleep(10)
                except asyncio.CancelledError:
                    cancelled.append(n)
                    raise
                return n

            return Compiled(aio=run)

        fan = start_native(state, ((0, child(0)), (1, child(1))), [None, None], None)
        await asyncio.sleep(0)  # both begin
        late = start_native(state, ((0, child(2)), (1, child(3))), [None, None], None)
        tasks = fan.running() + late.running()
        assert len(tasks) == 4
        fan.stop(None)
        late.stop(None)  # (its children had not begun)
        await settle_tasks(fan.running() + late.running())
        assert all(t.done() for t in tasks)
        assert sorted(began) == sorted(cancelled) == [0, 1]

    asyncio.run(main())
