"""Which lists inside an accumulator a step may grow in place: the group-by (SPEC 1.8,
"``reduce``", and 10, "Loops").

``xs.reduce((acc, x) => { acc[x.k] = [...(acc[x.k] || []), x]; return acc; }, {})`` (also
``({...acc, [k]: [...(acc[k] ?? []), x]})``, and the loop ``g[k] = [...(g[k] ?? []), x]``)
changes ``acc`` in place when it may (:mod:`.accumulate`, :mod:`.foldstate`), but still copies
the key's list per item: one group of n items costs n squared. The list ``[...(acc[k] ?? []),
x]`` (the *inner* array) may grow in place too when the list it starts from was made by this
reduce's inner array and nothing but the accumulator holds it; the compiler
(:mod:`dialectic.compiler.accumulate`) keeps the lists its inner arrays made, and grows one of
them, else copies. This module proves that nothing else can hold or read such a list:

- the change is ``{...acc, ...Object.fromEntries(E)}`` with ``E`` an array literal of pairs
  ``[K, [...B, ...]]`` (or, in a loop's fold, an alias read only there whose value is such a
  literal, or ``? :`` of them), ``B`` is ``acc[K2]``, ``acc[K2] || []`` or ``acc[K2] ?? []``,
  and ``K2`` is written as ``K`` is, of names, literals, members, operators, templates and
  methods that make texts (:func:`_facts`: both give the key the pair sets, so the list goes
  back where it came from), and the change makes one such list (two could share a key);
- the accumulator (each version of the field, in a fold) appears nowhere else but as the base
  of its changes, given on as it is (a branch, a version, the step's result), as the
  ``acc[K2]`` of such an inner array, or, when every such ``K`` is a literal, as ``acc.name``
  of a name none of them is (``acc.n++`` beside ``acc.odd.push(x)``): no other read can see a
  list before it grows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.resolve.accumulate import appended
from dialectic.resolve.recordinner import field_reads, keyed_pair, record_pair
from dialectic.tree.nodes import (
    AliasRef,
    Arr,
    Block,
    Cond,
    ContextRef,
    Get,
    Global,
    Lambda,
    Lit,
    Merge,
    Method,
    Node,
    Op,
    ParamRef,
    Spread,
    Template,
)
from dialectic.tree.walking import child_list, walk

__all__ = ["INNER", "grown_list", "inner_arrays", "reduce_inner", "same_written"]

#: the mark of an inner array (the resolver's ``folds``)
INNER = "\x00inner"

#: the methods and globals a key may call (no arrow function, no call: the same value twice)
_PURE_METHODS = frozenset(
    {"slice", "substring", "toLowerCase", "toUpperCase", "trim", "at", "charAt", "toString",
     "toFixed", "padStart", "padEnd", "join"}
)  # fmt: skip
_PURE_GLOBALS = frozenset({"String", "Number"})


def inner_arrays(
    body: Node,
    changes: list[Node],
    is_acc: Callable[[Node], bool],
    passed: set[int],
    aliases: Block | None,
    keyed: bool = False,
) -> list[Node]:
    """The inner arrays of ``changes`` (the merges that may change the accumulator in place)
    that may grow in place. ``is_acc``: whether a node reads the accumulator (a version of
    it); ``passed``: the ids of its occurrences that give it on as it is (a change's base, a
    branch, the step's result); ``aliases``: the step's block, whose aliases ``E`` may be;
    ``keyed``: a fold's, whose records' computed fields (``t[k][j] = v``) may change in place
    too (:func:`.keyed_pair`)."""
    binding = {b.slot: b for b in aliases.bindings} if aliases is not None else {}
    frame = aliases.bindings[0].frame if aliases is not None and aliases.bindings else -2
    found: list[Node] = []
    allowed: set[int] = set(passed)
    entries: list[int] = []  # the aliases of entries, each to be read only once
    records: list[Node] = []  # the accumulator read by records' changes (:mod:`.recordinner`)
    grown: set[str] = set()  # the fields whose lists records' changes grow
    plain = False  # a group-by's list (no record) is grown too
    keys: list[Node | None] = []  # the keys of the inner arrays found (None: a record's)
    #: records' computed fields' merges, the accumulator's nodes they read, their lists grown
    computed: list[tuple[Node, list[Node], Node | None]] = []
    named: list[Node] = []  # the merges of records' other changes, each its change's only pair
    for change in changes:
        if type(change) is not Merge:
            continue
        base = change.parts[0]
        inners: list[tuple[Node, list[Node], Node | None]] = []
        for part in change.parts[1:]:
            if type(part) is not Global or part.name != "Object.fromEntries":
                continue
            if len(part.args) != 1:
                continue
            literal = part.args[0]
            if type(literal) is AliasRef and literal.frame == frame and literal.slot in binding:
                entries.append(literal.slot)
                literal = binding[literal.slot].node
            pairs = _pairs(literal)
            one = keyed and len(pairs) == 1 and len(change.parts) == 2
            found_keyed = keyed_pair(pairs[0], base, is_acc, _same) if one else None
            if found_keyed is not None:  # (the change's only pair)
                computed.append(found_keyed)
                continue
            for pair in pairs:
                inner = _inner(pair, base, is_acc)
                if inner is not None:
                    inners.append((inner[0], [inner[1]], inner[2]))
                    plain = True
                    continue
                record = record_pair(pair, base, is_acc, _same)
                if record is not None and record[0] is not None and record[2] is not None:
                    inners.append((record[0], record[1], None))
                    grown.add(record[2])
                elif record is not None:
                    records.extend(record[1])
                    named.extend([pair.items[1]] if one else [])
        if len(inners) == 1:  # (two in one change: the second would see the first's list)
            found.append(inners[0][0])
            allowed.update(id(n) for n in inners[0][1])
            keys.append(inners[0][2])
    lists = [arr for _, _, arr in computed if arr is not None]
    if computed and not grown and not plain:  # (a computed field may be any list)
        found.extend(merge for merge, _, _ in computed)
        found.extend(lists)
        found.extend(named)  # (`t[k].n++` beside `t[k][w] = 1`: in place too)
        allowed.update(id(acc) for _, accs, _ in computed for acc in accs)
        keys.append(None)
    if not found:
        return []
    if not plain:  # (a list of the accumulator itself may not be read so)
        allowed.update(id(n) for n in records)
        fields = "deep" if lists else "any" if computed and not grown else "named"
        allowed.update(field_reads(body, is_acc, grown, fields))
    reads: dict[int, int] = {}
    others = _other_members(body, is_acc, keys)
    for node in walk(body):
        if is_acc(node) and id(node) not in allowed and id(node) not in others:
            return []
        if type(node) is AliasRef and node.frame == frame and node.slot in binding:
            reads[node.slot] = reads.get(node.slot, 0) + 1
    if any(reads.get(slot, 0) != 1 for slot in entries):
        return []
    return found


def reduce_inner(lam: Lambda, frame: int, steps: list[Node]) -> list[tuple[Node, str]]:
    """The inner arrays of a ``reduce`` arrow whose accumulator (its first parameter) the
    ``steps`` change in place (:func:`dialectic.resolve.accumulate.in_place_steps`)."""

    def is_acc(node: Node) -> bool:
        return type(node) is ParamRef and node.frame == frame and node.index == 0

    passed = {id(step.parts[0]) for step in steps if type(step) is Merge}
    stack = [lam.body]
    while stack:  # the accumulator given back as it is (`acc.includes(x) ? acc : {...}`)
        n = stack.pop()
        if type(n) is Block:
            stack.append(n.body)
        elif type(n) is Cond:
            stack.extend((n.then, n.otherwise))
        elif is_acc(n):
            passed.add(id(n))
    block = lam.body if type(lam.body) is Block else None
    found = inner_arrays(lam.body, steps, is_acc, passed, block, keyed=True)
    return [(n, INNER) for n in found]


def _pairs(node: Node) -> list[Arr]:
    """The pairs of an entries literal (the leaves of ``? :`` too)."""
    out: list[Arr] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if type(n) is Cond:
            stack.extend((n.then, n.otherwise))
        elif type(n) is Arr:
            out.extend(p for p in n.items if type(p) is Arr and len(p.items) == 2)
    return out


def _other_members(body: Node, is_acc: Callable[[Node], bool], keys: list[Node | None]) -> set[int]:
    """The ids of the accumulator's nodes read as ``acc.name`` for a name no inner array's
    key can be (every key a literal: ``acc.n`` beside ``acc.odd = [...acc.odd, x]``; none when
    a record's list is among them, None), which cannot see a list."""
    literals = [k for k in keys if type(k) is Lit]
    if len(literals) != len(keys):
        return set()
    names = {str(k.value) for k in literals}
    out: set[int] = set()
    for node in walk(body):
        if type(node) is Get and is_acc(node.target) and len(node.keys) == 1:
            key = node.keys[0]
            if type(key) is Lit and type(key.value) is str and key.value not in names:
                out.add(id(node.target))
    return out


def _inner(pair: Arr, base: Node, is_acc: Callable[[Node], bool]) -> tuple[Node, Node, Node] | None:
    """The inner array of ``[K, [...B, ...]]`` (or ``[K, B.concat(...)]``), the accumulator's
    node in ``B`` and ``K``."""
    key, value = pair.items
    start = grown_list(value)
    if start is None:
        return None
    if type(start) is Op and start.op in ("||", "??") and len(start.operands) == 2:
        empty = start.operands[1]
        if type(empty) is not Arr or empty.items:
            return None
        start = start.operands[0]
    if type(start) is not Get or start.optional or len(start.keys) != 1:
        return None
    acc = start.target
    if not (is_acc(acc) and _same(acc, base)) or not _same(start.keys[0], key):
        return None
    if any(is_acc(n) or _facts(n) is None for n in walk(key)):
        return None
    return value, acc, key


def grown_list(node: Node) -> Node | None:
    """``B`` when ``node`` is ``[...B, ...]`` or ``B.concat(...)``: a new list that starts with
    ``B``'s items."""
    if type(node) is Arr and node.items and type(node.items[0]) is Spread:
        return node.items[0].value
    return appended(node)


def _facts(node: Node) -> tuple[Any, ...] | None:
    """What tells ``node`` from another node of its class, when it gives the same value each
    time it is evaluated in a step (else None)."""
    t = type(node)
    if t is Lit:
        return (t, type(node.value), node.value)  # type: ignore[attr-defined]
    if t is ParamRef:
        return (t, node.frame, node.index)  # type: ignore[attr-defined]
    if t is AliasRef:
        return (t, node.frame, node.slot)  # type: ignore[attr-defined]
    if t is ContextRef:
        return (t, node.name)  # type: ignore[attr-defined]
    if t is Get:
        return (t, node.optional, node.soft)  # type: ignore[attr-defined]
    if t is Op:
        return (t, node.op)  # type: ignore[attr-defined]
    if t is Template:
        return (t, *(p if type(p) is str else None for p in node.parts))  # type: ignore[attr-defined]
    if t is Global and node.name in _PURE_GLOBALS:  # type: ignore[attr-defined]
        return (t, node.name)  # type: ignore[attr-defined]
    if t is Method and node.fallback is None and node.name in _PURE_METHODS:  # type: ignore[attr-defined]
        return (t, node.name, node.optional)  # type: ignore[attr-defined]
    return None


def _same(a: Node, b: Node) -> bool:
    """Whether ``a`` and ``b`` are written alike, of nodes that have :func:`_facts`."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        facts = _facts(x)
        if facts is None or facts != _facts(y):
            return False
        kx, ky = child_list(x), child_list(y)
        if len(kx) != len(ky):
            return False
        stack.extend(zip(kx, ky, strict=True))
    return True


#: whether two nodes are written alike (for :mod:`.matrixinner`)
same_written = _same
