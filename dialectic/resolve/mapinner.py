"""Which lists inside a Map a fold or a ``reduce`` step may grow in place: the group-by with a
Map (SPEC 1.8, "Maps and Sets", and 10, "Loops").

``g.set(k, [...(g.get(k) || []), x])`` in a loop (the front end's reading of
``g.get(k).push(x)``, :mod:`dialectic.frontends.plan.mappush`), or in a ``reduce`` step from
``new Map()``, makes a new version of the Map in O(1) (:mod:`dialectic.values.collections`) but
copies the key's list: one group of n items costs n squared. The list ``[...(g.get(k) || []),
x]`` (the *inner* array) may grow in place instead when the list it starts from was made by an
inner array of this reduce (:func:`dialectic.compiler.accumulate.spread_owned` keeps those and
copies any other) and nothing can see its contents but the Map it goes back into. This module
proves the second part, on the step's tree:

- the versions of the Map are the accumulator (a fold's field alias ``g = _s.a0``, or a
  ``reduce`` step's first parameter) and the step's aliases whose value is a tree of ``? :``
  whose leaves are versions, ``V.set(K, W)`` of a version, or ``null``;
- a version is *given on* (a leaf of another version, the target of a ``set`` that is such a
  leaf, the step's result under its own field) only at places no two of which run in one step
  (the two branches of one hidden test, ``_g2 = _if1 ? _add1 : g`` with ``_add1 = _if1 ?
  g.set(k, [...]) : null``);
- otherwise a version is only read where no list's contents show: ``V.has(x)``, ``V.size``, or
  ``V.get(K2)`` as the start of the inner array of ``V.set(K, [...(V.get(K2) || []), ...])``
  itself, ``K2`` written as ``K`` is (:func:`.foldinner._same`: the same key both times).

So a list is held by one key of the newest version only (older versions are never read for
their lists), and a grown list goes back to the key it came from. Anything else: no mark, and
every inner array copies (the same answer, quadratic in a group's size).
"""

from __future__ import annotations

from dialectic.resolve.foldinner import _facts, _same
from dialectic.tree.nodes import (
    AliasRef,
    Arr,
    Block,
    Cond,
    Get,
    Lambda,
    Lit,
    Method,
    Node,
    Obj,
    Op,
    ParamRef,
    Spread,
)
from dialectic.tree.walking import child_list, walk

__all__ = ["map_inner"]

#: a step whose Map is given on at more places than this is not looked at (bounded pairs)
_MOST_GIVEN = 8
#: a guard: (the slot of a hidden test alias, or -1 for any other test; the branch taken)
Guard = tuple[int, bool]


def map_inner(lam: Lambda, frame: int) -> list[Arr]:
    """The inner arrays of the fold or ``reduce`` arrow ``lam`` (at nesting level ``frame``)
    that may grow a list of its Map accumulator in place."""
    if ".set" not in _methods(lam.body):
        return []
    return _Step(lam, frame).found()


def _methods(body: Node) -> str:
    """The names of the `set` methods in ``body`` (a quick test before the analysis)."""
    for n in walk(body):
        if type(n) is Method and n.name == "set":
            return ".set"
    return ""


class _Step:
    """One step's versions of its Map accumulators, and what reads them."""

    def __init__(self, lam: Lambda, frame: int) -> None:
        self.frame = frame
        body = lam.body
        self.block = body if type(body) is Block else None
        self.bindings = (
            {b.slot: b.node for b in self.block.bindings if b.frame == frame}
            if self.block is not None
            else {}
        )
        #: each version's field (by slot; the fold's field name, or "" for a reduce's acc)
        self.field: dict[int, str] = {}
        #: the fields some version changes with ``set`` (the Maps; any other field is not
        #: looked at)
        self.maps: set[str] = set()
        self.roots: set[int] = set()  # ids of the field aliases' values (`_s.a0`)
        #: where each version (slot, or -1: the reduce's accumulator) is given on, and guards
        self.given: dict[int, list[list[Guard]]] = {}
        self.allowed: set[int] = set()  # ids of the version nodes at the places above
        self.inner: list[Arr] = []
        self.ok = True
        self.record: Obj | None = None
        self.result: Node = self.block.body if self.block is not None else body

    # -- the versions -----------------------------------------------------------------------
    def _version(self, node: Node) -> int | None:
        """The version ``node`` reads (its slot; -1: a reduce's accumulator), else None."""
        if isinstance(node, AliasRef):
            slot: int = node.slot
            return slot if node.frame == self.frame and slot in self.field else None
        if isinstance(node, ParamRef) and self.record is None and node.frame == self.frame:
            return -1 if node.index == 0 else None
        return None

    def _is_state(self, node: Node) -> bool:
        return type(node) is ParamRef and node.frame == self.frame and node.index == 0

    def _find_record(self) -> None:
        """A fold's step ends in its state record (``{a0: _g2}``, or ``_s.done ? _s : {...}``);
        its field aliases ``g = _s.a0`` are the versions it starts from."""
        if self.block is None or self.block.mode != "return":
            return
        record = self.block.body
        if type(record) is Cond and self._is_state(record.then):
            record = record.otherwise
        if type(record) is not Obj:
            return
        self.record = record
        seen: set[str] = set()
        for slot, node in self.bindings.items():
            if type(node) is Get and self._is_state(node.target) and len(node.keys) == 1:
                key = node.keys[0]
                if type(key) is Lit and type(key.value) is str and not node.optional:
                    if key.value in seen:
                        self.ok = False  # (a field read twice: two roots of one Map)
                    seen.add(key.value)
                    self.field[slot] = key.value
                    self.roots.add(id(node))

    def _leaves(self, node: Node, guards: list[Guard]) -> list[tuple[Node, list[Guard]]]:
        """The leaves of the tree of ``? :`` at ``node``, each with the tests on its way."""
        out: list[tuple[Node, list[Guard]]] = []
        stack = [(node, guards)]
        while stack:
            n, g = stack.pop()
            if type(n) is Cond:
                test = n.test
                slot = test.slot if type(test) is AliasRef and test.frame == self.frame else -1
                stack.append((n.then, [*g, (slot, True)]))
                stack.append((n.otherwise, [*g, (slot, False)]))
            else:
                out.append((n, g))
        return out

    def _versions(self) -> None:
        """The aliases that are versions (in dependency order: a leaf reads an earlier one)."""
        for slot, node in self.bindings.items():
            if slot in self.field:
                continue
            leaves = self._leaves(node, [])
            fields: set[str] = set()
            for leaf, _ in leaves:
                if type(leaf) is Lit and leaf.value is None:
                    continue
                if type(leaf) is Method and _is_set(leaf):
                    leaf = leaf.target
                version = self._version(leaf)
                if version is None:
                    fields.add("\x00no")
                    break
                fields.add(self.field.get(version, ""))
            if len(fields) == 1 and "\x00no" not in fields:
                self.field[slot] = fields.pop()
                if any(type(leaf) is Method for leaf, _ in leaves):
                    self.maps.add(self.field[slot])
        if self.record is None:  # (a reduce: its accumulator is the Map, if any)
            self.maps.add("")
        self.field = {slot: f for slot, f in self.field.items() if f in self.maps}

    def _give(self, leaves: list[tuple[Node, list[Guard]]], field: str | None) -> None:
        """Record the leaves of a version's value (or the step's result) as places that give a
        version on (``field``: the one the version must be of; None: its own)."""
        for leaf, guards in leaves:
            change = leaf if type(leaf) is Method and _is_set(leaf) else None
            if change is not None:
                leaf = change.target
            version = self._version(leaf)
            if version is None:
                continue
            if change is not None:
                self._inner_of(change)
            if field is not None and self.field.get(version, "") != field:
                self.ok = False
            self.given.setdefault(version, []).append(guards)
            self.allowed.add(id(leaf))

    def _inner_of(self, change: Method) -> None:
        """``V.set(K, [...(V.get(K) || []), ...])``: its inner array, and ``V.get(K)`` allowed."""
        if len(change.args) != 2:
            return
        key, value = change.args
        if type(value) is not Arr or not value.items or type(value.items[0]) is not Spread:
            return
        start = value.items[0].value
        if type(start) is Op and start.op in ("||", "??") and len(start.operands) == 2:
            empty = start.operands[1]
            if type(empty) is not Arr or empty.items:
                return
            start = start.operands[0]
        if not (type(start) is Method and _is_get(start)):
            return
        if not _same(start.target, change.target) or not _same(start.args[0], key):
            return
        if any(self._version(n) is not None or _facts(n) is None for n in walk(key)):
            return
        self.inner.append(value)
        self.allowed.add(id(start.target))

    # -- the reads ---------------------------------------------------------------------------
    def found(self) -> list[Arr]:
        self._find_record()
        if not self.ok:
            return []
        self._versions()
        for slot, node in self.bindings.items():
            if slot in self.field and type(node) is not Get:
                self._give(self._leaves(node, []), self.field[slot])
        if self.record is not None:
            for name, value in self.record.fields.items():
                self._give(self._leaves(value, []), name)
        else:
            self._give(self._leaves(self.result, []), "")
        if not self.inner or not self.ok:
            return []
        for places in self.given.values():
            if len(places) > _MOST_GIVEN or not _apart(places):
                return []
        if not self._reads_ok():
            return []
        return self.inner

    def _reads_ok(self) -> bool:
        """Whether every other read of a version shows no list's contents."""
        stack: list[tuple[Node, Node | None]] = [(self.block or self.result, None)]
        while stack:
            node, parent = stack.pop()
            if self._version(node) is not None:
                if id(node) in self.allowed or _reads_no_list(node, parent):
                    continue
                return False
            if type(node) is ParamRef and self._is_state(node) and self.record is not None:
                if parent is self.result:
                    continue  # (`_s.done ? _s : {...}`: the state given back as it is)
                if type(parent) is not Get or not self._field_read(parent):
                    return False  # (the state held whole, or a Map's field read elsewhere)
                continue
            stack.extend((kid, node) for kid in child_list(node))
        return True

    def _field_read(self, get: Get) -> bool:
        """Whether ``_s.aN`` reads no Map's field but at its own alias (``g = _s.a0``)."""
        if id(get) in self.roots:
            return True
        key = get.keys[0] if get.keys else None
        return type(key) is Lit and key.value not in self.maps


def _is_set(node: Method) -> bool:
    return node.name == "set" and node.fallback is None and not node.optional


def _is_get(node: Method) -> bool:
    return (
        node.name == "get" and node.fallback is None and not node.optional and len(node.args) == 1
    )


def _reads_no_list(node: Node, parent: Node | None) -> bool:
    """``V.has(x)`` or ``V.size``: a read that shows no list's contents."""
    if type(parent) is Method:
        return parent.target is node and parent.name == "has" and parent.fallback is None
    if type(parent) is Get:
        keys = parent.keys
        return (
            parent.target is node
            and len(keys) == 1
            and type(keys[0]) is Lit
            and keys[0].value == "size"
        )
    return False


def _apart(places: list[list[Guard]]) -> bool:
    """Whether no two of the ``places`` run in one step: each pair is on the two branches of
    one hidden test (an alias, evaluated once per step)."""
    for i, a in enumerate(places):
        mine = {slot: branch for slot, branch in a if slot >= 0}
        for b in places[i + 1 :]:
            if not any(slot >= 0 and mine.get(slot, branch) != branch for slot, branch in b):
                return False
    return True
