"""The travel domains: async service stubs over the in-memory data set.

Every domain waits ``travel_latency`` seconds (context key; default 0.05) before answering, like a
remote service would, so independent calls in a program visibly run concurrently. Results are
plain JSON and deterministic: the same slots (and the same pinned ``now``) give the same output.

All slots accept a scalar or a list of alternatives (see :mod:`dialectic_travel.slots`).
"""

from __future__ import annotations

import math
import re
import zlib
from datetime import datetime, time, timedelta, tzinfo
from typing import Any

import anyio

from dialectic import Ambiguous, Candidate, Failure, RunContext

from . import data
from .slots import When, alternatives, number, parse_when, run_now, run_zone, single, text, texts

DEFAULT_LATENCY = 0.05


async def simulate_latency(ctx: RunContext | None) -> None:
    """Sleep for the context's ``travel_latency`` (seconds), like a network round trip."""
    raw = ctx.get("travel_latency", DEFAULT_LATENCY) if ctx is not None else DEFAULT_LATENCY
    try:
        seconds = float(raw)
    except (TypeError, ValueError):
        raise Failure(
            f"context value travel_latency={raw!r} is not a number of seconds",
            hint="Pass e.g. --context travel_latency=0.05, or 0 to answer at once.",
        )
    if seconds > 0:
        await anyio.sleep(seconds)


# ---------------------------------------------------------------------------------------------
# places and carriers


def _norm(value: str) -> str:
    return re.sub(r"\s+", " ", value.strip().lower())


def airports(values: list[str], slot: str) -> set[str] | None:
    """Airport codes matching any of ``values`` (codes, cities, airport names); None: no filter."""
    if not values:
        return None
    found: set[str] = set()
    for value in values:
        matched = _airports_for(value)
        if not matched:
            known = ", ".join(f"{p.code} ({p.city})" for p in data.PLACES)
            raise Failure(
                f"no airport matches {slot} {value!r}",
                hint=f"Use an airport code or city. Known airports: {known}.",
            )
        found |= matched
    return found


def _airports_for(value: str) -> set[str]:
    norm = _norm(value)
    upper = value.strip().upper()
    if upper in data.PLACE_BY_CODE:
        return {upper}
    out = {
        p.code for p in data.PLACES if norm in (_norm(p.city), _norm(p.name)) or norm in p.aliases
    }
    if out:
        return out
    # "Los Angeles (LAX)", "San Francisco, CA": a code as a word, or a city inside the text
    out = {p.code for p in data.PLACES if re.search(rf"\b{p.code}\b", value.upper())}
    return out or {p.code for p in data.PLACES if _norm(p.city) in norm}


def _ride_cities(rides: tuple[data.Ride, ...]) -> list[str]:
    return sorted({r.origin for r in rides} | {r.destination for r in rides})


def cities(values: list[str], slot: str, rides: tuple[data.Ride, ...]) -> set[str] | None:
    """City names matching ``values`` (city names, airport codes, aliases); None: no filter."""
    if not values:
        return None
    known = _ride_cities(rides)
    found: set[str] = set()
    for value in values:
        norm = _norm(value)
        matched = {c for c in known if _norm(c) == norm}
        matched |= {data.PLACE_BY_CODE[code].city for code in _airports_for(value)}
        matched |= {c for c in known if _norm(c) in norm}
        if not matched:
            raise Failure(
                f"no city matches {slot} {value!r}",
                hint=f"Use a city name. Cities served: {', '.join(known)}.",
            )
        found |= matched
    return found


def airline_codes(values: list[str]) -> set[str] | None:
    if not values:
        return None
    found: set[str] = set()
    for value in values:
        norm = _norm(value)
        matched = {
            code
            for code, name in data.AIRLINES.items()
            if norm == code.lower() or norm.startswith(name.lower()) or name.lower() in norm
        }
        if not matched:
            known = ", ".join(f"{name} ({code})" for code, name in data.AIRLINES.items())
            raise Failure(
                f"unknown airline {value!r}",
                hint=f"Use an airline name or code. Known airlines: {known}.",
            )
        found |= matched
    return found


_FLIGHT_CODE = re.compile(
    r"^\s*(?P<code>[A-Za-z][A-Za-z0-9]|[0-9][A-Za-z])?\s*-?\s*(?P<num>\d+)\s*$"
)


def flight_numbers(values: list[str], slot: str) -> list[tuple[str | None, int]]:
    """Flight designators: ``5117``, ``"5117"``, ``"UA 5117"``, ``"UA5117"`` -> (code, number)."""
    out: list[tuple[str | None, int]] = []
    for value in values:
        m = _FLIGHT_CODE.match(value)
        if m is None:
            raise Failure(
                f"{slot} {value!r} is not a flight number",
                hint="Write a flight number such as 5117 or UA 5117.",
            )
        code = m["code"].upper() if m["code"] else None
        out.append((code, int(m["num"])))
    return out


# ---------------------------------------------------------------------------------------------
# dates


def _days(values: list[Any], now: datetime) -> list[When]:
    out: list[When] = []
    for value in values:
        when = parse_when(value, now)
        if when is None:
            raise Failure(
                f"cannot read a date from {text(value)!r}",
                hint="Write a date such as 2023-10-12 or 10/12/23, or use next(Thursday).",
            )
        if when not in out:
            out.append(when)
    return out


def _travel_days(
    slots: dict[str, Any], keys: tuple[str, ...], ctx: RunContext | None, domain: str
) -> list[When]:
    now = run_now(ctx)
    values = [v for key in keys for v in alternatives(slots.get(key))]
    days = _days(values, now)
    if not days:
        if ctx is not None:
            ctx.warn(f"{domain}: no date given; using today ({now.date().isoformat()})")
        days = [When(now.date())]
    return days


def _after(record: dict[str, Any], when: When) -> bool:
    """Keep a departure at or after the requested time of day (a date alone keeps all)."""
    if when.time is None or when.time == time(0, 0):
        return True
    departs = datetime.fromisoformat(record["departs"])
    return departs.time() >= when.time


def _by_departure(record: dict[str, Any]) -> tuple[datetime, str]:
    return datetime.fromisoformat(record["departs"]), str(record.get("number"))


# ---------------------------------------------------------------------------------------------
# domains


async def flights(*, ctx: RunContext | None = None, **slots: Any) -> list[dict[str, Any]]:
    """Scheduled flights matching the slots, sorted by departure."""
    await simulate_latency(ctx)
    origins = airports(texts(slots.get("origin")) + texts(slots.get("from")), "origin")
    destinations = airports(texts(slots.get("destination")) + texts(slots.get("to")), "destination")
    codes = airline_codes(texts(slots.get("airline")))
    numbers = flight_numbers(texts(slots.get("number")) + texts(slots.get("flight")), "number")
    days = _travel_days(slots, ("departing", "date", "departs"), ctx, "flights")
    results: list[dict[str, Any]] = []
    for when in days:
        for flight in data.FLIGHTS:
            if origins is not None and flight.origin not in origins:
                continue
            if destinations is not None and flight.destination not in destinations:
                continue
            if codes is not None and flight.code not in codes:
                continue
            if numbers and not any(
                n == flight.number and (c is None or c == flight.code) for c, n in numbers
            ):
                continue
            record = data.flight_on(flight, when.day)
            if _after(record, when) and record not in results:
                results.append(record)
    return sorted(results, key=_by_departure)


async def flight_info(
    *, flight: Any, airline: Any = None, date: Any = None, ctx: RunContext | None = None
) -> dict[str, Any]:
    """Details of one flight: its next departure (from the run's ``now``), or on ``date``."""
    await simulate_latency(ctx)
    designators = flight_numbers(texts(flight), "flight")
    if len(designators) != 1:
        raise Failure(
            "give exactly one flight number",
            hint="e.g. flightInfo({airline: 'AA', flight: 1234})",
        )
    code, num = designators[0]
    codes = airline_codes(texts(airline))
    if code is not None:
        codes = {code} if codes is None else codes & {code}
    matches = [f for f in data.FLIGHTS if f.number == num and (codes is None or f.code in codes)]
    if not matches:
        others = [f"{f.airline} {f.number}" for f in data.FLIGHTS if f.number == num]
        hint = (
            f"Flights numbered {num}: {', '.join(others)}."
            if others
            else "Check the airline and flight number."
        )
        who = f"{text(single(airline, 'airline', 'flightInfo'))} " if airline is not None else ""
        raise Failure(f"no flight {who}{num} in the schedule", hint=hint)
    if len(matches) > 1:
        raise Ambiguous(
            f"Several airlines fly a flight numbered {num}. Which did you mean?",
            [
                Candidate(
                    f"{f.airline} {f.number} from {f.origin} to {f.destination}",
                    {
                        "flightInfo": {"airline": f.code, "flight": f.number}
                        | ({"date": text(single(date, "date", "flightInfo"))} if date else {})
                    },
                )
                for f in matches
            ],
        )
    (match,) = matches
    now = run_now(ctx)
    if date is not None:
        when = _days([single(date, "date", "flightInfo")], now)[0]
        return data.flight_on(match, when.day)
    origin_today = now.astimezone(data.PLACE_BY_CODE[match.origin].tz).date()
    record = data.flight_on(match, origin_today)
    if datetime.fromisoformat(record["departs"]) < now:
        record = data.flight_on(match, origin_today + timedelta(days=1))
    return record


async def _rides(
    kind: str,
    rides: tuple[data.Ride, ...],
    slots: dict[str, Any],
    origin_keys: tuple[str, ...],
    destination_keys: tuple[str, ...],
    date_keys: tuple[str, ...],
    ctx: RunContext | None,
) -> list[dict[str, Any]]:
    domain = "trains" if kind == "train" else "busses"
    await simulate_latency(ctx)
    origins = cities([t for k in origin_keys for t in texts(slots.get(k))], "origin", rides)
    destinations = cities(
        [t for k in destination_keys for t in texts(slots.get(k))], "destination", rides
    )
    operators = {_norm(t) for t in texts(slots.get("operator"))}
    days = _travel_days(slots, date_keys, ctx, domain)
    results: list[dict[str, Any]] = []
    for when in days:
        for ride in rides:
            if origins is not None and ride.origin not in origins:
                continue
            if destinations is not None and ride.destination not in destinations:
                continue
            if operators and _norm(ride.operator) not in operators:
                continue
            record = data.ride_on(ride, when.day, kind)
            if _after(record, when) and record not in results:
                results.append(record)
    return sorted(results, key=_by_departure)


async def trains(*, ctx: RunContext | None = None, **slots: Any) -> list[dict[str, Any]]:
    """Scheduled trains between two cities on a date."""
    return await _rides(
        "train",
        data.TRAINS,
        slots,
        ("from", "origin"),
        ("to", "destination"),
        ("date", "departing", "departs"),
        ctx,
    )


async def busses(*, ctx: RunContext | None = None, **slots: Any) -> list[dict[str, Any]]:
    """Scheduled busses between two cities on a date (``departing``/``arriving`` are cities)."""
    return await _rides(
        "bus",
        data.BUSSES,
        slots,
        ("departing", "from", "origin"),
        ("arriving", "to", "destination"),
        ("date", "departs"),
        ctx,
    )


async def car(
    *,
    location: Any,
    pickup: Any,
    dropoff: Any,
    category: Any = None,
    ctx: RunContext | None = None,
) -> list[dict[str, Any]]:
    """Rental car offers at a location for a pickup/dropoff range, cheapest first."""
    await simulate_latency(ctx)
    where = text(single(location, "location", "car"))
    codes = airports([where], "location") or set()
    offers = [(code, offer) for code in sorted(codes) for offer in data.CARS.get(code, ())]
    if not offers:
        raise Failure(
            f"no rental desk at {where!r}",
            hint=f"Rental cars are offered at: {', '.join(sorted(data.CARS))}.",
        )
    zone: tzinfo = data.PLACE_BY_CODE[offers[0][0]].tz
    now = run_now(ctx)
    start = _moment(pickup, "pickup", now, zone)
    end = _moment(dropoff, "dropoff", now, zone)
    if end <= start:
        raise Failure(
            f"dropoff {end.isoformat()} is not after pickup {start.isoformat()}",
            hint="Give a dropoff date and time later than the pickup.",
        )
    days = max(1, math.ceil((end - start) / timedelta(days=1)))
    classes = {_norm(t) for t in texts(category)}
    results = [
        {
            "company": offer.company,
            "vehicle": offer.vehicle,
            "class": offer.car_class,
            "location": code,
            "pickup": start.isoformat(),
            "dropoff": end.isoformat(),
            "days": days,
            "daily_rate_usd": offer.daily_rate,
            "total_usd": offer.daily_rate * days,
        }
        for code, offer in offers
        if not classes or _norm(offer.car_class) in classes
    ]
    return sorted(results, key=lambda r: (r["total_usd"], r["company"], r["vehicle"]))


def _moment(value: Any, slot: str, now: datetime, zone: tzinfo) -> datetime:
    one = single(value, slot, "car")
    when = parse_when(one, now) if one is not None else None
    if when is None:
        raise Failure(
            f"cannot read a {slot} date and time from {text(one)!r}",
            hint=f"Write {slot} as e.g. 2023-10-10T17:00:00-06:00 or '10/10/23 5:00pm'.",
        )
    if when.time is None:
        when = When(when.day, time(10, 0), when.offset)
    return when.moment(zone)


async def other(*, start: Any, end: Any, ctx: RunContext | None = None) -> str:
    """Seed 000's ``other`` service for a date range: puts a hold on the user's calendar."""
    await simulate_latency(ctx)
    now = run_now(ctx)
    zone = run_zone(ctx)
    moments = []
    for slot, value in (("start", start), ("end", end)):
        one = single(value, slot, "other")
        when = parse_when(one, now) if one is not None else None
        if when is None:
            raise Failure(
                f"cannot read the {slot} date from {text(one)!r}",
                hint="Pass ISO dates, e.g. the departs/arrives of flightInfo.",
            )
        moments.append(when.moment(zone))
    begin, finish = moments
    if finish < begin:
        raise Failure(
            f"end {finish.isoformat()} is before start {begin.isoformat()}",
            hint="Swap start and end.",
        )
    minutes = int((finish - begin).total_seconds() // 60)
    return (
        f"Calendar hold from {begin.isoformat()} to {finish.isoformat()} "
        f"({minutes // 60} h {minutes % 60:02d} min)"
    )


# ---------------------------------------------------------------------------------------------
# seed 000's abstract domains


async def domain_a(*, slot1: Any, ctx: RunContext | None = None) -> dict[str, Any]:
    """``domainA({slot1: string}) -> {field1: number}``: a stable checksum of slot1 (0..999)."""
    await simulate_latency(ctx)
    value = text(single(slot1, "slot1", "domainA") or "")
    return {"field1": zlib.crc32(value.encode()) % 1000}


async def domain_b(*, slot2: Any, ctx: RunContext | None = None) -> list[dict[str, Any]]:
    """``domainB({slot2: string}) -> {field2: string}[]``: slot2 upper-cased, then reversed."""
    await simulate_latency(ctx)
    value = text(single(slot2, "slot2", "domainB") or "")
    return [{"field2": value.upper()}, {"field2": value[::-1]}]


async def domain_c(*, slot3: Any, slot4: Any, ctx: RunContext | None = None) -> str:
    """``domainC({slot3: number, slot4: string}) -> string``."""
    await simulate_latency(ctx)
    count = number(slot3, "slot3", "domainC")
    label = text(single(slot4, "slot4", "domainC") or "")
    shown = "none" if count is None else (str(int(count)) if count.is_integer() else str(count))
    return f"domainC: slot3={shown}, slot4={label}"
