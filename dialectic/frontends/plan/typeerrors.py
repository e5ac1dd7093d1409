"""JavaScript's TypeError of an array method called on a member that is no array, as Node
words it (SPEC 10, "Changes outside loops"): ``const m = {a: 'ab'}; m.a.push(1);`` throws
``TypeError: m.a.push is not a function`` (a text, a number, an object has no ``push``), and
``Cannot read properties of null (reading 'push')`` when the member is ``null``.

The Plan front end reads ``m.a.push(x);`` as a copy of the member (``toSpliced``, a spread),
which would refuse a text with the copy's own name; this module writes the test and the
failure around it: ``Array.isArray(P) ? <the copy> : (P === null ? throw ... : throw ...)``,
the message Node's (a ``try`` may read it). Node writes the path as V8 prints it (``m['a']``
as ``m.a``, an expression key ``m[(i + 1)]``): :func:`member_text` writes the keys it writes
surely (a name, a text, a whole number, a name in brackets) and gives None for the others,
whose failure keeps the copy's refusal where the program may catch it (:func:`may_catch`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

__all__ = ["guarded", "may_catch", "member_text", "not_a_function"]

#: the words of a program that may catch a failure (``try``, a promise's handler)
_CATCHING = re.compile(r"\b(?:try|catch|finally|then|allSettled|any|race)\b")
#: a whole number as V8 writes it in a member's brackets
_WHOLE = re.compile(r"0|[1-9][0-9]{0,15}")


def may_catch(source: str) -> bool:
    """Whether the program's text holds a word that may catch a failure (read once)."""
    return _CATCHING.search(source) is not None


def member_text(
    kinds: Sequence[str], values: Sequence[object], first: int, last: int, dotted: bool
) -> str | None:
    """The member ``.k`` (``dotted``: the name at ``first``) or ``[...]`` (tokens ``first`` to
    ``last`` inside the brackets) as Node's message writes it, or None."""
    if dotted:
        return f".{values[first]}"
    if first != last:
        return None
    kind, value = kinds[first], str(values[first])
    if kind == "str" and value[:1] in ("'", '"') and value[-1:] == value[:1]:
        text = value[1:-1]
        return None if "\\" in text else f".{text}"
    if kind == "num" and _WHOLE.fullmatch(value):
        return f"[{value}]"
    if kind == "name":
        return f"[{value}]"
    return None


def _type_error(message: str) -> dict[str, Any]:
    return {"$throw": {"$object": {"name": "TypeError", "message": message}}}


def not_a_function(part: Any, path: str, method: str) -> dict[str, Any]:
    """The failure of ``path.method(...)`` when the member ``part`` is no array."""
    null = f"Cannot read properties of null (reading '{method}')"
    return {
        "$if": [
            {"$op": ["===", part, None]},
            _type_error(null),
            _type_error(f"{path}.{method} is not a function"),
        ]
    }


def guarded(part: Any, copy: Any, path: str, method: str) -> dict[str, Any]:
    """``copy`` when the member ``part`` is an array, else Node's TypeError."""
    return {"$if": [{"$global": ["Array.isArray", part]}, copy, not_a_function(part, path, method)]}
