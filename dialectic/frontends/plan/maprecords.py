"""A change to a field of a record held in a Map the program wrote (SPEC 10, "Loops"), as
:mod:`.recordfields` reads one held in an object::

    const byCity = new Map();
    for (const p of people) {
      if (!byCity.has(p.city)) byCity.set(p.city, {count: 0, total: 0});
      byCity.get(p.city).count++;
      byCity.get(p.city).total += p.age;
    }

Read before parsing, on the tokens: ``M.get(K).f op= V;`` (``op=`` as there, ``++`` and ``--``
too) is ``M.set(K, {...(M.has(K) ? M.get(K) : M.get(K).f), "f": M.get(K).f op (V)});``: a new
version of the Map (O(1)) holding the record copied with the field changed (a few fields). A key
without a record fails, as JavaScript throws (the read of ``f`` of ``undefined``). The key is
read several times, so it reads the same each time (a name, a literal, a member chain of names).

JavaScript's answer only when no record of ``M`` is held elsewhere: ``M`` is defined just as
``const M = new Map();`` and, to the end of the statement holding its last change, appears only
in such changes, in the statements ``M.set(X, {...});`` of an object literal without a spread
or a computed key, in ``M.has(X)`` and ``M.size``, in the tests ``!M.get(X)`` and ``if
(M.get(X))``, and in reads of a field (``M.get(X).count``). A push onto a record's list
(``M.get(K).names.push(x)``) is not read so (its list would copy per push): anything else
leaves the statements as written, refused with the reason (:func:`map_refusal`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.parensets import _same_twice, name_index
from dialectic.frontends.plan.recordchange import (
    ASSIGN,
    CHANGE_OPS,
    ENDS,
    Change,
    CheckedObject,
    change_after,
    member_end,
)
from dialectic.frontends.plan.recordfields import (
    checked_containers,
    checked_uses,
    literal_end,
    may_change,
)
from dialectic.frontends.plan.recordwrite import write_field
from dialectic.frontends.plan.tokenscan import OPEN, partners, starts_statement
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["map_record_changes", "map_refusal"]

#: a text that may hold `m.get(k).f op ...` or `++m.get(k).f`: the token pass decides
_MAYBE = re.compile(r"\)\s*(?:\.[\w$]+|\[\s*[\"'][^\"'\n]*[\"']\s*\])\s*" + CHANGE_OPS)
#: `++m.get(k).f;`
_PREFIX = re.compile(r"(?:\+\+|--)\s*[\w$]+\s*\.\s*get\b")


def map_record_changes(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each change of a field of a record held in a Map the program wrote
    read as the Map's new version (None: there is none)."""
    if ".get(" not in source or not may_change(source, _MAYBE, _PREFIX):
        return None
    kept = [
        c
        for changes in checked_containers(
            tokens, _changes, lambda k, v, p, u, c: c if _check(k, v, p, u, c) is None else None
        )
        for c in changes
    ]
    if not kept:
        return None
    out = TokenWriter(tokens)
    at = 0
    for c in sorted(kept, key=lambda c: c.start):
        out.copy(at, c.start)
        at = _write(out, c)
    out.copy(at, len(tokens.kinds))
    return out.lexed(source)


def map_refusal(kinds: Sequence[str], values: Sequence[object], pos: int) -> tuple[int, str] | None:
    """Why the change of a field of a Map's record at token ``pos`` (its first token) was not
    read (the token at fault and the reason), else None."""
    partner = partners(kinds)
    change = _change_at(kinds, values, partner, pos)
    if change is None:
        close = partner.get(pos + 3, -1) if kinds[pos] == "name" else -1
        after = member_end(kinds, partner, close + 1) if close > 0 else -1
        if after > 0 and kinds[after] == "." and values[after + 1] == "push":
            return pos, "a push onto a list in a Map's record copies the list each time"
        return pos, "its key is not read the same twice (a call or an operator)"
    obj = str(values[change.obj])
    found = _changes(kinds, values, partner).get(obj, [change])
    return _check(kinds, values, partner, name_index(kinds, values).get(obj, []), found)


def _changes(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int]
) -> dict[str, list[Change]]:
    """Each Map's changes of a record's field, in order."""
    found: dict[str, list[Change]] = {}
    for j, kind in enumerate(kinds):
        if kind == "name" and values[j] == "get" and kinds[j - 1] == "." and kinds[j + 1] == "(":
            start = j - 2
            if start > 0 and kinds[start - 1] == "op" and values[start - 1] in ("++", "--"):
                start -= 1
            change = _change_at(kinds, values, partner, start)
            if change is not None:
                found.setdefault(str(values[change.obj]), []).append(change)
    return found


def _change_at(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], start: int
) -> Change | None:
    """The statement ``M.get(K).f op V;`` (also ``++``, ``--``) at token ``start``, else
    None (``record``: the token after ``M.get(K)``)."""
    prefix = kinds[start] == "op"
    obj = start + 1 if prefix else start
    if not (
        kinds[obj] == "name"
        and kinds[obj + 1] == "."
        and values[obj + 2] == "get"
        and kinds[obj + 3] == "("
        and starts_statement(kinds, values, partner, start)
    ):
        return None
    close = partner.get(obj + 3, -1)
    if close < 0 or not _same_twice(kinds, obj + 4, close):
        return None
    change = change_after(kinds, values, partner, start, close + 1)
    return change if change is None or change.kind != "push" else None


def _check(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    uses: list[int],
    changes: list[Change],
) -> tuple[int, str] | None:
    """None when the Map (``uses``: the tokens naming it) is defined as ``new Map()`` and used
    as the module says up to the end of the statement holding its last change, else the token
    at fault and the reason."""
    definition = ("=", "new", "Map", "(", ")")
    return checked_uses(
        kinds, values, uses, changes, definition, partial(_use, kinds, values, partner)
    )


def _use(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], j: int
) -> str | None:
    """None when the use of the Map at token ``j`` holds no record, else the reason."""
    name = values[j]
    whole = f"`{name}` is read whole: JavaScript would share its records"
    if kinds[j + 1] != ".":
        return whole
    method = values[j + 2]
    if method in ("has", "size"):
        return None
    if kinds[j + 3] != "(":
        return whole
    close = partner.get(j + 3, -1)
    if method == "set" and starts_statement(kinds, values, partner, j):
        comma = _comma(kinds, partner, j + 4, close)
        literal = comma + 1
        if (
            comma > 0
            and kinds[close + 1] in ENDS
            and literal_end(kinds, values, partner, literal, CheckedObject(), (")",)) == close
        ):
            return None
        return f"`{name}.set` stores a value other than a new record literal"
    if method != "get":
        return whole
    record = close + 1
    after = member_end(kinds, partner, record)
    if after < 0:
        if kinds[j - 1] == "op" and values[j - 1] == "!" and kinds[record] in (")", "op", ";"):
            return None
        if kinds[j - 1] == "(" and values[j - 2] == "if" and kinds[record] == ")":
            return None
        return f"the record `{name}.get(...)` is read whole here (JavaScript would share it)"
    nxt, op = kinds[after], values[after]
    if nxt in ("=", "(") or (nxt == "op" and (op in ASSIGN or op in ("++", "--"))):
        return f"a field of `{name}`'s record changes inside an expression: make it a statement"
    if nxt == "." and values[after + 1] == "push":
        return "a push onto a list in a Map's record copies the list each time"
    return None


def _comma(kinds: Sequence[str], partner: dict[int, int], i: int, close: int) -> int:
    """The `,` between the two arguments from token ``i`` to ``close``, else -1."""
    while i < close:
        if kinds[i] == ",":
            return i
        i = partner.get(i, i) + 1 if kinds[i] in OPEN else i + 1
    return -1


def _write(out: TokenWriter, c: Change) -> int:
    """``M.set(K, {...(M.has(K) ? M.get(K) : M.get(K).f), "f": VALUE})`` for the change
    ``c``; the token after what it replaced."""
    put, copy = out.put, out.copy
    op = c.after
    key, close = c.obj + 4, c.record - 1
    copy(c.obj, c.obj + 2)  # `M.`
    put("name", "set", c.obj + 2)
    put("(", "(", c.obj + 3)
    copy(key, close)
    put(",", ",", op)
    put("{", "{", op)
    put("op", "...", op)
    put("(", "(", op)
    copy(c.obj, c.obj + 2)  # `M.has(K)`
    put("name", "has", c.obj + 2)
    copy(c.obj + 3, c.record)
    put("op", "?", op)
    copy(c.obj, c.record)  # M.get(K)
    put(":", ":", op)
    copy(c.obj, c.after)  # M.get(K).f: fails as JavaScript's set does
    put(")", ")", op)
    put(",", ",", op)
    at = write_field(out, c)
    put(")", ")", at - 1)
    return at
