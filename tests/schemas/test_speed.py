"""The per-call cost of schema-typed arguments (SPEC 3.1): arguments that already fit the schema
pass a check compiled once per function (``dialectic.registry.schemafast``) instead of the
conversion walk and the ``jsonschema`` library. The check may only accept what the full path
accepts unchanged: a differential test over generated values holds it to that."""

from __future__ import annotations

from typing import Any, cast

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dialectic import Runtime
from dialectic.registry import schemafast
from dialectic.registry.jsonschema import (
    MAX_VALUE_DEPTH,
    SchemaArguments,
    _too_deep,
    function_from_schema,
    prepare_schema,
)

SEARCH: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": 20},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
        "score": {"type": "number", "exclusiveMinimum": 0},
        "mode": {"type": "string", "enum": ["fast", "slow", "exact"]},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
        "when": {"type": "string", "format": "date"},
        "flag": {"anyOf": [{"type": "boolean"}, {"type": "null"}]},
        "filters": {
            "type": "array",
            "items": {"$ref": "#/$defs/Filter"},
        },
        "meta": {"type": "object", "additionalProperties": {"type": "integer"}},
    },
    "required": ["query"],
    "additionalProperties": False,
    "$defs": {
        "Filter": {
            "type": "object",
            "properties": {
                "field": {"type": "string"},
                "op": {"const": "eq"},
                "value": {"type": ["string", "number", "null"]},
                "and": {"type": "array", "items": {"$ref": "#/$defs/Filter"}},
            },
            "required": ["field", "op"],
            "additionalProperties": False,
        }
    },
}

DRAFT7: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "a": {"type": "number"},
        "b": {"$ref": "#/definitions/B"},
        "c": {"type": "array", "items": {"type": "integer"}, "minItems": 1},
    },
    "required": ["a"],
    "additionalProperties": False,
    "definitions": {"B": {"type": "object", "required": ["x"], "maxProperties": 2}},
}


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 200)
    | st.floats(-3, 200, allow_nan=False)
    | st.sampled_from(["", "x", "5", "true", "fast", "eq", "2024-01-31", "2024-13-01", "a" * 30]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [*SEARCH["properties"], "field", "op", "value", "and", "a", "b", "c", "x", "y", "z"]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=12,
)

scalars = st.none() | st.booleans() | st.integers(-3, 200) | st.floats(-3, 200, allow_nan=False)
scalars = scalars | st.sampled_from(["x", "5", "fast", "eq", "2024-01-31", "2024-02-30"])
filters = st.recursive(
    st.fixed_dictionaries(
        {"field": st.sampled_from(["a", "5"]), "op": st.sampled_from(["eq", "ne"])},
        optional={"value": scalars},
    ),
    lambda inner: st.fixed_dictionaries(
        {"field": st.just("a"), "op": st.just("eq"), "and": st.lists(inner, max_size=2)}
    ),
    max_leaves=4,
)
#: values close to fitting the schemas below (a generated value rarely fits by chance)
near_values = (
    scalars
    | st.lists(scalars, max_size=4)
    | st.lists(filters, max_size=3)
    | st.dictionaries(st.sampled_from(["x", "y", "z"]), scalars, max_size=3)
)


def _arguments(name: str, schema: dict[str, Any]) -> SchemaArguments:
    v = function_from_schema(name, "", lambda **kw: kw, schema).validator
    assert isinstance(v, SchemaArguments)
    return v


#: (schema, a fitting base of arguments, its parameters); a generated value is put under one
#: parameter, so that a fair share of the generated arguments fit
CASES = [
    (SEARCH, {"query": "x"}, sorted(SEARCH["properties"])),
    (DRAFT7, {"a": 1.5}, ["a", "b", "c"]),
]
ACCEPTED = [0]


@pytest.mark.parametrize("case", [0, 1], ids=["2020-12", "draft-07"])
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=json_values | near_values)
def test_the_fast_check_accepts_only_what_the_full_path_accepts_unchanged(
    case: int, data: st.DataObject, value: Any
) -> None:
    schema, base, names = cast(tuple[dict[str, Any], dict[str, Any], list[str]], CASES[case])
    v = _arguments("f", schema)
    check = schemafast.compile_check(v.input_schema, v._validator)
    assert check is not None
    name = data.draw(st.sampled_from(names))
    arguments = {**base, name: value}
    if not check(arguments):
        return
    ACCEPTED[0] += 1
    assert v._validator.is_valid(arguments), arguments
    assert v._coercer.coerce(arguments, v.input_schema, (), 0, [10_000]) == arguments
    assert v(arguments) is arguments


def test_the_differential_test_saw_accepted_arguments() -> None:
    """(Runs after the property test: it was not vacuous.)"""
    if ACCEPTED[0] == 0:
        pytest.skip("run with the property test")
    assert ACCEPTED[0] > 20


def test_fitting_arguments_take_the_fast_path_and_others_the_full_one() -> None:
    v = _arguments("search", SEARCH)
    fitting = {
        "query": "cats",
        "limit": 5,
        "mode": "fast",
        "when": "2024-01-31",
        "filters": [{"field": "a", "op": "eq", "value": 3, "and": [{"field": "b", "op": "eq"}]}],
    }
    assert v(fitting) is fitting  # accepted as it is, no copy made
    assert v._fast is not None
    converted = v({"query": "cats", "limit": "5"})  # a conversion: the full path
    assert converted == {"query": "cats", "limit": 5}
    for bad, said in [
        ({"query": "cats", "mode": "quick"}, '"fast", "slow", "exact"'),
        ({"query": "cats", "when": "2024-13-01"}, "not a valid date"),
        ({"query": "cats", "filters": [{"field": "a", "op": "ne"}]}, "filters[0].op"),
        ({"query": ""}, "query"),
        ({"query": "cats", "extra": 1}, "`extra`"),
    ]:
        assert isinstance(bad, dict)
        with pytest.raises(Exception, match="invalid arguments") as info:
            v(bad)
        assert said in str(info.value), (bad, str(info.value))


def test_schemas_beyond_the_fast_subset_have_no_fast_check() -> None:
    for extra in [
        {"pattern": "^a"},
        {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        {"not": {"type": "string"}},
        {"multipleOf": 3},
        {"uniqueItems": True},
    ]:
        schema = {"type": "object", "properties": {"p": extra}}
        v = _arguments("g", schema)
        assert schemafast.compile_check(v.input_schema, v._validator) is None, extra
    draft4 = {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"}
    plain = prepare_schema("h", draft4)
    v = SchemaArguments("h", plain, None)
    assert schemafast.compile_check(plain, v._validator) is None


def test_a_recursive_reference_is_checked_through_its_cell() -> None:
    v = _arguments("tree", SEARCH)
    deep: dict[str, Any] = {"field": "a", "op": "eq"}
    for _ in range(30):
        deep = {"field": "a", "op": "eq", "and": [deep]}
    assert v({"query": "q", "filters": [deep]})["filters"] == [deep]
    inner = deep
    while inner.get("and"):
        inner = inner["and"][0]
    inner["op"] = "ne"
    with pytest.raises(Exception, match="invalid arguments"):
        v({"query": "q", "filters": [deep]})


@pytest.mark.parametrize("depth", [1, 5, MAX_VALUE_DEPTH - 1, MAX_VALUE_DEPTH, 150])
def test_within_depth_agrees_with_the_deep_check(depth: int) -> None:
    value: Any = 1
    for i in range(depth):
        value = [value] if i % 2 else {"k": value, "s": "x"}
    fits = schemafast.within_depth({"a": value}, MAX_VALUE_DEPTH)
    assert fits == (_too_deep({"a": value}) is None)


def test_a_schema_typed_call_costs_about_a_plain_one() -> None:
    """Through a whole run, a schema-typed call of fitting arguments costs within a small
    factor of the same function declared with plain parameter types (no absolute window)."""
    import time

    def impl(**kw: Any) -> int:
        return len(kw)

    rt = Runtime(load_entry_points=False)
    rt.register(function_from_schema("search", "", impl, SEARCH, namespace="srv"))
    typed = rt.prepare(
        'return srv.search({query: "x", limit: 5, mode: "fast", tags: ["a", "b"], '
        'filters: [{field: "a", op: "eq", value: 3}]});'
    )
    plain = rt.prepare('return len([1, 2, 3, 4, "x"]);')
    assert typed.run().value == 5

    def best(p: Any) -> float:
        out = float("inf")
        for _ in range(5):
            started = time.thread_time()
            for _ in range(200):
                p.run()
            out = min(out, time.thread_time() - started)
        return out

    best(typed)
    ratio = best(typed) / best(plain)
    assert ratio < 12, f"a schema-typed call took {ratio:.1f}x a plain one"


# -- preparing schemas that share their definitions once ------------------------------------


def _chain(n: int, nonce: str = "") -> dict[str, Any]:
    """``$defs`` of ``n`` object schemas, each referring to the next (OpenAPI's nullable and
    Draft 7's tuple items inside, which the preparation rewrites)."""
    defs: dict[str, Any] = {}
    for i in range(n):
        props: dict[str, Any] = {
            "id": {"type": "integer", "description": f"{nonce} {i}"},
            "name": {"type": "string", "nullable": True},
            "pair": {"type": "array", "items": [{"type": "string"}, {"type": "number"}]},
        }
        if i + 1 < n:
            props["next"] = {"$ref": f"#/$defs/S{i + 1}"}
        defs[f"S{i}"] = {"type": "object", "properties": props}
    return defs


def _with(own: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", **own, "$defs": defs}


SHARED_CASES: list[dict[str, Any]] = [
    _with({"properties": {"a": {"$ref": "#/$defs/S0"}}}, _chain(30)),
    _with({"properties": {"a": {"$ref": "#/$defs/S3"}}, "required": ["a"]}, _chain(30)),
    # a reference into a definition, and one to the root: prepared whole
    _with({"properties": {"a": {"$ref": "#/$defs/S0/properties/id"}}}, _chain(30)),
    _with({"properties": {"a": {"$ref": "#"}}}, _chain(30)),
    # errors: a name nothing defines, a cycle of references, a chain too long, bad schema
    _with({"properties": {"a": {"$ref": "#/$defs/Nope"}}}, _chain(30)),
    _with(
        {"properties": {"a": {"$ref": "#/$defs/L0"}}},
        {**_chain(30), **{f"L{i}": {"$ref": f"#/$defs/L{(i + 1) % 3}"} for i in range(3)}},
    ),
    _with(
        {"properties": {"a": {"$ref": "#/$defs/C0"}}},
        {**_chain(30), **{f"C{i}": {"allOf": [{"$ref": f"#/$defs/C{i + 1}"}]} for i in range(40)}}
        | {"C40": {"type": "string"}},
    ),
    _with({"properties": {"a": {"$ref": "#/$defs/S0"}}}, {**_chain(30), "Bad": {"type": 5}}),
    {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **_with({"properties": {"a": {"$ref": "#/$defs/S0"}}}, _chain(30)),
    },
]


@pytest.mark.parametrize("case", range(len(SHARED_CASES)))
def test_shared_definitions_are_prepared_as_the_whole_schema_would_be(case: int) -> None:
    from dialectic.outcome.errors import PluginError
    from dialectic.registry.schemacache import prepare_shared

    schema = SHARED_CASES[case]
    for _ in range(2):  # the second time from the cache
        try:
            whole: Any = prepare_schema("f", schema)
        except PluginError as exc:
            whole = str(exc)
        try:
            shared: Any = prepare_shared("f", schema)
        except PluginError as exc:
            shared = str(exc)
        assert shared == whole


def _document(operations: int, chain: int, nonce: str) -> dict[str, Any]:
    text = orjson.dumps(_chain(chain, nonce)).decode().replace("#/$defs/", "#/components/schemas/")
    paths = {
        f"/things{k}": {
            "post": {
                "operationId": f"op{k}",
                "parameters": [{"name": f"p{k}", "in": "query", "schema": {"type": "integer"}}],
                "requestBody": {
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}
                },
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/S1"}}
                        },
                    }
                },
            }
        }
        for k in range(operations)
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "servers": [{"url": "http://127.0.0.1:9"}],
        "paths": paths,
        "components": {"schemas": orjson.loads(text)},
    }


def test_a_document_of_many_operations_sharing_big_definitions_loads_in_linear_time() -> None:
    """4 times the operations, each reaching 4 times the schemas (a chain of references through
    all of them): about 4 times the time, far from the 16 times of preparing each operation's
    schema whole (measured: 5x now, 19x before). Best of 3, each with fresh content (no cache
    carries over); the bound leaves room for a noisy machine."""
    import time

    from dialectic.connectors.openapi import load_openapi

    def best(n: int) -> float:
        out = float("inf")
        for attempt in range(3):
            doc = _document(n, n, f"{n}-{attempt}-{time.time_ns()}")
            started = time.thread_time()
            loaded = load_openapi("svc", doc)
            out = min(out, time.thread_time() - started)
            assert len(loaded.functions) == n
        return out

    best(2)  # imports, meta-schemas
    small, large = best(25), best(100)
    assert large / small < 10, f"4x the operations and schemas took {large / small:.1f}x the time"
