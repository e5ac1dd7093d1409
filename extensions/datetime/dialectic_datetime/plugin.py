"""The dialectic plugin: the ``date`` type, its conversions, date constants and date functions.

Loaded through the ``dialectic`` entry point ``datetime = "dialectic_datetime.plugin"``, or
explicitly: ``Runtime(plugins=(dialectic_datetime.plugin,), load_entry_points=False)``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime, time
from typing import ParamSpec, TypeVar

from dialectic import (
    Constant,
    Failure,
    FunctionDescription,
    RunContext,
    TypeConversion,
    TypeDescription,
    hookimpl,
)
from dialectic.registry.plugins import Register

from . import calendar as cal
from .clock import run_now, run_zone
from .types import Date

# -- helpers ------------------------------------------------------------------------------------

_P = ParamSpec("_P")
_R = TypeVar("_R")

_OUT_OF_RANGE_HINT = (
    "Dates run from year 1 to year 9999: use a smaller count (for example plus(3, weeks)) or a "
    "date further from the ends of that range."
)


def calendar_safe(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """``fn`` with the calendar's arithmetic errors (a date past year 9999, a count such as
    1e308 or '9' * 400, NaN) turned into a :class:`Failure` a model can act on, instead of an
    ``OverflowError`` reported as a crash of the function (or of a conversion)."""

    @functools.wraps(fn)
    def safe(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return fn(*args, **kwargs)
        except OverflowError:
            raise Failure(
                "The date is out of range: the result would be before year 1 or after year "
                "9999 (or the count is too large).",
                hint=_OUT_OF_RANGE_HINT,
            ) from None
        except ValueError as exc:
            text = str(exc)
            if "out of range" in text or "NaN" in text or "must be in" in text:
                raise Failure(
                    "The date is out of range: the result would not be a valid date "
                    "(before year 1, after year 9999, or a count that is not a finite number).",
                    hint=_OUT_OF_RANGE_HINT,
                ) from None
            raise

    return safe


@calendar_safe
def to_date(value: object, ctx: RunContext | None = None) -> Date:
    """A ``Date`` from a Date, an aware (or naive: run zone) datetime, or date text."""
    if isinstance(value, Date):
        return value
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            return Date(cal.localize(value, run_zone(ctx)))
        return Date(value)
    if isinstance(value, str):
        return Date(cal.parse_datetime(value, run_zone(ctx)))
    raise Failure(
        f"Expected a date, got {type(value).__name__} {value!r}.",
        hint="Use a date such as today, next(Thursday) or '2023-10-12T09:00:00-07:00'.",
    )


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        if isinstance(value, str):
            try:
                return float(value) if "." in value else int(value)
            except ValueError:
                pass
        raise Failure(
            f"The {what} must be a number, got {value!r}.",
            hint="For example plus(3, days).",
        )
    return value


# -- the date type ------------------------------------------------------------------------------


def make_date(iso: str, ctx: RunContext | None = None) -> Date:
    """The ``date`` constructor: ``date('2023-10-12T09:00:00-07:00')``."""
    return to_date(iso, ctx)


def _at_time(t: time) -> Callable[[Date], Date]:
    return calendar_safe(lambda d: Date(cal.with_time(d.datetime, t)))


DATE_PROPERTIES: dict[str, Callable[[Date], object]] = {
    **{name: _at_time(t) for name, t in cal.DAY_PARTS.items()},
    "year": lambda d: d.year,
    "month": lambda d: d.month,
    "day": lambda d: d.day,
    "hour": lambda d: d.hour,
    "minute": lambda d: d.minute,
    "weekday": lambda d: d.weekday,
    "date": lambda d: d.date_text,
    "time": lambda d: d.time_text,
    "timezone": lambda d: d.timezone,
}

DATE_TYPE = TypeDescription(
    "date",
    "A point in time with a time zone, e.g. next(Thursday).at('9:00am'). Chain at(time), "
    "plus(n, unit), minus(n, unit), startOf(unit), endOf(unit); read .morning (09:00), "
    ".midday (12:00), .afternoon (15:00), .evening (18:00), .night (21:00), "
    ".closeofbusiness (17:00), .endofday (23:59:59) and .year, .month, .day, .hour, .minute, "
    ".weekday, .date, .time, .timezone, .iso. Shown as ISO 8601 text.",
    make_date,
    {"iso": "string"},
    Date,
    properties=DATE_PROPERTIES,
    serialize=lambda d: d.iso,
    format=lambda d: d.iso,
    pass_context=True,
    parameter_descriptions={
        "iso": "ISO 8601 text such as '2023-10-12T09:00:00-07:00' (or '2023-10-12', '10/12/23'); "
        "text without a UTC offset is in the run's time zone.",
    },
)


@calendar_safe
def _string_to_date(value: str, ctx: RunContext | None = None) -> Date:
    return Date(cal.parse_datetime(value, run_zone(ctx)))


CONVERSIONS = (
    TypeConversion(
        "string",
        "date",
        "Read date text: ISO 8601 ('2023-10-12', '2023-10-12T09:00:00-07:00', "
        "'2023-12-02T16:00:00-0800') or US month/day/year ('10/12/23'), optionally followed by a "
        "time ('10/12/23 9:00am'); text without an offset is in the run's time zone.",
        _string_to_date,
        pass_context=True,
    ),
    TypeConversion(
        "date",
        "string",
        "ISO 8601 text with the UTC offset, e.g. '2023-10-12T09:00:00-07:00'.",
        lambda d: d.iso,
    ),
)

# -- constants ----------------------------------------------------------------------------------


def _now(ctx: RunContext) -> Date:
    return Date(run_now(ctx))


def _day_from_today(days: int) -> Callable[[RunContext], Date]:
    def factory(ctx: RunContext) -> Date:
        return Date(cal.add(cal.start_of_day(run_now(ctx)), days, "day"))

    return factory


def _constants() -> list[Constant]:
    out = [
        Constant(
            "now",
            "The current time of the run (context `now` pins it; zone from context `timezone`).",
            factory=_now,
            returns="date",
        ),
        Constant(
            "today",
            "Today at 00:00 in the run's time zone.",
            factory=_day_from_today(0),
            returns="date",
        ),
        Constant(
            "tomorrow",
            "Tomorrow at 00:00 in the run's time zone.",
            factory=_day_from_today(1),
            returns="date",
        ),
        Constant(
            "yesterday",
            "Yesterday at 00:00 in the run's time zone.",
            factory=_day_from_today(-1),
            returns="date",
        ),
    ]
    for name in ("Sunday", *cal.WEEKDAYS[:6]):
        out.append(Constant(name, "A weekday, for next/last/this.", value=name, returns="string"))
    for unit, spellings in cal.UNITS.items():
        for spelling in spellings:
            text = (
                "A unit, for plus/minus/startOf/endOf/next/last/this."
                if spelling == unit
                else f"The same unit as `{unit}`."
            )
            out.append(Constant(spelling, text, value=spelling, returns="string"))
    for part, t in cal.DAY_PARTS.items():
        text = f"A time of day ({t.isoformat('minutes' if not t.second else 'seconds')}), "
        out.append(Constant(part, text + "for next/last/this/at.", value=part, returns="string"))
    for word, clock_text in (("noon", "12:00"), ("midnight", "00:00")):
        out.append(Constant(word, f"The time {clock_text}, for at.", value=word, returns="string"))
    return out


CONSTANTS = tuple(_constants())

# -- functions ----------------------------------------------------------------------------------


def _relative(
    name: str, compute: Callable[[datetime, object], datetime], doc: str
) -> FunctionDescription:
    @calendar_safe
    def implementation(component: object, ctx: RunContext | None = None) -> Date:
        return Date(compute(run_now(ctx), component))

    implementation.__name__ = f"date_{name}"
    return FunctionDescription(
        name,
        doc,
        implementation,
        {"component": "string"},
        "date",
        pass_context=True,
        parameter_descriptions={
            "component": "A weekday (Monday..Sunday), a unit (hour, day, week, month, year) or a "
            "time of day (morning, midday, afternoon, evening, night, closeofbusiness, endofday).",
        },
        examples=(f"{name}(Thursday).at('9:00am')", f"{name}(week)"),
    )


@calendar_safe
def _at(date: object, time: object, ctx: RunContext | None = None) -> Date:
    d = to_date(date, ctx)
    if isinstance(time, Date | datetime):
        other = time.datetime if isinstance(time, Date) else time
        t = other.time()
    else:
        t = cal.parse_time(time)
    return Date(cal.with_time(d.datetime, t))


@calendar_safe
def _plus(date: object, count: object, unit: object, ctx: RunContext | None = None) -> Date:
    d = to_date(date, ctx)
    return Date(cal.add(d.datetime, _number(count, "count"), cal.normalize_unit(unit)))


@calendar_safe
def _minus(date: object, count: object, unit: object, ctx: RunContext | None = None) -> Date:
    d = to_date(date, ctx)
    return Date(cal.add(d.datetime, -_number(count, "count"), cal.normalize_unit(unit)))


@calendar_safe
def _start_of(date: object, unit: object, ctx: RunContext | None = None) -> Date:
    return Date(cal.start_of(to_date(date, ctx).datetime, cal.normalize_unit(unit)))


@calendar_safe
def _end_of(date: object, unit: object, ctx: RunContext | None = None) -> Date:
    return Date(cal.end_of(to_date(date, ctx).datetime, cal.normalize_unit(unit)))


_DATE_PARAM = "The date to start from (a date, or date text such as '2023-10-12T09:00:00-07:00')."
_UNIT_PARAM = "A unit: second, minute, hour, day, week, month or year (singular or plural)."

FUNCTIONS = (
    _relative(
        "next",
        cal.next_of,
        "next(X): a weekday -> the first such day strictly after today, at 00:00; a unit -> the "
        "start of the next one (next(week) = next Monday 00:00, next(day) = tomorrow 00:00, "
        "next(month) = the 1st of next month); a time of day -> the next such time after now.",
    ),
    _relative(
        "last",
        cal.last_of,
        "last(X): a weekday -> the most recent such day strictly before today, at 00:00; a unit "
        "-> the start of the previous one (last(week) = Monday 00:00 of last week); a time of "
        "day -> the latest such time before now.",
    ),
    _relative(
        "this",
        cal.this_of,
        "this(X): a weekday -> that day of the current Monday-to-Sunday week, at 00:00; a unit "
        "-> the start of the current one (this(month) = the 1st of this month); a time of day "
        "-> today at that time.",
    ),
    _relative(
        "current",
        cal.this_of,
        "current(X): the same as this(X), e.g. current(week) = Monday 00:00 of this week.",
    ),
    FunctionDescription(
        "at",
        "date.at(time): the same day at a wall-clock time: '9:00am', '9am', '15:30', 'noon', "
        "'midnight' or a time of day such as 'evening'.",
        _at,
        {"date": "date", "time": "any"},
        "date",
        pass_context=True,
        parameter_descriptions={
            "date": _DATE_PARAM,
            "time": f"The time: {cal.TIME_FORMATS_TEXT}.",
        },
        examples=("next(Thursday).at('9:00am')", "tomorrow.at('15:30')"),
    ),
    FunctionDescription(
        "plus",
        "date.plus(count, unit): later by count units. day/week/month/year keep the wall-clock "
        "time across DST changes; hour/minute/second are absolute time.",
        _plus,
        {"date": "date", "count": "number", "unit": "string"},
        "date",
        pass_context=True,
        parameter_descriptions={
            "date": _DATE_PARAM,
            "count": "How many units (may be negative).",
            "unit": _UNIT_PARAM,
        },
        examples=("last(Tuesday).plus(23, days).at('9:00am')",),
    ),
    FunctionDescription(
        "minus",
        "date.minus(count, unit): earlier by count units (the same rules as plus).",
        _minus,
        {"date": "date", "count": "number", "unit": "string"},
        "date",
        pass_context=True,
        parameter_descriptions={
            "date": _DATE_PARAM,
            "count": "How many units (may be negative).",
            "unit": _UNIT_PARAM,
        },
        examples=("flight.departs.minus(1, hour)",),
    ),
    FunctionDescription(
        "startOf",
        "date.startOf(unit): the first instant of the unit containing the date (weeks start on "
        "Monday; startOf(day) = 00:00).",
        _start_of,
        {"date": "date", "unit": "string"},
        "date",
        pass_context=True,
        parameter_descriptions={"date": _DATE_PARAM, "unit": _UNIT_PARAM},
        examples=("today.startOf(week)",),
    ),
    FunctionDescription(
        "endOf",
        "date.endOf(unit): the last whole second of the unit containing the date (endOf(day) = "
        "23:59:59; weeks end on Sunday).",
        _end_of,
        {"date": "date", "unit": "string"},
        "date",
        pass_context=True,
        parameter_descriptions={"date": _DATE_PARAM, "unit": _UNIT_PARAM},
        examples=("today.endOf(month)",),
    ),
)

# -- hooks --------------------------------------------------------------------------------------


@hookimpl
def dialectic_register_types(register: Register) -> None:
    register(DATE_TYPE)


@hookimpl
def dialectic_register_conversions(register: Register) -> None:
    register(*CONVERSIONS)


@hookimpl
def dialectic_register_constants(register: Register) -> None:
    register(*CONSTANTS)


@hookimpl
def dialectic_register_functions(register: Register) -> None:
    register(*FUNCTIONS)


def descriptions() -> list[object]:
    """Everything this plugin registers, for ``Runtime.register(*descriptions())``."""
    return [DATE_TYPE, *CONVERSIONS, *CONSTANTS, *FUNCTIONS]


__all__ = [
    "CONSTANTS",
    "CONVERSIONS",
    "DATE_TYPE",
    "FUNCTIONS",
    "Date",
    "descriptions",
    "dialectic_register_constants",
    "dialectic_register_conversions",
    "dialectic_register_functions",
    "dialectic_register_types",
    "to_date",
]
