"""The Plan lexer's fast path and its :class:`Lexed` result (see :mod:`.lexer`)."""

from __future__ import annotations

import re
from itertools import accumulate, compress, islice
from operator import itemgetter, sub
from typing import Any

from dialectic.frontends.plan.literals import LexError, cook

__all__ = ["Lexed", "Token", "Tokens", "fast_lex"]

Tokens = tuple[list[str], list[Any], list[int], list[int]]
Token = tuple[str, Any, int, int]


# Template text, and a whole template whose substitutions hold no braces, backticks, comments
# or backslashes (strings are allowed): the fast path lexes it in one more ``findall``.
# (Each repetition is written as a run of ordinary characters, then any number of (special
# item, run): the same strings as the plain ``(?:ordinary|special)*``, matched without trying
# the alternatives at every character.)
_TEXT = r"[^`\\$]*(?:(?:\\[\s\S]|\$(?!\{))[^`\\$]*)*"
_STRINGS = (
    r"'[^'\\\n\r]*(?:\\(?:\r\n|[\s\S])[^'\\\n\r]*)*'"
    r"|\"[^\"\\\n\r]*(?:\\(?:\r\n|[\s\S])[^\"\\\n\r]*)*\""
)
_SIMPLE_TEMPLATE = (
    rf"`{_TEXT}(?:\$\{{[^{{}}`'\"/\\]*(?:(?:{_STRINGS})[^{{}}`'\"/\\]*)*\}}{_TEXT})*`"
)
# (The alternatives start with different characters: their order only makes the frequent
# tokens found sooner.)
_FAST_TOKENS = (
    r"[A-Za-z_$][A-Za-z0-9_$]*"
    r"|[()\[\]{},;:]"
    r"|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?(?![A-Za-z0-9_$.])"
    r"|\.(?![.0-9])|=(?![=>])|[-+](?![-+=])"
    rf"|{_STRINGS}"
    r"|//[^\n\r\u2028\u2029]*|/\*[\s\S]*?\*/"
)
_FAST = re.compile(
    # each match is a token with the whitespace before it (possessive: no token starts with
    # whitespace, so giving some back never helps)
    r"[ \t\n\r]*+(?:"
    + _FAST_TOKENS
    + "|"
    + _SIMPLE_TEMPLATE
    + r"|(?=[^ \t\n\r]))"  # anything else: only whitespace, which sends the text to the slow path
)
# Inside a simple template (one item of _FAST): every `}` outside a string ends a substitution.
_FAST_TEMPLATE = re.compile(
    r"[ \t\n\r]*(?:"
    rf"[`}}]{_TEXT}(?:`|\$\{{)|" + _FAST_TOKENS + r"|(?=[^ \t\n\r]))"  # a template part
)
_FIRST_KIND: dict[str, str | None] = dict.fromkeys(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$", "name"
)
_FIRST_KIND.update(dict.fromkeys("0123456789", "num"))
_FIRST_KIND.update({c: c for c in "()[]{},;:.=+-"})
_FIRST_KIND.update({"'": "str", '"': "str", "/": None, "`": "`"})
_first_char = itemgetter(0)


class Lexed:
    """The tokens of a text: ``kinds`` and ``values`` (see the module docstring); the offsets
    (``offsets()``) and the text between tokens (``gap()``) are worked out when first needed,
    as a parse that succeeds without a source map does not need them."""

    __slots__ = ("kinds", "values", "_source", "_items", "_parts", "_offsets")

    def __init__(
        self,
        source: str,
        kinds: list[str],
        values: list[Any],
        items: list[str] | None,
        parts: dict[int, int] | None = None,
        offsets: tuple[list[int], list[int]] | None = None,
    ) -> None:
        self.kinds = kinds
        self.values = values
        self._source = source
        self._items = items  # fast path: each token with the text before it (tiling the text)
        self._parts = parts  # fast path: token index -> raw length, for template parts
        self._offsets = offsets

    def offsets(self) -> tuple[list[int], list[int]]:
        """``(starts, ends)``: the 0-based offsets of each token (``eof`` included)."""
        if self._offsets is None:
            items = self._items
            assert items is not None
            ends = list(accumulate(map(len, items)))
            lengths = list(map(len, islice(self.values, len(items))))
            if self._parts:
                for i, length in self._parts.items():
                    lengths[i] = length
            starts = list(map(sub, ends, lengths))
            size = len(self._source)
            starts.append(size)
            ends.append(size)
            self._offsets = (starts, ends)
        return self._offsets

    def gap(self, i: int) -> str:
        """The text between token ``i - 1`` and token ``i`` (``i >= 1``)."""
        items = self._items
        if items is None or i >= len(items):
            starts, ends = self.offsets()
            return self._source[ends[i - 1] : starts[i]]
        item = items[i]
        length = self._parts.get(i) if self._parts else None
        if length is None:
            length = len(self.values[i])
        return item[: len(item) - length]

    def lists(self) -> Tokens:
        """``(kinds, values, starts, ends)``."""
        return (self.kinds, self.values, *self.offsets())


_FEW_COMMENTS = 8


def fast_lex(source: str) -> Lexed | None:
    """The fast path: one ``findall`` (each found item is a token with the whitespace before
    it; the items tile the text), then C-level list operations for the kinds. Comments are
    merged into the whitespace of the next item. A simple template is one item at first; a
    second ``findall`` splits it into its parts and the tokens of its substitutions. None if
    the text needs the precise lexer."""
    items = _FAST.findall(source)
    texts: list[Any] = list(map(str.lstrip, items))
    try:
        kinds: list[Any] = list(map(_FIRST_KIND.__getitem__, map(_first_char, texts)))
    except IndexError:  # an empty text: something the fast regex does not know
        return None
    count = kinds.count(None) if "/" in source else 0
    if count:  # comments: their text becomes part of the next item's whitespace
        # A run of consecutive comments is joined once, with the item after it (joining one
        # comment at a time into the next would copy the run again for each: quadratic).
        index = kinds.index
        last = len(kinds) - 1
        i = 0
        run = -1  # first comment of the current run
        comments: list[int] = []
        for _ in range(count):
            i = index(None, i)
            comments.append(i)
            if run < 0:
                run = i
            if i < last and kinds[i + 1] is not None:
                items[i + 1] = "".join(items[run : i + 2])
                run = -1
            i += 1
        if count <= _FEW_COMMENTS:  # (a comment or two: deleting is cheaper than copying)
            for i in reversed(comments):
                del items[i], texts[i], kinds[i]
        else:
            items = list(compress(items, kinds))
            texts = list(compress(texts, kinds))
            kinds = list(filter(None, kinds))
    parts: dict[int, int] | None = None
    if "`" in source and "`" in kinds:
        parts = {}
        templates = _templates(items, kinds, texts, parts)
        if templates is None:
            return None
        items, kinds, texts = templates
    kinds.append("eof")
    texts.append(None)
    return Lexed(source, kinds, texts, items, parts)


def _templates(
    items: list[str], kinds: list[Any], texts: list[Any], parts: dict[int, int]
) -> tuple[list[str], list[Any], list[Any]] | None:
    """The tokens with each simple template token split into its parts and the tokens of its
    substitutions (``parts`` gets the raw length of each part); None if the precise lexer must
    handle it (it reports bad escapes)."""
    new_items: list[str] = []
    new_kinds: list[Any] = []
    new_texts: list[Any] = []
    index = kinds.index
    done = 0  # tokens before this are in the new lists
    i = 0
    while True:
        try:
            i = index("`", i)
        except ValueError:
            break
        sub_items = _FAST_TEMPLATE.findall(texts[i])
        sub_texts: list[Any] = list(map(str.lstrip, sub_items))
        if "" in sub_texts:
            return None
        sub_kinds: list[Any] = list(map(_FIRST_KIND.__getitem__, map(_first_char, sub_texts)))
        item = items[i]
        sub_items[0] = item[: len(item) - len(texts[i])] + sub_items[0]
        new_items += items[done:i]
        new_kinds += kinds[done:i]
        new_texts += texts[done:i]
        at = len(new_kinds)  # where the template starts in the new lists
        # the template parts: the first item and every "}" (substitutions hold no braces)
        j = 0
        while True:
            text = sub_texts[j]
            parts[at + j] = len(text)
            if text[-1] == "`":
                raw = text[1:-1]
                kind = "tpl" if j == 0 else "tplt"
            else:
                raw = text[1:-2]
                kind = "tplh" if j == 0 else "tplm"
            if "\\" in raw or "\r" in raw:
                try:
                    raw = cook(raw, True)
                except LexError:
                    return None
            sub_kinds[j] = kind
            sub_texts[j] = raw
            if kind == "tplt" or kind == "tpl":
                break
            j = sub_kinds.index("}", j + 1)
        new_items += sub_items
        new_kinds += sub_kinds
        new_texts += sub_texts
        i += 1
        done = i
    new_items += items[done:]
    new_kinds += kinds[done:]
    new_texts += texts[done:]
    return new_items, new_kinds, new_texts
