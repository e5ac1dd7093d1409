"""``Runtime.run_many`` / ``run_many_async`` / ``dialectic.batch.as_completed``: many programs on
one event loop, outcomes in input order or as they finish, bounded concurrency."""

from __future__ import annotations

import asyncio
from contextlib import aclosing
from typing import Any

import anyio
import pytest
from batch_corpus import mixed_records

from dialectic import FunctionDescription, Outcome, Runtime
from dialectic.batch import as_completed


@pytest.fixture(scope="module")
def rt() -> Runtime:
    return Runtime(plugins=["batch_plugin"], load_entry_points=False)


def test_outcomes_in_input_order_equal_single_runs(rt: Runtime) -> None:
    records = mixed_records(24)
    programs = [r["program"] for r in records]
    contexts = [r.get("context") for r in records]
    many = rt.run_many(programs, contexts=contexts, concurrency=5)
    single = [rt.run(p, context=c) for p, c in zip(programs, contexts, strict=True)]
    assert [o.to_json() for o in many] == [o.to_json() for o in single]
    assert {o.status for o in many} == {"success", "failure", "ambiguous"}
    assert many[0].value == 0 and many[6].value == 12  # double(n) with its own context


def test_on_outcome_reports_each_index_once(rt: Runtime) -> None:
    seen: list[tuple[int, str]] = []
    outs = rt.run_many(
        ["return double(3);", "return nope();", "return double(4);"],
        on_outcome=lambda i, o: seen.append((i, o.status)),
    )
    assert sorted(seen) == [(0, "success"), (1, "failure"), (2, "success")]
    assert [o.value for o in outs] == [6, None, 8]


def test_concurrency_bounds_programs_across_the_batch() -> None:
    running = 0
    peak = 0

    async def busy(x: int) -> int:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.002)
        running -= 1
        return x

    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("busy", "b", busy, {"x": "integer"}, "integer"))
    # each program makes two concurrent calls: 3 programs at once are 6 calls at once
    outs = rt.run_many(["return [busy(1), busy(2)];"] * 20, concurrency=3)
    assert all(o.value == [1, 2] for o in outs)
    assert peak == 6


def test_limits_apply_to_the_batch_only(rt: Runtime) -> None:
    outs = rt.run_many(["return nap(2, 'late');", "return double(1);"], limits={"deadline": 0.2})
    assert outs[0].status == "failure" and outs[0].error is not None
    assert outs[0].error.code == "limit_exceeded"
    assert outs[1].value == 2
    assert rt.limits.deadline == 120.0  # the runtime's own limits are untouched
    assert rt.run("return upper('a');").value == "A"


def test_contexts_must_match_programs(rt: Runtime) -> None:
    with pytest.raises(ValueError, match="more items than programs"):
        rt.run_many(["return 1;"], contexts=[{}, {}])
    with pytest.raises(ValueError, match="fewer items"):
        rt.run_many(["return 1;", "return 2;"], contexts=[{}])
    with pytest.raises(ValueError, match="one context per program"):
        rt.run_many(["return 1;"], contexts={"a": 1})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="concurrency"):
        rt.run_many(["return 1;"], concurrency=0)


def test_one_program_in_place_of_a_list_is_refused(rt: Runtime) -> None:
    # was: each character ran as a program of its own (9 outcomes for "return 1;")
    for one in ("return 1;", b"[1]", {"double": {"x": 2}}):
        with pytest.raises(ValueError, match="pass \\[program\\]"):
            rt.run_many(one)


def test_a_bad_program_never_stops_the_batch(rt: Runtime) -> None:
    outs = rt.run_many([object(), "return (", b"\xff", {"double": {"x": 2}}])
    assert [o.status for o in outs] == ["failure", "failure", "failure", "success"]
    assert all(o.message for o in outs[:3])


def test_async_twin_on_asyncio_and_trio(rt: Runtime) -> None:
    async def main() -> list[Outcome]:
        return await rt.run_many_async(
            ["return double(n);"] * 4, contexts=[{"n": i} for i in range(4)]
        )

    for backend in ("asyncio", "trio"):
        outs = anyio.run(main, backend=backend)
        assert [o.value for o in outs] == [0, 2, 4, 6]


def test_run_many_inside_a_running_loop(rt: Runtime) -> None:
    async def main() -> list[Any]:
        return [o.value for o in rt.run_many(["return double(5);"])]

    assert asyncio.run(main()) == [10]


def test_as_completed_yields_every_index_and_cleans_up(rt: Runtime) -> None:
    async def all_of_them() -> list[tuple[int, Any]]:
        found = []
        async for index, outcome in as_completed(
            rt,
            ["return nap(s, t);"] * 5,
            contexts=[{"s": 0.05 - i * 0.01, "t": str(i)} for i in range(5)],
        ):
            found.append((index, outcome.value))
        return found

    found = asyncio.run(all_of_them())
    assert sorted(found) == [(i, str(i)) for i in range(5)]
    assert found[0] == (4, "4")  # the shortest nap finishes first

    async def leave_early() -> int:
        async with aclosing(
            as_completed(rt, ["return nap(0.01, 'a');"] + ["return nap(30, 'b');"] * 3)
        ) as stream:
            async for index, _ in stream:
                assert index == 0
                break
        # the three 30 s naps were cancelled: only this task is left
        return len(asyncio.all_tasks())

    assert asyncio.run(leave_early()) == 1


def test_kept_outcomes_are_frozen_out_of_the_collector_until_the_batch_ends(rt: Runtime) -> None:
    """Every 1,000 kept outcomes the heap is frozen (the collector's full collections then do
    not scan them again and again); the batch unfreezes it as it ends. A host that keeps
    objects frozen itself is left alone."""
    import gc

    from dialectic.batch.local import FREEZE_EVERY

    frozen_during: list[int] = []

    def seen(i: int, outcome: Outcome) -> None:
        if i == FREEZE_EVERY + 10:
            frozen_during.append(gc.get_freeze_count())

    n = FREEZE_EVERY + 20
    outs = rt.run_many(
        ["return double(n);"] * n,
        contexts=[{"n": i} for i in range(n)],
        concurrency=1,
        on_outcome=seen,
    )
    assert [o.value for o in outs] == [2 * i for i in range(n)]
    assert frozen_during and frozen_during[0] > 0
    assert gc.get_freeze_count() == 0  # unfrozen when the batch ended

    gc.freeze()  # the host's own
    try:
        host = gc.get_freeze_count()
        rt.run_many(["return double(1);"] * n, on_outcome=seen)
        # not unfrozen (nor frozen further) by the batch: only the host's objects that died left
        assert 0 < gc.get_freeze_count() <= host
    finally:
        gc.unfreeze()
