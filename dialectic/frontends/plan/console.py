"""``console.log(...)`` statements, as code-mode programs write them to show a value (SPEC 10).

A program has no console: what the model wants to see is the result. In lenient mode a
statement ``console.log(a, b);`` (also ``info``, ``warn``, ``error``, ``debug``, ``table``,
``dir``) is read as the statement ``[a, b];``: its arguments are still evaluated (a failure in
one fails the program, as a throw would in Node), nothing is printed, and a warning says so.
The text is rewritten in place, ``console.log(`` as ``[`` and the closing ``)`` as ``]``, padded
with spaces, so every line:column stays the original's. Only a whole statement is read so:
``const x = console.log(a);`` or ``f(console.log(a))`` are left to the parser. A statement ends
at ``;``, at the end of its block or program, or at a line break (JavaScript's ASI).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.spans import LineIndex

__all__ = ["Unlogged", "may_log", "unlog"]

METHODS = frozenset(["log", "info", "warn", "error", "debug", "table", "dir"])
#: the tokens a statement may follow
_STATEMENT_AFTER = frozenset([";", "{", "}"])
_LINE_END = re.compile("[\n\r\u2028\u2029]")
#: the tokens a statement may end before (a `;`, or the end of its block or of the program)
_STATEMENT_END = frozenset([";", "}", "eof"])


#: the tokens a statement ends with before a line break (JavaScript's ASI: a name starts the
#: next statement)
_ENDING = frozenset([")", "]", "num", "str", "tpl", "tplt"])
_HEADS = frozenset(["if", "for", "while", "with", "switch", "catch"])
_GOES_ON = frozenset(["return", "await", "typeof", "new", "throw", "void", "delete", "in", "of"])


def _after_line_end(tokens: Lexed, i: int) -> bool:
    """Whether token ``i`` (a name) starts a statement after a line break: JavaScript ends
    the statement before (``const u = await f()`` then ``console.log(u)``)."""
    kind, value = tokens.kinds[i - 1], tokens.values[i - 1]
    ends = kind in _ENDING or (kind == "name" and value not in _GOES_ON)
    return ends and _LINE_END.search(tokens.gap(i)) is not None


@dataclass(slots=True)
class Unlogged:
    """The rewritten text and a warning per statement."""

    text: str
    warnings: list[str] = field(default_factory=list)


def may_log(values: Sequence[object]) -> bool:
    """A cheap test: does any token read ``console``?"""
    return "console" in values


def _parens(kinds: Sequence[str]) -> dict[int, int]:
    """Each ``(`` token's ``)``, and each ``)``'s ``(`` (an unclosed one has none): one pass,
    so that many unclosed statements cost linear time, not a scan each."""
    out: dict[int, int] = {}
    stack: list[int] = []
    for i, kind in enumerate(kinds):
        if kind == "(":
            stack.append(i)
        elif kind == ")" and stack:
            opened = stack.pop()
            out[opened] = i
            out[i] = opened
    return out


def unlog(text: str, tokens: Lexed, index: LineIndex) -> Unlogged | None:
    """The text with each ``console.X(...)`` statement read as an array statement, or None when
    it has none. Linear in the tokens."""
    kinds, values = tokens.kinds, tokens.values
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement) of the same length
    out = Unlogged(text)
    starts: Sequence[int] | None = None
    ends: Sequence[int] | None = None
    parens: dict[int, int] | None = None  # each `(`'s `)`, found in one pass when first needed
    i = 0
    last = len(kinds) - 4
    while i < last:
        if not (
            kinds[i] == "name"
            and values[i] == "console"
            and kinds[i + 1] == "."
            and values[i + 2] in METHODS
            and kinds[i + 2] == "name"
            and kinds[i + 3] == "("
            and (i == 0 or kinds[i - 1] in _STATEMENT_AFTER or _after_line_end(tokens, i))
        ):
            i += 1
            continue
        if parens is None:
            parens = _parens(kinds)
        if kinds[i - 1] == ")" and values[parens.get(i - 1, 0) - 1] in _HEADS:
            i += 1  # (`if (t)` then a line: the statement is the branch, left as it is)
            continue
        close = parens.get(i + 3)
        if close is None or not (
            kinds[close + 1] in _STATEMENT_END or _LINE_END.search(tokens.gap(close + 1))
        ):
            i += 1
            continue
        if starts is None or ends is None:
            starts, ends = tokens.offsets()
        head_start, head_end = starts[i], ends[i + 3]
        # (after a line break without `;`: one, so that `[` begins a statement, as JavaScript's
        # `console` does, and indexes nothing before it)
        head = "[" if i == 0 or kinds[i - 1] in _STATEMENT_AFTER else ";["
        edits.append((head_start, head_end, head + " " * (head_end - head_start - len(head))))
        edits.append((starts[close], ends[close], "]"))
        out.warnings.append(
            f"{index.where(head_start)}: `console.{values[i + 2]}` shows nothing here (a "
            "program has no console): its arguments are evaluated and dropped; return what "
            "you want to see"
        )
        i = close + 1
    if not edits:
        return None
    parts: list[str] = []
    done = 0
    for start, end, replacement in edits:
        parts.append(text[done:start])
        parts.append(replacement)
        done = end
    parts.append(text[done:])
    out.text = "".join(parts)
    return out
