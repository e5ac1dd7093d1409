"""Whether ``xs.sort(...)`` and ``xs.reverse()`` may return a reordered copy (SPEC 1.8).

JavaScript reorders the receiver itself; dialectic returns a new array and leaves the receiver
as it was. The two give the same answer only when nothing the program reads afterwards holds
the receiver: a fresh array (a literal, the result of ``map``, ``filter``, ``slice``...), or an
alias or context value (or a member of one) that the program reads nowhere else, outside any
arrow function (whose body runs once per item: the second application would see the first's
reordering). A function's result is new data, as a tool's reply is. Anything else may be
shared: an element of another array (``xs.find(...)``, ``xs[0]``, an arrow's parameter),
either side of ``? :``, ``??``, ``||`` or ``&&``. Such a receiver is refused, with a hint to write
``toSorted``/``toReversed``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from dialectic.tree.nodes import (
    Arr,
    Cond,
    Get,
    Global,
    Lit,
    Merge,
    Method,
    Node,
    Obj,
    Op,
    Spread,
    Template,
    Undefined,
    Unwrap,
)
from dialectic.tree.resolved import AliasRef, ConstRef, ContextRef, DomainCall, Invoke, ParamRef
from dialectic.values.jsmethods import NEW_ARRAY_METHODS, NEW_TEXTS_METHODS

#: methods whose new array holds only items of the receiver and of the arguments (`concat`'s
#: items, the item `with` and `toSpliced` put in: :data:`_ITEMS_FROM`)
_ITEMS_OF_RECEIVER = frozenset(
    {"filter", "slice", "concat", "flat", "toSorted", "toReversed", "with", "toSpliced"}
)
#: the first argument that is an item of the new array, by method (the others: indexes)
_ITEMS_FROM = {"concat": 0, "with": 1, "toSpliced": 2}
#: methods that give the receiver itself, or one of its items
_RECEIVER_OR_ITEM = frozenset({"sort", "reverse", "at", "find", "findLast"})
#: globals that make a new array (``deep``: of new values all the way down)
_NEW_GLOBAL = {
    "Object.keys": True,
    "Object.values": False,
    "Object.entries": False,
    "new Set": False,  # `[...new Set(xs)].sort()`: a new array of the same items
    "Array.from": False,
}
_FRESH_GLOBAL = frozenset({"JSON.parse"})
_EITHER_SIDE = frozenset({"??", "||", "&&"})


class Aliases:
    """What one check of a receiver learnt of the aliases it went through: each alias's
    answer (so a chain of n aliases, each reordering the one before, costs n steps, not n
    squared) and how deep the walk is now (bounded: the walk recurses through aliases)."""

    __slots__ = ("memo", "depth")

    def __init__(self) -> None:
        self.memo: dict[tuple[int, str, bool], object] = {}
        self.depth = 0


#: an alias whose answer is being worked out (met again: a cycle); the deepest chain walked
_WALKING = object()
_MAX_DEPTH = 100


class Scope(Protocol):
    """The resolver's block of aliases (``blocks._Scope``)."""

    slots: dict[str, int]
    frame: int
    exprs: dict[str, Node]


def shared(
    node: Node,
    deep: bool,
    frame: int,
    env: Sequence[object],
    counts: Mapping[str, int],
    seen: Aliases,
) -> str | None:
    """None when reordering the array ``node`` gives (``deep``: or an array inside it) can be
    seen by nothing else the program reads; else what may share it (a name, or ``""``).
    ``frame``: the arrow function the node is evaluated in (-1: none); ``env``: the scopes
    around it, innermost last; ``counts``: how often the program reads each name."""
    t = type(node)
    if t is Lit or t is Template or t is Undefined:
        return None
    if t is Arr or t is Obj or t is Merge:
        if not deep:
            return None
        if t is Arr:
            kids: Sequence[Node] = node.items  # type: ignore[attr-defined]
        elif t is Obj:
            kids = list(node.fields.values())  # type: ignore[attr-defined]
        else:
            kids = node.parts  # type: ignore[attr-defined]
        for kid in kids:
            value = kid.value if type(kid) is Spread else kid
            why = shared(value, True, frame, env, counts, seen)
            if why is not None:
                return why
        return None
    if t is Get:
        return shared(node.target, True, frame, env, counts, seen)  # type: ignore[attr-defined]
    if t is Unwrap:
        return shared(node.value, deep, frame, env, counts, seen)  # type: ignore[attr-defined]
    if t is Cond:
        for side in (node.then, node.otherwise):  # type: ignore[attr-defined]
            why = shared(side, deep, frame, env, counts, seen)
            if why is not None:
                return why
        return None
    if t is Op:
        if node.op not in _EITHER_SIDE:  # type: ignore[attr-defined]
            return None  # a number, text or boolean: not an array to reorder
        for side in node.operands:  # type: ignore[attr-defined]
            why = shared(side, deep, frame, env, counts, seen)
            if why is not None:
                return why
        return None
    if t is Method:
        return _method(node, deep, frame, env, counts, seen)  # type: ignore[arg-type]
    if t is Global:
        name = node.name  # type: ignore[attr-defined]
        if name in _FRESH_GLOBAL or (name in _NEW_GLOBAL and (not deep or _NEW_GLOBAL[name])):
            return None
        if name in _NEW_GLOBAL and node.args:  # type: ignore[attr-defined]
            return shared(node.args[0], True, frame, env, counts, seen)  # type: ignore[attr-defined]
        return ""
    if t is ContextRef or t is ConstRef:
        name = node.name  # type: ignore[attr-defined]
        return None if counts.get(name, 0) <= 1 and frame < 0 else name
    if t is AliasRef:
        return _alias(node, deep, frame, env, counts, seen)  # type: ignore[arg-type]
    if t is ParamRef:
        return node.name  # type: ignore[attr-defined,no-any-return]  # an item of an array
    if t is Invoke or t is DomainCall:
        return None  # a function's result is new data, as a tool's reply is
    return ""


def _method(
    node: Method,
    deep: bool,
    frame: int,
    env: Sequence[object],
    counts: Mapping[str, int],
    seen: Aliases,
) -> str | None:
    name = node.name
    if name in NEW_ARRAY_METHODS and (not deep or name in NEW_TEXTS_METHODS):
        return None  # (the array is new; `deep`: its items are new texts too)
    if name in _RECEIVER_OR_ITEM or name in _ITEMS_OF_RECEIVER:
        inner = deep or name not in ("sort", "reverse")  # an item: something inside
        why = shared(node.target, inner, frame, env, counts, seen)
        if why is None and name in _ITEMS_FROM:
            for arg in node.args[_ITEMS_FROM[name] :]:
                value = arg.value if type(arg) is Spread else arg
                why = shared(value, True, frame, env, counts, seen)
                if why is not None:
                    break
        return why
    return ""


def _alias(
    node: AliasRef,
    deep: bool,
    frame: int,
    env: Sequence[object],
    counts: Mapping[str, int],
    seen: Aliases,
) -> str | None:
    name = node.name
    if counts.get(name, 0) > 1:
        return name
    for i in range(len(env) - 1, -1, -1):
        scope = env[i]
        slots = getattr(scope, "slots", None)
        if slots is None:
            if name in getattr(scope, "positions", ()):
                return name  # (a parameter of that name: not this alias)
            continue
        if name not in slots:
            continue
        block: Scope = scope  # type: ignore[assignment]
        if block.frame < frame:
            return name  # evaluated once, read by each application of an arrow function
        expr = block.exprs.get(name)
        if expr is None:
            return name
        key = (id(block), name, deep)
        memo = seen.memo
        if key in memo:  # its answer, or _WALKING: the alias reads itself (a cycle)
            known = memo[key]
            return name if known is _WALKING else known  # type: ignore[return-value]
        if seen.depth >= _MAX_DEPTH:  # a longer chain of aliases is taken as shared
            return name
        memo[key] = _WALKING
        seen.depth += 1
        try:
            why = shared(expr, deep, block.frame, env[: i + 1], counts, seen)
        finally:
            seen.depth -= 1
        memo[key] = why
        return why
    return name
