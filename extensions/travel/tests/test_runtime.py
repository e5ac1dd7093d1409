"""The travel plugin inside a dialectic Runtime: registration, slot shapes, outcomes."""

from __future__ import annotations

from typing import Any

import dialectic_travel.plugin as travel

CONTEXT = {"now": "2023-10-10T08:00:00-07:00", "timezone": "America/Los_Angeles"}


def run(program: Any, lang: str = "json", **context: Any) -> Any:
    from dialectic import Runtime

    runtime = Runtime(plugins=(travel,), load_entry_points=False)
    return runtime.run(program, context=CONTEXT | {"travel_latency": 0} | context, lang=lang)


def test_entry_point_is_installed() -> None:
    from dialectic.registry.plugins import entry_point_plugins

    found = dict(entry_point_plugins())
    assert found.get("travel") is travel


def test_scalar_and_list_slots_give_the_same_flights() -> None:
    scalar = run({"flights": {"origin": "SFO", "destination": "LAX", "date": "2023-10-12"}})
    listed = run({"flights": {"origin": ["SFO"], "destination": ["LAX"], "date": ["10/12/23"]}})
    assert scalar.status == listed.status == "success"
    assert scalar.value == listed.value
    assert [f["flight"] for f in scalar.value][:2] == ["UA 1180", "AS 1920"]


def test_plan_named_slots_and_alternatives() -> None:
    out = run(
        "return flights({origin: ['JFK', 'EWR'], destination: 'LAX', date: '2023-10-11'});",
        lang="plan",
    )
    assert out.status == "success", out.message
    assert {f["origin"] for f in out.value} == {"JFK", "EWR"}


def test_failure_outcome_names_the_slot_and_the_fix() -> None:
    out = run({"flights": {"origin": "Paris", "destination": "LAX"}})
    assert out.status == "failure"
    assert "no airport matches origin 'Paris'" in out.message
    assert "Known airports" in out.message


def test_missing_date_warns() -> None:
    out = run({"busses": {"departing": "San Francisco", "arriving": "Los Angeles"}})
    assert out.status == "success"
    assert out.warnings == ["busses: no date given; using today (2023-10-10)"]


def test_ambiguous_flight_number_suggests_each_airline() -> None:
    out = run({"flightInfo": {"flight": 1234}})
    assert out.status == "ambiguous"
    assert [s.program for s in out.suggestions] == [
        {"flightInfo": {"airline": "AA", "flight": 1234}},
        {"flightInfo": {"airline": "DL", "flight": 1234}},
    ]
    assert [s.description for s in out.suggestions] == [
        "American 1234 from JFK to LAX",
        "Delta 1234 from SEA to DEN",
    ]


def test_unknown_slot_is_rejected_before_anything_runs() -> None:
    out = run({"car": {"location": "CNY", "pickup": "10/10/23", "dropoff": "10/12/23", "x": 1}})
    assert out.status == "failure"


def test_date_values_of_the_datetime_extension() -> None:
    import dialectic_datetime.plugin as dt

    from dialectic import Runtime

    runtime = Runtime(plugins=(travel, dt), load_entry_points=False)
    program = (
        "day = next(Thursday).at('9:00am');\n"
        "return flights({origin: 'SFO', destination: 'LAX', departing: day});"
    )
    out = runtime.run(program, context=CONTEXT | {"travel_latency": 0}, lang="plan")
    assert out.status == "success", out.message
    # Thursday 2023-10-12, departures at or after 9:00
    assert [f["flight"] for f in out.value] == ["DL 2710", "AA 2390", "UA 2254"]
