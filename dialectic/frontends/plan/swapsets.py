"""An assignment to an array pattern as a statement (SPEC 10, "Changes outside loops"): the swap
models write in two-pointer loops and sorts, ``[a[i], a[j]] = [a[j], a[i]];``, and the pair
step ``[prev, cur] = [cur, prev + cur];``.

Read before parsing, on the tokens: the statement ``[T0, T1, ...] = [E0, E1, ...];`` (as many
values as targets, each target a name or a member, ``a[i]``, ``o.k``; no spread, hole or
pattern inside) is ``const _swapN = [E0, E1, ...]; T0 = _swapN[0]; T1 = _swapN[1]; ...``,
which JavaScript runs the same: the array is made first, every value read before any target
is set, then the targets are set left to right. As the lone statement of an `if`, `else`,
`for`, `while` or `do` it is written in braces. Each assignment is then read as any other
(a loop's accumulator, an array set in place, a `let` changed). Anything else stays as written,
which the parser refuses ("Plan has no operator `=`"). One pass, linear in the tokens."""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import OPEN, partners, starts_statement
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["swap_sets"]


def swap_sets(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each array-pattern assignment statement written as plain assignments
    (None: there is none)."""
    if "] = [" not in source and "]=[" not in source:
        return None  # (the common case: one test of the text)
    kinds, values = tokens.kinds, tokens.values
    partner = partners(kinds)
    found: list[tuple[int, list[tuple[int, int]], int, int, bool]] = []
    n = len(kinds)
    i = 0
    while i < n:
        if kinds[i] == "[":
            form = _form(kinds, values, partner, i)
            if form is not None:
                targets, value_open, end = form
                braced = i > 0 and (
                    kinds[i - 1] == ")"
                    or (kinds[i - 1] == "name" and values[i - 1] in ("else", "do"))
                )
                found.append((i, targets, value_open, end, braced))
                i = end + 1
                continue
        i += 1
    if not found:
        return None
    out = TokenWriter(tokens)
    at = 0
    for count, (first, targets, value_open, end, braced) in enumerate(found, 1):
        out.copy(at, first)
        name = _hidden(source, count)
        if braced:
            out.put("{", "{", first)
        out.put("name", "const", first)
        out.put("name", name, first)
        out.put("=", "=", value_open - 1)
        out.copy(value_open, end + 1)  # (`[E0, E1];`)
        for k, (t0, t1) in enumerate(targets):
            out.copy(t0, t1)
            out.put("=", "=", value_open - 1)
            out.put("name", name, t0)
            out.put("[", "[", t0)
            out.put("num", str(k), t0)
            out.put("]", "]", t0)
            out.put(";", ";", end)
        if braced:
            out.put("}", "}", end)
        at = end + 1
    out.copy(at, n)
    return out.lexed(source)


def _form(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], first: int
) -> tuple[list[tuple[int, int]], int, int] | None:
    """For the `[` at token ``first``: the targets' tokens, the value's `[` and the `;` of
    ``[T0, ...] = [E0, ...];`` when it is such a statement, else None."""
    close = partner.get(first)
    if close is None or kinds[close + 1] != "=" or kinds[close + 2] != "[":
        return None
    value_open = close + 2
    value_close = partner.get(value_open)
    if value_close is None or kinds[value_close + 1] != ";":
        return None
    if not starts_statement(kinds, values, partner, first):
        return None
    targets = _items(kinds, partner, first, close)
    items = _items(kinds, partner, value_open, value_close)
    if not targets or items is None or len(items) != len(targets):
        return None
    for t0, t1 in targets:
        if not _target(kinds, partner, t0, t1):
            return None
    return targets, value_open, value_close + 1


def _items(
    kinds: Sequence[str], partner: dict[int, int], first: int, close: int
) -> list[tuple[int, int]] | None:
    """The items of the array literal ``[first, close]`` as token ranges; None for a hole, a
    spread or a trailing comma."""
    out: list[tuple[int, int]] = []
    start = first + 1
    i = start
    while i <= close:
        kind = kinds[i]
        if kind in OPEN:
            i = partner.get(i, close)
        elif kind == "," or i == close:
            if i == start or kinds[start] == "...":
                return None
            out.append((start, i))
            start = i + 1
        i += 1
    return out


def _target(kinds: Sequence[str], partner: dict[int, int], t0: int, t1: int) -> bool:
    """Whether tokens ``[t0, t1)`` are a name or a member chain (``a``, ``a[i]``, ``o.k.m``)."""
    if kinds[t0] != "name":
        return False
    i = t0 + 1
    while i < t1:
        if kinds[i] == "." and kinds[i + 1] == "name":
            i += 2
        elif kinds[i] == "[":
            i = partner.get(i, t1) + 1
        else:
            return False
    return i == t1


def _hidden(source: str, n: int) -> str:
    name = f"_swap{n}"
    while name in source:
        n += 1000
        name = f"_swap{n}"
    return name
