"""JavaScript's methods beyond the core set that models reach for (SPEC 1.8): a number's
``toFixed`` (ties away from zero on the exact value, as JavaScript), ``lastIndexOf``,
``findLastIndex``, a text's ``concat``, ``Math.pow``, the ``Number.is...`` predicates, and
global functions passed by name (``xs.filter(Boolean)``): Node's value, or a refusal that says
what to write instead."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dialectic import Runtime

from .node_oracle import node_values

RT = Runtime(load_entry_points=False)
X = {
    "p": 12.3456,
    "s": "Hello World",
    "e": "a😀b😀c",
    "d": [3, 0, 1, 3],
    "z": ["", "x", 0, None, 2],
}

PROGRAMS = [
    "x.p.toFixed(2)",
    "x.p.toFixed()",
    "x.p.toFixed(0)",
    "(0.125).toFixed(2)",
    "(1.005).toFixed(2)",
    "(2.5).toFixed(0)",
    "(-2.5).toFixed(0)",
    "(-1.5).toFixed(0)",
    "(1e21).toFixed(2)",
    "(-0.0001).toFixed(2)",
    "(0.000001).toFixed(7)",
    "(123.456).toFixed(20)",
    "(5).toFixed(3)",
    "(2 ** 53).toFixed(1)",
    "(0.1 + 0.2).toFixed(17)",
    "(1.45).toFixed(1)",
    "(8.345).toFixed(2)",
    "x.d.lastIndexOf(3)",
    "x.d.lastIndexOf(7)",
    "x.s.lastIndexOf('o')",
    "x.s.lastIndexOf('')",
    "x.e.lastIndexOf('😀')",
    "x.e.lastIndexOf('c')",
    "x.d.findLastIndex(v => v === 3)",
    "x.d.findLastIndex(v => v > 5)",
    "x.s.concat('!', 1, true, null)",
    "Math.pow(2, 10)",
    "Math.pow(2, -1)",
    "[Number.isInteger(x.p), Number.isInteger(4), Number.isInteger('4'), Number.isInteger(4.0)]",
    "[Number.isFinite(x.p), Number.isFinite('1'), Number.isNaN(x.p)]",
    "[Number.isSafeInteger(2 ** 53), Number.isSafeInteger(2 ** 53 - 1)]",
    "x.z.filter(Boolean)",
    "x.d.map(String)",
    "x.z.map(Boolean)",
    "['1', ' 2 ', '3.5'].map(Number)",
    "x.d.every(Number.isInteger)",
    "[-1.5, 2.5].map(Math.round)",
    "x.z.findLast(Boolean)",
    # indexOf and includes from an index (counted from the end when negative, clamped)
    "[x.d.indexOf(3, 1), x.d.indexOf(3, -1), x.d.indexOf(3, 9), x.d.indexOf(3, -9)]",
    "[x.d.includes(0, 2), x.d.includes(1, -2), x.d.includes(3, 4), x.z.includes('', -99)]",
    "[x.d.indexOf(3, 1.5), x.d.indexOf(3, -1.5), x.z.indexOf(null, 1)]",
]


@pytest.mark.parametrize(
    ("program", "answer"), list(zip(PROGRAMS, node_values(PROGRAMS, X), strict=True))
)
def test_the_value_is_nodes(program: str, answer: dict[str, Any]) -> None:
    out = RT.run(f"return {program};", lang="plan", context={"x": X}, strict=True)
    assert out.status == "success", out.message
    assert json.dumps(out.value) == json.dumps(answer["ok"]), (out.value, answer)


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ("return (1.5).toFixed(101);", "0 to 100 digits"),
        ("return x.s.localeCompare(1);", "compares two texts here"),
        ("return 'é'.localeCompare('e');", "other than printable ASCII"),
        ("return 'a'.localeCompare('b', 'de');", "English's order only"),
        ("return (1).toPrecision(101);", "1 to 100 digits"),
        ("return x.p.toUpperCase();", "numbers have no method `toUpperCase`"),
        ("return x.s.concat([1]);", "JSON.stringify(x) first"),
    ],
)
def test_what_it_refuses(program: str, message: str) -> None:
    out = RT.run(program, lang="plan", context={"x": X})
    assert out.status == "failure", out.value
    text = f"{out.message} {out.error.hint if out.error else ''}"
    assert message.lower() in text.lower(), text


@pytest.mark.parametrize(
    ("program", "message", "hint"),
    [
        ("return x.d.map(parseInt);", "`parseInt` is a function", "x => parseInt(x)"),
        ("return x.d.map(Math.max);", "`Math` is a namespace", "x => Math.round(x)"),
        ("return JSON;", "`JSON` is a namespace", "JSON.stringify(x)"),
    ],
)
def test_a_function_as_a_value_says_how_to_call_it(program: str, message: str, hint: str) -> None:
    out = RT.run(program, lang="plan", context={"x": X})
    assert out.error is not None and out.error.code == "unknown_identifier"
    assert message in (out.message or "") and hint in (out.error.hint or ""), out.message
