"""The texts a JavaScript regex works on (SPEC 1.8, "Regular expressions"): a :class:`_Subject` is
a text being matched, as UTF-8 bytes with the UTF-16 place of a byte offset (linear over calls
in increasing order), and :func:`_template` / :func:`_expand` are ``GetSubstitution``: a
replacement text read once into pieces, then filled in from each match's spans. Moved out of
:mod:`dialectic.values.jsregex`, which keeps the regex value and its methods.
"""

from __future__ import annotations

from dialectic.values.jsops import JsRefusal
from dialectic.values.regexsyntax import Translated


class _Subject:
    """A text being matched: its UTF-8 bytes and the UTF-16 place of a byte offset."""

    __slots__ = ("ascii", "data", "text", "_at", "_units")

    def __init__(self, text: str) -> None:
        try:
            self.data = text.encode("utf-8")
        except UnicodeEncodeError:
            raise JsRefusal(
                "the text holds a lone UTF-16 surrogate (half of a character), which the regex "
                "engine cannot read",
                "Remove it first.",
            ) from None
        self.text = text
        self.ascii = len(self.data) == len(text)
        self._at = 0
        self._units = 0

    def units(self, offset: int) -> int:
        """The UTF-16 place of byte ``offset`` (linear over calls in increasing order)."""
        if self.ascii:
            return offset
        if offset < self._at:
            self._at = self._units = 0
        chunk = self.data[self._at : offset].decode("utf-8")
        self._units += len(chunk) + sum(1 for c in chunk if ord(c) > 0xFFFF)
        self._at = offset
        return self._units

    def part(self, a: int, b: int) -> str:
        if self.ascii:
            return self.text[a:b]
        return self.data[a:b].decode("utf-8")

    def next_char(self, offset: int) -> int:
        """The byte offset after the character at ``offset``."""
        if self.ascii:
            return offset + 1
        byte = self.data[offset]
        return offset + (1 if byte < 0x80 else 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4)


#: a replacement text's pieces: a text, or a group number (0: the match; -1, -2: the text
#: before, after the match)
_Piece = str | int


def _template(new: str, info: Translated) -> list[_Piece]:
    """JavaScript's ``GetSubstitution``: ``$$``, ``$&``, ``$``` ``, ``$'``, ``$n``, ``$nn``,
    ``$<name>`` (with named groups); any other ``$`` is itself."""
    out: list[_Piece] = []
    text: list[str] = []
    i = 0
    n = len(new)
    groups = info.groups
    named = any(info.names)
    while i < n:
        c = new[i]
        nxt = new[i + 1 : i + 2]
        if c != "$" or not nxt:
            text.append(c)
            i += 1
            continue
        piece: _Piece | None = None
        width = 2
        if nxt == "$":
            text.append("$")
            i += 2
            continue
        if nxt == "&":
            piece = 0
        elif nxt == "`":
            piece = "<"
        elif nxt == "'":
            piece = ">"
        elif nxt.isdigit() and nxt.isascii():
            two = new[i + 1 : i + 3]
            if len(two) == 2 and two.isdigit() and two.isascii() and 1 <= int(two) <= groups:
                piece, width = int(two), 3
            elif 1 <= int(nxt) <= groups:
                piece = int(nxt)
        elif nxt == "<" and named:
            close = new.find(">", i + 2)
            if close >= 0:
                name = new[i + 2 : close]
                width = close - i + 1
                piece = info.names.index(name) + 1 if name in info.names else ""
        if piece is None:
            text.append(c)
            i += 1
            continue
        if text:
            out.append("".join(text))
            text = []
        if piece != "":
            out.append(piece if type(piece) is int else (-1 if piece == "<" else -2))
        i += width
    if text:
        out.append("".join(text))
    return out


def _expand(template: list[_Piece], subject: _Subject, spans: list[tuple[int, int]]) -> str:
    parts = []
    for piece in template:
        if type(piece) is str:
            parts.append(piece)
        elif piece == -1:
            parts.append(subject.part(0, spans[0][0]))
        elif piece == -2:
            parts.append(subject.part(spans[0][1], len(subject.data)))
        else:
            a, b = spans[int(piece)]
            if a >= 0:
                parts.append(subject.part(a, b))
    return "".join(parts)
