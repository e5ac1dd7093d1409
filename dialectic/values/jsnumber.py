"""JavaScript's ``String(number)`` in Python (ECMAScript Number::toString, radix 10).

Python's ``repr(float)`` already yields the shortest digit string that round-trips, which is
exactly the digit string ECMAScript asks for; only the layout (where the point goes, when to use
an exponent, ``e+21`` versus ``e21``) differs, and that is what this module reproduces.
"""

from __future__ import annotations

import math
from decimal import Decimal

__all__ = [
    "MAX_SAFE",
    "JsRefusal",
    "as_double",
    "inexact_integer",
    "js_number_to_string",
    "shortest_digits",
    "show_integer",
]

#: JavaScript holds every integer up to this size exactly; beyond it, only some (SPEC 1.7)
MAX_SAFE = 2**53


class JsRefusal(Exception):
    """An operation whose JavaScript meaning is a trap (or not JSON): refused with a hint."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class JsThrows(JsRefusal):
    """An operation on which JavaScript throws too (``JSON.parse`` of a text that is not
    JSON): a ``$try`` handler may catch it (SPEC 1.2). ``name`` is the error's (``message``
    is Node's where a program may read it: ``new URL('x')`` throws ``Invalid URL``)."""

    name = "SyntaxError"
    #: the failure's message when nothing catches it (None: ``message``)
    said: str | None = None


def as_double(n: int | float) -> float:
    """The double JavaScript holds for ``n`` (an int rounded to nearest, ties to even, as
    ``JSON.parse`` and number literals do; beyond the double range, an infinity)."""
    try:
        return float(n)
    except OverflowError:
        return math.inf if n > 0 else -math.inf


def show_integer(n: int) -> str:
    """``n`` for a message: its digits, or its size when it is long (``str`` of an int of
    more than 4,300 digits raises, and a long one would bury the message)."""
    if n.bit_length() <= 128:
        return str(n)
    return f"(an integer of about {int(n.bit_length() * 0.30103) + 1:,} digits)"


def inexact_integer(n: int, what: str) -> JsRefusal:
    """The refusal for an integer beyond 2**53 that an operation would not use as it is: the
    data carries ``n`` exactly, JavaScript (and so Node's answer) uses a different number."""
    d = as_double(n)
    held = js_number_to_string(d)
    return JsRefusal(
        f"{what}: {show_integer(n)} is an integer beyond 2**53, which JavaScript holds as "
        f"{held}; Node's answer would be about that number, not the one the data has",
        "An id this large is passed on exactly when it is only carried (an argument, part of "
        "the result); to compare or show it, have the tool give it as text. Numbers to compute "
        "with must be within ±9007199254740992.",
    )


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
    ``nan -> "NaN"``, ``inf -> "Infinity"``; ``True``/``False`` give ``"true"``/``"false"``.
    An ``int`` beyond 2**53 is written as JavaScript writes its double only when that text reads
    back as the same integer (``10**22 -> "1e+22"``); otherwise it raises :class:`JsRefusal`
    (``2**53 + 1`` is written ``9007199254740992`` by Node, ``2**60`` as
    ``1152921504606847000``: a different integer than the data's, see SPEC 1.7).
    """
    if type(x) is int and -(2**53) <= x <= 2**53:  # the common case: exact as it is
        return str(x)
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        n = int(x)
        if -MAX_SAFE <= n <= MAX_SAFE:
            return str(n)
        return _integer_text(n)
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


def _integer_text(n: int) -> str:
    """Node's text of an integer beyond 2**53 when it names exactly ``n``; else refused."""
    d = as_double(n)
    if d == n:  # (false for an infinity: an int is never infinite)
        text = js_number_to_string(d)
        if int(Decimal(text)) == n:
            return text
    raise inexact_integer(n, "a number written as text")
