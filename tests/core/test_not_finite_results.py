"""A registered function's NaN never enters a run, and no infinity or NaN leaves one (SPEC 1.7
and 5): ``Outcome.to_json()`` would write either as ``null``, a success with a wrong value.

The asynchronous result path had a shortcut for a number that skipped the check (an infinity a
program made, or one an asynchronous function returned, came out as ``null``)."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from dialectic import FunctionDescription, Runtime

NAN = math.nan


async def a_inf() -> float:
    await asyncio.sleep(0)
    return math.inf


async def a_nan() -> float:
    await asyncio.sleep(0)
    return NAN


async def a_num(v: float) -> float:
    await asyncio.sleep(0)
    return v


def _runtime() -> Runtime:
    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("nan", "NaN", lambda: NAN, {}, "number"))
    rt.register(FunctionDescription("anyNan", "NaN", lambda: NAN, {}, "any"))
    rt.register(FunctionDescription("nested", "a NaN inside", lambda: {"a": [1.5, NAN]}, {}, "any"))
    rt.register(FunctionDescription("long", "many floats", lambda: [0.5] * 50 + [NAN], {}, "any"))
    rt.register(FunctionDescription("tupled", "a tuple", lambda: (1, (2.5, NAN)), {}, "any"))
    rt.register(FunctionDescription("huge", "big and float", lambda: [10**400, 1.5], {}, "any"))
    rt.register(FunctionDescription("aInf", "an infinity", a_inf, {}, "number"))
    rt.register(FunctionDescription("aNan", "NaN", a_nan, {}, "number"))
    rt.register(FunctionDescription("aNum", "a number", a_num, {"v": "number"}, "number"))
    rt.register(FunctionDescription("ident", "itself", lambda x: x, {"x": "any"}, "any"))
    return rt


RT = _runtime()


@pytest.mark.parametrize(
    ("program", "where"),
    [
        ("return nan();", "`nan`"),
        ("return anyNan() ? 1 : 2;", "`anyNan`"),
        ("return nested().a[0];", "NaN at $.a[1]"),
        ("return long().length;", "NaN at $[50]"),
        ("return tupled()[0];", "NaN at $[1][1]"),
        ("return ident(nested());", "`nested`"),
        ("return aNan();", "`aNan`"),
        ("const x = aNan(); return [x, 1];", "`aNan`"),
    ],
)
def test_a_functions_nan_is_refused_where_it_enters(program: str, where: str) -> None:
    out = RT.run(program, lang="plan")
    assert out.status == "failure", out.to_json()
    assert out.error is not None and out.error.code == "invalid_value"
    assert where in (out.message or "") and "NaN" in (out.message or "")


@pytest.mark.parametrize(
    ("program", "shown"),
    [
        ("return aInf();", "the result holds Infinity"),
        ("return aNum(2) > 1 ? 1 / 0 : 2;", "the result holds Infinity"),
        ("return aNum(2) > 1 ? -1 / 0 : 2;", "the result holds -Infinity"),
        ("const r = aNum(1); return [r, r / 0];", "the result holds Infinity at $[1]"),
    ],
)
def test_an_infinity_leaving_an_asynchronous_run_is_refused(program: str, shown: str) -> None:
    out = RT.run(program, lang="plan")
    assert out.status == "failure", out.to_json()
    assert shown in (out.message or "")


def test_the_json_notation_refuses_the_same() -> None:
    out = RT.run('{"aInf": {}}', lang="json")
    assert out.status == "failure" and "Infinity" in (out.message or "")
    out = RT.run('{"nested": {}}', lang="json")
    assert out.status == "failure" and "NaN at $.a[1]" in (out.message or "")


@pytest.mark.parametrize(
    ("program", "value"),
    [
        ("return aNum(2.5) * 2;", 5.0),
        ("return huge()[1];", 1.5),
        (
            "return [Number.isNaN(aNum(1.5)), Number.isFinite(aNum(1.5)), isFinite(aNum(2))];",
            [False, True, True],
        ),
        ("return JSON.stringify([aNum(0.5), 1 / 0]);", "[0.5,null]"),
    ],
)
def test_finite_numbers_pass(program: str, value: Any) -> None:
    out = RT.run(program, lang="plan")
    assert out.status == "success", out.to_json()
    assert out.value == value
