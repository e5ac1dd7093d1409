"""``s.replace(text, new)`` and ``s.replaceAll(text, new)`` when ``new`` holds a ``$``: JavaScript
reads it as a pattern (GetSubstitution, ECMA-262 22.1.3.19.1), here with no capture groups, as a
text pattern has none (SPEC 1.8, "Text methods"): ``$$`` is a ``$``, ``$&`` the match, `` $` ``
the text before it, ``$'`` the text after it; ``$1``, ``$<name>`` and any other ``$`` stay as
written (``'Total: X'.replace('X', '$12.50')`` is ``Total: $12.50``). Each match's replacement
is measured as it is made: the result stays within ``max_string_length`` however many matches
copy the text before or after them."""

from __future__ import annotations

from dialectic.values.jsops import TextTooLong

__all__ = ["replace_text"]

#: the pieces of a template besides literal text
_MATCH, _BEFORE, _AFTER = 0, 1, 2
_CODES = {"&": _MATCH, "`": _BEFORE, "'": _AFTER}


def _pieces(new: str) -> list[str | int]:
    """``new`` cut into literal texts and the codes of ``$&``, `` $` `` and ``$'``."""
    out: list[str | int] = []
    literal: list[str] = []
    i, n = 0, len(new)
    while i < n:
        at = new.find("$", i)
        if at < 0 or at + 1 >= n:
            literal.append(new[i:])
            break
        literal.append(new[i:at])
        nxt = new[at + 1]
        if nxt == "$":
            literal.append("$")
        elif nxt in _CODES:
            if literal:
                out.append("".join(literal))
                literal = []
            out.append(_CODES[nxt])
        else:  # `$1`, `$<`, `$x`: no group of that number or name, so the text as written
            literal.append("$" + nxt)
        i = at + 2
    if literal:
        out.append("".join(literal))
    return out


def replace_text(s: str, old: str, new: str, limit: int, every: bool) -> str:
    """``s`` with the first (``every``: each) occurrence of ``old`` replaced by ``new`` read as
    JavaScript's replacement pattern; a result longer than ``limit`` raises
    :class:`TextTooLong` before it is built past ``limit`` plus one replacement."""
    pieces = _pieces(new)
    parts: list[str] = []
    size = 0
    at = 0
    width = len(old)
    found = s.find(old)
    while found >= 0:
        parts.append(s[at:found])
        size += found - at
        for piece in pieces:
            if type(piece) is str:
                made = piece
            elif piece == _MATCH:
                made = old
            elif piece == _BEFORE:
                made = s[:found]
            else:
                made = s[found + width :]
            parts.append(made)
            size += len(made)
            if size > limit:
                raise TextTooLong(size, limit)
        at = found + width
        if not every:
            break
        found = s.find(old, at)
    tail = len(s) - at
    if size + tail > limit:
        raise TextTooLong(size + tail, limit)
    parts.append(s[at:])
    return "".join(parts)
