"""Aliases that may miss (SPEC 1.2, "Optional members"): ``const first = xs[0];`` read only
where the program tests ``first`` (``!first``, ``first ?? d``, ``first === undefined``, ...) or
where such a test has shown it is there (``first ? first.name : d``, the rest of the block
after ``if (!first) return d;``) reads its index or member as JavaScript does: ``undefined``
when it is missing.

The resolver keeps, per alias (by ``(frame, slot)``), the reads of it that may see
``undefined`` (:func:`may_see`), and, while it resolves a branch, the aliases the branch's
test has shown to be there (:func:`present`). When the alias's block ends, an alias whose
every read is such a read has its last key marked (:func:`settle`)."""

from __future__ import annotations

from typing import Any

from dialectic.resolve.build import soften
from dialectic.tree.nodes import AliasRef, Get, Lit, Method, Node, Op, Undefined

__all__ = ["Reads", "may_see", "present", "settle"]

#: per alias ``(frame, slot)``: its reads that may see ``undefined`` (by id: each counted once)
Reads = dict[tuple[int, int], dict[int, Node]]

_POSITIVE = frozenset({"!==", "!="})
_NEGATIVE = frozenset({"===", "=="})
#: the tests that may show an alias is there
_SHOWING = frozenset({AliasRef, Get, Method, Op})


def may_see(reads: Reads, candidates: set[tuple[int, int]], node: Node) -> None:
    """Record ``node``, a read of an alias, as one that may see ``undefined`` (if the alias's
    value is a read that may miss: one of the ``candidates``)."""
    ref: Any = node
    key = (ref.frame, ref.slot)
    if key not in candidates:
        return
    seen = reads.get(key)
    if seen is None:
        seen = reads[key] = {}
    seen[id(node)] = node


def _alias(node: Node) -> tuple[int, int] | None:
    if type(node) is AliasRef:
        return (node.frame, node.slot)
    return None


def _root(node: Node) -> tuple[int, int] | None:
    """The alias a member access or method call reads from (``a`` of ``a.b.c``, ``a?.f()``)."""
    while type(node) is Get or type(node) is Method:
        node = node.target
    return _alias(node)


def _absent(node: Node) -> bool:
    return type(node) is Undefined or (type(node) is Lit and node.value is None)


def _compared(op: Op, truthy: bool) -> list[tuple[int, int]]:
    """``a !== undefined``, ``a != null``, ``typeof a === 'string'`` (and the negations when
    falsy): the alias that is there when the comparison is ``truthy``."""
    left, right = op.operands
    if type(left) is Op and left.op == "typeof" and type(right) is Lit:
        left, right = right, left
    if type(right) is Op and right.op == "typeof" and type(left) is Lit:
        key = _alias(right.operands[0])
        if key is None or type(left.value) is not str:
            return []
        # `typeof a === 'undefined'` is false when `a` is there; `=== 'string'`, true
        there = (op.op in _POSITIVE) == (left.value == "undefined")
        return [key] if there == truthy else []
    if _absent(left):
        left, right = right, left
    if not _absent(right) or (len(op.op) == 3 and type(right) is Lit):
        return []  # (`a === null` says nothing about undefined)
    key = _alias(left)
    if key is None:
        return []
    return [key] if (op.op in _POSITIVE) == truthy else []


def present(node: Node, truthy: bool) -> list[tuple[int, int]]:
    """The aliases that are there (not ``undefined``) when the test ``node`` is ``truthy``
    (or falsy): ``a``, ``!a``, ``a && b``, ``!a || !b``, ``a !== undefined``, ``a.b``."""
    cls = type(node)
    if cls not in _SHOWING:
        return []
    if cls is AliasRef:
        return [(node.frame, node.slot)] if truthy else []  # type: ignore[attr-defined]
    if cls is Get or cls is Method:
        key = _root(node) if truthy else None
        return [key] if key is not None else []
    if cls is not Op:
        return []
    op: Any = node
    operator = op.op
    operands = op.operands
    if operator == "!" and len(operands) == 1:
        return present(operands[0], not truthy)
    if (operator == "&&" and truthy) or (operator == "||" and not truthy):
        return [key for o in operands for key in present(o, truthy)]
    if len(operands) == 2 and (operator in _POSITIVE or operator in _NEGATIVE):
        return _compared(op, truthy)
    return []


def settle(
    slots: dict[str, int],
    frame: int,
    before: dict[str, int],
    counts: dict[str, int],
    exprs: dict[str, Node],
    reads: Reads,
) -> None:
    """At the end of a block: each alias whose value is a member access or an index
    (``before``: how often each such alias was read before the block) and whose every read
    (how many more ``counts`` has: a shadowing alias's reads count too, so that one keeps the
    failure) may see ``undefined`` reads its last key as one that may miss."""
    for name, earlier in before.items():
        seen = reads.pop((frame, slots[name]), None)
        if seen is None:
            continue
        expr = exprs.get(name)
        if type(expr) is Get and len(seen) == counts.get(name, 0) - earlier:
            exprs[name] = soften(expr)
