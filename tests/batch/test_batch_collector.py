"""The collector's young-generation threshold while a batch runs (dialectic/batch/collector.py):
raised for the batch's length, put back when the last batch ends, also when it raises or is
cancelled; left alone when the collector is off or the host changes it meanwhile; nothing stays
frozen. Counted in settings, never in time."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from typing import Any

import pytest

from dialectic import FunctionDescription, Runtime
from dialectic.batch import collector
from dialectic.batch.collector import GEN0_CEILING, GEN0_FLOOR, batch_gen0, batches_running


async def step(a: int, b: int) -> int:
    await asyncio.sleep(0)
    if b < 0:
        raise ValueError(f"no step from {a}")
    return (a * 31 + b) % 1_000_003


@pytest.fixture(scope="module")
def rt() -> Runtime:
    runtime = Runtime(load_entry_points=False)
    runtime.register(
        FunctionDescription("step", "combine", step, {"a": "integer", "b": "integer"}, "integer")
    )
    return runtime


PROGRAM = "a = step(seed, 1); b = step(seed, bad); return step(a, b);"
HOST = (900, 11, 12)  # a host's own setting (not CPython's default: restoring it is seen)


@pytest.fixture
def host() -> Iterator[None]:
    """The collector on, at the host's threshold, nothing frozen; as it was after."""
    was, threshold = gc.isenabled(), gc.get_threshold()
    gc.enable()
    gc.set_threshold(*HOST)
    yield
    gc.set_threshold(*threshold)
    if not was:
        gc.disable()


def contexts(n: int, bad: int = 2) -> list[dict[str, Any]]:
    return [{"seed": i, "bad": bad} for i in range(n)]


def test_the_threshold_grows_with_concurrency_within_bounds() -> None:
    assert batch_gen0(1) == GEN0_FLOOR
    assert batch_gen0(100) == max(GEN0_FLOOR, 100 * collector.GEN0_PER_PROGRAM)
    assert batch_gen0(10_000) == GEN0_CEILING
    assert GEN0_FLOOR < batch_gen0(500) < GEN0_CEILING


def test_raised_while_a_batch_runs_and_restored_after(rt: Runtime, host: None) -> None:
    seen: list[tuple[int, int, int]] = []
    outs = rt.run_many(
        [PROGRAM] * 30,
        contexts=contexts(30),
        lang="plan",
        concurrency=10,
        on_outcome=lambda i, o: seen.append(gc.get_threshold()),
    )
    assert [o.status for o in outs] == ["success"] * 30
    assert set(seen) == {(batch_gen0(10), HOST[1], HOST[2])}
    assert gc.get_threshold() == HOST
    assert batches_running() == 0
    assert gc.get_freeze_count() == 0


def test_restored_when_the_batch_raises(rt: Runtime, host: None) -> None:
    def on_outcome(index: int, outcome: Any) -> None:
        assert gc.get_threshold()[0] == batch_gen0(5)
        if index == 7:
            raise RuntimeError("the host's callback failed")

    with pytest.raises(RuntimeError, match="the host's callback failed"):
        rt.run_many(
            [PROGRAM] * 40, contexts=contexts(40), lang="plan", concurrency=5, on_outcome=on_outcome
        )
    assert gc.get_threshold() == HOST
    assert batches_running() == 0
    assert gc.get_freeze_count() == 0


def test_failed_programs_do_not_change_it(rt: Runtime, host: None) -> None:
    outs = rt.run_many([PROGRAM] * 20, contexts=contexts(20, bad=-1), lang="plan", concurrency=4)
    assert {o.status for o in outs} == {"failure"}
    assert gc.get_threshold() == HOST


def test_restored_when_the_batch_is_cancelled(rt: Runtime, host: None) -> None:
    started = 0
    during: list[int] = []

    def on_outcome(index: int, outcome: Any) -> None:
        nonlocal started
        started += 1
        during.append(gc.get_threshold()[0])

    async def main() -> None:
        task = asyncio.create_task(
            rt.run_many_async(
                [PROGRAM] * 10_000,
                contexts=contexts(10_000),
                lang="plan",
                concurrency=8,
                on_outcome=on_outcome,
            )
        )
        while started < 20:
            await asyncio.sleep(0)
        assert batches_running() == 1
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert gc.get_threshold() == HOST  # as the cancelled batch returns, not later

    asyncio.run(main())
    assert set(during) == {batch_gen0(8)}
    assert started < 10_000
    assert batches_running() == 0
    assert gc.get_freeze_count() == 0


def test_overlapping_batches_restore_once_the_last_ends(rt: Runtime, host: None) -> None:
    """Two batches on one loop: the larger's threshold while both run, the host's only after
    the last ends (not when the first one does)."""
    after_first: list[tuple[int, int, int]] = []

    async def main() -> None:
        small = asyncio.create_task(
            rt.run_many_async([PROGRAM] * 5, contexts=contexts(5), lang="plan", concurrency=2)
        )
        big = asyncio.create_task(
            rt.run_many_async(
                [PROGRAM] * 4_000, contexts=contexts(4_000), lang="plan", concurrency=200
            )
        )
        await small
        assert not big.done()
        after_first.append(gc.get_threshold())
        await big

    asyncio.run(main())
    assert after_first == [(batch_gen0(200), HOST[1], HOST[2])]
    assert gc.get_threshold() == HOST
    assert batches_running() == 0


def test_a_change_the_host_makes_meanwhile_is_kept(rt: Runtime, host: None) -> None:
    def on_outcome(index: int, outcome: Any) -> None:
        if index == 3:
            gc.set_threshold(5_000, 7, 7)

    rt.run_many(
        [PROGRAM] * 20, contexts=contexts(20), lang="plan", concurrency=4, on_outcome=on_outcome
    )
    assert gc.get_threshold() == (5_000, 7, 7)
    assert batches_running() == 0


def test_left_alone_when_collection_is_off_or_already_higher(rt: Runtime, host: None) -> None:
    seen: list[tuple[int, int, int]] = []

    def on_outcome(index: int, outcome: Any) -> None:
        seen.append(gc.get_threshold())

    gc.disable()
    try:
        rt.run_many(
            [PROGRAM] * 10, contexts=contexts(10), lang="plan", concurrency=4, on_outcome=on_outcome
        )
    finally:
        gc.enable()
    assert set(seen) == {HOST}
    for already in ((0, 10, 10), (GEN0_CEILING + 1, 10, 10)):
        gc.set_threshold(*already)
        seen.clear()
        rt.run_many(
            [PROGRAM] * 10, contexts=contexts(10), lang="plan", concurrency=4, on_outcome=on_outcome
        )
        assert set(seen) == {already}
        assert gc.get_threshold() == already
    assert batches_running() == 0
