"""Every complete plan of the Plan proposal (seed 000), exactly as written there, run against
small test functions with the shapes the document gives them."""

from __future__ import annotations

from typing import Any

import pytest

from dialectic import FunctionDescription, Runtime

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
TODAY = 1  # the test clock: Tuesday, day 1 of a simple day-number calendar


async def domain_a(slot1: str) -> dict[str, Any]:
    return {"field1": len(slot1)}


async def domain_b(slot2: str) -> list[dict[str, Any]]:
    return [{"field2": slot2.upper()}, {"field2": "second"}]


async def domain_c(slot3: float, slot4: str) -> str:
    return f"{slot3}:{slot4}"


async def flight_info(airline: str, flight: int) -> dict[str, Any]:
    return {
        "departs": f"{airline}{flight} 09:00",
        "arrives": f"{airline}{flight} 11:30",
        "origin": "JFK",
        "destination": "LAX",
    }


async def other(start: str, end: str) -> str:
    return f"hold from {start} to {end}"


def next_(component: str) -> dict[str, Any]:
    ahead = (WEEKDAYS.index(component) - TODAY) % 7 or 7
    return {"day": TODAY + ahead, "time": "00:00"}


def last(component: str) -> dict[str, Any]:
    back = (TODAY - WEEKDAYS.index(component)) % 7 or 7
    return {"day": TODAY - back, "time": "00:00"}


def plus(date: dict[str, Any], count: int, unit: str) -> dict[str, Any]:
    assert unit == "day"
    return {**date, "day": date["day"] + count}


def at(date: dict[str, Any], time: str) -> dict[str, Any]:
    return {**date, "time": time}


@pytest.fixture(scope="module")
def rt() -> Runtime:
    runtime = Runtime(load_entry_points=False)
    runtime.register(
        FunctionDescription("domainA", "A", domain_a, {"slot1": "string"}, "object"),
        FunctionDescription("domainB", "B", domain_b, {"slot2": "string"}, "array"),
        FunctionDescription("domainC", "C", domain_c, {"slot3": "number", "slot4": "string"}),
        FunctionDescription(
            "flightInfo",
            "flight details",
            flight_info,
            {"airline": "string", "flight": "integer"},
            "object",
        ),
        FunctionDescription("other", "date range", other, {"start": "string", "end": "string"}),
        FunctionDescription("next", "next", next_, {"component": "string"}, "object"),
        FunctionDescription("last", "last", last, {"component": "string"}, "object"),
        FunctionDescription(
            "plus", "plus", plus, {"date": "object", "count": "integer", "unit": "string"}, "object"
        ),
        FunctionDescription("at", "at", at, {"date": "object", "time": "string"}, "object"),
    )
    return runtime


CONSTANTS = {name: name for name in WEEKDAYS} | {"day": "day"}

SEED_PLANS = [
    ("return domainA({slot1: 'hello'});", {"field1": 5}),
    (
        "return domainC({\n  slot3: domainA({slot1: 'foo'}).field1,\n"
        "  slot4: domainB({slot2: 'bar'})[0].field2,\n});",
        "3:BAR",
    ),
    (
        "flight = flightInfo({airline: 'AA', flight: 1234});\n"
        "return other({start: flight.departs, end: flight.arrives});",
        "hold from AA1234 09:00 to AA1234 11:30",
    ),
    ("next(Thursday).at('9:00am');", {"day": 3, "time": "9:00am"}),
    ("last(Tuesday).plus(23, day).at('9:00am');", {"day": -6 + 23, "time": "9:00am"}),
]


@pytest.mark.parametrize(("plan", "expected"), SEED_PLANS, ids=[p[0][:40] for p in SEED_PLANS])
def test_seed_plan(rt: Runtime, plan: str, expected: Any) -> None:
    out = rt.run(plan, lang="plan", context=CONSTANTS)
    assert out.status == "success", out.message
    assert out.value == expected
    if not plan.lstrip().startswith(("return", "flight")):
        # the date examples are bare expressions: lenient mode returns them, with a warning
        assert any("return" in w for w in out.warnings), out.warnings
