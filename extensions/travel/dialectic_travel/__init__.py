"""dialectic-travel: travel domains (flights, flightInfo, trains, busses, car, other) and the
abstract domainA/B/C of the design seed, over a small deterministic in-memory data set."""

from __future__ import annotations

__all__ = ["data", "domains", "plugin", "slots"]
