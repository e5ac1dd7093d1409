"""A number written as JavaScript writes it beyond ``String(x)``: ``x.toString(radix)`` (V8's
digits for fractions in other radixes: the shortest digits that read back as the same double,
rounded to even), ``x.toPrecision(p)`` and ``x.toExponential(f)`` (the exact value rounded, a
tie away from zero);
and ``x.toString()`` of the other primitives (SPEC.md section 1.8)."""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import MAX_SAFE, as_double, inexact_integer, js_number_to_string
from dialectic.values.jsops import JsRefusal, is_number, kind
from dialectic.values.jsstrings import _int_arg, to_string

__all__ = ["to_exponential", "to_precision", "to_radix", "to_string_method"]

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_WIDE = Context(prec=400)
_TINY = math.ulp(0.0)  # the smallest positive double


def _exact(x: int | float, what: str) -> float:
    """``x`` as the double JavaScript holds (an integer beyond 2**53 only if a double is it)."""
    if type(x) is int and not -MAX_SAFE <= x <= MAX_SAFE and as_double(x) != x:
        raise inexact_integer(x, what)
    return float(x)


def to_radix(x: int | float, radix: Any = UNDEFINED) -> str:
    """``x.toString(radix)``: radix 2 to 36; 10 (or none) is ``String(x)``."""
    if radix is UNDEFINED:
        return js_number_to_string(x)
    if not is_number(radix) or not 2 <= _int_arg(radix, "the radix", 10) <= 36:
        raise JsRefusal(
            "toString() takes a radix from 2 to 36 (a RangeError in JavaScript)",
            "Give a whole number from 2 to 36: n.toString(16), n.toString(2).",
        )
    r = _int_arg(radix, "the radix", 10)
    if r == 10:
        return js_number_to_string(x)
    value = _exact(x, "toString()")
    if not math.isfinite(value):
        return js_number_to_string(value)  # Infinity, -Infinity, NaN in every radix
    negative = value < 0
    value = -value if negative else value
    whole = float(math.floor(value))
    fraction = value - whole
    # a digit is written while it still tells the double from its neighbours: `delta` is half
    # the gap to the next double up, scaled with the fraction
    delta = max(0.5 * (math.nextafter(value, math.inf) - value), _TINY)
    frac_digits: list[int] = []
    if fraction >= delta:
        while True:
            fraction *= r
            delta *= r
            digit = int(fraction)
            frac_digits.append(digit)
            fraction -= digit
            if (fraction > 0.5 or (fraction == 0.5 and digit & 1)) and fraction + delta > 1:
                whole = _round_up(frac_digits, r, whole)
                break
            if fraction < delta:
                break
    head = _whole_digits(float(whole), r)
    text = head + ("." + "".join(_DIGITS[d] for d in frac_digits) if frac_digits else "")
    return "-" + text if negative else text


def _round_up(digits: list[int], radix: int, whole: float) -> float:
    """Adds one to the last of ``digits`` (carrying leftwards, dropping the digits that
    overflow); a carry past the point adds one to ``whole``, which is returned."""
    while digits:
        last = digits.pop()
        if last + 1 < radix:
            digits.append(last + 1)
            return whole
    return whole + 1


def _whole_digits(whole: float, radix: int) -> str:
    """The digits of a whole double in ``radix``: those beyond its 53 bits written as zeros,
    as V8 writes them."""
    zeros = 0
    while whole / radix >= 2.0**53:
        whole /= radix
        zeros += 1
    out: list[str] = []
    while True:
        rest = math.fmod(whole, radix)
        out.append(_DIGITS[int(rest)])
        whole = (whole - rest) / radix
        if whole <= 0:
            break
    return "".join(reversed(out)) + "0" * zeros


def to_precision(x: int | float, precision: Any = UNDEFINED) -> str:
    """``x.toPrecision(p)``: ``p`` significant digits (1 to 100) of the exact value, a tie
    rounded away from zero; exponent form (``1.2e+5``) when the exponent is below -6 or not
    below ``p``; without ``p``, ``String(x)``."""
    if precision is UNDEFINED:
        return js_number_to_string(x)
    p = _int_arg(precision, "the precision", 0)
    if not 1 <= p <= 100:
        raise JsRefusal(
            "toPrecision() takes 1 to 100 digits (a RangeError in JavaScript)",
            "Give a number of significant digits from 1 to 100.",
        )
    value = _exact(x, "toPrecision()")
    if not math.isfinite(value):
        return js_number_to_string(value)
    sign = "-" if value < 0 else ""
    digits, e = _significant(Decimal(abs(value)), p)
    if e < -6 or e >= p:
        mantissa = digits[0] + ("." + digits[1:] if p > 1 else "")
        return f"{sign}{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    if e >= 0:
        point = e + 1
        return sign + digits[:point] + ("." + digits[point:] if point < p else "")
    return sign + "0." + "0" * (-e - 1) + digits


def _significant(exact: Decimal, p: int) -> tuple[str, int]:
    """The ``p`` significant digits of ``exact`` (a tie rounded away from zero, as
    JavaScript picks the larger ``n``) and the exponent of the first."""
    if exact == 0:
        return "0" * p, 0
    e = exact.adjusted()
    rounded = exact.scaleb(p - 1 - e, _WIDE).quantize(
        Decimal(1), rounding=ROUND_HALF_UP, context=_WIDE
    )
    if rounded.adjusted() >= p:  # 9.99 to 2 digits is 10: one more place
        e += 1
        rounded = exact.scaleb(p - 1 - e, _WIDE).quantize(
            Decimal(1), rounding=ROUND_HALF_UP, context=_WIDE
        )
    return str(int(rounded)), e


def to_exponential(x: int | float, fraction: Any = UNDEFINED) -> str:
    """``x.toExponential(f)``: ``f`` digits (0 to 100) after the point of the exact value's
    first digit, a tie rounded away from zero, and ``e+N``/``e-N``; without ``f``, as many
    digits as tell the double apart (those of ``String(x)``)."""
    value = _exact(x, "toExponential()")
    f = None if fraction is UNDEFINED else _int_arg(fraction, "the number of digits", 0)
    if not math.isfinite(value):
        return js_number_to_string(value)
    if f is not None and not 0 <= f <= 100:
        raise JsRefusal(
            "toExponential() takes 0 to 100 digits (a RangeError in JavaScript)",
            "Give a number of digits after the point from 0 to 100.",
        )
    sign = "-" if value < 0 else ""
    if f is None:  # the shortest digits that read back as the double (Python's repr's)
        shortest = Decimal(repr(abs(value))).normalize()
        digits, e = "".join(map(str, shortest.as_tuple().digits)), shortest.adjusted()
        if shortest == 0:
            digits, e = "0", 0
    else:
        digits, e = _significant(Decimal(abs(value)), f + 1)
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{sign}{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"


def to_string_method(stringify: Callable[[Any], str], limit: int) -> Callable[..., str]:
    """``x.toString(...)``: a number's (with a radix), a text's, a boolean's and a registered
    value's and an array's (as ``String(x)``, within ``limit``); an object's is refused as
    ``String(x)`` is,
    and null's and undefined's fail as in JavaScript (a TypeError)."""

    def apply(x: Any, *args: Any) -> str:
        if is_number(x):
            return to_radix(x, *args[:1])
        if x is None or x is UNDEFINED:
            raise JsRefusal(
                f"cannot call `.toString()` on {kind(x)} (a TypeError in JavaScript)",
                "Test the value first, or write String(x), which gives 'null' and 'undefined'.",
            )
        return to_string(x, stringify, limit)

    return apply
