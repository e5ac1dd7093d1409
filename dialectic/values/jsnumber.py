"""JavaScript's ``String(number)`` in Python (ECMAScript Number::toString, radix 10).

Python's ``repr(float)`` already yields the shortest digit string that round-trips, which is
exactly the digit string ECMAScript asks for; only the layout (where the point goes, when to use
an exponent, ``e+21`` versus ``e21``) differs, and that is what this module reproduces.
"""

from __future__ import annotations

import math

__all__ = ["js_number_to_string", "shortest_digits"]


def shortest_digits(x: float) -> tuple[str, int]:
    """The shortest round-trip decimal digits of ``abs(x)`` (finite, non-zero) and the exponent
    ``n`` such that ``abs(x) == 0.DIGITS * 10**n`` (ECMAScript's ``s`` and ``n``)."""
    text = repr(abs(x))
    mantissa, _, exp_text = text.partition("e")
    exponent = int(exp_text) if exp_text else 0
    int_part, _, frac_part = mantissa.partition(".")
    digits = int_part + frac_part
    n = len(int_part) + exponent
    stripped = digits.lstrip("0")
    n -= len(digits) - len(stripped)
    return stripped.rstrip("0"), n


def js_number_to_string(x: float | int) -> str:
    """``String(x)`` as JavaScript computes it for a number.

    ``1.0 -> "1"``, ``1e21 -> "1e+21"``, ``1e-7 -> "1e-7"``, ``0.1 -> "0.1"``, ``-0.0 -> "0"``,
    ``nan -> "NaN"``, ``inf -> "Infinity"``. A Python ``int`` is first rounded to the nearest
    double, as JavaScript would hold it (an int too large for a double is ``Infinity``);
    ``True``/``False`` give ``"true"``/``"false"``.
    """
    if type(x) is int and -(2**53) <= x <= 2**53:  # the common case: exact as it is
        return str(x)
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        if -(2**53) <= x <= 2**53:
            return str(x) if abs(x) < 10**21 else js_number_to_string(float(x))
        try:
            x = float(x)
        except OverflowError:
            return "Infinity" if x > 0 else "-Infinity"
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    digits, n = shortest_digits(x)
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    exp = ("e+" if e >= 0 else "e-") + str(abs(e))
    if k == 1:
        return sign + digits + exp
    return sign + digits[0] + "." + digits[1:] + exp
