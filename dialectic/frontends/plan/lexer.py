"""The Plan lexer: one compiled master regex, one ``match`` per token.

Tokens are parallel lists ``(kinds, values, starts, ends)`` (0-based offsets); :func:`lex`
returns them as a :class:`Lexed`, whose offsets are worked out only when first asked for.
Kinds:

- ``"name"`` (identifier or keyword; value: the text), ``"num"`` (value: the raw text; see
  :func:`number_value`), ``"str"`` (value: the raw text with quotes; see :func:`cook`),
  ``"tpl"`` (a template without substitutions; value: cooked text), ``"tplh"`` / ``"tplm"`` /
  ``"tplt"`` (template head ``\\`...${``, middle ``}...${`` and tail ``}...\\```; value: cooked
  text),
- single-character punctuation ``( ) [ ] { } , ; : . = + -`` (kind and value are the text),
- ``"op"`` (any other JavaScript operator, kept only to explain that Plan has none),
- ``"err"`` (value: ``(message, hint)``; the lexer goes on after it), ``"eof"``.

Speed: the common case (ASCII whitespace, names, punctuation, strings, decimal numbers,
comments, templates whose substitutions hold no braces, backticks, comments or backslashes) is
tokenized by one ``findall`` (plus one per template) and a few C-level list operations, without
a Python loop per token. Anything unusual (errors, operators, other whitespace, nested
templates) goes through the precise per-token loop; a program the fast path has doubts about is
re-lexed by it.
"""

from __future__ import annotations

import re
from itertools import accumulate, compress, islice
from operator import itemgetter, sub
from typing import Any

Tokens = tuple[list[str], list[Any], list[int], list[int]]
Token = tuple[str, Any, int, int]

__all__ = [
    "Token",
    "Tokens",
    "Lexed",
    "lex",
    "tokenize",
    "tokenize_lists",
    "cook",
    "number_value",
    "LexError",
    "LINE_TERMINATORS",
]

# JavaScript WhiteSpace and LineTerminator code points.
_WS_CHARS = (
    "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)
LINE_TERMINATORS = re.compile("[\n\r\u2028\u2029]")

_MASTER = re.compile(
    rf"(?:[{_WS_CHARS}]+|//[^\n\r\u2028\u2029]*|/\*[\s\S]*?\*/)*"
    r"(?:"
    r"([A-Za-z_$][A-Za-z0-9_$]*)"  # 1 name
    r"|([()\[\]{},;:])"  # 2 punctuation
    r"|('(?:[^'\\\n\r]|\\(?:\r\n|[\s\S]))*'|\"(?:[^\"\\\n\r]|\\(?:\r\n|[\s\S]))*\")"  # 3 string
    # 4 number (ASCII digits only: `\d` would match any Unicode digit, such as U+0663)
    r"|(0[xXoObB][0-9a-zA-Z_]*|(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)"
    r"(?:[eE][+-]?[0-9_]*)?)"
    r"|(=>|\.\.\.|\?\.|[=!]==?|<<=?|>>>?=?|[<>]=?|&&=?|\|\|=?|\?\?=?|\*\*=?|\+\+|--"
    r"|[-+*/%&|^]=)"  # 5 operator (multi-character)
    r"|([.=+\-])"  # 6 punctuation that is also part of operators
    r"|(`(?:[^`\\$]|\\[\s\S]|\$(?!\{))*(?:`|\$\{))"  # 7 template start
    r"|(/\*)"  # 8 unterminated comment
    r"|(['\"])"  # 9 unterminated string
    r"|(`)"  # 10 unterminated template
    r"|([*/%&|^!~?<>@#])"  # 11 single-character operator
    r"|(\Z)"  # 12 end
    r"|([\s\S])"  # 13 anything else
    r")"
)
_TEMPLATE_CONTINUE = re.compile(r"(?:[^`\\$]|\\[\s\S]|\$(?!\{))*(?:`|\$\{)")
_ESCAPE = re.compile(
    r"\\(?:x([0-9a-fA-F]{2})|u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|(\r\n|[\n\r\u2028\u2029])"
    r"|([\s\S]))"
)
_SURROGATE = re.compile("[\ud800-\udfff]")
_SIMPLE_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "b": "\b",
    "f": "\f",
    "v": "\v",
}
_IDENT_CHAR = re.compile(r"[A-Za-z0-9_$]")
_ASCII_DIGITS = frozenset("0123456789")
_MAX_SAFE = 2**53


class LexError(Exception):
    """A bad literal: ``offset`` is relative to the start of the literal's text."""

    def __init__(self, message: str, offset: int, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


def _unescape(m: re.Match[str]) -> str:
    hex2, brace, hex4, newline, char = m.groups()
    if hex2 is not None:
        return chr(int(hex2, 16))
    if hex4 is not None:
        return chr(int(hex4, 16))
    if brace is not None:
        code = int(brace, 16)
        if code > 0x10FFFF:
            raise LexError(
                f"the escape \\u{{{brace}}} is beyond the last Unicode code point 10FFFF",
                m.start(),
            )
        return chr(code)
    if newline is not None:
        return ""  # line continuation
    simple = _SIMPLE_ESCAPES.get(char)
    if simple is not None:
        return simple
    if char == "0":
        following = m.string[m.end() : m.end() + 1]
        if not following or following not in _ASCII_DIGITS:
            return "\0"
    if char in _ASCII_DIGITS:
        raise LexError(
            f"the escape \\{char} (a legacy octal escape) is not allowed",
            m.start(),
            hint="write \\xHH or \\uHHHH, e.g. \\x00 for the NUL character",
        )
    if char == "x":
        raise LexError(
            "\\x must be followed by exactly two hexadecimal digits", m.start(), hint="e.g. \\x41"
        )
    if char == "u":
        raise LexError(
            "\\u must be followed by four hexadecimal digits or {hex digits}",
            m.start(),
            hint="e.g. \\u00e9 or \\u{1F600}",
        )
    return char  # identity escape: \' \" \\ \` \$ and any other character


def cook(raw: str, template: bool) -> str:
    """The value of a string literal's or template part's text (between the delimiters).

    Raises :class:`LexError` with an offset relative to ``raw``.
    """
    if template and "\r" in raw:
        # JavaScript normalizes raw CR LF and CR in templates to LF (escaped \r is kept).
        raw = raw.replace("\r\n", "\n").replace("\r", "\n")
    if "\\" not in raw:
        return raw
    text = _ESCAPE.sub(_unescape, raw)
    if _SURROGATE.search(text):
        try:
            text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeDecodeError:
            raise LexError(
                "the string contains a lone UTF-16 surrogate (\\uD800-\\uDFFF), which is not "
                "valid Unicode text",
                0,
                hint="write the character itself or its code point, e.g. \\u{1F600}",
            )
    return text


# Beyond these lengths (leading zeros removed) an integer literal is at least 2**1024, past the
# largest double, and is refused before any conversion (``int()`` refuses decimal text longer
# than 4300 digits, and ``float(int)`` raises OverflowError).
_MAX_DECIMAL_DIGITS = 309  # the largest double has 309 digits
_MAX_DIGITS = {16: 256, 8: 342, 2: 1024}  # 4, 3 and 1 bits per digit
_BASE_DIGITS = {
    16: frozenset("0123456789abcdefABCDEF"),
    8: frozenset("01234567"),
    2: frozenset("01"),
}


def _show(text: str) -> str:
    """``text`` shortened for a message."""
    return text if len(text) <= 40 else text[:20] + "..." + text[-8:]


def _too_large(text: str) -> LexError:
    return LexError(
        "the number is too large (it would be Infinity)",
        0,
        hint="Plan numbers must fit a double (at most about 1.8e308); write a larger value as "
        "a string, e.g. '" + ("1e999" if len(text) > 40 else text) + "'",
    )


def _nearest_double(value: int, text: str) -> int:
    """``value`` as JavaScript holds it: exact up to 2**53, else the nearest double."""
    if value <= _MAX_SAFE:
        return value
    try:
        return int(float(value))
    except OverflowError:  # rounds to 2**1024 or more: Infinity in JavaScript
        raise _too_large(text) from None


def number_value(text: str) -> int | float:
    """The value of a numeric literal's text; raises :class:`LexError` if Plan rejects it.

    Integer lexemes beyond 2**53 become the nearest double (as an int); a number beyond the
    double range is an error (JavaScript would read it as Infinity)."""
    if not text.isascii():  # only ASCII digits are digits (str.isdigit accepts U+0663)
        raise LexError(f"{_show(text)} is not a valid number", 0, hint="write digits as 0-9")
    if text.isdigit() and (len(text) < 2 or text[0] != "0") and len(text) < 16:
        return int(text)
    if "_" in text:
        raise LexError(
            "numeric separators (_) are not supported",
            text.index("_"),
            hint=f"write the number without them: {_show(text.replace('_', ''))}",
        )
    if len(text) > 1 and text[0] == "0" and text[1] in "xXoObB":
        digits = text[2:]
        base = {"x": 16, "o": 8, "b": 2}[text[1].lower()]
        if not digits or not _BASE_DIGITS[base].issuperset(digits):
            raise LexError(f"{_show(text)} is not a valid number", 0)
        if len(digits.lstrip("0")) > _MAX_DIGITS[base]:
            raise _too_large(text)
        return _nearest_double(int(digits, base), text)
    if len(text) > 1 and text[0] == "0" and text[1].isdigit():
        raise LexError(
            f"numbers cannot start with 0 ({_show(text)})",
            0,
            hint=f"write {_show(text.lstrip('0')) or '0'}; a leading 0 means octal in old "
            "JavaScript",
        )
    if text.isdigit():
        if len(text) > _MAX_DECIMAL_DIGITS:
            raise _too_large(text)
        return _nearest_double(int(text), text)
    if text[-1] in "eE+-":
        raise LexError(
            f"the exponent of {_show(text)} has no digits", len(text) - 1, hint="e.g. 1e3"
        )
    result = float(text)
    if result == float("inf"):
        raise _too_large(text)
    return result


# Template text, and a whole template whose substitutions hold no braces, backticks, comments
# or backslashes (strings are allowed): the fast path lexes it in one more ``findall``.
_TEXT = r"(?:[^`\\$]|\\[\s\S]|\$(?!\{))*"
_STRINGS = r"'(?:[^'\\\n\r]|\\(?:\r\n|[\s\S]))*'|\"(?:[^\"\\\n\r]|\\(?:\r\n|[\s\S]))*\""
_SIMPLE_TEMPLATE = rf"`{_TEXT}(?:\$\{{(?:[^{{}}`'\"/\\]|{_STRINGS})*\}}{_TEXT})*`"
_FAST_TOKENS = (
    r"[A-Za-z_$][A-Za-z0-9_$]*"
    r"|[()\[\]{},;:]|\.(?![.0-9])|=(?![=>])|[-+](?![-+=])"
    rf"|{_STRINGS}"
    r"|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?(?![A-Za-z0-9_$.])"
    r"|//[^\n\r\u2028\u2029]*|/\*[\s\S]*?\*/"
)
_FAST = re.compile(
    r"[ \t\n\r]*(?:"  # each match is a token with the whitespace before it
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


def _err(message: str, hint: str | None = None) -> tuple[str, str | None]:
    return (message, hint)


def _line_end(source: str, pos: int) -> int:
    m = LINE_TERMINATORS.search(source, pos)
    return m.start() if m else len(source)


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


def tokenize(source: str) -> list[Token]:
    """All tokens of ``source`` as ``(kind, value, start, end)``, ending with ``"eof"``."""
    return list(zip(*tokenize_lists(source), strict=True))


def tokenize_lists(source: str) -> Tokens:
    """All tokens of ``source`` as parallel lists, ending with an ``"eof"`` token."""
    return lex(source).lists()


def lex(source: str) -> Lexed:
    """All tokens of ``source``, ending with an ``"eof"`` token."""
    fast = _fast(source)
    if fast is None:
        out: Tokens = ([], [], [], [])
        _precise(source, 0, out)
        return Lexed(source, out[0], out[1], None, None, (out[2], out[3]))
    return fast


def _fast(source: str) -> Lexed | None:
    """The fast path: one ``findall`` (each found item is a token with the whitespace before
    it; the items tile the text), then C-level list operations for the kinds. Comments are
    merged into the whitespace of the next item. A simple template is one item at first; a
    second ``findall`` splits it into its parts and the tokens of its substitutions. None if
    the text needs the precise lexer."""
    items = _FAST.findall(source)
    texts: list[Any] = list(map(str.lstrip, items))
    if "" in texts:
        return None  # something the fast regex does not know
    kinds: list[Any] = list(map(_FIRST_KIND.__getitem__, map(_first_char, texts)))
    if None in kinds:  # comments: their text becomes part of the next item's whitespace
        # A run of consecutive comments is joined once, with the item after it (joining one
        # comment at a time into the next would copy the run again for each: quadratic).
        count = kinds.count(None)
        index = kinds.index
        last = len(kinds) - 1
        i = 0
        run = -1  # first comment of the current run
        for _ in range(count):
            i = index(None, i)
            if run < 0:
                run = i
            if i < last and kinds[i + 1] is not None:
                items[i + 1] = "".join(items[run : i + 2])
                run = -1
            i += 1
        items = list(compress(items, kinds))
        texts = list(compress(texts, kinds))
        kinds = list(filter(None, kinds))
    parts: dict[int, int] | None = None
    if "`" in kinds:
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


def _glued_number(source: str, start: int, pos: int) -> tuple[tuple[str, str | None], int]:
    """The error for a number (``start`` to ``pos``) followed directly by identifier characters,
    and the end of those characters."""
    following = source[pos : pos + 1]
    end = pos
    while end < len(source) and _IDENT_CHAR.match(source, end):
        end += 1
    if following == "n" and end == pos + 1:
        return _err("BigInt literals (10n) are not supported", "write a plain number"), end
    return (
        _err(
            f"invalid number {source[start:end]!r}",
            "a number cannot be followed directly by a letter",
        ),
        end,
    )


def _unexpected_char(text: str) -> tuple[str, str | None]:
    """The error for a character that starts no token."""
    if text == "\\":
        return _err("unexpected backslash \\", "escapes are only allowed inside strings")
    if ord(text) > 127 and text.isdecimal():
        return _err(
            f"{text!r} (U+{ord(text):04X}) is not a digit in Plan",
            "write numbers with the ASCII digits 0-9",
        )
    if ord(text) > 127 and text.isalpha():
        return _err(
            f"identifiers must be ASCII (found {text!r})",
            "use ASCII letters, digits, _ and $ in names; other text belongs in strings",
        )
    return _err(f"unexpected character {text!r}", "strings are quoted with ' or \"")


def _precise(source: str, pos: int, out: Tokens) -> None:
    """The per-token loop (the reference lexer): lex from ``pos`` to the end, ``eof`` included."""
    match = _MASTER.match
    kinds, values, starts, ends = out

    def append(kind: str, value: Any, start: int, end: int) -> None:
        kinds.append(kind)
        values.append(value)
        starts.append(start)
        ends.append(end)

    braces = 0
    templates: list[int] = []  # brace depth at each open ``${``
    while True:
        m = match(source, pos)
        assert m is not None  # the last alternatives match anything
        kind = m.lastindex
        assert kind is not None
        start, pos = m.span(kind)
        text = source[start:pos]
        if kind == 1:
            append("name", text, start, pos)
        elif kind == 2:
            if text == "{":
                braces += 1
            elif text == "}":
                if templates and templates[-1] == braces:
                    templates.pop()
                    m2 = _TEMPLATE_CONTINUE.match(source, pos)
                    if m2 is None:
                        append(
                            "err",
                            _err("unterminated template literal", "close it with a backtick `"),
                            start,
                            len(source),
                        )
                        pos = len(source)
                        continue
                    pos = m2.end()
                    raw = source[start + 1 : pos]
                    if raw[-1] == "`":
                        tok_kind, raw = "tplt", raw[:-1]
                    else:
                        tok_kind, raw = "tplm", raw[:-2]
                        templates.append(braces)
                    try:
                        append(tok_kind, cook(raw, True), start, pos)
                    except LexError as e:
                        append("err", _err(e.message, e.hint), start + 1 + e.offset, pos)
                    continue
                braces -= 1
            append(text, text, start, pos)
        elif kind == 3:
            append("str", text, start, pos)
        elif kind == 4:
            following = source[pos : pos + 1]
            if following and _IDENT_CHAR.match(following):
                error, pos = _glued_number(source, start, pos)
                append("err", error, start, pos)
                continue
            append("num", text, start, pos)
        elif kind == 6:
            append(text, text, start, pos)
        elif kind == 7:
            if text[-1] == "`":
                raw, tok_kind = text[1:-1], "tpl"
            else:
                raw, tok_kind = text[1:-2], "tplh"
                templates.append(braces)
            try:
                append(tok_kind, cook(raw, True), start, pos)
            except LexError as e:
                append("err", _err(e.message, e.hint), start + 1 + e.offset, pos)
        elif kind == 5 or kind == 11:
            append("op", text, start, pos)
        elif kind == 12:
            append("eof", None, start, start)
            return
        elif kind == 9:
            pos = _line_end(source, pos)
            append(
                "err",
                _err(
                    "unterminated string",
                    f"close the string with {text} on the same line; write a line break as \\n",
                ),
                start,
                pos,
            )
        elif kind == 8:
            append(
                "err", _err("unterminated comment /* ...", "close it with */"), start, len(source)
            )
            pos = len(source)
        elif kind == 10:
            append(
                "err",
                _err("unterminated template literal", "close it with a backtick `"),
                start,
                len(source),
            )
            pos = len(source)
        else:
            append("err", _unexpected_char(text), start, pos)
