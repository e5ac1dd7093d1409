"""The rows of an array of rows that a loop's fold may change in place (SPEC 10, "Loops":
``g[i][j] = v``, read by :mod:`dialectic.frontends.plan.matrixloops` as the item set
``g[I] = g[I].[]=(J, V)``).

:mod:`.foldstate` proves that the fold may set the array's item in place (``v.[]=(P[0],
P[1])``, ``P`` the pair alias ``[K, v[K2].[]=(J, V)]``, ``K2`` written as ``K``); the row
``v[K2]`` is still copied per set, so a table of n rows of m cells costs n times m per cell.
The row's set (the *inner* set) may change the row in place too when nothing but the array
can hold a row: the pair alias is read only by its change, and every other read of the
field's versions in the step is a cell or a length (``v[a][b]``, ``v[a].length``,
``v.length``) or passes the version on as it is. The compiler
(:func:`dialectic.compiler.accumulate.set_owned`) then changes a row the fold's inner sets
made, and copies any other once (a row of the array before the loop, never changed)."""

from __future__ import annotations

from collections.abc import Callable

from dialectic.resolve.foldinner import same_written
from dialectic.tree.nodes import AliasRef, Arr, Block, Cond, Get, Lit, Method, Node, Spread
from dialectic.tree.walking import walk

__all__ = ["matrix_rows"]


def matrix_rows(
    body: Block, changes: list[Node], is_acc: Callable[[Node], bool], passed: set[int]
) -> list[Node]:
    """The inner sets of ``changes`` (the item sets that may change the field in place) that
    may change their rows in place; ``is_acc``: whether a node reads a version of the field;
    ``passed``: the ids of its occurrences that give it on as it is."""
    binding = {b.slot: b for b in body.bindings}
    frame = body.bindings[0].frame if body.bindings else -2
    found: list[Node] = []
    allowed = set(passed)
    pairs: dict[int, int] = {}  # the pair aliases, and how many reads their changes make
    for change in changes:
        if type(change) is not Method or change.name != "[]=" or len(change.args) != 2:
            continue
        slot = _pair_alias(change, frame)
        if slot is None or slot not in binding:
            continue
        inners = _inner_sets(binding[slot].node, change.target, is_acc)
        if inners is None:
            continue
        pairs[slot] = pairs.get(slot, 0) + 2
        for inner in inners:
            found.append(inner)
            allowed.add(id(inner.target.target))  # type: ignore[attr-defined]
    if not found:
        return []
    reads: dict[int, int] = {}
    for node in walk(body):
        t = type(node)
        if t is Get and is_acc(node.target):  # type: ignore[attr-defined]
            keys = node.keys  # type: ignore[attr-defined]
            if len(keys) >= 2 or (type(keys[0]) is Lit and keys[0].value == "length"):
                allowed.add(id(node.target))  # type: ignore[attr-defined]
        elif t is AliasRef and node.frame == frame and node.slot in pairs:  # type: ignore[attr-defined]
            reads[node.slot] = reads.get(node.slot, 0) + 1  # type: ignore[attr-defined]
    if any(reads.get(slot, 0) != count for slot, count in pairs.items()):
        return []
    for node in walk(body):
        if is_acc(node) and id(node) not in allowed:
            return []
    return found


def _pair_alias(change: Method, frame: int) -> int | None:
    """The slot of ``P`` when ``change`` is ``v.[]=(P[0], P[1])``, else None."""
    first, second = change.args
    slots = []
    for arg, index in ((first, 0), (second, 1)):
        if type(arg) is not Get or arg.optional or len(arg.keys) != 1:
            return None
        key, target = arg.keys[0], arg.target
        if type(key) is not Lit or key.value != index or type(target) is not AliasRef:
            return None
        if target.frame != frame:
            return None
        slots.append(target.slot)
    return slots[0] if slots[0] == slots[1] else None


def _inner_sets(value: Node, base: Node, is_acc: Callable[[Node], bool]) -> list[Method] | None:
    """The inner sets of the pair alias's ``value`` (``[K, v[K2].[]=(J, V)]``, or ``? :`` of
    such pairs and ``null``), ``v`` written as ``base``; None when a leaf is another value."""
    out: list[Method] = []
    stack = [value]
    while stack:
        n = stack.pop()
        if type(n) is Cond:
            stack.extend((n.then, n.otherwise))
            continue
        if type(n) is Lit and n.value is None:
            continue
        if type(n) is not Arr or len(n.items) != 2:
            return None
        key, inner = n.items
        if type(inner) is not Method or not (_set(inner) or _push(inner, base, is_acc)):
            return None
        row = inner.target
        if type(row) is not Get or row.optional or len(row.keys) != 1:
            return None
        if not (is_acc(row.target) and same_written(row.target, base)):
            return None
        if not same_written(row.keys[0], key):
            return None
        out.append(inner)
    return out


def _set(inner: Method) -> bool:
    """Whether ``inner`` is ``row.[]=(J, V)``."""
    return inner.name == "[]=" and len(inner.args) == 2


def _push(inner: Method, base: Node, is_acc: Callable[[Node], bool]) -> bool:
    """Whether ``inner`` is ``v[K].toSpliced(v[K].length, 0, x, ...)`` (``g[i].push(x)``,
    no spread), ``v`` written as ``base``."""
    if inner.name != "toSpliced" or len(inner.args) < 3:
        return False
    length, count, *items = inner.args
    row = inner.target
    if type(count) is not Lit or count.value != 0 or any(type(a) is Spread for a in items):
        return False
    return (
        type(length) is Get
        and type(row) is Get
        and not length.optional
        and len(length.keys) == 2
        and is_acc(length.target)
        and same_written(length.target, base)
        and len(row.keys) == 1
        and same_written(length.keys[0], row.keys[0])
        and type(length.keys[1]) is Lit
        and length.keys[1].value == "length"
    )
