"""An array as JavaScript writes it as text (``String(xs)``, ``xs.toString()``, a template's
`` `${xs}` ``, ``'' + xs``, an array inside ``join``): its items joined by ``,``, an array
inside written so too (``[1, [2, 3]]`` is ``1,2,3``), ``null`` and ``undefined`` as nothing, a
Date as its ``toString`` text; SPEC 5.

An object inside (anywhere) is refused: JavaScript writes ``[object Object]``, which no program
means; so is a Map, a Set or a regex. One walk, without recursion; the text is measured as it is
built (``limit``), and the items looked at are bounded too (an array held many times over, as
``Array(n).fill(deep)`` holds one, is looked at each time)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsops import JsRefusal, TextTooLong, kind

__all__ = ["array_text"]

_END: Any = object()
#: items looked at beyond the text's own limit (arrays inside arrays write no character)
_LOOKS = 1_000_000
_HINT = (
    "Write the text you mean: JSON.stringify(xs), or xs.map(x => x.name).join(', ') for the "
    "items' fields."
)


def array_text(xs: list[Any], stringify: Callable[[Any], str], limit: int) -> str:
    """JavaScript's ``String(xs)`` of the array ``xs`` (``stringify``: the text of any other
    item, a template's); refused (:class:`TextTooLong`) beyond ``limit`` characters."""
    out: list[str] = []
    size = 0
    looks = limit + _LOOKS
    stack: list[Iterator[Any]] = [iter(xs)]
    first = [True]
    while stack:
        item = next(stack[-1], _END)
        if item is _END:
            stack.pop()
            first.pop()
            continue
        looks -= 1
        if looks < 0:
            raise JsRefusal("the array holds too many arrays to write as text", _HINT)
        if first[-1]:
            first[-1] = False
        else:
            out.append(",")
            size += 1
        t = type(item)
        if t is list:
            stack.append(iter(item))
            first.append(True)
            continue
        if item is None or item is UNDEFINED:
            continue
        if t is dict or (hasattr(t, "js_kind") and not hasattr(t, "to_text")):
            name = "Object" if t is dict else getattr(t, "js_kind", "")
            raise JsRefusal(
                f"the array holds {_a(kind(item))}, "
                + (
                    f"which JavaScript writes as `[object {name}]` in the array's text"
                    if name in ("Object", "Map", "Set")
                    else "which a run does not write as text"
                ),
                _HINT,
            )
        text = item if t is str else stringify(item)
        out.append(text)
        size += len(text)
        if size > limit:
            raise TextTooLong(size, limit)
    if size > limit:
        raise TextTooLong(size, limit)
    return "".join(out)


def _a(what: str) -> str:
    return f"an {what}" if what[:1] in "aeiou" else f"a {what}"
