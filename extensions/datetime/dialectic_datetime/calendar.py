"""Pure date math on timezone-aware datetimes (no clock, no context).

Conventions (documented in README.md):

- Weeks start on **Monday** (ISO 8601).
- Calendar units (``day``, ``week``, ``month``, ``year``) keep the wall-clock time across DST
  changes (``relativedelta`` on the local time, then re-localized); ``hour``, ``minute`` and
  ``second`` are absolute time (exactly 3600 s per hour, computed in UTC).
- A wall-clock time that does not exist (the hour skipped when DST starts) moves forward by the
  size of the gap (02:30 -> 03:30); an ambiguous one (the hour repeated when DST ends) is the first
  occurrence (daylight time).
- ``endOf(unit)`` is the last whole second of the period (``23:59:59`` for a day).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from dateutil.relativedelta import relativedelta

from dialectic.outcome.errors import Failure

# -- vocabulary ---------------------------------------------------------------------------------

#: canonical unit -> accepted spellings (compared case-insensitively)
UNITS: dict[str, tuple[str, ...]] = {
    "second": ("second", "seconds"),
    "minute": ("minute", "minutes"),
    "hour": ("hour", "hours"),
    "day": ("day", "days"),
    "week": ("week", "weeks"),
    "month": ("month", "months"),
    "year": ("year", "years"),
}
_UNIT_LOOKUP = {spelling: unit for unit, spellings in UNITS.items() for spelling in spellings}
CALENDAR_UNITS = frozenset({"day", "week", "month", "year"})

#: Monday=0 .. Sunday=6, as datetime.weekday()
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_WEEKDAY_LOOKUP = {name.lower(): i for i, name in enumerate(WEEKDAYS)}
_WEEKDAY_LOOKUP.update({name[:3].lower(): i for i, name in enumerate(WEEKDAYS)})
_WEEKDAY_LOOKUP.update({"tues": 1, "weds": 2, "thur": 3, "thurs": 3})

#: named times of day -> wall-clock time
DAY_PARTS: dict[str, time] = {
    "morning": time(9, 0),
    "midday": time(12, 0),
    "afternoon": time(15, 0),
    "evening": time(18, 0),
    "night": time(21, 0),
    "endofday": time(23, 59, 59),
    "closeofbusiness": time(17, 0),
}
_TIME_WORDS: dict[str, time] = {"noon": time(12, 0), "midnight": time(0, 0), **DAY_PARTS}

VALID_UNITS_TEXT = ", ".join(UNITS)
VALID_WEEKDAYS_TEXT = ", ".join(WEEKDAYS)
VALID_DAY_PARTS_TEXT = ", ".join(DAY_PARTS)


def _squash(text: str) -> str:
    return re.sub(r"[\s_\-]+", "", text.strip().lower())


def normalize_unit(unit: object) -> str:
    """``'Days'`` -> ``'day'``; anything else is a Failure listing the valid units."""
    if isinstance(unit, str):
        found = _UNIT_LOOKUP.get(unit.strip().lower())
        if found is not None:
            return found
    raise Failure(
        f"{unit!r} is not a date unit. Valid units: {VALID_UNITS_TEXT} "
        "(singular or plural, any case).",
        hint="Use a unit constant, e.g. plus(3, days) or startOf(week).",
    )


def weekday_index(text: object) -> int | None:
    """``'Thursday'``/``'thu'`` -> 3; None if ``text`` is not a weekday name."""
    if not isinstance(text, str):
        return None
    return _WEEKDAY_LOOKUP.get(text.strip().lower().rstrip("."))


def day_part(text: object) -> time | None:
    """``'closeOfBusiness'``/``'close of business'`` -> 17:00; None if not a day part."""
    if not isinstance(text, str):
        return None
    return DAY_PARTS.get(_squash(text))


# -- wall-clock helpers -------------------------------------------------------------------------


def localize(naive: datetime, tz: tzinfo) -> datetime:
    """Attach ``tz`` to a wall-clock time, resolving DST gaps forward and overlaps to the first."""
    aware = naive.replace(tzinfo=tz, fold=0)
    # a round trip through UTC normalizes a wall time that falls into a DST gap
    return aware.astimezone(UTC).astimezone(tz)


def _tz(dt: datetime) -> tzinfo:
    tz = dt.tzinfo
    if tz is None:
        raise ValueError("a timezone-aware datetime is required")
    return tz


def _wall(dt: datetime) -> datetime:
    return dt.replace(tzinfo=None, fold=0)


def _checked(make: Callable[[], datetime]) -> datetime:
    """Run a date computation, turning calendar overflow into a Failure."""
    try:
        return make()
    except (OverflowError, ValueError) as exc:
        raise Failure(
            f"The date is out of range ({exc}); dates must fall between the years 1 and 9999.",
        ) from None


def start_of_day(dt: datetime) -> datetime:
    return localize(datetime.combine(dt.date(), time(0, 0)), _tz(dt))


def with_time(dt: datetime, at: time) -> datetime:
    """The same local calendar day at the wall-clock time ``at``."""
    return localize(datetime.combine(dt.date(), at), _tz(dt))


# -- arithmetic ---------------------------------------------------------------------------------


def add(dt: datetime, count: float, unit: str) -> datetime:
    """``dt`` plus ``count`` units (negative to go back); see the module doc for DST rules."""
    unit = normalize_unit(unit)
    if isinstance(count, bool) or not isinstance(count, int | float) or not math.isfinite(count):
        raise Failure(f"The count must be a finite number, got {count!r}.")
    tz = _tz(dt)
    if unit not in CALENDAR_UNITS:
        seconds = count * {"second": 1, "minute": 60, "hour": 3600}[unit]
        return _checked(lambda: (dt.astimezone(UTC) + timedelta(seconds=seconds)).astimezone(tz))
    if unit in ("month", "year"):
        if count != int(count):
            smaller = "days" if unit == "month" else "months"
            raise Failure(
                f"Cannot add a fractional number of {unit}s ({count}); months and years have "
                f"different lengths. Use a whole number, or count in {smaller}.",
            )
        n = int(count)
        delta = relativedelta(months=n) if unit == "month" else relativedelta(years=n)
        return _checked(lambda: localize(_wall(dt) + delta, tz))
    days = count * (7 if unit == "week" else 1)
    whole = math.trunc(days)
    rest_seconds = (days - whole) * 86400
    shifted = _checked(lambda: localize(_wall(dt) + relativedelta(days=whole), tz))
    if rest_seconds:
        shifted = _checked(
            lambda: (shifted.astimezone(UTC) + timedelta(seconds=rest_seconds)).astimezone(tz)
        )
    return shifted


def start_of(dt: datetime, unit: str) -> datetime:
    """The first instant of the ``unit`` containing ``dt`` (weeks start on Monday)."""
    unit = normalize_unit(unit)
    tz = _tz(dt)
    wall = _wall(dt)
    if unit == "second":
        return localize(wall.replace(microsecond=0), tz)
    if unit == "minute":
        return localize(wall.replace(second=0, microsecond=0), tz)
    if unit == "hour":
        # absolute: the start of the hour this instant is in (correct in a repeated DST hour)
        into = timedelta(minutes=dt.minute, seconds=dt.second, microseconds=dt.microsecond)
        return (dt.astimezone(UTC) - into).astimezone(tz)
    day0 = datetime.combine(wall.date(), time(0, 0))
    if unit == "day":
        return localize(day0, tz)
    if unit == "week":
        return _checked(lambda: localize(day0 - timedelta(days=wall.weekday()), tz))
    if unit == "month":
        return localize(day0.replace(day=1), tz)
    return localize(day0.replace(month=1, day=1), tz)


def end_of(dt: datetime, unit: str) -> datetime:
    """The last whole second of the ``unit`` containing ``dt`` (``23:59:59`` for a day)."""
    unit = normalize_unit(unit)
    start = start_of(dt, unit)
    nxt = add(start, 1, unit)
    if unit in CALENDAR_UNITS:
        # the last wall-clock second before the next period starts
        return localize(_wall(nxt) - timedelta(seconds=1), _tz(dt))
    return (nxt.astimezone(UTC) - timedelta(seconds=1)).astimezone(_tz(dt))


# -- next / last / this -------------------------------------------------------------------------


def _describe_component(component: object) -> str:
    return (
        f"{component!r} is not a weekday, a unit or a time of day. Use one of: "
        f"weekdays ({VALID_WEEKDAYS_TEXT}); units ({VALID_UNITS_TEXT}); "
        f"times of day ({VALID_DAY_PARTS_TEXT})."
    )


def _bad_component(component: object, fn: str) -> Failure:
    return Failure(
        _describe_component(component),
        hint=f"For example {fn}(Thursday), {fn}(week) or {fn}(morning).",
    )


def next_of(now: datetime, component: object) -> datetime:
    """``next(X)`` relative to ``now``.

    - weekday: the first such day strictly after today, at 00:00;
    - unit: the start of the following unit (``next(week)`` = Monday 00:00 of next week,
      ``next(day)`` = tomorrow 00:00, ``next(hour)`` = the start of the next hour);
    - time of day: the first such wall-clock time strictly after ``now``.
    """
    wd = weekday_index(component)
    if wd is not None:
        ahead = (wd - now.weekday() - 1) % 7 + 1
        day0 = datetime.combine(now.date(), time(0))
        return _checked(lambda: localize(day0 + timedelta(ahead), _tz(now)))
    part = day_part(component)
    if part is not None:
        candidate = with_time(now, part)
        if candidate <= now:
            candidate = with_time(add(start_of_day(now), 1, "day"), part)
        return candidate
    if isinstance(component, str) and component.strip().lower() in _UNIT_LOOKUP:
        unit = normalize_unit(component)
        return add(start_of(now, unit), 1, unit)
    raise _bad_component(component, "next")


def last_of(now: datetime, component: object) -> datetime:
    """``last(X)`` relative to ``now``.

    - weekday: the most recent such day strictly before today, at 00:00;
    - unit: the start of the previous unit (``last(week)`` = Monday 00:00 of last week);
    - time of day: the most recent such wall-clock time strictly before ``now``.
    """
    wd = weekday_index(component)
    if wd is not None:
        back = (now.weekday() - wd - 1) % 7 + 1
        day0 = datetime.combine(now.date(), time(0))
        return _checked(lambda: localize(day0 - timedelta(back), _tz(now)))
    part = day_part(component)
    if part is not None:
        candidate = with_time(now, part)
        if candidate >= now:
            candidate = with_time(add(start_of_day(now), -1, "day"), part)
        return candidate
    if isinstance(component, str) and component.strip().lower() in _UNIT_LOOKUP:
        unit = normalize_unit(component)
        return add(start_of(now, unit), -1, unit)
    raise _bad_component(component, "last")


def this_of(now: datetime, component: object) -> datetime:
    """``this(X)`` (and ``current(X)``) relative to ``now``.

    - weekday: that day of the current Monday-to-Sunday week, at 00:00 (may be in the past);
    - unit: the start of the current unit (``this(week)`` = Monday 00:00 of this week);
    - time of day: today at that time.
    """
    wd = weekday_index(component)
    if wd is not None:
        monday = datetime.combine(now.date(), time(0)) - timedelta(now.weekday())
        return _checked(lambda: localize(monday + timedelta(wd), _tz(now)))
    part = day_part(component)
    if part is not None:
        return with_time(now, part)
    if isinstance(component, str) and component.strip().lower() in _UNIT_LOOKUP:
        return start_of(now, normalize_unit(component))
    raise _bad_component(component, "this")


# -- parsing text -------------------------------------------------------------------------------

TIME_FORMATS_TEXT = (
    "'9:00am', '9am', '9:30 pm', '15:30', '15:30:00', 'noon', 'midnight', "
    f"or a time of day ({VALID_DAY_PARTS_TEXT})"
)

_TIME_RE = re.compile(
    r"^(?P<h>\d{1,2})(?::(?P<m>\d{2})(?::(?P<s>\d{2})(?:\.(?P<f>\d{1,6}))?)?)?"
    r"\s*(?:(?P<ampm>[ap])\.?\s*m\.?)?$",
    re.IGNORECASE,
)


def parse_time(text: object) -> time:
    """Read a wall-clock time: ``'9:00am'``, ``'9am'``, ``'15:30'``, ``'noon'``, ``'evening'``."""
    if isinstance(text, int) and not isinstance(text, bool) and 0 <= text <= 23:
        return time(text, 0)
    if isinstance(text, str):
        word = _squash(text)
        if word in _TIME_WORDS:
            return _TIME_WORDS[word]
        m = _TIME_RE.match(text.strip())
        if m is not None:
            hour = int(m["h"])
            minute = int(m["m"] or 0)
            second = int(m["s"] or 0)
            micro = int((m["f"] or "0").ljust(6, "0"))
            ampm = (m["ampm"] or "").lower()
            ok = minute < 60 and second < 60
            if ampm:
                ok = ok and 1 <= hour <= 12
                hour = hour % 12 + (12 if ampm == "p" else 0)
            else:
                ok = ok and hour <= 23
            if ok:
                return time(hour, minute, second, micro)
    raise Failure(
        f"Cannot read {text!r} as a time. Accepted: {TIME_FORMATS_TEXT}.",
        hint="For example next(Thursday).at('9:00am').",
    )


DATE_FORMATS_TEXT = (
    "ISO 8601 ('2023-10-12', '2023-10-12T09:00', '2023-10-12T09:00:00-07:00', "
    "'2023-12-02T16:00:00-0800', '2023-10-12T16:00:00Z'), "
    "US month/day/year ('10/12/23', '10/12/2023'), "
    "either optionally followed by a time ('10/12/23 9:00am', '2023-10-12 15:30')"
)

_US_RE = re.compile(r"^(?P<mo>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{2}|\d{4})(?:[\sT,]+(?P<t>.+))?$")
_ISO_DATE_TIME_RE = re.compile(r"^(?P<d>\d{4}-\d{2}-\d{2})[\sT,]+(?P<t>.+)$")


def parse_datetime(text: str, zone: tzinfo) -> datetime:
    """Read a date/time text; one without a UTC offset is wall-clock time in ``zone``.

    A text with an offset keeps its offset, except that it takes ``zone`` (e.g. the IANA zone of
    the run) when ``zone`` has the same offset at that instant, so later day arithmetic follows
    the zone's DST rules.
    """
    raw = text
    text = text.strip()
    parsed: datetime | None = None
    if text:
        parsed = _parse_iso(text)
        if parsed is None:
            parsed = _parse_us(text)
        if parsed is None:
            m = _ISO_DATE_TIME_RE.match(text)
            if m is not None:
                day = _parse_iso(m["d"])
                at = _try_time(m["t"])
                if day is not None and at is not None:
                    parsed = datetime.combine(day.date(), at)
    if parsed is None:
        raise Failure(
            f"Cannot read {raw!r} as a date. Accepted formats: {DATE_FORMATS_TEXT}.",
            hint="Or compute the date, e.g. next(Thursday).at('9:00am') or today.plus(3, days).",
        )
    if parsed.tzinfo is None:
        return localize(parsed, zone)
    return adopt_zone(parsed, zone)


def adopt_zone(dt: datetime, zone: tzinfo) -> datetime:
    """``dt`` expressed in ``zone`` if that keeps its UTC offset; otherwise ``dt`` unchanged."""
    if dt.tzinfo is zone:
        return dt
    try:
        converted = dt.astimezone(zone)
    except (OverflowError, ValueError):
        return dt
    return converted if converted.utcoffset() == dt.utcoffset() else dt


def _parse_iso(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _try_time(text: str) -> time | None:
    try:
        return parse_time(text)
    except Failure:
        return None


def _parse_us(text: str) -> datetime | None:
    m = _US_RE.match(text)
    if m is None:
        return None
    year = int(m["y"])
    if len(m["y"]) == 2:  # as strptime's %y: 69-99 -> 1900s, 00-68 -> 2000s
        year += 1900 if year >= 69 else 2000
    try:
        day = date(year, int(m["mo"]), int(m["d"]))
    except ValueError:
        return None
    at = time(0)
    if m["t"]:
        found = _try_time(m["t"])
        if found is None:
            return None
        at = found
    return datetime.combine(day, at)
