"""`undefined` inside arrays (SPEC 1.2): an array keeps it while the program runs, as
JavaScript's does, and it is `null` in what leaves the run (the result, a function's argument,
JSON text); an object's key whose value is undefined is dropped. Checked against Node.js."""

from __future__ import annotations

from typing import Any

import pytest

import dialectic.testing
from dialectic import FunctionDescription, Runtime

from .node_oracle import node_values

SEEN: list[Any] = []


def keep(value: Any) -> Any:
    SEEN.append(value)
    return value


RT = Runtime(plugins=[dialectic.testing], load_entry_points=False)
RT.register(FunctionDescription("keep", "returns its argument", keep, {"value": "any"}, "any"))

X = {"c": None, "d": [1, 2]}

PROGRAMS = [
    "[x.c?.q, 1].filter(v => v !== undefined)",
    "[x.c?.q, 1].map(v => v === undefined)",
    "[x.c?.q, 1].map(v => v === null)",
    "[x.c?.q].includes(undefined)",
    "[x.c?.q].includes(null)",
    "[x.c?.q, null].indexOf(null)",
    "[...x.d, x.c?.q].filter(v => v === undefined).length",
    "[x.c?.q].concat([1]).filter(v => v === null).length",
    "x.d.map(v => x.c?.q).map(v => v === undefined)",
    "x.d.concat(x.c?.q)",
    "[x.c?.q, 1]",
    "{a: [x.c?.q]}",
    "Object.fromEntries([['a', 1], ['b', x.c?.q]])",
    "Object.fromEntries([['a', 1], ['a', x.c?.q]])",
    "Object.fromEntries(x.d.map(v => [String(v), x.c?.q]))",
    "JSON.stringify([x.c?.q, 1])",
    "[x.c?.q, 1].join('-')",
    "[[x.c?.q]].map(p => p[0] === undefined)",
    "[x.c?.q, 2, 1].toSorted((a, b) => a - b)",
]


ANSWERS = dict(zip(PROGRAMS, node_values(PROGRAMS, X), strict=True))


@pytest.mark.parametrize("program", PROGRAMS)
def test_the_value_is_nodes(program: str) -> None:
    out = RT.run(f"return {program};", lang="plan", context={"x": X}, strict=True)
    answer = ANSWERS[program]
    assert "ok" in answer, answer
    if out.status != "success":  # a refusal is allowed; a different value never
        assert out.error is not None and out.error.code == "expression_error", out.message
        return
    assert out.value == answer["ok"], (out.value, answer["ok"])
    assert out.to_json()["value"] == answer["ok"]


def test_a_function_receives_null_never_undefined() -> None:
    SEEN.clear()
    out = RT.run(
        "return keep({value: [x.c?.q, {a: x.d.map(v => x.c?.q)}]});",
        lang="plan",
        context={"x": X},
    )
    assert out.status == "success", out.message
    assert SEEN == [[None, {"a": [None, None]}]]
    assert out.value == [None, {"a": [None, None]}]
