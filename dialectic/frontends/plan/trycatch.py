"""``try { ... } catch (e) { ... }`` and ``throw`` as models write them around tool calls (SPEC
10, the `try` bullet): found here, written as the core's ``$try`` and ``$throw`` by
:mod:`.trywrite`.

Code-mode programs guard their calls: ``try { const r = await f(x); return r.data; } catch
(e) { return {error: e.message}; }``, ``for (...) { try { ...; out.push(v); } catch (e) {
out.push(null); } }``, ``let v; try { v = JSON.parse(t); } catch { v = null; }``. One pass
over the tokens finds every bracket's partner, the ``try`` and ``throw`` statements (with the
bracket holding each), the declarations and the reads; ``finally`` is read first
(:mod:`.tryfinally`); refused, at the place: a ``try`` without a ``catch``, a name declared
inside a block that the statements after it read (JavaScript's block scope does not reach
them: Node reads another value or throws a ReferenceError), and a name a block that returns
declares and never reads (JavaScript runs it to see whether it fails; Plan runs only what the
result needs). Both modes: ``try`` and ``throw`` are grammar; ``throw`` also in the program's
functions and callbacks (a function's value is then the failure).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from dialectic.frontends.plan.base import Problem
from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.spans import LineIndex
from dialectic.frontends.plan.tokenscan import PAIRS, PLAIN_CLOSE, PLAIN_OPEN
from dialectic.frontends.plan.tryfinally import unfinally
from dialectic.frontends.plan.trywrite import TryStatement, TryWriter

__all__ = ["Untried", "may_try", "untry"]


@dataclass(slots=True)
class Untried:
    """The tokens with every ``try``/``catch`` and ``throw`` rewritten, or the problems found
    (then ``tokens`` is None)."""

    tokens: Lexed | None
    warnings: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def may_try(values: Sequence[object]) -> bool:
    """A cheap test: does any token read ``try`` or ``throw``?"""
    return "try" in values or "throw" in values


@dataclass(slots=True)
class _Brackets:
    """One pass over the tokens: each bracket's partner, the ``try`` statements (with the
    bracket holding each), the declarations (with the brace holding each) and where each name
    is read."""

    match: dict[int, int] = field(default_factory=dict)
    opener: dict[int, int] = field(default_factory=dict)  # a closing bracket's partner
    parent: dict[int, int | None] = field(default_factory=dict)  # a brace's enclosing bracket
    throws: list[tuple[int, int | None]] = field(default_factory=list)
    tries: list[tuple[int, int | None]] = field(default_factory=list)
    declared: list[tuple[int, int | None]] = field(default_factory=list)
    reads: dict[str, list[int]] = field(default_factory=dict)


#: the tokens a statement may follow (a `try` elsewhere is not a statement: the parser says so)
_STATEMENT_AFTER = frozenset([";", "{", "}"])


def _scan(kinds: Sequence[str], values: Sequence[object]) -> _Brackets:
    """The plain brackets matched by kind (as :func:`.tokenscan.typed_partners` does) and the
    names read, in one walk."""
    out = _Brackets()
    stack: list[int] = []
    reads = out.reads
    for i, kind in enumerate(kinds):
        if kind in PLAIN_OPEN:
            out.parent[i] = stack[-1] if stack else None
            stack.append(i)
        elif kind in PLAIN_CLOSE:
            if stack and PAIRS[kinds[stack[-1]]] == kind:
                opened = stack.pop()
                out.match[opened] = i
                out.opener[i] = opened
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
            elif value == "throw":
                out.throws.append((i, holder))
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


def untry(text: str, tokens: Lexed, index: LineIndex) -> Untried | None:
    """The tokens with every ``try``/``catch`` and ``throw`` statement written as the core's
    ``$try`` and ``$throw`` (:mod:`.trywrite`), the problems found, or None when there is no
    such statement (the parser then reports the words as they are). Linear in the tokens, but
    for the block of a ``try`` read again by each ``try`` holding it."""
    finals = unfinally(text, tokens) if "finally" in tokens.values else None
    if finals is not None:
        if finals.tokens is None:
            return Untried(None, problems=[finals.problem] if finals.problem else [])
        tokens = finals.tokens
    kinds, values = tokens.kinds, tokens.values
    scan = _scan(kinds, values)
    if not scan.tries and not scan.throws:
        return Untried(tokens) if finals is not None else None
    starts = tokens.offsets()[0]
    out = Untried(None)
    writer = TryWriter(tokens, scan.match, scan.opener, scan.parent, index)
    writer.functions_throw = any(writer.in_function(holder) for _, holder in scan.throws)
    # by the brace opening a block or a handler: the statement, the token closing the block
    # that holds it, the token closing the block, and whether the block returns its names
    blocks: dict[int, tuple[_Try, int, int, bool]] = {}
    for i, holder in scan.tries:
        read = _read_try(kinds, values, i, scan.match, starts)
        if read is None:
            continue
        if not isinstance(read, _Try):
            out.problems.append(read)
            break
        statement = TryStatement(i, holder, read.body_close, kinds, scan.match)
        writer.tries[i] = statement
        writer.blocks.update((statement.body_open, statement.handler_open))
        end = len(kinds) - 1
        if holder in blocks:
            end = blocks[holder][1]
        elif holder is not None:
            end = scan.match.get(holder, end)
        returned = not writer.plain(statement) and not writer.returning(*writer.parts(statement))
        # (a block that changes names returns the names it declares)
        blocks[read.body_open] = (read, end, read.body_close, returned)
        blocks[statement.handler_open] = (read, end, read.handler_close, returned)
    writer.throws.update(i for i, _ in scan.throws)
    if not out.problems:
        _check_scopes(kinds, values, scan, blocks, out, index, starts)
    if not out.problems:
        writer.emit(0, len(kinds))
        out.problems.extend(writer.problems)
    if out.problems:
        return out
    out.tokens = writer.w.lexed(text)
    return out


def _check_scopes(
    kinds: Sequence[str],
    values: Sequence[object],
    scan: _Brackets,
    blocks: dict[int, tuple[_Try, int, int, bool]],
    out: Untried,
    index: LineIndex,
    starts: Sequence[int],
) -> None:
    """A problem for each name a ``try`` block declares (``const``, ``let``: ``var`` reaches
    the whole function in JavaScript too) that the rest of the enclosing block reads."""
    for at, holder in scan.declared:
        if holder is None or holder not in blocks:
            continue
        statement, block_end, close, returned = blocks[holder]
        names_end = scan.match.get(at + 1, at + 1)  # the declaration's name or pattern
        for name in _names(kinds, values, at, scan.match):
            reads = scan.reads.get(name, [])
            read = _read_between(reads, statement.handler_close, block_end)
            if read is None:
                if returned and kinds[at + 1] == "name":
                    continue  # (:mod:`.trywrite` returns it: it runs, as in JavaScript)
                if _read_between(reads, names_end, close) is None:
                    problem = _never_read(name, starts[at], index, starts[statement.at])
                    if tuple(values[at + 2 : at + 5]) == ("=", "new", "URL"):  # `u = new URL(x)`
                        problem = (
                            *problem[:2],
                            f"check the URL with a statement, `new URL(x);`, or read `{name}`",
                        )
                    out.problems.append(problem)
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
