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
- ``"re"`` (a regular expression literal ``/source/flags``, where a `/` starts an expression as
  JavaScript decides by the previous token; value: its text),
- ``"op"`` (any other JavaScript operator, kept only to explain that Plan has none),
- ``"err"`` (value: ``(message, hint)``; the lexer goes on after it), ``"eof"``.

Speed: the common case (ASCII whitespace, names, punctuation, operators, strings, decimal
numbers, comments, templates whose substitutions hold no braces, backticks, comments or
backslashes) is tokenized by one ``findall`` (a short text's templates in the same pass; else
one more per template) and a few C-level list operations, without a Python loop per token.
Anything unusual (errors, other whitespace, nested templates) goes through the precise
per-token loop; a program the fast path has doubts about is re-lexed by it.
"""

from __future__ import annotations

import re
from typing import Any

from dialectic.frontends.plan.fastlex import Lexed, Token, Tokens, fast_lex
from dialectic.frontends.plan.literals import LexError, cook, divides, number_value, regex_end

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
_IDENT_CHAR = re.compile(r"[A-Za-z0-9_$]")


def _err(message: str, hint: str | None = None) -> tuple[str, str | None]:
    return (message, hint)


def _line_end(source: str, pos: int) -> int:
    m = LINE_TERMINATORS.search(source, pos)
    return m.start() if m else len(source)


def tokenize(source: str) -> list[Token]:
    """All tokens of ``source`` as ``(kind, value, start, end)``, ending with ``"eof"``."""
    return list(zip(*tokenize_lists(source), strict=True))


def tokenize_lists(source: str) -> Tokens:
    """All tokens of ``source`` as parallel lists, ending with an ``"eof"`` token."""
    return lex(source).lists()


def lex(source: str) -> Lexed:
    """All tokens of ``source``, ending with an ``"eof"`` token."""
    fast = fast_lex(source)
    if fast is None:
        out: Tokens = ([], [], [], [])
        _precise(source, 0, out)
        return Lexed(source, out[0], out[1], None, None, (out[2], out[3]))
    return fast


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
        elif (
            (kind == 5 or kind == 11)
            and text[0] == "/"
            and not (kinds and divides(kinds[-1], values[-1]))
        ):  # a regular expression: `/` where an expression starts
            try:
                pos = regex_end(source, start)
            except LexError as e:
                pos = _line_end(source, start)
                append("err", _err(e.message, e.hint), start, pos)
                continue
            append("re", source[start:pos], start, pos)
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
