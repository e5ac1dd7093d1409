"""JavaScript methods models reach for beyond the core set (SPEC 1.8): a number's
``toFixed``, ``lastIndexOf`` of arrays and texts, a text's ``concat``, ``Math.pow`` and the
``Number.is...`` predicates; and the methods that are refused with what to write instead
(``toLocaleString`` depends on the locale).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any

from dialectic.values.collections import is_collection, new_map, new_set
from dialectic.values.data import UNDEFINED, copy_structure
from dialectic.values.jsbase64 import atob, btoa, buffer_from
from dialectic.values.jscodes import from_char_code, from_code_point
from dialectic.values.jsdate import date_now, date_parse, date_utc, is_nan, new_date
from dialectic.values.jsdateformat import new_date_time_format
from dialectic.values.jsformat import to_exponential, to_precision
from dialectic.values.jslocale import new_number_format, to_locale_string
from dialectic.values.jsmath import MATH_MORE
from dialectic.values.jsnumber import MAX_SAFE, as_double, inexact_integer, js_number_to_string
from dialectic.values.jsops import (
    MAX_ITEMS,
    JsRefusal,
    NotANumber,
    is_number,
    kind,
    power,
    strict_equal,
    to_number,
    too_many,
)
from dialectic.values.jsparams import new_search_params
from dialectic.values.jsregex import new_regexp
from dialectic.values.jsstrings import _a, _int_arg, _relative
from dialectic.values.jstonumber import DECIMAL, JS_SPACE
from dialectic.values.jsurl import new_url, url_can_parse
from dialectic.values.matchinfo import carry

__all__ = [
    "NUMBER_METHODS",
    "REFUSED_METHODS",
    "array_last_index_of",
    "array_with",
    "extra_globals",
    "to_fixed",
]

_WIDE = Context(prec=400)


def to_fixed(x: int | float, digits: Any = UNDEFINED) -> str:
    """``x.toFixed(digits)``: the exact value of ``x`` rounded to ``digits`` decimals, a tie
    away from zero (JavaScript picks the larger ``n`` for ``|x|``), ``-0`` as ``0``; from
    1e21 on, ``String(x)``."""
    f = _int_arg(digits, "the number of digits", 0)
    if not 0 <= f <= 100:
        raise JsRefusal(
            "toFixed() takes 0 to 100 digits (a RangeError in JavaScript)",
            "Give a number of decimals from 0 to 100.",
        )
    if type(x) is int and not -MAX_SAFE <= x <= MAX_SAFE and as_double(x) != x:
        raise inexact_integer(x, "toFixed()")  # (Node rounds it to a double first)
    if abs(x) >= 1e21:
        return js_number_to_string(x)
    if x == 0:
        x = 0  # -0 is written "0"
    exact = Decimal(x)
    rounded = exact.quantize(Decimal(1).scaleb(-f), rounding=ROUND_HALF_UP, context=_WIDE)
    return format(rounded, "f")


NUMBER_METHODS: dict[str, Callable[..., Any]] = {
    "toFixed": to_fixed,
    "toPrecision": to_precision,
    "toExponential": to_exponential,
    "toLocaleString": to_locale_string,  # (English: SPEC 1.8, "Numbers")
}


def array_last_index_of(xs: list[Any], item: Any) -> int:
    for i in range(len(xs) - 1, -1, -1):
        if strict_equal(xs[i], item, "lastIndexOf"):
            return i
    return -1


def _same_value(a: Any = UNDEFINED, b: Any = UNDEFINED) -> bool:
    """``Object.is(a, b)``: ``===``, except that ``0`` and ``-0`` differ (NaN never occurs).
    A program's numbers do not keep ``-0`` apart from ``0`` everywhere (``-0`` and ``0 * -1``
    are ``0`` here), so two zeros are refused; two arrays or objects too, as for ``===``
    (identity in JavaScript)."""
    if is_number(a) and is_number(b) and a == 0 and b == 0:
        raise JsRefusal(
            "Object.is() of two zeros tells 0 from -0, which a program's numbers do not keep apart",
            "Compare with ===, which holds 0 and -0 equal.",
        )
    return strict_equal(a, b, "Object.is")


def array_with(xs: list[Any], index: Any = UNDEFINED, value: Any = UNDEFINED) -> list[Any]:
    """``xs.with(i, v)``: a copy with item ``i`` (counted from the end when negative) set to
    ``v``; an index outside the array is a RangeError in JavaScript (refused)."""
    n = len(xs)
    i = _int_arg(index, "the index", 0)
    k = i + n if i < 0 else i
    if not 0 <= k < n:
        raise JsRefusal(
            f"with({i}) is outside the array of {n} items (a RangeError in JavaScript)",
            "Give an index from -length to length - 1, or build the array: [...xs, v].",
        )
    out = list(xs)
    out[k] = value
    return out


def array_to_spliced(xs: list[Any], *args: Any) -> list[Any]:
    """``xs.toSpliced(start, count, ...items)``: a copy with ``count`` items from ``start``
    (counted from the end when negative) removed and ``items`` put there, as ECMAScript's
    Array.prototype.toSpliced: without arguments a copy, with ``start`` alone the items before
    it."""
    n = len(xs)
    start = _relative(args[0] if args else UNDEFINED, n, "start", 0)
    if len(args) < 2:
        skip = 0 if not args else n - start
    else:
        skip = min(max(_int_arg(args[1], "the count", 0), 0), n - start)
    return [*xs[:start], *args[2:], *xs[start + skip :]]


def _is_integer(v: Any = UNDEFINED) -> bool:
    return is_number(v) and (type(v) is int or float(v).is_integer())


def array_from(v: Any = UNDEFINED) -> list[Any]:
    """``Array.from(v)``: a copy of an array, the code points of a text, ``length`` undefined
    items of ``{length: n}``, the items of a Map, a Set or an iterator (``Array.from(v, f)``
    is this, then ``.map(f)``: see the Plan front end)."""
    if type(v) is list:
        return list(v)
    if is_collection(v):
        return v.items()  # type: ignore[no-any-return]
    if type(v) is str:
        if len(v) > MAX_ITEMS:
            raise too_many(len(v))
        return list(v)
    if type(v) is dict and list(v) == ["length"]:
        n = v["length"]
        if is_number(n) and n not in (math.inf, -math.inf) and n == int(n) and n >= 0:
            if n > MAX_ITEMS:
                raise too_many(int(n))
            return [UNDEFINED] * int(n)
        raise JsRefusal(
            f"Array.from({{length: n}}) takes a whole number of items, got {n!r}",
            "Give a count from 0 on: Array.from({length: 3}, (_, i) => i).",
        )
    raise JsRefusal(
        "Array.from() takes an array, a text or {length: n}",
        "Write the array itself, [...xs], or make a range: Array.from({length: n}, (_, i) => i).",
    )


def set_items(v: Any = UNDEFINED) -> list[Any]:
    """``[...new Set(v)]``: the distinct items of an array (or the distinct characters of a
    text, by code point) in the order of their first occurrence, as a ``Set`` keeps them:
    SameValueZero equality (``0`` and ``-0`` alike), an array or an object by its identity (two
    equal-looking objects are two items); ``new Set()`` and ``new Set(null)`` are empty. One
    hashed key per item: linear in the items."""
    if v is UNDEFINED or v is None:
        return []
    if type(v) is str:
        if len(v) > MAX_ITEMS:
            raise too_many(len(v))
        return list(dict.fromkeys(v))
    if type(v) is not list:
        raise JsRefusal(
            f"new Set() takes an array or a text, not {_kind_of(v)} (a TypeError in JavaScript)",
            "Give it the array: new Set(xs), or the values: new Set(Object.values(obj)).",
        )
    seen: dict[Any, Any] = {}
    out: list[Any] = []
    for x in v:
        t = type(x)
        key: Any
        if t is str or t is bool or x is None or x is UNDEFINED:
            key = (t, x)
        elif t is int or t is float:
            key = ("number", as_double(x))  # 0 and -0.0 are one key, as in JavaScript
        else:  # an array, an object, a registered value: by identity (the list `v` holds
            key = ("object", id(x))  # `x`: its id is not reused meanwhile)
        first = seen.get(key, _ABSENT)
        if first is _ABSENT:
            seen[key] = x
            out.append(x)
        elif (t is int or t is float) and first != x:
            raise inexact_integer(x if type(x) is int else first, "new Set()")
    return out


_ABSENT = object()


def is_finite(v: Any = UNDEFINED) -> bool:
    """The global ``isFinite(v)``: ``Number(v)`` is finite (a text that is not a number, and
    ``undefined``, are NaN: not finite); an array or an object is refused (JavaScript converts
    it through its text)."""
    if v is UNDEFINED:
        return False
    _converted_plainly(v, "isFinite", "Test a number with Number.isFinite(x).")
    if type(v) is str and DECIMAL.fullmatch(text := v.strip(JS_SPACE)):
        return math.isfinite(float(text))  # (an integer beyond 2**53 too: Number() is finite)
    try:
        n = to_number(v)
    except NotANumber:  # (a text that is not a number: NaN)
        return False
    return bool(n - n == 0.0)  # (not an infinity, nor a NaN a registered function returned)


def _converted_plainly(v: Any, name: str, hint: str) -> None:
    """Refuse ``name(v)`` of an array or an object (JavaScript converts it through its text)."""
    if not (type(v) in (str, bool) or v is None or is_number(v)):
        raise JsRefusal(
            f"{name}() of {_a(kind(v))} converts it through its text in JavaScript", hint
        )


def _kind_of(v: Any) -> str:
    return {bool: "a boolean", dict: "an object", int: "a number", float: "a number"}.get(
        type(v), "this value"
    )


def extra_globals() -> dict[str, Callable[..., Any]]:
    return {
        "Array.from": array_from,
        "new Set": set_items,
        # a Map and a Set as values (`new Map(entries)`, `new Set(xs)`: SPEC 1.8)
        "Map": new_map,
        "Set": new_set,
        **MATH_MORE,
        "Object.is": _same_value,
        "String.fromCharCode": from_char_code,
        "String.fromCodePoint": from_code_point,
        "RegExp": new_regexp,  # (`/.../flags`, `new RegExp(text, flags)`: SPEC 1.8)
        "Intl.NumberFormat": new_number_format,
        "Intl.DateTimeFormat": new_date_time_format,
        # a Date (SPEC 1.8, "Dates"; `Date.now()` and `new Date()` read the run's clock in
        # compiler/forms.py)
        "Date": new_date,
        "Date.now": date_now,
        "Date.parse": date_parse,
        "Date.UTC": date_utc,
        "isNaN": is_nan,  # (English: SPEC 1.8, "Number methods")
        "Math.pow": lambda a=UNDEFINED, b=UNDEFINED: power(a, b),
        "Number.isInteger": _is_integer,
        "Number.isSafeInteger": lambda v=UNDEFINED: _is_integer(v) and abs(v) <= 2**53 - 1,
        # no number a program makes is NaN (SPEC 1.7), but a registered function may return one
        "Number.isFinite": lambda v=UNDEFINED: is_number(v) and v - v == 0.0,
        "Number.isNaN": lambda v=UNDEFINED: type(v) is float and v != v,
        "isFinite": is_finite,
        "structuredClone": structured_clone,
        # URLs, query strings and base64 (SPEC 1.8, "URLs and query strings")
        "URL": new_url,
        "URL.canParse": url_can_parse,
        "URLSearchParams": new_search_params,
        "btoa": btoa,
        "atob": atob,
        "Buffer.from": buffer_from,
    }


_NO_VALUE: Any = object()


def structured_clone(value: Any = _NO_VALUE) -> Any:
    """``structuredClone(v)``: a deep copy of the arrays and objects in ``v``, each copied once
    (one held in two places is one copy held in both, as JavaScript keeps it: so the cost is
    linear in the distinct values), made without recursion (any depth); a Date is a new Date;
    other values (texts, numbers, a Map or a Set, whose changes make new versions) are their
    own copy."""
    if value is _NO_VALUE:  # (JavaScript's TypeError)
        raise JsRefusal("structuredClone() needs the value to copy", "structuredClone(v)")
    copies: dict[int, Any] = {}
    out = copy_structure(value, copies)
    carry(copies, copy_structure)  # (a match array's index, input and groups are copied too)
    return out


#: JavaScript methods refused with what to write instead
REFUSED_METHODS: dict[str, tuple[str, str]] = {
    "toLocaleString": (
        "toLocaleString() writes by the locale's rules (of a number it runs, in English)",
        "Use toFixed(2), String(x), or a template.",
    ),
}
