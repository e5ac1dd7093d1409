"""A declaration of several names as one declaration per name (SPEC 10, "Loops"): models
write ``const a = events[i], b = events[j];`` in a loop's body and ``let total = 0, count =
0;`` in an arrow's, where the parser reads one declarator a statement.

Read before parsing, in lenient mode, on the tokens (after :mod:`.asi`, so that each statement
ends in a `;`): the statement ``const a = x, b = y;`` (also ``let``) that begins a statement
(after `;`, `{` or `}`, or first) is ``const a = x; const b = y;`` (the new ``;`` and
``const`` take the place of the ``,``), which JavaScript runs the same: each declarator in
turn, a later one reading the names before it. A comma inside brackets or a template is no
declarator's; a statement that ends at no ``;`` inside its block stays as written (the parser
judges it). A ``for`` head's ``let i = 0, j = n`` is no statement. One pass, linear in the
tokens."""

from __future__ import annotations

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN, partners
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["split_declarations"]

_DECLARATORS = frozenset(["const", "let"])
#: what ends a declaration besides its `;`: a bracket it is inside closing, or the end
_ENDS = CLOSE | {"eof"}


def split_declarations(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each declaration of several names split (None: there is none)."""
    if "," not in source or ("const" not in source and "let" not in source):
        return None  # (the common case: one test of the text)
    kinds, values = tokens.kinds, tokens.values
    partner: dict[int, int] | None = None
    splits: list[tuple[int, str]] = []  # (a declarator's comma, its `const` or `let`)
    j, n = 0, len(kinds)
    while j < n - 1:
        if not (
            kinds[j] == "name"
            and values[j] in _DECLARATORS
            and kinds[j + 1] in ("name", "[", "{")
            and (j == 0 or kinds[j - 1] in (";", "{", "}"))
        ):
            j += 1
            continue
        if partner is None:
            partner = partners(kinds)
        commas: list[int] = []
        i = j + 1
        while kinds[i] != ";" and kinds[i] not in _ENDS:
            if kinds[i] in OPEN:
                close = partner.get(i)
                if close is None:  # (never closed: the end, no `;`)
                    i = n - 1
                    break
                i = close
            elif kinds[i] == ",":
                commas.append(i)
            i += 1
        if kinds[i] == ";":
            splits.extend((c, str(values[j])) for c in commas)
        j = i + 1
    if not splits:
        return None
    out = TokenWriter(tokens)
    at = 0
    for comma, word in splits:
        out.copy(at, comma)
        out.put(";", ";", comma)
        out.put("name", word, comma)
        at = comma + 1
    out.copy(at, n)
    return out.lexed(source)
