"""``try { ... } catch (e) { ... }`` as models write it around tool calls (SPEC 10).

Code-mode programs often guard their calls: ``try { const r = await f(x); return r.data; }
catch (e) { return {error: e.message}; }``. Plan has no error handlers: a failing call ends the
run with a failure that names it (SPEC 4), which is what the model needs to read. So in lenient
mode the ``try`` block runs as plain statements and the ``catch`` block is never run:

- when nothing in the block fails, the answer is the one Node.js gives (its handler does not
  run either);
- when something fails, the program fails with that failure (Node would run the handler): a
  failure, never another answer. The warning says so, with the handler's line.

The ``try {`` and ``} catch (...) { ... }`` texts are blanked (offsets stay the same, so every
line:column is the original's), as for a wrapped program (:mod:`.wrappers`). Refused, at the
place: ``finally`` (its block runs whatever happens, Plan cannot say when), a ``try`` without a
``catch``, a name declared inside the block that the statements after the block read
(JavaScript's block scope does not reach them, so Node reads another value or throws a
ReferenceError), and a name the block declares and never reads (JavaScript runs it to see
whether it fails; Plan runs only what the result needs, so such a guard would never run).
Strict mode leaves ``try`` to the parser, which refuses it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from dialectic.frontends.plan.base import Problem
from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.spans import LineIndex

__all__ = ["Untried", "may_try", "untry"]

_NOT_LINE_END = re.compile("[^\n\r\u2028\u2029]")


@dataclass(slots=True)
class Untried:
    """The text with every ``try``/``catch`` blanked and a warning per ``try``, or the problems
    found (then ``text`` is None)."""

    text: str | None
    warnings: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def may_try(values: Sequence[object]) -> bool:
    """A cheap test: does any token read ``try``?"""
    return "try" in values


@dataclass(slots=True)
class _Brackets:
    """One pass over the tokens: each bracket's partner, the ``try`` statements (with the
    bracket holding each), the declarations (with the brace holding each) and where each name
    is read."""

    match: dict[int, int] = field(default_factory=dict)
    tries: list[tuple[int, int | None]] = field(default_factory=list)
    declared: list[tuple[int, int | None]] = field(default_factory=list)
    reads: dict[str, list[int]] = field(default_factory=dict)


_OPEN = {"{": "}", "(": ")", "[": "]"}
_CLOSE = frozenset(_OPEN.values())
#: the tokens a statement may follow (a `try` elsewhere is not a statement: the parser says so)
_STATEMENT_AFTER = frozenset([";", "{", "}"])


def _scan(kinds: Sequence[str], values: Sequence[object]) -> _Brackets:
    out = _Brackets()
    stack: list[int] = []
    reads = out.reads
    for i, kind in enumerate(kinds):
        if kind in _OPEN:
            stack.append(i)
        elif kind in _CLOSE:
            if stack and _OPEN[kinds[stack[-1]]] == kind:
                out.match[stack.pop()] = i
        elif kind == "name":
            value = values[i]
            before = kinds[i - 1] if i else ";"
            if before == "." or (before == "op" and values[i - 1] == "?."):
                continue
            holder = stack[-1] if stack else None
            if value == "try":
                if kinds[i + 1] == "{" and (
                    before in _STATEMENT_AFTER or i == 0 or values[i - 1] == "else"
                ):
                    out.tries.append((i, holder))
            elif value == "const" or value == "let":
                out.declared.append((i, holder))
            else:
                reads.setdefault(str(value), []).append(i)
    return out


def _names(
    kinds: Sequence[str], values: Sequence[object], at: int, match: dict[int, int]
) -> list[str]:
    """The names the declaration at token ``at`` binds (a pattern's keys too: more names than
    bound is safe, as they are only refused when read after the block)."""
    j = at + 1
    if kinds[j] == "name":
        return [str(values[j])]
    end = match.get(j)
    if kinds[j] not in ("{", "[") or end is None:
        return []
    return [str(values[k]) for k in range(j, end) if kinds[k] == "name"]


def _read_between(reads: list[int], first: int, last: int) -> int | None:
    """The first of ``reads`` (ascending token indexes) after ``first`` and before ``last``."""
    k = bisect_right(reads, first)
    return reads[k] if k < len(reads) and reads[k] < last else None


@dataclass(frozen=True, slots=True)
class _Try:
    """Token indexes of one ``try`` statement: ``try``, the block's braces, the handler's."""

    at: int
    body_open: int
    body_close: int
    handler_close: int


def _read_try(
    kinds: Sequence[str],
    values: Sequence[object],
    i: int,
    match: dict[int, int],
    starts: Sequence[int],
) -> _Try | Problem | None:
    """The ``try`` statement at token ``i``, a problem with it, or None when the parser should
    read the text as it is (it is not a whole ``try`` statement)."""
    body_close = match.get(i + 1)
    if body_close is None:
        return None
    j = body_close + 1
    word = values[j] if kinds[j] == "name" else None
    if word == "finally":
        return _no_finally(starts[j])
    if word != "catch":
        return (
            "a `try` block without `catch`",
            starts[i],
            "write the block's statements without `try`: a failure ends the program and says "
            "what failed",
        )
    j += 1
    if kinds[j] == "(":
        closed = match.get(j)
        if closed is None:
            return None
        j = closed + 1
    handler_close = match.get(j) if kinds[j] == "{" else None
    if handler_close is None:
        return None
    after = handler_close + 1
    if kinds[after] == "name" and values[after] == "finally":
        return _no_finally(starts[after])
    return _Try(i, i + 1, body_close, handler_close)


def _no_finally(offset: int) -> Problem:
    return (
        "Plan has no `finally`",
        offset,
        "write the statements of the `try` block without `try`, `catch` and `finally`: a "
        "failure ends the program and says what failed",
    )


def untry(text: str, tokens: Lexed, strict: bool, index: LineIndex) -> Untried | None:
    """The text with its ``try``/``catch`` statements blanked, or None when it has none this
    reads (the parser then reports ``try`` as it is). Linear in the tokens."""
    if strict:
        return None
    kinds, values = tokens.kinds, tokens.values
    scan = _scan(kinds, values)
    if not scan.tries:
        return None
    starts, ends = tokens.offsets()
    out = Untried(text)
    spans: list[tuple[int, int]] = []
    blocks: dict[int, tuple[_Try, int]] = {}  # by the brace opening the block: the statement,
    # and the token closing the block that holds it
    handlers: list[tuple[int, int]] = []  # the handlers that may still hold a later `try`
    for i, holder in scan.tries:
        while handlers and handlers[-1][1] <= i:
            handlers.pop()
        if handlers and handlers[-1][0] <= i:
            continue  # inside a handler, blanked with it
        read = _read_try(kinds, values, i, scan.match, starts)
        if read is None:
            continue
        if not isinstance(read, _Try):
            out.problems.append(read)
            break
        handlers.append((read.body_close, read.handler_close + 1))
        # the end of the block holding the statement (a `try` block's holder: the block
        # holding that statement, as both are blanked)
        end = len(kinds) - 1
        if holder in blocks:
            end = blocks[holder][1]
        elif holder is not None:
            end = scan.match.get(holder, end)
        blocks[read.body_open] = (read, end)
        out.warnings.append(
            f"{index.where(starts[i])}: ran the `try` block as plain statements; Plan runs no "
            f"`catch` ({index.where(starts[read.body_close])}): a failure in the block ends "
            "the program with that failure"
        )
        spans.append((starts[i], ends[read.body_open]))
        spans.append((starts[read.body_close], ends[read.handler_close]))
    if not out.problems:
        _check_scopes(kinds, values, scan, blocks, out, index, starts)
    if out.problems:
        out.text = None
        return out
    if not spans:
        return None
    spans.sort()
    parts: list[str] = []
    done = 0
    for start, stop in spans:
        parts.append(text[done:start])
        parts.append(_NOT_LINE_END.sub(" ", text[start:stop]))
        done = stop
    parts.append(text[done:])
    out.text = "".join(parts)
    return out


def _check_scopes(
    kinds: Sequence[str],
    values: Sequence[object],
    scan: _Brackets,
    blocks: dict[int, tuple[_Try, int]],
    out: Untried,
    index: LineIndex,
    starts: Sequence[int],
) -> None:
    """A problem for each name a ``try`` block declares (``const``, ``let``: ``var`` reaches
    the whole function in JavaScript too) that the rest of the enclosing block reads."""
    for at, holder in scan.declared:
        if holder is None or holder not in blocks:
            continue
        statement, block_end = blocks[holder]
        names_end = scan.match.get(at + 1, at + 1)  # the declaration's name or pattern
        for name in _names(kinds, values, at, scan.match):
            reads = scan.reads.get(name, [])
            read = _read_between(reads, statement.handler_close, block_end)
            if read is None:
                if _read_between(reads, names_end, statement.body_close) is None:
                    out.problems.append(_never_read(name, starts[at], index, starts[statement.at]))
                continue
            out.problems.append(
                (
                    f"`{name}` is declared inside the `try` block at "
                    f"{index.where(starts[statement.at])}, and JavaScript does not see it "
                    "after the block",
                    starts[read],
                    f"move the statements that read `{name}` into the `try` block",
                )
            )


def _never_read(name: str, offset: int, index: LineIndex, at: int) -> Problem:
    """An alias of a ``try`` block nothing reads: JavaScript runs it, and its handler if it
    throws; Plan runs only what the result needs, so the guard would not run."""
    return (
        f"`{name}` is never read: JavaScript runs it to see whether it fails (the `try` at "
        f"{index.where(at)}), but Plan runs only what the result needs",
        offset,
        f"to run a call for its effect write it as a statement (`await check(x);`), or read "
        f"`{name}`",
    )
