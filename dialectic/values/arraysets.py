"""The versions an array's change in place makes (SPEC 10, "Changes outside loops"): the
Plan front end reads ``xs[i] = v;`` as the name's next version ``{"$method": [XS, "[]=", I,
V]}`` and ``xs.length = n;`` as ``{"$method": [XS, "length=", N]}``; the method names are ones
Plan cannot write as a call (JSON may: each is a copy, as ``with`` is).

JavaScript's answer only where a JSON array holds it: an index from 0 to the length (the
length adds an item); past the end JavaScript makes holes, and a negative, fractional or text
key sets a property that JSON does not write: each refused, with what to write instead."""

from __future__ import annotations

from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import JsRefusal
from dialectic.values.jsoperands import is_number

__all__ = ["ARRAY_SETS", "set_item", "set_length"]


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


def set_item(xs: list[Any], key: Any = UNDEFINED, value: Any = UNDEFINED) -> list[Any]:
    """``xs[key] = value`` as a copy: the item replaced, or added at ``xs.length``."""
    n = len(xs)
    k = _index(key, n, "an item set")
    out = list(xs)
    if k == n:
        out.append(value)
    else:
        out[k] = value
    return out


def set_length(xs: list[Any], length: Any = UNDEFINED) -> list[Any]:
    """``xs.length = n`` as a copy: the first ``n`` items (``n`` up to the length)."""
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


#: the methods, by their names in the tree
ARRAY_SETS = {"[]=": set_item, "length=": set_length}
