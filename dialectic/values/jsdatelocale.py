"""``d.toLocaleDateString(locale, options)``, ``toLocaleTimeString``, ``toLocaleString`` of a
Date, as Node's ICU writes them for English (``en-US``, ``en``, none) in UTC (SPEC 1.8,
"Dates"): ``1/5/2024``, ``3:04:05 PM``, ``January 5, 2024 at 3:04 PM``, ``Fri, Jan 5``.

The options are ``weekday``, ``year``, ``month``, ``day``, ``hour``, ``minute``, ``second``
(``numeric``, ``2-digit``, ``long``, ``short``, ``narrow`` as each takes), ``hour12`` and
``timeZone: 'UTC'``; the fields are chosen as ECMA-402's ToDateTimeOptions does (a method's
defaults when none of its own fields is given). The shapes written are those whose ICU pattern
is regular (a month with its day, and the year; a month and a year; one field alone; hours with
minutes; minutes with seconds); another combination (``{year, day}``, ``{weekday, month}``),
another locale, time zone or option is refused with what to write.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsops import JsRefusal

if TYPE_CHECKING:
    from dialectic.values.jsdate import JsDate

__all__ = ["to_locale_text"]

_LOCALES = frozenset(["en-US", "en"])
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_DAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
_NUMERIC = ("numeric", "2-digit")
_TEXT = ("long", "short", "narrow")
_ALLOWED = {
    "weekday": _TEXT,
    "year": _NUMERIC,
    "month": _NUMERIC + _TEXT,
    "day": _NUMERIC,
    "hour": _NUMERIC,
    "minute": _NUMERIC,
    "second": _NUMERIC,
}
_STYLES = ("full", "long", "medium", "short")
#: the fields of each `dateStyle` in English (ICU: `EEEE, MMMM d, y`, `MMMM d, y`, `MMM d, y`,
#: `M/d/yy`)
_DATE_STYLES: dict[str, dict[str, str]] = {
    "full": {"weekday": "long", "month": "long", "day": "numeric", "year": "numeric"},
    "long": {"month": "long", "day": "numeric", "year": "numeric"},
    "medium": {"month": "short", "day": "numeric", "year": "numeric"},
    "short": {"month": "numeric", "day": "numeric", "year": "2-digit"},
}
_DATE_FIELDS = ("weekday", "year", "month", "day")
_TIME_FIELDS = ("hour", "minute", "second")
_HINT = (
    "Use toLocaleDateString('en-US', {year: 'numeric', month: 'long', day: 'numeric'}), or "
    "build the text from the getters (d.getFullYear(), d.getMonth() + 1, ...) or "
    "d.toISOString().slice(0, 10)."
)


def to_locale_text(d: JsDate, method: str, locale: Any, options: Any) -> str:
    """The text ``d.<method>(locale, options)`` (the module's docstring)."""
    if not (locale is UNDEFINED or locale in _LOCALES or locale == []):
        raise JsRefusal(
            f"{method}() writes dates in English only ('en-US' or none), not {locale!r}",
            _HINT,
        )
    styles = _styles(options, method)
    opts = _options(options, method) if styles is None else _styled(options, styles, method)
    if d.time is None:
        return "Invalid Date"
    if styles is None:
        _fill_defaults(opts, method)
    y, m, day, in_day, wd = d.fields(method + "()")
    if not 1 <= y <= 9999:
        raise JsRefusal(f"{method}() is supported for the years 1 to 9999", _HINT)
    date = _date_part(opts, y, m, day, wd, method)
    time = _time_part(opts, in_day, method)
    if styles is not None:  # (ICU's patterns for English)
        date_style, time_style = styles
        if time and time_style in ("long", "full"):
            time += " UTC" if time_style == "long" else " Coordinated Universal Time"
        joint = " at " if date_style in ("full", "long") else ", "
        return date + joint + time if date and time else date or time
    if date and time:
        if "day" not in opts or opts.get("month") == "narrow":
            raise _shape(opts, method)
        return date + (" at " if opts.get("month") == "long" else ", ") + time
    return date or time


def _options(options: Any, method: str) -> dict[str, Any]:
    if options is UNDEFINED:
        return {}
    if type(options) is not dict:
        raise JsRefusal(f"{method}()'s options must be an object", _HINT)
    out: dict[str, Any] = {}
    for key, value in options.items():
        if value is UNDEFINED:
            continue
        if key == "timeZone":
            if type(value) is not str or value.upper() != "UTC":
                raise JsRefusal(
                    f"{method}() is supported in the time zone 'UTC' only (a run's local time "
                    f"is UTC), not {value!r}",
                    "Leave timeZone out, or give 'UTC'.",
                )
            continue
        if key == "hour12":
            if type(value) is not bool:
                raise JsRefusal(f"{method}()'s hour12 is supported as true or false", _HINT)
            out[key] = value
            continue
        allowed = _ALLOWED.get(key)
        if allowed is None:
            raise JsRefusal(
                f"{method}()'s option `{key}` is not supported (only weekday, year, month, day, "
                "hour, minute, second, hour12, timeZone: 'UTC')",
                _HINT,
            )
        if value not in allowed:
            raise JsRefusal(
                f"{method}()'s {key} must be one of {', '.join(allowed)} (a RangeError in "
                "JavaScript)",
                _HINT,
            )
        out[key] = value
    return out


def _styles(options: Any, method: str) -> tuple[str | None, str | None] | None:
    """The options' ``dateStyle`` and ``timeStyle``, or None without them."""
    if type(options) is not dict:
        return None
    found: list[str | None] = []
    for key, method_without in (
        ("dateStyle", "toLocaleTimeString"),
        ("timeStyle", "toLocaleDateString"),
    ):
        value = options.get(key, UNDEFINED)
        if value is UNDEFINED:
            found.append(None)
            continue
        if method == method_without:
            raise JsRefusal(
                f"{method}() takes no `{key}` (a TypeError in JavaScript: Invalid option)",
                "write d.toLocaleString(locale, {dateStyle, timeStyle}) for a date and a time",
            )
        if value not in _STYLES:
            raise JsRefusal(
                f"{method}()'s {key} must be one of {', '.join(_STYLES)} (a RangeError in "
                "JavaScript)",
                _HINT,
            )
        found.append(value)
    return None if found == [None, None] else (found[0], found[1])


def _styled(
    options: dict[str, Any], styles: tuple[str | None, str | None], method: str
) -> dict[str, Any]:
    """The fields ``dateStyle`` and ``timeStyle`` write (with ``hour12`` and ``timeZone``
    checked as :func:`_options` checks them; a field with a style is JavaScript's
    TypeError)."""
    rest = {k: v for k, v in options.items() if k not in ("dateStyle", "timeStyle")}
    opts = _options(rest, method)
    field = next((k for k in opts if k != "hour12"), None)
    if field is not None:
        raise JsRefusal(
            f"{method}() takes no `{field}` with dateStyle or timeStyle (a TypeError in "
            "JavaScript: Can't set option)",
            "give the style alone, or the fields alone",
        )
    date_style, time_style = styles
    if date_style is not None:
        opts.update(_DATE_STYLES[date_style])
    if time_style is not None:
        opts.update(hour="numeric", minute="2-digit")
        if time_style != "short":
            opts["second"] = "2-digit"
    return opts


def _fill_defaults(opts: dict[str, Any], method: str) -> None:
    """ECMA-402's ToDateTimeOptions: a method's default fields when none it requires is given."""
    need = True
    if method != "toLocaleTimeString" and any(k in opts for k in _DATE_FIELDS):
        need = False
    if method != "toLocaleDateString" and any(k in opts for k in _TIME_FIELDS):
        need = False
    if need and method != "toLocaleTimeString":
        opts.update(year="numeric", month="numeric", day="numeric")
    if need and method != "toLocaleDateString":
        opts.update(hour="numeric", minute="numeric", second="numeric")


def _shape(opts: dict[str, Any], method: str) -> JsRefusal:
    fields = ", ".join(f"{k}: '{v}'" for k, v in opts.items() if k != "hour12")
    return JsRefusal(
        f"{method}() with the fields {{{fields}}} is not supported (ICU writes that "
        "combination irregularly)",
        _HINT,
    )


def _number(n: int, style: str | None) -> str:
    return f"{n % 100:02d}" if style == "2-digit" else str(n)


def _date_part(opts: dict[str, Any], y: int, m: int, day: int, wd: int, method: str) -> str:
    w, year, month, dd = (opts.get(k) for k in _DATE_FIELDS)
    if month is None and dd is None and year is None:
        return "" if w is None else _name(_DAYS[wd], w)
    present = [k for k in _DATE_FIELDS if opts.get(k) is not None]
    if month is None:
        if len(present) != 1:
            raise _shape(opts, method)
        return _number(y, year) if year is not None else _number(day, dd)
    if month in _NUMERIC:
        text = _number(m, month)
        if dd is not None:
            text += "/" + _number(day, dd) + ("/" + _number(y, year) if year else "")
        elif year is not None:
            text += "/" + _number(y, year)
    else:
        text = _name(_MONTHS[m - 1], month)
        if dd is not None:
            text += " " + _number(day, dd) + (", " + _number(y, year) if year else "")
        elif year is not None:
            text += " " + _number(y, year)
    if w is not None:
        if dd is None:
            raise _shape(opts, method)
        text = _name(_DAYS[wd], w) + ", " + text
    return text


def _name(name: str, style: str) -> str:
    return name if style == "long" else name[:3] if style == "short" else name[0]


def _time_part(opts: dict[str, Any], in_day: int, method: str) -> str:
    h, mi, s = (opts.get(k) for k in _TIME_FIELDS)
    hours, minutes, seconds = in_day // 3_600_000, in_day // 60_000 % 60, in_day // 1000 % 60
    if h is None:
        if mi is not None and s is not None:
            return f"{minutes:02d}:{seconds:02d}"
        if mi is not None:
            return str(minutes)
        return "" if s is None else str(seconds)
    if s is not None and mi is None:
        raise _shape(opts, method)
    twelve = opts.get("hour12", True)
    if twelve:
        shown = hours % 12 or 12
        hour = f"{shown:02d}" if h == "2-digit" else str(shown)
    else:
        hour = f"{hours or 24:02d}"  # (Node's ICU writes midnight as 24 with hour12: false)
    text = hour
    if mi is not None:
        text += f":{minutes:02d}" + (f":{seconds:02d}" if s is not None else "")
    return text + (" PM" if hours >= 12 else " AM") if twelve else text
