"""The node shapes a fold's step is read through (:mod:`dialectic.resolve.foldstate`): which nodes
start a field again (:func:`_new_value`), are falsy literals (:func:`_falsy`), change an array
as a stack does (:func:`popped`, ``a.slice(0, -1)``; :func:`_changed`, with ``concat``), which
children a node has (:func:`_kids`) and which of them run whatever the data (:func:`_always`),
and whether a version is a leaf of a ``? :`` tree (:func:`_holds`). Each is a small function of
one node (or one ``? :`` tree), moved out of ``foldstate``, which keeps the proof itself.
"""

from __future__ import annotations

from dialectic.resolve.accumulate import appended
from dialectic.tree.nodes import (
    Arr,
    Cond,
    Get,
    Global,
    Lambda,
    Lit,
    Merge,
    Method,
    Node,
    Obj,
    Op,
    Spread,
    Template,
    Undefined,
)
from dialectic.tree.resolved import Invoke
from dialectic.tree.walking import child_list
from dialectic.values.jsops import LOGICAL

__all__ = ["popped"]


#: the nodes that evaluate all their children whatever the data
_EAGER = frozenset({Arr, Obj, Merge, Spread, Template, Global})


def _new_value(node: Node) -> bool:
    """Whether ``node`` is an array or object literal (``cur = []`` starting the field again:
    a value the fold did not make, which its next change copies once, then owns), or ``null``
    (the value of a branch not taken)."""
    t = type(node)
    if t is Lit:
        return node.value is None or type(node.value) in (list, dict)  # type: ignore[attr-defined]
    return t is Arr or t is Obj


def _falsy(node: Node) -> bool:
    """Whether ``node`` is a literal JavaScript takes as false."""
    if type(node) is Undefined:
        return True
    if type(node) is not Lit:
        return False
    value = node.value
    return value is None or value is False or (type(value) in (int, str) and not value)


def _changed(node: Node) -> Node | None:
    """The receiver of ``a.slice(0, -1)`` or ``a.concat(...)``, or None."""
    first = popped(node)
    return first if first is not None else appended(node)


def popped(node: Node) -> Node | None:
    """The array ``a`` when ``node`` is ``a.slice(0, -1)`` (a stack's ``pop()``, SPEC 10)."""
    if type(node) is not Method or node.name != "slice" or len(node.args) != 2:
        return None
    start, end = node.args
    if type(start) is Lit and type(end) is Lit and start.value == 0 and end.value == -1:
        return node.target
    return None


def _kids(node: Node) -> list[Node]:
    """:func:`child_list`, at once for the nodes a fold's body is mostly made of."""
    t = type(node)
    if t is Get:
        return [node.target, *node.keys]  # type: ignore[attr-defined]
    if t is Cond:
        return [node.test, node.then, node.otherwise]  # type: ignore[attr-defined]
    if t is Arr:
        return list(node.items)  # type: ignore[attr-defined]
    if t is Op:
        return list(node.operands)  # type: ignore[attr-defined]
    if t is Spread:
        return [node.value]  # type: ignore[attr-defined]
    return child_list(node)


def _holds(tree: Node, node: Node) -> bool:
    stack = [tree]
    while stack:
        n = stack.pop()
        if n is node:
            return True
        if type(n) is Cond:
            stack.append(n.then)
            stack.append(n.otherwise)
    return False


def _always(node: Node) -> list[Node]:
    """The children of ``node`` evaluated whatever the data (none for a node not known)."""
    t = type(node)
    if t is Cond:
        return [node.test]  # type: ignore[attr-defined]
    if t is Op:
        ops: tuple[Node, ...] = node.operands  # type: ignore[attr-defined]
        return [ops[0]] if node.op in LOGICAL else list(ops)  # type: ignore[attr-defined]
    if t is Get or t is Method:
        if node.optional:  # type: ignore[attr-defined]
            return [node.target]  # type: ignore[attr-defined]
        if t is Method:
            return [node.target, *(a for a in node.args if type(a) is not Lambda)]  # type: ignore[attr-defined]
        return child_list(node)
    if t in _EAGER:
        return child_list(node)
    if t is Invoke:  # a function's arguments, evaluated before the call
        return [a.node for a in node.args if type(a.node) is not Lambda]  # type: ignore[attr-defined]
    return []
