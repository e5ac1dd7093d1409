"""``Number(v)``: JavaScript's conversion of a value to a number (SPEC.md section 1.7), text
read by JavaScript's grammar (decimal, ``0x``/``0o``/``0b``, ``Infinity``, JavaScript's white
space around it), an array through its text; what would be ``NaN`` is refused with what to
write instead."""

from __future__ import annotations

import math
import re
from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import MAX_SAFE, JsRefusal
from dialectic.values.jsoperands import (
    NotANumber,
    convert_hint,
    date_time,
    is_number,
    number,
    with_article,
)
from dialectic.values.jsrelations import kind

__all__ = ["DECIMAL", "JS_SPACE", "PREFIXED", "to_number"]

_INF = math.inf
DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
PREFIXED = re.compile(r"0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+")
# JavaScript's StrWhiteSpaceChar: WhiteSpace and LineTerminator
JS_SPACE = (
    " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def to_number(v: Any) -> Any:
    """``Number(v)``: numbers as they are, text by JavaScript's grammar, booleans 0/1; what
    would be NaN is refused."""
    t = type(v)
    if t is int or t is float:
        return number(v)
    if t is bool:
        return 1 if v else 0
    if v is None:
        return 0
    if t is str:
        text = v.strip(JS_SPACE)
        if not text:
            return 0
        if len(text) > 400:
            raise JsRefusal("the text is too long to be a number")
        if DECIMAL.fullmatch(text):
            f = float(text)
            return number(int(text) if text.lstrip("+-").isdigit() and abs(f) <= MAX_SAFE else f)
        if PREFIXED.fullmatch(text):
            return number(int(text, 0))
        if text in ("Infinity", "+Infinity", "-Infinity"):
            return -_INF if text[0] == "-" else _INF
        raise NotANumber(
            JsRefusal(
                f"Number({_quote(v)}) is NaN in JavaScript: the text is not a number",
                "Test the value before using it: const x = Number(t); if (isNaN(x)) return "
                "null; (SPEC 1.7), or use parseFloat(t) on text that starts with a number.",
            )
        )
    time = date_time(v, "Number()")
    if time is not None:
        return time
    if t is list:
        return _array_number(v)
    raise NotANumber(
        JsRefusal(f"Number() of {with_article(kind(v))} is NaN in JavaScript", convert_hint(v))
    )


def _array_number(items: list[Any]) -> Any:
    """``Number(xs)``: JavaScript converts the array through its text, its items joined by
    commas: ``[]`` is 0, ``[7]`` and ``['7']`` are 7 (an item null or undefined writes
    nothing: 0), an array of two or more items is NaN (a comma is no number)."""
    xs: Any = items
    depth = 0
    while type(xs) is list and len(xs) == 1 and depth < 1000:
        xs, depth = xs[0], depth + 1  # (`[[7]]` writes "7" too)
    if type(xs) is list and len(xs) > 1:
        raise NotANumber(
            JsRefusal(
                f"Number() of an array of {len(xs)} items is NaN in JavaScript (its text has "
                "commas)",
                "Take the item first: Number(xs[0]), or xs.map(Number) for each.",
            )
        )
    if (type(xs) is list and not xs) or xs is None or xs is UNDEFINED:
        return 0  # (the text "" is 0)
    if not (type(xs) is str or is_number(xs)):  # ("true", "[object Object]", a Date's text)
        raise NotANumber(
            JsRefusal(
                f"Number() of an array holding {with_article(kind(xs))} is NaN in JavaScript",
                "Take the item first: Number(xs[0]).",
            )
        )
    return to_number(xs)


def _quote(text: str, limit: int = 40) -> str:
    shown = text if len(text) <= limit else text[:limit] + "..."
    return "'" + shown.replace("\n", "\\n").replace("'", "\\'") + "'"
