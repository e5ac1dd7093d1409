"""``Date``: a point in time as JavaScript holds it, milliseconds since 1970-01-01T00:00Z
(SPEC 1.8, "Dates").

A run's local time is UTC (a deliberate difference: Node uses the machine's zone), so
``getHours`` is ``getUTCHours``, ``getTimezoneOffset()`` is 0, and a date-time text without
an offset is read as UTC, as Node does with ``TZ=UTC``. Texts are read in the ISO 8601 forms
JavaScript defines (``2024-01-15``, ``2024-01-15T10:30:00.000Z``, ``+05:30`` offsets; a space
for the ``T``) by one match that never backtracks (linear; a short text's time is remembered,
as a sort's comparator reads each text often); a text in another form (``'Jan 15,
2024'``, ``'01/15/2024'``, which engines read each their own way) is refused with what to
write, one with no digit is an Invalid Date (as Node). An Invalid Date exists (``isNaN(d)``
tells it), but what would be NaN (``d.getTime()``, ``d - x``) is refused, as NaN is no value of
a run (SPEC 1.7). A Date never changes: a setter (``setDate``, ``setHours``...) of a new Date
(``new Date(d).setDate(x)``, which is how the Plan front end writes the statement
``d.setDate(x);``) gives the time the Date would have, as JavaScript's setter returns it; the
resolver refuses a setter of any other Date (it would change a Date someone holds).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any

from dialectic.values.data import COPIED, UNDEFINED
from dialectic.values.jsdatelocale import to_locale_text
from dialectic.values.jsops import JsRefusal, NotANumber, to_number

__all__ = [
    "JsDate",
    "date_now",
    "date_parse",
    "date_utc",
    "is_nan",
    "new_date",
]

MS_DAY = 86_400_000
#: JavaScript's TimeClip: a time beyond ±8.64e15 ms (±100,000,000 days) is an Invalid Date
MAX_TIME = 8_640_000_000_000_000
_EXACT = 2**53
_DAYS = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_ISO_HINT = (
    "Write the date in ISO 8601: '2024-01-15', '2024-01-15T10:30:00Z' (or build it with "
    "new Date(Date.UTC(2024, 0, 15)))."
)
_INVALID_HINT = (
    "Test it first: isNaN(d) is true for an Invalid Date (new Date('...') of a text that is "
    "no date)."
)
SETTERS = frozenset(
    f"set{utc}{part}"
    for utc in ("", "UTC")
    for part in ("FullYear", "Month", "Date", "Hours", "Minutes", "Seconds", "Milliseconds")
) | {"setTime", "setYear"}
SETTER_HINT = (
    "Write the setter as a statement of its own on a Date the program made and reads only "
    "through its methods (not pushed or named again): `const d = new Date(x); d.setDate("
    "d.getDate() + 7);`, also in a loop's or an arrow's body. Elsewhere make a new Date (a "
    "setter of a new "
    "Date gives the new time): `const d2 = new Date(new Date(d).setDate(d.getDate() + 1));`, "
    "in a loop `let d = new Date(x);` then `d = new Date(new Date(d).setDate(d.getDate() + 1));`."
)


# -- the calendar (proleptic Gregorian, exact integers) -------------------------------------
def days_from_civil(y: int, m: int, d: int) -> int:
    """Days from 1970-01-01 to year ``y``, month ``m`` (1-12), day ``d`` (1-31)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(z: int) -> tuple[int, int, int]:
    """The year, month (1-12) and day of the ``z``-th day from 1970-01-01."""
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (m <= 2), m, d


def _clip(t: int) -> int | None:
    return t if -MAX_TIME <= t <= MAX_TIME else None


def make_time(parts: list[int]) -> int | None:
    """JavaScript's MakeDate(MakeDay(y, m, d), MakeTime(h, mi, s, ms)) of whole numbers (the
    month may be any number: 12 is next January), then TimeClip; refused where a double
    would not hold a step exactly (JavaScript computes in doubles)."""
    y, m, d, h, mi, s, ms = parts
    year = y + m // 12
    days = days_from_civil(year, m % 12 + 1, 1) + d - 1
    in_day = h * 3_600_000 + mi * 60_000 + s * 1000 + ms
    t = days * MS_DAY + in_day
    if max(abs(days * MS_DAY), abs(in_day), abs(t)) >= _EXACT:
        if abs(year) > 400_000:
            return None  # (far beyond TimeClip's range whichever way doubles round)
        raise JsRefusal(
            "the date's parts are too large to compute exactly as JavaScript does",
            "Give parts within their ranges (month 0-11, day 1-31, hours 0-23, ...).",
        )
    return _clip(t)


# -- reading ISO texts ----------------------------------------------------------------------
#: the ISO forms (module docstring): every part fixed in width or ended by a character that
#: cannot continue it, so the match never backtracks (linear in the text)
_ISO = re.compile(
    r"([+-]\d{6}|\d{4})(?:-(\d\d)(?:-(\d\d))?)?"
    r"(?:[Tt ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?)?"
    r"(?:[Zz]|([+-])(\d\d):?(\d\d))?",
    re.ASCII,
)
#: texts up to this length are remembered once read (a sort's comparator reads each often)
_REMEMBERED = 40


def parse_iso(text: str) -> int | None:
    """The time of an ISO text (the module's docstring), None for an Invalid Date; a text in
    another form is refused."""
    if len(text) <= _REMEMBERED:
        return _remembered(text)
    return _read(text)


@lru_cache(maxsize=4096)
def _remembered(text: str) -> int | None:
    return _read(text)


def _read(text: str) -> int | None:
    s = text.strip(" ")
    m = _ISO.fullmatch(s)
    if m is None or (m[4] is not None and m[3] is None) or (m[8] and m[4] is None):
        if not any("0" <= c <= "9" for c in s):
            return None  # ('', 'hello': no engine reads a date there)
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise JsRefusal(
            f"the text {shown!r} is not a date in ISO 8601 form (or one whose reading engines "
            "differ on); JavaScript engines read other forms each their own way",
            _ISO_HINT,
        )
    y, mo, d, h, mi, sec, frac, sign, oh, om = m.groups()
    if y == "-000000":
        raise JsRefusal(f"the year -000000 in {text[:40]!r} is not a year", _ISO_HINT)
    month, day = int(mo or 1), int(d or 1)
    hours, minutes, seconds = int(h or 0), int(mi or 0), int(sec or 0)
    ms = int(frac[:3].ljust(3, "0")) if frac else 0
    if not (1 <= month <= 12 and 1 <= day <= 31 and minutes <= 59 and seconds <= 59):
        return None
    if hours > 24 or (hours == 24 and (minutes or seconds or ms)):
        return None
    offset = 0
    if sign:
        if int(oh) > 23 or int(om) > 59:
            return None
        offset = (int(oh) * 60 + int(om)) * (-60_000 if sign == "-" else 60_000)
    days = days_from_civil(int(y), month, 1) + day - 1
    t = days * MS_DAY + ((hours * 60 + minutes) * 60 + seconds) * 1000 + ms - offset
    return t if -MAX_TIME <= t <= MAX_TIME else None


# -- the value ------------------------------------------------------------------------------
def _two(n: int) -> str:
    return f"{n:02d}"


def _year_text(y: int) -> str:
    return f"-{-y:04d}" if y < 0 else f"{y:04d}"


class JsDate:
    """A Date of the run: its time in ms (None: an Invalid Date). Two Dates are ``===`` only
    when they are the same Date, as in JavaScript."""

    __slots__ = ("time",)
    js_kind = "Date"
    run_only = True

    def __init__(self, time: int | None) -> None:
        self.time = time

    def __repr__(self) -> str:
        return f"Date({self.to_iso() if self.time is not None else 'Invalid Date'})"

    # -- reading --------------------------------------------------------------------------
    def number(self, what: str = "the Date's time") -> int:
        t = self.time
        if t is None:
            raise JsRefusal(
                f"{what} of an Invalid Date is NaN in JavaScript (NaN is no value of a run)",
                _INVALID_HINT,
            )
        return t

    def fields(self, what: str) -> tuple[int, int, int, int, int]:
        """The year, month (1-12), day, milliseconds into the day, and weekday (0: Sunday)."""
        t = self.number(what)
        days, in_day = divmod(t, MS_DAY)
        y, m, d = civil_from_days(days)
        return y, m, d, in_day, (days + 4) % 7

    def to_iso(self) -> str:
        if self.time is None:
            raise JsRefusal(
                "toISOString() of an Invalid Date throws a RangeError in JavaScript",
                _INVALID_HINT,
            )
        y, m, d, in_day, _ = self.fields("toISOString()")
        year = f"{y:04d}" if 0 <= y <= 9999 else f"{'-' if y < 0 else '+'}{abs(y):06d}"
        return f"{year}-{_two(m)}-{_two(d)}T{_clock(in_day)}.{in_day % 1000:03d}Z"

    def to_json(self) -> str | None:
        """``JSON.stringify``'s text of it: its ISO text, or null for an Invalid Date."""
        return None if self.time is None else self.to_iso()

    def to_text(self, form: str = "toString") -> str:
        if self.time is None:
            return "Invalid Date"
        y, m, d, in_day, wd = self.fields(form)
        day, mon, year = _DAYS[wd], _MONTHS[m - 1], _year_text(y)
        zone = " GMT+0000 (Coordinated Universal Time)"
        if form == "toUTCString":
            return f"{day}, {_two(d)} {mon} {year} {_clock(in_day)} GMT"
        if form == "toDateString":
            return f"{day} {mon} {_two(d)} {year}"
        if form == "toTimeString":
            return _clock(in_day) + zone
        return f"{day} {mon} {_two(d)} {year} {_clock(in_day)}{zone}"

    # -- the run's protocol (collections.is_collection: run_only) -------------------------
    def member(self, name: Any) -> Any:
        raise JsRefusal(
            f"a Date has no member `{name}` here",
            "Its methods are getTime(), getFullYear(), getMonth(), getDate(), toISOString(), ...",
        )

    def method(self, name: str) -> Callable[..., Any]:
        fn = _METHODS.get(name)
        if fn is not None:
            return lambda *args: fn(self, *args)
        setter = _SET.get(name)
        if setter is not None:
            return lambda *args: _set(self, name, setter, args)
        if name in SETTERS:  # (`setYear`: write setFullYear)
            raise JsRefusal(f"{name}() is not supported", "Write setFullYear(y).")
        raise JsRefusal(
            f"a Date has no method `{name}` here",
            "Its methods are: " + ", ".join(sorted(_METHODS)) + ".",
        )

    def items(self) -> list[Any]:
        raise JsRefusal("a Date is not iterable (a TypeError in JavaScript)")

    def leaving(self) -> JsRefusal:  # (not used: a Date leaves as its ISO text)
        return JsRefusal("a Date cannot leave the program here", "Give d.toISOString().")


def _clock(in_day: int) -> str:
    s = in_day // 1000
    return f"{_two(s // 3600)}:{_two(s // 60 % 60)}:{_two(s % 60)}"


def _locale(form: str, d: JsDate, locale: Any = UNDEFINED, options: Any = UNDEFINED) -> str:
    return to_locale_text(d, form, locale, options)


def _getter(index: int, what: str) -> Callable[[JsDate], int]:
    def get(d: JsDate) -> int:
        y, m, day, in_day, wd = d.fields(what + "()")
        return (
            y,
            m - 1,
            day,
            in_day // 3_600_000,
            in_day // 60_000 % 60,
            in_day // 1000 % 60,
            in_day % 1000,
            wd,
        )[index]

    return get


_GETTERS = ("FullYear", "Month", "Date", "Hours", "Minutes", "Seconds", "Milliseconds", "Day")
_METHODS: dict[str, Callable[..., Any]] = {
    **{f"get{p}": _getter(i, f"get{p}") for i, p in enumerate(_GETTERS)},
    **{f"getUTC{p}": _getter(i, f"getUTC{p}") for i, p in enumerate(_GETTERS)},
    "getTime": lambda d: d.number("getTime()"),
    "valueOf": lambda d: d.number("valueOf()"),
    "getTimezoneOffset": lambda d: d.number("getTimezoneOffset()") * 0,  # (local time: UTC)
    "toISOString": lambda d: d.to_iso(),
    "toJSON": lambda d, key=UNDEFINED: d.to_json(),
    **{
        form: partial(JsDate.to_text, form=form)
        for form in ("toString", "toDateString", "toTimeString", "toUTCString")
    },
    **{
        form: partial(_locale, form)
        for form in ("toLocaleString", "toLocaleDateString", "toLocaleTimeString")
    },
}
#: the setters (local time is UTC): the first part each sets (of year, month, day, hours,
#: minutes, seconds, ms) and how many it may set (JavaScript's optional arguments)
_SET = {
    f"set{utc}{part}": (first, count)
    for utc in ("", "UTC")
    for part, first, count in (
        ("FullYear", 0, 3),
        ("Month", 1, 2),
        ("Date", 2, 1),
        ("Hours", 3, 4),
        ("Minutes", 4, 3),
        ("Seconds", 5, 2),
        ("Milliseconds", 6, 1),
    )
}


def _set(d: JsDate, name: str, setter: tuple[int, int], args: tuple[Any, ...]) -> int:
    """The time ``d`` would have after ``d.name(...args)`` (JavaScript's setter's value):
    the parts given replace the Date's, the others kept, computed as ``new Date(y, m, ...)``
    does (a part past its range carries: January 31 plus a month is March 2 or 3), without
    the 1900 of a two-digit year; NaN (an Invalid Date before, or after) is refused."""
    first, count = setter
    what = f"{name}()"
    if name == "setTime":
        t = _whole(args[0] if args else UNDEFINED, what)
        t = None if t is None else _clip(t)
    elif d.time is None and first != 0:
        t = None  # (setFullYear of an Invalid Date starts from time 0)
    else:
        y, m, day, in_day, _ = JsDate(d.time or 0).fields(what)
        parts = [y, m - 1, day, in_day // 3_600_000, in_day // 60_000 % 60]
        parts += [in_day // 1000 % 60, in_day % 1000]
        given = [_whole(v, what) for v in (args or (UNDEFINED,))[:count]]
        if any(v is None for v in given):
            t = None
        else:
            parts[first : first + len(given)] = [v for v in given if v is not None]
            t = make_time(parts)
    if t is None:
        raise JsRefusal(
            f"{what} gives NaN here (an Invalid Date, before or after: a part not finite, or "
            "beyond ±8.64e15 ms), and NaN is no value of a run",
            _INVALID_HINT,
        )
    return t


COPIED[JsDate] = lambda d: JsDate(d.time)  # (structuredClone makes a new Date)
#: the methods of a Date (the Plan front end writes them as JavaScript methods); `valueOf` is
#: not among them, as of no other value (`d.getTime()` is its time; `x.valueOf()` stays refused
#: as an unknown function, tests/hostile)
DATE_METHODS = (frozenset(_METHODS) | SETTERS) - {"valueOf"}
_SET["setTime"] = (0, 1)


# -- the globals ----------------------------------------------------------------------------
def _whole(v: Any, what: str) -> int | None:
    """A number argument as JavaScript's ToIntegerOrInfinity takes it (None: not finite)."""
    if type(v) is bool or type(v) not in (int, float):
        raise JsRefusal(
            f"{what} takes numbers here, not {type(v).__name__ if v is not None else 'null'}",
            "Convert first: Number(x).",
        )
    if type(v) is float and not math.isfinite(v):
        return None
    return int(v)


def _parts(args: tuple[Any, ...], what: str) -> int | None:
    """The time of (year, month, day, hours, minutes, seconds, ms) as UTC (None: invalid)."""
    parts = [0, 0, 1, 0, 0, 0, 0]
    for i, v in enumerate(args[:7]):
        n = _whole(v, what)
        if n is None:
            return None
        parts[i] = n
    if 0 <= parts[0] <= 99:
        parts[0] += 1900
    return make_time(parts)


def new_date(*args: Any) -> JsDate:
    """``new Date(v)`` of a text, a number (ms), another Date, or its parts (UTC); ``new
    Date()`` reads the run's clock (compiler/forms.py)."""
    if len(args) >= 2:
        return JsDate(_parts(args, "new Date(year, month, ...)"))
    v: Any = args[0] if args else UNDEFINED
    t = type(v)
    if t is JsDate:
        return JsDate(v.time)
    if t is str:
        return JsDate(parse_iso(v))
    if t is int or t is float:
        if t is float and not math.isfinite(v):
            return JsDate(None)
        return JsDate(_clip(int(v)))
    if v is UNDEFINED:
        return JsDate(None)
    if v is None or t is bool:
        return JsDate(int(bool(v)))
    raise JsRefusal(
        f"new Date() takes a text, a number or a Date, not {type(v).__name__}",
        _ISO_HINT,
    )


def date_now() -> int:
    """``Date.now()`` is compiled to read the run's clock (compiler/forms.py); not called."""
    raise JsRefusal("Date.now() reads the run's clock; call it as Date.now()", "Date.now()")


def date_parse(text: Any = UNDEFINED) -> int:
    """``Date.parse(text)``: the time of an ISO text (an Invalid one is refused: NaN)."""
    if type(text) is not str:
        raise JsRefusal("Date.parse() takes a text", "Date.parse('2024-01-15T10:30:00Z')")
    t = parse_iso(text)
    if t is None:
        raise JsRefusal(
            f"Date.parse({text[:40]!r}) is NaN in JavaScript: the text is not a valid date",
            "Test it first with isNaN(new Date(text)).",
        )
    return t


def date_utc(*args: Any) -> int:
    """``Date.UTC(year, month, ...)``: the time of the parts in UTC."""
    t = _parts(args, "Date.UTC()") if args else None
    if t is None:
        raise JsRefusal(
            "Date.UTC() gives NaN here (no year, a part not finite, or beyond ±8.64e15 ms)",
            "Date.UTC(2024, 0, 15)",
        )
    return t


def is_nan(v: Any = UNDEFINED, of: Any = UNDEFINED) -> bool:
    """The global ``isNaN(v)``: whether ``Number(v)`` is NaN (of a Date: an Invalid Date).
    ``isNaN(d.getTime())`` is written ``isNaN(d, 'getTime')`` (plan/postfix.py): ``d`` must be
    a Date there, as ``getTime`` would have needed."""
    if type(v) is JsDate:
        return v.time is None
    if of == "getTime":
        raise JsRefusal(
            f"getTime() is a method of a Date, not of {type(v).__name__}",
            "Make a Date first: new Date(x).getTime().",
        )
    if type(v) is float:
        return v != v
    if type(v) in (int, bool) or v is None:
        return False
    if v is UNDEFINED:
        return True
    if type(v) is str:
        try:
            to_number(v)
        except NotANumber:
            return True
        return False
    raise JsRefusal(
        "isNaN() of an array or an object converts it through its text in JavaScript",
        "Test a number with Number.isFinite(x), a Date with isNaN(d).",
    )
