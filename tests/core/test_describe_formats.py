"""`dialectic describe`: the catalog tells the truth, fits in a prompt, and its machine-readable
forms (JSON Schema of programs, OpenAI / Anthropic / MCP tool specs) are valid and accept what
runs."""

from __future__ import annotations

import datetime
import importlib
import json
import re
from pathlib import Path
from typing import Annotated, Any, Literal

import jsonschema
import pydantic
import pytest
from click.testing import CliRunner
from dialectic_datetime.types import Date
from pydantic import Field

import dialectic
from dialectic import Runtime, function
from dialectic.tools.cli import main
from dialectic.tools.describe import (
    COMPACT_BUDGET,
    FORMATS,
    RUN_PROGRAM,
    TOOL_FORMATS,
    primer,
    tool_call_program,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
MANIFEST: dict[str, Any] = json.loads((EXAMPLES / "manifest.json").read_text())
NOTATIONS = {".js": "plan", ".json": "json", ".yaml": "plan2"}
CONTEXT = {"now": "2023-10-10T08:00:00-07:00", "timezone": "America/Los_Angeles"}
SHIPPED = ("dialectic_datetime.plugin", "dialectic_ide.plugin", "dialectic_travel.plugin")
FIXTURES = ("domainA", "domainB", "domainC", "other")


@pytest.fixture(scope="module")
def shipped() -> Runtime:
    """The shipped extensions, loaded as a user's installation loads them: entry points."""
    return Runtime()


def schema_of(tool: dict[str, Any], fmt: str) -> dict[str, Any]:
    if fmt == "openai":
        assert tool["type"] == "function" and set(tool) == {"type", "function"}
        assert set(tool["function"]) == {"name", "description", "parameters"}
        return dict(tool["function"]["parameters"])
    key = {"anthropic": "input_schema", "mcp": "inputSchema"}[fmt]
    assert set(tool) == {"name", "description", key}
    return dict(tool[key])


def name_of(tool: dict[str, Any]) -> str:
    return str(tool["function"]["name"] if "function" in tool else tool["name"])


def description_of(tool: dict[str, Any]) -> str:
    return str(tool["function"]["description"] if "function" in tool else tool["description"])


# -- the primer and the catalog ------------------------------------------------------------------


def test_markdown_describes_the_language_as_it_is(shipped: Runtime) -> None:
    text = shipped.describe()
    assert text == shipped.describe("markdown")
    for fact in (
        "**Plan.**",
        "**Dialect JSON.**",
        "**Plan2 (YAML).**",
        "`use expr;`",
        "`result`",
        '"$use"',
        "`x.m(a)`",
        "template",
        "**Not in the language.**",
        "`if` without `return` changes values or makes calls",
        "Write instead",
        '`{"$op": ["+", a, b]}`',
        '`{"$if": [test, then, otherwise]}`',
        "`test ? a : b`",
        "// filter",
        "// sort and pick",
        "// arithmetic",
        "// conditional",
        "// fan-out with map",
        "`if (test) { ...; return a; } else { return b; }`",
    ):
        assert fact in text, fact
    # the shipped extensions, with their declared types
    assert "`next(component: string) -> date`" in text
    assert "`car(location: string, pickup: string, dropoff: string, category?: any)" in text
    assert "`flightInfo(airline?: string, flight: string, date?: string) -> object`" in text
    assert "  - e.g. `flights({origin: 'SFO'" in text  # a function's examples


def test_the_primers_examples_run(shipped: Runtime) -> None:
    """Every fenced example of the primer is a program that runs on the shipped extensions, and
    the things it says are missing are refused."""
    blocks = re.findall(r"```(js|yaml)\n(.*?)```", primer(), re.S)
    assert [lang for lang, _ in blocks] == ["js", "yaml"]
    context = CONTEXT | {"travel_latency": 0}
    for lang, source in blocks:
        out = shipped.run(source, lang={"js": "plan", "yaml": "plan2"}[lang], context=context)
        assert out.status == "success", (lang, out.message)
    assert shipped.run("return 1 + 2;", lang="plan", strict=True).value == 3
    assert shipped.run("return a ? 1 : 2;", lang="plan", context={"a": True}).value == 1
    assert shipped.run({"$op": ["+", 1, 2]}).value == 3
    assert shipped.run({"$if": [False, {"upper": "x"}, "y"]}).value == "y"
    for missing in (
        "f = (x) => x; return f(1);",
        "for (x of [1]) {} return 1;",
        "let i = 0; while (true) { i++; } return i;",
        # (a case falling into one that declares a name: the copy would declare it twice)
        "let v = 0; switch (1) { case 1: v = 2; case 2: const w = 3; v = w; break; } return v;",
        "return /(?<=a)b/.test('ab');",  # (regular expressions run; lookaround does not)
        "x = new WeakMap(); return x;",
    ):
        out = shipped.run(missing, lang="plan", strict=True)
        assert out.status == "failure" and out.error is not None, missing
        assert out.error.code in ("syntax_error", "invalid_program"), (missing, out.error.code)


def test_seed_fixtures_are_not_in_the_default_catalog(shipped: Runtime) -> None:
    for fmt in ("markdown", "compact"):
        text = shipped.describe(fmt)
        for name in FIXTURES:
            assert f"{name}(" not in text, (fmt, name)
    assert not set(FIXTURES) & set(shipped.registry.functions)
    import dialectic_travel.fixtures

    loaded = Runtime(plugins=(dialectic_travel.fixtures,))
    assert "- `domainC(slot3: number, slot4: string) -> string`" in loaded.describe()


def test_compact_catalog_fits_in_a_prompt(shipped: Runtime) -> None:
    for name in SHIPPED:
        assert importlib.import_module(name)  # the real extensions are installed
    text = shipped.describe("compact")
    size = len(text.encode("utf-8"))
    assert size <= COMPACT_BUDGET, f"the compact catalog is {size} bytes"
    assert len(text) < len(shipped.describe("markdown")) / 2
    assert "Plan2" in text and "operators" in text and "`use expr;`" in text
    reg = shipped.registry
    for name in reg.functions:  # every function, type and constant is named
        assert re.search(rf"\b{re.escape(name)}\b", text), name
    for name in reg.constants:
        assert re.search(rf"\b{re.escape(name)}\b", text), name
    assert (
        "busses(departing?: place, arriving?: place, date?: travelDate, operator?) -> array "
        "(also buses)" in text
    )
    assert "(also from = departing, to = arriving)" in text
    assert (
        "findSymbol(name: string, file?: string, line?: integer) -> symbol (also findByName)"
        in (text)
    )
    assert "day/days, hour/hours" in text


def test_cli_formats_match_the_api(shipped: Runtime) -> None:
    runner = CliRunner()
    compact = runner.invoke(main, ["describe", "--format", "compact"])
    assert compact.exit_code == 0, compact.output
    assert compact.output == shipped.describe("compact")
    tools = runner.invoke(main, ["describe", "--format", "mcp", "--per-function"])
    assert tools.exit_code == 0, tools.output
    assert json.loads(tools.output) == shipped.describe("mcp", per_function=True)
    bad = runner.invoke(main, ["describe", "--per-function"])
    assert bad.exit_code == 2 and "per_function" in bad.output
    with pytest.raises(ValueError, match="unknown format"):
        shipped.describe("yaml")
    assert set(FORMATS) >= {"markdown", "compact", "json-schema", *TOOL_FORMATS}


# -- decorated functions: Literal choices, model fields, dates ---------------------------------


class Guest(pydantic.BaseModel):
    name: str
    age: int | None = None


@function
def book(
    city: str,
    guest: Guest,
    day: datetime.date,
    nights: int = 1,
    kind: Literal["hotel", "hostel"] = "hotel",
    tags: list[str] | None = None,
) -> dict[str, Any]:
    """Book a stay.

    Args:
        city: where to stay
        kind: the kind of place
    """
    return {"city": city, "guest": guest.name, "day": day.isoformat(), "kind": kind}


@pytest.fixture(scope="module")
def booking() -> Runtime:
    import dialectic_datetime.plugin

    rt = Runtime(plugins=(dialectic_datetime.plugin,), load_entry_points=False)
    rt.register(book)
    return rt


def test_catalog_shows_literal_choices_model_fields_and_dates(booking: Runtime) -> None:
    sig = (
        "book(city: string, guest: {name: string, age?: integer}, day: string (ISO date), "
        "nights?: integer, kind?: 'hotel' | 'hostel', tags?: string[]) -> object"
    )
    assert f"- `{sig}`: Book a stay." in booking.describe()
    assert f"- {sig}: Book a stay." in booking.describe("compact")
    (tool,) = [t for t in booking.describe("openai", per_function=True) if name_of(t) == "book"]
    params = schema_of(tool, "openai")
    assert params["properties"]["kind"]["enum"] == ["hotel", "hostel"]
    assert params["properties"]["kind"]["description"] == "the kind of place"
    assert params["properties"]["day"] == {"type": "string", "format": "date"}
    guest = params["properties"]["guest"]
    if "$ref" in guest:
        guest = params["$defs"][guest["$ref"].rsplit("/", 1)[1]]
    assert guest["required"] == ["name"] and set(guest["properties"]) == {"name", "age"}
    assert params["required"] == ["city", "guest", "day"]


def test_registered_types_and_constraints_next_to_literals() -> None:
    """A parameter of a registered type keeps its type's name; pydantic describes the others
    (choices, constraints) even when it cannot describe that one."""
    import dialectic_datetime.plugin

    @function
    def remind(
        when: Date, mode: Literal["mail", "sms"], times: Annotated[int, Field(ge=1)] = 1
    ) -> str:
        """Remind me."""
        return f"{mode} x{times} at {when.iso}"

    rt = Runtime(plugins=(dialectic_datetime.plugin,), load_entry_points=False)
    rt.register(remind)
    sig = "remind(when: date, mode: 'mail' | 'sms', times?: integer) -> string"
    assert f"- `{sig}`: Remind me." in rt.describe()
    (tool,) = [t for t in rt.describe("mcp", per_function=True) if name_of(t) == "remind"]
    params = schema_of(tool, "mcp")
    jsonschema.Draft202012Validator.check_schema(params)
    assert params["properties"]["times"] == {"type": "integer", "minimum": 1}
    assert params["properties"]["mode"] == {"type": "string", "enum": ["mail", "sms"]}
    assert "a `date`" in params["properties"]["when"]["description"]
    args = {"when": "2023-10-12T09:00:00-07:00", "mode": "sms", "times": 2}
    jsonschema.validate(args, params)
    out = rt.run(tool_call_program("remind", args))
    assert out.status == "success", out.message
    assert out.value == "sms x2 at 2023-10-12T09:00:00-07:00"


def test_date_parameters_take_text_and_date_values(booking: Runtime) -> None:
    args = {"city": "Paris", "guest": {"name": "Ada"}, "day": "2023-10-12", "kind": "hostel"}
    out = booking.run(tool_call_program("book", args))
    assert out.status == "success", out.message
    assert out.value == {"city": "Paris", "guest": "Ada", "day": "2023-10-12", "kind": "hostel"}
    plan = "return book({city: 'Rome', guest: {name: 'Bo'}, day: next(Thursday)});"
    out = booking.run(plan, lang="plan", context=CONTEXT)
    assert out.status == "success", out.message
    assert out.value["day"] == "2023-10-12"
    wrong = booking.run(tool_call_program("book", {**args, "kind": "castle"}))
    assert wrong.status == "failure" and "kind" in (wrong.message or "")


# -- the JSON Schema of programs -----------------------------------------------------------------


def example_cases() -> list[Any]:
    out = []
    for stem, entry in MANIFEST["examples"].items():
        for ext, lang in NOTATIONS.items():
            path = EXAMPLES / f"{stem}{ext}"
            if path.exists():
                out.append(pytest.param(path, lang, tuple(entry["plugins"]), id=f"{stem}{ext}"))
    return out


def validator_for(plugins: tuple[str, ...]) -> tuple[Runtime, jsonschema.Draft202012Validator]:
    rt = Runtime(
        plugins=tuple(importlib.import_module(p) for p in plugins), load_entry_points=False
    )
    schema = rt.describe("json-schema")
    jsonschema.Draft202012Validator.check_schema(schema)
    return rt, jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize(("path", "lang", "plugins"), example_cases())
def test_every_example_validates_as_written_and_canonical(
    path: Path, lang: str, plugins: tuple[str, ...]
) -> None:
    rt, validator = validator_for(plugins)
    source = path.read_text()
    written = dialectic.compile(source, lang=lang)
    written = getattr(written, "tree", written)
    canonical = rt.compile(source, lang=lang)
    for label, tree in (("as written", written), ("canonical", canonical)):
        errors = sorted(validator.iter_errors(tree), key=lambda e: list(e.absolute_path))
        assert not errors, f"{label}: {jsonschema.exceptions.best_match(errors).message}"


def test_the_three_examples_that_failed_before_use_positional_arguments() -> None:
    """rental_car, seed_dates and sf_to_la_next_thursday call functions with positional
    arrays (`{"minus": [...]}`, `{"next": [...]}`): the schema described only named ones."""
    _, validator = validator_for(SHIPPED)
    for stem in ("travel/rental_car", "datetime/seed_dates", "travel/sf_to_la_next_thursday"):
        program = json.loads((EXAMPLES / f"{stem}.json").read_text())
        assert validator.is_valid(program), stem


@pytest.mark.parametrize(
    "program",
    [
        {"nosuchFunction": {"x": 1}},  # unknown function
        {"flights": {"origin": "SFO", "fromm": "x"}},  # unknown parameter
        {"car": {"location": "CNY"}},  # missing required arguments
        {"min": [1, 2, 3]},  # too many positional arguments
        {"findReferences": [{"target": "x"}]},  # a one-key object is a call (of `target`)
        {"min": 1},  # one value, two required parameters
        {"getCurrentSelection": 1},  # an argument for a function without parameters
        {"$return": {"$use": 1}},  # `$use` below the top
        {"$let": {"a": 1}, "$return": 1, "$use": 1},
        {"$let": {"$a": 1}, "$return": 1},  # alias names do not start with $
        {"$get": [{"$ref": "a"}]},  # no key
        {"$ref": ""},
        {"$nosuchform": 1},
        {"$ref": "a", "b": 1},
        {"a": 1, "$b": 2},
        {"$op": ["*", 1]},  # a binary operator with one operand
        {"$op": ["@", 1]},  # no such operator
        {"$if": [True, 1]},
    ],
)
def test_invalid_programs_are_rejected(shipped: Runtime, program: Any) -> None:
    validator = jsonschema.Draft202012Validator(shipped.describe("json-schema"))
    assert not validator.is_valid(program)
    with pytest.raises(dialectic.DialecticError):
        shipped.compile(program)


@pytest.mark.parametrize(
    "program",
    [
        {"$use": {"next": "Thursday"}},
        {"$let": {"d": {"next": ["Thursday"]}}, "$use": {"$get": [{"$ref": "d"}, "iso"]}},
        {"findReferences": {"getCurrentSelection": {}}},  # a nested call
        {"flights": [{"origin": "SFO", "to": "LAX"}]},  # one object literal: named arguments
        {"findReferences": [{"$object": {"target": "x"}}]},
        {"str": {"a": 1, "b": 2}},  # an object bound whole to the only parameter
        {"plus": [{"$ref": "today"}, 1, "day"]},
        {"at": {"date": "2023-10-12", "time": "9am"}},
        {"$template": ["at ", {"$ref": "now"}]},
        {"$quote": {"anything": {"goes": 1}}},
        [1, "two", {"a": 1, "b": {"$object": {"c": 3}}}],
        {"$unwrap": {"flights": {}}},
        {"$op": ["+", {"length": "abc"}, 1]},
        {"$op": ["!", {"$ref": "today"}]},
        {"$if": [{"$op": ["<", 1, 2]}, {"upper": "x"}, None]},
    ],
)
def test_valid_programs_are_accepted(shipped: Runtime, program: Any) -> None:
    validator = jsonschema.Draft202012Validator(shipped.describe("json-schema"))
    shipped.compile(program)  # it is valid
    assert validator.is_valid(program), jsonschema.exceptions.best_match(
        validator.iter_errors(program)
    )
    assert validator.is_valid(shipped.compile(program))


# -- tool specs --------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", TOOL_FORMATS)
def test_run_program_tool(shipped: Runtime, fmt: str) -> None:
    (tool,) = shipped.describe(fmt)
    assert name_of(tool) == RUN_PROGRAM
    assert shipped.describe("compact") in description_of(tool)
    schema = schema_of(tool, fmt)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["required"] == ["program"]
    assert schema["properties"]["notation"]["enum"] == ["json", "plan", "plan2"]
    call = {"program": "return next(Thursday);", "notation": "plan"}
    jsonschema.validate(call, schema)
    out = shipped.run(call["program"], lang=call["notation"], context=CONTEXT)
    assert out.status == "success"
    assert not jsonschema.Draft202012Validator(schema).is_valid({"notation": "plan"})
    assert not jsonschema.Draft202012Validator(schema).is_valid({"program": "x", "lang": "js"})


@pytest.mark.parametrize("fmt", TOOL_FORMATS)
def test_one_tool_per_function(shipped: Runtime, fmt: str) -> None:
    tools = shipped.describe(fmt, per_function=True)
    reg = shipped.registry
    names = [name_of(t) for t in tools]
    assert names == sorted(n for n in reg.functions if not reg.is_builtin(n))
    assert "flights" in names and "date" in names and "upper" not in names
    for tool in tools:
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", name_of(tool))
        schema = schema_of(tool, fmt)
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object"
        fn = reg.functions[name_of(tool)]
        assert set(schema["properties"]) == set(fn.parameters)
        assert description_of(tool).startswith(fn.description)
    car = schema_of(tools[names.index("car")], fmt)
    assert car["required"] == ["location", "pickup", "dropoff"]
    assert car["properties"]["location"]["type"] == "string"
    assert car["properties"]["category"].get("type") is None  # any: text or a list
    plus = schema_of(tools[names.index("plus")], fmt)
    date = plus["properties"]["date"]  # a registered type: its text form or its fields
    assert {"type": "string"} in date["anyOf"] and "a `date`" in date["description"]


def test_per_function_tool_calls_run(shipped: Runtime) -> None:
    tools = {
        name_of(t): schema_of(t, "anthropic")
        for t in shipped.describe("anthropic", per_function=True)
    }
    args = {"origin": ["SFO"], "destination": "LAX", "departing": "2023-10-12"}
    jsonschema.validate(args, tools["flights"])
    out = shipped.run(tool_call_program("flights", args), context=CONTEXT | {"travel_latency": 0})
    assert out.status == "success", out.message
    assert [f["flight"] for f in out.value][:2] == ["UA 1180", "AS 1920"]
    # data is data: a one-key object among the arguments is not read as a call
    assert tool_call_program("str", {"value": {"flights": {}}}) == {
        "str": {"value": {"$quote": {"flights": {}}}}
    }
    out = shipped.run(tool_call_program("str", {"value": {"flights": {}}}))
    assert out.status == "success" and out.value == '{"flights":{}}'


def test_compact_catalog_says_each_thing_once(shipped: Runtime) -> None:
    """A type's constructor has no return type (it makes the type), its parameters are not
    listed again as members, conversions are grouped by the type converted and constants by
    type: nothing a model needs is lost (every member, conversion and constant is there)."""
    text = shipped.describe("compact")
    reg = shipped.registry
    assert "Types (constructor: description; members: its parameters and those listed):" in text
    assert "- location(file: string, line: integer, column: integer, text?: string): A " in text
    assert "- place(names: array): Airport code or city\n" in text
    types = text[text.index("Types (") : text.index("Automatic conversions")]
    for name in reg.types:
        line = next(x for x in types.splitlines() if x.startswith(f"- {name}("))
        assert f" -> {name}" not in line, line
        params = [p.name for p in reg.params(reg.functions[name])]
        listed = line.split(": ", 1)[1].split("; ", 1)[1] if "; ." in line else ""
        for member in reg.types[name].properties:
            assert member in params or f".{member}" in listed, (name, member)
        for param in params:
            assert f".{param}," not in listed and not listed.endswith(f".{param}"), line
    assert (
        "Automatic conversions: array->place/travelDate, date->string, location->symbol, "
        "selection->symbol, string->date/place/symbol/travelDate." in text
    )
    line = text[text.index("Automatic conversions: ") :].splitlines()[0]
    for a, b in reg.conversions:
        assert re.search(rf"\b{a}->[\w/]*\b{b}\b", line), (a, b)
    assert "Constants (string):\n- Friday, Monday," in text
    assert "Constants (date):\n- now: The current time of the run." in text
    assert "(string):" not in text.replace("Constants (string):", "")
