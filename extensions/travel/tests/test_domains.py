"""The travel domains called directly (no runtime): data, slot shapes, dates, failures."""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest
from dialectic_travel import domains, fixtures, plugin
from dialectic_travel.slots import When, alternatives, parse_when, run_now, text

from dialectic import Ambiguous, Failure, RunContext

NOW = "2023-10-10T08:00:00-07:00"
ZONE = "America/Los_Angeles"


def make_ctx(**values: Any) -> tuple[RunContext, list[str]]:
    warnings: list[str] = []
    base: dict[str, Any] = {"now": NOW, "timezone": ZONE, "travel_latency": 0}
    base.update(values)
    return RunContext(base, warnings, None), warnings


def call(fn: Callable[..., Awaitable[Any]], ctx: RunContext | None = None, /, **kw: Any) -> Any:
    if ctx is None:
        ctx, _ = make_ctx()
    return anyio.run(functools.partial(fn, ctx=ctx, **kw))


class FakeDate:
    """Stands in for dialectic_datetime's Date: only an ``iso`` property."""

    def __init__(self, iso: str) -> None:
        self.iso = iso


def test_flights_scalar_and_list_slots_agree() -> None:
    scalar = call(domains.flights, origin="SFO", destination="LAX", departing="2023-10-12")
    listed = call(domains.flights, origin=["SFO"], destination=["LAX"], departing=["2023-10-12"])
    assert scalar == listed
    assert [f["flight"] for f in scalar] == ["UA 1180", "AS 1920", "DL 2710", "AA 2390", "UA 2254"]
    assert scalar[0]["departs"] == "2023-10-12T06:00:00-07:00"
    assert scalar[0]["arrives"] == "2023-10-12T07:25:00-07:00"


def test_flights_accept_date_values_cities_and_alternatives() -> None:
    by_value = call(
        domains.flights,
        origin="San Francisco",
        destination="Los Angeles",
        departing=FakeDate("2023-10-12T00:00:00-07:00"),
    )
    by_text = call(domains.flights, origin="SFO", destination="LAX", departing="10/12/23")
    assert by_value == by_text
    ny = call(domains.flights, origin=["JFK", "LGA"], destination="LAX", date="2023-10-11")
    assert {f["origin"] for f in ny} == {"JFK", "LGA"}
    assert all(f["departs"].startswith("2023-10-11") for f in ny)


def test_flights_time_of_day_keeps_later_departures() -> None:
    later = call(
        domains.flights, origin="SFO", destination="LAX", departing="2023-10-12T09:00:00-07:00"
    )
    assert [f["flight"] for f in later] == ["DL 2710", "AA 2390", "UA 2254"]


def test_seed_001_trip_flights_and_car() -> None:
    (outbound,) = call(domains.flights, date=["10/10/23"], airline=["United"], number=["5117"])
    assert (outbound["origin"], outbound["destination"]) == ("DEN", "CNY")
    assert outbound["departs"] == "2023-10-10T16:00:00-06:00"
    assert outbound["arrives"] == "2023-10-10T17:17:00-06:00"
    (back,) = call(domains.flights, date="10/15/23", airline="UA", number="UA 5030")
    assert back["departs"] == "2023-10-15T08:30:00-06:00"
    offers = call(
        domains.car,
        location=outbound["destination"],
        pickup="10/10/23 " + outbound["arrives"],
        dropoff="10/10/23 2023-10-15T07:30:00-06:00",  # the seed's text: the ISO time wins
    )
    assert [o["total_usd"] for o in offers] == [240, 445, 475]
    assert all(o["days"] == 5 and o["location"] == "CNY" for o in offers)
    assert offers[0]["pickup"] == "2023-10-10T17:17:00-06:00"


def test_car_failures_name_the_problem() -> None:
    with pytest.raises(Failure, match="not after pickup"):
        call(domains.car, location="CNY", pickup="10/15/23", dropoff="10/10/23")
    with pytest.raises(Failure, match="no rental desk") as info:
        call(domains.car, location="SEA", pickup="10/10/23", dropoff="10/12/23")
    assert info.value.hint is not None and "CNY" in info.value.hint
    with pytest.raises(Failure, match="no airport matches location 'Paris'"):
        call(domains.car, location="Paris", pickup="10/10/23", dropoff="10/12/23")


def test_flight_info_next_departure_and_other() -> None:
    info = call(domains.flight_info, airline="AA", flight=1234)
    # 08:00 PDT is 11:00 in New York: today's 08:00 departure has left, so tomorrow's
    assert info["departs"] == "2023-10-11T08:00:00-04:00"
    assert info["arrives"] == "2023-10-11T11:20:00-07:00"
    hold = call(domains.other, start=info["departs"], end=info["arrives"])
    assert hold == (
        "Calendar hold from 2023-10-11T08:00:00-04:00 to 2023-10-11T11:20:00-07:00 (6 h 20 min)"
    )
    dated = call(domains.flight_info, airline="American", flight="1234", date="2023-12-02")
    assert dated["departs"] == "2023-12-02T08:00:00-05:00"  # standard time in December


def test_flight_info_ambiguous_and_unknown() -> None:
    with pytest.raises(Ambiguous) as amb:
        call(domains.flight_info, flight=1234)
    programs = [c.program for c in amb.value.candidates]
    assert programs == [
        {"flightInfo": {"airline": "AA", "flight": 1234}},
        {"flightInfo": {"airline": "DL", "flight": 1234}},
    ]
    with pytest.raises(Failure, match="no flight United 1234") as info:
        call(domains.flight_info, airline="United", flight=1234)
    assert info.value.hint is not None and "American 1234" in info.value.hint
    with pytest.raises(Failure, match="unknown airline"):
        call(domains.flight_info, airline="Lufthansa", flight=1)


def test_trains_and_busses() -> None:
    trains = call(
        domains.trains, **{"from": "San Francisco", "to": "Los Angeles", "date": "2023-10-12"}
    )
    assert [t["train"] for t in trains] == [
        "San Joaquins 712",
        "Coast Starlight 11",
        "San Joaquins 716",
    ]
    busses = call(
        domains.busses, departing="San Francisco", arriving="Los Angeles", date="2023-10-12"
    )
    assert [b["bus"] for b in busses] == ["Express 1562", "Direct 2316", "Night Owl 1578"]
    assert busses[-1]["arrives"] == "2023-10-13T08:05:00-07:00"
    with pytest.raises(Failure, match="no city matches"):
        call(domains.trains, **{"from": "Atlantis", "to": "Los Angeles"})


def test_missing_date_means_today_with_a_warning() -> None:
    ctx, warnings = make_ctx()
    out = call(domains.busses, ctx, departing="SF", arriving="LA")
    assert out[0]["departs"].startswith("2023-10-10")
    assert warnings == ["busses: no date given; using today (2023-10-10)"]


def test_seed_000_abstract_domains() -> None:
    a = call(domains.domain_a, slot1="foo")
    assert a == call(domains.domain_a, slot1=["foo"])  # Plan2's list of strings
    assert isinstance(a["field1"], int) and 0 <= a["field1"] < 1000
    assert call(domains.domain_b, slot2="bar") == [{"field2": "BAR"}, {"field2": "rab"}]
    assert call(domains.domain_c, slot3=["42"], slot4="BAR") == "domainC: slot3=42, slot4=BAR"
    with pytest.raises(Failure, match="slot3` must be a number"):
        call(domains.domain_c, slot3="many", slot4="x")
    with pytest.raises(Failure, match="takes one value"):
        call(domains.domain_a, slot1=["a", "b"])


def test_latency_is_configurable_and_concurrent() -> None:
    ctx, _ = make_ctx(travel_latency=0.2)
    events: list[tuple[str, str, float]] = []

    async def timed(name: str, call: Callable[[], Awaitable[Any]]) -> None:
        events.append(("start", name, time.monotonic()))
        await call()
        events.append(("end", name, time.monotonic()))

    async def both() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(timed, "a", functools.partial(domains.domain_a, slot1="x", ctx=ctx))
            tg.start_soon(timed, "b", functools.partial(domains.domain_b, slot2="y", ctx=ctx))

    anyio.run(both)
    # the latency is a pause, not a busy wait: both calls were waiting at once
    assert [(kind, name) for kind, name, _ in events[:2]] == [("start", "a"), ("start", "b")]
    assert {kind for kind, _, _ in events[2:]} == {"end"}
    # and each lasted at least the configured latency (a lower bound: sleeps never end early)
    began = {name: at for kind, name, at in events if kind == "start"}
    for kind, name, at in events:
        if kind == "end":
            assert at - began[name] >= 0.19, events
    bad, _ = make_ctx(travel_latency="slow")
    with pytest.raises(Failure, match="travel_latency"):
        call(domains.domain_a, bad, slot1="x")


@pytest.mark.parametrize(
    ("raw", "day", "clock"),
    [
        ("10/10/23", "2023-10-10", None),
        ("10/12", "2023-10-12", None),
        ("2023-10-12", "2023-10-12", None),
        ("10/10/23 2023-10-15T07:30:00-06:00", "2023-10-15", "07:30:00"),
        ("Oct 12, 2023 at 9:30am", "2023-10-12", "09:30:00"),
        ("tomorrow 5pm", "2023-10-11", "17:00:00"),
        ("10/10/23 17:45", "2023-10-10", "17:45:00"),
    ],
)
def test_parse_when(raw: str, day: str, clock: str | None) -> None:
    now = run_now(make_ctx()[0])
    when = parse_when(raw, now)
    assert isinstance(when, When)
    assert when.day.isoformat() == day
    assert (when.time.isoformat() if when.time else None) == clock


def test_slot_helpers() -> None:
    assert alternatives(None) == []
    assert alternatives(["a", ["b", ""], None]) == ["a", "b"]
    assert text(FakeDate("2023-10-12")) == "2023-10-12"
    assert text({"date": "2023-10-12T09:00:00-07:00"}) == "2023-10-12T09:00:00-07:00"
    assert text(5117.0) == "5117"
    assert parse_when("no date here", run_now(None)) is None
    with pytest.raises(Failure, match="not a valid date"):
        parse_when("13/45/23", run_now(None))


def test_plugin_registers_every_domain() -> None:
    registered: list[Any] = []
    plugin.dialectic_register_functions(register=lambda *d: registered.extend(d))
    names = [d.name for d in registered]
    assert names == ["flights", "flightInfo", "trains", "busses", "car"]
    busses = next(d for d in registered if d.name == "busses")
    assert busses.aliases == ("buses",)  # another name, shown once in the catalog
    flights = next(d for d in registered if d.name == "flights")
    assert flights.parameter_aliases["from"] == "origin"  # synonyms take no positional slot
    fixtures_registered: list[Any] = []
    fixtures.dialectic_register_functions(register=lambda *d: fixtures_registered.extend(d))
    assert [d.name for d in fixtures_registered] == ["other", "domainA", "domainB", "domainC"]
    for d in registered + fixtures_registered:
        assert d.pass_context, d.name
        assert set(d.parameter_descriptions) == set(d.parameters), d.name


def test_declared_types_say_what_each_slot_takes() -> None:
    """No `any` where one type fits: places and dates that also take a list of alternatives
    have the types `place` and `travelDate`; `any` only for the other slots that take a list
    of alternatives (no union type), and then the description says so."""
    from dialectic import Optional

    registered: list[Any] = []
    plugin.dialectic_register_functions(register=lambda *d: registered.extend(d))
    fixtures.dialectic_register_functions(register=lambda *d: registered.extend(d))
    typed: dict[str, dict[str, str]] = {}
    for d in registered:
        typed[d.name] = {}
        for name, spec in d.parameters.items():
            type_ = spec.type if isinstance(spec, Optional) else spec
            typed[d.name][name] = type_
            text = d.parameter_descriptions[name]
            if type_ == "any":  # says so, or is another name of a slot that says so
                assert "or a list" in text or text.startswith("same as"), (d.name, name)
    assert typed["car"] == {
        "location": "string",
        "pickup": "string",
        "dropoff": "string",
        "category": "any",
    }
    assert typed["flightInfo"] == {"airline": "string", "flight": "string", "date": "string"}
    assert typed["domainC"] == {"slot3": "number", "slot4": "string"}
    assert typed["other"] == {"start": "string", "end": "string"}
    assert typed["flights"] == {
        "origin": "place",
        "destination": "place",
        "departing": "travelDate",
        "airline": "any",
        "number": "any",
    }
    assert typed["trains"] == {"from": "place", "to": "place", "date": "travelDate"}
    assert typed["busses"] == {
        "departing": "place",
        "arriving": "place",
        "date": "travelDate",
        "operator": "any",
    }
