"""`undefined` inside arrays and objects (SPEC 1.2): they keep it while the program runs, as
JavaScript's do, and in what leaves the run (the result, a function's argument, JSON text) it
is `null` in an array and an object's member holding it is left out. Checked against Node.js."""

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
    # an object keeps an undefined member while the program runs (Object.keys lists it, a
    # spread takes it), and leaves it out of what leaves the run: they were dropped when the
    # object was made, so `{...p, ...u}` kept p's member and Object.keys did not list it
    "Object.keys({a: x.c?.q, b: 1})",
    "Object.values({a: x.c?.q, b: 1}).length",
    "Object.entries({a: x.c?.q, b: 1})",
    "Object.keys(Object.fromEntries([['a', x.c?.q]]))",
    "{...{a: 1, b: 2}, ...Object.fromEntries([['a', x.c?.q]])}",
    "{...{a: 1, b: 2}, [x.d.length > 1 ? 'a' : 'b']: x.c?.q}",
    "[{a: 1, b: 2}].map(p => ({...p, ...{a: x.c?.q}}))",
    "Object.keys({...{a: 1, b: 2}, a: x.c?.q, ...{a: 3}})",
    "Object.values({a: [].at(1), b: 1}).at(0) === undefined",
    "JSON.stringify({a: x.c?.q, b: [x.c?.q]})",
    "[{a: x.c?.q}]",
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


def test_an_undefined_member_spread_from_an_alias_replaces_the_member_before_it() -> None:
    program = "const u = {a: x.c?.q}; return {...x.e, ...u, n: Object.keys(u)};"
    [answer] = node_values([f"(() => {{ {program} }})()"], {**X, "e": {"a": 1, "b": 2}})
    out = RT.run(program, lang="plan", context={"x": {**X, "e": {"a": 1, "b": 2}}})
    assert out.status == "success", out.message
    assert out.value == answer["ok"] == {"b": 2, "n": ["a"]}


def test_a_function_receives_no_undefined_member_and_no_undefined_item() -> None:
    SEEN.clear()
    out = RT.run(
        "const o = {a: x.c?.q, b: 1}; return [keep({value: o}), keep([undefined]), "
        "keep({value: {p: undefined}}), norm({x: 3, y: 4, z: x.c?.q})];",
        lang="plan",
        context={"x": X},
    )
    assert out.status == "success", out.message
    assert SEEN == [{"b": 1}, [None], {}]
    assert out.value == [{"b": 1}, [None], {}, 5.0]


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


def test_a_failed_runs_partial_values_leave_an_undefined_member_out() -> None:
    out = RT.run(
        "const a = {k: x.c?.q, j: 1, l: [x.c?.q]}; return a.zz.q;", lang="plan", context={"x": X}
    )
    assert out.status == "failure"
    assert out.to_json()["partial"] == {"a": {"j": 1, "l": [None]}}
