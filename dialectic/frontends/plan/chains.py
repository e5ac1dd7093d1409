"""A chain of changes to a Map or a Set the program made, as one statement (SPEC 10, "Maps
and Sets"): ``m.set(a, 1).set(b, 2);`` and ``s.add(x).add(y);``.

JavaScript's ``set`` and ``add`` give the Map or Set itself, so the chain is the changes one
after another. Read before parsing, on the tokens (as :mod:`.memberpush` reads its form): the
statement becomes ``m.set(a, 1); m.set(b, 2);`` (the new tokens take the places of the ``.``
they stand for), which the parser reads as it reads each change, at the top of a block or in a
loop (the single statement of an ``if``, ``else`` or ``do`` becomes a block of them). Only a
statement (not a part of an expression) on a name the program defines as ``new
Map(...)`` or ``new Set(...)``, with every link ``set`` (a Map) or every link ``add`` (a
Set); anything else stays as written, which the parser refuses.
"""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.parensets import name_index
from dialectic.frontends.plan.tokenscan import partners, starts_statement
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["change_chains"]

#: the changes that give their Map or Set back, by what the name holds
_LINKS = {"Map": "set", "Set": "add"}


def _collections(kinds: Sequence[str], values: Sequence[object]) -> dict[str, str]:
    """The names defined as ``const name = new Map(...)`` (or ``new Set``), and which."""
    out: dict[str, str] = {}
    for j in range(len(kinds) - 4):
        if (
            kinds[j] == "name"
            and values[j] in ("const", "let")
            and kinds[j + 1] == "name"
            and kinds[j + 2] == "="
            and values[j + 3] == "new"
            and values[j + 4] in _LINKS
        ):
            out[str(values[j + 1])] = str(values[j + 4])
    return out


def _chain(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], i: int, link: str
) -> list[int]:
    """The ``.`` tokens between the links of the chain statement starting at token ``i`` (a
    name), or none when the statement is no such chain."""
    dots: list[int] = []
    at = i + 1
    while kinds[at] == "." and values[at + 1] == link and kinds[at + 2] == "(":
        close = partner.get(at + 2, -1)
        if close < 0:
            return []
        if at != i + 1:
            dots.append(at)
        at = close + 1
        if kinds[at] == ";":
            return dots
    return []


def change_chains(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each chain of changes to a Map or a Set as the changes one after
    another (None: there is none)."""
    if (").set(" not in source and ").add(" not in source) or "new " not in source:
        return None  # (the common case: one test of the text)
    kinds, values = tokens.kinds, tokens.values
    made = _collections(kinds, values)
    if not made:
        return None
    partner: dict[int, int] | None = None
    index = name_index(kinds, values)
    splits: list[tuple[int, list[int], bool]] = []
    for name, what in made.items():
        for i in index.get(name, ()):
            if kinds[i + 1] != "." or values[i + 2] != _LINKS[what]:
                continue
            if partner is None:
                partner = partners(kinds)
            if not starts_statement(kinds, values, partner, i):
                continue
            dots = _chain(kinds, values, partner, i, _LINKS[what])
            if dots:  # (the single statement of an `if`, `else`, `do`: in braces)
                alone = i > 0 and kinds[i - 1] not in (";", "{", "}")
                splits.append((i, dots, alone))
    if not splits or partner is None:
        return None
    out = TokenWriter(tokens)
    at = 0
    for i, dots, alone in sorted(splits):
        out.copy(at, i)
        if alone:
            out.put("{", "{", i)
        at = i
        for dot in dots:
            out.copy(at, dot)
            out.put(";", ";", dot)  # `m.set(a, 1)` `;` `m` `.set(b, 2)`
            out.put("name", values[i], dot)
            at = dot
        if alone:
            end = partner[dots[-1] + 2] + 1  # (the statement's `;`)
            out.copy(at, end + 1)
            out.put("}", "}", end)
            at = end + 1
    out.copy(at, len(kinds))
    return out.lexed(source)
