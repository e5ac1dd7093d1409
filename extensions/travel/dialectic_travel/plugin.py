"""The travel plugin: registers the travel domains with dialectic.

Loaded through the ``dialectic`` entry point (``travel = "dialectic_travel.plugin"``) or given
explicitly: ``Runtime(plugins=(dialectic_travel.plugin,))``. The design seed's abstract fixtures
(``domainA/B/C``, ``other``) are a separate plugin, :mod:`dialectic_travel.fixtures`, loaded only
where asked for.

Parameter types. A slot that takes one value is declared with its type: ``string`` for names and
single dates (a ``date`` value of the datetime extension converts to its ISO text, which is what
the domains read; a one-element list, Plan2's seed form, converts to its element). The search
slots that also take a list of alternatives (``origin: [JFK, LGA]``) have types of their own
(:mod:`.types`), as the type system has no union type ``string | array``: places are ``place``
(an airport code or city, or a list of them) and dates ``travelDate`` (a ``date`` value, date
text, or a list of them); a wrong value fails when the call's arguments are bound, saying what
the slot takes. The other slots with alternatives (airline, flight number, operator, car class)
are ``any``, and their descriptions say so.
"""

from __future__ import annotations

from dialectic import FunctionDescription, Optional, hookimpl
from dialectic.registry.plugins import Register

from . import domains, types

#: a slot that takes one value or a list of alternatives: no union type, so ``any``
ALTERNATIVES = Optional("any")
TEXT = Optional("string")
PLACE = Optional("place")
DATE = Optional("travelDate")

_OR_LIST = "; or a list of them, meaning alternatives (declared `any`: text or a list)"
_ALTERNATIVES = "; or a list of them, meaning alternatives"
_PLACE = "an airport code or city (SFO, 'San Francisco', 'New York')" + _ALTERNATIVES
_CITY = "city (or airport code)" + _ALTERNATIVES
_DATE = (
    "the travel date: text (2023-10-12, 10/12/23, 'tomorrow') or a date value such as "
    "next(Thursday); with a time of day, only departures at or after it; default: today"
    + _ALTERNATIVES
)
_ONE_DATE = "text (ISO 8601, '10/10/23 5:00pm') or a date value (passed as its ISO text)"


def descriptions() -> list[FunctionDescription]:
    """Every function this plugin registers."""
    return [
        FunctionDescription(
            "flights",
            "Scheduled flights. Returns a list of "
            "{airline, flight, number, origin, destination, departs, arrives, duration_minutes, "
            "price_usd}, sorted by departure; departs/arrives are ISO times with UTC offsets.",
            domains.flights,
            {
                "origin": PLACE,
                "destination": PLACE,
                "departing": DATE,
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
            "Trains between two cities. Returns a list of {operator, train, "
            "number, origin, destination, station, departs, arrives, duration_minutes, "
            "price_usd}.",
            domains.trains,
            {
                "from": PLACE,
                "to": PLACE,
                "date": DATE,
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
            "Busses between two cities (`departing` and `arriving` are "
            "cities). Returns a list of {operator, bus, number, origin, destination, station, "
            "departs, arrives, duration_minutes, price_usd}.",
            domains.busses,
            {
                "departing": PLACE,
                "arriving": PLACE,
                "date": DATE,
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
            "Rental cars at a location (airport code or city) between pickup and dropoff. "
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
def dialectic_register_types(register: Register) -> None:
    register(*types.TYPES)


@hookimpl
def dialectic_register_conversions(register: Register) -> None:
    register(*types.CONVERSIONS)


@hookimpl
def dialectic_register_functions(register: Register) -> None:
    register(*descriptions())
