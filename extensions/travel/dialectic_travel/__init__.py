"""dialectic-travel: travel domains (flights, flightInfo, trains, busses, car) over a small
deterministic in-memory data set; the design seed's fixtures (domainA/B/C, other) are the separate
plugin :mod:`dialectic_travel.fixtures`."""

from __future__ import annotations

__all__ = ["data", "domains", "fixtures", "plugin", "slots"]
