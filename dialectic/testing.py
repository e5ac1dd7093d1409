"""A small, deterministic plugin for conformance tests, examples and benchmarks.

It registers sync and async functions, a registered type with fields and a property, conversions
(including two equally short paths, for coercion ambiguity), a constant, and functions that fail
or are ambiguous on purpose. Load it with ``Runtime(plugins=[dialectic.testing])``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import anyio

from dialectic.outcome.errors import Ambiguous, Candidate, Failure
from dialectic.registry.descriptions import (
    Constant,
    FunctionDescription,
    Optional,
    TypeConversion,
    TypeDescription,
)
from dialectic.registry.jsonschema import function_from_schema
from dialectic.registry.plugins import Register, hookimpl


@dataclass(frozen=True)
class Point:
    x: float
    y: float


@dataclass(frozen=True)
class Tag:
    """Conversion-ambiguity fixtures: tag -> left -> mark and tag -> right -> mark."""

    text: str


@dataclass(frozen=True)
class Left:
    text: str


@dataclass(frozen=True)
class Right:
    text: str


@dataclass(frozen=True)
class Mark:
    text: str


SYMBOLS = {
    "validateToken": [("auth.ts", 42), ("utils.ts", 15)],
    "parse": [("parser.py", 3), ("cli.py", 9), ("util.py", 27)],
    "main": [("main.py", 1)],
}


def _find(name: str, file: str | None = None, line: int | None = None) -> dict[str, Any]:
    places = SYMBOLS.get(name)
    if not places:
        raise Failure(f"no symbol named `{name}`", hint="Known: " + ", ".join(sorted(SYMBOLS)))
    matches = [
        (f, n) for f, n in places if (file is None or f == file) and (line is None or n == line)
    ]
    if not matches:
        raise Failure(f"`{name}` is not defined in {file}")
    if len(matches) > 1:
        raise Ambiguous(
            f"The symbol `{name}` is defined in multiple places. Which did you mean?",
            [
                Candidate(
                    f"the `{name}` from `{f}:{n}`",
                    {"find": {"name": name, "file": f, "line": n}},
                )
                for f, n in matches
            ],
        )
    f, n = matches[0]
    return {"name": name, "file": f, "line": n}


async def _sleep_echo(value: Any, seconds: float = 0.0) -> Any:
    await anyio.sleep(seconds)
    return value


async def _async_add(a: float, b: float) -> float:
    await anyio.sleep(0)
    return a + b


def _jot(text: str, ctx: Any) -> int:
    """Append to this run's notes (a write: it runs, in program order, referenced or not)."""
    notes: list[str] = ctx.cache.setdefault("notes", [])
    notes.append(text)
    return len(notes)


def _jotted(ctx: Any) -> list[str]:
    return list(ctx.cache.get("notes", []))


def _boom(message: str = "boom") -> Any:
    raise RuntimeError(message)


def _refuse(reason: str) -> Any:
    raise Failure(reason, hint="This function always refuses.")


FUNCTIONS = (
    FunctionDescription(
        "add", "a + b", lambda a, b: a + b, {"a": "number", "b": "number"}, "number"
    ),
    FunctionDescription(
        "concat", "a followed by b", lambda a, b: a + b, {"a": "string", "b": "string"}, "string"
    ),
    FunctionDescription(
        "count", "number of items", lambda items: len(items), {"items": "array"}, "integer"
    ),
    FunctionDescription("double", "2 * n", lambda n: 2 * n, {"n": "integer"}, "integer"),
    FunctionDescription(
        "jot",
        "add a note",
        _jot,
        {"text": "string"},
        "integer",
        pass_context=True,
        effects="write",
        scope="notes",
    ),
    FunctionDescription(
        "jotted", "the notes so far", _jotted, {}, "array", pass_context=True, scope="notes"
    ),
    FunctionDescription("negate", "not b", lambda flag: not flag, {"flag": "boolean"}, "boolean"),
    FunctionDescription(
        "keys", "the keys of an object", lambda obj: sorted(obj), {"obj": "object"}, "array"
    ),
    FunctionDescription("echo", "its argument", lambda value: value, {"value": "any"}, "any"),
    FunctionDescription(
        "greet",
        "a greeting",
        lambda name, punctuation="!": f"Hello, {name}{punctuation}",
        {"name": "string", "punctuation": Optional("string")},
        "string",
    ),
    FunctionDescription("sqrt", "square root", lambda x: math.sqrt(x), {"x": "number"}, "number"),
    FunctionDescription(
        "find",
        "find a symbol by name",
        _find,
        {"name": "string", "file": Optional("string"), "line": Optional("integer")},
        "object",
    ),
    FunctionDescription(
        "sleepEcho",
        "its argument, after a pause",
        _sleep_echo,
        {"value": "any", "seconds": Optional("number")},
        "any",
    ),
    FunctionDescription(
        "asyncAdd", "a + b, asynchronously", _async_add, {"a": "number", "b": "number"}, "number"
    ),
    FunctionDescription(
        "boom", "always raises an unexpected error", _boom, {"message": Optional("string")}, "any"
    ),
    FunctionDescription("refuse", "always fails cleanly", _refuse, {"reason": "string"}, "any"),
    FunctionDescription(
        "norm", "length of a point", lambda p: math.hypot(p.x, p.y), {"p": "point"}, "number"
    ),
    FunctionDescription(
        "markText", "the text of a mark", lambda m: m.text, {"m": "mark"}, "string"
    ),
    FunctionDescription("nothing", "takes no arguments", lambda: "nothing", {}, "string"),
)

#: functions in namespaces (SPEC 2.2), some declared by JSON Schema: `midpoint` is in two
#: namespaces (its bare name is ambiguous), `scale` and `pick` in one (their bare names work)
NAMESPACED = (
    function_from_schema(
        "scale",
        "value * factor",
        lambda value, factor=2: value * factor,
        {
            "type": "object",
            "properties": {
                "value": {"type": "number"},
                "factor": {"type": "integer", "default": 2},
            },
            "required": ["value"],
        },
        {"type": "number"},
        namespace="geo",
    ),
    FunctionDescription(
        "midpoint",
        "halfway between a and b",
        lambda a, b: (a + b) / 2,
        {"a": "number", "b": "number"},
        "number",
        namespace="geo",
    ),
    FunctionDescription(
        "calc.midpoint",
        "halfway between a and b, rounded down",
        lambda a, b: (a + b) // 2,
        {"a": "number", "b": "number"},
        "number",
    ),
    function_from_schema(
        "pick",
        "a kind and its items",
        lambda kind, items=(): {"kind": kind, "items": list(items)},
        {
            "type": "object",
            "properties": {
                "kind": {"enum": ["a", "b"]},
                "items": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"n": {"type": "integer"}, "tag": {"type": "string"}},
                        "required": ["n"],
                    },
                },
            },
            "required": ["kind"],
        },
        namespace="calc",
    ),
)

TYPES = (
    TypeDescription(
        "point",
        "A point in the plane",
        Point,
        {"x": "number", "y": "number"},
        Point,
        properties={"norm": lambda p: math.hypot(p.x, p.y)},
        format=lambda p: f"({p.x}, {p.y})",
    ),
    TypeDescription("tag", "a tag", Tag, {"text": "string"}, Tag),
    TypeDescription("left", "a left", Left, {"text": "string"}, Left),
    TypeDescription("right", "a right", Right, {"text": "string"}, Right),
    TypeDescription("mark", "a mark", Mark, {"text": "string"}, Mark),
)


def _text_to_point(text: str) -> Point:
    try:
        x, y = (float(part) for part in text.split(","))
    except ValueError:
        raise Failure(f"{text!r} is not a point; write 'x,y'") from None
    return Point(x, y)


CONVERSIONS = (
    TypeConversion("string", "point", "parse 'x,y'", _text_to_point),
    TypeConversion("string", "tag", "the text as a tag", Tag),
    TypeConversion("tag", "left", "tag to left", lambda t: Left(t.text + "<")),
    TypeConversion("tag", "right", "tag to right", lambda t: Right(t.text + ">")),
    TypeConversion("left", "mark", "left to mark", lambda v: Mark("L:" + v.text)),
    TypeConversion("right", "mark", "right to mark", lambda v: Mark("R:" + v.text)),
)

CONSTANTS = (
    Constant("answer", "The answer", 42, returns="integer"),
    Constant("origin", "The origin point", factory=lambda ctx: Point(0, 0), returns="point"),
)


@hookimpl
def dialectic_register_functions(register: Register) -> None:
    register(*FUNCTIONS, *NAMESPACED)


@hookimpl
def dialectic_register_types(register: Register) -> None:
    register(*TYPES)


@hookimpl
def dialectic_register_conversions(register: Register) -> None:
    register(*CONVERSIONS)


@hookimpl
def dialectic_register_constants(register: Register) -> None:
    register(*CONSTANTS)
