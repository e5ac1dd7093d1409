"""The Plan lexer's fast path and its :class:`Lexed` result (see :mod:`.lexer`)."""

from __future__ import annotations

import re
from itertools import accumulate, compress, islice
from operator import itemgetter, sub
from typing import Any

from dialectic.frontends.plan.literals import DIVIDES_AFTER, REGEX_AFTER_WORDS, LexError, cook

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
# (The same, not after a backslash: the look-behind follows the quote, so that each
# alternative starts with its character and the regex engine skips it at once on any other:
# a look-behind first is entered for every token.)
_UNESCAPED_STRINGS = (
    r"'(?<!\\')[^'\\\n\r]*(?:\\(?:\r\n|[\s\S])[^'\\\n\r]*)*'"
    r"|\"(?<!\\\")[^\"\\\n\r]*(?:\\(?:\r\n|[\s\S])[^\"\\\n\r]*)*\""
)
_SIMPLE_TEMPLATE = (
    rf"`(?<!\\`){_TEXT}(?:\$\{{[^{{}}`'\"/\\]*(?:(?:{_STRINGS})[^{{}}`'\"/\\]*)*\}}{_TEXT})*`"
)
# The operators, as the precise lexer reads them (its multi-character operators, then its
# single-character ones); a `/` that starts no comment. (Plan rejects most of them, with a
# message that the parser gives: the tokens must be the precise lexer's all the same.)
_OPERATORS = (
    r"(?=[-=.?!<>&|*+/%^~@#])"  # (one test of the character first: then the operators)
    r"(?:=>|\.\.\.|\?\.|[=!]==?|<<=?|>>>?=?|[<>]=?|&&=?|\|\|=?|\?\?=?|\*\*=?|\+\+|--"
    r"|[-+*/%&|^]=|[*%&|^!~?<>@#]|/(?![/*]))"
)
# (The alternatives start with different characters: their order only makes the frequent
# tokens found sooner.)
# (A number never follows a name character, nor a string or a template a backslash, in a text
# the fast path lexes: each position inside a long number or escaped quote run that failed is
# refused at once instead of being scanned again to the end of the run: quadratic.)
_FAST_TOKENS = (
    r"[A-Za-z_$][A-Za-z0-9_$]*"
    r"|[()\[\]{},;:]"
    r"|[0-9](?<![A-Za-z0-9_$][0-9])[0-9]*(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?(?![A-Za-z0-9_$.])"
    r"|\.(?![.0-9])|=(?![=>])|[-+](?![-+=])"
    rf"|{_UNESCAPED_STRINGS}"
    # (an unterminated block comment takes the rest of the text: `_lex` sends it to the
    # precise lexer, which reports it; tried again from each later `/*`, it would be quadratic)
    r"|//[^\n\r\u2028\u2029]*|/\*(?:[\s\S]*?\*/|[\s\S]*)"
    rf"|{_OPERATORS}"
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
# One pass for a short text with templates: a template's head (`` `text${ `` or a whole
# `` `text` ``) and each part after a substitution (``}text${``, ``}text` ``) are tokens of
# their own, as in the precise lexer. A `}` that closes an object can look like such a part:
# the text of a part holds no braces (so each try from a `}` stops at the next brace: linear)
# and no `;` (an object's `}` is usually followed by one before any backtick), and
# `_template_parts` checks that each part follows a head with no brace between; any doubt
# sends the text to the two-pass path.
_PART_TEXT = r"[^`\\${};]*+(?:(?:\\[^{}]|\$(?!\{))[^`\\${};]*+)*+"
_ONE_PASS = re.compile(
    r"[ \t\n\r]*+(?:"
    + r"[A-Za-z_$][A-Za-z0-9_$]*|"
    + rf"\}}{_PART_TEXT}(?:`|\$\{{)|`(?<!\\`){_TEXT}(?:`|\$\{{)|"
    + _FAST_TOKENS
    + r"|(?=[^ \t\n\r]))"
)
#: the longest text the one pass is tried on: a long text more likely has an object's `}`
#: before a template, which the one pass cannot tell from a template's part (it then lexes
#: the text again)
_ONE_PASS_MAX = 1000
_FIRST_KIND: dict[str, str | None] = dict.fromkeys(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$", "name"
)
_FIRST_KIND.update(dict.fromkeys("0123456789", "num"))
_FIRST_KIND.update({c: c for c in "()[]{},;:.=+-"})
_FIRST_KIND.update({"'": "str", '"': "str", "/": None, "`": "`"})
_FIRST_KIND.update(dict.fromkeys("*%&|^!~?<>@#", "op"))
#: the operators whose first character also starts another kind of token (`=`, `.`, `+`,
#: `-`): their kind is "op" (``_op_kinds``; a division's `/`: see the comments in ``_lex``)
_OP_TEXTS = dict.fromkeys(["=>", "==", "===", "...", "++", "--", "+=", "-="], "op")

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


def _may_hold_op(text: str) -> bool:
    """Whether ``text`` may hold an operator that starts with `=`, `.`, `+` or `-` (a few
    substring tests: less than a regex search, and no remapping of every token of a program
    whose only `=` are definitions)."""
    return (
        "=>" in text
        or "==" in text
        or ".." in text
        or "++" in text
        or "--" in text
        or "+=" in text
        or "-=" in text
    )


def _op_kinds(texts: list[Any], kinds: list[Any]) -> list[Any]:
    """``kinds`` with the kind of each operator that its first character does not tell
    (``_OP_TEXTS``) made "op"."""
    return list(map(_OP_TEXTS.get, texts, kinds))


def fast_lex(source: str) -> Lexed | None:
    """The fast path: one ``findall`` (each found item is a token with the whitespace before
    it; the items tile the text), then C-level list operations for the kinds. Comments are
    merged into the whitespace of the next item. A short text with templates is first tried
    in one pass (each template part is an item); else, or if that is in doubt, a simple
    template is one item at first and a second ``findall`` splits it into its parts and the
    tokens of its substitutions. None if the text needs the precise lexer."""
    if "`" in source and len(source) <= _ONE_PASS_MAX:
        lexed = _lex(source, _ONE_PASS)
        if lexed is not None:
            return lexed
    return _lex(source, _FAST)


def _lex(source: str, pattern: re.Pattern[str]) -> Lexed | None:
    """:func:`fast_lex` with the regex ``pattern`` (``_FAST`` or ``_ONE_PASS``)."""
    # (Trailing whitespace is left out: no token follows it, so each try from a position in it
    # would scan the rest of it before failing: quadratic in its length.)
    items = pattern.findall(source, 0, len(source.rstrip(" \t\n\r")))
    texts: list[Any] = list(map(str.lstrip, items))
    try:
        kinds: list[Any] = list(map(_FIRST_KIND.__getitem__, map(_first_char, texts)))
    except IndexError:  # an empty text: something the fast regex does not know
        return None
    if _may_hold_op(source):  # (remapping costs more than the test, in a long text too)
        kinds = _op_kinds(texts, kinds)
    if texts and texts[-1].startswith("/*"):
        last = texts[-1]
        if len(last) < 4 or not last.endswith("*/"):  # an unterminated comment
            return None
    count = kinds.count(None) if "/" in source else 0
    if count:  # comments: their text becomes part of the next item's whitespace
        # A run of consecutive comments is joined once, with the item after it (joining one
        # comment at a time into the next would copy the run again for each: quadratic).
        # (A division's `/` or `/=` starts like a comment: it is an operator.)
        index = kinds.index
        last = len(kinds) - 1
        i = 0
        run = -1  # first comment of the current run
        comments: list[int] = []
        for _ in range(count):
            i = index(None, i)
            text = texts[i]
            if text == "/" or text == "/=":
                before = (run if run >= 0 else i) - 1
                kind = kinds[before] if before >= 0 else None
                if kind not in DIVIDES_AFTER or (
                    kind == "name" and texts[before] in REGEX_AFTER_WORDS
                ):  # a regular expression (`f(/x/)`, `return /x/`): the precise lexer reads it
                    return None
                kinds[i] = "op"
                if run >= 0:
                    items[i] = "".join(items[run : i + 1])
                    run = -1
                i += 1
                continue
            comments.append(i)
            if run < 0:
                run = i
            if i < last and kinds[i + 1] is not None:
                items[i + 1] = "".join(items[run : i + 2])
                run = -1
            i += 1
        if len(comments) <= _FEW_COMMENTS:  # (a comment or two: deleting is cheaper)
            for i in reversed(comments):
                del items[i], texts[i], kinds[i]
        else:
            items = list(compress(items, kinds))
            texts = list(compress(texts, kinds))
            kinds = list(filter(None, kinds))
    parts: dict[int, int] | None = None
    if pattern is _ONE_PASS:
        parts = {}
        if not _template_parts(kinds, texts, parts):
            return None
    elif "`" in source and "`" in kinds:
        parts = {}
        templates = _templates(items, kinds, texts, parts)
        if templates is None:
            return None
        items, kinds, texts = templates
    kinds.append("eof")
    texts.append(None)
    return Lexed(source, kinds, texts, items, parts)


# Inside a template, the first character tells the kind: `\`` starts the head, and every `}`
# (substitutions hold no braces) starts a middle part (the last part, the tail, is set apart).
_PART_KIND = {**_FIRST_KIND, "`": "tplh", "}": "tplm"}
_FEW_TEMPLATES = 8


def _templates(
    items: list[str], kinds: list[Any], texts: list[Any], parts: dict[int, int]
) -> tuple[list[str], list[Any], list[Any]] | None:
    """The tokens with each simple template token split into its parts and the tokens of its
    substitutions (``parts`` gets the raw length of each part); None if the precise lexer must
    handle it (it reports bad escapes). A few templates are spliced into the lists in place;
    many are copied into new lists once (splicing each would move the tail again: quadratic)."""
    count = kinds.count("`")
    few = count <= _FEW_TEMPLATES
    if few:
        new_items, new_kinds, new_texts = items, kinds, texts
    else:
        new_items, new_kinds, new_texts = [], [], []
    index = kinds.index
    done = 0  # (many) tokens before this are in the new lists
    i = 0
    for _ in range(count):  # (counted: a failed search's ValueError costs more than a count)
        i = index("`", i)
        sub_items = _FAST_TEMPLATE.findall(texts[i])
        sub_texts: list[Any] = list(map(str.lstrip, sub_items))
        try:
            sub_kinds: list[Any] = list(map(_PART_KIND.__getitem__, map(_first_char, sub_texts)))
        except IndexError:  # an empty text: something the fast regex does not know
            return None
        if _may_hold_op(texts[i]):
            sub_kinds = _op_kinds(sub_texts, sub_kinds)
        item = items[i]
        text = texts[i]
        if len(item) != len(text):
            sub_items[0] = item[: len(item) - len(text)] + sub_items[0]
        # where the template starts in the new lists (many: after the tokens before it)
        at = i if few else len(new_kinds) + i - done
        # the template parts: the first item and every "}"; the last one ends with "`"
        last = len(sub_texts) - 1
        find = sub_kinds.index
        j = 0
        while True:
            text = sub_texts[j]
            parts[at + j] = len(text)
            raw = text[1:-1] if j == last else text[1:-2]
            if "\\" in raw or "\r" in raw:
                try:
                    raw = cook(raw, True)
                except LexError:
                    return None
            sub_texts[j] = raw
            if j == last:
                sub_kinds[j] = "tplt" if j else "tpl"
                break
            j = find("tplm", j + 1)
        if few:
            items[i : i + 1] = sub_items
            kinds[i : i + 1] = sub_kinds
            texts[i : i + 1] = sub_texts
            i += last + 1
        else:
            new_items += items[done:i]
            new_kinds += kinds[done:i]
            new_texts += texts[done:i]
            new_items += sub_items
            new_kinds += sub_kinds
            new_texts += sub_texts
            i += 1
            done = i
    if not few:
        new_items += items[done:]
        new_kinds += kinds[done:]
        new_texts += texts[done:]
    return new_items, new_kinds, new_texts


def _template_parts(kinds: list[Any], texts: list[Any], parts: dict[int, int]) -> bool:
    """Give the template tokens of a one-pass lexing (``_ONE_PASS``) their kinds and cooked
    values (``parts``: the raw length of each); False if the lexing is in doubt: a part that
    follows no head (an object's `}` read as one), a brace or a nested template inside a
    substitution, an escape the precise lexer must report. One walk over the heads (kind
    "`") and the "}" items, in order."""
    n = len(kinds)
    kinds += _SENTINELS  # (so that each search finds something: no ValueError to catch)
    index = kinds.index
    head = index("`")
    close = index("}")
    while True:
        if close < head:  # a "}" outside any template: it must be a lone "}"
            if texts[close] != "}":
                return False
            close = index("}", close + 1)
            continue
        if head == n:
            break
        i = head
        text = texts[i]
        parts[i] = len(text)
        kind = "tpl" if text[-1] == "`" else "tplh"
        while True:  # the head, then each part after a substitution up to the tail
            raw = text[1:-1] if kind == "tpl" or kind == "tplt" else text[1:-2]
            if "\\" in raw or "\r" in raw:
                try:
                    raw = cook(raw, True)
                except LexError:
                    return False
            kinds[i] = kind
            texts[i] = raw
            if kind == "tpl" or kind == "tplt":
                break
            # the substitution: up to the next "}", which must be a part
            if close >= n:
                return False
            text = texts[close]
            if text == "}" or not _CODE.isdisjoint(kinds[i + 1 : close]):
                return False
            parts[close] = len(text)
            kind = "tplt" if text[-1] == "`" else "tplm"
            i = close
            close = index("}", close + 1)
        head = index("`", i + 1)
    del kinds[n:]
    return True


_SENTINELS = ("`", "}")

#: what a substitution of the one-pass lexing cannot hold (see `_template_parts`)
_CODE = frozenset(["{", "`"])
