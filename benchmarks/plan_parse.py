"""Parse a ~2 KB Plan program: microseconds per parse, dialectic vs esprima-python.

The parsed tree is first checked against EXPECTED (written out by hand, strict and lenient
parses alike), and every alias must have a source span. Rows: the parse alone (spans are made
on demand), the parse plus reading its source spans (what an error report or the IDE pays),
strict mode, the lexer; esprima parses the same text wrapped in ``async function plan() { ...
}``, without and with ``loc``/``range`` (its source locations). Target: 250 µs per parse.
Times are CPU time of this process (``time.process_time``: the machine is shared).
Run: ``.venv/bin/python benchmarks/plan_parse.py [--repeat N] [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from dialectic.frontends.plan import parse_plan
from dialectic.frontends.plan.lexer import lex, tokenize

TARGET = 250.0  # µs per parse

PLAN = """\
// Find flights for the trip and summarize them for the user.
trip = tripDetails({user: user, account: account});
origin = airportInfo({code: trip.origin, include: ['name', 'city', 'timezone']});
destination = airportInfo({code: trip.destination, include: ['name', 'city', 'timezone']});
departure = next(Thursday).at('9:00am');
returning = departure.plus(3, day).at('6:30pm');
outbound = searchFlights({
  from: origin.code,
  to: destination.code,
  date: departure,
  passengers: trip.travelers.length,
  cabin: 'economy',
  maxStops: 1,
  airlines: ['AA', 'UA', 'DL'],
});
inbound = searchFlights({
  from: destination.code,
  to: origin.code,
  date: returning,
  passengers: trip.travelers.length,
  cabin: 'economy',
  maxStops: 1,
  airlines: ['AA', 'UA', 'DL'],
});
best = cheapest(outbound.results, {limit: 3, sortBy: 'price', currency: 'USD'});
bestBack = cheapest(inbound.results, {limit: 3, sortBy: 'price', currency: 'USD'});
hotel = findHotel({city: destination.city, checkIn: departure, checkOut: returning,
  rating: 4, amenities: ['wifi', 'breakfast', "gym"], maxPrice: 250.5});
weather = forecast({city: destination.city, days: 4, units: "metric"});
/* the summary the user will read */
summary = `Trip for ${trip.travelers[0].name}: ${origin.city} -> ${destination.city}
Outbound: ${best[0].airline} ${best[0].flight} at ${best[0].departs} for ${best[0].price}
Return: ${bestBack[0].airline} ${bestBack[0].flight} at ${bestBack[0].departs}
Hotel: ${hotel.name} (${hotel.rating} stars), ${hotel.price} per night
Weather: ${weather.days[0].summary}, ${weather.days[1].summary}, ${weather.days[2].summary}`;
calendar = createEvent({title: `Flight to ${destination.city}`, start: departure,
  end: returning, attendees: trip.travelers, reminders: [60, 1440], notes: summary});
return {
  summary: summary,
  outbound: best,
  inbound: bestBack,
  hotel: {name: hotel.name, address: hotel.address, phone: hotel.phone},
  event: calendar.id,
  links: [best[0].bookingUrl, bestBack[0].bookingUrl, hotel.bookingUrl],
  budget: estimateCost({flights: [best[0], bestBack[0]], hotel: hotel, nights: 3}),
};
"""


def ref(name: str) -> Any:
    return {"$ref": name}


def get(name: str, *keys: Any) -> Any:
    return {"$get": [ref(name), *keys]}


def call(function: str, *args: Any) -> Any:
    return {function: list(args)}


def method(receiver: Any, name: str, *args: Any) -> Any:
    return {"$method": [receiver, name, *args]}


def _flights(frm: str, to: str, date: str) -> Any:
    return call(
        "searchFlights",
        {
            "from": get(frm, "code"),
            "to": get(to, "code"),
            "date": ref(date),
            "passengers": get("trip", "travelers", "length"),
            "cabin": "economy",
            "maxStops": 1,
            "airlines": ["AA", "UA", "DL"],
        },
    )


def _best(flights: str) -> Any:
    return call(
        "cheapest", get(flights, "results"), {"limit": 3, "sortBy": "price", "currency": "USD"}
    )


#: the call tree PLAN means, written out by hand from the text above (Dialect JSON)
EXPECTED = {
    "$let": {
        "trip": call("tripDetails", {"user": ref("user"), "account": ref("account")}),
        "origin": call(
            "airportInfo",
            {"code": get("trip", "origin"), "include": ["name", "city", "timezone"]},
        ),
        "destination": call(
            "airportInfo",
            {"code": get("trip", "destination"), "include": ["name", "city", "timezone"]},
        ),
        # a method call `x.at(...)` is the core form $method: [receiver, name, arguments...]
        "departure": method(call("next", ref("Thursday")), "at", "9:00am"),
        "returning": method(call("plus", ref("departure"), 3, ref("day")), "at", "6:30pm"),
        "outbound": _flights("origin", "destination", "departure"),
        "inbound": _flights("destination", "origin", "returning"),
        "best": _best("outbound"),
        "bestBack": _best("inbound"),
        "hotel": call(
            "findHotel",
            {
                "city": get("destination", "city"),
                "checkIn": ref("departure"),
                "checkOut": ref("returning"),
                "rating": 4,
                "amenities": ["wifi", "breakfast", "gym"],
                "maxPrice": 250.5,
            },
        ),
        "weather": call(
            "forecast", {"city": get("destination", "city"), "days": 4, "units": "metric"}
        ),
        "summary": {
            "$template": [
                "Trip for ",
                get("trip", "travelers", 0, "name"),
                ": ",
                get("origin", "city"),
                " -> ",
                get("destination", "city"),
                "\nOutbound: ",
                get("best", 0, "airline"),
                " ",
                get("best", 0, "flight"),
                " at ",
                get("best", 0, "departs"),
                " for ",
                get("best", 0, "price"),
                "\nReturn: ",
                get("bestBack", 0, "airline"),
                " ",
                get("bestBack", 0, "flight"),
                " at ",
                get("bestBack", 0, "departs"),
                "\nHotel: ",
                get("hotel", "name"),
                " (",
                get("hotel", "rating"),
                " stars), ",
                get("hotel", "price"),
                " per night\nWeather: ",
                get("weather", "days", 0, "summary"),
                ", ",
                get("weather", "days", 1, "summary"),
                ", ",
                get("weather", "days", 2, "summary"),
            ]
        },
        "calendar": call(
            "createEvent",
            {
                "title": {"$template": ["Flight to ", get("destination", "city")]},
                "start": ref("departure"),
                "end": ref("returning"),
                "attendees": get("trip", "travelers"),
                "reminders": [60, 1440],
                "notes": ref("summary"),
            },
        ),
    },
    "$return": {
        "summary": ref("summary"),
        "outbound": ref("best"),
        "inbound": ref("bestBack"),
        "hotel": {
            "name": get("hotel", "name"),
            "address": get("hotel", "address"),
            "phone": get("hotel", "phone"),
        },
        "event": get("calendar", "id"),
        "links": [
            get("best", 0, "bookingUrl"),
            get("bestBack", 0, "bookingUrl"),
            get("hotel", "bookingUrl"),
        ],
        "budget": call(
            "estimateCost",
            {"flights": [get("best", 0), get("bestBack", 0)], "hotel": ref("hotel"), "nights": 3},
        ),
    },
}


def check() -> int:
    """The parsed tree must be EXPECTED, strict or not; the spans must cover every alias."""
    for strict in (False, True):
        result = parse_plan(PLAN, strict=strict)
        if result.tree != EXPECTED:
            print(f"parse_plan(strict={strict}) returned a different tree:", file=sys.stderr)
            print(json.dumps(result.tree, indent=1), file=sys.stderr)
            return 1
        if result.warnings:
            print(f"unexpected warnings: {result.warnings}", file=sys.stderr)
            return 1
    spans = parse_plan(PLAN).spans
    missing = [n for n in EXPECTED["$let"] if ("$let", n) not in spans]
    if missing:
        print(f"no source span for the aliases {missing}", file=sys.stderr)
        return 1
    return 0


def _time(fn: Callable[[], Any], repeat: int) -> float:
    """Best of 5 runs of ``repeat`` calls: microseconds per call."""
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(repeat):
            fn()
        best = min(best, (time.process_time() - start) / repeat)
    return best * 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    args = ap.parse_args()
    repeat = 40 if args.quick else args.repeat
    if check():
        return 1
    print(f"plan: {len(PLAN)} characters, {len(tokenize(PLAN))} tokens; tree checked")
    rows = [
        (
            "dialectic parse_plan (tree; spans on demand)",
            _time(lambda: parse_plan(PLAN), repeat),
        ),
        (
            "dialectic parse_plan + reading the spans",
            _time(lambda: len(parse_plan(PLAN).spans), repeat),
        ),
        (
            "dialectic parse_plan(strict=True)",
            _time(lambda: parse_plan(PLAN, strict=True), repeat),
        ),
        ("dialectic lexer only (as parse_plan uses it)", _time(lambda: lex(PLAN), repeat)),
        (
            "dialectic tokenize (token tuples with offsets)",
            _time(lambda: tokenize(PLAN), repeat),
        ),
    ]
    try:
        import esprima
    except ImportError:
        pass
    else:
        wrapped = "async function plan() {\n" + PLAN + "\n}"
        esprima.parseScript(wrapped)
        few = max(repeat // 10, 5)
        rows.append(
            ("esprima-python parseScript", _time(lambda: esprima.parseScript(wrapped), few))
        )
        located = {"loc": True, "range": True}
        rows.append(
            (
                "esprima-python parseScript with loc + range",
                _time(lambda: esprima.parseScript(wrapped, located), few),
            )
        )
    width = max(len(name) for name, _ in rows)
    for name, micros in rows:
        print(f"{name:<{width}}  {micros:10.1f} µs/parse")
    times = dict(rows)
    ours = times["dialectic parse_plan (tree; spans on demand)"]
    spans = times["dialectic parse_plan + reading the spans"]
    print(f"target: <= {TARGET:.0f} µs per parse: {'met' if ours <= TARGET else 'NOT met'}")
    print(f"with source spans: {spans:.1f} µs ({spans / ours:.2f}x the parse alone)")
    if "esprima-python parseScript" in times:
        print(
            f"speed-up over esprima: {times['esprima-python parseScript'] / ours:.1f}x; with "
            f"locations on both sides: "
            f"{times['esprima-python parseScript with loc + range'] / spans:.1f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
