"""A run owns nothing after it ends: a function that mutates its argument must not change a
quoted literal of the (cached) program or a registered constant for the next run."""

from __future__ import annotations

import math
from typing import Any

import pytest

from dialectic import Constant, FunctionDescription, Runtime
from dialectic.values.data import copier, copy_structure


def push(items: list[Any], x: Any) -> list[Any]:
    items.append(x)
    return items


async def apush(items: list[Any], x: Any) -> list[Any]:
    items.append(x)
    return items


def setk(o: dict[str, Any]) -> dict[str, Any]:
    o["k"] = o.get("k", 0) + 1
    return o


@pytest.fixture
def rt() -> Runtime:
    runtime = Runtime(load_entry_points=False)
    runtime.register(
        FunctionDescription("push", "append", push, {"items": "array", "x": "any"}, "array"),
        FunctionDescription("apush", "append", apush, {"items": "array", "x": "any"}, "array"),
        FunctionDescription("setk", "count", setk, {"o": "object"}, "object"),
        Constant("defaults", "a list", [1, 2]),
        Constant("config", "an object", {"a": {"b": 1}}),
    )
    return runtime


@pytest.mark.parametrize(
    ("program", "lang", "expected"),
    [
        ({"push": [{"$quote": [1, 2]}, 3]}, None, [1, 2, 3]),
        ({"push": {"items": {"$quote": [1, 2]}, "x": {"$quote": [9]}}}, None, [1, 2, [9]]),
        ({"setk": {"o": {"$quote": {"a": 1}}}}, None, {"a": 1, "k": 1}),
        # member access into a quoted literal hands out a part of it
        ({"setk": {"o": {"$get": [{"$quote": {"a": {"b": 1}}}, "a"]}}}, None, {"b": 1, "k": 1}),
        # asynchronous calls, launched concurrently
        (
            [{"apush": [{"$quote": [1]}, 3]}, {"apush": [{"$quote": [1]}, 4]}],
            None,
            [[1, 3], [1, 4]],
        ),
        ("return push(defaults, 3);", "plan", [1, 2, 3]),
        ("return setk(config.a);", "plan", {"b": 1, "k": 1}),
        ("result:\n  push:\n    items: ${defaults}\n    x: 5\n", "plan2", [1, 2, 5]),
    ],
)
def test_a_mutating_function_does_not_change_the_next_run(
    rt: Runtime, program: Any, lang: str | None, expected: Any
) -> None:
    values = [rt.run(program, lang=lang) for _ in range(3)]
    for out in values:
        assert out.status == "success", out.message
        assert out.value == expected


def test_constants_keep_their_value(rt: Runtime) -> None:
    rt.run("return push(defaults, 3);", lang="plan")
    rt.run("return setk(config.a);", lang="plan")
    assert rt.run("return [defaults, config];", lang="plan").value == [[1, 2], {"a": {"b": 1}}]


def test_copier_shares_scalars_and_copies_json_exactly() -> None:
    assert copier("text") is None and copier(3) is None and copier(None) is None
    # JSON data (orjson's copy) and data orjson cannot write (an integer beyond 64 bits)
    values: list[Any] = [
        {"a": [1, 2.5, True, None, "x", {"b": -0.0}]},
        {"a": [1, 2.5, True, None, "x", {"b": -0.0}], "n": 10**30},
    ]
    for value in values:
        fresh = copier(value)
        assert fresh is not None
        copy: Any = fresh()
        assert copy == value and copy is not value
        assert copy["a"] is not value["a"] and copy["a"][5] is not value["a"][5]
        assert type(copy["a"][2]) is bool and math.copysign(1, copy["a"][5]["b"]) == -1


def test_copier_falls_back_to_a_structural_copy() -> None:
    class Opaque:
        pass

    thing = Opaque()
    for value in ([math.nan, 1], [thing, [1]], {"t": (1, 2)}):
        fresh = copier(value)
        assert fresh is not None
        copy = fresh()
        assert copy is not value
    assert fresh is not None
    # objects that are not lists or dicts are shared, as they are
    assert copier([thing, [1]])()[0] is thing  # type: ignore[misc]


def test_copy_structure_has_no_depth_limit() -> None:
    deep: Any = []
    cur = deep
    for _ in range(100_000):
        nxt: list[Any] = []
        cur.append(nxt)
        cur = nxt
    copy = copy_structure(deep)
    depth = 0
    while copy:
        copy = copy[0]
        depth += 1
    assert depth == 100_000
