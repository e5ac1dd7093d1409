"""``Math`` functions beyond the core (SPEC.md section 1.8), each giving the double V8 gives:
``hypot`` by V8's own sum, ``fround``, ``clz32``, ``imul``, and the transcendental ones
(``log``, ``exp``, ``sin``, ``atan2``, ...) by V8's own fdlibm routines written anew in
:mod:`dialectic.values.fdlibm` (Python's ``math`` takes the platform's C library, which
differs from V8 in the last bit for up to half of the inputs: ``Math.cbrt(2)``)."""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from typing import Any

from dialectic.values import fdlibm
from dialectic.values.data import UNDEFINED
from dialectic.values.jsbits import to_int32, to_uint32
from dialectic.values.jsnumber import MAX_SAFE, inexact_integer, js_number_to_string
from dialectic.values.jsops import JsRefusal, is_number, kind, number
from dialectic.values.jsstrings import _a

__all__ = ["MATH_MORE"]


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


_DOMAINS = {
    **dict.fromkeys(("log", "log10", "log2"), "x >= 0"),
    **dict.fromkeys(("asin", "acos", "atanh"), "-1 <= x <= 1"),
    "log1p": "x >= -1",
    "acosh": "x >= 1",
}


def _of(name: str, fn: Callable[[float], float]) -> Callable[..., Any]:
    """``Math.<name>(x)`` by ``fn``: a NaN result (``Math.log(-1)``, ``Math.asin(2)``) is
    refused, as a run holds no NaN (SPEC 1.7); an infinity is Node's (``Math.log(0)``)."""
    label = f"Math.{name}()"

    def apply(v: Any = UNDEFINED, *_rest: Any) -> int | float:
        x = _num(v, label)
        result = fn(x)
        if result != result:
            raise JsRefusal(
                f"{label} of {js_number_to_string(x)} is NaN, which a run does not hold",
                f"Math.{name}(x) is a number only for {_DOMAINS.get(name, 'a finite x')}: "
                "test x before the call.",
            )
        return number(result)

    return apply


def _atan2(a: Any = UNDEFINED, b: Any = UNDEFINED, *_rest: Any) -> int | float:
    y, x = _num(a, "Math.atan2()"), _num(b, "Math.atan2()")
    if y == 0 and not x > 0 and x == x:
        raise JsRefusal(
            "Math.atan2(0, x) with x zero or negative depends on the signs of the zeros (0 or "
            "π, π or -π), which a run's numbers do not keep (-0 is 0 here)",
            "Test for 0 first: `y === 0 ? (x > 0 ? 0 : Math.PI) : Math.atan2(y, x)`.",
        )
    result = fdlibm.atan2(y, x)
    if result != result:
        raise JsRefusal(
            "Math.atan2() of NaN is NaN, which a run does not hold", "Check the arguments first."
        )
    return number(result)


_ONE: tuple[str, ...] = ("log", "log10", "log2", "log1p", "exp", "expm1", "cbrt")
_ONE += ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh")
_ONE += ("asinh", "acosh", "atanh")

MATH_MORE: dict[str, Callable[..., Any]] = {
    "Math.hypot": hypot,
    "Math.fround": _fround,
    "Math.clz32": _clz32,
    "Math.imul": _imul,
    "Math.atan2": _atan2,
    **{f"Math.{name}": _of(name, getattr(fdlibm, name)) for name in _ONE},
}
