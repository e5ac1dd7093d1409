"""A small, deterministic, in-memory travel data set.

Everything here is fixed data: airports and the cities they serve, daily flight, train and bus
schedules (local departure time + duration), and rental-car offers per location. A schedule is
turned into a dated trip by :func:`on_date`, so any date has the same timetable and the same input
always gives the same output. Times carry the UTC offset of the place (real time zones, so
daylight saving time is honoured).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class Place:
    """An airport (``code``) and the city it serves; trains and busses stop at the city."""

    code: str
    name: str
    city: str
    zone: str
    aliases: tuple[str, ...] = ()

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)


PLACES: tuple[Place, ...] = (
    Place(
        "SFO",
        "San Francisco International",
        "San Francisco",
        "America/Los_Angeles",
        ("sf", "san fran", "bay area"),
    ),
    Place("OAK", "Oakland International", "Oakland", "America/Los_Angeles", ("bay area",)),
    Place("LAX", "Los Angeles International", "Los Angeles", "America/Los_Angeles", ("la",)),
    Place(
        "JFK",
        "John F. Kennedy International",
        "New York",
        "America/New_York",
        ("nyc", "new york city"),
    ),
    Place("LGA", "LaGuardia", "New York", "America/New_York", ("nyc", "new york city")),
    Place(
        "EWR",
        "Newark Liberty International",
        "New York",
        "America/New_York",
        ("newark", "nyc", "new york city"),
    ),
    Place("DEN", "Denver International", "Denver", "America/Denver"),
    Place("CNY", "Canyonlands Regional", "Moab", "America/Denver"),
    Place("SEA", "Seattle-Tacoma International", "Seattle", "America/Los_Angeles"),
    Place("ORD", "Chicago O'Hare International", "Chicago", "America/Chicago"),
)

PLACE_BY_CODE = {p.code: p for p in PLACES}
CITY_ZONES = {p.city: p.zone for p in PLACES}

AIRLINES: dict[str, str] = {
    "AA": "American",
    "AS": "Alaska",
    "B6": "JetBlue",
    "DL": "Delta",
    "UA": "United",
    "WN": "Southwest",
}


@dataclass(frozen=True)
class Flight:
    code: str  # airline code
    number: int
    origin: str
    destination: str
    departs: str  # local time at the origin, "HH:MM"
    minutes: int
    price: int  # USD, economy

    @property
    def airline(self) -> str:
        return AIRLINES[self.code]


FLIGHTS: tuple[Flight, ...] = (
    # San Francisco Bay Area -> Los Angeles
    Flight("UA", 1180, "SFO", "LAX", "06:00", 85, 129),
    Flight("AS", 1920, "SFO", "LAX", "07:30", 90, 109),
    Flight("DL", 2710, "SFO", "LAX", "09:15", 88, 139),
    Flight("WN", 1422, "OAK", "LAX", "12:40", 80, 99),
    Flight("AA", 2390, "SFO", "LAX", "17:05", 87, 149),
    Flight("UA", 2254, "SFO", "LAX", "19:30", 85, 119),
    # Los Angeles -> San Francisco
    Flight("UA", 1181, "LAX", "SFO", "08:10", 82, 124),
    Flight("AS", 1921, "LAX", "SFO", "18:45", 85, 104),
    # New York -> Los Angeles
    Flight("AA", 1234, "JFK", "LAX", "08:00", 380, 329),
    Flight("B6", 23, "JFK", "LAX", "07:00", 385, 289),
    Flight("DL", 408, "JFK", "LAX", "16:30", 375, 359),
    Flight("AA", 2135, "LGA", "LAX", "09:45", 390, 309),
    Flight("DL", 1918, "LGA", "LAX", "13:20", 385, 299),
    Flight("UA", 1771, "EWR", "LAX", "06:00", 380, 279),
    Flight("UA", 535, "EWR", "LAX", "17:00", 375, 319),
    Flight("AS", 1240, "EWR", "LAX", "19:15", 390, 269),
    # Los Angeles -> New York
    Flight("AA", 1235, "LAX", "JFK", "22:30", 320, 339),
    # Denver <-> Moab (seed 001: United 5117 out, 5030 back)
    Flight("UA", 5117, "DEN", "CNY", "16:00", 77, 189),
    Flight("UA", 5030, "CNY", "DEN", "08:30", 72, 179),
    # Denver, Seattle, Chicago
    Flight("UA", 1456, "SFO", "DEN", "10:05", 150, 159),
    Flight("UA", 1457, "DEN", "SFO", "13:30", 165, 169),
    Flight("AS", 330, "SEA", "SFO", "11:00", 125, 119),
    Flight("AA", 1900, "ORD", "JFK", "09:00", 130, 189),
    # a second "1234", so that flightInfo without an airline is ambiguous
    Flight("DL", 1234, "SEA", "DEN", "15:00", 155, 219),
)


@dataclass(frozen=True)
class Ride:
    """A scheduled train or bus between two cities."""

    operator: str
    service: str
    number: int
    origin: str  # city
    destination: str  # city
    station: str
    departs: str
    minutes: int
    price: int


TRAINS: tuple[Ride, ...] = (
    Ride(
        "Amtrak",
        "Coast Starlight",
        11,
        "San Francisco",
        "Los Angeles",
        "Emeryville (shuttle from San Francisco)",
        "08:19",
        725,
        68,
    ),
    Ride(
        "Amtrak",
        "San Joaquins",
        712,
        "San Francisco",
        "Los Angeles",
        "Oakland Jack London Square (bus to Bakersfield connection)",
        "07:00",
        625,
        59,
    ),
    Ride(
        "Amtrak",
        "San Joaquins",
        716,
        "San Francisco",
        "Los Angeles",
        "Oakland Jack London Square (bus to Bakersfield connection)",
        "12:05",
        630,
        59,
    ),
    Ride(
        "Amtrak",
        "Coast Starlight",
        14,
        "Los Angeles",
        "San Francisco",
        "Los Angeles Union Station",
        "10:10",
        735,
        68,
    ),
    Ride(
        "Amtrak",
        "Acela",
        2151,
        "New York",
        "Washington",
        "New York Penn Station",
        "06:00",
        175,
        152,
    ),
    Ride(
        "Amtrak",
        "Northeast Regional",
        171,
        "New York",
        "Boston",
        "New York Penn Station",
        "08:05",
        250,
        79,
    ),
)

BUSSES: tuple[Ride, ...] = (
    Ride(
        "Greyhound",
        "Express",
        1562,
        "San Francisco",
        "Los Angeles",
        "San Francisco Salesforce Transit Center",
        "07:15",
        485,
        39,
    ),
    Ride(
        "FlixBus",
        "Direct",
        2316,
        "San Francisco",
        "Los Angeles",
        "San Francisco Caltrain Station",
        "10:30",
        470,
        29,
    ),
    Ride(
        "Greyhound",
        "Night Owl",
        1578,
        "San Francisco",
        "Los Angeles",
        "San Francisco Salesforce Transit Center",
        "23:45",
        500,
        35,
    ),
    Ride(
        "FlixBus",
        "Direct",
        2317,
        "Los Angeles",
        "San Francisco",
        "Los Angeles Union Station",
        "09:00",
        475,
        29,
    ),
    Ride(
        "Megabus", "M21", 21, "New York", "Boston", "New York 34th St & 11th Ave", "09:30", 270, 25
    ),
)


@dataclass(frozen=True)
class CarOffer:
    company: str
    vehicle: str
    car_class: str
    daily_rate: int  # USD


CARS: dict[str, tuple[CarOffer, ...]] = {
    "CNY": (
        CarOffer("Enterprise", "Jeep Wrangler", "SUV", 95),
        CarOffer("Enterprise", "Nissan Versa", "compact", 48),
        CarOffer("Hertz", "Toyota RAV4", "SUV", 89),
    ),
    "DEN": (
        CarOffer("Hertz", "Toyota Corolla", "economy", 45),
        CarOffer("Avis", "Ford Explorer", "SUV", 79),
        CarOffer("Enterprise", "Chevrolet Malibu", "midsize", 55),
    ),
    "LAX": (
        CarOffer("Hertz", "Toyota Corolla", "economy", 52),
        CarOffer("Avis", "Tesla Model 3", "electric", 99),
        CarOffer("Enterprise", "Chrysler Pacifica", "minivan", 88),
    ),
    "SFO": (
        CarOffer("Avis", "Hyundai Elantra", "economy", 49),
        CarOffer("Hertz", "Ford Mustang Convertible", "convertible", 119),
    ),
    "JFK": (
        CarOffer("Hertz", "Nissan Altima", "midsize", 69),
        CarOffer("Avis", "Kia Soul", "compact", 58),
    ),
}


def local_departure(day: date, hhmm: str, zone: str) -> datetime:
    hour, minute = (int(part) for part in hhmm.split(":"))
    return datetime.combine(day, time(hour, minute), tzinfo=ZoneInfo(zone))


def flight_on(flight: Flight, day: date) -> dict[str, Any]:
    """The flight as it operates on ``day`` (local date at the origin), as JSON."""
    origin, destination = PLACE_BY_CODE[flight.origin], PLACE_BY_CODE[flight.destination]
    departs = local_departure(day, flight.departs, origin.zone)
    arrives = (departs + timedelta(minutes=flight.minutes)).astimezone(destination.tz)
    return {
        "airline": flight.airline,
        "flight": f"{flight.code} {flight.number}",
        "number": flight.number,
        "origin": flight.origin,
        "destination": flight.destination,
        "departs": departs.isoformat(),
        "arrives": arrives.isoformat(),
        "duration_minutes": flight.minutes,
        "price_usd": flight.price,
    }


def ride_on(ride: Ride, day: date, kind: str) -> dict[str, Any]:
    """A train or bus as it runs on ``day``, as JSON."""
    departs = local_departure(day, ride.departs, city_zone(ride.origin))
    arrives = (departs + timedelta(minutes=ride.minutes)).astimezone(
        ZoneInfo(city_zone(ride.destination))
    )
    return {
        "operator": ride.operator,
        kind: f"{ride.service} {ride.number}",
        "number": ride.number,
        "origin": ride.origin,
        "destination": ride.destination,
        "station": ride.station,
        "departs": departs.isoformat(),
        "arrives": arrives.isoformat(),
        "duration_minutes": ride.minutes,
        "price_usd": ride.price,
    }


def city_zone(city: str) -> str:
    """The time zone of a city (East Coast cities without an airport here: New York's)."""
    return CITY_ZONES.get(city, "America/New_York")
