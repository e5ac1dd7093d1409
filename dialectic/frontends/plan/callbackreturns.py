"""Where a callback read as a loop returns (:mod:`dialectic.frontends.plan.callbackloop`), on the
tokens: :func:`_returns` lists the callback's own ``return`` statements (skipping the arrow
functions inside it), and :func:`_ends_in_return` tells whether every way through its body ends
in one (then the push of ``undefined`` after it would never run). Statements are measured by
:func:`_end_of`; anything unsure (a ``try``, a ``do``, nesting past 32) answers "not known",
and the rewrite then writes the push and lets the parser judge. Moved out of ``callbackloop``.
"""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.tokenscan import CLOSE, OPEN, expression_end


def _returns(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    first: int,
    last: int,
    open_end: bool = False,
) -> list[tuple[int, int]] | None:
    """The callback's own ``return`` statements (token, the `;` ending it), skipping the
    bodies of arrow functions inside; None for a ``function`` inside or a ``return`` not
    ending in `;` (with ``open_end``, the last one may end at the body's `}`, ``last``:
    ``{ acc.n++; return acc }``)."""
    out: list[tuple[int, int]] = []
    j = first + 1
    while j < last:
        kind = kinds[j]
        if kind == "op" and values[j] == "=>" and kinds[j + 1] == "{":
            j = partner.get(j + 1, last) + 1
            continue
        if kind == "name" and values[j] == "function":
            return None
        if kind == "name" and values[j] == "return" and kinds[j - 1] != ".":
            depth, k = 0, j + 1
            while k < last:
                if kinds[k] in OPEN:
                    depth += 1
                elif kinds[k] in CLOSE:
                    depth -= 1
                    if depth < 0:
                        return None
                elif kinds[k] == ";" and depth == 0:
                    break
                k += 1
            if k >= last and not (open_end and k == last and depth == 0):
                return None
            out.append((j, k))
            j = k + 1
            continue
        j += 1
    return out


def _ends_in_return(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], body: tuple[int, int]
) -> bool:
    """Whether every way through the body (its braces ``body``) ends in a ``return``: then a
    push of ``undefined`` after it would never run (and the parser refuses code that never
    runs). Unsure (a ``switch``, a ``try``, nesting past 32) is False: the push is written, and
    a body that cannot reach it is refused rather than read another way."""
    return _list_returns(kinds, values, partner, body[0] + 1, body[1], 0)


def _list_returns(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    first: int,
    stop: int,
    depth: int,
) -> bool:
    """Whether the statements from token ``first`` up to ``stop`` (excluded) end in one that
    always returns."""
    j, last = first, -1
    while j < stop:
        end = _end_of(kinds, values, partner, j, depth)
        if end < 0:
            return False
        last, j = j, end + 1
    return last >= 0 and _always_returns(kinds, values, partner, last, depth)


def _always_returns(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], j: int, depth: int
) -> bool:
    if depth > 32:
        return False
    word = values[j] if kinds[j] == "name" else None
    if word == "return":
        return True
    if kinds[j] == "{":
        return _list_returns(kinds, values, partner, j + 1, partner.get(j, j), depth + 1)
    if word == "switch" and kinds[j + 1] == "(":  # a `default`, no `break`, ending in return
        brace = partner.get(j + 1, -2) + 1
        close = partner.get(brace, -1) if brace > 0 and kinds[brace] == "{" else -1
        if close < 0:
            return False
        inside = range(brace + 1, close)
        if any(values[k] == "break" and kinds[k] == "name" for k in inside) or not any(
            values[k] == "default" and kinds[k] == "name" and kinds[k + 1] == ":" for k in inside
        ):
            return False
        last = close - 1
        if kinds[last] != ";":
            return False
        start = last - 1
        while start > brace and kinds[start] not in (";", ":", "{", "}"):
            start -= 1
        return values[start + 1] == "return" and kinds[start + 1] == "name"
    if word == "if" and kinds[j + 1] == "(":
        then = partner.get(j + 1, -1) + 1
        then_end = _end_of(kinds, values, partner, then, depth + 1)
        if then <= 0 or then_end < 0 or values[then_end + 1] != "else":
            return False
        return _always_returns(kinds, values, partner, then, depth + 1) and _always_returns(
            kinds, values, partner, then_end + 2, depth + 1
        )
    return False


def _end_of(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], j: int, depth: int
) -> int:
    """The last token of the statement starting at token ``j`` (-1: not known here)."""
    if depth > 32:
        return -1
    if kinds[j] == "{":
        return partner.get(j, -1)
    word = values[j] if kinds[j] == "name" else None
    if word in ("if", "for", "while") and kinds[j + 1] == "(":
        body = partner.get(j + 1, -2) + 1
        if body <= 0:
            return -1
        end = _end_of(kinds, values, partner, body, depth + 1)
        if word == "if" and end >= 0 and values[end + 1] == "else":
            return _end_of(kinds, values, partner, end + 2, depth + 1)
        return end
    if word == "switch" and kinds[j + 1] == "(":
        brace = partner.get(j + 1, -2) + 1
        return partner.get(brace, -1) if brace > 0 and kinds[brace] == "{" else -1
    if word in ("do", "try"):
        return -1
    end = expression_end(kinds, j, (";",))
    kind = kinds[end]
    return end if kind == ";" else -1 if kind == "eof" else end - 1
