"""Parse a ~2 KB Plan program: microseconds per parse, dialectic vs esprima-python.

Run: ``.venv/bin/python benchmarks/plan_parse.py [--repeat N]``. esprima parses the same text
(with ``loc``/``range`` off, its default) wrapped in ``async function plan() { ... }``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from dialectic.frontends.plan import parse_plan
from dialectic.frontends.plan.lexer import lex, tokenize

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


def _time(fn: Callable[[], Any], repeat: int) -> float:
    """Best of 5 runs of ``repeat`` calls: microseconds per call."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    print(f"plan: {len(PLAN)} characters, {len(tokenize(PLAN))} tokens")
    rows = [
        (
            "dialectic parse_plan (tree; spans on demand)",
            _time(lambda: parse_plan(PLAN), args.repeat),
        ),
        (
            "dialectic parse_plan + reading the spans",
            _time(lambda: len(parse_plan(PLAN).spans), args.repeat),
        ),
        (
            "dialectic parse_plan(strict=True)",
            _time(lambda: parse_plan(PLAN, strict=True), args.repeat),
        ),
        ("dialectic lexer only (as parse_plan uses it)", _time(lambda: lex(PLAN), args.repeat)),
        (
            "dialectic tokenize (token tuples with offsets)",
            _time(lambda: tokenize(PLAN), args.repeat),
        ),
    ]
    try:
        import esprima
    except ImportError:
        rows.append(("esprima-python", float("nan")))
    else:
        wrapped = "async function plan() {\n" + PLAN + "\n}"
        esprima.parseScript(wrapped)
        rows.append(
            (
                "esprima-python parseScript",
                _time(lambda: esprima.parseScript(wrapped), max(args.repeat // 10, 5)),
            )
        )
    width = max(len(name) for name, _ in rows)
    for name, micros in rows:
        print(f"{name:<{width}}  {micros:10.1f} µs/parse")
    ours, theirs = rows[0][1], rows[-1][1]
    if theirs == theirs:  # not NaN
        print(f"speed-up over esprima: {theirs / ours:.1f}x (target: <= 250 µs per parse)")


if __name__ == "__main__":
    main()
