"""``JSON.stringify(value, null, space)``: the indented text JavaScript writes.

JavaScript's rules (ECMA-262, ``JSON.stringify`` and ``SerializeJSONObject/Array``): ``space``, a
number, indents by that many spaces (at most 10; below 1, none); a text, by its first 10
characters; anything else, not at all. An empty array or object is ``[]`` / ``{}``; otherwise
each item or member is on its own line, indented one step deeper than its container, members
as ``"key": value``; an undefined member is left out, an undefined item is ``null``. Written
without recursion, and measured against ``limit`` as it is written (the indentation too).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import orjson

from dialectic.values.data import UNDEFINED
from dialectic.values.jsops import TextTooLong
from dialectic.values.keyorder import js_order

__all__ = ["gap_of", "pretty"]


def gap_of(space: Any) -> str:
    """The indentation step ``space`` asks for (``""``: the compact text)."""
    t = type(space)
    if t is int or t is float:
        if t is float and math.isnan(space):
            return ""
        n = 10 if space >= 10 else int(space)
        return " " * n if n >= 1 else ""
    if t is str:
        return str(space[:10])
    return ""


class _Lit:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def pretty(value: Any, gap: str, scalar: Callable[[Any], str], limit: int) -> str:
    """The text of ``value`` (not undefined) indented by ``gap``; ``scalar`` writes any value
    but an array or an object (a text, a number, a registered value ...)."""
    out: list[str] = []
    stack: list[Any] = [(value, 0)]
    size = 0
    while stack:
        item = stack.pop()
        if type(item) is _Lit:
            text = item.text
        else:
            v, level = item
            t = type(v)
            if t is list and v:
                text = "["
                inner = "\n" + gap * (level + 1)
                parts: list[Any] = []
                for i, x in enumerate(v):
                    parts.append(_Lit(("," if i else "") + inner))
                    parts.append((None if x is UNDEFINED else x, level + 1))
                parts.append(_Lit("\n" + gap * level + "]"))
                stack.extend(reversed(parts))
            elif t is dict and any(x is not UNDEFINED for x in v.values()):
                text = "{"
                inner = "\n" + gap * (level + 1)
                parts = []
                first = True
                for k in js_order(v):
                    x = v[k]
                    if x is UNDEFINED:
                        continue
                    key = orjson.dumps(k).decode()
                    parts.append(_Lit(("" if first else ",") + inner + key + ": "))
                    parts.append((x, level + 1))
                    first = False
                parts.append(_Lit("\n" + gap * level + "}"))
                stack.extend(reversed(parts))
            elif t is list:
                text = "[]"
            elif t is dict:
                text = "{}"
            else:
                text = scalar(v)
        size += len(text)
        if size > limit:
            raise TextTooLong(size, limit)
        out.append(text)
    return "".join(out)
