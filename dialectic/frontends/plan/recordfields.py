"""A change to a field of a record held in an object the program wrote (SPEC 10, "Loops"): the
aggregation models write in a loop or a ``forEach``::

    const stats = {};
    for (const p of people) {
      const city = p.city || 'Unknown';
      if (!stats[city]) stats[city] = {count: 0, total: 0, names: []};
      stats[city].count += 1;
      stats[city].total += p.age;
      stats[city].names.push(p.name);
    }

Read before parsing, on the tokens (as :mod:`.memberpush` reads the group-by), each change of a
record's field is the record's new value, a change the loops make in place:
``R.f op= V;`` is ``R = {...R, "f": R.f op (V)};`` (``op=`` one of ``=``, ``+=``, ``-=``,
``*=``, ``/=``, ``%=``, ``||=``, ``??=``), ``R.f++;`` (also ``--`` and ``++R.f;``) is ``R =
{...R, "f": +R.f + 1};`` and ``R.f.push(A);`` is ``R = {...R, "f": [...R.f, A]};``, where ``R``
is ``o[k]`` or ``o.k`` (the key read the same twice: a name, a literal, a member chain of
names). The record is copied per change (a few fields: bounded by the program's text) and its
pushed list grows in place (:mod:`dialectic.resolve.foldinner`), so the loop stays linear. The
statements that make a record, ``R ??= {...};``, ``R ||= {...};``, ``R = R || {...};`` (or
``??``) and the test ``!(k in o)``, are read as ``if (!R) R = {...};`` (every member is a
record: the same test).

That is JavaScript's answer only when no record of ``o`` and no pushed list is held anywhere
else, so ``o`` is defined just as ``const o = {};`` (or ``let``) and, from there to the end of
the statement holding its last change, ``o`` appears only in such changes, in statements that
set a record to an object literal without a spread or computed key whose pushed fields are
array literals (``R = {count: 0, names: []};``), in the tests ``!R``, ``if (R)`` and ``k in
o``, and in reads of a field (``R.count``, ``o[x].total``; a pushed field only through a member
or an index, ``R.names.length``). A pushed field is changed by pushes only. Anything else (``const
r = o[k];``, ``all.push(o[k])``, ``f(o[k])``, ``o[a] = o[b]``, a key a call computes, a field's
field) leaves the statements as written, which the parser refuses with the reason
(:func:`refusal`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.parensets import MAX_OBJECTS, _same_twice, name_index
from dialectic.frontends.plan.recordchange import (
    ASSIGN,
    CHANGE_OPS,
    ENDS,
    Change,
    CheckedObject,
    change_after,
    field_name,
    member_end,
)
from dialectic.frontends.plan.recordwrite import rewrite
from dialectic.frontends.plan.tokenscan import (
    OPEN,
    holding_statement_end,
    partners,
    starts_statement,
)

__all__ = [
    "checked_containers",
    "checked_uses",
    "literal_end",
    "may_change",
    "record_changes",
    "refusal",
]

#: the methods that change an array in place (a pushed field read so is held elsewhere)
_MUTATING = frozenset(
    {"push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin"}
)
#: the words declaring a container
_DECLARED = frozenset(["const", "let", "var"])
#: a text that may hold `o[k].f op ...`, `o.k.f.push(`, `++o[k].f`, `o[k][j] op ...`: the token
#: pass decides
_MAYBE = re.compile(
    r"[.\]][\w$]*\s*(?:(?:\.[\w$]+|\[\s*[\"'][^\"'\n]*[\"']\s*\])\s*(?:"
    + CHANGE_OPS
    + r"|\.\s*push\s*\()|\[[^\[\]\n]*\]\s*(?:"
    + CHANGE_OPS
    + r"|\.\s*push\s*\())"
)
#: the field and the change of :data:`_MAYBE` (searched first: a literal `.` or `[` starts it,
#: which the search finds quickly; what stands before it is then looked at by hand)
_FIELD_CHANGES = (
    re.compile(r"\.[\w$]+\s*(?:" + CHANGE_OPS + r"|\.\s*push\s*\()"),
    re.compile(r"\[\s*[\"'][^\"'\n]*[\"']\s*\]\s*(?:" + CHANGE_OPS + r"|\.\s*push\s*\()"),
    re.compile(r"\[[^\[\]\n]*\]\s*(?:" + CHANGE_OPS + r"|\.\s*push\s*\()"),  # (`o[k][j] = v`)
)


def _field_change(source: str) -> bool:
    """Whether :data:`_MAYBE` matches ``source``: a field's change whose field follows a
    member (a ``.`` or a ``]``, then a name's characters, then spaces), in half its time."""
    for pattern in _FIELD_CHANGES:
        for m in pattern.finditer(source):
            i = m.start() - 1
            while i >= 0 and source[i].isspace():
                i -= 1
            while i >= 0 and (source[i].isalnum() or source[i] in "_$"):
                i -= 1
            if i >= 0 and source[i] in ".]":
                return True
    return False


#: `(o[k] ??= {})[j] = v;`, which :mod:`.parensets` wrote as two statements
_PAREN_SET = re.compile(
    r"\)\s*(?:\[[^\[\]\n]*\]|\.[\w$]+)\s*(?:" + CHANGE_OPS + r"|\.\s*push\s*\()"
)
#: `++o[k].f;` (searched when the text holds `++` or `--`)
_PREFIX = re.compile(r"(?:\+\+|--)\s*[\w$]+\s*[.\[]")


def record_changes(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each change of a field of a record held in an object the program
    wrote read as the record's new value (None: there is none)."""
    if "." not in source and "]" not in source:
        return None
    if (
        not _field_change(source)
        and not (("++" in source or "--" in source) and _PREFIX.search(source) is not None)
        and not (")" in source and _PAREN_SET.search(source) is not None)
    ):
        return None
    kept = checked_containers(tokens, _changes, _kept)
    return rewrite(source, tokens, kept) if kept else None


def may_change(source: str, written: re.Pattern[str], prefix: re.Pattern[str]) -> bool:
    """Whether ``source`` may hold a change of a record's field (``written``: its member and
    operator; ``prefix``: after `++` or `--`): a quick test of the text before the tokens."""
    if written.search(source):
        return True
    return ("++" in source or "--" in source) and prefix.search(source) is not None


def _kept(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    uses: list[int],
    changes: list[Change],
) -> CheckedObject | None:
    checked = CheckedObject(changes)
    return checked if _check(kinds, values, partner, uses, checked) is None else None


_Kept = TypeVar("_Kept")


def checked_containers(
    tokens: Lexed,
    find: Callable[[Sequence[str], Sequence[object], dict[int, int]], dict[str, list[Change]]],
    check: Callable[
        [Sequence[str], Sequence[object], dict[int, int], list[int], list[Change]], _Kept | None
    ],
) -> list[_Kept]:
    """What ``check`` keeps of each container's changes that ``find`` finds (given the
    tokens naming it); at most ``MAX_OBJECTS`` containers (each costs a pass: bounded)."""
    kinds, values = tokens.kinds, tokens.values
    partner = partners(kinds)
    found = find(kinds, values, partner)
    if not found:
        return []
    index = name_index(kinds, values)
    kept = []
    for obj, changes in list(found.items())[:MAX_OBJECTS]:
        one = check(kinds, values, partner, index.get(obj, []), changes)
        if one is not None:
            kept.append(one)
    return kept


def refusal(kinds: Sequence[str], values: Sequence[object], pos: int) -> tuple[int, str] | None:
    """Why the change of a record's field starting at token ``pos`` was not read (the token
    at fault and the reason), or None when the statement is no such change."""
    partner = partners(kinds)
    change = _change_at(kinds, values, partner, pos)
    if change is None:
        return None
    obj = str(values[change.obj])
    found = _changes(kinds, values, partner).get(obj, [change])
    return _check(
        kinds, values, partner, name_index(kinds, values).get(obj, []), CheckedObject(found)
    )


def _changes(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int]
) -> dict[str, list[Change]]:
    """Each object's changes of a record's field, in order."""
    found: dict[str, list[Change]] = {}
    for j, kind in enumerate(kinds):
        if kind == "name" or (kind == "op" and values[j] in ("++", "--")):
            if j and kinds[j - 1] not in (";", "{", "}", ")", "name"):
                continue  # (quick: no statement starts here)
            change = _change_at(kinds, values, partner, j)
            if change is not None:
                found.setdefault(str(values[change.obj]), []).append(change)
    return found


def _change_at(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], start: int
) -> Change | None:
    """The change of a record's field as the statement at token ``start``, else None."""
    prefix = kinds[start] == "op"
    obj = start + 1 if prefix else start
    if kinds[obj] != "name" or not starts_statement(kinds, values, partner, start):
        return None
    record = member_end(kinds, partner, obj + 1)
    if record < 0 or (kinds[obj + 1] == "[" and not _same_twice(kinds, obj + 2, record - 1)):
        return None
    return change_after(kinds, values, partner, start, record, computed=True)


def _check(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    uses: list[int],
    found: CheckedObject,
) -> tuple[int, str] | None:
    """Whether the object (``uses``: the tokens naming it) is defined as ``{}`` and used as
    the module says up to the end of the statement holding its last change: None, with what
    to rewrite in ``found``, else the token at fault and the reason."""
    changes = found.changes
    pushed = {c.name for c in changes if c.kind == "push"}
    if any(c.computed and c.kind == "push" for c in changes):
        why = _keyed_lists(kinds, changes)
        if why is not None:
            return why
    for c in changes:
        if c.name in pushed and c.kind != "push" and not c.computed:
            return c.after, f"the field `{c.name}` is pushed onto and set: push onto it only"
        if c.computed and pushed and "" not in pushed:
            return c.record, "a computed field of a record may be a pushed list: name the field"

    def use(j: int) -> str | None:
        return None if j in found.skip else _use(kinds, values, partner, j, pushed, found)

    def records(first: int) -> bool:  # `const o = {a: {n: 0}, b: {n: 0, xs: []}};`
        return kinds[first + 1] == "=" and _records_end(kinds, values, partner, first + 2, found)

    return checked_uses(kinds, values, uses, changes, ("=", "{", "}"), use, records)


def _keyed_lists(kinds: Sequence[str], changes: list[Change]) -> tuple[int, str] | None:
    """None when the records' computed fields are lists (``t[k][j].push(x)``) that only
    ``t[k][j] ??= [];`` (or ``||=``) makes and pushes grow, no other field changing (the
    records are ``{}``: :func:`literal_end`), else the token at fault and the reason."""
    for c in changes:
        if not c.computed:
            return c.after, "a record whose computed fields are pushed onto changes no named field"
        empty = c.end == c.value + 2 and kinds[c.value] == "[" and kinds[c.value + 1] == "]"
        if c.kind != "push" and not (c.kind in ("??=", "||=") and empty):
            why = "a computed field pushed onto is made only by `R[key] ??= [];`"
            return c.after, f"{why} and changed only by pushes"
    return None


def _records_end(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    i: int,
    found: CheckedObject,
) -> bool:
    """Whether token ``i`` starts an object literal ending its statement whose members are
    named and each a new record (:func:`_literal_end`)."""
    close = partner.get(i, -1) if kinds[i] == "{" else -1
    if close < 0 or kinds[close + 1] not in (";", "eof"):
        return False
    k = i + 1
    while k < close:
        if kinds[k] not in ("name", "str", "num") or kinds[k + 1] != ":":
            return False
        k = literal_end(kinds, values, partner, k + 2, found, (",", "}"))
        if k < 0:
            return False
        k += kinds[k] == ","
    return True


def checked_uses(
    kinds: Sequence[str],
    values: Sequence[object],
    uses: list[int],
    changes: list[Change],
    definition: tuple[str, ...],
    use: Callable[[int], str | None],
    other: Callable[[int], bool] | None = None,
) -> tuple[int, str] | None:
    """None when the container of the ``changes`` (``uses``: the tokens naming it) is
    defined as ``const o <definition>;`` (a new object or Map; or ``other`` says yes of the
    definition's name token) and each ``use`` of it, up to the end of the statement holding
    its last change, says None (the uses the changes make themselves aside), else the token
    at fault and the reason."""
    name = values[changes[0].obj]
    first = uses[0] if uses else changes[0].obj
    after = first + 1 + len(definition)
    declared = first > 0 and kinds[first - 1] == "name" and values[first - 1] in _DECLARED
    if not (
        declared
        and tuple(str(v) for v in values[first + 1 : after]) == definition
        and "str" not in kinds[first + 1 : after]
        and kinds[after] in (";", "eof")
    ) and not (declared and other is not None and other(first)):
        written = " ".join(definition).replace("{ }", "{}").replace(" (", "(").replace("( ", "(")
        also = " or an object of new records, {a: {n: 0}}" if other is not None else ""
        return first, f"`{name}` is not defined as `const {name} {written};`{also}: a new one"
    end = holding_statement_end(kinds, values, first, changes[-1].start)
    if end < 0:
        return changes[-1].start, f"`{name}` is changed outside the block that defines it"
    targets = {c.obj for c in changes}
    for j in uses[1:]:
        if j > end:
            break
        reason = None if j in targets else use(j)
        if reason is not None:
            return j, reason
    return None


def _use(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    j: int,
    pushed: set[str],
    found: CheckedObject,
) -> str | None:
    """None when the use of the object at token ``j`` holds no record and no pushed list
    (noting the statements to read another way in ``found``), else the reason."""
    name = values[j]
    if kinds[j - 1] == "name" and values[j - 1] == "in":  # `k in o`
        return _membership(kinds, values, partner, j, found)
    record = member_end(kinds, partner, j + 1)
    if record < 0:
        return f"`{name}` is read whole: JavaScript would share its records"
    after = member_end(kinds, partner, record)
    whole = f"the record `{name}[...]` is read whole here (JavaScript would share it)"
    if after < 0:
        return whole if _record_use(kinds, values, partner, j, record, found) else None
    member = field_name(kinds, values, record, after)
    if member is not None and "" in pushed:
        member = ""  # (a record's computed field is pushed onto: any field may be a list)
    if member is None and "" in pushed:
        return f"`{name}[...][...]` may be a list pushed onto in place: read it after the loop"
    if member is None and pushed:
        return f"a computed field of `{name}`'s record may be a pushed list: name the field"
    nxt, op = kinds[after], values[after]
    if nxt in ("=", "(") or (nxt == "op" and (op in ASSIGN or op in ("++", "--"))):
        if member is None and nxt != "(" and starts_statement(kinds, values, partner, j):
            why = "the field's key calls a function or is a template"
            return f"{why}: bind it first, `const key = ...;`"
        return f"a field of `{name}`'s record changes inside an expression: make it a statement"
    if member in pushed:
        if nxt == "[" or (nxt == "." and values[after + 1] not in _MUTATING):
            return None  # (`o[k].names.length`, `o[k].names[0]`)
        return f"the pushed list `{name}[...].{member}` is read whole here"
    return None


def _membership(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    j: int,
    found: CheckedObject,
) -> str | None:
    """``k in o`` (a test: it holds no record); ``!(k in o)`` noted to read as ``!o[k]``."""
    close = j + 1
    if kinds[close] == ")":
        open_ = partner.get(close, -1)
        if (
            open_ > 0
            and kinds[open_ - 1] == "op"
            and values[open_ - 1] == "!"
            and _same_twice(kinds, open_ + 1, j - 1)
        ):
            found.tests.append((open_, open_ + 1, j - 1))
        return None
    if kinds[close] == "op" and values[close] in ("&&", "||", "?"):
        return None
    return f"`{values[j]}` is read whole: JavaScript would share its records"


def _record_use(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    j: int,
    record: int,
    found: CheckedObject,
) -> bool:
    """Whether ``o[k]`` from token ``j`` to ``record`` holds its record anywhere: False for
    the tests ``!o[k]`` and ``if (o[k])`` and for a statement making a new record (noted)."""
    if kinds[j - 1] == "op" and values[j - 1] == "!":
        return kinds[record] not in (")", "op", ";")
    if kinds[j - 1] == "(" and values[j - 2] == "if" and kinds[record] == ")":
        return False
    if not starts_statement(kinds, values, partner, j):
        return True
    op = values[record]
    same = kinds[j + 1] != "[" or _same_twice(kinds, j + 2, record - 1)
    width = record - j
    if kinds[record] == "=" and kinds[record + 1] == "{":  # `o[k] = {...};`
        return literal_end(kinds, values, partner, record + 1, found) < 0
    if same and kinds[record] == "op" and op in ("??=", "||="):  # `o[k] ??= {...};`
        stop = literal_end(kinds, values, partner, record + 1, found)
        if stop < 0:
            return True
        found.makes.append((j, j, record, record + 1, stop))
        return False
    if same and kinds[record] == "=":  # `o[k] = o[k] || {...};`
        second = record + 1
        copy = list(zip(kinds[j:record], values[j:record], strict=True))
        stop = second + width
        again = list(zip(kinds[second:stop], values[second:stop], strict=False))
        either = second + width
        if again == copy and kinds[either] == "op" and values[either] in ("||", "??"):
            stop = literal_end(kinds, values, partner, either + 1, found)
            if stop < 0:
                return True
            found.makes.append((j, j, record, either + 1, stop))
            found.skip.add(second)
            return False
    return True


def literal_end(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    i: int,
    found: CheckedObject,
    ends: tuple[str, ...] = ENDS,
) -> int:
    """For a new record ``{...}`` at token ``i`` before one of ``ends``, with named fields
    (no spread, no computed key, no method) whose pushed fields are array literals: the token
    after it, else -1."""
    close = partner.get(i, -1)
    if close < 0 or kinds[close + 1] not in ends:
        return -1
    pushed = {c.name for c in found.changes if c.kind == "push"}
    if "" in pushed and close != i + 1:
        return -1  # (a record whose computed fields are pushed onto is `{}`)
    k = i + 1
    while k < close:
        if kinds[k] == "name" and kinds[k + 1] in (",", "}"):  # `{count}`
            if values[k] in pushed:
                return -1
            k += 2 if kinds[k + 1] == "," else 1
            continue
        if kinds[k] not in ("name", "str", "num") or kinds[k + 1] != ":":
            return -1
        key = field_name(kinds, values, k - 1, k + 2) if kinds[k] == "str" else str(values[k])
        if key is None:
            return -1
        stop = _value_end_in(kinds, partner, k + 2, close)
        if key in pushed and not (kinds[k + 2] == "[" and partner.get(k + 2) == stop - 1):
            return -1
        k = stop + 1 if kinds[stop] == "," else stop
    return close + 1


def _value_end_in(kinds: Sequence[str], partner: dict[int, int], i: int, close: int) -> int:
    """The `,` or `}` ending the literal's value from token ``i`` (its `}` at ``close``)."""
    k = i
    while k < close and kinds[k] != ",":
        if kinds[k] in OPEN:
            k = partner.get(k, close)
        k += 1
    return min(k, close)
