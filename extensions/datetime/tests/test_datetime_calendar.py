"""Pure calendar logic: pinned datetimes, no clock, no runtime."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from dialectic_datetime import calendar as cal

from dialectic.outcome.errors import Failure

LA = ZoneInfo("America/Los_Angeles")
# Tuesday 2023-10-10 08:00 PDT
NOW = datetime(2023, 10, 10, 8, 0, tzinfo=LA)


def iso(dt: datetime) -> str:
    return dt.isoformat()


# -- vocabulary -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("day", "day"),
        ("Days", "day"),
        ("HOURS", "hour"),
        (" week ", "week"),
        ("months", "month"),
        ("Year", "year"),
        ("minutes", "minute"),
        ("second", "second"),
    ],
)
def test_normalize_unit_accepts_singular_plural_any_case(text: str, unit: str) -> None:
    assert cal.normalize_unit(text) == unit


@pytest.mark.parametrize("bad", ["fortnight", "", "d", 3, None])
def test_bad_unit_lists_valid_units(bad: object) -> None:
    with pytest.raises(Failure) as info:
        cal.normalize_unit(bad)
    msg = info.value.message
    assert "is not a date unit" in msg
    for unit in ("hour", "day", "week", "month", "year"):
        assert unit in msg


def test_weekday_and_day_part_names() -> None:
    assert cal.weekday_index("Thursday") == 3
    assert cal.weekday_index("thu") == 3
    assert cal.weekday_index("SUNDAY") == 6
    assert cal.weekday_index("week") is None
    assert cal.day_part("closeOfBusiness") == time(17, 0)
    assert cal.day_part("close of business") == time(17, 0)
    assert cal.day_part("end_of_day") == time(23, 59, 59)
    assert cal.day_part("Thursday") is None


# -- next / last / this -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("component", "nxt", "last", "this"),
    [
        # NOW is a Tuesday
        (
            "Thursday",
            "2023-10-12T00:00:00-07:00",
            "2023-10-05T00:00:00-07:00",
            "2023-10-12T00:00:00-07:00",
        ),
        (
            "Tuesday",
            "2023-10-17T00:00:00-07:00",
            "2023-10-03T00:00:00-07:00",
            "2023-10-10T00:00:00-07:00",
        ),
        (
            "Monday",
            "2023-10-16T00:00:00-07:00",
            "2023-10-09T00:00:00-07:00",
            "2023-10-09T00:00:00-07:00",
        ),
        (
            "Sunday",
            "2023-10-15T00:00:00-07:00",
            "2023-10-08T00:00:00-07:00",
            "2023-10-15T00:00:00-07:00",
        ),
        (
            "week",
            "2023-10-16T00:00:00-07:00",
            "2023-10-02T00:00:00-07:00",
            "2023-10-09T00:00:00-07:00",
        ),
        (
            "day",
            "2023-10-11T00:00:00-07:00",
            "2023-10-09T00:00:00-07:00",
            "2023-10-10T00:00:00-07:00",
        ),
        (
            "month",
            "2023-11-01T00:00:00-07:00",
            "2023-09-01T00:00:00-07:00",
            "2023-10-01T00:00:00-07:00",
        ),
        (
            "years",
            "2024-01-01T00:00:00-08:00",
            "2022-01-01T00:00:00-08:00",
            "2023-01-01T00:00:00-08:00",
        ),
        (
            "hour",
            "2023-10-10T09:00:00-07:00",
            "2023-10-10T07:00:00-07:00",
            "2023-10-10T08:00:00-07:00",
        ),
        (
            "morning",
            "2023-10-10T09:00:00-07:00",
            "2023-10-09T09:00:00-07:00",
            "2023-10-10T09:00:00-07:00",
        ),
        (
            "evening",
            "2023-10-10T18:00:00-07:00",
            "2023-10-09T18:00:00-07:00",
            "2023-10-10T18:00:00-07:00",
        ),
    ],
)
def test_next_last_this(component: str, nxt: str, last: str, this: str) -> None:
    assert iso(cal.next_of(NOW, component)) == nxt
    assert iso(cal.last_of(NOW, component)) == last
    assert iso(cal.this_of(NOW, component)) == this


def test_next_weekday_is_strictly_after_today_even_late_in_the_day() -> None:
    late_thursday = datetime(2023, 10, 12, 23, 0, tzinfo=LA)
    assert iso(cal.next_of(late_thursday, "Thursday")) == "2023-10-19T00:00:00-07:00"
    assert iso(cal.last_of(late_thursday, "Thursday")) == "2023-10-05T00:00:00-07:00"


def test_next_time_of_day_after_it_passed_is_tomorrow() -> None:
    assert iso(cal.next_of(NOW, "morning")) == "2023-10-10T09:00:00-07:00"
    after = datetime(2023, 10, 10, 9, 0, tzinfo=LA)
    assert iso(cal.next_of(after, "morning")) == "2023-10-11T09:00:00-07:00"
    assert iso(cal.last_of(after, "morning")) == "2023-10-09T09:00:00-07:00"


def test_bad_component_lists_what_is_accepted() -> None:
    with pytest.raises(Failure) as info:
        cal.next_of(NOW, "Thursdai")
    assert "Thursday" in info.value.message
    assert "week" in info.value.message
    assert "morning" in info.value.message


# -- arithmetic -------------------------------------------------------------------------------


def test_seed_examples_by_hand() -> None:
    # next(Thursday).at('9:00am')
    assert iso(cal.with_time(cal.next_of(NOW, "Thursday"), cal.parse_time("9:00am"))) == (
        "2023-10-12T09:00:00-07:00"
    )
    # last(Tuesday).plus(23, day).at('9:00am')
    d = cal.add(cal.last_of(NOW, "Tuesday"), 23, "day")
    assert iso(cal.with_time(d, cal.parse_time("9:00am"))) == "2023-10-26T09:00:00-07:00"
    # last(Friday).plus(23, days).closeofbusiness
    d = cal.add(cal.last_of(NOW, "Friday"), 23, "days")
    assert iso(cal.with_time(d, cal.DAY_PARTS["closeofbusiness"])) == "2023-10-29T17:00:00-07:00"


def test_day_arithmetic_keeps_wall_clock_across_dst_start() -> None:
    before = datetime(2023, 3, 11, 9, 0, tzinfo=LA)  # PST, DST starts 2023-03-12 02:00
    assert iso(cal.add(before, 1, "day")) == "2023-03-12T09:00:00-07:00"
    assert iso(cal.add(before, 24, "hours")) == "2023-03-12T10:00:00-07:00"
    assert iso(cal.add(cal.add(before, 1, "day"), -1, "day")) == iso(before)
    assert cal.add(before, 1, "day").astimezone(UTC) - before.astimezone(UTC) == timedelta(hours=23)


def test_day_arithmetic_keeps_wall_clock_across_dst_end() -> None:
    before = datetime(2023, 11, 4, 9, 0, tzinfo=LA)  # PDT, DST ends 2023-11-05 02:00
    assert iso(cal.add(before, 1, "day")) == "2023-11-05T09:00:00-08:00"
    assert iso(cal.add(before, 24, "hour")) == "2023-11-05T08:00:00-08:00"
    assert iso(cal.add(before, 1, "week")) == "2023-11-11T09:00:00-08:00"
    assert cal.add(before, 1, "day").astimezone(UTC) - before.astimezone(UTC) == timedelta(hours=25)


def test_hour_arithmetic_is_absolute_through_the_repeated_hour() -> None:
    first = datetime(2023, 11, 5, 1, 30, tzinfo=LA)  # 01:30 PDT (first occurrence)
    assert iso(first) == "2023-11-05T01:30:00-07:00"
    assert iso(cal.add(first, 1, "hour")) == "2023-11-05T01:30:00-08:00"
    assert iso(cal.add(first, 2, "hours")) == "2023-11-05T02:30:00-08:00"


def test_wall_clock_in_dst_gap_moves_forward_and_overlap_takes_first() -> None:
    gap_day = datetime(2023, 3, 12, 0, 0, tzinfo=LA)
    assert iso(cal.with_time(gap_day, time(2, 30))) == "2023-03-12T03:30:00-07:00"
    overlap_day = datetime(2023, 11, 5, 0, 0, tzinfo=LA)
    assert iso(cal.with_time(overlap_day, time(1, 30))) == "2023-11-05T01:30:00-07:00"


def test_month_and_year_arithmetic_clamp_to_month_end() -> None:
    jan31 = datetime(2024, 1, 31, 10, 0, tzinfo=LA)
    assert iso(cal.add(jan31, 1, "month")) == "2024-02-29T10:00:00-08:00"
    assert iso(cal.add(jan31, -2, "months")) == "2023-11-30T10:00:00-08:00"
    leap = datetime(2024, 2, 29, 0, 0, tzinfo=LA)
    assert iso(cal.add(leap, 1, "year")) == "2025-02-28T00:00:00-08:00"
    # across DST by months: wall clock kept
    assert iso(cal.add(jan31, 6, "months")) == "2024-07-31T10:00:00-07:00"


def test_fractional_counts() -> None:
    start = datetime(2023, 11, 4, 9, 0, tzinfo=LA)
    assert iso(cal.add(start, 1.5, "days")) == "2023-11-05T21:00:00-08:00"
    assert iso(cal.add(start, 0.5, "hour")) == "2023-11-04T09:30:00-07:00"
    with pytest.raises(Failure, match="fractional"):
        cal.add(start, 1.5, "month")
    assert iso(cal.add(start, 2.0, "month")) == "2024-01-04T09:00:00-08:00"


def test_arithmetic_out_of_range_is_a_failure() -> None:
    with pytest.raises(Failure, match="out of range"):
        cal.add(NOW, 100000, "years")
    with pytest.raises(Failure, match="out of range"):
        cal.add(NOW, 1e12, "days")
    with pytest.raises(Failure, match="finite number"):
        cal.add(NOW, float("nan"), "days")


def test_fixed_offset_arithmetic() -> None:
    dt = datetime(2023, 3, 11, 9, 0, tzinfo=timezone(timedelta(hours=-8)))
    assert iso(cal.add(dt, 1, "day")) == "2023-03-12T09:00:00-08:00"


# -- startOf / endOf --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("unit", "start", "end"),
    [
        ("minute", "2023-10-12T15:47:00-07:00", "2023-10-12T15:47:59-07:00"),
        ("hour", "2023-10-12T15:00:00-07:00", "2023-10-12T15:59:59-07:00"),
        ("day", "2023-10-12T00:00:00-07:00", "2023-10-12T23:59:59-07:00"),
        ("week", "2023-10-09T00:00:00-07:00", "2023-10-15T23:59:59-07:00"),
        ("month", "2023-10-01T00:00:00-07:00", "2023-10-31T23:59:59-07:00"),
        ("year", "2023-01-01T00:00:00-08:00", "2023-12-31T23:59:59-08:00"),
    ],
)
def test_start_and_end_of(unit: str, start: str, end: str) -> None:
    dt = datetime(2023, 10, 12, 15, 47, 12, 345, tzinfo=LA)  # a Thursday
    assert iso(cal.start_of(dt, unit)) == start
    assert iso(cal.end_of(dt, unit)) == end


def test_start_and_end_of_on_dst_days() -> None:
    spring = datetime(2023, 3, 12, 12, 0, tzinfo=LA)
    assert iso(cal.start_of(spring, "day")) == "2023-03-12T00:00:00-08:00"
    assert iso(cal.end_of(spring, "day")) == "2023-03-12T23:59:59-07:00"
    fall = datetime(2023, 11, 5, 12, 0, tzinfo=LA)
    assert iso(cal.start_of(fall, "day")) == "2023-11-05T00:00:00-07:00"
    assert iso(cal.end_of(fall, "week")) == "2023-11-05T23:59:59-08:00"
    second_130 = datetime(2023, 11, 5, 1, 30, fold=1, tzinfo=LA)  # 01:30 PST
    assert iso(cal.start_of(second_130, "hour")) == "2023-11-05T01:00:00-08:00"
    assert iso(cal.end_of(second_130, "hour")) == "2023-11-05T01:59:59-08:00"


def test_half_hour_offset_zone_start_of_hour() -> None:
    kolkata = datetime(2023, 10, 12, 15, 47, tzinfo=ZoneInfo("Asia/Kolkata"))
    assert iso(cal.start_of(kolkata, "hour")) == "2023-10-12T15:00:00+05:30"


# -- parsing ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("9:00am", time(9)),
        ("9am", time(9)),
        ("9 AM", time(9)),
        ("9:30 p.m.", time(21, 30)),
        ("12am", time(0)),
        ("12:15pm", time(12, 15)),
        ("15:30", time(15, 30)),
        ("15:30:45", time(15, 30, 45)),
        ("0:05", time(0, 5)),
        ("noon", time(12)),
        ("Midnight", time(0)),
        ("evening", time(18)),
        ("close of business", time(17)),
        (9, time(9)),
    ],
)
def test_parse_time(text: object, expected: time) -> None:
    assert cal.parse_time(text) == expected


@pytest.mark.parametrize("bad", ["25:00", "13pm", "0am", "9:60", "soon", "", "9:00 xm", True])
def test_parse_time_rejects(bad: object) -> None:
    with pytest.raises(Failure) as info:
        cal.parse_time(bad)
    assert "Cannot read" in info.value.message
    assert "9:00am" in info.value.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2023-10-12T09:00:00-07:00", "2023-10-12T09:00:00-07:00"),
        ("2023-12-02T16:00:00-0800", "2023-12-02T16:00:00-08:00"),
        ("2023-12-02", "2023-12-02T00:00:00-08:00"),
        ("2023-12-02T16:00", "2023-12-02T16:00:00-08:00"),
        ("2023-10-12 15:30", "2023-10-12T15:30:00-07:00"),
        ("2023-10-12 3:30pm", "2023-10-12T15:30:00-07:00"),
        ("10/10/23", "2023-10-10T00:00:00-07:00"),
        ("10/10/2023", "2023-10-10T00:00:00-07:00"),
        ("1/2/99", "1999-01-02T00:00:00-08:00"),
        ("10/10/23 9:00am", "2023-10-10T09:00:00-07:00"),
        ("2023-10-12T16:00:00Z", "2023-10-12T16:00:00+00:00"),
        ("  2023-10-12  ", "2023-10-12T00:00:00-07:00"),
    ],
)
def test_parse_datetime(text: str, expected: str) -> None:
    assert iso(cal.parse_datetime(text, LA)) == expected


def test_parse_datetime_adopts_the_run_zone_only_when_the_offset_matches() -> None:
    matching = cal.parse_datetime("2023-12-02T16:00:00-0800", LA)
    assert matching.tzinfo is LA  # so day arithmetic follows LA's DST rules
    assert iso(cal.add(cal.parse_datetime("2023-03-11T09:00:00-08:00", LA), 1, "day")) == (
        "2023-03-12T09:00:00-07:00"
    )
    other = cal.parse_datetime("2023-12-02T16:00:00+01:00", LA)
    assert other.utcoffset() == timedelta(hours=1)
    assert cal.parse_datetime("2023-12-02T16:00:00Z", UTC).tzinfo is UTC


@pytest.mark.parametrize("bad", ["xyz", "13/40/23", "2023-13-01", "", "next thursday", "10/10"])
def test_parse_datetime_failure_lists_formats(bad: str) -> None:
    with pytest.raises(Failure) as info:
        cal.parse_datetime(bad, LA)
    msg = info.value.message
    assert msg.startswith(f"Cannot read {bad!r} as a date")
    assert "ISO 8601" in msg
    assert "10/12/23" in msg
    assert info.value.hint is not None
