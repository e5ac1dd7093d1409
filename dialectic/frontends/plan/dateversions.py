"""A Date's setters as statements of a loop's body, an arrow function's body or a branch (SPEC
10, "Changes outside loops"), read before parsing, on the tokens::

    for (let i = 0; i < 3; i++) {
      const d = new Date(start);
      d.setUTCDate(d.getUTCDate() + i);
      days.push(d.toISOString().slice(0, 10));
    }

JavaScript changes the Date itself. The core's values never change, so each setter makes a new
version, as :mod:`.datesetters` does at the top of the program's or a function's block: the
definition becomes a hidden name (``const _date1 = new Date(start);``), each read up to the
setter reads it, and the statement is ``const d = new Date(new Date(_date1).setUTCDate(
_date1.getUTCDate() + i));`` (the setter's value, the new time, makes the new Date; its
arguments are read before the change, as JavaScript reads them). A second setter makes another
hidden version. That is JavaScript's answer only when nothing else holds the Date: the name is
defined in the same block as ``const d = new Date(...)`` (or a ``let`` never assigned), and up
to its last setter it is read only through its methods (``d.getUTCDate()``) or copied (``new
Date(d)``). Anything else leaves the program as written, which the resolver refuses ("changes a
Date in place"). Linear in the tokens: one scan, then one pass over each changed Date's block.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenwrite import TokenWriter
from dialectic.values.jsdate import SETTERS

__all__ = ["date_versions"]

#: how many Dates a program may change so (each costs a pass over its block)
_MAX_DATES = 64
_STATEMENT_BEFORE = frozenset([";", "{", "}"])
#: the block of a statement that is another's (`if (t) d.setDate(1);`)
_INSIDE = -2
#: an edit: the tokens ``[first, end)`` replaced by new ones (kind, value, place)
_Edit = tuple[int, int, list[tuple[str, object, int]]]


class _Date:
    """A name defined as ``const name = new Date(...);`` in a block, and its setters."""

    __slots__ = ("decl", "name", "block", "setters", "close", "same")

    def __init__(self, decl: int, name: str, block: int, close: int) -> None:
        self.decl = decl  # the name's token in its definition
        self.name = name
        self.block = block  # the `{` of the block holding it
        self.close = close  # that block's `}`
        self.setters: list[tuple[int, int]] = []  # (the name's token, the call's `)`)
        self.same = True  # whether every setter is a statement of the block itself


def date_versions(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with the setters above written as new versions (None: none)."""
    if ".set" not in source or "new Date" not in source:
        return None
    kinds, values = tokens.kinds, tokens.values
    partner, decls, setters = _scan(kinds, values)
    if not setters:
        return None
    edits: list[_Edit] = []
    taken = {v for k, v in zip(kinds, values, strict=True) if k == "name"}
    made = 0
    for name in list(setters)[:_MAX_DATES]:
        placed = decls.get(name, [])
        places = [s for s, _ in setters[name]]  # (in order: each definition's, by bisection)
        for n, (decl, block) in enumerate(placed):
            close = partner.get(block, -1) if block >= 0 else len(kinds) - 1
            inner = n + 1 < len(placed) and decl < placed[n + 1][0] < close
            if decl < 0 or close < 0 or inner:
                continue  # (not a Date, or the name defined again inside: left alone)
            date = _Date(decl, name, block, close)
            own = setters[name][bisect_left(places, decl) : bisect_left(places, close)]
            date.setters = [(s, partner.get(s + 3, -1)) for s, _ in own]
            date.same = all(b == block for _, b in own)
            if not date.setters or not _held_alone(kinds, values, date):
                continue
            if not date.same:  # (a setter in a block inside: the name is a `let` changed there)
                edits.extend(_reassigned(values, date))
                continue
            if block < 0 or not _changing_block(kinds, values, partner, block):
                continue  # (the program's or a function's block: :mod:`.datesetters`)
            names = []
            for _ in date.setters:
                made += 1
                while f"_date{made}" in taken:
                    made += 1
                names.append(f"_date{made}")
            edits.extend(_edits(kinds, values, date, [*names, name]))
    if not edits:
        return None
    edits.sort(key=lambda e: e[0])
    w = TokenWriter(tokens)
    at = 0
    for first, end, new in edits:
        w.copy(at, first)
        for kind, value, place in new:
            w.put(kind, value, place)
        at = end
    w.copy(at, len(kinds))
    return w.lexed(source)


def _scan(
    kinds: Sequence[str], values: Sequence[object]
) -> tuple[dict[int, int], dict[str, list[tuple[int, int]]], dict[str, list[tuple[int, int]]]]:
    """The brackets' partners, each name's definitions ``const name = new Date(`` (its
    token, the ``{`` of its block, -1 at the top) and its setter statements (the name's token,
    its block), in one pass."""
    partner: dict[int, int] = {}
    holder: list[int] = []  # the open brackets
    decls: dict[str, list[tuple[int, int]]] = {}
    setters: dict[str, list[tuple[int, int]]] = {}
    for i, kind in enumerate(kinds):
        if kind in ("(", "[", "{"):
            holder.append(i)
            continue
        if kind in (")", "]", "}"):
            if holder:
                opened = holder.pop()
                partner[opened] = i
                partner[i] = opened
            continue
        if kind != "name" or (holder and kinds[holder[-1]] != "{"):
            continue
        block = holder[-1] if holder else -1
        if i > 0 and kinds[i - 1] not in _STATEMENT_BEFORE:
            before = i - 1  # (`if (t) d.setDate(1);`: a statement inside another)
            head = values[partner.get(before, 0) - 1] if kinds[before] == ")" else values[before]
            if head not in ("if", "for", "while", "else", "do"):
                continue
            block = _INSIDE
        word = values[i]
        if word in ("const", "let", "var") and kinds[i + 1] == "name":
            date = kinds[i + 2] == "=" and values[i + 3] == "new" and values[i + 4] == "Date"
            # (another definition of the name: kept, so that one inside is seen)
            decls.setdefault(str(values[i + 1]), []).append((i + 1 if date else -1, block))
        elif (
            kinds[i + 1] == "."
            and values[i + 2] in SETTERS
            and values[i + 2] != "setYear"
            and kinds[i + 3] == "("
        ):
            setters.setdefault(str(word), []).append((i, block))
    return partner, decls, setters


def _changing_block(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], brace: int
) -> bool:
    """Whether the ``{`` at ``brace`` opens a block :mod:`.datesetters` does not read (a
    loop's body, an arrow function's, a branch's; not a ``function``'s body)."""
    before = brace - 1
    if before < 0:
        return False
    if kinds[before] == "op" and values[before] == "=>":
        return True
    if kinds[before] == "name" and values[before] in ("else", "do"):
        return True
    if kinds[before] != ")":
        return False
    head = partner.get(before, 0) - 1
    return head >= 0 and values[head] in ("for", "while", "if")


def _held_alone(kinds: Sequence[str], values: Sequence[object], date: _Date) -> bool:
    """Whether the Date is read only through its methods or copied (up to its last setter,
    when every setter is in its block; else anywhere in the block), each setter is a statement
    of its own, and the name is never assigned (nor bound again: a parameter of the same
    name)."""
    if any(close < 0 or kinds[close + 1] != ";" for _, close in date.setters):
        return False
    name = date.name
    setters = {s for s, _ in date.setters}
    last = date.setters[-1][1]
    for j in range(date.decl + 1, date.close):
        if values[j] != name or kinds[j] != "name" or kinds[j - 1] == ".":
            continue
        after = kinds[j + 1]
        if after == "=" or (after == "op" and str(values[j + 1]).endswith(("=", "=>", "++", "--"))):
            return False  # (assigned, or a parameter of the same name)
        if j in setters or (j > last and date.same):
            continue
        method = after == "." and kinds[j + 2] == "name" and kinds[j + 3] == "("
        if method and values[j + 2] not in SETTERS:
            continue
        copy = values[j - 2] == "Date" and kinds[j - 1] == "(" and after == ")"
        if not (copy and values[j - 3] == "new"):
            return False
    return True


def _edits(
    kinds: Sequence[str], values: Sequence[object], date: _Date, versions: list[str]
) -> list[_Edit]:
    """The edits: each token ``[first, end)`` replaced by new tokens (kind, value, place)."""
    name = date.name
    out: list[_Edit] = []
    decl = date.decl
    if values[decl - 1] == "let":
        out.append((decl - 1, decl, [("name", "const", decl - 1)]))
    out.append((decl, decl + 1, [("name", versions[0], decl)]))
    passed = 0  # the setters whose receiver is behind
    pending = -1  # the `)` of the setter being read
    last = date.setters[-1][1]
    for j in range(decl + 1, last + 1):
        if passed < len(date.setters) and j == date.setters[passed][0]:
            s, pending = date.setters[passed]
            before, after = versions[passed], versions[passed + 1]
            out.append((s, s + 1, [("name", "const", s), *_copy_of(after, before, s)]))
            passed += 1
        elif j == pending:
            out.append((j, j + 1, [(")", ")", j), (")", ")", j)]))
        elif kinds[j] == "name" and values[j] == name and kinds[j - 1] != ".":
            version = passed - 1 if j < pending else passed  # (the arguments: before)
            out.append((j, j + 1, [("name", versions[version], j)]))
    return out


def _copy_of(target: object, source: object, s: int) -> list[tuple[str, object, int]]:
    """The tokens ``target = new Date(new Date(source)`` in the place of token ``s`` (the
    setter's call and two `)` follow)."""
    return [
        ("name", target, s),
        ("=", "=", s),
        ("name", "new", s),
        ("name", "Date", s),
        ("(", "(", s),
        ("name", "new", s),
        ("name", "Date", s),
        ("(", "(", s),
        ("name", source, s),
        (")", ")", s),
    ]


def _reassigned(values: Sequence[object], date: _Date) -> list[_Edit]:
    """The edits for a Date a block inside changes: ``let d = new Date(x);`` and each setter
    ``d = new Date(new Date(d).setX(...));`` (the loops and branches read the ``let``)."""
    out: list[_Edit] = []
    decl, name = date.decl, date.name
    if values[decl - 1] == "const":
        out.append((decl - 1, decl, [("name", "let", decl - 1)]))
    for s, close in date.setters:
        out.append((s, s + 1, _copy_of(name, name, s)))
        out.append((close, close + 1, [(")", ")", close), (")", ")", close)]))
    return out
