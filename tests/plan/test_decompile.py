"""decompile: call tree -> Plan text; Plan -> tree -> Plan -> tree is stable."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dialectic.frontends.plan import (
    DecompileError,
    decompile,
    decompile_expression,
    parse_expression,
    parse_plan,
)


def roundtrip(source: str) -> None:
    tree = parse_plan(source).tree
    text = decompile(tree)
    again = parse_plan(text, strict=True)
    assert again.tree == tree, (source, text)
    assert again.warnings == []
    assert decompile(again.tree) == text  # the text is a fixed point too


def test_simple_program() -> None:
    tree = parse_plan("a = f(1);\nreturn g(a);").tree
    assert decompile(tree) == "a = f(1);\nreturn g(a);"
    assert decompile({"$use": {"$ref": "x"}}) == "use x;"
    assert decompile({"f": [1]}) == "return f(1);"  # a bare expression is returned


def test_seed_examples_roundtrip() -> None:
    for source in [
        "return domainA({slot1: 'hello'});",
        "return domainC({slot3: domainA({slot1: 'foo'}).field1, "
        "slot4: domainB({slot2: 'bar'})[0].field2});",
        "flight = flightInfo({airline: 'AA', flight: 1234});\n"
        "return other({start: flight.departs, end: flight.arrives});",
        "x = next(Thursday).at('9:00am');\nreturn last(Tuesday).plus(23, day).at('9:00am');",
        "return this(week);",
        "use `Hello ${name}, it is ${now.at('9:00am')}`;",
    ]:
        roundtrip(source)


def test_corpus_roundtrips(plan_corpus: list[str], reordered_corpus: list[str]) -> None:
    for source in [*plan_corpus, *reordered_corpus]:
        roundtrip(source)


@pytest.mark.parametrize(
    "source",
    [
        # a dollar next to a brace in a template: `${` alone starts a substitution (the
        # generator once wrote a text `$` then a text `{`, which JavaScript reads as `${`)
        "return `$${a}`;",
        "return `$$${a}$`;",
        "return `\\${a}`;",
        "return `\\$${a}`;",
        "return `\\${a}\\{`;",
        "return `$ {a}`;",
        "return `$\\{a}`;",
        "return `${{a: 1}.a}`;",
        "return `${`${a}`}{}`;",
        "return `}${'{'}$`;",
    ],
)
def test_template_dollar_and_brace_roundtrip(source: str) -> None:
    roundtrip(source)


@pytest.mark.parametrize(
    ("tree", "text"),
    [
        ({"f": {"x": 1}}, "f({x: 1})"),
        ({"f": {"x": 1, "y": [2]}}, "f({x: 1, y: [2]})"),
        ({"f": 3}, "f(3)"),
        ({"f": "s"}, "f('s')"),
        ({"f": {"$ref": "a"}}, "f(a)"),
        ({"f": []}, "f()"),
        ({"f": [[1, 2]]}, "f([1, 2])"),
        ({"$quote": {"a": 1}}, "{a: 1}"),
        ({"$quote": {"f": [1], "$ref": "x"}}, "{f: [1], $ref: 'x'}"),
        ({"$quote": [{"g": 1}]}, "[{g: 1}]"),
        ({"$object": {"k": {"$ref": "v"}}}, "{k: v}"),
        ({"a": 1, "b-c": 2}, "{a: 1, 'b-c': 2}"),
        ({"$undefined": None}, "undefined"),
        ({"$get": [{"$ref": "a"}, "b", 0, -1, "c d", {"$ref": "k"}]}, "a.b[0][-1]['c d'][k]"),
        ({"$get": [1, "x"]}, "(1).x"),
        ({"$get": [-1.5, "x"]}, "(-1.5).x"),
        ({"$template": ["a`b${c}\\", {"$ref": "x"}, "\r"]}, "`a\\`b\\${c}\\\\${x}\\r`"),
        ({"delete": [{"$ref": "x"}, 1]}, "x.delete(1)"),
        ({"$ref": "this"}, "this"),
        ({"this": []}, "this()"),
        (1.0, "1.0"),
        (-0.0, "-0.0"),
        (1e21, "1e+21"),
        (1.5e-7, "1.5e-7"),
        (12, "12"),
        (True, "true"),
        (None, "null"),
        ("it's\n\x00\x01\u2028é😀", "'it\\'s\\n\\x00\\x01\\u2028é😀'"),
    ],
)
def test_expressions(tree: Any, text: str) -> None:
    assert decompile_expression(tree) == text
    parse_expression(text)  # it is valid Plan


@pytest.mark.parametrize(
    "tree",
    [
        {"$as": {"value": 1, "type": "T"}},
        {"$let": {}, "$use": 1},  # nested (as an expression), ending in `use`
        {"my-func": [1]},
        {"delete": []},
        {"$ref": "if"},
        {"$ref": "undefined"},
        {"$ref": "a b"},
        {"$bogus": 1},
        {"$ref": "a", "x": 1},
        math.nan,
        {1, 2},
    ],
)
def test_no_plan_equivalent(tree: Any) -> None:
    with pytest.raises(DecompileError):
        decompile_expression(tree)


def test_bad_blocks() -> None:
    for tree in [
        {"$let": {"a": 1}},
        {"$let": {"a": 1}, "$return": 1, "$use": 2},
        {"$let": {"if": 1}, "$return": 1},
        {"$let": [], "$return": 1},
        {"$return": 1, "other": 2},
    ]:
        with pytest.raises(DecompileError):
            decompile(tree)


def test_deep_trees_are_clean_errors() -> None:
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(DecompileError):
        decompile(deep)
    with pytest.raises(DecompileError):
        decompile_expression(deep, max_depth=10)


# -- property: any Plan text round-trips ---------------------------------------------------------

NAMES = st.sampled_from(["a", "b", "x", "$y", "_z", "this", "use", "NaN", "async"])
PROPS = st.sampled_from(["p", "if", "new", "length", "$q", "at", "delete"])
METHODS = st.sampled_from(["p", "if", "new", "length", "at", "delete"])
CALLEES = st.sampled_from(["f", "g", "this", "use", "async", "_h"])
TEXT = st.text(st.characters(exclude_categories=["Cs"], max_codepoint=0x1FFFF), max_size=8)


def _string(s: str) -> str:
    from dialectic.frontends.plan.decompileliterals import string_literal

    return string_literal(s)


def _leaf() -> st.SearchStrategy[str]:
    return st.one_of(
        TEXT.map(_string),
        # (beyond 2**53, integers a double holds: others are refused, SPEC 1.7)
        st.integers(-(10**20), 10**20).map(lambda n: str(n if abs(n) <= 2**53 else int(float(n)))),
        st.floats(allow_nan=False, allow_infinity=False)
        .map(repr)
        .map(lambda r: r.replace("inf", "1e999"))
        .filter(lambda r: "1e999" not in r),
        st.sampled_from(["true", "false", "null", "undefined", ".5", "1e21", "0x1F", "5."]),
        NAMES,
    )


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    args = st.lists(inner, max_size=3).map(", ".join)
    return st.one_of(
        st.tuples(CALLEES, args).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(inner, PROPS).map(lambda t: f"({t[0]}).{t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"({t[0]})[{t[1]}]"),
        st.tuples(inner, METHODS, args).map(lambda t: f"({t[0]}).{t[1]}({t[2]})"),
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.dictionaries(st.one_of(PROPS, TEXT), inner, max_size=3).map(
            lambda d: "{" + ", ".join(f"{_string(k)}: {v}" for k, v in d.items()) + "}"
        ),
        st.lists(
            st.one_of(
                TEXT.map(lambda s: s.replace("`", "").replace("\\", "").replace("${", "$")),
                inner.map(lambda e: "${" + e + "}"),
            ),
            max_size=4,
        ).map(lambda ps: "`" + "".join(ps) + "`"),
    )


EXPRESSIONS = st.recursive(_leaf(), _extend, max_leaves=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EXPRESSIONS, min_size=1, max_size=4), st.booleans())
def test_plan_tree_plan_tree_is_stable(exprs: list[str], use: bool) -> None:
    *aliases, final = exprs
    lines = [f"v{i} = {e};" for i, e in enumerate(aliases)]
    lines.append(f"{'use' if use else 'return'} {final};")
    source = "\n".join(lines)
    try:
        tree = parse_plan(source, strict=True).tree
    except Exception as exc:  # the generator writes e.g. (-1).x: all of it must parse
        raise AssertionError(f"generated invalid Plan: {source!r}") from exc
    text = decompile(tree)
    assert parse_plan(text, strict=True).tree == tree
    assert decompile(parse_plan(text).tree) == text


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-(2**53), 2**53),
            st.floats(allow_nan=False, allow_infinity=False),
            TEXT,
        ),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)
        ),
        max_leaves=10,
    )
)
def test_quoted_data_decompiles_to_an_equal_literal(data: Any) -> None:
    """``$quote`` of any JSON value decompiles to a literal whose tree evaluates to it."""
    text = decompile_expression({"$quote": data})
    assert _evaluate_literal(parse_expression(text)[0]) == data


def _evaluate_literal(node: Any) -> Any:
    if isinstance(node, list):
        return [_evaluate_literal(x) for x in node]
    if isinstance(node, dict):
        if "$object" in node and len(node) == 1:
            node = node["$object"]
        return {k: _evaluate_literal(v) for k, v in node.items()}
    return node


# -- nested blocks: arrow block bodies and `if` statements -----------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "return [1, 2].map(x => { const a = x * 2; const b = a + 1; return b; });",
        "a = f(1);\nif (a > 1) { b = g(a); return b; } else if (a < 0) { return 0; }\n"
        "c = h(a);\nreturn c;",
        "a = f();\nif (a) { if (b) { c = 1; return c; } return 3; }\nreturn 4;",
        "if (x) { y = f(x); return [y, y]; } else { return null; }",
        "return xs.filter(x => { const p = x.price; return p > 3; }).map(x => x.id);",
    ],
)
def test_nested_blocks_round_trip(source: str) -> None:
    tree = parse_plan(source).tree
    text = decompile(tree)
    assert parse_plan(text).tree == tree, text


def test_if_statement_layout() -> None:
    tree = parse_plan("a = f(1);\nif (a > 1) { b = g(a); return b; }\nreturn 0;").tree
    assert decompile(tree) == (
        "a = f(1);\nif ((a > 1)) {\n  b = g(a);\n  return b;\n} else {\n  return 0;\n}"
    )


def test_blocks_with_no_plan_equivalent_are_clean_errors() -> None:
    for tree in [
        {"$return": {"f": [{"$let": {"a": 1}, "$use": {"$ref": "a"}}]}},
        {"$return": {"$fn": [["x"], {"$let": {"a": 1}, "$use": 1}]}},
    ]:
        with pytest.raises(DecompileError):
            decompile(tree)


def test_blocks_in_expressions_are_arrows_called_at_once() -> None:
    # SPEC 10 "decompile": a block anywhere but a whole program, an `if` statement's branch or
    # an arrow's body is written `(() => { ... })()`, which reads back to the same tree
    block = {"$let": {"a": 1}, "$return": {"$ref": "a"}}
    for tree, text in [
        ({"$return": {"f": [block]}}, "return f((() => { const a = 1; return a; })());"),
        (
            {"$use": {"$if": [True, block, 1]}},
            "use (true ? (() => { const a = 1; return a; })() : 1);",
        ),
    ]:
        assert decompile(tree) == text
        assert parse_plan(text, strict=True).tree == tree


@pytest.mark.parametrize("source", ["+-0", "return -(-0);", "return !0;", "return +(-1);"])
def test_unary_operators_on_number_literals_round_trip(source: str) -> None:
    # `-1` reads back as a number literal: an operator applied to a literal keeps parentheses
    tree = parse_plan(source).tree
    assert parse_plan(decompile(tree), strict=True).tree == tree


def test_an_infinity_is_written_as_javascript_names_it() -> None:
    assert decompile(math.inf) == "return Infinity;"
    assert decompile([-math.inf, {"$op": ["-", {"$ref": "Infinity"}]}]) == (
        "return [(-Infinity), (-Infinity)];"
    )


@pytest.mark.parametrize(
    "text",
    [
        "return failLater(1).catch((e) => e.message);",
        "v = slow(1).catch(() => 0).catch((e) => e.name);\nreturn v;",
        "return Promise.reject(new TypeError(`x${n}`)).catch(() => 1);",
        "return [1, Promise.reject(7)];",
        "r = Promise.allSettled([slow(1), failLater(2)]);\nreturn r.map((x) => x.status);",
        "r = Promise.allSettled(nums.map((x) => slow(x)));\nreturn r.length;",
        "throw new RangeError('a');",
    ],
)
def test_failure_handling_roundtrips(text: str) -> None:
    # `p.catch(h)`, `Promise.reject(e)`, `Promise.allSettled(...)` (SPEC 10)
    roundtrip(text)
