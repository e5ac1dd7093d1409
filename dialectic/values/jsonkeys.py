"""``JSON.stringify(v, ['id', 'name'])``: a replacer that is an array lists the keys written
(SPEC 1.8, ``JSON.stringify``). JavaScript writes each object, at every depth, with only
those keys, in the list's order (an array's items all, the root whatever it is); the list's
texts and numbers (as ``String(n)``) are the keys, each once, its other items left out.

:func:`keep_keys` makes the value JavaScript writes so, and the writer writes it as any other:
each object a new one with the listed keys it has, in the list's order, a part held twice
made once (so the copy is never bigger than the value), without recursion (a value nested
deep costs no stack). Refused where the writer could write another order or another value:
a key that is an array index (JavaScript's objects put those first whatever the list says,
and the writer orders keys so), and a value of a registered type (its JSON text is the
runtime's, not an object JavaScript would filter).
"""

from __future__ import annotations

from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import js_number_to_string
from dialectic.values.jsops import JsRefusal
from dialectic.values.keyorder import _is_index

__all__ = ["keep_keys", "replacer_keys"]

_PLAIN = (str, int, float, bool, type(None))


def replacer_keys(replacer: list[Any]) -> list[str]:
    """The keys a replacer array lists, as JavaScript reads them (texts, and numbers as
    ``String(n)``; each once; other items left out)."""
    keys: list[str] = []
    for item in replacer:
        t = type(item)
        if t is str:
            key = item
        elif t is int or t is float:
            key = js_number_to_string(item)
        else:
            continue
        if _is_index(key):
            raise JsRefusal(
                f"JSON.stringify with the key {key!r} in its list of keys: JavaScript writes "
                "an object's array-index keys first, whatever the list's order",
                "pick the members first, then stringify: "
                "JSON.stringify(Object.fromEntries(keys.map(k => [k, v[k]])))",
            )
        if key not in keys:
            keys.append(key)
    return keys


def keep_keys(value: Any, keys: list[str]) -> Any:
    """``value`` with every object holding only ``keys`` (those it has, in their order)."""
    if type(value) is not dict and not isinstance(value, list):
        _check_leaf(value)
        return value
    made: dict[int, Any] = {}
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        v, ready = stack.pop()
        if id(v) in made:
            continue
        parts = [v[k] for k in keys if k in v] if type(v) is dict else list(v)
        if not ready:
            stack.append((v, True))
            for part in parts:
                if type(part) is dict or isinstance(part, list):
                    if id(part) not in made:
                        stack.append((part, False))
                else:
                    _check_leaf(part)
            continue
        if type(v) is dict:
            made[id(v)] = {k: _made(made, v[k]) for k in keys if k in v}
        else:
            made[id(v)] = [_made(made, x) for x in v]
    return made[id(value)]


def _made(made: dict[int, Any], part: Any) -> Any:
    return made[id(part)] if type(part) is dict or isinstance(part, list) else part


def _check_leaf(v: Any) -> None:
    if isinstance(v, _PLAIN) or v is UNDEFINED or getattr(v, "js_kind", None) == "Date":
        return
    raise JsRefusal(
        "JSON.stringify with a list of keys writes JSON data and dates only, not "
        f"{getattr(v, 'js_kind', None) or type(v).__name__}",
        "pick the members first, then stringify: {id: v.id, name: v.name}",
    )
