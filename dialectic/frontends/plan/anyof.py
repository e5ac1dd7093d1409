"""``Promise.any(xs)`` as a tree (SPEC 10, "Mapping to the call tree"): each element's value
tagged ``[0, v]``, or ``[1, e]`` when it fails as JavaScript throws (a ``$try``, as
``Promise.allSettled``'s entries), then the first value in the array's order among those that
succeeded, else ``$throw`` of ``new AggregateError(..., 'All promises were rejected')`` (Node's
message). Node gives the first to succeed in time: when several succeed, the one that ended
first (a deliberate difference: the first in the array is the value a program can count on).
"""

from __future__ import annotations

from typing import Any

__all__ = ["AGGREGATE", "any_of", "tagged"]

#: the error of a `Promise.any` whose promises all failed (its `errors` are not kept)
AGGREGATE = {"name": "AggregateError", "message": "All promises were rejected"}


def tagged(value: Any, error: str) -> Any:
    """``[0, value]``, or ``[1, error]`` when computing ``value`` fails."""
    return {"$try": [[0, value], {"$fn": [[error], [1, {"$ref": error}]]}]}


def any_of(entries: Any, name: str) -> Any:
    """The value of the first entry (:func:`tagged`) that succeeded, else the failure
    ``AGGREGATE`` (``name``: a fresh name bound to the entries)."""
    ref = {"$ref": name}
    ok = {"$fn": [["_t"], {"$op": ["===", {"$get": [{"$ref": "_t"}, 0]}, 0]}]}
    first = {"$get": [{"$method": [ref, "find", ok]}, 1]}
    failed = {"$throw": {"$object": dict(AGGREGATE)}}
    pick = {"$fn": [[name], {"$if": [{"$method": [ref, "some", ok]}, first, failed]}]}
    return {"$get": [{"$method": [[entries], "map", pick]}, 0]}
