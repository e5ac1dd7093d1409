"""Runtime-level tests: the seeds' examples in Plan and Dialect JSON with a pinned clock."""

from __future__ import annotations

from typing import Any

import dialectic_datetime.plugin
import pytest
from dialectic_datetime.types import Date

from dialectic.runtime import Runtime

PINNED = {"now": "2023-10-10T08:00:00-07:00", "timezone": "America/Los_Angeles"}


@pytest.fixture(scope="module")
def rt() -> Runtime:
    return Runtime(plugins=(dialectic_datetime.plugin,), load_entry_points=False)


@pytest.fixture(scope="module")
def plan_rt(rt: Runtime) -> Runtime:
    return rt


def ok(out: Any) -> Date:
    assert out.status == "success", (out.status, out.message, out.error)
    assert isinstance(out.value, Date), out.value
    return out.value


def message(out: Any) -> str:
    assert out.status == "failure", (out.status, out.value)
    assert isinstance(out.message, str)
    return out.message


def iso_of(out: Any) -> str:
    return ok(out).iso


SEED_CASES = [
    (
        "return next(Thursday).at('9:00am');",
        {"at": [{"next": [{"$ref": "Thursday"}]}, "9:00am"]},
        "2023-10-12T09:00:00-07:00",
    ),
    (
        "return last(Tuesday).plus(23, day).at('9:00am');",
        {"at": [{"plus": [{"last": [{"$ref": "Tuesday"}]}, 23, {"$ref": "day"}]}, "9:00am"]},
        "2023-10-26T09:00:00-07:00",
    ),
    (
        "return last(Friday).plus(23, days).closeofbusiness;",
        {"$get": [{"plus": [{"last": [{"$ref": "Friday"}]}, 23, {"$ref": "days"}]},
                  "closeofbusiness"]},
        "2023-10-29T17:00:00-07:00",
    ),
    (
        "return tomorrow.morning;",
        {"$get": [{"$ref": "tomorrow"}, "morning"]},
        "2023-10-11T09:00:00-07:00",
    ),
    (
        "return next(week).endOf(week);",
        {"endOf": [{"next": [{"$ref": "week"}]}, {"$ref": "week"}]},
        "2023-10-22T23:59:59-07:00",
    ),
    (
        "return '2023-12-02T16:00:00-0800'.minus(1, hour);",
        {"minus": ["2023-12-02T16:00:00-0800", 1, {"$ref": "hour"}]},
        "2023-12-02T15:00:00-08:00",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("_plan", "program", "expected"), SEED_CASES)
def test_seed_examples_in_dialect_json(
    rt: Runtime, _plan: str, program: Any, expected: str
) -> None:
    assert iso_of(rt.run(program, lang="json", context=PINNED)) == expected


@pytest.mark.parametrize(("plan", "_program", "expected"), SEED_CASES)
def test_seed_examples_in_plan(plan_rt: Runtime, plan: str, _program: Any, expected: str) -> None:
    assert iso_of(plan_rt.run(plan, lang="plan", context=PINNED)) == expected


def test_template_shows_iso_text(rt: Runtime) -> None:
    program = {"$template": ["Meet ", {"at": [{"next": [{"$ref": "Thursday"}]}, "3:00pm"]}, "."]}
    out = rt.run(program, lang="json", context=PINNED)
    assert out.status == "success", out.message
    assert out.value == "Meet 2023-10-12T15:00:00-07:00."


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        # DST starts 2023-03-12 in Los Angeles: a day keeps 09:00, 24 hours do not
        ({"plus": ["2023-03-11T09:00:00", 1, "day"]}, "2023-03-12T09:00:00-07:00"),
        ({"plus": ["2023-03-11T09:00:00", 24, "hours"]}, "2023-03-12T10:00:00-07:00"),
        ({"at": ["2023-03-12", "2:30am"]}, "2023-03-12T03:30:00-07:00"),
        # DST ends 2023-11-05
        ({"plus": ["2023-11-04T09:00:00-07:00", 1, "days"]}, "2023-11-05T09:00:00-08:00"),
        ({"plus": ["2023-11-04T09:00:00-07:00", 24, "Hours"]}, "2023-11-05T08:00:00-08:00"),
        ({"minus": ["2023-11-05T09:00:00-08:00", 1, "week"]}, "2023-10-29T09:00:00-07:00"),
        ({"startOf": ["2023-11-05T12:00:00", "day"]}, "2023-11-05T00:00:00-07:00"),
    ],
)
def test_dst_crossings(rt: Runtime, program: Any, expected: str) -> None:
    assert iso_of(rt.run(program, lang="json", context=PINNED)) == expected


def test_bad_text_is_a_failure(rt: Runtime) -> None:
    out = rt.run({"plus": ["next tuesday-ish", 1, "day"]}, lang="json", context=PINNED)
    assert "Cannot read 'next tuesday-ish' as a date" in message(out)
    assert "ISO 8601" in message(out)
    assert out.error is not None
    assert out.error.code == "conversion_failed"
    assert out.error.path == "program.plus[0]"


def test_bad_unit_is_a_failure(rt: Runtime) -> None:
    out = rt.run({"plus": [{"$ref": "today"}, 1, "fortnight"]}, lang="json", context=PINNED)
    assert "Valid units: second, minute, hour, day, week, month, year" in message(out)


def test_bad_timezone_is_a_failure(rt: Runtime) -> None:
    out = rt.run({"$ref": "today"}, lang="json", context={"timezone": "Mars/Olympus"})
    assert "not a known IANA time zone name" in message(out)


def test_serialization_round_trip(rt: Runtime) -> None:
    program = {"at": [{"next": [{"$ref": "Thursday"}]}, "9:00am"]}
    out = rt.run(program, lang="json", context=PINNED)
    original = ok(out)
    serialized = out.to_json()["value"]
    assert serialized == {"date": "2023-10-12T09:00:00-07:00"}
    again = rt.run(serialized, lang="json", context=PINNED)
    assert ok(again) == original
    # in a run with another zone (or none) the value is still equal
    assert ok(rt.run(serialized, lang="json")) == original


def test_fields_and_properties(rt: Runtime) -> None:
    day = {"next": [{"$ref": "Thursday"}]}
    for key, expected in [
        ("weekday", "Thursday"),
        ("year", 2023),
        ("month", 10),
        ("day", 12),
        ("iso", "2023-10-12T00:00:00-07:00"),
        ("date", "2023-10-12"),
    ]:
        out = rt.run({"$get": [day, key]}, lang="json", context=PINNED)
        assert out.status == "success", out.message
        assert out.value == expected


@pytest.mark.parametrize(
    ("plan", "expected"),
    [
        ("return this(week);", {"date": "2023-10-09T00:00:00-07:00"}),
        ("return current(month);", {"date": "2023-10-01T00:00:00-07:00"}),
        ("return tomorrow.at(noon);", {"date": "2023-10-11T12:00:00-07:00"}),
        ("return next(evening);", {"date": "2023-10-10T18:00:00-07:00"}),
        ("return yesterday.endofday;", {"date": "2023-10-09T23:59:59-07:00"}),
        ("return today.plus(2, 'DAYS');", {"date": "2023-10-12T00:00:00-07:00"}),
        (
            "d = next(Thursday); return [d.weekday, d.day, d.plus(1, week).iso];",
            ["Thursday", 12, "2023-10-19T00:00:00-07:00"],
        ),
        ("return `Meet ${next(Thursday).at('3pm')}`;", "Meet 2023-10-12T15:00:00-07:00"),
        ("return '10/10/23'.plus(1, day);", {"date": "2023-10-11T00:00:00-07:00"}),
        ("return date('2023-10-12T09:00:00-07:00');", {"date": "2023-10-12T09:00:00-07:00"}),
    ],
)
def test_more_plan_programs(plan_rt: Runtime, plan: str, expected: Any) -> None:
    out = plan_rt.run(plan, lang="plan", context=PINNED)
    assert out.status == "success", out.message
    assert out.to_json()["value"] == expected


def test_plan_failures_point_at_the_call(plan_rt: Runtime) -> None:
    out = plan_rt.run("return today.at('25:00');", lang="plan", context=PINNED)
    assert "Cannot read '25:00' as a time" in message(out)
    out = plan_rt.run("return today.plus(1, 'fortnight');", lang="plan", context=PINNED)
    assert "'fortnight' is not a date unit" in message(out)


def test_plan2_templates(rt: Runtime) -> None:
    out = rt.run(
        "result: 'Due ${last(Friday).plus(23, days).closeofbusiness}'", lang="plan2", context=PINNED
    )
    assert out.status == "success", out.message
    assert out.value == "Due 2023-10-29T17:00:00-07:00"
    out = rt.run("result: ${next(Thursday).at('3:00pm')}", lang="plan2", context=PINNED)
    assert out.to_json()["value"] == {"date": "2023-10-12T15:00:00-07:00"}
