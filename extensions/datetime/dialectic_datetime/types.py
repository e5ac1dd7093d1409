"""The ``date`` value: an immutable wrapper around a timezone-aware ``datetime``."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo
from typing import Any, NoReturn

WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class Date:
    """A point in time with a time zone (``America/Los_Angeles`` or a fixed UTC offset).

    Two dates are equal when they are the same instant written with the same UTC offset, so
    ``{"date": d.iso}`` evaluates back to a value equal to ``d`` whatever zone object ``d`` carries.
    """

    __slots__ = ("_dt",)
    _dt: datetime

    def __init__(self, value: datetime) -> None:
        if not isinstance(value, datetime):
            raise TypeError(f"Date needs a datetime, got {type(value).__name__}")
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError("Date needs a timezone-aware datetime")
        object.__setattr__(self, "_dt", value)

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError("Date is immutable")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("Date is immutable")

    # -- the wrapped value -------------------------------------------------------------------
    @property
    def datetime(self) -> datetime:
        """The timezone-aware ``datetime``."""
        return self._dt

    @property
    def tz(self) -> tzinfo:
        tz = self._dt.tzinfo
        assert tz is not None
        return tz

    @property
    def offset(self) -> timedelta:
        off = self._dt.utcoffset()
        assert off is not None
        return off

    # -- fields a program can read -----------------------------------------------------------
    @property
    def iso(self) -> str:
        """ISO 8601 text with the UTC offset, e.g. ``2023-10-12T09:00:00-07:00``."""
        return self._dt.isoformat()

    @property
    def year(self) -> int:
        return self._dt.year

    @property
    def month(self) -> int:
        return self._dt.month

    @property
    def day(self) -> int:
        return self._dt.day

    @property
    def hour(self) -> int:
        return self._dt.hour

    @property
    def minute(self) -> int:
        return self._dt.minute

    @property
    def weekday(self) -> str:
        """The English day name, e.g. ``Thursday``."""
        return WEEKDAY_NAMES[self._dt.weekday()]

    @property
    def date_text(self) -> str:
        """The calendar date alone, e.g. ``2023-10-12``."""
        return self._dt.date().isoformat()

    @property
    def time_text(self) -> str:
        """The wall-clock time alone, e.g. ``09:00``."""
        t = self._dt.time()
        return t.isoformat(timespec="minutes" if t.second == 0 and not t.microsecond else "auto")

    @property
    def timezone(self) -> str:
        """The IANA zone name when known (``America/Los_Angeles``), else the offset (``-07:00``)."""
        key = getattr(self._dt.tzinfo, "key", None)
        if isinstance(key, str):
            return key
        return _format_offset(self.offset)

    # -- value semantics ---------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Date):
            return NotImplemented
        return self._dt == other._dt and self.offset == other.offset

    def __hash__(self) -> int:
        return hash((self._dt, self.offset))

    def __lt__(self, other: Date) -> bool:
        if not isinstance(other, Date):
            return NotImplemented
        return self._dt < other._dt

    def __le__(self, other: Date) -> bool:
        if not isinstance(other, Date):
            return NotImplemented
        return self._dt <= other._dt

    def __gt__(self, other: Date) -> bool:
        if not isinstance(other, Date):
            return NotImplemented
        return self._dt > other._dt

    def __ge__(self, other: Date) -> bool:
        if not isinstance(other, Date):
            return NotImplemented
        return self._dt >= other._dt

    def __repr__(self) -> str:
        return f"Date({self.iso!r})"

    def __str__(self) -> str:
        return self.iso

    def __reduce__(self) -> tuple[Any, ...]:
        return (Date, (self._dt,))


def _format_offset(off: timedelta) -> str:
    total = int(off.total_seconds())
    sign = "-" if total < 0 else "+"
    total = abs(total)
    hours, rest = divmod(total, 3600)
    minutes = rest // 60
    return f"{sign}{hours:02d}:{minutes:02d}"
