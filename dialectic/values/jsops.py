"""JavaScript's operators on JSON values, exactly, or a refusal (SPEC.md section 1.7).

Each operator gives the value Node.js gives for the same operands, or raises :class:`JsRefusal`
where JavaScript's answer is a trap for JSON data: loose equality between types, ``+`` on arrays
or objects, ordering or arithmetic across types, equality of two objects (identity in
JavaScript), ``NaN`` (which JSON cannot hold) and integers beyond 2**53 (not exact in
JavaScript). A refusal says what to write instead. ``Infinity`` and ``-Infinity`` are values
inside a run (Python's ``inf``), as in JavaScript; only leaving the run is refused (SPEC 5).

Numbers: Python ``int`` and ``float`` are both JavaScript numbers; a float result that is a whole
number within 2**53 becomes an ``int`` (JavaScript prints ``6 / 2`` as ``3``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from dialectic.outcome.errors import DialecticError, JSONPath, LimitExceeded
from dialectic.values import fdlibm
from dialectic.values.data import UNDEFINED
from dialectic.values.jsbits import BITWISE, bit_not
from dialectic.values.jsnumber import MAX_SAFE as MAX_SAFE
from dialectic.values.jsnumber import JsRefusal as JsRefusal
from dialectic.values.jsnumber import as_double, js_number_to_string, show_integer
from dialectic.values.jsnumber import inexact_integer as inexact_integer
from dialectic.values.jsrelations import has_property, instance_of
from dialectic.values.jsrelations import kind as kind


def is_number(v: Any) -> bool:
    t = type(v)
    return t is int or t is float


def _primitive(v: Any) -> bool:
    t = type(v)
    return t in (str, int, float, bool) or v is None or v is UNDEFINED


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


def _nan(op: str, x: Any, y: Any) -> JsRefusal:
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


def _date_time(v: Any, what: str) -> int | None:
    """The time of ``v`` if it is a Date (JavaScript's ``valueOf``; an Invalid Date's NaN is
    refused), else None."""
    if getattr(type(v), "js_kind", None) != "Date":
        return None
    return v.number(what)  # type: ignore[no-any-return]


def _operand(v: Any, op: str, side: str) -> int | float:
    if not is_number(v):
        t = _date_time(v, f"the {side} operand of `{op}`")
        if t is not None:
            return t
        raise JsRefusal(
            f"`{op}` needs numbers; the {side} operand is {_a(kind(v))}",
            _convert_hint(v),
        )
    if type(v) is int and not -MAX_SAFE <= v <= MAX_SAFE:
        raise JsRefusal(
            f"the {side} operand of `{op}` is an integer beyond 2**53, which JavaScript cannot "
            "hold exactly",
            "Numbers to compute with must be within ±9007199254740992; a large id is passed on "
            "exactly when it is only carried (an argument, part of the result).",
        )
    return v  # type: ignore[no-any-return]


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _convert_hint(v: Any) -> str:
    if type(v) is str:
        return "Convert text with Number(x) or parseFloat(x) first."
    if v is None or v is UNDEFINED:
        return "Give a default first, e.g. `(x ?? 0)`."
    if type(v) is list:
        return "Use .length for its size, or .reduce((a, b) => a + b, 0) for a sum."
    return "Read the number out of it first (e.g. `x.price`)."


#: the most items an array made by a spread, `flat` or `flatMap` may have (a program that
#: doubles an array alias after alias would otherwise grow it exponentially)
MAX_ITEMS = 10_000_000


def too_many(n: int) -> JsRefusal:
    return TooManyItems(
        f"the array would have more than {MAX_ITEMS:,} items ({n:,})",
        "Work on parts of the data, or return fewer items.",
    )


class TooManyItems(JsRefusal):
    """An array over the 10,000,000 items any way of making one may make (SPEC 1.8,
    "Limits"): ``limit_exceeded``, as a spread over it is."""

    def error(self, path: JSONPath, details: dict[str, Any]) -> DialecticError:
        return DialecticError("limit_exceeded", self.message, path, hint=self.hint, details=details)


class TextTooLong(JsRefusal):
    """A text an operator or method would make longer than the run's ``max_string_length``
    (SPEC 1.8, "Limits"): not a trap of JavaScript but the run's limit, so the failure is
    ``limit_exceeded`` (:meth:`error`), located where the text was made. Every way to make a
    text measures it against the limit, before building it where the size is known in advance
    (a program that doubles a text alias after alias stops at the limit, at O(limit) cost)."""

    def __init__(self, n: int, limit: int) -> None:
        super().__init__(
            f"the text would be {n:,} characters, longer than the limit of {limit:,} "
            "(max_string_length)",
            "Build a smaller text (slice it, or filter the data first), or return the parts "
            "as a list.",
        )
        self.length = n
        self.limit = limit

    def error(self, path: JSONPath, details: dict[str, Any]) -> LimitExceeded:
        """The run's failure: ``limit_exceeded`` at ``path``, ``details.limit``
        ``max_string_length`` (with ``details``: the operator or method)."""
        err = LimitExceeded("max_string_length", self.message, path)
        err.hint = self.hint
        err.details.update(details)
        return err


def add(a: Any, b: Any, stringify: Callable[[Any], str], max_len: int) -> Any:
    """``a + b``; a text made is at most ``max_len`` characters (:class:`TextTooLong`)."""
    ta, tb = type(a), type(b)
    if ta is str and tb is str:
        if len(a) + len(b) > max_len:  # measured before the text is built
            raise TextTooLong(len(a) + len(b), max_len)
        return a + b
    if is_number(a) and is_number(b):
        try:
            x = _operand(a, "+", "left") + _operand(b, "+", "right")
            return rounded(x) if type(x) is int else number(x)
        except NotANumber:
            raise _nan("+", a, b) from None
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
                _convert_hint(v),
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
        x = _operand(a, "-", "left") - _operand(b, "-", "right")
        return rounded(x) if type(x) is int else number(x)
    except NotANumber:
        raise _nan("-", a, b) from None


def mul(a: Any, b: Any) -> Any:
    x, y = _operand(a, "*", "left"), _operand(b, "*", "right")
    if type(x) is int and type(y) is int:
        return rounded(x * y)
    try:
        return number(float(x) * float(y))
    except NotANumber:
        raise _nan("*", x, y) from None


def div(a: Any, b: Any) -> Any:
    """``a / b``; a non-zero number divided by zero is an infinity, as in JavaScript (its sign
    the product of the signs: a zero an operation makes is held as ``0``, SPEC 1.7), ``0 / 0``
    and ``Infinity / Infinity`` (NaN) are refused."""
    x, y = _operand(a, "/", "left"), _operand(b, "/", "right")
    if y == 0:
        if x == 0:
            raise not_a_number("`0 / 0`")
        if type(y) is float and math.copysign(1.0, y) < 0:  # (a -0 from the data, as is)
            return -_INF if x > 0 else _INF
        return _INF if x > 0 else -_INF
    try:
        return number(x / y)
    except NotANumber:
        raise _nan("/", x, y) from None


_INF = math.inf
#: half the smallest double: a result nearer to 0 is 0
_TINY = Fraction(1, 2**1075)


def mod(a: Any, b: Any) -> Any:
    x, y = _operand(a, "%", "left"), _operand(b, "%", "right")
    if y == 0:
        raise _nan("%", x, 0)
    if type(x) is int and type(y) is int:
        r = abs(x) % abs(y)
        return -r if x < 0 else r
    if x in (_INF, -_INF):
        raise _nan("%", x, y)
    if y in (_INF, -_INF):
        return number(x)  # (JavaScript: a finite number modulo an infinity is itself)
    return number(math.fmod(x, y))


def power(a: Any, b: Any) -> Any:
    """``a ** b`` as V8 computes it: a result a double holds exactly from the exact power
    (``1.5 ** 2``, ``2 ** -1``, ``2 ** 70`` as its double), one beyond a
    double's range an infinity (``10 ** 400``) or 0 (``10 ** -400``), any other by V8's own
    ``pow`` (fdlibm's, in :mod:`dialectic.values.fdlibm`: ``1.1 ** 0.5``, ``2 ** 0.5``)."""
    x, y = _operand(a, "**", "left"), _operand(b, "**", "right")
    if y == 0:
        return 1
    if y in (_INF, -_INF) or x in (_INF, -_INF):
        return _infinite_power(x, y)
    if not float(y).is_integer() or abs(y) > 1100:
        return _v8_power(x, y)
    n = int(y)
    base = Fraction(x)
    if base == 0:
        return _INF if n < 0 else 0
    odd_negative = base < 0 and n % 2 == 1
    if abs(base.numerator).bit_length() * abs(n) > 4000 or (
        abs(base.denominator).bit_length() * abs(n) > 4000
    ):
        size = n * (math.log2(abs(base.numerator)) - math.log2(base.denominator))
        if size > 1100:
            return -_INF if odd_negative else _INF
        if size < -1200:
            return 0
        return _v8_power(x, y)
    exact = base**n
    try:
        value = float(exact)
    except OverflowError:  # beyond the largest double: JavaScript's result is an infinity
        return -_INF if odd_negative else _INF
    if value == 0 and abs(exact) < _TINY:  # (below half the smallest double: 0 in JavaScript)
        return 0
    if Fraction(value) != exact:
        return _v8_power(x, y)
    if type(x) is int and n >= 0:
        return rounded(int(exact))
    return number(value)


def _v8_power(x: int | float, y: int | float) -> int | float:
    """``x ** y`` by V8's ``pow`` (finite operands, ``y`` not 0); NaN refused."""
    result = fdlibm.pow(float(x), float(y))
    if result != result:
        raise _nan("**", x, y)
    return number(result)


def _infinite_power(x: int | float, y: int | float) -> int | float:
    """``x ** y`` when either is an infinity (``y`` is not 0), as JavaScript computes it."""
    if y in (_INF, -_INF):
        size = abs(x)
        if size == 1:
            raise _nan("**", x, y)
        return _INF if (size > 1) == (y > 0) else 0
    if y < 0:
        return 0
    odd = float(y).is_integer() and y % 2 == 1
    return -_INF if x < 0 and odd else _INF


def neg(a: Any) -> Any:
    return number(-_operand(a, "-", "only"))


def plus(a: Any) -> Any:
    return to_number(a)


_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_PREFIXED = re.compile(r"0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+")
# JavaScript's StrWhiteSpaceChar: WhiteSpace and LineTerminator
_JS_SPACE = (
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
        text = v.strip(_JS_SPACE)
        if not text:
            return 0
        if len(text) > 400:
            raise JsRefusal("the text is too long to be a number")
        if _DECIMAL.fullmatch(text):
            f = float(text)
            return number(int(text) if text.lstrip("+-").isdigit() and abs(f) <= MAX_SAFE else f)
        if _PREFIXED.fullmatch(text):
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
    time = _date_time(v, "Number()")
    if time is not None:
        return time
    if t is list:
        return _array_number(v)
    raise NotANumber(JsRefusal(f"Number() of {_a(kind(v))} is NaN in JavaScript", _convert_hint(v)))


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
                f"Number() of an array holding {_a(kind(xs))} is NaN in JavaScript",
                "Take the item first: Number(xs[0]).",
            )
        )
    return to_number(xs)


def _quote(text: str, limit: int = 40) -> str:
    shown = text if len(text) <= limit else text[:limit] + "..."
    return "'" + shown.replace("\n", "\\n").replace("'", "\\'") + "'"


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
    da, db = _date_time(a, f"`{op}`"), _date_time(b, f"`{op}`")
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
