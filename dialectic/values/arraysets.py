"""The versions an array's change in place makes (SPEC 10, "Changes outside loops"): the
Plan front end reads ``xs[i] = v;`` as the name's next version ``{"$method": [XS, "[]=", I,
V]}`` and ``xs.length = n;`` as ``{"$method": [XS, "length=", N]}``; the method names are ones
Plan cannot write as a call (JSON may: each is a copy, as ``with`` is).

JavaScript's answer only where a JSON array holds it: an index from 0 to the length (the
length adds an item); past the end JavaScript makes holes, and a negative, fractional or text
key sets a property that JSON does not write: each refused, with what to write instead."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import JsRefusal
from dialectic.values.jsoperands import is_number
from dialectic.values.keyorder import property_key

__all__ = ["ARRAY_SETS", "item_index", "set_item", "set_length"]


def _index(key: Any, n: int, what: str) -> int:
    """``key`` as an index from 0 to ``n`` (an item's, or the next), else refused."""
    if type(key) is bool or not is_number(key):
        raise JsRefusal(
            f"{what}: the index {key!r} is not a number (JavaScript sets a property of "
            "that name, or the item its text names, which Plan does not guess)",
            "Give a number: xs[Number(k)] = v.",
        )
    if key != key or key in (float("inf"), float("-inf")) or key != int(key) or key < 0:
        raise JsRefusal(
            f"{what}: the index {key!r} is no item's (JavaScript sets a property named "
            f"'{key}', which an array's JSON does not hold)",
            "Give an index from 0 to xs.length (xs.length adds an item): "
            "xs[xs.length - 1] = v for the last.",
        )
    k = int(key)
    if k > n:
        raise JsRefusal(
            f"{what}: index {k} is past the end of an array of {n} items (JavaScript "
            "leaves holes before it, which a program's values do not hold)",
            "Add items at the end: xs.push(v), or build the array at its size: "
            "new Array(n).fill(0).",
        )
    return k


#: keys an object's member set refuses (JavaScript's prototype, not data)
_REFUSED_KEYS = frozenset(["__proto__", "constructor", "prototype"])


def _set_member(obj: dict[str, Any], key: Any, value: Any) -> dict[str, Any]:
    """``obj[key] = value`` as a copy: the key JavaScript makes of ``key`` (``1`` is ``'1'``,
    ``null`` ``'null'``), a key set again keeps its place, a new one goes last (an index's
    place among the keys is JavaScript's where the program reads the keys: ``Object.keys``,
    ``JSON.stringify``)."""
    name = key if type(key) is str else property_key(key)
    if name is None or name in _REFUSED_KEYS or name.startswith("__"):
        raise JsRefusal(
            f"a member set: the key {key!r} of an object is not a plain name here (JavaScript "
            "makes the text of an array or an object the key, and keeps `__proto__` and "
            "`constructor` apart)",
            "Key the object by a name: o.count = v, or o[String(k)] for a text key.",
        )
    out = dict(obj)
    out[name] = value
    return out


def item_index(key: Any, n: int) -> int:
    """The index of ``xs[key] = v`` in an array of ``n`` items (``n``: one more), else
    refused."""
    return _index(key, n, "an item set")


def set_item(xs: Any, key: Any = UNDEFINED, value: Any = UNDEFINED) -> Any:
    """``xs[key] = value`` as a copy: the item replaced, or added at ``xs.length``; of an
    object (a part of a value the program made: ``m.a.b = v``), the member set."""
    if type(xs) is dict:
        return _set_member(xs, key, value)
    if type(xs) is not list:
        raise JsRefusal(
            f"a member set on {_kind(xs)} (a TypeError in JavaScript, or a change that no "
            "JSON value holds)",
            "Set members of an object or items of an array the program made.",
        )
    n = len(xs)
    k = item_index(key, n)
    out = list(xs)
    if k == n:
        out.append(value)
    else:
        out[k] = value
    return out


def set_length(xs: Any, length: Any = UNDEFINED) -> Any:
    """``xs.length = n`` as a copy: the first ``n`` items (``n`` up to the length); of an
    object (a tool's result, read before the run knows its type), the member set."""
    if type(xs) is dict:
        return _set_member(xs, "length", length)
    if type(xs) is not list:
        raise JsRefusal(f"the length set of {_kind(xs)}", "Set the length of an array.")
    n = len(xs)
    if type(length) is bool or not is_number(length) or length != length:
        raise JsRefusal(
            f"the length set to {length!r}, not a whole number (a RangeError in JavaScript)",
            "Keep the first items: xs = xs.slice(0, n).",
        )
    if length in (float("inf"), float("-inf")) or length != int(length) or length < 0:
        raise JsRefusal(
            f"the length set to {length!r}, not a whole number (a RangeError in JavaScript)",
            "Keep the first items: xs = xs.slice(0, n).",
        )
    if int(length) > n:
        raise JsRefusal(
            f"the length set to {int(length)}, past the {n} items (JavaScript leaves holes, "
            "which a program's values do not hold)",
            "Add items at the end: xs.push(v).",
        )
    return list(xs[: int(length)])


def _kind(v: Any) -> str:
    if v is None or v is UNDEFINED:
        return "null" if v is None else "undefined"
    return {str: "a text", bool: "a boolean", int: "a number", float: "a number"}.get(
        type(v), "a value that is not an array or an object"
    )


#: the methods, by their names in the tree
ARRAY_SETS: dict[str, Callable[..., Any]] = {"[]=": set_item, "length=": set_length}
