"""Which changes of a fold's state may be made in place (SPEC 10, "Loops", and 1.8, "reduce").

A loop that reads what it changes is ``[...xs].reduce((_s, x) => {...; return {a0: _out2, a1:
_seen2}; }, {a0: _out1, a1: _seen1})`` (:mod:`dialectic.frontends.plan.loopfold`): the state
record's fields are the accumulators. In the step, ``out = _s.a0`` is a field's version as the
step starts, and each change makes the next version, ``_out2 = _if1 ? [...out, ..._push1] :
out`` or ``{...seen, ...Object.fromEntries(_add1)}``. Copying per change costs the size of the
accumulator: n items cost n squared. :mod:`dialectic.compiler.accumulate` changes the array or
object in place instead when the fold made it itself (its first change in the fold copies the
field's value, then owns the copy) and when this module proves that nothing can see the old
version after the change:

- the state (the arrow's first parameter) is read only through members: a field alias ``out =
  _s.a0`` (one per field), ``_s.done``, or given back whole as the step's result
  (``_s.done ? _s : {...}``, a ``break``);
- a version is the field alias, or an alias whose value is a tree of ``? :`` whose leaves are
  earlier versions of the same field or changes of them (``[...v, ...]``, ``{...v, ...}``,
  ``v.concat(...)``),
  or new array or object literals (``cur = []`` starting a chunk again: not the fold's own, so
  the next change copies it once);
- a version is passed on (the base of a change, a leaf of the next version, the field of the
  step's result under its own key) by one place only (or by places on opposite branches of
  one test alias: :mod:`.foldpaths`), and is otherwise only read (a member, a
  spread into a new value, a method that reads it, an operand that makes a number or a text,
  ... as :func:`dialectic.resolve.accumulate.reads_only` says);
- every read of a version runs before each change that may reach its object: the read is in
  the change's own alias (the branches of ``? :`` run one), or in an alias the change reads
  whatever the data (its parts, the tests on its way), directly or through other aliases, or
  in an alias read only by such aliases (or by aliases read so in turn: evaluated with them
  or never, as ``_add1 = _if1 ? [['odd', [...out.odd, x]]] : []`` read only in the branch
  of ``_out1`` that ``if (x % 2)`` takes, before the ``else`` branch's change).
  Aliases are lazy: ``const before = out.length; out.push(x); r.push(before)`` reads ``out``
  in an alias only ``r``'s change needs, which may run after ``out``'s change: that field
  copies.

A field where any of this fails keeps copying (the same answer, slower). Every change of a
version is marked all the same (field None): its copy counts against ``max_steps``.
"""

from __future__ import annotations

from dialectic.resolve.accumulate import COPYING_SPREADS, in_place_steps, reads_only
from dialectic.resolve.foldinner import INNER, inner_arrays, reduce_inner
from dialectic.resolve.foldnodes import _always, _changed, _falsy, _holds, _kids, _new_value
from dialectic.resolve.foldpaths import Guard, exclusive, guarded
from dialectic.resolve.mapinner import map_inner
from dialectic.resolve.matrixinner import matrix_rows
from dialectic.tree.nodes import (
    AliasRef,
    Arr,
    Block,
    Cond,
    ConstRef,
    ContextRef,
    Get,
    Lambda,
    Lit,
    Merge,
    Node,
    Obj,
    Op,
    ParamRef,
    Spread,
    Undefined,
)
from dialectic.tree.walking import child_list

__all__ = ["fold_steps", "reduce_marks"]

#: nodes without children
_LEAVES = frozenset({Lit, ContextRef, ConstRef, Undefined})
#: a fold with more changes than this copies (the analysis stays linear in the program)
_MOST = 64


def reduce_marks(lam: Lambda, frame: int) -> tuple[list[Node], dict[int, str | None]]:
    """The merges and arrays of the ``reduce`` arrow ``lam`` (at nesting level ``frame``) that
    change its accumulator (:mod:`.accumulate`), its state's fields (a fold) or a list inside
    it (:mod:`.foldinner`) in place, and each one's field by id (absent: the accumulator)."""
    steps = in_place_steps(lam, frame)
    marks = reduce_inner(lam, frame, steps) if steps else fold_steps(lam, frame)
    marks.extend((node, INNER) for node in map_inner(lam, frame))  # (a Map's lists)
    return [*steps, *(node for node, _ in marks)], {id(node): field for node, field in marks}


def fold_steps(lam: Lambda, frame: int) -> list[tuple[Node, str | None]]:
    """The changes of the fold step ``lam`` (the ``reduce`` arrow at nesting level ``frame``)
    to its state's fields, each with the field it may change in place (None: it copies)."""
    body = lam.body
    if type(body) is not Block or body.mode != "return":
        return []
    record = body.body
    if type(record) is Cond and _is_state(record.then, frame):
        record = record.otherwise
    if type(record) is not Obj:
        return []
    fold = _Fold(body, frame, record)
    if not fold.changes:
        return [(n, None) for n in fold.copies]
    if len(fold.changes) > _MOST or len(fold.field) > 2 * _MOST or not fold.check():
        fold.bad.update(fold.field.values())  # (the analysis stays linear; the state is held)
    marks: list[tuple[Node, str | None]] = []
    for field in set(fold.field.values()) - fold.bad:
        changes = [c for c, base, _ in fold.changes if fold.field[base] == field]
        marks.extend((c, field) for c in changes)

        def is_version(node: Node, field: str = field) -> bool:
            slot = fold._version(node)
            return slot is not None and fold.field[slot] == field

        found = inner_arrays(body, changes, is_version, fold.passed, body, keyed=True)
        found.extend(matrix_rows(body, changes, is_version, fold.passed))
        marks.extend((n, INNER) for n in found)
    marks.extend((c, None) for c, base, _ in fold.changes if fold.field[base] in fold.bad)
    return marks + [(n, None) for n in fold.copies]


def _is_state(node: Node, frame: int) -> bool:
    return type(node) is ParamRef and node.frame == frame and node.index == 0


class _Fold:
    """One fold step's versions, changes and reads."""

    def __init__(self, block: Block, frame: int, record: Obj) -> None:
        self.block = block
        self.frame = frame
        self.record = record
        self.binding = {b.slot: b for b in block.bindings}
        self.roots = {id(b.node) for b in block.bindings}
        #: each version's field (by slot), the fields that must copy
        self.field: dict[int, str] = {}
        self.bad: set[str] = set()
        #: (the change, the slot of its base, the slot of its alias)
        self.changes: list[tuple[Node, int, int]] = []
        self.copies: list[Node] = []  # changes of an alias that is no version (they copy)
        self.succ: dict[int, set[int]] = {}
        #: the tests on the way to each place a version is passed on (its slot, the alias's)
        self.guards: dict[tuple[int, int], list[Guard]] = {}
        self.leaves: set[int] = set()  # ids of the versions' leaves that pass a version on
        self.bases: set[int] = set()  # ids of the changes' bases
        self.passed: set[int] = set()  # those and the step's result's fields: given on
        self.fresh: set[int] = set()  # aliases whose value is a new literal (or `null`)
        self.reader_map: dict[int, set[int]] | None = None  # (:meth:`_readers`)
        self._versions()

    def _version(self, node: Node) -> int | None:
        if type(node) is AliasRef and node.frame == self.frame and node.slot in self.field:
            return node.slot
        return None

    def _changes_alias(self, node: Node) -> bool:
        """Whether ``node`` is ``[...a, ...]``, ``{...a, ...}``, ``a.concat(...)`` or
        ``a.slice(0, -1)`` of an alias ``a`` of the step."""
        first: Node | None = _changed(node)
        if type(node) is Merge and node.parts:
            first = node.parts[0]
        elif type(node) is Arr and node.items and type(node.items[0]) is Spread:
            first = node.items[0].value
        return type(first) is AliasRef and first.frame == self.frame

    def _base(self, node: Node) -> AliasRef | None:
        """The version a change ``node`` starts from (``[...v, ...]``, ``{...v, ...}``,
        ``v.concat(...)``, ``v.slice(0, -1)``: a stack's ``pop()``)."""
        first: Node | None = _changed(node)
        if type(node) is Merge and node.parts:
            first = node.parts[0]
        elif type(node) is Arr and node.items and type(node.items[0]) is Spread:
            first = node.items[0].value
        if first is not None and self._version(first) is not None:
            assert type(first) is AliasRef
            return first
        return None

    def _versions(self) -> None:
        seen: set[str] = set()
        for b in self.block.bindings:
            n = b.node
            if b.frame != self.frame:
                continue
            if type(n) is Get and _is_state(n.target, self.frame) and not n.optional:
                key = n.keys[0] if len(n.keys) == 1 else None
                if type(key) is Lit and type(key.value) is str:
                    if key.value in seen:
                        self.bad.add(key.value)
                    seen.add(key.value)
                    self.field[b.slot] = key.value
                continue
            self._successor(b.slot, n)

    def _successor(self, slot: int, node: Node) -> None:
        """Record ``node`` (alias ``slot``) as a version when it is one."""
        stack: list[tuple[Node, Guard]] = [(node, ())]
        leaves: list[tuple[Node, AliasRef, Node | None, Guard]] = []
        copies: list[Node] = []  # (changes of another alias: they copy, counted)
        while stack:
            n, guard = stack.pop()
            if type(n) is Cond:
                stack.append((n.then, guarded(guard, n.test, True, self.frame)))
                stack.append((n.otherwise, guarded(guard, n.test, False, self.frame)))
            elif self._version(n) is not None:
                assert type(n) is AliasRef
                leaves.append((n, n, None, guard))
            elif type(n) is AliasRef and n.frame == self.frame and n.slot in self.fresh:
                continue  # (a new value: neither the fold's own nor held)
            else:
                base = self._base(n)
                if base is not None:
                    leaves.append((base, base, n, guard))
                elif not _new_value(n) or self._changes_alias(n):
                    copies.append(n)
        if not leaves and not copies:
            self.fresh.add(slot)
            return
        fields = {self.field[ref.slot] for _, ref, _, _ in leaves}
        if len(fields) != 1 or copies:
            copies.extend(change for _, _, change, _ in leaves if change is not None)
            self.copies.extend(n for n in copies if self._changes_alias(n))
            return
        self.field[slot] = fields.pop()
        for leaf, ref, change, guard in leaves:
            self.succ.setdefault(ref.slot, set()).add(slot)
            self.guards.setdefault((ref.slot, slot), []).append(guard)
            if change is None:
                self.leaves.add(id(leaf))
            else:
                self.bases.add(id(leaf))
                self.changes.append((change, ref.slot, slot))

    # -- the reads ---------------------------------------------------------------------------
    def check(self) -> bool:
        """Mark the fields whose versions may be seen after a change (``bad``); False when the
        state itself may be held."""
        reads: list[tuple[int, int | None]] = []  # (the version, the alias holding the read)
        kept: dict[int, int] = {}  # how many places pass each version on
        for slot, succ in self.succ.items():
            kept[slot] = 1 if exclusive(slot, succ, self.guards) else len(succ)
        stack: list[tuple[Node, Node | None, int | None]] = [(self.block.body, None, None)]
        stack.extend((b.node, None, b.slot) for b in self.block.bindings)
        top = self.block.body
        frame, field = self.frame, self.field
        while stack:
            node, parent, alias = stack.pop()
            t = type(node)
            if t is ParamRef:
                state = node.frame == frame and node.index == 0  # type: ignore[attr-defined]
                if state and not self._state_read(node, parent, top):
                    return False
                continue
            if t is AliasRef:
                version = node.slot if node.frame == frame else None  # type: ignore[attr-defined]
                if version in field:
                    self._read(node, version, parent, alias, reads, kept)
                continue
            if t in _LEAVES:
                continue
            if t is Spread and id(node.value) not in self.bases:  # type: ignore[attr-defined]
                version = self._version(node.value)  # type: ignore[attr-defined]
                if version is not None:  # `[...out]`, `f(...out)`: a copy, `{...}`: no spread
                    if type(parent) in COPYING_SPREADS:
                        reads.append((version, alias))
                    else:
                        self.bad.add(field[version])
                    continue
            stack.extend([(kid, node, alias) for kid in _kids(node)])
        self.passed |= self.bases | self.leaves
        for slot, count in kept.items():
            if count > 1:
                self.bad.add(self.field[slot])
        self._ordered(reads)
        return True

    def _state_read(self, node: Node, parent: Node | None, top: Node) -> bool:
        if parent is None:  # an alias of the state: `t = _s`
            return False
        if type(parent) is Cond and parent is top and parent.then is node:
            return True  # `_s.done ? _s : {...}`: the state given back as it is
        if type(parent) is Get and parent.target is node:
            key = parent.keys[0] if parent.keys else None
            if (
                type(key) is Lit
                and key.value in self.field.values()
                and id(parent) not in self.roots
            ):
                self.bad.add(key.value)
            return True
        return False

    def _read(
        self,
        node: Node,
        version: int,
        parent: Node | None,
        alias: int | None,
        reads: list[tuple[int, int | None]],
        kept: dict[int, int],
    ) -> None:
        if id(node) in self.bases or id(node) in self.leaves:
            return
        field = self.field[version]
        if parent is self.record:
            keys = [k for k, v in self.record.fields.items() if v is node]
            if keys != [field]:
                self.bad.add(field)
            self.passed.add(id(node))
            kept[version] = kept.get(version, 0) + 1
        elif parent is not None and type(parent) is not Spread and reads_only(parent, node):
            reads.append((version, alias))
        else:
            self.bad.add(field)

    def _ordered(self, reads: list[tuple[int, int | None]]) -> None:
        """Mark a field with a read that may run after a change reaching its object."""
        forced: dict[int, set[int]] = {}
        for version, alias in reads:
            field = self.field[version]
            if field in self.bad:
                continue
            later = self._after(version)
            for n, (change, base, own) in enumerate(self.changes):
                if base not in later or alias == own:
                    continue
                if n not in forced:
                    forced[n] = self._forced(change, own)
                if alias is None or not (
                    alias in forced[n] or self._done_before(alias, forced[n] | {own})
                ):
                    self.bad.add(field)
                    break

    def _done_before(self, alias: int, forced: set[int]) -> bool:
        """Whether ``alias`` is evaluated before the change (whose ``forced`` aliases are) or
        never: every alias reading it is forced, or so in turn (an alias is evaluated once, when
        first read: ``_add1`` read only in the branch of ``_out1`` that ``if`` takes)."""
        readers = self._readers()
        seen: set[int] = set()
        stack = [alias]
        while stack:
            a = stack.pop()
            if a in forced or a in seen:
                continue
            seen.add(a)
            who = readers.get(a)
            if not who or -1 in who:
                return False
            stack.extend(who)
        return True

    def _readers(self) -> dict[int, set[int]]:
        """The aliases of the step whose values read each alias (-1: the step's result, or an
        arrow function inside, which may run later)."""
        if self.reader_map is not None:
            return self.reader_map
        out: dict[int, set[int]] = {}
        stack: list[tuple[Node, int]] = [(self.block.body, -1)]
        stack.extend((b.node, b.slot) for b in self.block.bindings if b.frame == self.frame)
        while stack:
            n, who = stack.pop()
            if type(n) is AliasRef:
                if n.frame == self.frame:
                    out.setdefault(n.slot, set()).add(who)
                continue
            if type(n) is Lambda:
                who = -1
            stack.extend((kid, who) for kid in _kids(n))
        self.reader_map = out
        return out

    def _after(self, version: int) -> set[int]:
        """``version`` and the versions made from it."""
        out = {version}
        stack = [version]
        while stack:
            for nxt in self.succ.get(stack.pop(), ()):
                if nxt not in out:
                    out.add(nxt)
                    stack.append(nxt)
        return out

    def _forced(self, change: Node, own: int) -> set[int]:
        """The aliases evaluated, whatever the data, before ``change`` (in alias ``own``)
        changes its base: those its parts and the tests on its way read, and theirs. A test
        on the way holds when the change is made, and so do the aliases its truth implies
        (``_if2 = _if1 ? x > 0 : false``: ``_if1``): a `? :` testing one of them evaluates its
        first branch (so ``x``, read in the branch of ``if (x > 0)``, is read first)."""
        roots: list[Node] = list(child_list(change))
        truthy: set[int] = set()
        node = self.binding[own].node
        while type(node) is Cond:  # the tests on the way from the alias's value to the change
            roots.append(node.test)
            if _holds(node.then, change):
                self._truths(node.test, truthy)
                node = node.then
            else:
                node = node.otherwise
        found: set[int] = set()
        slots: list[int] = []
        stack = roots
        while stack or slots:
            if slots:
                slot = slots.pop()
                if slot not in found and slot in self.binding:
                    found.add(slot)
                    slots.extend(self.binding[slot].deps)
                    if truthy:  # (its branches that a true test takes)
                        stack.append(self.binding[slot].node)
                continue
            n = stack.pop()
            if type(n) is AliasRef:
                if n.frame == self.frame:
                    slots.append(n.slot)
                continue
            if type(n) is Cond and truthy and self._known(n.test, truthy):
                stack.append(n.then)
            stack.extend(_always(n))
        return found

    def _known(self, test: Node, truthy: set[int]) -> bool:
        return type(test) is AliasRef and test.frame == self.frame and test.slot in truthy

    def _truths(self, test: Node, truthy: set[int]) -> None:
        """Add to ``truthy`` the aliases of the step that hold when ``test`` does."""
        stack = [test]
        while stack:
            n = stack.pop()
            if type(n) is AliasRef:
                if n.frame == self.frame and n.slot in self.binding and n.slot not in truthy:
                    truthy.add(n.slot)
                    stack.append(self.binding[n.slot].node)
            elif type(n) is Cond:
                if _falsy(n.otherwise):  # `c ? a : false` holds: `c` and `a` hold
                    stack.append(n.test)
                    stack.append(n.then)
            elif type(n) is Op and n.op == "&&":
                stack.extend(n.operands)
