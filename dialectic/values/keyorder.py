"""The order of an object's keys as JavaScript gives them: array indexes (``"0"``, ``"17"``)
first, ascending, then the other keys in the order they were set. ``Object.keys``, ``values``,
``entries``, ``for...in`` and ``JSON.stringify`` read keys in this order; a dict keeps the
order its keys were set in, so they reorder it when a key starts with a digit.

Also the key JavaScript makes of a primitive value used as an object's key
(:func:`property_key`)."""

from __future__ import annotations

from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import js_number_to_string

__all__ = ["js_order", "may_reorder", "property_key"]

#: JavaScript's ToPropertyKey of the primitives that are no text or number
_NAMED = {None: "null", True: "true", False: "false"}

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


def property_key(key: Any) -> str | None:
    """The object key JavaScript makes of the primitive ``key`` (ToPropertyKey): a text as it
    is, a number as ``String(n)`` (``1.5 -> "1.5"``, ``-0 -> "0"``), ``null``, ``true``,
    ``false``, ``undefined`` as their names; None for any other value (an array, an object, a
    Map: JavaScript's ``"1,2"``, ``"[object Object]"`` are refused by the callers)."""
    t = type(key)
    if t is str:
        return key  # type: ignore[no-any-return]
    if t is int or t is float:
        return js_number_to_string(key)
    if key is None or t is bool:
        return _NAMED[key]
    if key is UNDEFINED:
        return "undefined"
    return None
