"""``return xs.sort(c)...;`` and ``const top = xs.sort(c)...;`` read as the statement
``xs.sort(c);`` first (SPEC 10, "Changes outside loops"), as models end a list they built:

    const merged = [];
    for (const r of results) if (!seen.has(r.url)) { seen.add(r.url); merged.push(r); }
    return merged.sort((a, b) => b.score - a.score).map(r => r.title);

JavaScript's ``sort`` and ``reverse`` reorder the array itself and give that same array, so
``return N.sort(c) REST`` is exactly ``N.sort(c); return N REST`` (reading the plain name ``N``
runs nothing), and ``const T = N.sort(c) REST`` is ``N.sort(c); const T = N REST``. As an
expression, the resolver refuses the reorder when the program reads ``N`` anywhere else
(dialectic would reorder a copy: SPEC 1.8); as a statement, :mod:`.reorder` makes a new version
of ``N`` when JavaScript's answer is sure (an array the program made, not read whole before)
and refuses it, at its place, when it is not. So this pass writes the statement only when the
program reads ``N`` elsewhere (else the expression already runs), and only for a ``return``,
``const`` or ``let`` that starts a statement of a block or of the top (after ``;``, ``{`` or
``}``: never the body of an ``if`` without braces, whose statement would then run always).
"""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN, closing
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["declared_tokens", "sort_returns"]

_REORDERS = frozenset(["sort", "reverse"])
#: the tokens after which a statement starts (a block's or the top's)
_STARTS = frozenset([";", "{", "}"])
#: names that are no alias a statement could reorder
_WORDS = frozenset(
    ["await", "new", "typeof", "void", "delete", "this", "super", "function", "async",
     "return", "const", "let", "var", "in", "of", "null", "true", "false", "undefined"]
)  # fmt: skip


def sort_returns(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each such statement written as two (None: there is none)."""
    kinds, values = tokens.kinds, tokens.values
    found: list[tuple[int, int, int]] = []  # (statement's first token, N's token, its `)`)
    n = len(kinds)
    for j in range(n):
        if kinds[j] != "name" or (j and kinds[j - 1] not in _STARTS):
            continue
        word = values[j]
        if word == "return":
            at = j + 1
        elif word in ("const", "let") and kinds[j + 1] == "name" and kinds[j + 2] == "=":
            at = j + 3
        else:
            continue
        close = _reorder_call(kinds, values, at)
        if close > 0:
            found.append((j, at, close))
    if not found:
        return None
    reads = _plain_reads(kinds, values)
    chosen = [f for f in found if reads.get(str(values[f[1]]), 0) > 1]
    if not chosen:
        return None
    out = TokenWriter(tokens)
    done = 0
    for first, at, close in chosen:
        out.copy(done, first)
        out.copy(at, close + 1)  # `N.sort(c)`
        out.put(";", ";", close)
        out.copy(first, at + 1)  # `return N` / `const T = N`
        done = close + 1
    out.copy(done, n)
    return out.lexed(source)


def _reorder_call(kinds: Sequence[str], values: Sequence[object], at: int) -> int:
    """The index of the ``)`` of ``N.sort(...)``/``N.reverse(...)`` starting at token ``at``,
    for a plain name ``N`` (0: the tokens there are something else)."""
    if not (
        kinds[at] == "name"
        and values[at] not in _WORDS
        and kinds[at + 1] == "."
        and kinds[at + 2] == "name"
        and values[at + 2] in _REORDERS
        and kinds[at + 3] == "("
    ):
        return 0
    close = closing(kinds, at + 3)
    return close if kinds[close] == ")" else 0


def _plain_reads(kinds: Sequence[str], values: Sequence[object]) -> dict[str, int]:
    """How many times each name is surely read: not as a member (``x.N``), a key (``{N:
    ...}``), a declaration (``const N``, a pattern's names, ``function N``) or a parameter
    (``N =>``, ``(a, N) =>``, ``function f(N)``, ``catch (N)``). Too few is safe (the statement
    is then left as written), so anything unsure is not counted."""
    skip = declared_tokens(kinds, values)
    out: dict[str, int] = {}
    for j, kind in enumerate(kinds):
        if kind != "name" or j in skip:
            continue
        before = kinds[j - 1] if j else ";"
        after = kinds[j + 1]
        if before == "." or (before == "op" and values[j - 1] == "?."):
            continue  # a member
        if after == ":" and before in ("{", ","):
            continue  # a key
        if after == "op" and values[j + 1] == "=>":
            continue  # a parameter
        name = str(values[j])
        out[name] = out.get(name, 0) + 1
    return out


def declared_tokens(kinds: Sequence[str], values: Sequence[object]) -> set[int]:
    """The token indices of names declared: after ``const``/``let``/``var``/``function``, in a
    declaration's pattern, in a function's or an arrow's parameter list, in ``catch (...)``."""
    out: set[int] = set()
    n = len(kinds)
    opens: list[int] = []  # the open brackets' indices
    match: dict[int, int] = {}
    for j, kind in enumerate(kinds):
        if kind in OPEN:
            opens.append(j)
        elif kind in CLOSE and opens:
            match[opens.pop()] = j
    for j in range(n):
        kind, value = kinds[j], values[j]
        if kind != "name":
            continue
        nxt = j + 1
        if value in ("const", "let", "var", "function"):
            if kinds[nxt] == "name":
                out.add(nxt)
                nxt += 1
            if kinds[nxt] in ("[", "{") and value != "function":
                out.update(range(nxt, match.get(nxt, n)))  # a pattern
            elif kinds[nxt] == "(" and value == "function":
                out.update(range(nxt, match.get(nxt, n)))  # its parameters
        elif value == "catch" and kinds[nxt] == "(":
            out.update(range(nxt, match.get(nxt, n)))
    for j, kind in enumerate(kinds):  # `(a, {b}) =>`: an arrow's parameters
        if kind == "(":
            close = match.get(j, n - 1)
            if close + 1 < n and kinds[close + 1] == "op" and values[close + 1] == "=>":
                out.update(range(j, close))
    return out
