"""The lists inside the records of an accumulator that a fold may grow in place (SPEC 10,
"Loops": ``stats[k].names.push(x)``, read by :mod:`dialectic.frontends.plan.recordfields` as
``stats[k] = {...stats[k], "names": [...stats[k].names, x]}``).

:mod:`.foldinner` grows the list of a group-by in place when nothing but the accumulator can
hold it. Here the list is one field of a record the accumulator holds under a key: the pair
``[K, {...acc[K2], f: [...acc[K3].f, x]}]`` (``K2`` and ``K3`` written as ``K``) copies the
record (a few fields) and grows ``f``'s list, which goes back under the key it came from with
the record; a change of another field, ``[K, {...acc[K2], g: V}]``, moves the list to the new
record under the same key. Besides those, the accumulator may be read without giving a record
or a grown list to anything: a field that is no grown list (``acc[K].count``, any key), and the
tests ``!acc[K]`` and ``acc[K] ? ... : ...`` (a record is truthy). A list a record's field held
before (``names: []`` of the literal, or a list from elsewhere) is copied at its first push, as
:mod:`dialectic.compiler.accumulate` copies any list its inner arrays did not make.

A record's computed field (``t[k][j] = v``, ``{...acc[K], ...Object.fromEntries([[J, V]])}``:
:func:`keyed_pair`) changes the record itself in place, in a loop's fold, when the records
have no grown named list; a list at such a field (``t[k][j].push(x)``, ``[...acc[K][J], x]``)
grows in place too, and the accumulator is then read only for a field's member.
"""

from __future__ import annotations

from collections.abc import Callable

from dialectic.resolve.accumulate import appended
from dialectic.tree.nodes import Arr, Cond, Get, Global, Lit, Merge, Node, Obj, Op, Spread
from dialectic.tree.walking import walk

__all__ = ["field_reads", "keyed_pair", "record_pair"]


def record_pair(
    pair: Arr, base: Node, is_acc: Callable[[Node], bool], same: Callable[[Node, Node], bool]
) -> tuple[Node | None, list[Node], str | None] | None:
    """For the pair ``[K, {...acc[K2], f: V}]`` of a change of ``base``: the inner array ``V``
    when it is ``[...acc[K3].f, ...]`` or ``acc[K3].f.concat(...)`` (else None), the
    accumulator's nodes it reads so, and the field it grows (None: another field's change);
    None for any other pair."""
    key, value = pair.items
    if type(value) is not Merge or len(value.parts) != 2:
        return None
    record, obj = value.parts
    if not _record_of(record, base, key, is_acc, same, 1):
        return None
    if type(obj) is not Obj or len(obj.fields) != 1:
        return None
    ((name, arr),) = obj.fields.items()
    accs: list[Node] = [record.target]  # type: ignore[attr-defined]
    if type(arr) is Arr and arr.items and type(arr.items[0]) is Spread:
        start: Node | None = arr.items[0].value
    else:  # (`acc[K].f.concat(x)`)
        start = appended(arr)
    if start is None:
        return None, accs, None
    if not _record_of(start, base, key, is_acc, same, 2):
        return None, accs, None
    field = start.keys[1]  # type: ignore[attr-defined]
    if type(field) is not Lit or field.value != name:
        return None, accs, None
    return arr, [*accs, start.target], name  # type: ignore[attr-defined]


def _record_of(
    node: Node,
    base: Node,
    key: Node,
    is_acc: Callable[[Node], bool],
    same: Callable[[Node, Node], bool],
    width: int,
) -> bool:
    """Whether ``node`` is ``acc[K2]`` (``width`` 1) or ``acc[K2].f`` (2), ``acc`` the change's
    ``base`` and ``K2`` written as the pair's ``key``."""
    return (
        type(node) is Get
        and not node.optional
        and len(node.keys) == width
        and is_acc(node.target)
        and same(node.target, base)
        and same(node.keys[0], key)
    )


def keyed_pair(
    pair: Arr, base: Node, is_acc: Callable[[Node], bool], same: Callable[[Node, Node], bool]
) -> tuple[Node, list[Node], Node | None] | None:
    """For the pair ``[K, {...acc[K2], ...Object.fromEntries([[J, V]])}]`` of a change of
    ``base`` (``t[k][j] = v``, a record's computed field): the merge, which may change the
    record in place, the accumulator's nodes it reads so, and ``V`` when it is the field's
    list grown, ``[...acc[K3][J2], ...]`` (``t[k][j].push(x)``: it may grow in place; ``K3``
    and ``J2`` written as ``K`` and ``J``); None for any other pair. ``acc[K3][J2] ?? []``
    (``t[k][j] ??= []``) puts the field's list back where it was: its read is given too."""
    key, value = pair.items
    if type(value) is not Merge or len(value.parts) != 2:
        return None
    record, entries = value.parts
    record = _or_empty(record)
    if not _record_of(record, base, key, is_acc, same, 1):
        return None
    if type(entries) is not Global or entries.name != "Object.fromEntries":
        return None
    if len(entries.args) != 1 or type(entries.args[0]) is not Arr:
        return None
    items = entries.args[0].items
    if len(items) != 1 or type(items[0]) is not Arr or len(items[0].items) != 2:
        return None
    field, inner = items[0].items
    accs: list[Node] = [record.target]  # type: ignore[attr-defined]
    start = _list_start(inner)
    if type(start) is Get and _field_of(start, base, key, field, is_acc, same):
        accs.append(start.target)
        return value, accs, inner if type(inner) is Arr else None
    return value, accs, None


def _or_empty(node: Node) -> Node:
    """``B`` of ``B ?? {}`` or ``B || {}`` (a record made at its first field:
    ``({...acc, [k]: {...(acc[k] ?? {}), [j]: v}})``), else ``node``."""
    if type(node) is Op and node.op in ("??", "||") and len(node.operands) == 2:
        empty = node.operands[1]
        if (type(empty) is Obj and not empty.fields) or (type(empty) is Lit and empty.value == {}):
            return node.operands[0]
    return node


def _list_start(inner: Node) -> Node | None:
    """``B`` of ``[...B, ...]`` or of ``B ?? []`` (``||``), else None."""
    if type(inner) is Arr:
        first = inner.items[0] if inner.items else None
        return first.value if type(first) is Spread else None
    if type(inner) is Op and inner.op in ("??", "||") and len(inner.operands) == 2:
        empty = inner.operands[1]
        return inner.operands[0] if type(empty) is Arr and not empty.items else None
    return None


def _field_of(
    node: Get,
    base: Node,
    key: Node,
    field: Node,
    is_acc: Callable[[Node], bool],
    same: Callable[[Node, Node], bool],
) -> bool:
    """Whether ``node`` is ``acc[K2][J2]``, ``K2`` written as ``key`` and ``J2`` as ``field``."""
    return _record_of(node, base, key, is_acc, same, 2) and same(node.keys[1], field)


def field_reads(
    body: Node, is_acc: Callable[[Node], bool], grown: set[str], fields: str = "named"
) -> set[int]:
    """The ids of the accumulator's nodes in ``body`` read only for a field that is no grown
    list (``acc[K].count``; ``fields`` "any": any field, ``acc[K][j]``, when no list grows;
    "deep": only a field's member, ``acc[K][j].length``, when any field may be a list that
    grows) or for a test (``!acc[K]``, ``acc[K] ? a : b``)."""
    found: set[int] = set()
    for node in walk(body):
        t = type(node)
        if t is Get and is_acc(node.target) and len(node.keys) >= 2:  # type: ignore[attr-defined]
            name = node.keys[1]  # type: ignore[attr-defined]
            if fields == "deep":
                if len(node.keys) >= 3:  # type: ignore[attr-defined]
                    found.add(id(node.target))  # type: ignore[attr-defined]
            elif fields == "any" or (
                type(name) is Lit and type(name.value) is str and name.value not in grown
            ):
                found.add(id(node.target))  # type: ignore[attr-defined]
            continue
        tested = None
        if t is Op and node.op == "!" and len(node.operands) == 1:  # type: ignore[attr-defined]
            tested = node.operands[0]  # type: ignore[attr-defined]
        elif t is Cond:
            tested = node.test  # type: ignore[attr-defined]
        if type(tested) is Get and len(tested.keys) == 1 and is_acc(tested.target):
            found.add(id(tested.target))
    return found
