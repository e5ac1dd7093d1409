"""A refused statement that sets a name declared with ``const`` says so.

``const v = x; v += 1;`` throws in JavaScript (``TypeError: Assignment to constant variable``);
Plan refuses it too, but the reading that fails first may name another cause (an operator Plan
lacks, a parameter set). After the reading fails, each problem whose statement sets a name
(``v = ...``, ``v += ...``, ``v++``, ``++v``) that the nearest declaration before it, in a block
that holds the statement, declares with ``const`` gets this message instead, unless a function
or arrow begins between them (it may never run: then JavaScript throws nothing), or the
problem already names the ``const``. Only refusals change: nothing here makes a program run.
"""

from __future__ import annotations

from dialectic.frontends.plan.lexer import Token, tokenize
from dialectic.frontends.plan.spans import LineIndex
from dialectic.frontends.plan.tokenscan import enclosing, partners

#: the operators that set the name before them
_SETS = frozenset(
    ["=", "+=", "-=", "*=", "/=", "%=", "**=", "??=", "||=", "&&=", "<<=", ">>=", ">>>=", "&=",
     "|=", "^=", "++", "--"]
)  # fmt: skip
_STATEMENT_START = frozenset([";", "{", "}"])
_DECLARES = frozenset(["const", "let", "var", "function"])

#: the problems looked at (each costs a scan of the program: a bounded number keeps the cost
#: of a program with many problems linear)
MAX_LOOKED_AT = 20

Found = tuple[str, int, str]


def const_sets(source: str, offsets: list[int]) -> list[Found | None]:
    """For each of the first :data:`MAX_LOOKED_AT` refusals at ``offsets`` (the others: None),
    the problem to report when its statement sets a name declared with ``const``."""
    try:
        tokens = tokenize(source)
    except Exception:  # (the lexer's own problems are reported as they are)
        return [None] * len(offsets)
    scan = _Scan(source, tokens)
    return [scan.problem(offset) if k < MAX_LOOKED_AT else None for k, offset in enumerate(offsets)]


def const_set(source: str, tokens: list[Token], offset: int) -> Found | None:
    """The problem to report for a refusal at ``offset`` of ``source`` (its ``tokens``) when
    its statement sets a name declared with ``const`` (message, the name's offset, hint), else
    None."""
    return _Scan(source, tokens).problem(offset)


class _Scan:
    """A program's tokens with each one's innermost open bracket and each bracket's partner
    (:mod:`.tokenscan`), read once for all its problems."""

    __slots__ = ("source", "tokens", "kinds", "outer", "partner")

    def __init__(self, source: str, tokens: list[Token]) -> None:
        self.source = source
        self.tokens = tokens
        self.kinds = [token[0] for token in tokens]
        self.outer = enclosing(self.kinds)
        self.partner = partners(self.kinds)

    def problem(self, offset: int) -> Found | None:
        tokens, kinds = self.tokens, self.kinds
        at = next((k for k, t in enumerate(tokens) if t[3] > offset or t[2] >= offset), None)
        if at is None or kinds[at] == "eof":
            return None
        start = at
        while start > 0 and kinds[start - 1] not in _STATEMENT_START:
            start -= 1
        target = self._set_name(start)
        if target is None:
            return None
        name = tokens[target][1]
        declared = self._declaration(name, start)
        if declared is None:
            return None
        index = LineIndex(self.source)
        both = f"{index.where(tokens[declared + 1][2])} and {index.where(tokens[target][2])}"
        return (
            f"`{name}` is declared with `const` and set again ({both}): a TypeError in "
            "JavaScript (assignment to a constant)",
            tokens[target][2],
            f"declare it with `let` to change it: let {name} = ...; (or give the new value a "
            f"name of its own: const {name}2 = ...;)",
        )

    def _set_name(self, start: int) -> int | None:
        """The index of the name the statement at ``start`` sets, if it is one that does."""
        tokens = self.tokens
        first, nxt = tokens[start], tokens[start + 1]
        if first[0] == "name" and nxt[1] in _SETS and nxt[0] in ("=", "op"):
            return start
        if first[1] in ("++", "--") and nxt[0] == "name":
            return start + 1
        return None

    def _declaration(self, name: str, start: int) -> int | None:
        """The index of the ``const`` declaring ``name`` nearest before the statement at
        ``start``, in a block that holds it, with no parameter of the name, and no function or
        arrow (it may never run: then JavaScript throws nothing), between them; else None."""
        tokens = self.tokens
        for k in range(start - 1, 0, -1):
            if tokens[k][0] != "name" or tokens[k][1] != name:
                continue
            prev = tokens[k - 1][1]
            if tokens[k + 1][1] == "=>" or (prev in ("(", ",") and self._parameter(k)):
                return None  # (a parameter of the name: the reading's own message stands)
            if prev not in _DECLARES:
                continue
            if prev != "const" or not self._holds(self.outer[k], start):
                return None
            inside = any(tokens[j][1] in ("function", "=>") for j in range(k, start))
            return None if inside else k - 1
        return None

    def _holds(self, bracket: int, k: int) -> bool:
        """Whether the block of ``bracket`` (-1: the program) holds token ``k``."""
        outer = self.outer[k]
        while outer != bracket:
            if outer < 0:
                return False
            outer = self.outer[outer]
        return True

    def _parameter(self, k: int) -> bool:
        """Whether the name at ``k``, inside parentheses, may be a parameter: they end before
        ``=>``, or follow ``function`` or a function's name (not an argument, nor a condition:
        ``if (v)``)."""
        opening = self.outer[k]
        if opening < 0 or self.kinds[opening] != "(":
            return False
        closing = self.partner.get(opening)
        if closing is None or self.tokens[closing + 1][1] == "=>":
            return True
        return "function" in (t[1] for t in self.tokens[max(opening - 2, 0) : opening])
