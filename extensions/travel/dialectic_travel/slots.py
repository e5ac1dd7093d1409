"""Reading slot values loosely.

Slots arrive in several shapes depending on the notation the program was written in:

- Plan and Dialect JSON pass scalars: ``"SFO"``, ``5117``;
- Plan2 (YAML) passes a list of strings per slot (``["SFO"]``), and a slot may list alternatives
  (``origin: [JFK, LGA]``);
- dates may be text (``10/10/23``, ``2023-10-12``, ``2023-10-12T09:00:00-07:00``, ``tomorrow``,
  ``Oct 12``) or a ``date`` value of the datetime extension. That extension is not imported: any
  object with an ``iso`` attribute, an ``isoformat()`` method, or a ``str()`` holding one of the
  texts above is accepted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dialectic import Failure, RunContext

_MISSING = object()


def alternatives(value: Any) -> list[Any]:
    """A slot value as a list of alternatives (a scalar is one alternative; blanks are dropped)."""
    if value is None:
        return []
    items: Iterable[Any] = value if isinstance(value, list | tuple) else [value]
    out: list[Any] = []
    for item in items:
        if isinstance(item, list | tuple):
            out.extend(alternatives(item))
        elif item is None or (isinstance(item, str) and not item.strip()):
            continue
        else:
            out.append(item)
    return out


def single(value: Any, slot: str, domain: str) -> Any:
    """The one value of a slot that takes a single value (a one-element list is unwrapped)."""
    values = alternatives(value)
    if not values:
        return None
    if len(values) > 1:
        raise Failure(
            f"slot `{slot}` takes one value, got {len(values)}: {values!r}",
            hint=f"Pass a single value for `{slot}`, or call {domain} once per value.",
        )
    return values[0]


def text(value: Any) -> str:
    """A value as text: strings as they are, date-like objects as their ISO text."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(int(value)) if float(value).is_integer() else str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    iso = getattr(value, "iso", _MISSING)
    if iso is not _MISSING:
        iso = iso() if callable(iso) else iso
        if isinstance(iso, str):
            return iso
    isoformat = getattr(value, "isoformat", None)
    if callable(isoformat):
        result = isoformat()
        if isinstance(result, str):
            return result
    if isinstance(value, dict) and len(value) == 1:
        # a serialized registered value: {"date": "..."} or {"date": {"iso": "..."}}
        inner = next(iter(value.values()))
        if isinstance(inner, str):  # {"date": "2023-10-12T09:00:00-07:00"}
            return inner
        if isinstance(inner, dict):
            for key in ("iso", "value", "date", "datetime"):
                if isinstance(inner.get(key), str):
                    return str(inner[key])
    return str(value).strip()


def texts(value: Any) -> list[str]:
    return [t for t in (text(v) for v in alternatives(value)) if t]


def number(value: Any, slot: str, domain: str) -> float | None:
    """A numeric slot (``5``, ``"5"``, ``["5"]``)."""
    one = single(value, slot, domain)
    if one is None:
        return None
    if isinstance(one, int | float) and not isinstance(one, bool):
        return float(one)
    try:
        return float(text(one))
    except ValueError:
        raise Failure(
            f"slot `{slot}` must be a number, got {one!r}",
            hint=f"Pass a number for `{slot}`, e.g. {{{slot}: 42}}.",
        )


# ---------------------------------------------------------------------------------------------
# dates and times

_ISO = re.compile(
    r"(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})"
    r"(?:[T ](?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2})(?:\.\d+)?)?"
    r"\s*(?P<z>Z|[+-]\d{2}:?\d{2})?)?"
)
_US = re.compile(r"(?<![\d/])(?P<m>\d{1,2})/(?P<d>\d{1,2})(?:/(?P<y>\d{2,4}))?(?![\d/])")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_NAMED = re.compile(
    r"\b(?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?P<d>\d{1,2})"
    r"(?:st|nd|rd|th)?(?:,?\s+(?P<y>\d{4}))?",
    re.IGNORECASE,
)
_CLOCK_12 = re.compile(r"\b(?P<H>\d{1,2})(?::(?P<M>\d{2}))?\s*(?P<ap>[ap])\.?m\.?", re.IGNORECASE)
_CLOCK_24 = re.compile(r"(?<![\d:])(?P<H>\d{1,2}):(?P<M>\d{2})(?![\d:])")
_RELATIVE = {"yesterday": -1, "today": 0, "tonight": 0, "tomorrow": 1}


@dataclass(frozen=True)
class When:
    """A loosely given moment: a calendar day, maybe a time of day, maybe a UTC offset."""

    day: date
    time: time | None = None
    offset: tzinfo | None = None

    def moment(self, zone: tzinfo) -> datetime:
        """An aware datetime: the given offset if any, else local time in ``zone``."""
        return datetime.combine(self.day, self.time or time(0, 0), tzinfo=self.offset or zone)


def _offset(z: str | None) -> tzinfo | None:
    if not z:
        return None
    if z == "Z":
        return UTC
    sign = 1 if z[0] == "+" else -1
    digits = z[1:].replace(":", "")
    return timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))


def parse_when(value: Any, now: datetime) -> When | None:
    """Read a date (and time) from a slot value; ``None`` if no date can be found.

    Understands ISO dates/datetimes, ``M/D/YY`` and ``M/D/YYYY``, ``M/D`` (year of ``now``),
    month names (``Oct 12``), ``today``/``tomorrow``/``yesterday``, and a clock time anywhere in
    the text (``9:00am``, ``17:30``). When a text holds several dates (``10/10/23
    2023-10-10T17:17:00-06:00``) a full ISO datetime wins.
    """
    if isinstance(value, datetime):
        return When(value.date(), value.time().replace(tzinfo=None), value.tzinfo)
    if isinstance(value, date):
        return When(value)
    raw = text(value)
    if not raw:
        return None
    iso = list(_ISO.finditer(raw))
    if iso:
        best = max(iso, key=lambda m: (m.group("H") is not None, m.group("z") is not None))
        day = _safe_date(int(best["y"]), int(best["m"]), int(best["d"]), raw)
        if best["H"] is not None:
            at = time(int(best["H"]), int(best["M"]), int(best["S"] or 0))
            return When(day, at, _offset(best["z"]))
        return When(day, _clock(raw[: best.start()] + raw[best.end() :]))
    us = _US.search(raw)
    if us:
        year = int(us["y"]) if us["y"] else now.year
        year = year + 2000 if year < 100 else year
        day = _safe_date(year, int(us["m"]), int(us["d"]), raw)
        return When(day, _clock(raw[: us.start()] + raw[us.end() :]))
    named = _NAMED.search(raw)
    if named:
        month = _MONTHS.index(named["mon"].lower()[:3]) + 1
        year = int(named["y"]) if named["y"] else now.year
        day = _safe_date(year, month, int(named["d"]), raw)
        return When(day, _clock(raw[: named.start()] + raw[named.end() :]))
    lowered = raw.lower()
    for word, delta in _RELATIVE.items():
        if re.search(rf"\b{word}\b", lowered):
            return When(now.date() + timedelta(days=delta), _clock(lowered.replace(word, " ")))
    return None


def _clock(rest: str) -> time | None:
    m = _CLOCK_12.search(rest)
    if m:
        hour = int(m["H"]) % 12 + (12 if m["ap"].lower() == "p" else 0)
        if hour < 24 and int(m["M"] or 0) < 60:
            return time(hour, int(m["M"] or 0))
    m = _CLOCK_24.search(rest)
    if m and int(m["H"]) < 24 and int(m["M"]) < 60:
        return time(int(m["H"]), int(m["M"]))
    return None


def _safe_date(year: int, month: int, day: int, raw: str) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise Failure(
            f"{raw!r} is not a valid date",
            hint="Write dates as YYYY-MM-DD or M/D/YY, e.g. 2023-10-12 or 10/12/23.",
        )


def run_zone(ctx: RunContext | None) -> tzinfo:
    """The run's time zone: context ``timezone`` (an IANA name), else UTC."""
    name = ctx.get("timezone") if ctx is not None else None
    if isinstance(name, tzinfo):
        return name
    if isinstance(name, str) and name.strip():
        try:
            return ZoneInfo(name.strip())
        except (ZoneInfoNotFoundError, ValueError):
            raise Failure(
                f"unknown time zone {name!r} in the run's context",
                hint="Use an IANA name such as America/Los_Angeles.",
            )
    return UTC


def run_now(ctx: RunContext | None) -> datetime:
    """The run's current time: context ``now`` (ISO text, datetime, date value), else the clock."""
    zone = run_zone(ctx)
    raw = ctx.get("now") if ctx is not None else None
    if raw is not None:
        when = parse_when(raw, datetime.now(zone))
        if when is not None:
            moment = when.moment(zone)
            if ctx is not None and ctx.get("timezone"):
                moment = moment.astimezone(zone)
            return moment
    return datetime.now(zone)
