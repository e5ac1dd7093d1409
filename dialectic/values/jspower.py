"""``a ** b`` exactly as V8 computes it (SPEC.md section 1.7), for :mod:`.jsops`: exact
powers where a double holds them, infinities and zeros beyond a double's range, otherwise V8's
own ``pow`` (:mod:`dialectic.values.fdlibm`); a ``NaN`` result is refused."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from dialectic.values import fdlibm
from dialectic.values.jsoperands import nan_of, number, operand, rounded

__all__ = ["power"]

_INF = math.inf
#: half the smallest double: a result nearer to 0 is 0
_TINY = Fraction(1, 2**1075)


def power(a: Any, b: Any) -> Any:
    """``a ** b`` as V8 computes it: a result a double holds exactly from the exact power
    (``1.5 ** 2``, ``2 ** -1``, ``2 ** 70`` as its double), one beyond a
    double's range an infinity (``10 ** 400``) or 0 (``10 ** -400``), any other by V8's own
    ``pow`` (fdlibm's, in :mod:`dialectic.values.fdlibm`: ``1.1 ** 0.5``, ``2 ** 0.5``)."""
    x, y = operand(a, "**", "left"), operand(b, "**", "right")
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
        raise nan_of("**", x, y)
    return number(result)


def _infinite_power(x: int | float, y: int | float) -> int | float:
    """``x ** y`` when either is an infinity (``y`` is not 0), as JavaScript computes it."""
    if y in (_INF, -_INF):
        size = abs(x)
        if size == 1:
            raise nan_of("**", x, y)
        return _INF if (size > 1) == (y > 0) else 0
    if y < 0:
        return 0
    odd = float(y).is_integer() and y % 2 == 1
    return -_INF if x < 0 and odd else _INF
