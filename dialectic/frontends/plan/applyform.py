"""``Math.max.apply(null, xs)`` and ``Math.min.apply(Math, xs)``: the older way to write
``Math.max(...xs)`` (SPEC 10, "Mapping to the call tree")."""

from __future__ import annotations

from typing import Any

__all__ = ["PARAMS_HINT", "math_apply", "search_params_change"]

_MATH = {"$ref": "Math"}
#: the `this` values `apply` may be given (Math.max and Math.min ignore it)
_THIS: list[Any] = [None, {"$undefined": None}, _MATH, {"$ref": "this"}]


def math_apply(receiver: Any, args: list[Any]) -> Any:
    """The tree of ``Math.max.apply(this, xs)`` (``args``: the receiver, ``this``, ``xs``)
    as ``Math.max(...xs)``; None when ``receiver`` is not ``Math.max`` or ``Math.min`` or the
    arguments are not a ``this`` of :data:`_THIS` and one array; raises nothing."""
    if type(receiver) is not dict or len(receiver) != 1:
        return None
    got = receiver.get("$get")
    if type(got) is not list or len(got) != 2 or got[0] != _MATH or got[1] not in ("max", "min"):
        return None
    if len(args) != 3 or args[1] not in _THIS:
        return None
    items = args[2]
    if type(items) is dict and "$spread" in items:
        return None
    return {"$global": [f"Math.{got[1]}", {"$spread": items}]}


#: the methods that change a URL's searchParams (and so the URL) in place in JavaScript
_PARAMS_CHANGES = frozenset(["set", "append", "delete", "sort"])


def search_params_change(fn: str, receiver: Any) -> str | None:
    """The message for ``u.searchParams.set(k, v)`` (a change to the URL ``u`` in place: its
    values never change here), or None for another call."""
    if fn not in _PARAMS_CHANGES or type(receiver) is not dict or len(receiver) != 1:
        return None
    got = receiver.get("$get")
    if type(got) is not list or len(got) < 2 or got[-1] != "searchParams":
        return None
    return f"`.searchParams.{fn}(...)` changes the URL in place; a URL does not change here"


#: what to write instead of a change to a URL's searchParams
PARAMS_HINT = (
    "build the query, then the URL: const q = new URLSearchParams({...}); "
    "const url = `${base}?${q}`; or new URL(`${base}?${q}`)"
)
