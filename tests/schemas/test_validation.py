"""Parameters declared by JSON Schema (SPEC 3.1): types, coercion along the schema,
validation, and the messages of failures (where, what was expected, what to write)."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from dialectic import FunctionDescription, Optional, Runtime
from dialectic.outcome.errors import PluginError
from dialectic.registry.jsonschema import SchemaArguments, function_from_schema

BOOKING: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "where   to stay"},
        "nights": {"type": "integer", "minimum": 1, "default": 1},
        "kind": {"enum": ["hotel", "hostel"]},
        "rooms": {"type": "array", "items": {"$ref": "#/$defs/Room"}},
        "max-results": {"type": "integer", "nullable": True},
        "when": {"type": "string", "format": "date"},
        "budget": {
            "anyOf": [
                {"type": "integer"},
                {"type": "object", "properties": {"max": {"type": "number"}}, "required": ["max"]},
            ]
        },
        "from": {"type": "string"},
        "flags": {"type": ["boolean", "null"]},
    },
    "required": ["city"],
    "$defs": {
        "Room": {
            "type": "object",
            "properties": {
                "beds": {"type": "integer"},
                "view": {"enum": ["sea", "city"]},
                "guests": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["beds"],
            "additionalProperties": False,
        }
    },
}


def echo(**kwargs: Any) -> dict[str, Any]:
    return kwargs


@pytest.fixture(scope="module")
def rt() -> Runtime:
    runtime = Runtime(plugins=[], load_entry_points=False)
    runtime.register(function_from_schema("book", "Book a stay", echo, BOOKING, namespace="travel"))
    return runtime


def run(rt: Runtime, args: dict[str, Any]) -> Any:
    return rt.run({"travel.book": {k: {"$quote": v} for k, v in args.items()}})


def ok(rt: Runtime, args: dict[str, Any]) -> Any:
    out = run(rt, args)
    assert out.status == "success", out.to_json()
    return out.value


def fails(rt: Runtime, args: dict[str, Any]) -> tuple[str, str]:
    out = run(rt, args)
    assert out.status == "failure", out.to_json()
    assert out.error is not None
    return out.error.message, out.error.hint or ""


def test_parameters_are_the_top_level_properties(rt: Runtime) -> None:
    fn = rt.registry.functions["travel.book"]
    params = {p.name: (p.type, p.optional) for p in rt.registry.params(fn)}
    assert params == {
        "city": ("string", False),
        "nights": ("integer", True),
        "kind": ("string", True),
        "rooms": ("array", True),
        "max-results": ("any", True),  # nullable: integer or null
        "when": ("string", True),
        "budget": ("any", True),
        "from": ("string", True),
        "flags": ("any", True),
    }
    assert fn.namespace == "travel"
    assert fn.parameter_descriptions["city"] == "where to stay"
    assert isinstance(fn.validator, SchemaArguments)


def test_valid_arguments_pass_unchanged(rt: Runtime) -> None:
    args = {
        "city": "Paris",
        "nights": 2,
        "kind": "hostel",
        "rooms": [{"beds": 2, "view": "sea", "guests": ["Ada"]}],
        "max-results": None,
        "when": "2024-05-01",
        "budget": {"max": 99.5},
        "from": "Lyon",
        "flags": True,
    }
    assert ok(rt, args) == args


def test_coercion_follows_the_schema_into_nested_values(rt: Runtime) -> None:
    value = ok(
        rt,
        {
            "city": "Paris",
            "nights": "3",
            "rooms": [{"beds": "2", "guests": "Ada, Bo"}, {"beds": 1.0}],
            "max-results": "10",
            "budget": "120",
            "flags": "false",
        },
    )
    assert value["nights"] == 3
    assert value["rooms"] == [{"beds": 2, "guests": ["Ada", "Bo"]}, {"beds": 1}]
    assert type(value["rooms"][1]["beds"]) is int
    assert value["max-results"] == 10
    assert value["budget"] == 120  # the one alternative "120" fits once converted
    assert value["flags"] is False


def test_a_single_object_becomes_a_one_element_array(rt: Runtime) -> None:
    assert ok(rt, {"city": "P", "rooms": {"beds": 1, "view": "sea"}})["rooms"] == [
        {"beds": 1, "view": "sea"}
    ]


def test_json_text_for_an_object_alternative_is_parsed(rt: Runtime) -> None:
    assert ok(rt, {"city": "P", "budget": '{"max": 5}'})["budget"] == {"max": 5}


def test_an_enum_value_is_matched_after_conversion() -> None:
    runtime = Runtime(plugins=[], load_entry_points=False)
    schema = {"type": "object", "properties": {"level": {"enum": [1, 2, 3]}}}
    runtime.register(function_from_schema("lvl", "", echo, schema))
    assert runtime.run({"lvl": {"level": "2"}}).value == {"level": 2}
    out = runtime.run({"lvl": {"level": "4"}})
    assert out.status == "failure"
    assert "not one of 1, 2, 3" in out.error.message  # type: ignore[union-attr]


def test_an_enum_failure_lists_the_choices(rt: Runtime) -> None:
    message, hint = fails(rt, {"city": "P", "kind": "motel"})
    assert (
        message
        == '`travel.book`: invalid arguments: `kind` is "motel", not one of "hotel", "hostel"'
    )
    assert hint == 'Write one of "hotel", "hostel" at `kind`.'


def test_an_enum_failure_names_the_value_meant() -> None:
    """BFCL's gold calls write "horror" for "Horror", "true" for "True", "Reggaeton" for
    "Reggae": the hint names the value equal but for case, else the closest (never all)."""
    runtime = Runtime(plugins=[], load_entry_points=False)
    values = ["World", "Horror", "Drama", "Reggae", "True", "False", "dontcare"]
    schema = {"type": "object", "properties": {"genre": {"enum": values}}}
    runtime.register(function_from_schema("movies", "", echo, schema))
    hints = {}
    for given in ("horror", "true", "Reggaeton", "Any"):
        out = runtime.run({"movies": {"genre": given}})
        assert out.status == "failure" and out.error is not None and out.error.hint
        hints[given] = out.error.hint.split("?")[0] if "?" in out.error.hint else None
    assert hints == {
        "horror": 'Did you mean "Horror"',
        "true": 'Did you mean "True"',
        "Reggaeton": 'Did you mean "Reggae"',
        "Any": None,
    }


def test_a_nested_failure_names_its_json_path(rt: Runtime) -> None:
    message, _ = fails(rt, {"city": "P", "rooms": [{"beds": 1}, {"beds": 2, "view": "mountain"}]})
    assert '`rooms[1].view` is "mountain", not one of "sea", "city"' in message


def test_a_missing_nested_field_is_named(rt: Runtime) -> None:
    message, hint = fails(rt, {"city": "P", "rooms": [{"view": "sea"}]})
    assert "`rooms[0]` lacks the required field `beds`" in message
    assert "Add `beds` to `rooms[0]`." in hint


def test_an_unexpected_field_is_named_with_the_allowed_ones(rt: Runtime) -> None:
    message, hint = fails(rt, {"city": "P", "rooms": [{"beds": 1, "balcony": True}]})
    assert "`rooms[0]` has the unexpected field `balcony`" in message
    assert "`beds`, `view`, `guests`" in hint


def test_a_type_failure_says_what_to_write(rt: Runtime) -> None:
    message, hint = fails(rt, {"city": "P", "rooms": [{"beds": "two"}]})
    assert '`rooms[0].beds` should be an integer, not a string ("two")' in message
    assert hint == "Write an integer at `rooms[0].beds`."


def test_keywords_beyond_types_are_checked(rt: Runtime) -> None:
    message, _ = fails(rt, {"city": "P", "nights": 0})
    assert "`nights`" in message and "minimum of 1" in message


def test_formats_are_checked(rt: Runtime) -> None:
    message, _ = fails(rt, {"city": "P", "when": "2024-13-45"})
    assert '`when` is "2024-13-45", not a valid date' in message


def test_any_of_failure_shows_the_closest_alternative(rt: Runtime) -> None:
    message, _ = fails(rt, {"city": "P", "budget": {"min": 3}})
    assert "`budget` fits none of its alternatives" in message


def test_several_problems_are_reported_together(rt: Runtime) -> None:
    message, _ = fails(rt, {"city": "P", "kind": "x", "rooms": [{"beds": "y"}]})
    assert "`kind`" in message and "`rooms[0].beds`" in message


def test_nullable_and_type_lists_accept_null(rt: Runtime) -> None:
    assert ok(rt, {"city": "P", "max-results": None, "flags": None})["flags"] is None


def test_defaults_are_not_filled_in(rt: Runtime) -> None:
    assert ok(rt, {"city": "P"}) == {"city": "P"}


def test_two_readings_of_an_alternative_fail_with_both() -> None:
    runtime = Runtime(plugins=[], load_entry_points=False)
    schema = {
        "type": "object",
        "properties": {"x": {"oneOf": [{"type": "integer"}, {"type": "boolean"}]}},
    }
    runtime.register(function_from_schema("f", "", echo, schema))
    out = runtime.run({"f": {"x": "1"}})
    assert out.status == "failure"
    assert out.error is not None
    assert '`x` is "1", which could be read as 1 or true' in out.error.message
    assert runtime.run({"f": {"x": 7}}).value == {"x": 7}


def test_one_of_that_fits_twice_fails() -> None:
    runtime = Runtime(plugins=[], load_entry_points=False)
    schema = {
        "type": "object",
        "properties": {"x": {"oneOf": [{"type": "integer"}, {"type": "number"}]}},
    }
    runtime.register(function_from_schema("f", "", echo, schema))
    out = runtime.run({"f": {"x": 3}})
    assert out.status == "failure"
    assert "fits more than one of its alternatives" in out.error.message  # type: ignore[union-attr]


def test_recursive_ref_schemas_validate_trees() -> None:
    runtime = Runtime(plugins=[], load_entry_points=False)
    schema = {
        "type": "object",
        "properties": {"tree": {"$ref": "#/definitions/node"}},
        "definitions": {
            "node": {
                "type": "object",
                "properties": {
                    "v": {"type": "integer"},
                    "kids": {"type": "array", "items": {"$ref": "#/definitions/node"}},
                },
                "required": ["v"],
            }
        },
    }
    runtime.register(function_from_schema("t", "", echo, schema))
    tree = {"v": "1", "kids": [{"v": 2, "kids": [{"v": "3", "kids": []}]}]}
    out = runtime.run({"t": {"tree": {"$quote": tree}}})
    assert out.value == {"tree": {"v": 1, "kids": [{"v": 2, "kids": [{"v": 3, "kids": []}]}]}}
    bad = {"v": 1, "kids": [{"kids": []}]}
    out = runtime.run({"t": {"tree": {"$quote": bad}}})
    assert "`tree.kids[0]` lacks the required field `v`" in out.error.message  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "defs",
    [
        {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
        {"a": {"allOf": [{"type": "integer"}, {"anyOf": [{"$ref": "#/$defs/a"}]}]}},
    ],
)
def test_a_ref_cycle_that_describes_nothing_is_refused(defs: dict[str, Any]) -> None:
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}}, "$defs": defs}
    with pytest.raises(PluginError, match=r"'loop'.*refers to itself.*#/\$defs/a"):
        function_from_schema("loop", "", echo, schema)


def test_property_names_that_are_not_identifiers_are_passed_as_keywords() -> None:
    runtime = Runtime(plugins=[], load_entry_points=False)
    schema = {
        "type": "object",
        "properties": {"from": {"type": "string"}, "max-results": {"type": "integer"}},
    }
    runtime.register(function_from_schema("q", "", echo, schema))
    out = runtime.run("return q({from: 'a', 'max-results': '5'});", lang="plan")
    assert out.value == {"from": "a", "max-results": 5}


def test_the_validator_runs_for_positional_calls_too() -> None:
    runtime = Runtime(plugins=[], load_entry_points=False)
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"enum": ["x", "y"]}},
        "required": ["a", "b"],
    }
    runtime.register(function_from_schema("p", "", echo, schema))
    assert runtime.run({"p": ["4", "y"]}).value == {"a": 4, "b": "y"}
    assert runtime.run({"p": [4, "z"]}).status == "failure"


def test_output_schema_gives_the_result_type_and_checks_results() -> None:
    fn = function_from_schema(
        "r",
        "",
        echo,
        {"type": "object", "properties": {}},
        {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
    )
    assert fn.returns == "object"
    assert isinstance(fn.validator, SchemaArguments)
    fn.validator.check_result({"n": 1})
    with pytest.raises(Exception, match="lacks the required field `n`"):
        fn.validator.check_result({})


def test_options_pass_through() -> None:
    fn = function_from_schema(
        "slow", "", echo, {"type": "object"}, timeout=2.5, blocking=True, max_concurrency=3
    )
    assert (fn.timeout, fn.blocking, fn.max_concurrency) == (2.5, True, 3)


@pytest.mark.parametrize(
    ("schema", "problem"),
    [
        ({"type": "string"}, "must describe an object"),
        ([1, 2], "must be a JSON Schema object"),
        ({"type": "object", "properties": {"a": {"type": "strnig"}}}, "not valid JSON Schema"),
        ({"type": "object", "required": "a"}, "not valid JSON Schema at required"),
        ({"type": "object", "properties": {"a": {"$ref": "http://x/s.json"}}}, "refers outside"),
        ({"type": "object", "properties": {"a": {"$ref": "#/$defs/nope"}}}, "names nothing"),
        ({"type": "object", "properties": {"a": {"type": "object"}}, "x": object()}, "not JSON"),
    ],
)
def test_a_bad_schema_is_a_plugin_error_naming_the_function(schema: Any, problem: str) -> None:
    with pytest.raises(PluginError) as info:
        function_from_schema("broken", "", echo, schema)
    assert "'broken'" in str(info.value)
    assert problem in str(info.value)


def test_a_deeply_nested_schema_is_refused() -> None:
    schema: dict[str, Any] = {"type": "object"}
    for _ in range(100):
        schema = {"type": "object", "properties": {"a": schema}}
    with pytest.raises(PluginError, match="nested more than"):
        function_from_schema("deep", "", echo, schema)


def test_a_deep_hostile_value_fails_cleanly(rt: Runtime) -> None:
    value: Any = "x"
    for _ in range(150):
        value = [value]
    out = run(rt, {"city": "P", "rooms": value})
    assert out.status == "failure"


def test_declared_types_keep_working_beside_schema_functions(rt: Runtime) -> None:
    rt2 = Runtime(plugins=[], load_entry_points=False)
    rt2.register(
        FunctionDescription(
            "plain", "", lambda n, m=0: n + m, {"n": "integer", "m": Optional("integer")}
        )
    )
    assert rt2.run({"plain": {"n": "2"}}).value == 2


@pytest.mark.parametrize(
    ("prop", "type_name"),
    [
        ({"type": "integer"}, "integer"),
        ({"type": ["string"]}, "string"),
        ({"type": ["string", "null"]}, "any"),
        ({"enum": ["a", "b"]}, "string"),
        ({"enum": [1, 2.5]}, "number"),
        ({"enum": ["a", 1]}, "any"),
        ({"const": True}, "boolean"),
        ({"properties": {"x": {}}}, "object"),
        ({"items": {"type": "string"}}, "array"),
        ({"$ref": "#/$defs/D"}, "object"),
        ({"oneOf": [{"type": "string"}, {"type": "integer"}]}, "any"),
        ({}, "any"),
        (True, "any"),
    ],
)
def test_declared_type_of_a_property(prop: Any, type_name: str) -> None:
    schema = {"type": "object", "properties": {"p": prop}, "$defs": {"D": {"type": "object"}}}
    fn = function_from_schema("f", "", echo, schema)
    assert fn.parameters["p"] == Optional(type_name)


def test_a_top_level_ref_to_the_object_schema() -> None:
    schema = {
        "$ref": "#/$defs/Args",
        "$defs": {
            "Args": {
                "type": "object",
                "properties": {"n": {"type": "integer"}},
                "required": ["n"],
            }
        },
    }
    runtime = Runtime(plugins=[], load_entry_points=False)
    runtime.register(function_from_schema("top", "", echo, schema))
    assert runtime.run({"top": {"n": "4"}}).value == {"n": 4}


def test_draft_7_tuple_items_and_a_declared_draft() -> None:
    tuple_schema = {
        "type": "object",
        "properties": {
            "pair": {"type": "array", "items": [{"type": "integer"}, {"type": "string"}]}
        },
    }
    runtime = Runtime(plugins=[], load_entry_points=False)
    runtime.register(function_from_schema("pair", "", echo, tuple_schema))
    assert runtime.run({"pair": {"pair": {"$quote": ["1", 2]}}}).value == {"pair": [1, "2"]}
    declared = {"$schema": "http://json-schema.org/draft-07/schema#", **tuple_schema}
    runtime.register(function_from_schema("pair7", "", echo, declared))
    assert runtime.run({"pair7": {"pair": {"$quote": ["1", 2]}}}).value == {"pair": [1, "2"]}


def test_nullable_enum_accepts_null() -> None:
    schema = {
        "type": "object",
        "properties": {"k": {"type": "string", "enum": ["a"], "nullable": True}},
    }
    fn = function_from_schema("f", "", echo, schema)
    runtime = Runtime(plugins=[], load_entry_points=False)
    runtime.register(fn)
    assert runtime.run({"f": {"k": None}}).value == {"k": None}
    assert runtime.run({"f": {"k": "b"}}).status == "failure"


def test_a_key_that_is_not_a_name_is_quoted_in_the_path() -> None:
    schema = {
        "type": "object",
        "properties": {
            "headers": {"type": "object", "properties": {"Content-Type": {"enum": ["a/b"]}}}
        },
    }
    runtime = Runtime(plugins=[], load_entry_points=False)
    runtime.register(function_from_schema("h", "", echo, schema))
    out = runtime.run({"h": {"headers": {"$quote": {"Content-Type": "x", "n": 1}}}})
    assert '`headers["Content-Type"]` is "x"' in out.error.message  # type: ignore[union-attr]


def test_the_validator_pickles_as_its_schemas() -> None:
    fn = function_from_schema(
        "f", "", echo, {"type": "object", "properties": {"a": {"type": "integer"}}}
    )
    copied = pickle.loads(pickle.dumps(fn.validator))
    assert isinstance(copied, SchemaArguments)
    assert copied({"a": "3"}) == {"a": 3}


def test_an_unknown_option_is_a_plugin_error() -> None:
    with pytest.raises(PluginError, match=r"'f'.*colour"):
        function_from_schema("f", "", echo, {"type": "object"}, colour="red")
