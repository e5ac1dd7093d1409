"""The plugin's descriptions, called directly with a RunContext (no runtime needed)."""

from __future__ import annotations

import copy
import importlib.metadata
import pickle
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from dialectic_datetime import clock, plugin
from dialectic_datetime.types import Date

from dialectic import Constant, Failure, FunctionDescription, RunContext
from dialectic.registry.registry import Registry

LA = ZoneInfo("America/Los_Angeles")
PINNED = {"now": "2023-10-10T08:00:00-07:00", "timezone": "America/Los_Angeles"}


def make_ctx(values: dict[str, Any] | None = None) -> RunContext:
    return RunContext(values if values is not None else dict(PINNED), [], None)


def fn(name: str) -> FunctionDescription:
    return next(f for f in plugin.FUNCTIONS if f.name == name)


def const(name: str) -> Constant:
    return next(c for c in plugin.CONSTANTS if c.name == name)


def call(name: str, *args: Any, ctx: RunContext | None = None) -> Any:
    f = fn(name)
    kwargs = dict(zip(f.parameters, args, strict=True))
    return f.implementation(**kwargs, ctx=ctx or make_ctx())


def constant(name: str, ctx: RunContext | None = None) -> Any:
    c = const(name)
    if c.factory is not None:
        return c.factory(ctx or make_ctx())
    return c.value


@pytest.fixture
def frozen_real_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    calls = [0]

    def fake() -> datetime:
        calls[0] += 1
        return datetime(2024, 2, 29, 20, 30, tzinfo=UTC)

    monkeypatch.setattr(clock, "real_clock", fake)
    yield calls


# -- registration -----------------------------------------------------------------------------


def test_registers_cleanly_into_a_registry() -> None:
    reg = Registry()
    reg.load_plugins([("datetime", plugin)])
    assert "date" in reg.types
    assert ("string", "date") in reg.conversions
    assert ("date", "string") in reg.conversions
    for name in ("next", "last", "this", "current", "at", "plus", "minus", "startOf", "endOf"):
        assert name in reg.functions
    expected_constants = {
        "now", "today", "tomorrow", "yesterday",
        "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
        "hour", "hours", "day", "days", "week", "weeks", "month", "months", "year", "years",
        "minute", "minutes", "second", "seconds",
        "morning", "midday", "afternoon", "evening", "night", "endofday", "closeofbusiness",
        "noon", "midnight",
    }  # fmt: skip
    assert set(reg.constants) == expected_constants
    assert reg.signature(reg.functions["plus"]) == (
        "plus(date: date, count: number, unit: string) -> date"
    )
    assert reg.signature(reg.functions["next"]) == "next(component: string) -> date"
    assert reg.signature(reg.functions["date"]) == "date(iso: string) -> date"


def test_entry_point_is_installed() -> None:
    eps = importlib.metadata.entry_points(group="dialectic")
    found = [ep for ep in eps if ep.name == "datetime"]
    assert found and found[0].value == "dialectic_datetime.plugin"
    assert found[0].load() is plugin


def test_descriptions_lists_everything() -> None:
    everything = plugin.descriptions()
    assert plugin.DATE_TYPE in everything
    assert len(everything) == 1 + len(plugin.CONVERSIONS) + len(plugin.CONSTANTS) + len(
        plugin.FUNCTIONS
    )


# -- the clock --------------------------------------------------------------------------------


def test_pinned_clock_and_zone() -> None:
    now, zone = clock.clock(make_ctx())
    assert zone == LA
    assert now.isoformat() == "2023-10-10T08:00:00-07:00"
    assert now.tzinfo == LA


def test_zone_defaults_to_the_offset_of_now() -> None:
    now, zone = clock.clock(make_ctx({"now": "2023-10-10T08:00:00-07:00"}))
    assert now.isoformat() == "2023-10-10T08:00:00-07:00"
    assert zone.utcoffset(None) == timedelta(hours=-7)
    assert constant("tomorrow", make_ctx({"now": "2023-10-10T08:00:00-07:00"})).iso == (
        "2023-10-11T00:00:00-07:00"
    )


def test_now_in_another_zone_is_converted_to_the_run_zone() -> None:
    ctx = make_ctx({"now": "2023-10-10T15:00:00Z", "timezone": "America/Los_Angeles"})
    assert constant("now", ctx).iso == "2023-10-10T08:00:00-07:00"


def test_now_as_datetime_or_date_or_naive() -> None:
    aware = datetime(2023, 10, 10, 8, 0, tzinfo=LA)
    assert constant("now", make_ctx({"now": aware})).iso == "2023-10-10T08:00:00-07:00"
    assert constant("now", make_ctx({"now": Date(aware)})).iso == "2023-10-10T08:00:00-07:00"
    naive_ctx = make_ctx({"now": "2023-10-10T08:00:00", "timezone": "Europe/Paris"})
    assert constant("now", naive_ctx).iso == "2023-10-10T08:00:00+02:00"
    assert constant("now", make_ctx({"now": datetime(2023, 10, 10, 8)})).iso == (
        "2023-10-10T08:00:00+00:00"
    )


def test_real_clock_is_read_once_per_run(frozen_real_clock: list[int]) -> None:
    ctx = make_ctx({"timezone": "America/New_York"})
    assert constant("now", ctx).iso == "2024-02-29T15:30:00-05:00"
    assert constant("today", ctx).iso == "2024-02-29T00:00:00-05:00"
    assert call("next", "day", ctx=ctx).iso == "2024-03-01T00:00:00-05:00"
    assert frozen_real_clock[0] == 1
    assert constant("now", make_ctx({})).iso == "2024-02-29T20:30:00+00:00"  # default UTC


@pytest.mark.parametrize("bad", ["Mars/Olympus", "", "../etc/passwd", 42])
def test_bad_timezone_is_a_clear_failure(bad: object) -> None:
    with pytest.raises(Failure) as info:
        constant("now", make_ctx({"now": "2023-10-10T08:00:00-07:00", "timezone": bad}))
    assert "not a known IANA time zone name" in info.value.message
    assert info.value.hint is not None and "America/Los_Angeles" in info.value.hint


@pytest.mark.parametrize("bad", ["yesterday-ish", 12345])
def test_bad_now_is_a_clear_failure(bad: object) -> None:
    with pytest.raises(Failure) as info:
        constant("now", make_ctx({"now": bad}))
    assert "`now` context value" in info.value.message


def test_timezone_may_be_a_tzinfo_or_utc_word() -> None:
    assert clock.zone_from_name(LA) is LA
    assert clock.zone_from_name("utc") is UTC


# -- constants --------------------------------------------------------------------------------


def test_day_constants() -> None:
    assert constant("now").iso == "2023-10-10T08:00:00-07:00"
    assert constant("today").iso == "2023-10-10T00:00:00-07:00"
    assert constant("tomorrow").iso == "2023-10-11T00:00:00-07:00"
    assert constant("yesterday").iso == "2023-10-09T00:00:00-07:00"


def test_today_on_a_dst_day_is_local_midnight() -> None:
    ctx = make_ctx({"now": "2023-03-12T12:00:00-07:00", "timezone": "America/Los_Angeles"})
    assert constant("today", ctx).iso == "2023-03-12T00:00:00-08:00"
    assert constant("tomorrow", ctx).iso == "2023-03-13T00:00:00-07:00"


def test_string_constants() -> None:
    assert constant("Thursday") == "Thursday"
    assert constant("days") == "days"
    assert constant("closeofbusiness") == "closeofbusiness"
    assert const("today").returns == "date"
    assert const("week").returns == "string"


# -- functions --------------------------------------------------------------------------------


def test_seed_examples() -> None:
    assert call("at", call("next", "Thursday"), "9:00am").iso == "2023-10-12T09:00:00-07:00"
    d = call("plus", call("last", "Tuesday"), 23, "day")
    assert call("at", d, "9:00am").iso == "2023-10-26T09:00:00-07:00"
    d = call("plus", call("last", "Friday"), 23, "days")
    cob = plugin.DATE_PROPERTIES["closeofbusiness"](d)
    assert isinstance(cob, Date) and cob.iso == "2023-10-29T17:00:00-07:00"


def test_this_and_current_agree() -> None:
    for component in ("Sunday", "Monday", "week", "month", "evening"):
        assert call("this", component) == call("current", component)
    assert call("this", "week").iso == "2023-10-09T00:00:00-07:00"


def test_minus_start_end_and_string_receivers() -> None:
    departs = "2023-12-02T16:00:00-0800"
    assert call("minus", departs, 1, "hour").iso == "2023-12-02T15:00:00-08:00"
    assert call("startOf", departs, "month").iso == "2023-12-01T00:00:00-08:00"
    assert call("endOf", departs, "week").iso == "2023-12-03T23:59:59-08:00"
    assert call("plus", "10/10/23", "2", "weeks").iso == "2023-10-24T00:00:00-07:00"


def test_at_accepts_another_date_as_the_time() -> None:
    nine = call("at", constant("today"), "9am")
    assert call("at", constant("tomorrow"), nine).iso == "2023-10-11T09:00:00-07:00"


@pytest.mark.parametrize(
    ("name", "args", "needle"),
    [
        ("plus", (1, "fortnight"), "is not a date unit"),
        ("minus", ("many", "days"), "must be a number"),
        ("startOf", ("quarter",), "Valid units: second, minute, hour, day, week, month, year"),
        ("at", ("half past nine",), "Cannot read 'half past nine' as a time"),
    ],
)
def test_bad_arguments_are_failures(name: str, args: tuple[Any, ...], needle: str) -> None:
    with pytest.raises(Failure) as info:
        call(name, constant("today"), *args)
    assert needle in info.value.message


def test_bad_receiver_is_a_failure() -> None:
    with pytest.raises(Failure, match="Cannot read 'soon' as a date"):
        call("plus", "soon", 1, "day")
    with pytest.raises(Failure, match="Expected a date"):
        call("plus", [1], 1, "day")
    with pytest.raises(Failure, match="not a weekday, a unit or a time of day"):
        call("next", "Thursdays")


# -- the date type ----------------------------------------------------------------------------


def test_date_type_round_trip_and_format() -> None:
    td = plugin.DATE_TYPE
    d = call("at", call("next", "Thursday"), "9:00am")
    assert td.serialize is not None and td.format is not None
    assert td.serialize(d) == "2023-10-12T09:00:00-07:00"
    assert td.format(d) == "2023-10-12T09:00:00-07:00"
    # the serialized program {"date": "..."} evaluates back to an equal value, in any run zone
    again = td.implementation(iso=td.serialize(d), ctx=make_ctx())
    assert again == d and hash(again) == hash(d)
    assert again.datetime.tzinfo == LA
    utc_run = td.implementation(iso=td.serialize(d), ctx=make_ctx({"timezone": "UTC"}))
    assert utc_run == d


def test_date_equality_needs_same_instant_and_offset() -> None:
    a = Date(datetime(2023, 10, 12, 9, tzinfo=LA))
    b = Date(datetime(2023, 10, 12, 9, tzinfo=timezone(timedelta(hours=-7))))
    c = Date(datetime(2023, 10, 12, 16, tzinfo=UTC))
    assert a == b
    assert a != c  # same instant, different offset: different text
    assert not a < c and not c < a
    assert a < Date(datetime(2023, 10, 12, 10, tzinfo=LA))
    new_year = Date(datetime(2024, 1, 1, tzinfo=UTC))
    assert sorted([new_year, a]) == [a, new_year]


def test_date_is_immutable_and_copyable() -> None:
    d = Date(datetime(2023, 10, 12, 9, tzinfo=LA))
    with pytest.raises(AttributeError):
        d._dt = datetime(2000, 1, 1, tzinfo=UTC)
    with pytest.raises(AttributeError):
        setattr(d, "extra", 1)  # noqa: B010
    assert copy.deepcopy(d) == d
    assert pickle.loads(pickle.dumps(d)) == d
    with pytest.raises(ValueError):
        Date(datetime(2023, 10, 12))
    assert repr(d) == "Date('2023-10-12T09:00:00-07:00')"
    assert str(d) == d.iso


def test_date_properties() -> None:
    d = Date(datetime(2023, 10, 12, 9, 5, tzinfo=LA))
    props = plugin.DATE_PROPERTIES
    expected_times = {
        "morning": "09:00", "midday": "12:00", "afternoon": "15:00", "evening": "18:00",
        "night": "21:00", "closeofbusiness": "17:00", "endofday": "23:59:59",
    }  # fmt: skip
    for name, hhmm in expected_times.items():
        value = props[name](d)
        assert isinstance(value, Date)
        assert value.time_text == hhmm
        assert value.date_text == "2023-10-12"
    assert props["year"](d) == 2023
    assert props["month"](d) == 10
    assert props["day"](d) == 12
    assert props["hour"](d) == 9
    assert props["minute"](d) == 5
    assert props["weekday"](d) == "Thursday"
    assert props["date"](d) == "2023-10-12"
    assert props["time"](d) == "09:05"
    assert props["timezone"](d) == "America/Los_Angeles"
    assert d.iso == "2023-10-12T09:05:00-07:00"


def test_conversions() -> None:
    to_date, to_string = plugin.CONVERSIONS
    assert to_date.pass_context
    d = to_date.converter("10/10/23", ctx=make_ctx())
    assert isinstance(d, Date) and d.iso == "2023-10-10T00:00:00-07:00"
    assert to_string.converter(d) == "2023-10-10T00:00:00-07:00"
    with pytest.raises(Failure) as info:
        to_date.converter("not a date", ctx=make_ctx())
    assert "Accepted formats" in info.value.message


def test_conversion_through_the_core_type_system() -> None:
    from dialectic.values.coercion import TypeSystem

    reg = Registry()
    reg.load_plugins([("datetime", plugin)])
    ts = TypeSystem(reg)
    d = ts.coerce("2023-12-02T16:00:00-0800", "date", make_ctx())
    assert isinstance(d, Date) and d.iso == "2023-12-02T16:00:00-08:00"
    assert ts.coerce(d, "string", make_ctx()) == "2023-12-02T16:00:00-08:00"
