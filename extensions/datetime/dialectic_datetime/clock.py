"""The run's clock and time zone, read from the run context.

Context keys:

- ``now``: ISO 8601 text with a UTC offset (``2023-10-10T08:00:00-07:00``), a ``datetime`` or a
  ``Date``; pins the clock. Without it the real clock is read (once per run).
- ``timezone``: an IANA zone name (``America/Los_Angeles``) or a ``tzinfo``. Default: the offset
  of ``now`` when given, else UTC.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dialectic.outcome.errors import Failure, quote
from dialectic.registry.descriptions import RunContext

from .calendar import localize
from .types import Date

CACHE_KEY = "dialectic_datetime.clock"
#: the longest IANA zone name is about 30 characters
MAX_ZONE_NAME = 100

#: the real clock; tests may replace it
real_clock: Callable[[], datetime] = lambda: datetime.now(UTC)  # noqa: E731


def zone_from_name(value: object) -> tzinfo:
    """An IANA zone name (or a tzinfo) -> tzinfo; anything else is a Failure."""
    if isinstance(value, tzinfo):
        return value
    if isinstance(value, str) and value.strip() and len(value) <= MAX_ZONE_NAME:
        name = value.strip()
        if name.upper() in ("UTC", "Z", "GMT"):
            return UTC
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: e.g. a name too long
            pass
    shown = quote(value) if isinstance(value, str) else f"of type {type(value).__name__}"
    raise Failure(
        f"The run's `timezone` context value {shown} is not a known IANA time zone name.",
        hint="Pass a name such as 'America/Los_Angeles', 'Europe/Paris' or 'UTC'.",
    )


def _now_from_context(value: object, zone: tzinfo | None) -> datetime:
    if isinstance(value, Date):
        dt = value.datetime
    elif isinstance(value, datetime):
        dt = value
    elif isinstance(value, str):
        try:
            dt = datetime.fromisoformat(value.strip())
        except ValueError:
            raise Failure(
                f"The run's `now` context value {quote(value)} is not an ISO 8601 date-time.",
                hint="Pass text such as '2023-10-10T08:00:00-07:00' (with a UTC offset).",
            ) from None
    else:
        raise Failure(
            f"The run's `now` context value has type {type(value).__name__}; "
            "expected ISO 8601 text or a datetime.",
            hint="Pass text such as '2023-10-10T08:00:00-07:00' (with a UTC offset).",
        )
    try:
        if dt.tzinfo is None or dt.utcoffset() is None:
            # a naive `now` is wall-clock time in the run's zone (UTC if none)
            return localize(dt, zone or UTC)
        return dt.astimezone(zone) if zone is not None else dt
    except (OverflowError, ValueError):
        raise Failure(
            f"The run's `now` context value {quote(str(value))} is out of range in the run's "
            "time zone.",
            hint="Pass a date-time between the years 1 and 9999, such as "
            "'2023-10-10T08:00:00-07:00'.",
        ) from None


def clock(ctx: RunContext | None) -> tuple[datetime, tzinfo]:
    """The run's current time (aware, in the run's zone) and zone; computed once per run."""
    if ctx is None:
        now = real_clock().astimezone(UTC)
        return now, UTC
    cached = ctx.cache.get(CACHE_KEY)
    if cached is not None:
        result: tuple[datetime, tzinfo] = cached
        return result
    tz_value: Any = ctx.get("timezone")
    zone = zone_from_name(tz_value) if tz_value is not None else None
    now_value: Any = ctx.get("now")
    if now_value is not None:
        now = _now_from_context(now_value, zone)
        if zone is None:
            zone = now.tzinfo
            assert zone is not None
    else:
        zone = zone or UTC
        now = real_clock().astimezone(zone)
    ctx.cache[CACHE_KEY] = (now, zone)
    return now, zone


def run_now(ctx: RunContext | None) -> datetime:
    return clock(ctx)[0]


def run_zone(ctx: RunContext | None) -> tzinfo:
    return clock(ctx)[1]
