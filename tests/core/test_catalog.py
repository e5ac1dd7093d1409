"""The JSON Schema of `dialectic describe --format json-schema` accepts every valid program.

Programs are generated from the registry's functions (the shipped extensions and the seed
fixtures): calls with named, positional and single arguments and nested calls, aliases,
member access, templates, arrays, data objects and the other core forms. Each must compile
(`Runtime.compile`, so the generator makes only valid programs), and both the program as
written and its canonical form must validate against the schema (SPEC 2.x: the schema accepts
programs as written, so also their canonical form).
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dialectic import Runtime
from dialectic.registry.registry import Param
from dialectic.resolve.forbidden import is_forbidden
from dialectic.tree.parse import BINARY_OPS, UNARY_OPS

RUNTIME: Runtime | None = None
VALIDATOR: jsonschema.Draft202012Validator | None = None


def runtime() -> Runtime:
    global RUNTIME
    if RUNTIME is None:
        import dialectic_travel.fixtures

        RUNTIME = Runtime(plugins=(dialectic_travel.fixtures,))
    return RUNTIME


def validator() -> jsonschema.Draft202012Validator:
    global VALIDATOR
    if VALIDATOR is None:
        schema = runtime().describe("json-schema")
        jsonschema.Draft202012Validator.check_schema(schema)
        VALIDATOR = jsonschema.Draft202012Validator(schema)
    return VALIDATOR


def signatures() -> list[tuple[str, tuple[Param, ...]]]:
    reg = runtime().registry
    return [(name, reg.params(reg.functions[name])) for name in sorted(reg.functions)]


KEYS = st.from_regex(r"[a-z][a-zA-Z0-9_]{0,6}", fullmatch=True).filter(
    lambda k: not is_forbidden(k)
)
SCALARS = st.one_of(
    st.text(max_size=8),
    st.integers(-1000, 1000),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.booleans(),
    st.none(),
)
JSON_DATA = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


def is_object_literal(value: Any) -> bool:
    """A JSON value an argument position reads as an object literal (not a call or a form)."""
    if not isinstance(value, dict):
        return False
    if len(value) == 1:
        return "$object" in value
    return not any(k.startswith("$") for k in value)


@st.composite
def expressions(draw: st.DrawFn, aliases: tuple[str, ...], depth: int) -> Any:
    kinds = ["scalar", "scalar", "template"]
    if aliases or runtime().registry.constants:
        kinds.append("ref")
    if depth > 0:
        kinds += ["call", "call", "call", "get", "array", "data", "quote", "unwrap", "object"]
        kinds += ["op", "if"]
    kind = draw(st.sampled_from(kinds))
    sub = expressions(aliases, depth - 1)
    if kind == "scalar":
        return draw(SCALARS)
    if kind == "ref":
        names = list(aliases) + sorted(runtime().registry.constants)
        return {"$ref": draw(st.sampled_from(names))}
    if kind == "template":
        parts = draw(st.lists(st.text(max_size=5) | expressions(aliases, 0), max_size=3))
        return {"$template": parts}
    if kind == "get":
        keys = draw(st.lists(KEYS | st.integers(-3, 3), min_size=1, max_size=3))
        return {"$get": [draw(sub), *keys]}
    if kind == "array":
        return draw(st.lists(sub | st.just({"$undefined": None}), max_size=3))
    if kind == "data":
        fields = draw(st.dictionaries(KEYS, sub, min_size=2, max_size=3))
        return fields if draw(st.booleans()) else {}
    if kind == "object":
        return {"$object": draw(st.dictionaries(KEYS, sub, max_size=2))}
    if kind == "quote":
        return {"$quote": draw(JSON_DATA)}
    if kind == "unwrap":
        return {"$unwrap": draw(sub)}
    if kind == "op" and draw(st.booleans()):
        return {"$op": [draw(st.sampled_from(sorted(UNARY_OPS))), draw(sub)]}
    if kind == "op":
        return {"$op": [draw(st.sampled_from(sorted(BINARY_OPS))), draw(sub), draw(sub)]}
    if kind == "if":
        return {"$if": [draw(sub), draw(sub), draw(sub)]}
    return draw(calls(aliases, depth))


@st.composite
def calls(draw: st.DrawFn, aliases: tuple[str, ...], depth: int) -> Any:
    name, params = draw(st.sampled_from(signatures()))
    required = [p.name for p in params if not p.optional]
    optional = [p.name for p in params if p.optional]
    value = expressions(aliases, depth - 1)
    shapes = ["named", "positional"]
    if params and len(required) <= 1:
        shapes.append("single")
    shape = draw(st.sampled_from(shapes))
    if shape == "named":
        chosen = required + draw(
            st.lists(st.sampled_from(optional), unique=True) if optional else st.just([])
        )
        args: Any = {k: draw(value) for k in chosen}
        if draw(st.booleans()) and len(args) != 1:  # Plan's f({...}): one object literal
            return {name: [args if args else {"$object": {}}]}
        if draw(st.booleans()) and args:
            return {name: [{"$object": args}]}
        return {name: args}
    if shape == "positional":
        count = draw(st.integers(len(required), len(params)))
        items = [draw(value) for _ in range(count)]
        if count == 1 and is_object_literal(items[0]):
            items = [draw(SCALARS)]  # one object literal would be the argument object
        return {name: items}
    single = draw(value)
    param_names = {p.name for p in params}
    if (
        isinstance(single, list)
        or (is_object_literal(single) and "$object" not in single)
        or (isinstance(single, dict) and len(single) == 1 and next(iter(single)) in param_names)
    ):
        single = draw(SCALARS)  # an array is positional; an object, an argument object
    return {name: single}


@st.composite
def programs(draw: st.DrawFn) -> Any:
    depth = draw(st.integers(1, 3))
    if draw(st.booleans()):
        return draw(expressions((), depth))
    bindings: dict[str, Any] = {}
    for i in range(draw(st.integers(0, 3))):
        bindings[f"a{i}"] = draw(expressions(tuple(bindings), depth))
    end = draw(st.sampled_from(["$return", "$use"]))
    block: dict[str, Any] = {end: draw(expressions(tuple(bindings), depth))}
    with_let: bool = bool(bindings) or draw(st.booleans())
    if with_let:
        block = {"$let": bindings, **block}
    return block


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_generated_programs_validate_as_written_and_canonical(program: Any) -> None:
    # the generator writes valid programs only (as text: a Python str would be program text)
    canonical = runtime().compile(json.dumps(program), lang="json")
    check = validator()
    for label, tree in (("as written", program), ("canonical", canonical)):
        errors = list(check.iter_errors(tree))
        assert not errors, f"{label}: {jsonschema.exceptions.best_match(errors).message}"


def test_the_generator_reaches_every_shape() -> None:
    """The strategy above does write positional, named, single and nested calls, aliases,
    member access and templates (so the property is not vacuous)."""
    seen: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for key, value in node.items():
                if key in ("$let", "$get", "$template", "$use", "$op", "$if"):
                    seen.add(key)
                elif not key.startswith("$") and len(node) == 1:
                    seen.add(
                        "positional"
                        if isinstance(value, list)
                        else "named"
                        if isinstance(value, dict) and not any(k.startswith("$") for k in value)
                        else "single"
                    )
                if key != "$quote":
                    walk(value)

    @settings(max_examples=200, deadline=None, database=None)
    @given(programs())
    def collect(program: Any) -> None:
        walk(program)

    collect()
    assert seen >= {"positional", "named", "single", "$let", "$get", "$template", "$use"}
    assert seen >= {"$op", "$if"}


@pytest.mark.parametrize(
    "program",
    [
        {"domainC": {"slot3": {"$get": [{"domainA": {"slot1": "x"}}, "field1"]}, "slot4": "y"}},
        {"$let": {"a": {"domainB": "bar"}}, "$use": {"$get": [{"$ref": "a"}, 0, "field2"]}},
        {"other": ["2023-10-10", {"$template": ["2023-10-", 11]}]},
    ],
)
def test_fixture_programs_validate(program: Any) -> None:
    runtime().compile(program)
    assert validator().is_valid(program)
    assert validator().is_valid(runtime().compile(program))
