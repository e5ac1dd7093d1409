"""Operators and the conditional in the call tree (SPEC 1.7): JavaScript's value, or a refusal
with a hint; short-circuit forms run only the operand or branch that is taken."""

from __future__ import annotations

from typing import Any

import pytest

import dialectic.testing
from dialectic import FunctionDescription, Runtime


def _runtime(calls: list[str]) -> Runtime:
    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)

    def mark(name: str) -> str:
        calls.append(name)
        return name

    async def amark(name: str) -> str:
        calls.append(name)
        return name

    rt.register(
        FunctionDescription("note", "records its call", mark, {"name": "string"}, "string"),
        FunctionDescription("anote", "records its call", amark, {"name": "string"}, "string"),
    )
    return rt


CALLS: list[str] = []
RT = _runtime(CALLS)


def op(name: str, *operands: Any) -> dict[str, Any]:
    return {"$op": [name, *operands]}


VALUES: list[tuple[Any, Any]] = [
    (op("+", 1, 2), 3),
    (op("+", "a", 1.5), "a1.5"),
    (op("+", 1e21, ""), "1e+21"),
    (op("+", "n=", True), "n=true"),
    (op("-", 10, 0.5), 9.5),
    (op("*", 3, 0.5), 1.5),
    (op("/", 6, 4), 1.5),
    (op("/", 6, 2), 3),
    (op("%", -7, 2), -1),
    (op("%", 7.5, -2), 1.5),
    (op("**", 2, 10), 1024),
    (op("-", 5), -5),
    (op("+", "3.5"), 3.5),
    (op("+", ""), 0),
    (op("!", ""), True),
    (op("!", []), False),
    (op("<", "B", "a"), True),
    (op("<", "\uffff", "😀"), False),  # UTF-16 code units, as JavaScript compares
    (op(">=", 2, 2.0), True),
    (op("===", 1, 1.0), True),
    (op("===", True, 1), False),
    (op("===", None, {"$undefined": None}), False),
    (op("==", None, {"$undefined": None}), True),
    (op("==", 0, None), False),
    (op("===", {"$object": {"a": 1}}, None), False),
    (op("!==", "a", "a"), False),
    (op("&&", 0, "x"), 0),
    (op("&&", 1, "x"), "x"),
    (op("||", "", "d"), "d"),
    (op("||", [], "d"), []),
    (op("??", 0, "d"), 0),
    (op("??", None, "d"), "d"),
    (op("+", 2**53, 1), 2**53),  # (the nearest double, as IEEE arithmetic gives)
    ({"$if": [op(">", 3, 2), "yes", "no"]}, "yes"),
    ({"$if": [{"$object": {}}, "truthy", "falsy"]}, "truthy"),
]


@pytest.mark.parametrize(("program", "value"), VALUES, ids=[str(v[0]) for v in VALUES])
def test_value_is_javascripts(program: Any, value: Any) -> None:
    out = RT.run(program)
    assert out.status == "success", out.message
    assert out.value == value and type(out.value) is type(value)


REFUSED: list[tuple[Any, str]] = [
    (op("+", [1], [2]), "`+` needs two numbers or text"),
    (op("+", "a", {"$object": {"b": 1}}), "[object Object]"),
    (op("+", "total: ", None), "Give a default first"),
    (op("+", 1, None), "`+` needs two numbers or text"),
    (op("-", "5", 2), "Convert text with Number(x)"),
    (op("/", 0, 0), "`0 / 0` is NaN"),
    (op("-", {"$ref": "Infinity"}, {"$ref": "Infinity"}), "`Infinity - Infinity` is NaN"),
    (op("%", 1, 0), "NaN"),
    (op("+", 2**53 + 1, 1), "2**53"),  # (an operand no double holds)
    (op("*", {"$ref": "Infinity"}, 0), "`Infinity * 0` is NaN"),
    (op("<", "2", 10), "compares two numbers or two texts"),
    (op("==", 1, "1"), "Use `===`"),
    (op("===", [1], [1]), "identity"),
    (op("+", "abc"), "NaN"),
]


@pytest.mark.parametrize(("program", "words"), REFUSED, ids=[str(r[0]) for r in REFUSED])
def test_traps_are_refused_with_a_hint(program: Any, words: str) -> None:
    out = RT.run(program)
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "expression_error"
    assert words in (out.message or "")
    assert out.error.path == "program"


def test_short_circuit_runs_only_what_is_taken() -> None:
    CALLS.clear()
    program = {
        "$let": {"a": {"note": ["a"]}, "b": {"note": ["b"]}, "c": {"anote": ["c"]}},
        "$return": [
            op("||", {"$ref": "a"}, {"$ref": "b"}),
            {"$if": [False, {"$ref": "b"}, {"$ref": "c"}]},
            op("??", "x", {"anote": ["never"]}),
        ],
    }
    out = RT.run(program)
    assert out.status == "success", out.message
    assert out.value == ["a", "c", "x"]
    assert sorted(CALLS) == ["a", "c"]


def test_an_async_test_picks_a_sync_branch() -> None:
    program = {"$if": [op("===", {"anote": ["t"]}, "t"), "sync", {"anote": ["no"]}]}
    assert RT.run(program).value == "sync"


def test_canonical_form_keeps_operators() -> None:
    program = {"$if": [op("<", {"$ref": "n"}, 3), op("+", {"$ref": "n"}, 1), None]}
    assert RT.compile(program) == program


def test_malformed_operators_are_located() -> None:
    out = RT.run({"echo": [{"$op": ["*", 1]}]})
    assert out.error is not None and out.error.code == "invalid_program"
    assert "takes two operands, 1 given" in (out.message or "")
    assert out.error.path == "program.echo[0].$op"
    bad = RT.run({"$op": ["<>", 1, 2]})
    assert bad.error is not None and "unknown operator" in (bad.message or "")
    assert bad.error.path == "program.$op[0]"


def test_a_deep_chain_under_a_condition_is_not_prefetched() -> None:
    CALLS.clear()
    bindings: dict[str, Any] = {"a0": {"note": ["a0"]}}
    for i in range(1, 60):
        bindings[f"a{i}"] = {"note": [{"$ref": f"a{i - 1}"}]}
    bindings["top"] = {"$if": [False, {"$ref": "a59"}, "skipped"]}
    out = RT.run({"$let": bindings, "$return": {"$ref": "top"}})
    assert out.value == "skipped"
    assert CALLS == []
