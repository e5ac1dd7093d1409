"""Plan <-> Plan2 conversion: examples, and a property test that conversions keep meaning."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dialectic.frontends.plan2 import parse_plan2
from dialectic.tools.convert import ConversionError, convert, tree_to_plan2


def test_plan_to_plan2_makes_domain_sets_and_templates() -> None:
    src = (
        "flight = flightInfo({airline: 'AA', flight: 1234}); // a comment\n"
        "return other({start: flight.departs, end: `at ${flight.arrives}`});"
    )
    text = convert(src, "plan", "plan2")
    assert text == (
        "flight:\n  flightInfo:\n    airline: AA\n    flight: 1234\n"
        "result:\n  other:\n    start: ${flight.departs}\n    end: at ${flight.arrives}\n"
    )
    assert "comment" not in text  # comments are lossy


def test_plan_to_plan2_without_lifting_rewrites_references() -> None:
    src = (
        "flight = flightInfo({airline: 'AA', flight: 1234}); return other({start: flight.departs});"
    )
    text = convert(src, "plan", "plan2", lift=False)
    tree = parse_plan2(text, lift=False).tree
    assert tree["$let"]["flight"] == {
        "$object": {"flightInfo": {"flightInfo": {"airline": "AA", "flight": 1234}}}
    }
    assert "${flight.flightInfo.departs}" in text
    assert "result: ${other_1.other}" in text


def test_exact_keeps_plain_calls_as_templates() -> None:
    text = convert("x = f({a: 1, b: 2}); return x;", "plan", "plan2", exact=True)
    assert "x: '${f({a: 1, b: 2})}'" in text


def test_use_and_result_alias_and_escapes() -> None:
    text = convert("result = 1; x = 'a ${b}'; use [result, x];", "plan", "plan2")
    assert text.startswith("# converted from a program that ends with `use`")
    tree = parse_plan2(text).tree
    assert tree["$let"]["result_1"] == 1
    assert tree["$let"]["x"] == "a ${b}"
    assert tree["$let"]["result"] == [{"$ref": "result_1"}, {"$ref": "x"}]


def test_plan2_to_plan_renames_keyword_aliases_and_writes_unwrap() -> None:
    src = "return:\n  flights:\n    number: 5030\nresult: ${return.departs}\n"
    text = convert(src, "plan2", "plan")
    assert "return_ = unwrap(flights({number: 5030}));" in text
    assert "result = return_.departs;" in text
    back = convert(text, "plan", "plan2")
    assert "return_:\n  flights:\n    number: 5030\n" in back


def test_dollar_before_an_expression_survives_conversion() -> None:
    tree = {"$return": {"$template": ["cost: $", {"$ref": "p"}]}}
    text = tree_to_plan2(tree)
    assert parse_plan2(text).tree["$let"]["result"] == tree["$return"]


def test_unknown_notation() -> None:
    with pytest.raises(ConversionError, match="unknown notation"):
        convert("x", "plan3", "plan")


# -- the property: converted programs evaluate to the same value -------------------------------


def _runtime(with_one: bool) -> Any:
    from dialectic import FunctionDescription, Optional, Runtime

    rt = Runtime(load_entry_points=False)
    descs = [
        FunctionDescription(
            "rec",
            "record",
            lambda a, b=None: {"a": a, "b": b, "tag": "rec"},
            {"a": "any", "b": Optional("any")},
        ),
        FunctionDescription("pair", "pair", lambda x, y: [x, y], {"x": "any", "y": "any"}),
        FunctionDescription("size", "size", lambda x: len(str(x)), {"x": "any"}),
    ]
    if with_one:
        descs.append(FunctionDescription("one", "one", lambda x: [x], {"x": "any"}))
    rt.register(*descs)  # Plan writes Plan2's {"$unwrap": x} as the built-in unwrap(x)
    return rt


RT = _runtime(with_one=True)
TEXT = st.text(alphabet=st.sampled_from(list("ab $${}'\"`\\\n:#-é")), max_size=8)
SIGS = {"rec": ("a", "b"), "pair": ("x", "y"), "size": ("x",), "one": ("x",)}


@st.composite
def expressions(draw: Any, aliases: list[tuple[str, str]], depth: int = 2) -> Any:
    options = ["int", "text", "bool"]
    if aliases:
        options += ["ref", "ref"]
    gettable = [a for a in aliases if a[1] in ("rec", "pair", "one")]
    if gettable:
        options += ["get"]
    if depth > 0:
        options += ["array", "object", "template", "call"]
    kind = draw(st.sampled_from(options))
    if kind == "int":
        return draw(st.integers(-1000, 1000))
    if kind == "text":
        return draw(TEXT)
    if kind == "bool":
        return draw(st.booleans())
    if kind == "ref":
        return {"$ref": draw(st.sampled_from(aliases))[0]}
    if kind == "get":
        name, fn = draw(st.sampled_from(gettable))
        key = "a" if fn == "rec" else 0
        return {"$get": [{"$ref": name}, key]}
    sub = expressions(aliases, depth - 1)
    if kind == "array":
        return draw(st.lists(sub, max_size=3))
    if kind == "object":
        keys = draw(st.lists(st.sampled_from(["k", "m", "n"]), min_size=2, max_size=3, unique=True))
        return {"$object": {k: draw(sub) for k in keys}}
    if kind == "template":
        return {"$template": [draw(TEXT), draw(sub), draw(TEXT)]}
    return draw(calls(aliases, depth - 1))


@st.composite
def calls(
    draw: Any,
    aliases: list[tuple[str, str]],
    depth: int = 1,
    fns: tuple[str, ...] = ("rec", "pair", "size"),
) -> Any:
    fn = draw(st.sampled_from(fns))
    params = SIGS[fn]
    if fn == "rec" and draw(st.booleans()):
        params = ("a",)
    args = {p: draw(expressions(aliases, depth)) for p in params}
    if len(args) == 1 and draw(st.booleans()):
        return {fn: [next(iter(args.values()))]}
    return {fn: args}


@st.composite
def programs(draw: Any, fns: tuple[str, ...] = ("rec", "pair", "size")) -> Any:
    aliases: list[tuple[str, str]] = []
    bindings: dict[str, Any] = {}
    for i in range(draw(st.integers(0, 4))):
        name = draw(st.sampled_from(["a", "b", "c", "result", "return", "x"])) + str(i)
        if i == 0 and draw(st.booleans()):
            name = draw(st.sampled_from(["result", "return"]))
        if draw(st.integers(0, 3)):
            call = draw(calls(aliases, 1, fns))
            bindings[name] = call
            aliases.append((name, next(iter(call))))
        else:
            bindings[name] = draw(expressions(aliases, 1))
            aliases.append((name, "value"))
    body = draw(calls(aliases, 1, fns)) if draw(st.booleans()) else draw(expressions(aliases, 2))
    return {"$let": bindings, "$return": body} if bindings else {"$return": body}


def _value(out: Any) -> Any:
    assert out.status == "success", out.message
    return out.to_json()["value"] if hasattr(out, "to_json") else out.value


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(programs(fns=("rec", "pair", "size", "one")))
def test_json_to_plan2_without_lifting_keeps_meaning(tree: Any) -> None:
    expected = _value(RT.run(tree, lang="json"))
    text = tree_to_plan2(tree, lift=False)
    converted = parse_plan2(text, lift=False).tree
    assert _value(RT.run(converted, lang="json")) == expected, text


@SETTINGS
@given(programs())
@example({"$return": {"$template": ["$", "", "{"]}})  # adjacent texts forming "${"
@example({"$return": {"$template": ["```", 0, "\n:"]}})  # ``` in a block scalar is no fence
def test_json_to_plan2_with_lifting_keeps_meaning(tree: Any) -> None:
    # Lifting changes meaning only for calls returning a one-element array (none here).
    expected = _value(RT.run(tree, lang="json"))
    text = tree_to_plan2(tree)
    assert _value(RT.run(parse_plan2(text).tree, lang="json")) == expected, text
    # ... and back to Plan, then to Plan2 again
    plan = convert(text, "plan2", "plan")
    assert _value(RT.run(plan, lang="plan")) == expected, plan
    again = convert(plan, "plan", "plan2")
    assert _value(RT.run(parse_plan2(again).tree, lang="json")) == expected, again


@SETTINGS
@given(programs(fns=("rec", "pair", "size", "one")))
@example({"$return": {"$template": ["$", "{", "x"]}})  # adjacent texts forming "${"
def test_json_to_plan_keeps_meaning(tree: Any) -> None:
    expected = _value(RT.run(tree, lang="json"))
    plan = convert_tree_to_plan(tree)
    assert _value(RT.run(plan, lang="plan")) == expected, plan


def convert_tree_to_plan(tree: Any) -> str:
    import orjson

    return convert(orjson.dumps(tree).decode(), "json", "plan")


def test_lifting_changes_one_element_results_documented() -> None:
    tree = {"$let": {"x": {"one": {"x": 5}}}, "$return": {"$ref": "x"}}
    assert _value(RT.run(tree, lang="json")) == [5]
    lifted = parse_plan2(tree_to_plan2(tree)).tree
    assert _value(RT.run(lifted, lang="json")) == 5  # the documented loss
    exact = parse_plan2(tree_to_plan2(tree, exact=True)).tree
    assert _value(RT.run(exact, lang="json")) == [5]
