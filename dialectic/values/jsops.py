"""JavaScript's operators on JSON values, exactly, or a refusal (SPEC.md section 1.7).

Each operator gives the value Node.js gives for the same operands, or raises :class:`JsRefusal`
where JavaScript's answer is a trap for JSON data: loose equality between types, ``+`` on arrays
or objects, ordering or arithmetic across types, equality of two objects (identity in
JavaScript), ``NaN`` (which JSON cannot hold) and integers beyond 2**53 (not exact in
JavaScript). A refusal says what to write instead. ``Infinity`` and ``-Infinity`` are values
inside a run (Python's ``inf``), as in JavaScript; only leaving the run is refused (SPEC 5).

Numbers: Python ``int`` and ``float`` are both JavaScript numbers; a float result that is a whole
number within 2**53 becomes an ``int`` (JavaScript prints ``6 / 2`` as ``3``).

The operands and results of the numeric operators are read in :mod:`.jsoperands`, ``**`` is
:mod:`.jspower`, ``Number(v)`` :mod:`.jstonumber` and the limits on what an operator makes
:mod:`.jslimits`; their public names are importable from here too.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsbits import BITWISE, bit_not
from dialectic.values.jslimits import MAX_ITEMS as MAX_ITEMS
from dialectic.values.jslimits import TextTooLong as TextTooLong
from dialectic.values.jslimits import TooManyItems as TooManyItems
from dialectic.values.jslimits import too_many as too_many
from dialectic.values.jsnumber import MAX_SAFE as MAX_SAFE
from dialectic.values.jsnumber import JsRefusal as JsRefusal
from dialectic.values.jsnumber import inexact_integer as inexact_integer
from dialectic.values.jsnumber import js_number_to_string
from dialectic.values.jsoperands import NotANumber as NotANumber
from dialectic.values.jsoperands import big as big
from dialectic.values.jsoperands import convert_hint, date_time, distinct, nan_of, operand
from dialectic.values.jsoperands import is_number as is_number
from dialectic.values.jsoperands import not_a_number as not_a_number
from dialectic.values.jsoperands import number as number
from dialectic.values.jsoperands import rounded as rounded
from dialectic.values.jsoperands import with_article as _a
from dialectic.values.jspower import power as power
from dialectic.values.jsrelations import has_property, instance_of
from dialectic.values.jsrelations import kind as kind
from dialectic.values.jstonumber import to_number as to_number


def _primitive(v: Any) -> bool:
    t = type(v)
    return t in (str, int, float, bool) or v is None or v is UNDEFINED


def add(a: Any, b: Any, stringify: Callable[[Any], str], max_len: int) -> Any:
    """``a + b``; a text made is at most ``max_len`` characters (:class:`TextTooLong`)."""
    ta, tb = type(a), type(b)
    if ta is str and tb is str:
        if len(a) + len(b) > max_len:  # measured before the text is built
            raise TextTooLong(len(a) + len(b), max_len)
        return a + b
    if is_number(a) and is_number(b):
        try:
            x = operand(a, "+", "left") + operand(b, "+", "right")
            return rounded(x) if type(x) is int else number(x)
        except NotANumber:
            raise nan_of("+", a, b) from None
    if ta is str or tb is str:
        other = b if ta is str else a
        if is_number(other) or type(other) is bool:
            text = js_number_to_string(other) if is_number(other) else stringify(other)
            return _text(a + text if ta is str else text + b, max_len)
        if other is None or other is UNDEFINED:
            raise JsRefusal(
                f"`+` would write `{kind(other)}` into the text",
                "Give a default first, e.g. `(x ?? '')`, or use a template `${...}`.",
            )
        if hasattr(type(other), "to_text"):  # (a Date, a URL, a URLSearchParams: its text)
            return _plus_date(a, b, stringify, max_len)
        if type(other) is dict or hasattr(type(other), "js_kind"):  # (a Map, a Set)
            raise JsRefusal(
                f"`+` of text and {_a(kind(other))} writes `[object Object]` in JavaScript",
                "Use JSON.stringify(x), or the fields you mean: `${o.name}`.",
            )
        if type(other) is list:  # `1,2` (SPEC 5; an object inside refused, located here)
            from dialectic.values.arraytext import array_text  # (it reads this module)

            text = array_text(other, stringify, max_len)
        else:
            text = stringify(other)
        if len(text) + len(a if ta is str else b) > max_len:
            raise TextTooLong(len(text) + len(a if ta is str else b), max_len)
        return a + text if ta is str else text + b
    if getattr(ta, "js_kind", None) == "Date" or getattr(tb, "js_kind", None) == "Date":
        return _plus_date(a, b, stringify, max_len)
    for v, side in ((a, "left"), (b, "right")):
        if not is_number(v):
            raise JsRefusal(
                f"`+` needs two numbers or text; the {side} operand is {_a(kind(v))}",
                convert_hint(v),
            )
    raise AssertionError("unreachable")


def _plus_date(a: Any, b: Any, stringify: Callable[[Any], str], max_len: int) -> Any:
    """``a + b`` with a Date: JavaScript writes the Date as its text (``d + 1``, ``'' + d``),
    as a template does."""
    da = a.to_text() if hasattr(type(a), "to_text") else a
    db = b.to_text() if hasattr(type(b), "to_text") else b
    return add(da, db, stringify, max_len)


def _text(out: str, max_len: int) -> str:
    """A text ``+`` made of a text and a number's (short) text, within ``max_len``."""
    if len(out) > max_len:
        raise TextTooLong(len(out), max_len)
    return out


def sub(a: Any, b: Any) -> Any:
    try:
        x = operand(a, "-", "left") - operand(b, "-", "right")
        return rounded(x) if type(x) is int else number(x)
    except NotANumber:
        raise nan_of("-", a, b) from None


def mul(a: Any, b: Any) -> Any:
    x, y = operand(a, "*", "left"), operand(b, "*", "right")
    if type(x) is int and type(y) is int:
        return rounded(x * y)
    try:
        return number(float(x) * float(y))
    except NotANumber:
        raise nan_of("*", x, y) from None


def div(a: Any, b: Any) -> Any:
    """``a / b``; a non-zero number divided by zero is an infinity, as in JavaScript (its sign
    the product of the signs: a zero an operation makes is held as ``0``, SPEC 1.7), ``0 / 0``
    and ``Infinity / Infinity`` (NaN) are refused."""
    x, y = operand(a, "/", "left"), operand(b, "/", "right")
    if y == 0:
        if x == 0:
            raise not_a_number("`0 / 0`")
        if type(y) is float and math.copysign(1.0, y) < 0:  # (a -0 from the data, as is)
            return -_INF if x > 0 else _INF
        return _INF if x > 0 else -_INF
    try:
        return number(x / y)
    except NotANumber:
        raise nan_of("/", x, y) from None


_INF = math.inf


def mod(a: Any, b: Any) -> Any:
    x, y = operand(a, "%", "left"), operand(b, "%", "right")
    if y == 0:
        raise nan_of("%", x, 0)
    if type(x) is int and type(y) is int:
        r = abs(x) % abs(y)
        return -r if x < 0 else r
    if x in (_INF, -_INF):
        raise nan_of("%", x, y)
    if y in (_INF, -_INF):
        return number(x)  # (JavaScript: a finite number modulo an infinity is itself)
    return number(math.fmod(x, y))


def neg(a: Any) -> Any:
    return number(-operand(a, "-", "only"))


def plus(a: Any) -> Any:
    return to_number(a)


def truthy(v: Any) -> bool:
    """JavaScript's truthiness: false, 0, '', null and undefined are falsy; every array and
    object is truthy, even an empty one."""
    t = type(v)
    if t is bool:
        return v  # type: ignore[no-any-return]
    if t is int:
        return bool(v != 0)
    if t is float:  # (NaN, where the program tests for it, is falsy: SPEC 1.7)
        return bool(v != 0 and v == v)
    if t is str:
        return bool(v != "")
    return not (v is None or v is UNDEFINED)


def type_of(v: Any) -> str:
    """JavaScript's ``typeof``: ``"object"`` for null, arrays, objects and values of registered
    types (JavaScript objects too); no value of a program is a function."""
    k = kind(v)
    return k if k in _TYPEOF_OWN else "object"


_TYPEOF_OWN = frozenset({"boolean", "number", "string", "undefined"})


def logical_not(v: Any) -> bool:
    return not truthy(v)


def _astral(s: str) -> bool:
    return not s.isascii() and any(ord(c) > 0xFFFF for c in s)


def _order(a: Any, b: Any, op: str) -> tuple[Any, Any]:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):  # (is_number, inline)
        # two different numbers share a double only if both are 2**53 or more in size, and
        # differ only if one is an int (the bound written out: cheaper than a global here)
        if not -9007199254740992 < a < 9007199254740992 and a != b and int in (ta, tb):
            distinct(a, b, op)
        return a, b
    if ta is str and tb is str:
        if _astral(a) or _astral(b):  # JavaScript compares UTF-16 code units
            return a.encode("utf-16-be"), b.encode("utf-16-be")
        return a, b
    da, db = date_time(a, f"`{op}`"), date_time(b, f"`{op}`")
    if da is not None or db is not None:  # (a Date compares by its time: valueOf)
        return _order(a if da is None else da, b if db is None else db, op)
    raise JsRefusal(
        f"`{op}` compares two numbers or two texts; here {_a(kind(a))} and {_a(kind(b))}",
        "Convert first (Number(x), String(x)), or compare fields of the same type.",
    )


def less(a: Any, b: Any) -> bool:
    x, y = _order(a, b, "<")
    return bool(x < y)


def less_equal(a: Any, b: Any) -> bool:
    x, y = _order(a, b, "<=")
    return bool(x <= y)


def greater(a: Any, b: Any) -> bool:
    x, y = _order(a, b, ">")
    return bool(x > y)


def greater_equal(a: Any, b: Any) -> bool:
    x, y = _order(a, b, ">=")
    return bool(x >= y)


def strict_equal(a: Any, b: Any, op: str = "===") -> bool:
    t = type(a)
    if t is type(b) and t in _SAME_TYPE_EQUAL:  # the common case: Python's == is JavaScript's
        if a == b:
            return True
        if t is int and not -9007199254740992 < a < 9007199254740992:
            # two different integers share a double only if both are 2**53 (MAX_SAFE) or more
            # in size (a constant here: cheaper than the global on this hot path)
            distinct(a, b, op)
        return False
    pa, pb = _primitive(a), _primitive(b)
    if pa and pb:
        if is_number(a) and is_number(b):
            if a == b:
                return True
            if not -9007199254740992 < a < 9007199254740992 and (big(a) or big(b)):
                distinct(a, b, op)  # (as above: only a number 2**53 or more in size)
            return False
        return type(a) is type(b) and a == b
    if pa or pb:
        return False  # an object is never equal to a primitive
    if getattr(type(a), "js_kind", None) == "Date" or getattr(type(b), "js_kind", None) == "Date":
        return a is b  # (two Dates are the same only when they are one Date)
    raise JsRefusal(
        f"`{op}` of two {'arrays' if type(a) is list else 'objects'} compares their identity in "
        "JavaScript, never their contents",
        "Compare a field (`a.id === b.id`), or JSON.stringify(a) === JSON.stringify(b).",
    )


_SAME_TYPE_EQUAL = frozenset({str, int, float, bool})


def strict_not_equal(a: Any, b: Any) -> bool:
    return not strict_equal(a, b, "!==")


def loose_equal(a: Any, b: Any, op: str = "==") -> bool:
    nullish_a = a is None or a is UNDEFINED
    nullish_b = b is None or b is UNDEFINED
    if nullish_a or nullish_b:
        return nullish_a and nullish_b
    if (_primitive(a) != _primitive(b)) or (_primitive(a) and kind(a) != kind(b)):
        raise JsRefusal(
            f"`{op}` between {_a(kind(a))} and {_a(kind(b))} converts one of them in JavaScript",
            f"Use `{op}=` and convert explicitly (Number(x), String(x)).",
        )
    return strict_equal(a, b, op)


def loose_not_equal(a: Any, b: Any) -> bool:
    return not loose_equal(a, b, "!=")


def nullish(v: Any) -> bool:
    return v is None or v is UNDEFINED


#: binary operators evaluated strictly (both operands), by their JavaScript token
BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "-": sub,
    "*": mul,
    "/": div,
    "%": mod,
    "**": power,
    "<": less,
    "<=": less_equal,
    ">": greater,
    ">=": greater_equal,
    "===": strict_equal,
    "!==": strict_not_equal,
    "==": loose_equal,
    "!=": loose_not_equal,
    "in": has_property,
    "instanceof": instance_of,
    **BITWISE,
}

UNARY: dict[str, Callable[[Any], Any]] = {
    "-": neg,
    "+": plus,
    "!": logical_not,
    "typeof": type_of,
    "~": bit_not,
}

#: short-circuit operators: the right operand runs only if needed
LOGICAL = ("&&", "||", "??")

OPERATORS = ("+", *BINARY, *LOGICAL)
