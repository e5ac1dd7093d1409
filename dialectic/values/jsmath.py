"""``Math`` functions beyond the core (SPEC.md section 1.8): those whose every result is the
double V8 gives (``hypot`` by V8's own sum, ``fround``, ``clz32``, ``imul``), and those refused
because Python's libm and V8's (fdlibm) differ in the last digit for some inputs
(``Math.cbrt(6.9486747387446535)``: ``1.9082443905368685`` here, ``...682`` in Node)."""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsbits import to_int32, to_uint32
from dialectic.values.jsnumber import MAX_SAFE, inexact_integer
from dialectic.values.jsops import JsRefusal, is_number, kind, number
from dialectic.values.jsstrings import _a

__all__ = ["MATH_MORE", "MATH_REFUSED"]


def _num(v: Any, what: str) -> float:
    if not is_number(v):
        raise JsRefusal(f"{what} takes numbers, got {_a(kind(v))}", "Convert with Number(x) first.")
    if type(v) is int and not -MAX_SAFE <= v <= MAX_SAFE:
        raise inexact_integer(v, f"{what}")
    return float(v)


def hypot(*values: Any) -> int | float:
    """``Math.hypot(...)``: as V8 sums it (each value divided by the largest, the squares
    added with Kahan's compensation, the root times the largest), so every digit is Node's."""
    absolute = [abs(_num(v, "Math.hypot()")) for v in values]
    top = max(absolute, default=0.0)
    if top == 0 or math.isinf(top):
        return number(top)
    total = 0.0
    compensation = 0.0
    for a in absolute:
        n = a / top
        summand = n * n - compensation
        preliminary = total + summand
        compensation = (preliminary - total) - summand
        total = preliminary
    return number(math.sqrt(total) * top)


def _fround(v: Any = UNDEFINED) -> int | float:
    x = _num(v, "Math.fround()")
    try:
        return number(struct.unpack("<f", struct.pack("<f", x))[0])
    except OverflowError:  # beyond the largest single: Infinity in JavaScript
        raise JsRefusal(
            "Math.fround() of a number beyond 3.4e38 is Infinity, which JSON cannot hold"
        ) from None


def _clz32(v: Any = UNDEFINED) -> int:
    return 32 - to_uint32(_num(v, "Math.clz32()")).bit_length()


def _imul(a: Any = UNDEFINED, b: Any = UNDEFINED) -> int:
    x = to_int32(_num(a, "Math.imul()")) * to_int32(_num(b, "Math.imul()"))
    return to_int32(x)


MATH_MORE: dict[str, Callable[..., Any]] = {
    "Math.hypot": hypot,
    "Math.fround": _fround,
    "Math.clz32": _clz32,
    "Math.imul": _imul,
}

#: Math functions whose last digit Python's libm and V8's differ on (checked against Node)
MATH_REFUSED = frozenset(
    [
        *("cbrt", "log10", "log2", "log1p", "expm1", "exp", "log"),
        *("sinh", "cosh", "tanh", "asinh", "acosh", "atanh"),
        *("sin", "cos", "tan", "asin", "acos", "atan", "atan2"),
    ]
)
