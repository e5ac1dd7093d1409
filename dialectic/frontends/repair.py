"""JSON as models write it: comments, trailing commas, single quotes, unquoted keys, Python's
``True``/``False``/``None`` (SPEC.md section 9, "Envelopes and repairs").

Only text that is not JSON as written comes here. One linear pass (:func:`scan`) checks the text
against JSON plus exactly these five repairs and records where each repair is needed; anything
else that is not JSON (a truncated document, a missing comma, ``NaN``, ``0x10``, ``+1``) is an
error at its line and column, never completed or guessed. In lenient mode the text is then read
by `pyjson5 <https://pypi.org/project/pyjson5/>`_ (a JSON5 parser; the scan has already refused
everything JSON5 allows beyond the five repairs), with one warning per kind of repair; in strict
mode each repair is an error saying what to write instead.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
import pyjson5

from dialectic.frontends.base import SourceError
from dialectic.frontends.duplicates import duplicate_words
from dialectic.outcome.errors import SyntaxProblem

#: the nesting orjson accepts; a deeper repaired text is refused the same way
MAX_NESTING = 1024

COMMENT = "comment"
TRAILING_COMMA = "trailing_comma"
SINGLE_QUOTES = "single_quotes"
UNQUOTED_KEY = "unquoted_key"
PYTHON_LITERAL = "python_literal"
KINDS = (COMMENT, TRAILING_COMMA, SINGLE_QUOTES, UNQUOTED_KEY, PYTHON_LITERAL)

_WS = re.compile(r"[ \t\r\n]*")
_STR_BODY = re.compile(r'(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*')
_SQ_BODY = re.compile(r"(?:[^'\\\x00-\x1f]|\\(?:['\"\\/bfnrt]|u[0-9a-fA-F]{4}))*")
_PYTHON = {"True": "true", "False": "false", "None": "null"}
_JSON_WORDS = ("true", "false", "null")

# parser states
_VALUE, _VALUE_OR_CLOSE, _VALUE_AFTER_COMMA = 0, 1, 2
_KEY_OR_CLOSE, _KEY_AFTER_COMMA, _COLON, _AFTER, _END = 3, 4, 5, 6, 7


@dataclass
class Site:
    """Where one repair is needed: its kind, 0-based offset and what was written there."""

    kind: str
    offset: int
    text: str


class ScanError(Exception):
    """What the scan refuses: a syntax error (``invalid``), or a key written twice."""

    def __init__(self, offset: int, message: str, hint: str, *, invalid: bool = True) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message
        self.hint = hint
        self.invalid = invalid


@dataclass
class Scan:
    """What :func:`scan` found: the repairs needed, in order, and the first error (if any)."""

    sites: list[Site] = field(default_factory=list)
    error: ScanError | None = None


def _describe(ch: str) -> str:
    if ch == "":
        return "the end of the text"
    if ch.isprintable() and not ch.isspace():
        return f"`{ch}`"
    return f"the character U+{ord(ch):04X}"


def _string_error(text: str, start: int, end: int, quote: str) -> ScanError:
    """Why the string opened at ``start`` stops being valid at ``end``."""
    ch = text[end : end + 1]
    if ch in ("", "\n", "\r"):
        return ScanError(
            start,
            "this string is never closed (the text ends or the line breaks inside it)",
            f"Close the string with {quote}; a line break inside a string is written \\n. "
            "A truncated program is not completed: send the whole program.",
        )
    if ch == "\\":
        esc = text[end : end + 2]
        return ScanError(
            end,
            f"`{esc}` is not a JSON escape",
            'JSON escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX'
            + ("; write ' without a backslash." if esc == "\\'" else "."),
        )
    return ScanError(
        end,
        f"{_describe(ch)} inside a string must be escaped",
        "Write control characters as escapes (\\t, \\n, \\u0000).",
    )


_TOKEN = re.compile(
    r"""[ \t\r\n]*(?:
     (?P<open>[{\[])
    |(?P<close>[}\]])
    |(?P<comma>,)
    |(?P<colon>:)
    |(?P<str>"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*")
    |(?P<word>[A-Za-z_$][A-Za-z0-9_$]*)
    |(?P<num>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![0-9A-Za-z_.$+-]))
    |(?P<sq>'(?:[^'\\\x00-\x1f]|\\(?:['"\\/bfnrt]|u[0-9a-fA-F]{4}))*')
    |(?P<lc>//[^\n]*)
    |(?P<bc>/\*.*?\*/)
    |(?P<end>\Z)
    )""",
    re.X | re.S,
)
_RUN = re.compile(r"[-+.0-9A-Za-z_$]+")


def _token_error(text: str, pos: int) -> ScanError:
    """Why no token starts at ``pos``."""
    ch = text[pos : pos + 1]
    if ch == '"' or ch == "'":
        body = (_STR_BODY if ch == '"' else _SQ_BODY).match(text, pos + 1)
        return _string_error(text, pos, body.end() if body else pos + 1, ch)
    if text.startswith("/*", pos):
        return ScanError(pos, "this comment is never closed", "Close it with */ (or remove it).")
    if ch and ch in "-+.0123456789":
        run = _RUN.match(text, pos)
        shown = run.group()[:40] if run else ch
        return ScanError(
            pos,
            f"`{shown}` is not a JSON number",
            "JSON numbers are decimal, with digits on both sides of the point and no leading + "
            "or 0: 16, 0.5, -1, 1e3.",
        )
    return ScanError(
        pos,
        f"unexpected {_describe(ch)}",
        "A JSON value is a string, a number, true, false, null, an array or an object.",
    )


def scan(text: str) -> Scan:
    """Check ``text`` against JSON plus the five repairs; linear time, no recursion."""
    out = Scan()
    try:
        _Scanner(text, out.sites).run()
    except ScanError as exc:
        out.error = exc
    return out


class _Scanner:
    """The state of one :func:`scan`: a state machine over the tokens of ``_TOKEN``."""

    __slots__ = ("text", "sites", "stack", "opened", "keys", "state", "pending_comma")

    def __init__(self, text: str, sites: list[Site]) -> None:
        self.text = text
        self.sites = sites
        self.stack: list[str] = []
        self.opened: list[int] = []  # offsets of the open brackets, for "never closed"
        self.keys: list[set[str] | None] = []  # each open object's keys (None: an array's)
        self.state = _VALUE
        self.pending_comma = -1  # offset of the last comma (a trailing comma if a close follows)

    def run(self) -> None:
        text = self.text
        sites = self.sites
        pos = 0
        match = _TOKEN.match
        while True:
            m = match(text, pos)
            if m is None:
                raise _token_error(text, _WS.match(text, pos).end())  # type: ignore[union-attr]
            kind = m.lastgroup or "end"
            start = m.start(kind)
            pos = m.end()
            if kind == "end":
                break
            if kind == "lc" or kind == "bc":
                sites.append(Site(COMMENT, start, text[start : min(pos, start + 40)]))
                continue
            if self.state == _END:
                raise ScanError(
                    start,
                    f"unexpected {_describe(text[start])} after the end of the JSON value",
                    "A Dialect JSON program is one JSON value; several calls are written as an "
                    "array [...].",
                )
            if kind == "close":
                self.close(start)
            elif kind == "comma":
                self.comma(start)
            elif kind == "colon":
                if self.state != _COLON:
                    raise ScanError(
                        start, "unexpected `:`", 'A colon follows an object key: {"key": value}.'
                    )
                self.state = _VALUE
            else:
                self.value(kind, start, m.group(kind))
        self.finish(pos)

    def close(self, start: int) -> None:
        ch = self.text[start]
        stack, state = self.stack, self.state
        want = "{" if ch == "}" else "["
        if not stack or stack[-1] != want:
            raise ScanError(
                start,
                f"unexpected `{ch}`" + (f": the open bracket is `{stack[-1]}`" if stack else ""),
                "Check that every { and [ is closed by its own } or ].",
            )
        if state in (_KEY_AFTER_COMMA, _VALUE_AFTER_COMMA):
            self.sites.append(Site(TRAILING_COMMA, self.pending_comma, ch))
        elif state == _COLON:
            raise ScanError(
                start,
                f"expected `:` after the object key, found `{ch}`",
                'Write object members as "key": value.',
            )
        elif state not in (_AFTER, _KEY_OR_CLOSE, _VALUE_OR_CLOSE):
            raise ScanError(
                start,
                f"unexpected `{ch}`: a value is missing",
                'Write a value after ":" (null if there is none).',
            )
        stack.pop()
        self.opened.pop()
        self.keys.pop()
        self.state = _AFTER if stack else _END

    def comma(self, start: int) -> None:
        stack = self.stack
        if self.state != _AFTER or not stack:
            raise ScanError(
                start,
                "unexpected `,`" + (": a value is missing before it" if stack else ""),
                "Remove the extra comma or write the missing value.",
            )
        self.pending_comma = start
        self.state = _KEY_AFTER_COMMA if stack[-1] == "{" else _VALUE_AFTER_COMMA

    def value(self, kind: str, start: int, tok: str) -> None:
        """A token where a value or key may be: a string, a word, an open bracket, a number."""
        text, stack, state = self.text, self.stack, self.state
        if state == _AFTER:
            raise ScanError(
                start,
                f"expected `,` or `{'}' if stack[-1] == '{' else ']'}` before "
                f"{_describe(text[start])}",
                "Separate the items of an array or object with commas.",
            )
        if state == _COLON:
            raise ScanError(
                start,
                f"expected `:` after the object key, found {_describe(text[start])}",
                'Write object members as "key": value.',
            )
        key = state in (_KEY_OR_CLOSE, _KEY_AFTER_COMMA)
        after = _AFTER if stack else _END
        if kind == "str" or kind == "sq":
            if kind == "sq":
                self.sites.append(Site(SINGLE_QUOTES, start, tok[:40]))
            if key:
                self.key(start, orjson.loads(tok) if kind == "str" else pyjson5.decode(tok))
            self.state = _COLON if key else after
            return
        if kind == "word":
            self.state = self.word(start, tok, key)
            return
        if key:
            raise ScanError(
                start,
                f"expected an object key, found {_describe(text[start])}",
                'Object keys are strings: {"key": value}.',
            )
        if kind == "open":
            if len(stack) >= MAX_NESTING:
                raise ScanError(start, "the program is nested too deeply", "Nest less.")
            ch = text[start]
            stack.append(ch)
            self.opened.append(start)
            self.keys.append(set() if ch == "{" else None)
            self.state = _KEY_OR_CLOSE if ch == "{" else _VALUE_OR_CLOSE
            return
        # a number
        if not tok.lstrip("-").isdigit() and math.isinf(float(tok)):
            raise ScanError(
                start,
                f"`{tok[:40]}` is too large a number",
                "Numbers are read as doubles: at most about 1.8e308.",
            )
        self.state = after

    def word(self, start: int, name: str, key: bool) -> int:
        """An unquoted word (a key, a Python literal, true/false/null); the next state."""
        if key:
            self.sites.append(Site(UNQUOTED_KEY, start, name[:40]))
            self.key(start, name)
            return _COLON
        if name in _PYTHON:
            self.sites.append(Site(PYTHON_LITERAL, start, name))
        elif name not in _JSON_WORDS:
            raise ScanError(
                start,
                f"`{name[:40]}` is not a JSON value",
                "JSON values are strings in double quotes, numbers, true, false, null, "
                f'arrays and objects; a text is written "{name[:40]}".',
            )
        return _AFTER if self.stack else _END

    def key(self, start: int, name: str) -> None:
        """An object's key, at ``start``: refused if the object has it already (SPEC 9: a
        JSON reader keeps the last value, and the first would be dropped without a word)."""
        keys = self.keys[-1]
        assert keys is not None  # (a key is read only in an object)
        if name in keys:
            raise ScanError(start, *duplicate_words(name), invalid=False)
        keys.add(name)

    def finish(self, pos: int) -> None:
        stack = self.stack
        if stack:
            raise ScanError(
                self.opened[-1],
                f"this `{stack[-1]}` is never closed: the text ends before its "
                f"`{'}' if stack[-1] == '{' else ']'}`",
                "A truncated program is not completed: send the whole program.",
            )
        if self.state != _END:
            raise ScanError(
                pos if self.pending_comma < 0 else self.pending_comma,
                "the text holds no JSON value",
                'A Dialect JSON program is one JSON value, e.g. {"f": {"x": 1}}.',
            )


class _Lines:
    """Offsets -> 1-based (line, column), in log time after one linear pass."""

    def __init__(self, text: str, line_offset: int) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.line_offset = line_offset

    def at(self, offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1 + self.line_offset, offset - self.starts[i] + 1


#: strict mode: what each repair is and what to write instead
_STRICT: dict[str, tuple[Callable[[str], str], Callable[[str], str]]] = {
    COMMENT: (lambda t: "a comment; JSON has no comments", lambda t: "Remove the comment."),
    TRAILING_COMMA: (
        lambda t: f"a trailing comma before `{t}`; JSON allows no comma before }} or ]",
        lambda t: "Remove the comma.",
    ),
    SINGLE_QUOTES: (
        lambda t: f"a single-quoted string {t}; JSON strings are in double quotes",
        lambda t: 'Write it in double quotes: "...".',
    ),
    UNQUOTED_KEY: (
        lambda t: f"the object key `{t}` is not quoted",
        lambda t: f'Write the key as a string: "{t}".',
    ),
    PYTHON_LITERAL: (
        lambda t: f"`{t}` is Python, not JSON",
        lambda t: f"Write `{_PYTHON.get(t, t)}`.",
    ),
}

#: lenient mode: one warning per kind
_WARN = {
    COMMENT: "removed {n} (JSON has no comments), the first here",
    TRAILING_COMMA: "removed {n} before }} or ] (JSON allows none), the first here",
    SINGLE_QUOTES: "read {n} (JSON strings are double-quoted), the first here",
    UNQUOTED_KEY: "read {n} (JSON keys are quoted strings), the first here (`{t}`)",
    PYTHON_LITERAL: "read {n} as JSON true/false/null, the first here (`{t}`)",
}
_NOUN = {
    COMMENT: ("comment", "comments"),
    TRAILING_COMMA: ("trailing comma", "trailing commas"),
    SINGLE_QUOTES: ("single-quoted string", "single-quoted strings"),
    UNQUOTED_KEY: ("unquoted object key", "unquoted object keys"),
    PYTHON_LITERAL: ("Python literal (True/False/None)", "Python literals (True/False/None)"),
}


def _count(kind: str, n: int) -> str:
    one, many = _NOUN[kind]
    return f"1 {one}" if n == 1 else f"{n} {many}"


def repair_json(
    text: str, source: str, *, strict: bool, line_offset: int = 0
) -> tuple[Any, list[str]] | None:
    """Read ``text`` (not JSON as written) with the five repairs.

    Returns ``(value, warnings)``, or None when the text needs none of the repairs (the caller
    reports its own JSON error). Raises :class:`SourceError` (positions in ``source``, the text
    as the model sent it; ``text`` starts ``line_offset`` lines into it) when a repair is
    needed in strict mode, or when the text has an error no repair covers."""
    found = scan(text)
    if not found.sites and (found.error is None or found.error.invalid):
        return None  # (a key written twice before the first repair is still refused here)
    lines = _Lines(text, line_offset)
    err = found.error
    if strict or err is not None:
        problems: list[SyntaxProblem] = []
        if strict:
            for site in found.sites:
                what, instead = _STRICT[site.kind]
                line, col = lines.at(site.offset)
                problems.append(
                    SyntaxProblem(
                        what(site.text),
                        line,
                        col,
                        hint=instead(site.text) + " (Strict mode makes no repairs.)",
                        offset=site.offset,
                    )
                )
        if err is not None:
            line, col = lines.at(err.offset)
            hint = err.hint
            if not strict and err.invalid:
                kinds = list(dict.fromkeys(site.kind for site in found.sites))
                hint += (
                    " (The text also needs repairs: "
                    + ", ".join(_NOUN[k][1] for k in kinds)
                    + "; they are made only once the rest is JSON.)"
                )
            problems.append(
                SyntaxProblem(
                    f"invalid JSON: {err.message}" if err.invalid else err.message,
                    line,
                    col,
                    hint=hint,
                    offset=err.offset,
                )
            )
        problems.sort(key=lambda p: p.offset)
        raise SourceError("json", source, problems)
    repaired = text
    if any(s.kind == PYTHON_LITERAL for s in found.sites):
        parts: list[str] = []
        last = 0
        for s in found.sites:
            if s.kind == PYTHON_LITERAL:
                parts.append(text[last : s.offset])
                parts.append(_PYTHON[s.text])  # the same length: offsets do not move
                last = s.offset + len(s.text)
        parts.append(text[last:])
        repaired = "".join(parts)
    try:
        value = pyjson5.decode(repaired, maxdepth=MAX_NESTING)
    except pyjson5.Json5Exception as exc:  # what the scan does not check: surrogate pairs
        message = str(exc.args[0]) if exc.args else str(exc)
        near = re.search(r"near (\d+)", message)
        line, col = lines.at(max(int(near.group(1)) - 1, 0) if near else 0)
        hint = 'A Dialect JSON program is one JSON value, e.g. {"f": {"x": 1}}.'
        if "surrogate" in message or "Expected U+005c" in message:  # (a high half alone)
            message = "a \\u escape is half of a surrogate pair without its other half"
            hint = "Write the character itself, or both \\u escapes of its UTF-16 pair."
        raise SourceError(
            "json", source, [SyntaxProblem(f"invalid JSON: {message}", line, col, hint=hint)]
        ) from None
    warnings = []
    first: dict[str, Site] = {}
    counts: dict[str, int] = {}
    for s in found.sites:
        first.setdefault(s.kind, s)
        counts[s.kind] = counts.get(s.kind, 0) + 1
    for kind in sorted(first, key=lambda k: first[k].offset):
        line, col = lines.at(first[kind].offset)
        msg = _WARN[kind].format(n=_count(kind, counts[kind]), t=first[kind].text)
        warnings.append(f"line {line}, column {col}: {msg}")
    return value, warnings


__all__ = ["KINDS", "Scan", "Site", "repair_json", "scan"]
