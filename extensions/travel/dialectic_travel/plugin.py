"""The travel plugin: registers the travel domains with dialectic.

Loaded through the ``dialectic`` entry point (``travel = "dialectic_travel.plugin"``) or given
explicitly: ``Runtime(plugins=(dialectic_travel.plugin,))``.

Every slot is declared with type ``any`` (optional unless noted) so that each notation works:
Plan and Dialect JSON pass scalars, Plan2 passes a list of strings per slot, and dates may be text
or ``date`` values of the datetime extension. A list means alternatives (``origin: [JFK, LGA]``).
"""

from __future__ import annotations

from dialectic import FunctionDescription, Optional, hookimpl
from dialectic.registry.plugins import Register

from . import domains

SLOT = Optional("any")

_PLACE = "an airport code or city (text), or a list of alternatives"
_DATE = (
    "the travel date: text (2023-10-12, 10/12/23, 'tomorrow') or a date value such as "
    "next(Thursday); with a time of day, only departures at or after it; default: today"
)


def descriptions() -> list[FunctionDescription]:
    """Every function this plugin registers."""
    return [
        FunctionDescription(
            "flights",
            "Search scheduled flights. Returns a list of "
            "{airline, flight, number, origin, destination, departs, arrives, duration_minutes, "
            "price_usd}, sorted by departure; departs/arrives are ISO times with UTC offsets.",
            domains.flights,
            {
                "origin": SLOT,
                "destination": SLOT,
                "from": SLOT,
                "to": SLOT,
                "departing": SLOT,
                "date": SLOT,
                "airline": SLOT,
                "number": SLOT,
                "flight": SLOT,
            },
            "array",
            pass_context=True,
            parameter_descriptions={
                "origin": _PLACE,
                "destination": _PLACE,
                "from": "same as origin",
                "to": "same as destination",
                "departing": _DATE,
                "date": "same as departing",
                "airline": "airline name or code (United, UA)",
                "number": "flight number (5117 or 'UA 5117')",
                "flight": "same as number",
            },
            examples=(
                "flights({origin: 'SFO', destination: 'LAX', departing: next(Thursday)})",
                "flights({date: '10/10/23', airline: 'United', number: 5117})",
            ),
        ),
        FunctionDescription(
            "flightInfo",
            "Look up one flight: {airline, flight, number, origin, destination, departs, "
            "arrives, ...} for its next departure after now (or on `date`). Ambiguous when the "
            "number is flown by several airlines and no airline is given.",
            domains.flight_info,
            {"airline": SLOT, "flight": "any", "date": SLOT},
            "object",
            pass_context=True,
            parameter_descriptions={
                "airline": "airline name or code (AA, American)",
                "flight": "flight number (1234 or 'AA 1234')",
                "date": "the date of the flight (default: its next departure)",
            },
            examples=("flightInfo({airline: 'AA', flight: 1234})",),
        ),
        FunctionDescription(
            "trains",
            "Search scheduled trains between two cities. Returns a list of {operator, train, "
            "number, origin, destination, station, departs, arrives, duration_minutes, "
            "price_usd}.",
            domains.trains,
            {
                "from": SLOT,
                "to": SLOT,
                "origin": SLOT,
                "destination": SLOT,
                "date": SLOT,
                "departing": SLOT,
            },
            "array",
            pass_context=True,
            parameter_descriptions={
                "from": "departure city",
                "to": "arrival city",
                "origin": "same as from",
                "destination": "same as to",
                "date": _DATE,
                "departing": "same as date",
            },
            examples=("trains({from: 'San Francisco', to: 'Los Angeles', date: tomorrow})",),
        ),
        *(
            FunctionDescription(
                name,
                "Search scheduled busses between two cities (`departing` and `arriving` are "
                "cities). Returns a list of {operator, bus, number, origin, destination, station, "
                "departs, arrives, duration_minutes, price_usd}."
                + (" Same as busses." if name == "buses" else ""),
                domains.busses,
                {
                    "departing": SLOT,
                    "arriving": SLOT,
                    "from": SLOT,
                    "to": SLOT,
                    "date": SLOT,
                    "operator": SLOT,
                },
                "array",
                pass_context=True,
                parameter_descriptions={
                    "departing": "departure city",
                    "arriving": "arrival city",
                    "from": "same as departing",
                    "to": "same as arriving",
                    "date": _DATE,
                    "operator": "bus company (Greyhound, FlixBus, Megabus)",
                },
                examples=(
                    f"{name}({{departing: 'San Francisco', arriving: 'Los Angeles', "
                    "date: next(Thursday)})",
                ),
            )
            for name in ("busses", "buses")
        ),
        FunctionDescription(
            "car",
            "Rental car offers at a location (airport code or city) between pickup and dropoff. "
            "Returns a list of {company, vehicle, class, location, pickup, dropoff, days, "
            "daily_rate_usd, total_usd}, cheapest first.",
            domains.car,
            {"location": "any", "pickup": "any", "dropoff": "any", "category": SLOT},
            "array",
            pass_context=True,
            parameter_descriptions={
                "location": "airport code or city, e.g. a flight's destination",
                "pickup": "pickup date and time (ISO text, '10/10/23 5:00pm', or a date value)",
                "dropoff": "dropoff date and time",
                "category": "car class: economy, compact, midsize, SUV, minivan, ...",
            },
            examples=(
                "car({location: outbound.destination, pickup: outbound.arrives, "
                "dropoff: inbound.departs.minus(1, hour)})",
            ),
        ),
        FunctionDescription(
            "other",
            "Put a hold on the user's calendar for a date range; returns a confirmation text.",
            domains.other,
            {"start": "any", "end": "any"},
            "string",
            pass_context=True,
            parameter_descriptions={
                "start": "start of the range (ISO text or date value)",
                "end": "end of the range",
            },
            examples=("other({start: flight.departs, end: flight.arrives})",),
        ),
        FunctionDescription(
            "domainA",
            "Seed 000's abstract service A: domainA({slot1: string}) -> {field1: number}.",
            domains.domain_a,
            {"slot1": "any"},
            "object",
            pass_context=True,
            parameter_descriptions={"slot1": "a string"},
        ),
        FunctionDescription(
            "domainB",
            "Seed 000's abstract service B: domainB({slot2: string}) -> [{field2: string}].",
            domains.domain_b,
            {"slot2": "any"},
            "array",
            pass_context=True,
            parameter_descriptions={"slot2": "a string"},
        ),
        FunctionDescription(
            "domainC",
            "Seed 000's abstract service C: domainC({slot3: number, slot4: string}) -> string.",
            domains.domain_c,
            {"slot3": "any", "slot4": "any"},
            "string",
            pass_context=True,
            parameter_descriptions={"slot3": "a number", "slot4": "a string"},
        ),
    ]


@hookimpl
def dialectic_register_functions(register: Register) -> None:
    register(*descriptions())
