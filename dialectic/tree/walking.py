"""Walking the call tree: the generic :func:`children` / :func:`child_list` / :func:`walk` over
every node class's ``child_fields``, and the :class:`Visitor` that dispatches on a node's class
through a table built once per visitor class (jinja2's ``nodes.py`` is the model). Moved out of
:mod:`dialectic.tree.nodes`, which keeps the node classes themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from dialectic.tree.nodes import Node
from dialectic.tree.resolved import Arg, Binding

__all__ = ["Visitor", "child_list", "children", "walk"]


# -- walking -------------------------------------------------------------------------------------
def children(node: Node) -> Iterator[Node]:
    """The node's direct children, in evaluation order."""
    return iter(child_list(node))


def child_list(node: Node) -> list[Node]:
    """:func:`children` as a list (a walk that keeps them all: no generator to step)."""
    out: list[Node] = []
    for name in node.child_fields:
        value = getattr(node, name)
        if value is None:
            continue
        if isinstance(value, Node):
            out.append(value)
        elif isinstance(value, dict):
            out.extend(value.values())
        else:
            for item in value:
                if isinstance(item, Node):
                    out.append(item)
                elif isinstance(item, _HOLDERS):  # (a tuple: no union made per item)
                    out.append(item.node)
                elif isinstance(item, tuple):
                    out.append(item[1])
    return out


def walk(node: Node) -> Iterator[Node]:
    """Every node of the subtree, parents before children (iterative: any depth)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        kids = child_list(n)
        kids.reverse()
        stack.extend(kids)


class Visitor:
    """Dispatch on the node's class: ``visit_Call`` for a ``Call`` and so on; a class without a
    method goes to ``generic_visit``. The table is built once per visitor class."""

    _table: ClassVar[dict[type, str]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._table = {}

    def visit(self, node: Node) -> Any:
        table = type(self)._table
        name = table.get(type(node))
        if name is None:
            method = "visit_" + type(node).__name__
            name = table[type(node)] = method if hasattr(self, method) else "generic_visit"
        return getattr(self, name)(node)

    def generic_visit(self, node: Node) -> Any:
        raise TypeError(f"{type(self).__name__} cannot visit a {type(node).__name__} node")


#: the items of a child field that hold a node (``child_list``)
_HOLDERS = (Arg, Binding)
