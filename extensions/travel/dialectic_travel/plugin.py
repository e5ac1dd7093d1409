"""The travel plugin: registers the travel domains with dialectic.

Loaded through the ``dialectic`` entry point (``travel = "dialectic_travel.plugin"``) or given
explicitly: ``Runtime(plugins=(dialectic_travel.plugin,))``. The design seed's abstract fixtures
(``domainA/B/C``, ``other``) are a separate plugin, :mod:`dialectic_travel.fixtures`, loaded only
where asked for.

Parameter types. A slot that takes one value is declared with its type: ``string`` for places,
names and dates (a ``date`` value of the datetime extension converts to its ISO text, which is
what the domains read; a one-element list, Plan2's seed form, converts to its element). A slot
that also takes a list of alternatives (``origin: [JFK, LGA]``) is declared ``any``: a value is
text (or a number, or a date value) *or* a list of them, and the type system has no union type
``string | array``. (``array`` would not do: the runtime turns text into an array by cutting it
at commas, and ``San Francisco, CA`` or ``Oct 12, 2023`` are one value.) Each such parameter's
description says what it takes.
"""

from __future__ import annotations

from dialectic import FunctionDescription, Optional, hookimpl
from dialectic.registry.plugins import Register

from . import domains

#: a slot that takes one value or a list of alternatives: no union type, so ``any``
ALTERNATIVES = Optional("any")
TEXT = Optional("string")

_OR_LIST = "; or a list of them, meaning alternatives (declared `any`: text or a list)"
_PLACE = "an airport code or city (SFO, 'San Francisco', 'New York')" + _OR_LIST
_CITY = "city (or airport code)" + _OR_LIST
_DATE = (
    "the travel date: text (2023-10-12, 10/12/23, 'tomorrow') or a date value such as "
    "next(Thursday); with a time of day, only departures at or after it; default: today" + _OR_LIST
)
_ONE_DATE = "text (ISO 8601, '10/10/23 5:00pm') or a date value (passed as its ISO text)"


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
                "origin": ALTERNATIVES,
                "destination": ALTERNATIVES,
                "departing": ALTERNATIVES,
                "airline": ALTERNATIVES,
                "number": ALTERNATIVES,
            },
            "array",
            pass_context=True,
            parameter_descriptions={
                "origin": _PLACE,
                "destination": _PLACE,
                "departing": _DATE,
                "airline": "airline name or code (United, UA)" + _OR_LIST,
                "number": "flight number (5117 or 'UA 5117')" + _OR_LIST,
            },
            parameter_aliases={
                "from": "origin",
                "to": "destination",
                "date": "departing",
                "flight": "number",
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
            {"airline": TEXT, "flight": "string", "date": TEXT},
            "object",
            pass_context=True,
            parameter_descriptions={
                "airline": "airline name or code (AA, American)",
                "flight": "flight number (1234 or 'AA 1234'; a number is read as its text)",
                "date": "the date of the flight, " + _ONE_DATE + " (default: its next departure)",
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
                "from": ALTERNATIVES,
                "to": ALTERNATIVES,
                "date": ALTERNATIVES,
            },
            "array",
            pass_context=True,
            parameter_descriptions={
                "from": "departure " + _CITY,
                "to": "arrival " + _CITY,
                "date": _DATE,
            },
            parameter_aliases={"origin": "from", "destination": "to", "departing": "date"},
            examples=("trains({from: 'San Francisco', to: 'Los Angeles', date: tomorrow})",),
        ),
        FunctionDescription(
            "busses",
            "Search scheduled busses between two cities (`departing` and `arriving` are "
            "cities). Returns a list of {operator, bus, number, origin, destination, station, "
            "departs, arrives, duration_minutes, price_usd}.",
            domains.busses,
            {
                "departing": ALTERNATIVES,
                "arriving": ALTERNATIVES,
                "date": ALTERNATIVES,
                "operator": ALTERNATIVES,
            },
            "array",
            pass_context=True,
            parameter_descriptions={
                "departing": "departure " + _CITY,
                "arriving": "arrival " + _CITY,
                "date": _DATE,
                "operator": "bus company (Greyhound, FlixBus, Megabus)" + _OR_LIST,
            },
            aliases=("buses",),
            parameter_aliases={"from": "departing", "to": "arriving"},
            examples=(
                "busses({departing: 'San Francisco', arriving: 'Los Angeles', "
                "date: next(Thursday)})",
            ),
        ),
        FunctionDescription(
            "car",
            "Rental car offers at a location (airport code or city) between pickup and dropoff. "
            "Returns a list of {company, vehicle, class, location, pickup, dropoff, days, "
            "daily_rate_usd, total_usd}, cheapest first.",
            domains.car,
            {
                "location": "string",
                "pickup": "string",
                "dropoff": "string",
                "category": ALTERNATIVES,
            },
            "array",
            pass_context=True,
            parameter_descriptions={
                "location": "one airport code or city, e.g. a flight's destination",
                "pickup": "pickup date and time: " + _ONE_DATE,
                "dropoff": "dropoff date and time: " + _ONE_DATE,
                "category": "car class: economy, compact, midsize, SUV, minivan, ..." + _OR_LIST,
            },
            examples=(
                "car({location: outbound.destination, pickup: outbound.arrives, "
                "dropoff: inbound.departs.minus(1, hour)})",
            ),
        ),
    ]


@hookimpl
def dialectic_register_functions(register: Register) -> None:
    register(*descriptions())
