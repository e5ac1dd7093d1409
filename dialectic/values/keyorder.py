"""The order of an object's keys as JavaScript gives them: array indexes (``"0"``, ``"17"``)
first, ascending, then the other keys in the order they were set. ``Object.keys``, ``values``,
``entries``, ``for...in`` and ``JSON.stringify`` read keys in this order; a dict keeps the
order its keys were set in, so they reorder it when a key starts with a digit."""

from __future__ import annotations

from typing import Any

__all__ = ["js_order", "may_reorder"]

#: the largest array index JavaScript orders first (2**32 - 2)
_MAX_INDEX = 2**32 - 2


def _is_index(key: str) -> bool:
    """Whether ``key`` is an array index, which JavaScript's objects order first, ascending
    (``"0"``, ``"17"``; not ``"01"``, ``"-1"``, ``"1.5"``)."""
    return (
        key.isdigit()
        and key.isascii()
        and (key == "0" or key[0] != "0")
        and (len(key) < 10 or int(key) <= _MAX_INDEX)
    )


def js_order(obj: dict[str, Any]) -> list[str]:
    """The keys of ``obj`` in JavaScript's order: array indexes first, ascending, then the
    others in the order they were set (the indexes looked for only when a key starts with a
    digit)."""
    keys = list(obj)
    if not any(k[:1].isdigit() for k in keys):
        return keys
    indexes = sorted((k for k in keys if _is_index(k)), key=int)
    if not indexes:
        return keys
    taken = set(indexes)
    return indexes + [k for k in keys if k not in taken]


def may_reorder(obj: dict[str, Any]) -> bool:
    """Whether a key of ``obj`` starts with a digit (then :func:`js_order` may differ)."""
    return any(k[:1].isdigit() for k in obj)
