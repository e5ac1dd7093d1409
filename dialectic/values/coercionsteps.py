"""The built-in coercions (SPEC.md section 3): each :data:`Step` converts one value between two
JSON types (a text read as a number or a boolean, a number written as text, an array joined
with ``", "`` or a text read as a JSON array or comma-separated items, ...) or raises
:class:`NoConversion` when it does not apply to that particular value; :data:`BUILTIN_EDGES`
names each with the sentence an error shows. Moved out of :mod:`dialectic.values.coercion`,
which keeps the type system that searches the graph of these edges and the registered ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import orjson

from dialectic.registry.descriptions import RunContext
from dialectic.values.data import TooLarge
from dialectic.values.jsnumber import MAX_SAFE, show_integer
from dialectic.values.jsnumber import js_number_to_string as js_number

__all__ = ["BUILTIN_EDGES", "NoConversion", "Step"]

Step = Callable[[Any, RunContext], Any]


class NoConversion(Exception):
    """A built-in coercion does not apply to this particular value."""


# -- built-in coercions --------------------------------------------------------------------


def _parse_number(text: str) -> int | float:
    t = text.strip()
    if not t:
        raise NoConversion("empty text is not a number")
    try:
        if all(c in "+-0123456789" for c in t):
            return int(t)
        value = float(t)
    except ValueError:
        raise NoConversion(f"{text!r} is not a number") from None
    if math.isnan(value) or math.isinf(value):
        raise NoConversion(f"{text!r} is not a finite number")
    return value


def _str_to_number(v: Any, ctx: RunContext) -> Any:
    return _parse_number(v)


def _str_to_integer(v: Any, ctx: RunContext) -> Any:
    n = _parse_number(v)
    return _number_to_integer(n, ctx)


def _number_to_integer(v: Any, ctx: RunContext) -> Any:
    if isinstance(v, int):
        return v
    if float(v).is_integer():
        return int(v)
    raise NoConversion(f"{js_number(v)} is not a whole number")


def _to_string(v: Any, ctx: RunContext) -> Any:
    """A number or boolean written as text for a parameter declared ``string``: as JavaScript's
    ``String()`` writes it, except an integer beyond 2**53, which is written with its exact
    digits (an argument is carried, not computed with: a 64-bit id keeps its digits, SPEC 1.7)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int) and not -MAX_SAFE <= v <= MAX_SAFE:
        if v.bit_length() > 1024:  # beyond the double range (and str() of 4,300 digits raises)
            raise NoConversion(f"{show_integer(v)} is too large to write as text")
        return str(int(v))
    return js_number(v)


def _bool_to_number(v: Any, ctx: RunContext) -> Any:
    return 1 if v else 0


def _number_to_bool(v: Any, ctx: RunContext) -> Any:
    if v == 1:
        return True
    if v == 0:
        return False
    shown = show_integer(v) if isinstance(v, int) else js_number(v)
    raise NoConversion(f"only 0 and 1 convert to a boolean, not {shown}")


def _str_to_bool(v: Any, ctx: RunContext) -> Any:
    low = v.strip().lower()
    if low in ("true", "1"):
        return True
    if low in ("false", "0"):
        return False
    raise NoConversion(f"{v!r} is not true or false")


def _array_to_string(v: Any, ctx: RunContext) -> Any:
    limit = ctx.limits.max_string_length if ctx.limits is not None else 1_000_000
    parts = []
    total = 0
    for item in v:
        text = item if type(item) is str else ctx.stringify(item)
        total += len(text) + 2
        if total > limit:
            raise TooLarge(limit)
        parts.append(text)
    return ", ".join(parts)


def _string_to_array(v: Any, ctx: RunContext) -> Any:
    t = v.strip()
    if t.startswith("["):
        try:
            parsed = orjson.loads(t)
        except orjson.JSONDecodeError:
            pass
        else:
            if isinstance(parsed, list):
                return parsed
    if not t:
        return []
    return [part.strip() for part in v.split(",")]


def _json_object(v: Any, ctx: RunContext) -> Any:
    try:
        parsed = orjson.loads(v)
    except orjson.JSONDecodeError as exc:
        raise NoConversion(f"the text is not a JSON object ({exc})") from None
    if not isinstance(parsed, dict):
        raise NoConversion("the text is JSON but not an object")
    return parsed


def _wrap(v: Any, ctx: RunContext) -> Any:
    return [v]


BUILTIN_EDGES: dict[tuple[str, str], tuple[Step, str]] = {
    ("string", "number"): (_str_to_number, "parse the text as a number"),
    ("string", "integer"): (_str_to_integer, "parse the text as a whole number"),
    ("number", "integer"): (_number_to_integer, "a whole number"),
    ("number", "string"): (_to_string, "write the number as text"),
    ("boolean", "string"): (_to_string, "write true/false"),
    ("boolean", "number"): (_bool_to_number, "true is 1, false is 0"),
    ("number", "boolean"): (_number_to_bool, "1 is true, 0 is false"),
    ("string", "boolean"): (_str_to_bool, "read 'true'/'false'"),
    ("array", "string"): (_array_to_string, "join the items with ', '"),
    ("string", "array"): (_string_to_array, "a JSON array, or the comma-separated items"),
}
