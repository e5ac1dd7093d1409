"""A conditional that chooses which value to change, as a statement (SPEC 10, "Loops")::

    (x > 0 ? acc.pos : acc.neg).push(x);
    x % 2 ? acc.odds++ : acc.evens++;

Read on the tokens: the statement ``(T ? A : B).push(ARGS);`` is ``if (T) A.push(ARGS); else
B.push(ARGS);`` and, only when the program as written is refused (:func:`.parse_plan` reads it
again), the statement ``T ? X : Y;`` is ``if (T) { X; } else { Y; }``. JavaScript
evaluates ``T``, then only the branch it picks (its receiver, then the arguments, then the
push), and drops the statement's value: the same steps, so the same values. Only a conditional
with one ``?`` at its top level is read so; the rest of the front end then reads the ``if``."""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.base import expression_end
from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN, partners, starts_statement
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["choice_statements"]

#: words that start a statement (a test holding one is not a conditional's alone)
_STATEMENT_WORDS = frozenset(
    ["if", "for", "while", "else", "do", "return", "const", "let", "var", "case", "switch"]
)
#: how many such statements one program may have read so
_MAX = 256


def choice_statements(source: str, tokens: Lexed, bare: bool) -> Lexed | None:
    """``tokens`` with each conditional statement the module describes written as its ``if``
    (None: there is none); ``bare``: also ``T ? X : Y;``."""
    if "?" not in source or not (bare or ".push" in source):
        return None
    kinds, values = tokens.kinds, tokens.values
    partner: dict[int, int] | None = None
    found: list[tuple[int, int, int, int, int]] = []
    taken = -1
    for i, kind in enumerate(kinds):
        if kind != "op" or values[i] != "?" or i <= taken:
            continue
        if partner is None:
            partner = partners(kinds)
        one = _pushed(kinds, values, partner, i)
        if one is None and bare:
            one = _bare(kinds, values, partner, i)
        if one is not None:
            found.append(one)
            taken = one[-1]
            if len(found) >= _MAX:
                break
    return _rewrite(source, tokens, found) if found else None


def _parts(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], first: int, stop: int
) -> int:
    """The `:` of the conditional whose `?` is at token ``first`` when the tokens from
    ``first`` up to ``stop`` (excluded) hold one `?` and one `:` at their top level; else -1."""
    colon, depth = -1, 0
    for j in range(first + 1, stop):
        kind = kinds[j]
        if kind in OPEN:
            depth += 1
        elif kind in CLOSE:
            depth -= 1
        elif depth == 0 and kind == "op" and values[j] in ("?", "=>"):
            return -1
        elif depth == 0 and kind == ":":
            if colon >= 0:
                return -1
            colon = j
        elif depth == 0 and kind in (",", "="):
            return -1
    return colon


def _start(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], q: int, open_: int
) -> int:
    """The first token of the test ending before the `?` at ``q``, when the test runs from
    just after ``open_`` (a `(`, or -1: a statement) with no `,`, `=` or `?` at its top level;
    else -1."""
    j = q - 1
    while j > open_:
        kind = kinds[j]
        if kind in CLOSE:
            j = partner.get(j, -1)
            if j < 0:
                return -1
        elif (
            kind in ("(", "[", "{", "tplh", ";", ",", "=")
            or (kind == "op" and values[j] in ("?", "=>"))
            or kind == ":"
            or (kind == "name" and values[j] in ("else", "do", "return"))
        ):
            break
        j -= 1
    if any(kinds[m] == "name" and values[m] in _STATEMENT_WORDS for m in range(j + 1, q)):
        return -1
    return j + 1


def _pushed(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], q: int
) -> tuple[int, int, int, int, int] | None:
    """``(T ? A : B).push(ARGS);`` around the `?` at ``q``: (the `(`, the `?`, the `:`, the
    `)`, the statement's last token), else None."""
    open_ = q - 1
    while open_ >= 0 and kinds[open_] != "(":
        kind = kinds[open_]
        if kind in (")", "]", "}"):
            open_ = partner.get(open_, 0)
        elif kind in (";", "{", "[", ",", ":", "=") or (
            kind == "op" and values[open_] in ("?", "=>")
        ):  # (a test holding one is no `T` of `(T ? A : B)`: _start would refuse it; stopping
            # here keeps a chain of n conditionals at n steps, not n * n)
            return None
        open_ -= 1
    close = partner.get(open_, -1)
    if open_ < 0 or close < q or _start(kinds, values, partner, q, open_) != open_ + 1:
        return None
    if not (
        starts_statement(kinds, values, partner, open_)
        and kinds[close + 1] == "."
        and values[close + 2] == "push"
        and kinds[close + 3] == "("
    ):
        return None
    end = partner.get(close + 3, -1)
    colon = _parts(kinds, values, partner, q, close)
    if end < 0 or colon < 0 or kinds[end + 1] not in (";", "}", "eof"):
        return None
    return open_, q, colon, close, end


def _bare(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], q: int
) -> tuple[int, int, int, int, int] | None:
    """``T ? X : Y;`` around the `?` at ``q``, a statement: (its first token, the `?`, the
    `:`, -1, its last token), else None."""
    first = _start(kinds, values, partner, q, -1)
    if first <= 0 or first >= q or not starts_statement(kinds, values, partner, first):
        return None
    end = expression_end(kinds, q + 1, (";",))
    colon = _parts(kinds, values, partner, q, end)
    if colon < 0 or colon == end - 1:
        return None
    return first, q, colon, -1, end - 1


def _rewrite(source: str, tokens: Lexed, found: list[tuple[int, int, int, int, int]]) -> Lexed:
    out = TokenWriter(tokens)
    put, copy = out.put, out.copy
    at = 0
    for first, q, colon, close, end in found:
        copy(at, first)
        put("name", "if", first)
        put("(", "(", first)
        test = first + 1 if close >= 0 else first
        copy(test, q)
        put(")", ")", q)
        put("{", "{", q)
        copy(q + 1, colon)
        if close >= 0:  # `A.push(ARGS)`
            copy(close + 1, end + 1)
        put(";", ";", colon)
        put("}", "}", colon)
        put("name", "else", colon)
        put("{", "{", colon)
        copy(colon + 1, close if close >= 0 else end + 1)
        if close >= 0:
            copy(close + 1, end + 1)
        put(";", ";", end)
        put("}", "}", end)
        at = end + 1
        if tokens.kinds[at] == ";":
            at += 1
    copy(at, len(tokens.kinds))
    return out.lexed(source)
