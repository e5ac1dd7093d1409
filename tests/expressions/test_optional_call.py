"""`a?.m()` (SPEC 1.2, `$method?`) and optional chains through method calls, against Node.js:
undefined when the receiver is null or undefined, and nothing after it runs (short-circuit);
otherwise exactly the method's value, or a refusal where JavaScript throws."""

from __future__ import annotations

from typing import Any

import pytest

from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import decompile_expression, parse_plan

from .test_node_differential import RT, _node, _same


def _check(trees: list[Any]) -> int:
    """Each tree through dialectic (as the tree and as Plan text) and through Node: the same
    value, or a clear refusal (never a different value). Returns how many runs answered."""
    sources = [decompile_expression(t) for t in trees]
    agreed = 0
    for tree, source, answer in zip(trees, sources, _node(sources), strict=True):
        for out in (RT.run({"$return": tree}), RT.run(f"return {source};", lang="plan")):
            if out.status != "success":
                assert out.error is not None and out.status == "failure", source
                continue
            assert "ok" in answer, f"{source}: dialectic gave {out.value!r}, Node threw"
            value = answer["ok"]
            if isinstance(value, dict) and "$undefined" in value:
                value = None  # a result of undefined is null (SPEC 1.2)
            assert _same(out.value, value), f"{source}: dialectic {out.value!r}, Node {value!r}"
            agreed += 1
    return agreed


UPPER = {"$fn": [["x"], {"$method": [{"$ref": "x"}, "toUpperCase"]}]}
RECEIVERS: list[Any] = [
    None,
    {"$undefined": None},
    " ab ",
    "",
    {"$quote": ["a", "b"]},
    {"$quote": []},
    {"$quote": {"b": " x ", "n": None}},
    {"$quote": {"n": None}},
]


def _chains(r: Any) -> list[Any]:
    return [
        {"$method?": [r, "trim"]},
        {"$method?": [r, "at", 0]},
        {"$method?": [r, "includes", "a"]},
        {"$method?": [r, "slice", 1]},
        {"$get": [{"$method?": [r, "slice", 0]}, "length"]},
        {"$method": [{"$method?": [r, "slice", 0]}, "concat", "!"]},
        {"$method": [{"$get?": [r, "b"]}, "trim"]},
        {"$get": [{"$method": [{"$get?": [r, "b"]}, "trim"]}, "length"]},
        {"$method?": [{"$get?": [r, "n"]}, "trim"]},
        {"$method?": [{"$method?": [r, "at", 0]}, "toUpperCase"]},
        {"$op": ["??", {"$method?": [r, "trim"]}, "default"]},
    ]


def test_optional_calls_agree_with_node() -> None:
    trees = [c for r in RECEIVERS for c in _chains(r)]
    trees.append({"$method?": [{"$quote": ["a", "b"]}, "map", UPPER]})
    trees.append({"$method?": [None, "map", UPPER]})
    agreed = _check(trees)
    assert agreed > len(trees)  # of 2 runs each (tree and text): most agree, few refuse
    # a null or undefined receiver short-circuits every chain: always undefined (null)
    for tree in _chains(None) + _chains({"$undefined": None}):
        out = RT.run({"$return": tree})
        assert (out.status, out.value) == ("success", "default" if "$op" in tree else None)


def test_nothing_after_a_short_circuit_runs() -> None:
    # the arguments and the rest of the chain are not evaluated: boom() would fail
    for tree in [
        {"$method?": [None, "concat", {"boom": []}]},
        {"$method?": [None, "map", {"$fn": [["x"], {"boom": []}]}]},
        {"$method": [{"$method?": [{"$undefined": None}, "trim"]}, "concat", {"boom": []}]},
    ]:
        out = RT.run({"$return": tree})
        assert (out.status, out.value) == ("success", None), out.message


@pytest.mark.parametrize(
    ("source", "tree"),
    [
        ("x?.toUpperCase()", {"$method?": [{"$ref": "x"}, "toUpperCase"]}),
        (
            "list?.map(f => f.n)",
            {
                "$method?": [
                    {"$ref": "list"},
                    "map",
                    {"$fn": [["f"], {"$get": [{"$ref": "f"}, "n"]}]},
                ]
            },
        ),
        (
            "a?.b.trim().length",
            {"$get": [{"$method": [{"$get?": [{"$ref": "a"}, "b"]}, "trim"]}, "length"]},
        ),
        ("x?.trim()?.at(0)", {"$method?": [{"$method?": [{"$ref": "x"}, "trim"]}, "at", 0]}),
    ],
)
def test_plan_writes_optional_calls_as_method_optional(source: str, tree: Any) -> None:
    assert parse_plan(f"return {source};", strict=True).tree == {"$return": tree}


@pytest.mark.parametrize(
    ("context", "value"),
    [
        ({"list": None}, None),
        ({"list": [{"n": "a"}, {"n": "b"}]}, ["A", "B"]),
    ],
)
def test_plan_runs_optional_calls(context: dict[str, Any], value: Any) -> None:
    out = RT.run("return list?.map(f => f.n.toUpperCase());", lang="plan", context=context)
    assert (out.status, out.value) == ("success", value)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("return (a?.b).c;", "parentheses end an optional chain"),
        ("return (a?.b)[0];", "parentheses end an optional chain"),
        ("return a?.b.f();", "cannot continue an optional chain"),
        ("return x?.[0]();", "only a function name or a method can be called"),
    ],
)
def test_refused_optional_chains(source: str, message: str) -> None:
    with pytest.raises(SourceError) as info:
        parse_plan(source, strict=True)
    assert message in info.value.problems[0].message


def test_optional_call_of_a_registered_function_is_refused() -> None:
    out = RT.run("return x?.echo();", lang="plan", context={"x": 1})
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "invalid_program"
    assert "`?.` before a call of the registered function `echo`" in out.error.message
