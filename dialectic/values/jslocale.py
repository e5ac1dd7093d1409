"""``x.toLocaleString(locale, options)`` of a number, as Node's ICU writes it for English
(SPEC 1.8, "Numbers"): ``1234567.891`` is ``"1,234,567.891"``, ``{style: 'currency', currency:
'USD'}`` gives ``"$1,234.50"``, ``{style: 'percent'}`` ``"50%"``.

ICU rounds the number's shortest decimal text (the digits ``String(x)`` shows, not the
double's exact value: ``(1.0005).toLocaleString()`` is ``"1.001"``), a tie away from zero, to
``maximumFractionDigits``, then drops trailing zeros down to ``minimumFractionDigits``. The
locales are English's (``undefined``, ``'en-US'``, ``'en'``: the run has no locale of its own,
and Node's default is ``en-US``); another locale, option or currency is refused with what to
write, as is an infinity outside the plain style.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import MAX_SAFE, as_double, inexact_integer
from dialectic.values.jsops import JsRefusal

__all__ = ["NumberFormat", "new_number_format", "to_locale_string"]

_WIDE = Context(prec=800)
_LOCALES = frozenset(["en-US", "en"])
#: currency -> (symbol, digits)
_CURRENCIES = {"USD": ("$", 2), "EUR": ("€", 2), "GBP": ("£", 2), "JPY": ("¥", 0)}
_OPTIONS = frozenset(
    [
        "style",
        "currency",
        "minimumFractionDigits",
        "maximumFractionDigits",
        "useGrouping",
        "minimumIntegerDigits",
    ]
)
_HINT = "Use toFixed(2) and a template, or toLocaleString('en-US', {maximumFractionDigits: 2})."


def to_locale_string(x: int | float, locale: Any = UNDEFINED, options: Any = UNDEFINED) -> str:
    """``x.toLocaleString(locale, options)`` (the module's docstring)."""
    if not (locale is UNDEFINED or locale in _LOCALES or locale == []):
        raise JsRefusal(
            f"numbers are written in English only ('en-US' or none: toLocaleString, "
            f"Intl.NumberFormat), not {locale!r}",
            _HINT,
        )
    opts = _options(options)
    style = opts.get("style", "decimal")
    if style not in ("decimal", "percent", "currency"):
        raise JsRefusal(f"toLocaleString()'s style {style!r} is not supported", _HINT)
    symbol, digits = "", 0
    if style == "currency":
        code = opts.get("currency")
        if type(code) is not str:
            raise JsRefusal(
                "toLocaleString() with style 'currency' needs a currency (a TypeError in "
                "JavaScript)",
                "toLocaleString('en-US', {style: 'currency', currency: 'USD'})",
            )
        found = _CURRENCIES.get(code.upper())
        if found is None:
            raise JsRefusal(
                f"toLocaleString()'s currency {code!r} is not supported (USD, EUR, GBP, JPY)",
                _HINT,
            )
        symbol, digits = found
    low, high = _fraction_digits(opts, style, digits)
    if type(x) is int and not -MAX_SAFE <= x <= MAX_SAFE and as_double(x) != x:
        raise inexact_integer(x, "toLocaleString()")
    negative = x < 0 or (x == 0 and math.copysign(1.0, x) < 0)
    if math.isinf(x):
        if style != "decimal":
            raise JsRefusal(f"toLocaleString() of an infinity in style {style!r}", _HINT)
        return "-∞" if negative else "∞"
    text = _digits(abs(x), style == "percent", low, high)
    whole, dot, fraction = text.partition(".")
    least = opts.get("minimumIntegerDigits", 1)
    whole = whole.rjust(least, "0")
    if opts.get("useGrouping", True) is not False and len(whole) > 3:
        head = len(whole) % 3 or 3
        whole = ",".join([whole[:head], *(whole[i : i + 3] for i in range(head, len(whole), 3))])
    body = whole + dot + fraction
    if style == "percent":
        body += "%"
    return ("-" if negative else "") + symbol + body


def _options(options: Any) -> dict[str, Any]:
    if options is UNDEFINED:
        return {}
    if type(options) is not dict:
        raise JsRefusal("toLocaleString()'s options must be an object", _HINT)
    out = {k: v for k, v in options.items() if v is not UNDEFINED}
    unknown = sorted(set(out) - _OPTIONS)
    if unknown:
        raise JsRefusal(
            f"toLocaleString()'s option `{unknown[0]}` is not supported (only "
            + ", ".join(sorted(_OPTIONS))
            + ")",
            _HINT,
        )
    for key in ("minimumFractionDigits", "maximumFractionDigits", "minimumIntegerDigits"):
        if key in out:
            v = out[key]
            top = 21 if key == "minimumIntegerDigits" else 100
            bottom = 1 if key == "minimumIntegerDigits" else 0
            if type(v) not in (int, float) or v != int(v) or not bottom <= v <= top:
                raise JsRefusal(
                    f"toLocaleString()'s {key} must be a whole number from {bottom} to {top} "
                    "(a RangeError in JavaScript)",
                    _HINT,
                )
            out[key] = int(v)
    if "useGrouping" in out and type(out["useGrouping"]) is not bool:
        raise JsRefusal("toLocaleString()'s useGrouping is supported as true or false", _HINT)
    return out


def _fraction_digits(opts: dict[str, Any], style: str, digits: int) -> tuple[int, int]:
    default_low, default_high = {"decimal": (0, 3), "percent": (0, 0)}.get(style, (digits, digits))
    low = opts.get("minimumFractionDigits")
    high = opts.get("maximumFractionDigits")
    if low is not None and high is not None:
        if low > high:
            raise JsRefusal(
                "toLocaleString()'s minimumFractionDigits is more than its "
                "maximumFractionDigits (a RangeError in JavaScript)",
                _HINT,
            )
        return low, high
    if low is not None:
        return low, max(low, default_high)
    if high is not None:
        return min(default_low, high), high
    return default_low, default_high


def _digits(x: int | float, percent: bool, low: int, high: int) -> str:
    """``x`` (not negative) written with ``low`` to ``high`` decimals: its shortest decimal
    text rounded (a tie away from zero), trailing zeros dropped down to ``low``."""
    value = Decimal(repr(x)) if type(x) is float else Decimal(x)
    if percent:
        value = value.scaleb(2)
    rounded = value.quantize(Decimal(1).scaleb(-high), rounding=ROUND_HALF_UP, context=_WIDE)
    text = format(rounded, "f")
    if high > low and "." in text:
        whole, _, fraction = text.partition(".")
        fraction = fraction.rstrip("0")
        fraction = fraction.ljust(low, "0")
        text = whole + ("." + fraction if fraction else "")
    return text


class NumberFormat:
    """``new Intl.NumberFormat(locale, options)``: a value of the run whose ``format(x)`` is
    ``x.toLocaleString(locale, options)`` (the locale and options checked as it is made)."""

    __slots__ = ("locale", "options")
    js_kind = "Intl.NumberFormat"
    run_only = True

    def __init__(self, locale: Any, options: Any) -> None:
        to_locale_string(0, locale, options)  # (refused here, where it is written)
        self.locale = locale
        self.options = options

    def __repr__(self) -> str:
        return "Intl.NumberFormat"

    def format(self, x: Any = UNDEFINED) -> str:
        if type(x) not in (int, float):
            raise JsRefusal(
                "Intl.NumberFormat's format() is supported for numbers",
                "Convert first: fmt.format(Number(x)).",
            )
        return to_locale_string(x, self.locale, self.options)

    def member(self, name: Any) -> Any:
        raise JsRefusal(
            f"an Intl.NumberFormat has no member `{name}` here", "Its method is format(x)."
        )

    def method(self, name: str) -> Any:
        if name == "format":
            return self.format
        raise JsRefusal(
            f"an Intl.NumberFormat's `{name}()` is not supported here", "Its method is format(x)."
        )

    def items(self) -> list[Any]:
        raise JsRefusal("an Intl.NumberFormat is not iterable (a TypeError in JavaScript)")

    def leaving(self) -> JsRefusal:
        return JsRefusal(
            "an Intl.NumberFormat cannot leave the program (JavaScript would write it as {})",
            "Give the texts it makes: fmt.format(x).",
        )


def new_number_format(locale: Any = UNDEFINED, options: Any = UNDEFINED) -> NumberFormat:
    """``new Intl.NumberFormat(locale, options)`` (also without ``new``, as JavaScript)."""
    return NumberFormat(locale, options)
