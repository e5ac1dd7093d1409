"""Memory of long batches: a failed run leaves no cyclic garbage (its exceptions let go of their
tracebacks), and ``run_many`` freezes no garbage a run left with the outcomes it keeps (a plugin's
failing function may leave a cycle of its own), so a batch of failures grows no faster than one
of successes. Counted in objects, never in time."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

import dialectic.batch.local as local
from dialectic import FunctionDescription, Runtime


class Junk:
    """A plugin's cyclic garbage: one per failing call, counted through weak references."""

    def __init__(self) -> None:
        self.me = self


LIVE: weakref.WeakSet[Junk] = weakref.WeakSet()


async def step(a: int, b: int) -> int:
    await asyncio.sleep(0)
    if b < 0:  # -1: fails; -2: fails, leaving a cycle of its own
        if b == -2:
            LIVE.add(Junk())
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


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector on and nothing frozen (as ``run_many`` needs to freeze), as it was after."""
    was = gc.isenabled()
    gc.enable()
    gc.collect()
    yield
    if not was:
        gc.disable()


def garbage_after(run: Any) -> int:
    """How many objects only the cyclic collector could free after ``run()`` (the collector
    paused meanwhile, so none is freed early)."""
    gc.collect()
    gc.disable()
    try:
        run()
        return gc.collect()
    finally:
        gc.enable()


@pytest.mark.parametrize("bad", [2, -1], ids=["success", "failure"])
def test_a_run_leaves_no_cyclic_garbage(rt: Runtime, collector: None, bad: int) -> None:
    prepared = rt.prepare(PROGRAM, lang="plan")
    prepared.run({"seed": 0, "bad": bad})  # warm: nothing left from first uses

    def runs() -> None:
        for i in range(20):
            out = prepared.run({"seed": i, "bad": bad})
            assert out.status == ("success" if bad == 2 else "failure"), out.message

    async def async_runs() -> None:
        for i in range(20):
            out = await prepared.run_async({"seed": i, "bad": bad})
            assert out.status == ("success" if bad == 2 else "failure"), out.message

    # a failed run used to leave its whole state (tasks, frames, slots): ~40 objects each
    assert garbage_after(runs) < 20
    assert garbage_after(lambda: asyncio.run(async_runs())) < 20


def test_an_ambiguous_or_synchronous_failure_leaves_no_cycle(rt: Runtime, collector: None) -> None:
    # the synchronous path memoizes an alias's error too (the same cycle through its frames)
    programs = ["x = upper(1 / 0); y = x; return [x, y];", "return step(1, -1);"]
    for program in programs:
        rt.run(program, lang="plan")

    def runs() -> None:
        for _ in range(10):
            for program in programs:
                assert rt.run(program, lang="plan").status == "failure"

    assert garbage_after(runs) < 20


def test_a_batch_of_failures_freezes_no_garbage(
    rt: Runtime, collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(local, "FREEZE_EVERY", 50)
    n = 1_500
    alive_at_end: list[int] = []

    def on_outcome(index: int, outcome: Any) -> None:
        assert outcome.status == "failure"
        if len(alive_at_end) == 0 and index == n - 1:
            alive_at_end.append(len(LIVE))

    LIVE.clear()
    outs = rt.run_many(
        [PROGRAM] * n,
        contexts=[{"seed": i, "bad": -2} for i in range(n)],
        lang="plan",
        concurrency=20,
        on_outcome=on_outcome,
    )
    assert len(outs) == n and len(alive_at_end) == 1
    # frozen with the outcomes, the junk a collection had not found yet stayed until the batch
    # ended (a fifth of it, ~300, growing with the batch); collected before each freeze, at
    # most the junk of the first stretch (a young collection) and of the last are left
    assert alive_at_end[0] <= 2 * 50, alive_at_end
    assert gc.get_freeze_count() == 0  # the batch unfroze what it froze
    gc.collect()
    assert len(LIVE) == 0


def test_a_batch_of_successes_does_not_collect(
    rt: Runtime, collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Successes leave nothing: their batch freezes with no collection first (its speed); a
    batch with failures collects before its freezes."""
    monkeypatch.setattr(local, "FREEZE_EVERY", 50)
    calls: list[tuple[Any, ...]] = []
    collect = gc.collect

    def counted(*args: Any) -> int:
        calls.append(args)
        return collect(*args)

    monkeypatch.setattr(gc, "collect", counted)
    for bad, expected in ((2, "success"), (-2, "failure")):
        calls.clear()
        outs = rt.run_many(
            [PROGRAM] * 500,
            contexts=[{"seed": i, "bad": bad} for i in range(500)],
            lang="plan",
            concurrency=20,
        )
        assert {o.status for o in outs} == {expected}
        if expected == "success":
            assert calls == []
        else:  # the first freeze after a young collection, the others after a full one
            assert calls[0] == (1,) and calls[1:] == [(2,)] * 9
    LIVE.clear()
