"""``new Intl.DateTimeFormat(locale, options)`` (also without ``new``): a value of the run whose
``format(d)`` writes a Date as ``d.toLocaleDateString(locale, options)`` does, or
``toLocaleTimeString`` when the options name only time fields (ECMA-402's ToDateTimeOptions
with "any" and "date": the fields given, else a date's year, month and day), so with the same
English, UTC and shapes (:mod:`.jsdatelocale`; SPEC 1.8, "Dates"). ``formatToParts``,
``formatRange`` and ``resolvedOptions`` are refused with what to write."""

from __future__ import annotations

from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsdate import JsDate, new_date
from dialectic.values.jsdatelocale import to_locale_text
from dialectic.values.jsops import JsRefusal, kind

__all__ = ["DateTimeFormat", "new_date_time_format"]

_NAME = "Intl.DateTimeFormat"
_TIME = frozenset(["hour", "minute", "second", "dayPeriod", "fractionalSecondDigits"])
_DATE = frozenset(["weekday", "year", "month", "day"])
_HINT = "Its method is format(d): fmt.format(new Date(x))."


def _method(options: Any) -> str:
    """The Date method that chooses the same fields as the format's options."""
    if type(options) is dict:
        given = {k for k, v in options.items() if v is not UNDEFINED}
        if "dateStyle" in given or "timeStyle" in given:
            return "toLocaleString"  # (either or both: ECMA-402's styles)
        if given & _TIME and not given & _DATE:
            return "toLocaleTimeString"
    return "toLocaleDateString"


class DateTimeFormat:
    """``new Intl.DateTimeFormat(locale, options)`` (the locale and options checked as it is
    made, where it is written)."""

    __slots__ = ("locale", "options", "_as")
    js_kind = _NAME
    run_only = True

    def __init__(self, locale: Any, options: Any) -> None:
        self.locale = locale
        self.options = options
        self._as = _method(options)
        self._text(JsDate(0))  # (refused here, where it is written)

    def __repr__(self) -> str:
        return _NAME

    def _text(self, d: JsDate) -> str:
        try:
            return to_locale_text(d, self._as, self.locale, self.options)
        except JsRefusal as exc:
            raise JsRefusal(exc.message.replace(f"{self._as}()", _NAME), exc.hint) from None

    def format(self, x: Any = UNDEFINED) -> str:
        t = type(x)
        if t is JsDate:
            return self._text(x)
        if (t is int or t is float) and t is not bool:
            return self._text(new_date(x))  # (a time in ms, as JavaScript takes it)
        if x is UNDEFINED:
            raise JsRefusal(
                f"{_NAME}'s format() without a Date writes the machine's clock",
                "Give the Date: fmt.format(new Date()) (the run's instant).",
            )
        raise JsRefusal(
            f"{_NAME}'s format() takes a Date (or its time in ms), not {kind(x)}",
            "Make a Date first: fmt.format(new Date(text)).",
        )

    def member(self, name: Any) -> Any:
        raise JsRefusal(f"an {_NAME} has no member `{name}` here", _HINT)

    def method(self, name: str) -> Any:
        if name == "format":
            return self.format
        raise JsRefusal(
            f"an {_NAME}'s `{name}()` is not supported here",
            _HINT + " For the parts, use the getters: d.getFullYear(), d.getMonth() + 1, ...",
        )

    def items(self) -> list[Any]:
        raise JsRefusal(f"an {_NAME} is not iterable (a TypeError in JavaScript)")

    def leaving(self) -> JsRefusal:
        return JsRefusal(
            f"an {_NAME} cannot leave the program (JavaScript would write it as {{}})",
            "Give the texts it makes: fmt.format(d).",
        )


def new_date_time_format(locale: Any = UNDEFINED, options: Any = UNDEFINED) -> DateTimeFormat:
    """``new Intl.DateTimeFormat(locale, options)`` (also without ``new``, as JavaScript)."""
    return DateTimeFormat(locale, options)
