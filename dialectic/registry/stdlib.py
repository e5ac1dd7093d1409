"""The built-in functions every runtime has (a plugin like any other; ``Runtime(builtins=False)``
leaves it out). Kept deliberately small: text, numbers, lengths and explicit conversion."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.outcome.errors import Failure, LimitExceeded
from dialectic.registry.descriptions import FunctionDescription, Optional, RunContext
from dialectic.registry.plugins import Register, hookimpl
from dialectic.registry.waiting import SLEEP


def _str(value: Any, *, ctx: RunContext) -> str:
    return ctx.stringify(value)


def _upper(text: str) -> str:
    return text.upper()


def _lower(text: str) -> str:
    return text.lower()


def _trim(text: str) -> str:
    return text.strip()


def _max(a: float, b: float) -> float:
    return a if a >= b else b


def _min(a: float, b: float) -> float:
    return a if a <= b else b


def _length(value: Any) -> int:
    if isinstance(value, str | list | dict):
        return len(value)
    raise Failure(f"length needs a string, an array or an object, not {type(value).__name__}")


def _join(items: list[Any], separator: str = ", ", *, ctx: RunContext) -> str:
    limit = ctx.limits.max_string_length if ctx.limits is not None else 1_000_000
    parts = []
    total = 0
    for item in items:
        text = ctx.stringify(item)
        total += len(text) + len(separator)
        if total > limit:
            raise LimitExceeded(
                "max_string_length", f"the joined text would be longer than {limit} characters"
            )
        parts.append(text)
    return separator.join(parts)


def _split(text: str, separator: str = ",") -> list[str]:
    if separator == "":
        raise Failure("the separator must not be empty")
    return [part.strip() for part in text.split(separator)]


def _unwrap(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def _convert(value: Any, type: str, via: list[str] | None = None, *, ctx: RunContext) -> Any:
    from dialectic.values.coercion import CoercionAmbiguity

    try:
        return ctx.convert(value, type, via or ())
    except CoercionAmbiguity as amb:
        paths = "; ".join(" -> ".join(p) for p in amb.paths[:5])
        raise Failure(
            f"there are several ways to convert {amb.source} to {amb.target}: {paths}",
            hint="Name the steps with `via`, e.g. convert(x, 'object', ['date']).",
        ) from None


BUILTINS = (
    FunctionDescription(
        "str",
        "The value as text (numbers as JavaScript writes them; arrays "
        "and objects as compact JSON).",
        _str,
        {"value": "any"},
        "string",
        pass_context=True,
    ),
    FunctionDescription("upper", "The text in upper case.", _upper, {"text": "string"}, "string"),
    FunctionDescription("lower", "The text in lower case.", _lower, {"text": "string"}, "string"),
    FunctionDescription(
        "trim", "The text without surrounding white space.", _trim, {"text": "string"}, "string"
    ),
    FunctionDescription(
        "max", "The larger of two numbers.", _max, {"a": "number", "b": "number"}, "number"
    ),
    FunctionDescription(
        "min", "The smaller of two numbers.", _min, {"a": "number", "b": "number"}, "number"
    ),
    FunctionDescription(
        "length",
        "The number of characters of a text, items of an array or members of an object.",
        _length,
        {"value": "any"},
        "integer",
    ),
    FunctionDescription(
        "join",
        "The items as one text, separated by `separator` (default ', ').",
        _join,
        {"items": "array", "separator": Optional("string")},
        "string",
        pass_context=True,
    ),
    FunctionDescription(
        "split",
        "The text cut at each `separator` (default ','), trimmed.",
        _split,
        {"text": "string", "separator": Optional("string")},
        "array",
    ),
    FunctionDescription(
        "unwrap",
        "A one-element array's element; any other value as it is (the call form of $unwrap).",
        _unwrap,
        {"value": "any"},
        "any",
    ),
    FunctionDescription(
        "convert",
        "Convert a value to the type `type`, optionally through the intermediate types `via` "
        "(the explicit form of automatic coercion).",
        _convert,
        {"value": "any", "type": "string", "via": Optional("array")},
        "any",
        pass_context=True,
    ),
    SLEEP,
)


STR = next(d for d in BUILTINS if d.name == "str")


def bind_str(stringify: Callable[[Any], str]) -> FunctionDescription:
    """`str` bound to one runtime's stringification: no run context needed, so the call stays
    on the fastest path (the plugin's version reaches the same code through ``ctx``)."""
    return FunctionDescription(
        STR.name, STR.description, stringify, dict(STR.parameters), STR.returns
    )


@hookimpl
def dialectic_register_functions(register: Register) -> None:
    register(*BUILTINS)
