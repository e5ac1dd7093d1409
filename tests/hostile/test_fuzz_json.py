"""Property tests: random JSON values and random call trees of core forms and the testing
plugin's functions always end in a clean outcome (no exception, no internal_error, no traceback,
JSON out)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dialectic import Outcome

Clean = Callable[..., Outcome]

SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

FUNCTIONS = [
    "add",
    "concat",
    "count",
    "double",
    "negate",
    "keys",
    "echo",
    "greet",
    "sqrt",
    "find",
    "sleepEcho",
    "asyncAdd",
    "boom",
    "refuse",
    "norm",
    "markText",
    "nothing",
    "point",
    "tag",
    "left",
    "right",
    "mark",
    "str",
    "upper",
    "lower",
    "trim",
    "max",
    "min",
    "length",
    "join",
    "split",
    "unwrap",
    "convert",
]
NAMES = ["a", "b", "answer", "origin", "x", "user", "nope", "__class__", "constructor", "add"]
KEYS = [
    "a",
    "b",
    "x",
    "y",
    "name",
    "value",
    "items",
    "text",
    "__proto__",
    "__class__",
    "length",
    "constructor",
    "0",
    "-1",
    "norm",
    "$ref",
    "$get",
    "$quote",
    "$bogus",
    "",
    " ",
]
TYPES = [
    "string",
    "number",
    "integer",
    "boolean",
    "array",
    "object",
    "null",
    "any",
    "point",
    "mark",
    "tag",
    "date",
    "__class__",
    "nonsense",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(
        [
            "",
            "1,2",
            "3.5",
            "true",
            "[1, 2]",
            '{"x": 1, "y": 2}',
            "x,y",
            "parse",
            "validateToken",
            "main",
            "\u0000",
            "${a}",
            "__class__",
        ]
    ),
)
json_values = st.recursive(
    scalars,
    lambda kids: st.one_of(
        st.lists(kids, max_size=4),
        st.dictionaries(
            st.one_of(st.sampled_from(KEYS + FUNCTIONS), st.text(max_size=5)), kids, max_size=4
        ),
    ),
    max_leaves=25,
)


def _trees(kids: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    name = st.sampled_from(NAMES)
    fn = st.sampled_from(FUNCTIONS)
    key = st.one_of(st.sampled_from(KEYS), st.integers(-3, 3), kids)
    return st.one_of(
        st.lists(kids, max_size=4),
        st.builds(lambda f, a: {f: a}, fn, st.lists(kids, max_size=3)),
        st.builds(lambda f, a: {f: a}, fn, kids),
        st.builds(
            lambda f, a: {f: a}, fn, st.dictionaries(st.sampled_from(KEYS), kids, max_size=3)
        ),
        st.builds(lambda n: {"$ref": n}, name),
        st.builds(lambda t, ks: {"$get": [t, *ks]}, kids, st.lists(key, max_size=3)),
        st.builds(
            lambda d: {"$object": d}, st.dictionaries(st.sampled_from(KEYS), kids, max_size=3)
        ),
        st.builds(lambda v: {"$quote": v}, json_values),
        st.builds(
            lambda ps: {"$template": ps}, st.lists(st.one_of(st.text(max_size=4), kids), max_size=4)
        ),
        st.just({"$undefined": None}),
        st.builds(lambda v: {"$unwrap": v}, kids),
        st.builds(
            lambda b, r, use: {"$let": b, ("$use" if use else "$return"): r},
            st.dictionaries(st.sampled_from(["a", "b", "x", "answer"]), kids, max_size=3),
            kids,
            st.booleans(),
        ),
        st.builds(lambda v, t: {"convert": {"value": v, "type": t}}, kids, st.sampled_from(TYPES)),
        st.builds(lambda d: {"$return": d}, kids),
    )


trees = st.recursive(scalars, _trees, max_leaves=20)
contexts = st.dictionaries(st.sampled_from(["x", "user", "a", "now"]), json_values, max_size=3)


@SETTINGS
@given(value=json_values)
def test_random_json_values(clean: Clean, value: Any) -> None:
    clean(value)


@SETTINGS
@given(value=json_values)
def test_random_json_text(clean: Clean, value: Any) -> None:
    text = json.dumps(value)  # NaN/Infinity make invalid JSON text: a syntax error
    clean(text)
    clean(text.encode("utf-8", "surrogatepass"), lang="json")


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(tree=trees, context=contexts)
def test_random_call_trees(clean: Clean, tree: Any, context: dict[str, Any]) -> None:
    clean(tree, context=context)


@SETTINGS
@given(tree=trees)
def test_random_call_trees_in_plan_and_plan2_notation(clean: Clean, tree: Any) -> None:
    from dialectic.tools.convert import convert

    text = json.dumps(tree)
    for target in ("plan", "plan2"):
        try:
            source = convert(text, "json", target)
        except Exception:
            continue
        assert isinstance(source, str)
        clean(source, lang=target)


@SETTINGS
@given(tree=trees)
def test_suggestions_are_runnable_programs(clean: Clean, tree: Any) -> None:
    out = clean(tree, context={"x": 1})
    if out.status != "ambiguous":
        return
    for suggestion in out.suggestions[:3]:
        clean(suggestion.program, context={"x": 1})


AMBIGUOUS = [
    ({"find": "parse"}, None),
    ({"markText": {"$template": ["a", {"find": "parse"}]}}, None),
    ("a = find('parse'); // c\nreturn `${a.file}:${find('main').line}`;", "plan"),
    ("return `x ${find('validateToken').file} ${markText('it\\'s')}`;", "plan"),
    ("return keys([[1]]);", "plan"),
    ("a:\n  find:\n    name: parse\nresult: ${a.file}\n", "plan2"),
    ('result: \'x ${find("parse").file} ${markText("t")}\'\n', "plan2"),
    ("result:\n  markText:\n    m: t\n", "plan2"),
]


def test_suggestions_in_every_notation_resolve_one_ambiguity(clean: Clean) -> None:
    for program, lang in AMBIGUOUS:
        out = clean(program, lang=lang)
        assert out.status == "ambiguous", (program, out.message)
        for suggestion in out.suggestions:
            again = clean(suggestion.program, lang=lang)
            if again.status == "ambiguous":
                assert len(again.suggestions) < len(out.suggestions), suggestion.program
