"""The operands and results of JavaScript's numeric operators (SPEC.md section 1.7), for
:mod:`.jsops` and :mod:`.jspower`: a result as JavaScript holds it (:func:`number`, exact
integers within 2**53, ``NaN`` refused), an operand read as a number (a Date by its time) or
refused with what to write instead, and the refusal of two integers beyond 2**53 that
JavaScript cannot tell apart."""

from __future__ import annotations

from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import (
    MAX_SAFE,
    JsRefusal,
    as_double,
    js_number_to_string,
    show_integer,
)
from dialectic.values.jsrelations import kind

__all__ = [
    "NotANumber",
    "big",
    "convert_hint",
    "date_time",
    "distinct",
    "is_number",
    "nan_of",
    "not_a_number",
    "number",
    "operand",
    "rounded",
    "with_article",
]


def is_number(v: Any) -> bool:
    """Whether ``v`` is a JavaScript number (an ``int`` or a ``float``, not a ``bool``)."""
    t = type(v)
    return t is int or t is float


def number(x: int | float) -> int | float:
    """A result as JavaScript holds it: exact integers, whole floats as ints, an infinity as it
    is; ``NaN`` is refused."""
    if type(x) is int:
        if -MAX_SAFE <= x <= MAX_SAFE:
            return x
        raise JsRefusal(
            "the result is an integer beyond 2**53, which JavaScript cannot hold exactly",
            "Keep integer arithmetic within ±9007199254740992.",
        )
    if x != x:
        raise NotANumber(not_a_number("the result"))
    if float(x).is_integer() and -MAX_SAFE <= x <= MAX_SAFE:
        return int(x)
    return x


def rounded(x: int | float) -> int | float:
    """The result of ``+``, ``-``, ``*`` or ``**`` of two numbers a double holds exactly, as
    JavaScript holds it: an exact integer beyond 2**53 is rounded to the nearest double (ties to
    even), which is what IEEE arithmetic gives for the same operands (``2 ** 60``,
    ``Number.MAX_SAFE_INTEGER * 4``); anything else as :func:`number`."""
    if type(x) is int:
        if -MAX_SAFE <= x <= MAX_SAFE:
            return x
        x = as_double(x)  # (2**53 + 1 is 2**53: an int again)
    return number(x)


def not_a_number(what: str) -> JsRefusal:
    """The refusal for an operation whose JavaScript result is ``NaN`` (``what``: the
    operation, e.g. "`Infinity - Infinity`")."""
    return JsRefusal(
        f"{what} is NaN (not a number) in JavaScript, which a run does not hold",
        "Check the operands first, e.g. `b !== 0 ? a / b : null`, or test a number with "
        "`Number.isFinite(x)`.",
    )


class NotANumber(JsRefusal):
    """:func:`number`'s refusal of ``NaN``; an operator says which operation made it."""

    def __init__(self, refusal: JsRefusal) -> None:
        super().__init__(refusal.message, refusal.hint)


def nan_of(op: str, x: Any, y: Any) -> JsRefusal:
    """The refusal of ``x op y``, whose JavaScript result is ``NaN``."""
    return not_a_number(f"`{js_number_to_string(x)} {op} {js_number_to_string(y)}`")


def big(v: Any) -> bool:
    """Whether ``v`` is an ``int`` beyond 2**53 (one JavaScript may not hold exactly)."""
    return type(v) is int and not -MAX_SAFE <= v <= MAX_SAFE


def distinct(a: int | float, b: int | float, op: str) -> None:
    """For two numbers that differ (``a != b``), one an integer beyond 2**53: refused when
    JavaScript holds both as the same double (Node would find them equal); otherwise every
    comparison of the two has the same answer on the exact values as on the doubles."""
    if as_double(a) == as_double(b):
        x, y = (a, b) if type(a) is int and abs(a) > MAX_SAFE else (b, a)
        other = show_integer(y) if type(y) is int else js_number_to_string(y)
        raise JsRefusal(
            f"`{op}` cannot tell {show_integer(int(x))} from {other}: beyond 2**53 JavaScript "
            f"holds both as the same number, so Node would find them equal",
            "Compare large ids as text (have the tool give them as strings); numbers to "
            "compare must be within ±9007199254740992.",
        )


def date_time(v: Any, what: str) -> int | None:
    """The time of ``v`` if it is a Date (JavaScript's ``valueOf``; an Invalid Date's NaN is
    refused), else None."""
    if getattr(type(v), "js_kind", None) != "Date":
        return None
    return v.number(what)  # type: ignore[no-any-return]


def operand(v: Any, op: str, side: str) -> int | float:
    """The ``side`` operand of ``op`` as a number (a Date's time), else refused."""
    if not is_number(v):
        t = date_time(v, f"the {side} operand of `{op}`")
        if t is not None:
            return t
        raise JsRefusal(
            f"`{op}` needs numbers; the {side} operand is {with_article(kind(v))}",
            convert_hint(v),
        )
    if type(v) is int and not -MAX_SAFE <= v <= MAX_SAFE:
        raise JsRefusal(
            f"the {side} operand of `{op}` is an integer beyond 2**53, which JavaScript cannot "
            "hold exactly",
            "Numbers to compute with must be within ±9007199254740992; a large id is passed on "
            "exactly when it is only carried (an argument, part of the result).",
        )
    return v  # type: ignore[no-any-return]


def with_article(word: str) -> str:
    """``word`` after "a" or "an"."""
    return ("an " if word[:1] in "aeiou" else "a ") + word


def convert_hint(v: Any) -> str:
    """What to write to make a number of ``v``."""
    if type(v) is str:
        return "Convert text with Number(x) or parseFloat(x) first."
    if v is None or v is UNDEFINED:
        return "Give a default first, e.g. `(x ?? 0)`."
    if type(v) is list:
        return "Use .length for its size, or .reduce((a, b) => a + b, 0) for a sum."
    return "Read the number out of it first (e.g. `x.price`)."
