"""The body of a loop that changes its items' members (:mod:`.itemloops`), read statement by
statement on the tokens: each reference of the item is a member set (a change), a member
read, a whole read, or refused. The checks JavaScript's sharing needs: the item is not held
elsewhere before a change (a whole read comes after the body's last change, outside a loop
inside the body that changes it), nor declared again, nor assigned; the array is read in the
body only as ``NAME.length``; ``break``, ``continue`` and ``return`` are the loop's own or an
inner loop's / function's."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from dialectic.frontends.plan.itemloops import SETS, ItemLoop
from dialectic.frontends.plan.tokenscan import OPEN, starts_statement

__all__ = ["BodyPlan", "Change", "ItemRefusal", "read_body"]

#: array methods that change the array: on a member of the item, only `push` is read
MUTATORS = frozenset(
    ["push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin"]
)
_INCREMENTS = frozenset(["++", "--"])
#: the methods that reorder the item itself, and the copy each is (a change of the item)
REORDERS = {"sort": "toSorted", "reverse": "toReversed"}
_REORDER_HINT = "build a new array: const sorted = {0}.map(x => x.{1}(...));"
_SNAPSHOTS = frozenset(["keys", "values", "entries", "stringify"])
_MAP_HINT = "build a new array instead: const out = xs.map(x => ({...x, total: x.price * x.qty}));"


class ItemRefusal(Exception):
    """A loop that changes its items, refused: the message, the token, the hint."""

    def __init__(self, message: str, token: int, hint: str | None = _MAP_HINT) -> None:
        super().__init__(message)
        self.message, self.token, self.hint = message, token, hint


@dataclass
class Change:
    """One statement of the body changing the item: ``kind`` is "set" (``op`` the token of the
    assignment or increment), "push", "delete" or "replace"; ``first``/``end`` its tokens (end:
    the `;`, or the body's end without one); ``key``: the member's tokens (``[k]``: the first
    and the closing bracket; ``.k``: the name's token twice)."""

    kind: str
    first: int
    end: int
    ref: int  # the item reference's first token
    ref_end: int
    key: tuple[int, int] = (-1, -1)
    op: int = -1


@dataclass
class BodyPlan:
    changes: list[Change] = field(default_factory=list)
    #: the loop's own `break` / `continue` tokens (and `forEach`'s `return`, as continue)
    breaks: list[int] = field(default_factory=list)
    continues: list[int] = field(default_factory=list)
    #: the tokens of `NAME.length` reads of the array in the body (the name's token)
    lengths: list[int] = field(default_factory=list)
    #: the whole reads of the item (token), written as the current value
    wholes: list[int] = field(default_factory=list)


def _end(kinds: Sequence[str], partner: dict[int, int], j: int, stop: int) -> int:
    """The `;` ending the statement from ``j`` (``stop``: the body's end without one), or -1."""
    while j < stop:
        kind = kinds[j]
        if kind == ";":
            return j
        if kind in OPEN:
            j = partner.get(j, -1)
            if j < 0:
                return -1
        elif kind in (")", "]", "}"):
            return j if kind == "}" else -1
        j += 1
    return stop if j == stop else -1


class _Reader:
    def __init__(
        self,
        kinds: Sequence[str],
        values: Sequence[object],
        partner: dict[int, int],
        loop: ItemLoop,
        deep: bool,
    ) -> None:
        self.kinds, self.values, self.partner, self.loop = kinds, values, partner, loop
        self.deep = deep
        self.plan = BodyPlan()
        #: the first refusal met (raised only when the body changes its item), and whether
        #: it refuses a change of the item (raised then in any case)
        self.refusal: ItemRefusal | None = None
        self.changing = False
        #: the heads of the loops inside (their tokens, and their bodies' end), and the calls
        #: of a method of an item's member (the item's token, the call's brackets): a change
        #: of the item inside either is refused (the list would be read once, the item's
        #: version before the change)
        self.heads: list[tuple[int, int, int]] = []
        self.calls: list[tuple[int, int, int]] = []
        #: the counting loop's sets of a whole item (`xs[i] = v;`): the loop is then no loop
        #: that changes its items' members, unless it also does (refused)
        self.item_sets: list[int] = []

    def starts(self, j: int) -> bool:
        return j == self.loop.first or starts_statement(self.kinds, self.values, self.partner, j)

    def end_at(self, j: int, what: int) -> int:
        end = _end(self.kinds, self.partner, j, self.loop.end)
        if end < 0:
            raise ItemRefusal("a change of the loop's item must be a statement of its own", what)
        return end

    def reference(self, j: int, k: int) -> None:
        """Classify the item's reference at tokens ``j`` to ``k``."""
        kinds, values, partner, loop = self.kinds, self.values, self.partner, self.loop
        var = loop.var
        prev = values[j - 1]
        if prev == "delete" and kinds[j - 1] == "name":
            self.deletion(j, k)
            return
        members: list[tuple[int, int]] = []
        m = k
        while True:
            if kinds[m] == "." and kinds[m + 1] == "name":
                members.append((m + 1, m + 1))
                m += 2
            elif kinds[m] == "[" and partner.get(m, -1) > m:
                members.append((m, partner[m]))
                m = partner[m] + 1
            else:
                break
        after = values[m]
        assigns = kinds[m] == "=" or (kinds[m] == "op" and after in SETS | _INCREMENTS)
        if prev in _INCREMENTS and kinds[j - 1] == "op":
            if len(members) == 1 and self.starts(j - 1):
                end = self.end_at(m, j)
                if end != m:
                    raise ItemRefusal("a change of the loop's item must be a statement", j)
                self.plan.changes.append(Change("set", j - 1, end, j, k, members[0], j - 1))
                return
            raise ItemRefusal(f"`{prev}` of `{var}` here changes it inside an expression", j)
        if assigns:
            self.assignment(j, k, members, m)
            return
        if kinds[m] == "(" and len(members) == 1 and values[members[0][0]] in REORDERS:
            self.reorder(j, m, str(values[members[0][0]]))
            return
        if kinds[m] == "(" and members and kinds[members[-1][0]] == "name":
            method = values[members[-1][0]]
            if method in MUTATORS and len(members) >= 2:
                self.push(j, k, members, m, str(method))
                return
        if kinds[m] == "(" and members:
            self.calls.append((j, m, partner.get(m, m)))
        if members or kinds[m] == "?.":
            return  # a member read
        self.whole(j, k)

    def assignment(self, j: int, k: int, members: list[tuple[int, int]], m: int) -> None:
        kinds, loop = self.kinds, self.loop
        if not self.starts(j):
            raise ItemRefusal(
                f"a change of `{loop.var}` inside an expression (Plan reads it only as a "
                "statement of its own)",
                j,
            )
        if not members:
            if loop.kind == "count" and kinds[m] == "=" and kinds[m + 1] == "{":
                close = self.partner.get(m + 1, -1)
                end = self.end_at(m + 1, j)
                if close == end - 1 or (close == end - 1 and kinds[end] != ";"):
                    self.plan.changes.append(Change("replace", j, end, j, k, op=m))
                    self.deep = False
                    return
            if loop.kind == "count":  # `xs[i] = xs[i] * 2;`: an item
                self.item_sets.append(j)  # set, read by the loops (:mod:`.arrayloops`)
                return
            raise ItemRefusal(
                f"`{loop.var}` is assigned: JavaScript's array keeps its item"
                if loop.kind != "count"
                else f"`{loop.var}` is assigned a value that is not a new object",
                j,
                "set its members (`x.k = v;`), or build a new array with `.map`",
            )
        if len(members) > 1:
            raise ItemRefusal(
                f"a change of a member's member of `{loop.var}`: Plan changes the loop's "
                "items only one level deep",
                j,
            )
        end = self.end_at(m + 1, j)
        if self.values[m] in _INCREMENTS and end != m + 1:
            raise ItemRefusal("a change of the loop's item must be a statement", j)
        self.plan.changes.append(Change("set", j, end, j, k, members[0], m))

    def push(self, j: int, k: int, members: list[tuple[int, int]], m: int, method: str) -> None:
        loop = self.loop
        if method != "push" or len(members) != 2 or not self.starts(j):
            raise ItemRefusal(
                f"`.{method}(...)` changes an array inside `{loop.var}` in place; Plan reads "
                "only the statement `x.k.push(v);` there",
                j,
            )
        if not self.deep:
            raise ItemRefusal(
                f"`{loop.var}` may share its arrays with other values (`{loop.array}` is not "
                "made by a call or of literals only): its push would show there too in "
                "JavaScript",
                j,
            )
        close = self.partner.get(m, -1)
        end = self.end_at(close + 1, j)
        if end != close + 1:
            raise ItemRefusal("a change of the loop's item must be a statement", j)
        self.plan.changes.append(Change("push", j, end, j, k, members[0], m))

    def reorder(self, j: int, m: int, method: str) -> None:
        """``x.sort(c);`` (``x.reverse();``) of the item at token ``j`` (``m``: the call's
        ``(``): the item's next value is its reordered copy (the array holds it)."""
        loop, hint = self.loop, _REORDER_HINT.format(self.loop.array, REORDERS[method])
        if not self.starts(j):
            raise ItemRefusal(
                f"`{method}()` of `{loop.var}` inside an expression (Plan reads it only as a "
                "statement of its own)",
                j,
                hint,
            )
        if not self.deep:
            raise ItemRefusal(
                f"`{loop.var}` may be an array held elsewhere too (`{loop.array}` is not made "
                f"by a call or of literals only): `{method}()` would reorder it there too in "
                "JavaScript",
                j,
                hint,
            )
        close = self.partner.get(m, -1)
        end = self.end_at(close + 1, j)
        if end != close + 1:
            raise ItemRefusal("a change of the loop's item must be a statement", j, hint)
        if any(m < r < close for r in (ref for ref, _ in loop.refs)):
            raise ItemRefusal(
                f"the comparator reads `{loop.var}`, which JavaScript is reordering as it runs",
                j,
                hint,
            )
        self.plan.changes.append(Change("reorder", j, end, j, j + 1, (m - 1, m - 1), m))

    def deletion(self, j: int, k: int) -> None:
        kinds, partner = self.kinds, self.partner
        if kinds[k] == "." and kinds[k + 1] == "name":
            key, after = (k + 1, k + 1), k + 2
        elif kinds[k] == "[" and partner.get(k, -1) > k:
            key, after = (k, partner[k]), partner[k] + 1
        else:
            raise ItemRefusal(f"`delete {self.loop.var}` deletes no member", j)
        end = self.end_at(after, j)
        if end != after or not self.starts(j - 1):
            raise ItemRefusal("`delete` of the loop's item's member must be a statement", j)
        self.plan.changes.append(Change("delete", j - 1, end, j, k, key))

    def whole(self, j: int, k: int) -> None:
        kinds, values = self.kinds, self.values
        if values[j - 1] in ("in", "...") or kinds[j - 1] in ("tplh", "tplm"):
            return  # (`'k' in x`, `${x}`, `{...x}`: a text, a test or a copy, made then)
        if (
            kinds[j - 1] == "("
            and kinds[k] == ")"
            and values[j - 2] in _SNAPSHOTS
            and values[j - 4] in ("Object", "JSON")
        ):
            return
        self.plan.wholes.append(j)


def read_body(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    loop: ItemLoop,
    deep: bool,
) -> BodyPlan:
    """The body's plan, or :class:`ItemRefusal`."""
    reader = _Reader(kinds, values, partner, loop, deep)
    refs = dict(loop.refs)
    _statements(reader, refs)
    plan = reader.plan
    if reader.refusal is not None and (plan.changes or reader.changing):
        raise reader.refusal
    if reader.item_sets and plan.changes:
        raise ItemRefusal(
            f"`{loop.var}` is assigned a value that is not a new object, and its members are "
            "changed in the same loop",
            reader.item_sets[0],
            "set its members (`x.k = v;`), or build a new array with `.map`",
        )
    if not plan.changes:
        raise ItemRefusal("no change", -1)  # (not such a loop: left as written)
    reorders = [c for c in plan.changes if c.kind == "reorder"]
    if reorders and len(reorders) < len(plan.changes):
        raise ItemRefusal(
            f"the body both reorders `{loop.var}` and changes its members: an array's members "
            "are its items",
            reorders[0].first,
            _REORDER_HINT.format(loop.array, "toSorted"),
        )
    last = max(c.end for c in plan.changes)
    for j in plan.wholes:
        if j < last:
            raise ItemRefusal(
                f"`{loop.var}` is read whole before the loop's body changes it: JavaScript's "
                "reader would hold the object the change goes on to change",
                j,
                "read its members instead, or make the changes first",
            )
    return plan


def _statements(reader: _Reader, refs: dict[int, int]) -> None:
    """One walk of the body: its references, declarations and jumps."""
    kinds, values, loop = reader.kinds, reader.values, reader.loop
    plan = reader.plan
    stack: list[tuple[int, str]] = []  # the inner loops, switches and functions around
    changed_inner = False
    for j in range(loop.first, loop.end):
        while stack and j >= stack[-1][0]:
            stack.pop()
        kind, value = kinds[j], values[j]
        if j in refs:
            try:
                reader.reference(j, refs[j])
            except ItemRefusal as refusal:
                if reader.refusal is None or not reader.changing:
                    reader.refusal, reader.changing = refusal, True
                continue
            if plan.changes and plan.changes[-1].ref == j and any(t == "loop" for _, t in stack):
                changed_inner = True
            continue
        if kind != "name" and value != "=>":
            continue
        try:
            _word(reader, j, stack)
        except ItemRefusal as refusal:
            if reader.refusal is None:
                reader.refusal = refusal
    _lists(reader, refs)
    if changed_inner and plan.wholes:
        raise ItemRefusal(
            f"`{loop.var}` is read whole and changed in a loop inside the body: JavaScript's "
            "reader would hold the object the next change changes",
            plan.wholes[0],
            "read its members instead",
        )


def _lists(reader: _Reader, refs: dict[int, int]) -> None:
    """Refuse a loop inside the body, or a callback's method, that goes over a member of the
    item and changes the item (`for (const t of x.tags) x.n += 1;`): write the list first."""
    firsts = sorted(c.first for c in reader.plan.changes)
    if not firsts:
        return
    starts = sorted(refs)

    def any_in(sorted_at: list[int], lo: int, hi: int) -> int:
        k = bisect_right(sorted_at, lo)
        return sorted_at[k] if k < len(sorted_at) and sorted_at[k] < hi else -1

    found = [
        (ref, lo)
        for lo, hi, end in reader.heads
        if (ref := any_in(starts, lo, hi)) >= 0 and any_in(firsts, hi, end) >= 0
    ]
    found += [(ref, lo) for ref, lo, hi in reader.calls if any_in(firsts, lo, hi) >= 0]
    if found:
        ref, _ = min(found)
        var = reader.loop.var
        raise ItemRefusal(
            f"a loop inside the body goes over a member of `{var}`, and changes `{var}`",
            ref,
            f"read the list into a name first: const list = {var}.k; for (const v of list) "
            "{ ... }",
        )


def _word(reader: _Reader, j: int, stack: list[tuple[int, str]]) -> None:
    """The word at ``j`` of the body: a loop, a function, a declaration, a jump, a read."""
    kinds, values, partner, loop = reader.kinds, reader.values, reader.partner, reader.loop
    value = values[j]
    if value in ("for", "while") and kinds[j + 1] == "(":
        close = partner.get(j + 1, -1)
        body_end = _inner_end(kinds, partner, close + 1)
        stack.append((body_end, "loop"))
        reader.heads.append((j + 1, close, body_end))
    elif value == "do" and kinds[j + 1] == "{":
        stack.append((partner.get(j + 1, j) + 1, "loop"))
    elif value == "switch" and kinds[j + 1] == "(":
        brace = partner.get(j + 1, j) + 1
        stack.append((partner.get(brace, brace) + 1, "switch"))
    elif value == "=>":
        if kinds[j + 1] == "{":
            stack.append((partner.get(j + 1, j) + 1, "function"))
        _params(reader, j)
    elif value in ("function", "yield", "class"):
        raise ItemRefusal(f"`{value}` inside a loop that changes its items", j)
    elif value in ("const", "let", "var", "catch"):
        _declared(reader, j)
    elif value in ("break", "continue", "return"):
        _jump(reader, j, str(value), [t for _, t in stack])
    elif value == loop.array and values[j - 1] not in (".", "?."):
        _array_read(reader, j)
    elif loop.index is not None and value == loop.index and values[j - 1] != ".":
        _index_read(reader, j)


def _inner_end(kinds: Sequence[str], partner: dict[int, int], at: int) -> int:
    if kinds[at] == "{":
        return partner.get(at, at) + 1
    end = _end(kinds, partner, at, len(kinds) - 1)
    return end + 1 if end >= 0 else at + 1


def _params(reader: _Reader, arrow: int) -> None:
    kinds, values, loop = reader.kinds, reader.values, reader.loop
    before = arrow - 1
    first = reader.partner.get(before, before) if kinds[before] == ")" else before
    for j in range(first, arrow):
        if kinds[j] == "name" and values[j] in (loop.var, loop.index, loop.array):
            raise ItemRefusal(f"`{values[j]}` is declared again inside the loop", j)


def _declared(reader: _Reader, j: int) -> None:
    kinds, values, partner, loop = reader.kinds, reader.values, reader.partner, reader.loop
    at = j + 1
    if kinds[at] in ("{", "[", "("):
        end = partner.get(at, at)
        names = [values[t] for t in range(at, end) if kinds[t] == "name"]
    else:
        names = [values[at]]
    for name in names:
        if name in (loop.var, loop.index, loop.array):
            raise ItemRefusal(f"`{name}` is declared again inside the loop", j)


def _jump(reader: _Reader, j: int, word: str, around: list[str]) -> None:
    kinds, loop, plan = reader.kinds, reader.loop, reader.plan
    if word == "return":
        if "function" in around:
            return
        if loop.kind != "each":
            raise ItemRefusal(
                "`return` inside a loop that changes its items (the array would be left "
                "half changed)",
                j,
                "set a result and `break`, then return after the loop",
            )
        if kinds[j + 1] not in (";", "}"):
            raise ItemRefusal("`forEach` drops the value its callback returns", j, "`return;`")
        plan.continues.append(j)
        return
    if "function" in around or "loop" in around or (word == "break" and "switch" in around):
        return
    if loop.kind == "each":
        raise ItemRefusal(f"`{word}` in a `forEach` callback (JavaScript's SyntaxError)", j)
    if kinds[j + 1] not in (";", "}"):
        raise ItemRefusal(f"`{word}` with a label", j)
    (plan.breaks if word == "break" else plan.continues).append(j)


def _array_read(reader: _Reader, j: int) -> None:
    kinds, values, loop = reader.kinds, reader.values, reader.loop
    if loop.kind == "count" and any(first == j for first, _ in loop.refs):
        return
    if kinds[j + 1] == "." and values[j + 2] == "length" and kinds[j + 3] != "=":
        reader.plan.lengths.append(j)
        return
    raise ItemRefusal(
        f"the loop reads `{loop.array}` while it changes its items: JavaScript's reader "
        "would see some items changed and others not",
        j,
        "read the items before or after the loop",
    )


def _index_read(reader: _Reader, j: int) -> None:
    kinds, values = reader.kinds, reader.values
    nxt = values[j + 1]
    if kinds[j + 1] == "=" or (kinds[j + 1] == "op" and nxt in SETS | _INCREMENTS):
        raise ItemRefusal(f"the body changes the loop's index `{values[j]}`", j)
    if kinds[j - 1] == "op" and values[j - 1] in _INCREMENTS:
        raise ItemRefusal(f"the body changes the loop's index `{values[j]}`", j)
