"""A ``switch`` case that falls into the next case's statements (SPEC 10, "Switch"):

    switch (role) {
      case 'admin': perms.push('delete');
      case 'editor': perms.push('write');
      case 'viewer': perms.push('read'); break;
      default: perms.push('none');
    }

Read before parsing, on the tokens: a case whose statements hold no jump (no ``break``,
``continue``, ``return`` nor ``throw`` anywhere in them) is followed by a copy of the statements
it falls into, up to and with those of the first case that ends in a jump (its last statement
at the case's top level a ``break;``, ``continue;``, ``return ...;`` or ``throw ...;``), or up
to the ``switch``'s end and a ``break;``: ``case 'admin': perms.push('delete');
perms.push('write'); perms.push('read'); break;``. JavaScript runs the same statements in the
same order, so the ``switch`` is then one whose cases each end, read as before (a chain of
tests in a loop's body or a block, a choice when the cases return). Empty cases (grouped
labels) are passed through as JavaScript passes them. Left as written (refused as before): a
case whose statements jump but not as their last statement, a fallen-into case that declares
a name at its top level (the copy would declare it twice), a ``switch`` inside the copied
statements, and copies of more than :data:`MOST_COPIED` tokens in one program (the cost stays
linear)."""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import OPEN, partners
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["MOST_COPIED", "fall_throughs"]

#: the most tokens the copies of one program hold
MOST_COPIED = 4096
_JUMPS = frozenset(["break", "continue", "return", "throw"])
_DECLARING = frozenset(["const", "let", "var", "function", "class"])


def fall_throughs(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each case that falls into the next one's statements followed by a copy
    of them (None: there is none)."""
    if "switch" not in source or "case" not in source:
        return None
    kinds, values = tokens.kinds, tokens.values
    partner: dict[int, int] | None = None
    inserts: list[tuple[int, list[tuple[int, int]]]] = []  # (where, the ranges copied there)
    budget = MOST_COPIED
    for i, kind in enumerate(kinds):
        if not (kind == "name" and values[i] == "switch" and kinds[i + 1] == "("):
            continue
        if partner is None:
            partner = partners(kinds)
        head = partner.get(i + 1, -1)
        if head < 0 or kinds[head + 1] != "{":
            continue
        cases = _cases(kinds, values, partner, head + 1)
        if cases is None:
            continue
        copies, budget = _copies(kinds, values, partner, cases, budget)
        inserts.extend(copies)
        if budget < 0:
            break  # (the copies so far are each whole: the cases after stay as written)
    if not inserts:
        return None
    return _write(source, tokens, sorted(inserts))


def _cases(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], brace: int
) -> list[tuple[int, int]] | None:
    """The statements of each case of the ``switch`` body at ``brace``, as token ranges
    ``[first, end)`` (empty for a grouped label); None when the body is not read."""
    close = partner.get(brace, -1)
    if close < 0:
        return None
    labels: list[tuple[int, int]] = []  # (the label's first token, its `:`)
    i = brace + 1
    while i < close:
        kind = kinds[i]
        if kind in OPEN:
            i = partner.get(i, close) + 1
            continue
        if kind == "name" and values[i] in ("case", "default"):
            colon = _colon(kinds, values, partner, i, close)
            if colon < 0:
                return None
            labels.append((i, colon))
            i = colon + 1
            continue
        i += 1
    if not labels or labels[0][0] != brace + 1:
        return None
    out = []
    for n, (_, colon) in enumerate(labels):
        stop = labels[n + 1][0] if n + 1 < len(labels) else close
        out.append((colon + 1, stop))
    return out


def _colon(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], at: int, close: int
) -> int:
    """The `:` ending the label at token ``at`` (a conditional's `?`/`:` skipped), or -1."""
    if values[at] == "default":
        return at + 1 if kinds[at + 1] == ":" else -1
    pending = 0
    i = at + 1
    while i < close:
        kind = kinds[i]
        if kind in OPEN:
            i = partner.get(i, close) + 1
            continue
        if kind == "op" and values[i] == "?":
            pending += 1
        elif kind == ":":
            if not pending:
                return i
            pending -= 1
        elif kind in (";", "}"):
            return -1
        i += 1
    return -1


def _copies(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    cases: list[tuple[int, int]],
    budget: int,
) -> tuple[list[tuple[int, list[tuple[int, int]]]], int]:
    """For each case that falls into another's statements: where its copy goes (the end of
    its statements) and the ranges copied; none when the ``switch`` is not read so. Also the
    tokens left of ``budget`` (below 0: the copies stopped there, each one given whole)."""
    kinds_of = [_kind(kinds, values, partner, a, b) for a, b in cases]
    if "other" in kinds_of or ("falls" in kinds_of and "declares" in kinds_of):
        return [], budget
    count = len(cases)
    following = [count] * (count + 1)  # (the next case with statements, at or after each)
    for m in range(count - 1, -1, -1):
        following[m] = m if kinds_of[m] != "empty" else following[m + 1]
    out: list[tuple[int, list[tuple[int, int]]]] = []
    for n, (kind, (_, end)) in enumerate(zip(kinds_of, cases, strict=True)):
        if kind != "falls":
            continue
        copied: list[tuple[int, int]] = []
        m = following[n + 1]
        while m < count:  # (each step copies statements: at most the budget's steps)
            copied.append(cases[m])
            budget -= cases[m][1] - cases[m][0]
            if budget < 0:
                return out, budget
            if kinds_of[m] == "ends":
                break
            m = following[m + 1]
        else:
            copied.append((-1, -1))  # (to the `switch`'s end: a `break;` ends the case)
        if len(copied) > 1 or copied[0][0] >= 0:
            out.append((end, copied))
    return out, budget


def _kind(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], first: int, end: int
) -> str:
    """What the statements ``[first, end)`` of a case are: ``empty``, ``falls`` (no jump in
    them), ``ends`` (their last top-level statement a jump, none before), ``declares`` (a
    name declared at their top level) or ``other``."""
    if first >= end:
        return "empty"
    jumps = [i for i in range(first, end) if kinds[i] == "name" and values[i] in _JUMPS]
    i = first
    last = first  # (the last top-level statement's first token)
    while i < end:
        kind = kinds[i]
        if kind == "name" and values[i] in _DECLARING:
            return "declares"
        if kind == "name" and values[i] == "switch":
            return "other"
        if kind in OPEN:
            i = partner.get(i, end) + 1
            if kind == "{" and i < end:
                last = i
            continue
        if kind == ";" and i + 1 < end:
            last = i + 1
        i += 1
    if not jumps:
        return "falls"
    if kinds[last] == "name" and values[last] in _JUMPS and jumps == [last]:
        return "ends"
    return "other"


def _write(source: str, tokens: Lexed, inserts: list[tuple[int, list[tuple[int, int]]]]) -> Lexed:
    out = TokenWriter(tokens)
    at = 0
    for where, copied in inserts:
        out.copy(at, where)
        for a, b in copied:
            if a < 0:
                out.put("name", "break", where - 1)
                out.put(";", ";", where - 1)
            else:
                out.copy(a, b)
        at = where
    out.copy(at, len(tokens.kinds))
    return out.lexed(source)
