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


def const_sets(source: str, offsets: list[int]) -> list[tuple[str, int, str] | None]:
    """For each of the first :data:`MAX_LOOKED_AT` refusals at ``offsets`` (the others: None),
    the problem to report when its statement sets a name declared with ``const``."""
    try:
        tokens = tokenize(source)
    except Exception:  # (the lexer's own problems are reported as they are)
        return [None] * len(offsets)
    return [
        const_set(source, tokens, offset) if k < MAX_LOOKED_AT else None
        for k, offset in enumerate(offsets)
    ]


def const_set(source: str, tokens: list[Token], offset: int) -> tuple[str, int, str] | None:
    """The problem to report for a refusal at ``offset`` of ``source`` (its ``tokens``) when
    its statement sets a name declared with ``const`` (message, the name's offset, hint), else
    None."""
    at = _token_at(tokens, offset)
    if at is None:
        return None
    start = at
    while start > 0 and tokens[start - 1][0] not in _STATEMENT_START:
        start -= 1
    target = _set_name(tokens, start)
    if target is None:
        return None
    name = tokens[target][1]
    declared = _declaration(tokens, name, start)
    if declared is None:
        return None
    where = f"({_where(source, tokens[declared + 1][2])} and {_where(source, tokens[target][2])})"
    return (
        f"`{name}` is declared with `const` and set again {where}: a TypeError in JavaScript "
        "(assignment to a constant)",
        tokens[target][2],
        f"declare it with `let` to change it: let {name} = ...; (or give the new value a name "
        f"of its own: const {name}2 = ...;)",
    )


def _where(source: str, offset: int) -> str:
    line = source.count("\n", 0, offset) + 1
    return f"line {line}, column {offset - (source.rfind(chr(10), 0, offset) + 1) + 1}"


def _token_at(tokens: list[Token], offset: int) -> int | None:
    """The index of the token that holds (or starts after) ``offset``."""
    for k, (kind, _, begin, end) in enumerate(tokens):
        if kind == "eof":
            return None
        if end > offset or begin >= offset:
            return k
    return None


def _set_name(tokens: list[Token], start: int) -> int | None:
    """The index of the name the statement at ``start`` sets, if it is one that does."""
    first = tokens[start]
    if first[0] == "name" and start + 1 < len(tokens):
        nxt = tokens[start + 1]
        if nxt[1] in _SETS and nxt[0] in ("=", "op"):
            return start
    if first[1] in ("++", "--") and start + 1 < len(tokens) and tokens[start + 1][0] == "name":
        return start + 1
    return None


def _declaration(tokens: list[Token], name: str, before: int) -> int | None:
    """The index of the ``const`` that declares ``name`` nearest before ``before``, in a block
    that holds it, when no other declaration or parameter of the name stands between; else
    None."""
    depth = 0  # (the blocks and brackets closed, going back from the statement)
    for k in range(before - 1, -1, -1):
        kind, value = tokens[k][0], tokens[k][1]
        if kind in ("}", ")", "]"):
            depth += 1
        elif kind in ("{", "(", "["):
            depth = max(depth - 1, 0) if depth else 0
        elif kind == "name" and value == name:
            prev = tokens[k - 1][1] if k else None
            if tokens[k + 1][1] == "=>" or (prev in ("(", ",") and _parameter(tokens, k)):
                return None  # (a parameter of the name: the reading's own message stands)
            if prev in _DECLARES:
                if prev != "const" or depth:
                    return None
                # (a function between them may never run: then JavaScript throws nothing)
                inside = any(tokens[j][1] in ("function", "=>") for j in range(k, before))
                return None if inside else k - 1
    return None


def _parameter(tokens: list[Token], k: int) -> bool:
    """Whether the name at ``k``, inside parentheses, may be a parameter (the parentheses end
    before ``=>``, or follow ``function`` or a function's name); an argument or a condition
    (``if (v)``) is not."""
    depth = 0
    for j in range(k, len(tokens)):
        kind = tokens[j][0]
        if kind in ("(", "[", "{"):
            depth += 1
        elif kind in (")", "]", "}"):
            if depth == 0:
                if tokens[j + 1][1] == "=>":
                    return True
                break
            depth -= 1
    else:
        return True
    opening = k  # (the parenthesis the name is in)
    depth = 0
    while opening > 0:
        opening -= 1
        kind = tokens[opening][0]
        if kind in (")", "]", "}"):
            depth += 1
        elif kind in ("(", "[", "{"):
            if depth == 0:
                break
            depth -= 1
    before = [tokens[i][1] for i in range(max(opening - 2, 0), opening)]
    return "function" in before
