"""The Plan text of an item's or a member's set, ``{"$method": [X, "[]=", I, V]}``, and of a
length's, ``{"$method": [X, "length=", N]}`` (SPEC 10, "Changes outside loops"), and its
reading back (``dialectic decompile``, ``dialectic convert --to plan|plan2``).

A statement ``xs[i] = v;`` makes the first, ``xs.length = n;`` the second, as the name's next
version; as an expression each is written as the JavaScript that computes the same value::

    Array.isArray(X) ? X.toSpliced(I, 1, V) : {...X, [I]: V}      // X.[]=(I, V)
    Array.isArray(X) ? X.slice(0, N) : {...X, length: N}          // X.length=(N)

and the conditional of exactly that shape (``X`` and ``I`` the same on each side, calling no
function: JavaScript reads them twice) is read back as the set, so that the text reads back to
the same tree. Node computes the same value wherever the set gives one: an index from 0 to the
length sets or adds the item (``toSpliced(I, 1, V)`` of ``I`` = the length adds ``V``), a whole
length up to the array's keeps the first items, an object's key is set in its place or last;
where Node's conditional gives another value (an index past the end, negative, fractional or a
text; a value that is no array nor object), the set refuses it as it runs."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from dialectic.frontends.plan.decompileliterals import DecompileError
from dialectic.frontends.plan.loopbuild import has_call

__all__ = ["read_set", "write_set"]


def _same(a: Any, b: Any) -> bool:
    """Whether two trees are the same, types and all (``1`` is not ``1.0`` nor ``true``)."""
    return json.dumps(a) == json.dumps(b)


def _one(node: Any, key: str) -> Any:
    """``node[key]`` of a one-key node, else None."""
    return node.get(key) if type(node) is dict and len(node) == 1 else None


def read_set(items: list[Any]) -> Any:
    """The set ``{"$method": [X, "[]=", I, V]}`` (``length=``) the conditional ``items``
    (test, then, else) writes, or None when it is any other conditional."""
    test = _one(items[0], "$global")
    if type(test) is not list or len(test) != 2 or test[0] != "Array.isArray":
        return None
    target = test[1]
    copy = _one(items[1], "$method")
    merged = _one(items[2], "$merge")
    if type(copy) is not list or type(merged) is not list or len(merged) != 2:
        return None
    if not _same(copy[0], target) or not _same(merged[0], target) or has_call(target):
        return None
    part = merged[1]
    if copy[1] == "toSpliced" and len(copy) == 5 and _same(copy[3], 1):
        key, value = copy[2], copy[4]
        pairs = _one(part, "$global")
        if (
            type(pairs) is list
            and len(pairs) == 2
            and pairs[0] == "Object.fromEntries"
            and type(pairs[1]) is list
            and len(pairs[1]) == 1
            and type(pairs[1][0]) is list
            and len(pairs[1][0]) == 2
            and _same(pairs[1][0], [key, value])
            and not has_call(key)
        ):
            return {"$method": [target, "[]=", key, value]}
        return None
    if copy[1] == "slice" and len(copy) == 4 and _same(copy[2], 0):
        fields = _one(part, "$object")
        if (
            type(fields) is dict
            and list(fields) == ["length"]
            and _same(fields["length"], copy[3])
            and not has_call(copy[3])
        ):
            return {"$method": [target, "length=", copy[3]]}
    return None


def write_set(value: list[Any], expr: Callable[[Any], str], operand: Callable[[Any], str]) -> str:
    """The Plan text of the set ``{"$method": value}`` (``expr``: an expression's text,
    ``operand``: a receiver's, parenthesized when it needs to be)."""
    target, method = value[0], value[1]
    x = operand(target)
    if method == "[]=" and len(value) == 4:
        i, v = expr(value[2]), expr(value[3])
        copy = f"{x}.toSpliced({i}, 1, {v})"
        return f"(Array.isArray({expr(target)}) ? {copy} : {{...{x}, [{i}]: {v}}})"
    if method == "length=" and len(value) == 3:
        n = expr(value[2])
        return f"(Array.isArray({expr(target)}) ? {x}.slice(0, {n}) : {{...{x}, length: {n}}})"
    raise DecompileError(f"the method {method!r} takes [target, {method!r}, ...] of its form")
