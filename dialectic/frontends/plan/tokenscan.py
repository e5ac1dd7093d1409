"""One token scanner for the Plan front end and its rewrites: the bracket sets over the token
kinds and the walks that find a bracket's partner, the innermost bracket around each token,
where a statement starts and where an expression or a statement ends. Each walk is one pass
(or, from a given token, one walk to the end it finds), with no call per token, so every
rewrite that runs on a program stays linear in its tokens.

Two bracket readings stand here, as the rewrites need them:

- :data:`OPEN` and :data:`CLOSE`: ``(``, ``[``, ``{`` and a template's ``${`` (``tplh``), which
  ends at its ``tplt`` (a template's ``}`` between pieces, ``tplm``, is neither). Closing
  brackets are counted without their kind: any of them closes the innermost open one.
- :data:`PAIRS`: the plain brackets by kind (no template pieces), for the rewrites that match a
  closing bracket only to an opening one of its own kind (:func:`typed_partners`).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "CLOSE",
    "OPEN",
    "PAIRS",
    "PLAIN_CLOSE",
    "PLAIN_OPEN",
    "closing",
    "enclosing",
    "expression_end",
    "holding_statement_end",
    "partners",
    "simple_end",
    "starts_statement",
    "typed_partners",
    "value_end",
]

#: the token kinds that open and close a bracket (a template's ``${`` and its end among them)
OPEN = frozenset(["(", "[", "{", "tplh"])
CLOSE = frozenset([")", "]", "}", "tplt"])
#: the plain brackets, each opening kind with its closing kind (no template pieces)
PAIRS = {"{": "}", "(": ")", "[": "]"}
#: the plain opening and closing brackets (a template's pieces not among them)
PLAIN_OPEN = frozenset(PAIRS)
PLAIN_CLOSE = frozenset(PAIRS.values())


def partners(kinds: Sequence[str]) -> dict[int, int]:
    """Each bracket's partner, both ways (:data:`OPEN`, :data:`CLOSE`; a closing bracket
    with none open is left out, and so is an opening one never closed)."""
    out: dict[int, int] = {}
    stack: list[int] = []
    for i, kind in enumerate(kinds):
        if kind in OPEN:
            stack.append(i)
        elif kind in CLOSE and stack:
            j = stack.pop()
            out[i], out[j] = j, i
    return out


def typed_partners(kinds: Sequence[str]) -> tuple[dict[int, int], dict[int, int]]:
    """The plain brackets' partners (:data:`PAIRS`): the closing one of each opening one and
    the opening one of each closing one. A closing bracket matches only an innermost open one
    of its own kind (else it is passed over, and that one stays open)."""
    match: dict[int, int] = {}
    opener: dict[int, int] = {}
    stack: list[int] = []
    for i, kind in enumerate(kinds):
        if kind in PLAIN_OPEN:
            stack.append(i)
        elif kind in PLAIN_CLOSE and stack and PAIRS[kinds[stack[-1]]] == kind:
            opened = stack.pop()
            match[opened] = i
            opener[i] = opened
    return match, opener


def enclosing(kinds: Sequence[str]) -> list[int]:
    """Each token's innermost open bracket (-1: none), in one pass; a closing bracket's is
    the one around its opening one."""
    out: list[int] = []
    stack: list[int] = []
    for i, kind in enumerate(kinds):
        out.append(stack[-1] if stack else -1)
        if kind in OPEN:
            stack.append(i)
        elif kind in CLOSE and stack:
            stack.pop()
            out[i] = stack[-1] if stack else -1
    return out


def expression_end(kinds: Sequence[str], i: int, stops: tuple[str, ...]) -> int:
    """The token ending the expression that starts at token ``i``: the first of the kinds
    ``stops`` outside brackets, or a bracket closing one it is inside (or ``eof``)."""
    depth = 0
    while kinds[i] != "eof":
        kind = kinds[i]
        if kind in OPEN:
            depth += 1
        elif kind in CLOSE:
            depth -= 1
            if depth < 0:
                return i
        elif depth == 0 and kind in stops:
            return i
        i += 1
    return i


def closing(kinds: Sequence[str], i: int) -> int:
    """The token closing the bracket (``(``, ``[``, ``{`` or a template's ``${``) that opens
    at token ``i``, brackets of every kind counted; the ``eof`` token if it is never closed."""
    return expression_end(kinds, i + 1, ())


def simple_end(kinds: Sequence[str], partner: dict[int, int], j: int) -> int:
    """The `;` ending the simple statement whose rest starts at token ``j`` (brackets jumped
    over by their ``partner``), or -1 when a closing bracket or the end comes first, or a
    bracket is never closed."""
    n = len(kinds)
    while j < n:
        kind = kinds[j]
        if kind == ";":
            return j
        if kind in OPEN:
            j = partner.get(j, -1)
            if j < 0:
                return -1
        elif kind in (")", "]", "}", "eof"):
            return -1
        j += 1
    return -1


def value_end(kinds: Sequence[str], i: int) -> int:
    """The token ending the statement whose rest starts at token ``i`` (its `;`, the `}` of
    its block or the end), or -1 when a `,` at its level ends it first."""
    depth = 0
    for j in range(i, len(kinds)):
        kind = kinds[j]
        if kind in OPEN:
            depth += 1
        elif kind in CLOSE:
            depth -= 1
            if depth < 0:
                return j if kind == "}" else -1
        elif depth == 0 and kind in (";", "eof"):
            return j
        elif depth == 0 and kind == ",":
            return -1
    return -1


def holding_statement_end(
    kinds: Sequence[str], values: Sequence[object], decl: int, last: int
) -> int:
    """The last token of the statement, in the block holding token ``decl``, that holds
    token ``last``; -1 when ``last`` is outside that block."""
    depth = 0
    for kind in kinds[decl:last]:
        if kind in OPEN:
            depth += 1
        elif kind in CLOSE:
            depth -= 1
            if depth < 0:
                return -1
    end = len(kinds) - 1
    for j in range(last, end):
        kind = kinds[j]
        if kind in OPEN:
            depth += 1
        elif kind in CLOSE:
            depth -= 1
            if depth < 0:
                return j
            if depth == 0 and kind == "}" and values[j + 1] not in ("else", "while"):
                return j
        elif kind == ";" and depth == 0:
            return j
    return end


#: the statement keywords a `(` after `)` of their head starts a statement for
_HEADS = frozenset(["if", "for", "while"])


def starts_statement(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], i: int
) -> bool:
    """Whether a statement starts at token ``i``: after `;`, `{`, `else`, `do`, the `)` of an
    ``if``/``for``/``while`` head, a statement's block's `}` or a ``switch`` case's label."""
    if i == 0 or kinds[i - 1] in (";", "{"):
        return True
    before = i - 1
    if kinds[before] == "name" and values[before] in ("else", "do"):
        return True
    if kinds[before] == ")":  # `if (c) (...)`: the head of a statement
        head = partner.get(before, 0) - 1
        return head >= 0 and kinds[head] == "name" and values[head] in _HEADS
    if kinds[before] == "}":  # the end of a statement's block
        brace = partner.get(before, 0) - 1
        return brace >= 0 and (kinds[brace] == ")" or values[brace] in ("else", "do", "try"))
    return kinds[before] == ":" and _case_label(kinds, values, partner, before)


#: the tokens a case label's expression stops at, back from its `:` (a statement's end, a
#: conditional's `?`: `a ? b : c`)
_NOT_LABEL = frozenset([";", "{", "}", "eof"])
#: the most tokens a case label's expression is read back (a statement's cost stays bounded)
_LABEL_TOKENS = 64


def _case_label(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], colon: int
) -> bool:
    """Whether the ``:`` at token ``colon`` ends a ``switch`` case's label (``case 'a':``,
    ``default:``), after which a statement starts."""
    j = colon - 1
    if kinds[j] == "name" and values[j] == "default":
        return True
    for _ in range(_LABEL_TOKENS):
        if j < 0 or kinds[j] in _NOT_LABEL or (kinds[j] == "op" and values[j] == "?"):
            return False
        if kinds[j] == "name" and values[j] == "case":
            return True
        if kinds[j] in (")", "]"):  # (a bracket's inside is the label's expression)
            j = partner.get(j, j)
        j -= 1
    return False


def counting_loop(
    kinds: Sequence[str], values: Sequence[object], s: int, bound: int
) -> tuple[object, int] | None:
    """``(I, the head's closing ")")`` when the tokens around ``s`` (the start of a loop's list)
    read ``for (let I = 0; I < BOUND; I++)`` (also ``++I``, ``I += 1``), ``BOUND`` being the
    ``bound`` tokens from ``s + 4`` (the caller reads them); None otherwise."""
    if s < 5 or [values[s - 5], values[s - 4], values[s - 3], kinds[s - 2]] != [
        "for", "(", "let", "name"
    ]:  # fmt: skip
        return None
    index = values[s - 2]
    head = [(kinds[j], values[j]) for j in range(s - 1, s + 4)]
    if head != [("=", "="), ("num", "0"), (";", ";"), ("name", index), ("op", "<")]:
        return None
    end = s + 4 + bound  # (the head's second `;`)
    if end + 4 >= len(kinds) or kinds[end] != ";":
        return None
    step = [values[j] for j in range(end + 1, end + 5)]
    close = end + 3 if step[:3] in ([index, "++", ")"], ["++", index, ")"]) else end + 4
    if close == end + 4 and step != [index, "+=", "1", ")"]:
        return None
    return index, close
