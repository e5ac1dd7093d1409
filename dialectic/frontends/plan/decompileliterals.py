"""Plan literals for :mod:`.decompile`: strings, template texts, numbers, identifiers, keys
and regular expressions written as Plan reads them back, and :class:`DecompileError`, the
refusal of a tree with no Plan text."""

from __future__ import annotations

import math
import re
from typing import Any

from dialectic.frontends.plan.jsnumber import js_number_to_string
from dialectic.frontends.plan.keywords import LITERAL_WORDS, RESERVED, is_identifier_name
from dialectic.frontends.plan.literals import LexError, regex_end
from dialectic.values.jsnumber import as_double, show_integer

__all__ = [
    "DecompileError",
    "identifier",
    "key_text",
    "number_literal",
    "regex_literal",
    "string_literal",
    "template_text",
]

_STRING_ESCAPES = {
    "\\": "\\\\",
    "'": "\\'",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
    "\v": "\\v",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
_NEEDS_ESCAPE = re.compile("[\\\\'\x00-\x1f\x7f\u2028\u2029\ud800-\udfff]")
_TEMPLATE_NEEDS_ESCAPE = re.compile("[\\\\`\r\ud800-\udfff]|\\$\\{")


class DecompileError(ValueError):
    """The tree has no Plan equivalent (or is not a valid call tree)."""


def _escape_char(m: re.Match[str]) -> str:
    char = m.group()
    simple = _STRING_ESCAPES.get(char)
    if simple is not None:
        return simple
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def string_literal(text: str) -> str:
    """``text`` as a single-quoted Plan/JavaScript string literal."""
    return "'" + _NEEDS_ESCAPE.sub(_escape_char, text) + "'"


def _escape_template(m: re.Match[str]) -> str:
    s = m.group()
    if s == "\r":
        return "\\r"
    if len(s) == 1 and "\ud800" <= s <= "\udfff":
        return f"\\u{ord(s):04x}"
    return "\\" + s


def template_text(text: str) -> str:
    """``text`` as the text of a template literal (`` ` ``, ``\\``, ``${`` escaped)."""
    return _TEMPLATE_NEEDS_ESCAPE.sub(_escape_template, text)


def number_literal(value: int | float) -> str:
    """A number as a literal Plan reads back as the same value (and type)."""
    if type(value) is int:
        if -(2**53) <= value <= 2**53 or as_double(value) == value:
            return str(value)
        raise DecompileError(
            f"the integer {show_integer(value)} has no literal in Plan: JavaScript would read it "
            "as a different number (beyond 2**53 only some integers are exact)"
        )
    if math.isnan(value):
        raise DecompileError("NaN has no literal in Plan (a run does not hold NaN)")
    if math.isinf(value):
        return "Infinity" if value > 0 else "(-Infinity)"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    text = js_number_to_string(value)
    if "." not in text and "e" not in text:
        text += ".0"  # keep it a float: integer lexemes parse to int
    return text


def identifier(name: str, what: str) -> str:
    """``name`` when it is a Plan identifier, else :class:`DecompileError` (``what``: what it
    names)."""
    if not is_identifier_name(name) or name in RESERVED or name in LITERAL_WORDS:
        raise DecompileError(f"{what} {name!r} is not a valid Plan identifier")
    return name


def key_text(key: str) -> str:
    """An object key as written in a literal: a name, else a string literal."""
    return key if is_identifier_name(key) else string_literal(key)


def regex_literal(args: list[Any]) -> str | None:
    """``/source/flags`` for a regex's constant pattern and flags that read back as the same
    literal; None for any other (written ``new RegExp(source, flags)``)."""
    if not args or len(args) > 2 or not all(type(a) is str for a in args):
        return None
    source, flags = args[0], args[1] if len(args) > 1 else ""
    text = f"/{source}/{flags}"
    if not source or source.startswith("*") or (not flags.isalpha() and flags):
        return None
    try:
        end = regex_end(text, 0)
    except LexError:
        return None
    return text if end == len(text) and text.rindex("/") == len(source) + 1 else None
