"""One statement changing a field of a record (SPEC 10, "Loops"), read on the tokens for
:mod:`.recordfields` and :mod:`.maprecords`: ``R.f op= V;``, ``R.f++;``, ``++R.f;``,
``R.f.push(A);`` after the record ``R`` (``o[k]``, ``m.get(k)``) as a :class:`Change`, and
:class:`CheckedObject`, what the check of one container's uses found."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dialectic.frontends.plan.parensets import pure_key
from dialectic.frontends.plan.tokenscan import value_end

__all__ = [
    "ASSIGN",
    "CHANGE_OPS",
    "ENDS",
    "Change",
    "CheckedObject",
    "change_after",
    "field_name",
    "member_end",
    "value_end",
]

#: the assigning operators of a field's change, and the operator of the value each makes
ASSIGN = {"=": "", "+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "||=": "||", "??=": "??"}
#: the tokens ending a statement
ENDS = (";", "}", "eof")
#: the operators of a change (a text without one after a member's member is not searched)
CHANGE_OPS = r"(?:[-+*/%]?=(?![=>])|\|\|=|\?\?=|\+\+|--)"


@dataclass(slots=True)
class Change:
    """One statement changing a record's field: its first token, the object's token, the
    token after the record (``o[k]``), after the field, the field, the change (an operator,
    ``++``, ``--`` or ``push``), the value's first token and the token after it."""

    start: int
    obj: int
    record: int
    after: int
    name: str
    kind: str
    value: int
    end: int
    #: the field is a key the statement computes (``o[k][j] = v``: ``name`` is empty)
    computed: bool = False


@dataclass(slots=True)
class CheckedObject:
    """What one object's check found: its changes, the statements to read as ``if (!R) R =
    {...};`` (first token, the record's tokens, the literal's first token, the statement's
    last token) and the ``!(k in o)`` tests to read as ``!o[k]`` (the `(`, the key's tokens)."""

    changes: list[Change] = field(default_factory=list)
    makes: list[tuple[int, int, int, int, int]] = field(default_factory=list)
    tests: list[tuple[int, int, int]] = field(default_factory=list)
    #: the second reads of ``R = R || {...};`` (part of the statement noted)
    skip: set[int] = field(default_factory=set)


def member_end(kinds: Sequence[str], partner: dict[int, int], i: int) -> int:
    """The token after the member at token ``i`` (``.name`` or ``[...]``), or -1."""
    if kinds[i] == "." and kinds[i + 1] == "name":
        return i + 2
    if kinds[i] == "[":
        return partner.get(i, -2) + 1
    return -1


def field_name(kinds: Sequence[str], values: Sequence[object], i: int, end: int) -> str | None:
    """The field the member from token ``i`` to ``end`` names (``.f``, ``["f"]``), else None."""
    if kinds[i] == ".":
        return str(values[i + 1])
    if end == i + 3 and kinds[i + 1] == "str":
        text = str(values[i + 1])
        if "\\" not in text:
            return text[1:-1]
    return None


def change_after(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    start: int,
    record: int,
    computed: bool = False,
) -> Change | None:
    """The change of a record's field by the statement at token ``start`` whose record
    (``o[k]``, ``m.get(k)``) ends before token ``record``: its field and what changes it
    (``computed``: also a field whose key is read the same twice, no call, ``o[k][j] = v``,
    ``o[k][i * 2] += 1``, not pushed onto)."""
    prefix = kinds[start] == "op"
    obj = start + 1 if prefix else start
    after = member_end(kinds, partner, record)
    name = field_name(kinds, values, record, after) if after > 0 else None
    keyed = computed and name is None and after > 0 and kinds[record] == "["
    if keyed and pure_key(kinds, values, record + 1, after - 1):
        name = ""
    if name is None:
        return None
    op = values[after]
    if prefix:
        if kinds[after] not in ENDS:
            return None
        return Change(start, obj, record, after, name, str(values[start]), after, after, keyed)
    if kinds[after] == "op" and op in ("++", "--"):
        if kinds[after + 1] not in ENDS:
            return None
        return Change(start, obj, record, after, name, str(op), after + 1, after + 1, keyed)
    if kinds[after] == "=" or (kinds[after] == "op" and op in ASSIGN):
        end = value_end(kinds, after + 1)
        if end < 0 or end == after + 1:
            return None
        return Change(start, obj, record, after, name, str(op), after + 1, end, keyed)
    if kinds[after] == "." and values[after + 1] == "push" and kinds[after + 2] == "(":
        close = partner.get(after + 2, -1)
        if close < 0 or close == after + 3 or kinds[close + 1] not in ENDS:
            return None
        return Change(start, obj, record, after, name, "push", after + 3, close, keyed)
    return None
    return -1
