"""Plan literals: the value of a string or template part (:func:`cook`) and of a number
(:func:`number_value`); both raise :class:`LexError` for what Plan rejects."""

from __future__ import annotations

import re

__all__ = [
    "DIVIDES_AFTER",
    "REGEX_AFTER_WORDS",
    "LexError",
    "cook",
    "divides",
    "number_value",
    "regex_end",
]

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
    """``value`` when JavaScript holds it exactly (always up to 2**53); an integer lexeme
    JavaScript would read as a different number (``9007199254740993`` is
    ``9007199254740992``) is refused: the program would not mean what it says."""
    if value <= _MAX_SAFE:
        return value
    try:
        held = float(value)
    except OverflowError:  # rounds to 2**1024 or more: Infinity in JavaScript
        raise _too_large(text) from None
    if held == value:
        return value
    shown = _show(text)
    raise LexError(
        f"the integer {shown} is beyond 2**53: JavaScript reads it as {int(held)}, a different "
        "number",
        0,
        hint=f"if it is an id, write it as text ('{shown}'); for the number JavaScript holds, "
        f"write {int(held)}",
    )


def number_value(text: str) -> int | float:
    """The value of a numeric literal's text; raises :class:`LexError` if Plan rejects it.

    An integer lexeme beyond 2**53 is kept (an int) when a double holds it exactly, else it is
    an error (JavaScript would read a different number), as is a number beyond the double range
    (JavaScript would read it as Infinity)."""
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


#: the words after which a `/` starts a regular expression, as in JavaScript (after any other
#: name, a number, a string, a template, `)`, `]` or `}`, it divides)
REGEX_AFTER_WORDS = frozenset(
    [
        "return",
        "typeof",
        "case",
        "do",
        "else",
        "in",
        "of",
        "new",
        "delete",
        "void",
        "instanceof",
        "yield",
        "await",
        "throw",
    ]
)
DIVIDES_AFTER = frozenset(["name", "num", "str", "tpl", "tplt", ")", "]", "}"])


def divides(kind: str | None, value: object) -> bool:
    """Whether a `/` after a token of ``kind`` and ``value`` divides (else it starts a
    regular expression): JavaScript's rule by the previous token."""
    if kind not in DIVIDES_AFTER:
        return False
    return kind != "name" or value not in REGEX_AFTER_WORDS


def regex_end(source: str, start: int) -> int:
    """The end of the regular expression literal at ``start`` (its `/`), flags included;
    :class:`LexError` (offset from ``start``) if it is not closed on its line."""
    i = start + 1
    n = len(source)
    in_class = False
    while i < n:
        c = source[i]
        if c in "\n\r\u2028\u2029":
            break
        if c == "\\":
            i += 2
            if i > n or source[i - 1] in "\n\r\u2028\u2029":
                break
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            i += 1
            while i < n and (source[i].isascii() and (source[i].isalnum() or source[i] in "_$")):
                i += 1
            return i
        i += 1
    raise LexError(
        "unterminated regular expression /...",
        0,
        "close it with / on the same line (write \\/ for a slash inside it)",
    )
