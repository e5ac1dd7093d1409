"""An arrow given to ``forEach`` whose body is an assignment (SPEC 10, "Loops"), read before
parsing as the statement it stands for: ``xs.forEach(q => (prices[q.symbol] = q.price));``
and ``xs.forEach(x => counts[x] = (counts[x] || 0) + 1);`` are ``xs.forEach(q => {
prices[q.symbol] = q.price; });``. ``forEach`` drops what its callback returns, so the
assignment's value is read by nothing and the two are the same program; Plan's expressions
hold no assignment, its statements do. Only a body that is, as a whole, ``target op value``
(``target`` a name and its members, ``op`` an assignment, ``++`` or ``--``), in parentheses or
not, ending the call's argument, is read so. One pass over the tokens."""

from __future__ import annotations

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import OPEN, partners
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["statement_arrows"]

#: the operators of an assignment statement
_ASSIGNS = frozenset(
    ["+=", "-=", "*=", "/=", "%=", "**=", "||=", "&&=", "??=", "<<=", ">>=", ">>>=", "|=",
     "&=", "^=", "++", "--"]
)  # fmt: skip


def statement_arrows(text: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each such ``forEach`` arrow's body written as a block (None: none)."""
    if "forEach" not in text or "=>" not in text:
        return None
    kinds, values = tokens.kinds, tokens.values
    partner: dict[int, int] | None = None
    edits: list[tuple[int, int, bool]] = []  # (body's first token, its end, in parentheses)
    for i in range(len(kinds) - 3):
        if not (values[i + 1] == "forEach" and kinds[i] == "." and kinds[i + 2] == "("):
            continue
        if partner is None:
            partner = partners(kinds)
        call_end = partner.get(i + 2, -1)
        arrow = _arrow_end(kinds, values, partner, i + 3)
        if call_end < 0 or arrow < 0:
            continue
        body = arrow + 1
        if kinds[body] == "(" and partner.get(body) == call_end - 1:
            if _assignment(kinds, values, partner, body + 1, call_end - 1):
                edits.append((body, call_end - 1, True))
        elif kinds[body] == "name" and _assignment(kinds, values, partner, body, call_end):
            edits.append((body, call_end, False))
    if not edits:
        return None
    out = TokenWriter(tokens)
    at = 0
    for first, end, parenthesized in edits:
        out.copy(at, first)
        out.put("{", "{", first)
        inner = first + 1 if parenthesized else first
        out.copy(inner, end)
        out.put(";", ";", end - 1)
        out.put("}", "}", end - 1)
        at = end + 1 if parenthesized else end
    out.copy(at, len(kinds))
    return out.lexed(text)


def _arrow_end(kinds: list[str], values: list[object], partner: dict[int, int], i: int) -> int:
    """The ``=>`` of the arrow starting at token ``i`` (``x =>``, ``(x, i) =>``,
    ``async x =>``), or -1."""
    if kinds[i] == "name" and values[i] == "async" and kinds[i + 1] in ("name", "("):
        i += 1
    if kinds[i] == "name":
        end = i + 1
    elif kinds[i] == "(":
        end = partner.get(i, -2) + 1
    else:
        return -1
    return end if end > 0 and kinds[end] == "op" and values[end] == "=>" else -1


def _assignment(
    kinds: list[str], values: list[object], partner: dict[int, int], first: int, end: int
) -> bool:
    """Whether tokens ``first`` to ``end`` (excluded) are ``target op value`` as a whole:
    a name, its members (``.k``, ``[...]``), then an assignment (a value up to ``end``, with
    no `,` outside brackets) or ``++``/``--`` ending it."""
    if kinds[first] != "name":
        return False
    j = first + 1
    while j < end and kinds[j] in (".", "["):
        if kinds[j] == ".":
            if kinds[j + 1] != "name":
                return False
            j += 2
        else:
            j = partner.get(j, end) + 1
    if j >= end:
        return False
    if values[j] in ("++", "--") and kinds[j] == "op":
        return j + 1 == end
    if not (kinds[j] == "=" or (kinds[j] == "op" and values[j] in _ASSIGNS)) or j + 1 >= end:
        return False
    k = j + 1
    while k < end:  # (`(a = 1, b = 2)`: a sequence, left as written)
        if kinds[k] == ",":
            return False
        k = partner.get(k, k) + 1 if kinds[k] in OPEN else k + 1
    return True
