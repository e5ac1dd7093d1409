"""An object a loop's body makes and finishes with member sets (SPEC 10, "Loops"), as models
build each row::

    for (const u of users) {
      const entry = {name: u.name};
      if (u.manager) entry.manager = u.manager.name;
      entry.tags = u.tags.length;
      report.push(entry);
    }

Read before parsing, on the tokens (as :mod:`.memberpush` reads its form): in the body of a
``for``, ``while`` or ``do`` loop, or of an arrow function (``xs.map(u => {...})``, a
``forEach`` callback), the definition ``const entry
= {...};`` (or ``let``) and the statements right after it that only set its members
(``entry.k = v;``, ``entry[k] = v;``, ``entry.k += v;`` and the other assignments, and ``if``
statements whose branches hold only such sets) are the arrow function called at once ``const
entry = (() => { const entry = {...}; ...; return entry; })();``, whose body changes its own
object as any block does (SPEC 10, "Semantics"; each set outside an ``if`` in a block of its
own, ``{ entry.k = v; }``, a change outside loops, section "Changes outside loops"). That is
JavaScript's
value: the statements run unchanged, in their order, inside the arrow; nothing outside reads
the object before they end; none of them returns, breaks or continues (a set is an expression
statement, its `;` at the depth of the body), and each ``if`` holds only sets. A set after
another statement (``out.push(entry); entry.k = v;``) is left as written (refused: JavaScript
shares the object)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import OPEN, partners
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["loop_locals"]

_SETS = frozenset(["+=", "-=", "*=", "/=", "%=", "**=", "??=", "||=", "&&="])
#: a definition of an object (`const entry = {`) in the text: without one there is nothing to
#: read, and one search of the text costs far less than the token scans. Spaces only between
#: its words (a comment there, `const e = /* c */ {`, is not looked for, and the definition is
#: then left as written, as before this form was read); each quantifier possessive, so the
#: search is linear in any text
_OBJECT_DEF = re.compile(r"(?:const|let)\s++[\w$]++\s*+=\s*+\{")
#: tokens that end or leave a statement's function: never inside a set
_LEAVES = frozenset(["return", "break", "continue", "yield"])


class _Reader:
    """The sets of one object after its definition."""

    def __init__(
        self, kinds: Sequence[str], values: Sequence[object], partner: dict[int, int]
    ) -> None:
        self.kinds, self.values, self.partner = kinds, values, partner
        #: (the declarator, the last set's last token, the name's token, the first and last
        #: token of each set outside an `if`) of each object
        self.found: list[tuple[int, int, int, list[tuple[int, int]]]] = []

    def end_of(self, i: int) -> int:
        """The `;` ending the expression statement from token ``i`` (-1: none at its depth
        before a closing bracket, or a word that leaves the statement)."""
        kinds, values, partner = self.kinds, self.values, self.partner
        while True:
            kind = kinds[i]
            if kind == ";":
                return i
            if kind in ("}", ")", "]", "eof") or (kind == "name" and values[i] in _LEAVES):
                return -1
            if kind in OPEN:
                close = partner.get(i, -1)
                if close < 0:
                    return -1
                if any(values[j] in _LEAVES for j in range(i, close) if kinds[j] == "name"):
                    # (an arrow function's `return` is its own; kept out for simplicity)
                    return -1
                i = close
            i += 1

    def set_at(self, i: int, name: str) -> int:
        """The token after the set of ``name``'s member at ``i``, or -1."""
        kinds, values = self.kinds, self.values
        if kinds[i] != "name" or values[i] != name:
            return -1
        if kinds[i + 1] == "." and kinds[i + 2] == "name":
            op = i + 3
        elif kinds[i + 1] == "[":
            op = self.partner.get(i + 1, -1) + 1
            if op <= 0:
                return -1
        else:
            return -1
        if not (kinds[op] == "=" or (kinds[op] == "op" and values[op] in _SETS)):
            return -1
        end = self.end_of(op + 1)
        return -1 if end < 0 else end + 1

    def branch_at(self, i: int, name: str) -> int:
        """After a branch of sets at ``i`` (one set, or a block of them), or -1."""
        if self.kinds[i] != "{":
            return self.statement_at(i, name)
        close = self.partner.get(i, -1)
        j = i + 1
        while 0 <= j < close:
            j = self.statement_at(j, name)
        return close + 1 if j == close else -1

    def statement_at(self, i: int, name: str) -> int:
        """After a set or an ``if`` of sets at ``i``, or -1."""
        kinds, values = self.kinds, self.values
        if not (kinds[i] == "name" and values[i] == "if" and kinds[i + 1] == "("):
            return self.set_at(i, name)
        test_end = self.partner.get(i + 1, -1)
        if test_end < 0 or self.end_of_test(i + 2, test_end):
            return -1
        j = self.branch_at(test_end + 1, name)
        if j > 0 and kinds[j] == "name" and values[j] == "else":
            return self.branch_at(j + 1, name)  # (`else if`: an `if` of sets)
        return j

    def end_of_test(self, first: int, close: int) -> bool:
        """Whether the test from ``first`` to ``close`` holds a word that leaves."""
        kinds, values = self.kinds, self.values
        return any(kinds[j] == "name" and values[j] in _LEAVES for j in range(first, close))


def _bodies(kinds: Sequence[str], values: Sequence[object], partner: dict[int, int]) -> list[int]:
    """The `{` of each loop's body and each arrow function's body."""
    out = []
    for b, kind in enumerate(kinds):
        if kind != "{" or b == 0:
            continue
        before = b - 1
        if kinds[before] == "name" and values[before] == "do":
            out.append(b)
        elif kinds[before] == ")":
            head = partner.get(before, 0) - 1
            if head >= 0 and kinds[head] == "name" and values[head] in ("for", "while"):
                out.append(b)
        elif kinds[before] == "op" and values[before] == "=>":
            out.append(b)  # (an arrow's body: `xs.map(u => { ... })`, a `forEach` callback)
    return out


def loop_locals(source: str, tokens: Lexed, rewritten: bool = False) -> Lexed:
    """The tokens with each such definition and its sets as an arrow called at once (the
    tokens themselves when there is none). ``rewritten``: the tokens are no longer the
    text's (a rewrite before this one changed them), so the text is not searched."""
    if "=" not in source or ("for" not in source and "while" not in source and "=>" not in source):
        return tokens  # (a substring test costs far less than a token scan)
    if not rewritten and _OBJECT_DEF.search(source) is None:
        return tokens
    kinds, values = tokens.kinds, tokens.values
    partner = partners(kinds)
    reader = _Reader(kinds, values, partner)
    for b in _bodies(kinds, values, partner):
        close = partner.get(b, -1)
        i = b + 1
        while 0 < i < close:
            nxt = _definition(reader, i, close)
            if nxt < 0:
                break
            i = nxt
    found = reader.found
    if not found:
        return tokens
    w = TokenWriter(tokens)
    at = 0
    for decl, last, name_at, plain in sorted(found):
        if decl < at:
            continue  # (inside another's sets: the outer one holds it)
        w.copy(at, decl + 3)  # `const entry =`
        eq = decl + 2
        for kind, value in (("(", "("), ("(", "("), (")", ")"), ("op", "=>"), ("{", "{")):
            w.put(kind, value, eq)
        at = decl
        for first, end in plain:  # the definition and its sets, unchanged, each in a block
            w.copy(at, first)
            w.put("{", "{", first)
            w.copy(first, end + 1)
            w.put("}", "}", end)
            at = end + 1
        w.copy(at, last + 1)
        for kind, value in (
            ("name", "return"), ("name", values[name_at]), (";", ";"), ("}", "}"),
            (")", ")"), ("(", "("), (")", ")"), (";", ";"),
        ):  # fmt: skip
            w.put(kind, value, last)
        at = last + 1
    w.copy(at, len(kinds))
    return w.lexed(source)


def _definition(reader: _Reader, i: int, close: int) -> int:
    """At the statement starting at token ``i`` of a body ending at ``close``: note a
    definition of an object with its sets; the next statement's first token, or -1 when the
    statements cannot be told apart simply (the rest of the body is skipped)."""
    kinds, values, partner = reader.kinds, reader.values, reader.partner
    if kinds[i] == ";":
        return i + 1
    if (
        kinds[i] == "name"
        and values[i] in ("const", "let")
        and kinds[i + 1] == "name"
        and kinds[i + 2] == "="
        and kinds[i + 3] == "{"
    ):
        end = partner.get(i + 3, -1)
        if end < 0 or kinds[end + 1] != ";":
            return -1
        name = str(values[i + 1])
        j = last = end + 2
        plain: list[tuple[int, int]] = []
        while j < close:
            after = reader.statement_at(j, name)
            if after < 0:
                break
            if values[j] != "if":
                plain.append((j, after - 1))
            j = last = after
        if last > end + 2:
            reader.found.append((i, last - 1, i + 1, plain))
        return last
    # skip one statement: to the `;` at this depth, or past a block statement's `}`
    j = i
    while j < close:
        kind = kinds[j]
        if kind == ";":
            return j + 1
        if kind in ("(", "[", "`", "tplh"):
            j = partner.get(j, close)
        elif kind == "{":
            end = partner.get(j, close)
            if kinds[end + 1] not in (".", "(", ")", ",", "op", "[", ";"):
                return end + 1  # a block's end (`if (...) {...}`, a loop's body)
            j = end
        j += 1
    return -1
