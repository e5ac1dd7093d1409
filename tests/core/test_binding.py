"""No silent misbinding (SPEC 1.5): an object of named arguments is never bound whole to one
parameter by accident, in any notation."""

from __future__ import annotations

from typing import Any

import pytest

import dialectic.testing
from dialectic import FunctionDescription, Optional, Runtime


def _runtime() -> Runtime:
    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    rt.register(
        FunctionDescription(
            "trip",
            "all-optional slots of any type, like the travel domains",
            lambda **kw: kw,
            {"origin": Optional("any"), "destination": Optional("any"), "date": Optional("any")},
            "object",
        ),
        FunctionDescription(
            "lookup",
            "an optional parameter declared before the required one",
            lambda flight, airline=None: {"flight": flight, "airline": airline},
            {"airline": Optional("string"), "flight": "string"},
            "object",
        ),
        FunctionDescription(
            "pretty",
            "one required value, one option",
            lambda value, indent=2: {"value": value, "indent": indent},
            {"value": "any", "indent": Optional("integer")},
            "object",
        ),
    )
    return rt


RT = _runtime()

MISNAMED: dict[str, str] = {
    "plan": "return trip({from_airport: 'SFO', to_airport: 'LAX', travel_date: 'tomorrow'});",
    "json": '{"trip": {"from_airport": "SFO", "to_airport": "LAX", "travel_date": "tomorrow"}}',
    "plan2": "result:\n  trip:\n    from_airport: SFO\n    to_airport: LAX\n"
    "    travel_date: tomorrow\n",
}


@pytest.mark.parametrize("lang", sorted(MISNAMED))
def test_misnamed_keys_are_unknown_parameters_in_every_notation(lang: str) -> None:
    out = RT.run(MISNAMED[lang], lang=lang)
    assert out.status == "failure", out.value
    assert out.error is not None and out.error.code == "unknown_parameter"
    assert "from_airport" in (out.message or "") and "origin" in (out.message or "")
    assert "trip(origin?: any, destination?: any, date?: any)" in (out.message or "")


def test_json_positional_object_is_read_the_same_way() -> None:
    out = RT.run({"trip": [{"$object": {"from_airport": "SFO", "to_airport": "LAX"}}]})
    assert out.error is not None and out.error.code == "unknown_parameter"


def test_a_partial_match_names_the_unknown_keys() -> None:
    out = RT.run("return trip({origin: 'SFO', dest: 'LAX'});", lang="plan")
    assert out.error is not None and out.error.code == "unknown_parameter"
    assert "`dest`" in (out.message or "") and "destination" in (out.message or "")


def test_an_object_is_the_value_of_the_only_parameter_that_can_hold_it() -> None:
    assert RT.run("return echo({a: 1, b: 2});", lang="plan").value == {"a": 1, "b": 2}
    assert RT.run('{"echo": {"a": 1, "b": 2}}').value == {"a": 1, "b": 2}
    assert RT.run("return echo({});", lang="plan").value == {}
    out = RT.run("return pretty({a: 1, b: 2});", lang="plan")
    assert out.value == {"value": {"a": 1, "b": 2}, "indent": 2}


def test_a_string_parameter_never_takes_an_object_whole() -> None:
    out = RT.run("return upper({txt: 'a'});", lang="plan")
    assert out.error is not None and out.error.code == "unknown_parameter"
    assert "did you mean `text`" in (out.message or "")


def test_named_arguments_still_bind() -> None:
    out = RT.run("return trip({origin: 'SFO', date: 'tomorrow'});", lang="plan")
    assert out.value == {"origin": "SFO", "date": "tomorrow"}
    assert RT.run("return trip({});", lang="plan").value == {}


def test_positional_arguments_fill_required_parameters_first() -> None:
    out = RT.run("return lookup('UA 5117');", lang="plan")
    assert out.value == {"flight": "UA 5117", "airline": None}
    two = RT.run("return lookup('UA 5117', 'United');", lang="plan")
    assert two.value == {"flight": "UA 5117", "airline": "United"}


def test_canonical_form_names_what_was_bound() -> None:
    tree: Any = RT.compile("return lookup('UA 5117');", lang="plan")
    assert tree == {"$return": {"lookup": {"flight": "UA 5117"}}}


def test_a_misspelt_nested_call_is_still_an_unknown_function() -> None:
    out = RT.run({"echo": {"uper": {"text": "a"}}})
    assert out.error is not None and out.error.code == "unknown_function"
    assert "upper" in (out.message or "")


def test_declared_synonyms_name_one_parameter_and_take_no_positional_slot() -> None:
    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    rt.register(
        FunctionDescription(
            "route",
            "a route",
            lambda origin, destination, when=None: [origin, destination, when],
            {"origin": "string", "destination": "string", "when": Optional("string")},
            "array",
            aliases=("path",),
            parameter_aliases={"from": "origin", "to": "destination", "date": "when"},
        )
    )
    assert rt.run("return route('SFO', 'LAX', 'mon');", lang="plan").value == [
        "SFO",
        "LAX",
        "mon",
    ]
    named = rt.run("return path({from: 'SFO', to: 'LAX', date: 'mon'});", lang="plan")
    assert named.value == ["SFO", "LAX", "mon"] and named.warnings == []
    # the canonical form names the function and its parameters by their own names
    assert rt.compile('{"path": {"from": "A", "to": "B"}}') == {
        "route": {"origin": "A", "destination": "B"}
    }
    twice = rt.run("return route({from: 'A', origin: 'B', to: 'C'});", lang="plan")
    assert twice.error is not None and "twice" in (twice.message or "")
    assert "also called `path`" in rt.describe()
    assert "from = origin" in rt.describe("compact")
