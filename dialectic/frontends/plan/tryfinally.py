"""``try { ... } finally { ... }`` and ``try { ... } catch (e) { ... } finally { ... }`` (SPEC
10, the `try` bullet), read before :mod:`.trycatch` as statements it reads already.

The ``finally`` block runs after the ``try`` block (and after the handler when the block
failed and it ran), as in JavaScript, so it is written after the statement as a block of its
own: ``try {B} finally {F}`` is ``{B} {F}`` and ``try {B} catch (e) {H} finally {F}`` is ``try
{B} catch (e) {H} {F}``. When the block or the handler fails without being caught, the run
fails with that failure (as Node's uncaught exception, it has no answer), and the calls of
``F`` are not made. When the block or the handler returns, ``F`` must compute only (no call
of a function that is not JavaScript's, no change of a name: a ``console`` statement): it is
written before the statement, where its value cannot differ. Refused at the place: a
``return``, ``throw``, ``break`` or ``continue`` in ``F`` (a ``return`` there overrides the
block's value), ``break`` or ``continue`` in the block or handler (``F`` runs before the jump
in JavaScript), and an ``F`` that calls or changes after a block or handler that returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dialectic.frontends.plan.base import Problem
from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import PLAIN_OPEN, typed_partners
from dialectic.frontends.plan.tokenwrite import TokenWriter
from dialectic.frontends.plan.tryparts import calls_in
from dialectic.values.jsmethods import ALL_METHODS

__all__ = ["Finally", "unfinally"]

_NOT_FUNCTION = frozenset(["if", "for", "while", "switch", "catch", "with"])
_CHANGES = frozenset(["=", "+=", "-=", "*=", "/=", "%=", "**=", "++", "--", "||=", "&&=", "??="])
_MUTATORS = frozenset(
    ["push", "pop", "shift", "unshift", "splice", "set", "add", "delete", "clear", "sort"]
)
_JUMPS = ("return", "throw", "break", "continue")


@dataclass(slots=True)
class Finally:
    """The tokens with every ``finally`` written away, or the problem found."""

    tokens: Lexed | None
    problem: Problem | None = None


@dataclass(frozen=True, slots=True)
class _Statement:
    """Token indexes of a ``try`` with ``finally``: the block's braces, the end of the
    ``catch`` part (the block's close without one), the ``finally`` word and its braces."""

    at: int
    body_close: int
    handled_close: int
    word: int
    final_open: int
    final_close: int


def _statement(
    kinds: Sequence[str], values: Sequence[object], i: int, match: dict[int, int]
) -> _Statement | None:
    """The ``try`` at token ``i`` when it has a ``finally``."""
    body_close = match.get(i + 1)
    if kinds[i + 1] != "{" or body_close is None:
        return None
    j = body_close + 1
    handled = body_close
    if kinds[j] == "name" and values[j] == "catch":
        j += 1
        if kinds[j] == "(":
            j = match.get(j, j) + 1
        if kinds[j] != "{" or j not in match:
            return None
        handled = match[j]
        j = handled + 1
    if not (kinds[j] == "name" and values[j] == "finally" and kinds[j + 1] == "{"):
        return None
    final_close = match.get(j + 1)
    if final_close is None:
        return None
    return _Statement(i, body_close, handled, j, j + 1, final_close)


class _Reader:
    def __init__(self, tokens: Lexed) -> None:
        self.kinds, self.values = tokens.kinds, tokens.values
        self.match, self.opener = typed_partners(self.kinds)
        self.starts = tokens.offsets()[0]

    def function_brace(self, brace: int) -> bool:
        kinds, values = self.kinds, self.values
        before = brace - 1
        if kinds[before] == "op" and values[before] == "=>":
            return True
        if kinds[before] != ")":
            return False
        opened = self.opener.get(before, 0)
        return not (opened and kinds[opened - 1] == "name" and values[opened - 1] in _NOT_FUNCTION)

    def jumps(self, first: int, stop: int, words: Sequence[str]) -> int | None:
        """The first of ``words`` in tokens ``[first, stop)`` outside the functions there."""
        kinds, values = self.kinds, self.values
        i = first
        while i < stop:
            kind = kinds[i]
            if kind == "{" and self.function_brace(i):
                i = self.match.get(i, i) + 1
                continue
            if kind == "name" and values[i] in words and (i == 0 or kinds[i - 1] != "."):
                return i
            i += 1
        return None

    def changes_or_calls(self, first: int, stop: int) -> int | None:
        """The first token of ``[first, stop)`` that calls a function that is not
        JavaScript's or changes a name."""
        kinds, values = self.kinds, self.values
        found = calls_in(kinds, values, first, stop, ALL_METHODS)
        for i in range(first, found[0] if found else stop):
            kind = kinds[i]
            if kind in ("=", "op") and values[i] in _CHANGES:
                before = i - 1
                if kinds[before] in ("}", "]"):
                    before = self.opener.get(before, before)
                if kind == "op" or values[before - 1] not in ("const", "let", "var"):
                    return i
            if kind == "name" and values[i] in _MUTATORS and kinds[i - 1] == ".":
                return i
        return found[0] if found else None

    def block(self, w: TokenWriter, brace: int) -> None:
        """The block at ``brace`` as a statement: its braces kept only when it declares a
        name (JavaScript's block scope; a block of none may start as an object literal
        would: `{ [x]; }`)."""
        close = self.match[brace]
        kinds, values = self.kinds, self.values
        i = brace + 1
        while i < close:
            if kinds[i] in PLAIN_OPEN:
                i = self.match.get(i, i)
            elif kinds[i] == "name" and values[i] in ("const", "let", "var"):
                w.copy(brace, close + 1)
                return
            i += 1
        w.copy(brace + 1, close)

    def problem(self, message: str, at: int, hint: str) -> Problem:
        return (message, self.starts[at], hint)

    def check(self, s: _Statement) -> tuple[bool, Problem | None]:
        """Whether the block or the handler returns, or the problem with ``s``."""
        jump = self.jumps(s.final_open + 1, s.final_close, _JUMPS)
        if jump is not None:
            word = self.values[jump]
            return False, self.problem(
                f"Plan reads no `{word}` in a `finally` block",
                jump,
                "a `finally` block runs after the `try` block and its handler whatever "
                "happens: keep only the statements that clean up or record there",
            )
        jump = self.jumps(s.at + 2, s.handled_close, ("break", "continue"))
        if jump is not None:
            word = self.values[jump]
            return False, self.problem(
                f"Plan reads no `{word}` in a `try` block that has `finally`",
                jump,
                f"set a flag in the block and test it after the `try` (`if (done) {word};`)",
            )
        returned = self.jumps(s.at + 2, s.handled_close, ("return",))
        if returned is None:
            return False, None
        changed = self.changes_or_calls(s.final_open + 1, s.final_close)
        if changed is not None:
            return True, self.problem(
                "a `finally` block that calls a function or changes a name, after a `try` "
                "block or handler that returns",
                changed,
                "set a name in the block and in the handler, and return it after the `try`",
            )
        return True, None


def unfinally(text: str, tokens: Lexed) -> Finally | None:
    """The tokens with each ``finally`` written as a block before or after its ``try``
    statement, a problem, or None when there is no ``finally`` to read."""
    reader = _Reader(tokens)
    kinds, values = reader.kinds, reader.values
    found: list[tuple[_Statement, bool]] = []
    for i, value in enumerate(values):
        if value != "try" or kinds[i] != "name":
            continue
        s = _statement(kinds, values, i, reader.match)
        if s is None:
            continue
        returned, problem = reader.check(s)
        if problem is not None:
            return Finally(None, problem)
        found.append((s, returned))
    if not found:
        return None
    w = TokenWriter(tokens)
    i = 0
    for s, returned in found:  # (in token order: a `finally` inside another's is refused)
        if s.at < i:
            return Finally(
                None,
                reader.problem(
                    "Plan reads no `try` with `finally` inside another",
                    s.at,
                    "move the inner one out, or drop its `finally`",
                ),
            )
        w.copy(i, s.at)
        if returned:  # `{F} try {B} catch (e) {H}`: `F` only computes
            reader.block(w, s.final_open)
        if s.handled_close == s.body_close:  # no `catch`: `{B}`
            reader.block(w, s.at + 1)
        else:
            w.copy(s.at, s.handled_close + 1)
        if not returned:
            reader.block(w, s.final_open)
        i = s.final_close + 1
    w.copy(i, len(kinds))
    return Finally(w.lexed(text))
