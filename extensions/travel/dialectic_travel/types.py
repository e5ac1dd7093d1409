"""The travel slot types: ``place`` and ``travelDate``.

A search slot takes one value or a list of alternatives (``origin: [JFK, LGA]``), and the type
system has no union type, so each kind of slot is a type of its own whose value is the tuple of
its alternatives (one or more): ``place`` (airport codes or city names) and ``travelDate``
(dates). Text and lists of text convert to them, checked when the call's arguments are bound, so
a wrong value fails before the search with what a slot takes. A ``date`` value of the datetime
extension (``next(Thursday)``, ``tomorrow``) converts through its ISO text (``date -> string``,
registered by that extension). The domains read the alternatives as they read a list.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from dialectic import Failure, RunContext, TypeConversion, TypeDescription

from .slots import parse_when, run_now, text

__all__ = ["CONVERSIONS", "TYPES", "Place", "TravelDate"]

#: at most this many alternatives in one slot
MAX_ALTERNATIVES = 50
_MAX_PLACE = 80
_PLACE_TEXT = re.compile(r"[^\W_](?:[\w .,'()&/-]*[\w.)])?")

_PLACE_HINT = (
    "A place is an airport code or a city: 'SFO', 'San Francisco', 'New York'; several in a list "
    "are alternatives: ['JFK', 'EWR']."
)
_DATE_HINT = (
    "A travel date is a date value (next(Thursday), tomorrow), date text (2023-10-12, 10/12/23, "
    "'Oct 12', 'tomorrow', optionally with a time: '10/12/23 9:00am'), or a list of them "
    "(alternatives)."
)


class Place(tuple[str, ...]):
    """One place, or several meaning alternatives (airport codes or city names)."""

    __slots__ = ()

    def __new__(cls, names: Iterable[str]) -> Place:
        return super().__new__(cls, names)


class TravelDate(tuple[str, ...]):
    """One travel date, or several meaning alternatives (each as the text that names it)."""

    __slots__ = ()

    def __new__(cls, dates: Iterable[str]) -> TravelDate:
        return super().__new__(cls, dates)


def _items(value: Any, what: str, hint: str) -> list[Any]:
    """The alternatives of a list: at least one, at most :data:`MAX_ALTERNATIVES`."""
    items = list(value)
    if not items:
        raise Failure(f"an empty list is not a {what}", hint=hint)
    if len(items) > MAX_ALTERNATIVES:
        raise Failure(
            f"{len(items)} alternatives are too many for one {what} (at most {MAX_ALTERNATIVES})",
            hint=hint,
        )
    return items


def _place_name(value: Any) -> str:
    if not isinstance(value, str):
        shown = "a list" if isinstance(value, list | tuple) else type(value).__name__
        raise Failure(f"a place is text, not {shown}", hint=_PLACE_HINT)
    name = value.strip()
    if not name:
        raise Failure("an empty text is not a place", hint=_PLACE_HINT)
    if len(name) > _MAX_PLACE or not _PLACE_TEXT.fullmatch(name):
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise Failure(f"{shown!r} is not an airport code or a city name", hint=_PLACE_HINT)
    return name


def text_to_place(value: str) -> Place:
    return Place([_place_name(value)])


def array_to_place(value: list[Any]) -> Place:
    return Place([_place_name(v) for v in _items(value, "place", _PLACE_HINT)])


def _date_text(value: Any, now: datetime) -> str:
    if isinstance(value, list | tuple):
        raise Failure("a travel date is one date, not a list inside a list", hint=_DATE_HINT)
    if isinstance(value, bool | int | float) or value is None or isinstance(value, dict):
        shown = "null" if value is None else repr(value)[:40]
        raise Failure(f"{shown} is not a travel date", hint=_DATE_HINT)
    raw = text(value)
    if parse_when(raw, now) is None:
        shown = raw if len(raw) <= 40 else raw[:37] + "..."
        raise Failure(f"cannot read a date from {shown!r}", hint=_DATE_HINT)
    return raw


def text_to_date(value: str, ctx: RunContext) -> TravelDate:
    return TravelDate([_date_text(value, run_now(ctx))])


def array_to_date(value: list[Any], ctx: RunContext) -> TravelDate:
    now = run_now(ctx)
    return TravelDate([_date_text(v, now) for v in _items(value, "travel date", _DATE_HINT)])


def _join(value: tuple[str, ...]) -> str:
    return ", ".join(value) if len(value) != 1 else value[0]


TYPES = (
    TypeDescription(
        "place",
        "Airport code or city. SFO or 'San Francisco'; a list of them means alternatives (any "
        "will do). Text and lists of text convert to it.",
        lambda names: array_to_place(names if isinstance(names, list) else [names]),
        {"names": "array"},
        Place,
        serialize=lambda p: {"names": list(p)},
        format=_join,
        fields=lambda p, name: list(p) if name == "names" else None,
    ),
    TypeDescription(
        "travelDate",
        "Date or date text. A date value of the datetime extension (next(Thursday), tomorrow) "
        "or date text (2023-10-12, 10/12/23, 'Oct 12', 'tomorrow'), optionally with a time of day "
        "(only departures at or after it); a list of them means alternatives.",
        lambda dates: TravelDate(text(d) for d in (dates if isinstance(dates, list) else [dates])),
        {"dates": "array"},
        TravelDate,
        serialize=lambda d: {"dates": list(d)},
        format=_join,
        fields=lambda d, name: list(d) if name == "dates" else None,
    ),
)

CONVERSIONS = (
    TypeConversion("string", "place", "An airport code or city name.", text_to_place),
    TypeConversion("array", "place", "Alternative places: a list of text.", array_to_place),
    TypeConversion(
        "string",
        "travelDate",
        "Date text: 2023-10-12, 10/12/23, 'Oct 12', 'tomorrow' (optionally with a time).",
        text_to_date,
        pass_context=True,
    ),
    TypeConversion(
        "array",
        "travelDate",
        "Alternative dates: a list of date text or date values.",
        array_to_date,
        pass_context=True,
    ),
)
