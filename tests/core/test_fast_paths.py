"""The speed-ups keep the behaviour: each fast path against the slow path it replaced.

- ``measure`` checks a program level by level with no JSON paths, and on any problem walks
  again with paths (``_locate``): both must agree on every program, good or bad;
- resolving and compiling leave no cyclic garbage (their dispatch tables are cleared);
- an alias slot creates its event only when a second reader waits, and the waiters still wake;
- call timeouts share one timer per millisecond across the runs of a loop: each run still
  times out its own calls, and a run that ends leaves the others' timers alone;
- the two-children fast path of ``sync_many`` reports ambiguities as the general one does;
- ``===`` of two values of the same primitive type is Python's ``==``, as before.
"""

from __future__ import annotations

import asyncio
import gc
import random
from typing import Any

import pytest

from dialectic import Ambiguous, Candidate, FunctionDescription, Limits, Runtime
from dialectic.outcome.errors import DialecticError
from dialectic.run.gather import sync_many
from dialectic.run.state import AsyncSlot
from dialectic.tree.parse import _locate, measure
from dialectic.values.jsops import _primitive, is_number, strict_equal

LIMITS = Limits(max_depth=6, max_nodes=60, max_string_length=8)
SCALARS: list[Any] = [
    1,
    2.5,
    -0.0,
    10**30,
    True,
    None,
    "abc",
    "x" * 9,  # longer than the limit
    "é",  # valid non-ASCII text
    "\ud800",  # a lone surrogate
    float("nan"),
    float("inf"),
    (1,),  # not JSON
    b"x",
]


def _random_program(rng: random.Random, depth: int = 1) -> Any:
    r = rng.random()
    if depth > 8 or r < 0.3:
        return rng.choice(SCALARS)
    if r < 0.65:
        keys = ["a", "$b", "é", "\udc00", 3]
        return {
            (rng.choice(keys) if rng.random() < 0.1 else f"k{i}"): _random_program(rng, depth + 1)
            for i in range(rng.randint(0, 4))
        }
    return [_random_program(rng, depth + 1) for _ in range(rng.randint(0, 4))]


def _outcome(check: Any, program: Any) -> tuple[Any, ...]:
    try:
        return ("ok", check(program, LIMITS))
    except DialecticError as exc:
        return (exc.code, exc.message, exc.path)


def test_measure_agrees_with_the_located_walk() -> None:
    rng = random.Random(20261123)
    kinds: set[str] = set()
    for _ in range(3000):
        program = _random_program(rng)
        fast, slow = _outcome(measure, program), _outcome(_locate, program)
        assert fast == slow, program
        kinds.add(fast[0] if fast[0] == "ok" else fast[1].split(" ")[0])
    assert "ok" in kinds and len(kinds) > 3  # good programs and several kinds of bad ones


@pytest.mark.parametrize(
    ("program", "code", "path"),
    [
        ({"a": [1, {"b": "\ud800"}]}, "invalid_program", ("a", 1, "b")),
        ([[[[[[[1]]]]]]], "limit_exceeded", (0, 0, 0, 0, 0, 0)),
        ({"a": float("nan")}, "invalid_program", ("a",)),
        ({"k": "x" * 9}, "limit_exceeded", ("k",)),
    ],
)
def test_measure_reports_where(program: Any, code: str, path: tuple[Any, ...]) -> None:
    with pytest.raises(DialecticError) as info:
        measure(program, LIMITS)
    assert (info.value.code, info.value.path) == (code, path)


def test_measure_accepts_valid_unicode_without_the_slow_walk() -> None:
    assert measure({"café": ["naïve", "日本"]}, LIMITS) == 4


def test_preparing_leaves_no_cyclic_garbage() -> None:
    rt = Runtime(load_entry_points=False)
    program = {"$let": {"a": {"upper": "x"}}, "$return": {"$template": [{"$ref": "a"}, "!"]}}
    rt.prepare(program).run()  # warm: first use builds caches (of both front ends: this
    rt.prepare("a = upper('w');\nreturn [a, a + 'v'];", lang="plan").run()  # test may run alone)
    gc.collect()
    paused = gc.isenabled()
    gc.disable()
    try:
        for text in ("return upper('x') + 'y';", "a = upper('x');\nreturn [a, a];"):
            prepared = rt.prepare(text + " // fresh", lang="plan")
            assert prepared.run().status == "success"
            del prepared
        rt._cache.clear()
        prepared = rt.prepare(program)
        assert prepared.run().value == "X!"
        del prepared
        assert gc.collect() == 0
    finally:
        if paused:
            gc.enable()


def test_an_alias_slot_makes_its_event_only_for_a_waiter() -> None:
    async def main() -> None:
        slot = AsyncSlot()
        slot.value = 7
        slot.set()
        assert slot._event is None  # nobody waited
        assert slot.done and slot.event.is_set()  # created set, for a late reader

        waited = AsyncSlot()

        async def reader() -> Any:
            await waited.event.wait()
            return waited.value

        task = asyncio.create_task(reader())
        await asyncio.sleep(0)
        waited.value = 8
        waited.set()
        assert await task == 8

    asyncio.run(main())


async def _shared_value(x: int) -> int:
    await asyncio.sleep(0.02)
    return x


def test_an_alias_read_twice_concurrently_runs_once() -> None:
    calls: list[int] = []

    async def fetch(x: int) -> int:
        calls.append(x)
        await asyncio.sleep(0.01)
        return x * 10

    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("fetch", "f", fetch, {"x": "integer"}, "integer"))
    rt.register(FunctionDescription("add", "a", _add, {"a": "integer", "b": "integer"}, "integer"))
    program = "a = fetch(1);\nb = add(a, 1);\nc = add(a, 2);\nreturn [b, c, a];"
    out = rt.run(program, lang="plan")
    assert (out.status, out.value, calls) == ("success", [11, 12, 10], [1])


async def _add(a: int, b: int) -> int:
    await asyncio.sleep(0)
    return a + b


def test_call_timeouts_shared_across_runs_stay_per_call() -> None:
    async def slow(seconds: float) -> float:
        await asyncio.sleep(seconds)
        return seconds

    rt = Runtime(load_entry_points=False, limits=Limits(call_timeout=0.2))
    rt.register(FunctionDescription("slow", "s", slow, {"seconds": "number"}, "number"))
    fast = rt.prepare("return [slow(0), slow(0.01)];", lang="plan")
    stuck = rt.prepare("return [slow(5), slow(0)];", lang="plan")

    async def main() -> list[Any]:
        loop = asyncio.get_running_loop()
        outs = await asyncio.gather(*(p.run_async() for p in (fast, stuck, fast, stuck)))
        await asyncio.sleep(0)
        live = [h for h in loop._scheduled if not h.cancelled()]  # type: ignore[attr-defined]
        return [*outs, live]

    *outs, live = asyncio.run(main())
    assert [o.status for o in outs] == ["success", "failure", "success", "failure"]
    assert outs[0].value == [0, 0.01]
    assert all(o.error.details.get("limit") == "call_timeout" for o in outs[1::2])
    assert live == []  # every timer of the runs is gone


def test_two_ambiguous_children_report_both_in_order() -> None:
    from dialectic.run.compiled import AmbiguityError, AmbiguityItem

    def ambiguous(label: str) -> Any:
        def fn(state: Any) -> Any:
            raise AmbiguityError([AmbiguityItem(label, [], (label,), label)])

        return fn

    def fine(state: Any) -> Any:
        return 1

    for kids, expected in (
        ([ambiguous("a"), ambiguous("b")], ["a", "b"]),
        ([ambiguous("a"), fine], ["a"]),
        ([fine, ambiguous("b")], ["b"]),
    ):
        with pytest.raises(AmbiguityError) as info:
            sync_many(kids)(None)  # type: ignore[arg-type]
        assert [i.message for i in info.value.items] == expected
    assert sync_many([fine, fine])(None) == [1, 1]  # type: ignore[arg-type]
    assert sync_many([fine])(None) == [1]  # type: ignore[arg-type]


def test_ambiguity_in_two_arguments_is_still_reported_whole() -> None:
    def pick(name: str) -> str:
        raise Ambiguous(
            f"which {name}?",
            [Candidate(f"{name} one", {"pick": {"name": f"{name}1"}})],
        )

    def pair(a: str, b: str) -> str:
        return a + b

    rt = Runtime(load_entry_points=False)
    rt.register(
        FunctionDescription("pick", "p", pick, {"name": "string"}, "string"),
        FunctionDescription("pair", "p", pair, {"a": "string", "b": "string"}, "string"),
    )
    out = rt.run({"pair": {"a": {"pick": "x"}, "b": {"pick": "y"}}})
    assert out.status == "ambiguous"
    assert "which x?" in (out.message or "") and "which y?" in (out.message or "")


def _strict_equal_before(a: Any, b: Any) -> bool:
    pa, pb = _primitive(a), _primitive(b)
    if pa and pb:
        if is_number(a) and is_number(b):
            return bool(a == b)
        return type(a) is type(b) and a == b
    return False


@pytest.mark.parametrize(
    "pair",
    [("a", "a"), ("a", "b"), (1, 1), (1, 1.0), (float("nan"),) * 2, (True, 1), (True, True)],
)
def test_strict_equal_fast_path(pair: tuple[Any, Any]) -> None:
    assert strict_equal(*pair) == _strict_equal_before(*pair)


def _big_program() -> Any:
    return [{"upper": f"x{i}"} for i in range(3_000)]


BIG = Limits(max_nodes=100_000, max_calls=100_000)


def test_a_large_prepared_program_skips_the_young_collections() -> None:
    rt = Runtime(load_entry_points=False, limits=BIG)
    gc.collect()
    prepared = rt.prepare(_big_program())
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert gc.get_count()[0] < 1_000  # its objects went straight to the oldest generation
    assert prepared.run().value[-1] == "X2999"


def test_objects_the_host_froze_stay_frozen() -> None:
    rt = Runtime(load_entry_points=False, limits=BIG)
    rt.prepare(_big_program())  # (warms the process's caches: what they evict is freed)
    gc.collect()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 1_000
        rt.prepare([{"upper": f"y{i}"} for i in range(3_000)])
        # an unfreeze would move every frozen object back; a frozen object that a cache of
        # the process (re, functools.lru_cache) evicts while preparing is freed, and leaves
        # the count too: a handful, whatever the order the tests ran in
        assert gc.get_freeze_count() > frozen - 100
    finally:
        gc.unfreeze()
