"""Dispatch over node classes, and the nodes' mutable twins.

- :func:`dispatch_table` / :func:`unbound_table`: ``{NodeClass: handler}`` for a pass's
  ``prefix + ClassName`` methods (one dict look-up per node);
- :func:`twin`: a node class's mutable twin, through which hot passes build nodes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.tree.nodes import Node

__all__ = ["dispatch_table", "twin", "unbound_table"]


def dispatch_table(
    owner: object, prefix: str = "visit_"
) -> dict[type[Node], Callable[[Node], Any]]:
    """``{NodeClass: bound method}`` for every ``prefix + ClassName`` method of ``owner``: the
    fastest dispatch for a hot pass (one dict lookup, no string building)."""
    key = (type(owner), prefix)
    names = _TABLES.get(key)
    if names is None:  # once per visitor class: which method handles which node class
        names = _TABLES[key] = tuple(
            (cls, prefix + cls.__name__)
            for cls in _all_node_classes()
            if hasattr(type(owner), prefix + cls.__name__)
        )
    return {cls: getattr(owner, name) for cls, name in names}


_TABLES: dict[tuple[type, str], tuple[tuple[type[Node], str], ...]] = {}


def unbound_table(owner: type, prefix: str) -> dict[type[Node], Callable[[Any, Any], Any]]:
    """``{NodeClass: function}`` for every ``prefix + ClassName`` method of the class
    ``owner``, built once per class: a pass calls ``table[type(node)](self, node)`` (no bound
    methods made per pass, and no reference cycle through them)."""
    key = (owner, prefix)
    table = _UNBOUND.get(key)
    if table is None:
        table = _UNBOUND[key] = {
            cls: getattr(owner, prefix + cls.__name__)
            for cls in _all_node_classes()
            if hasattr(owner, prefix + cls.__name__)
        }
    return table


_UNBOUND: dict[tuple[type, str], dict[type[Node], Callable[[Any, Any], Any]]] = {}


def _all_node_classes() -> list[type[Node]]:
    out: list[type[Node]] = []
    todo: list[type[Node]] = [Node]
    while todo:
        cls = todo.pop()
        if "twin_of" in vars(cls):  # a parse's mutable twin (below): never a node's class
            continue
        out.append(cls)
        todo.extend(cls.__subclasses__())
    return out


def twin(cls: type[Node]) -> Any:
    """A mutable twin of the node class ``cls``: the same slots, plain attribute stores, no
    ``__init__``. A hot pass builds a node as ``node = Twin(); node.path = ...; ...;
    node.__class__ = cls`` (the same layout, so Python allows the class change), which costs
    a third of ``cls(...)``: a node's ``__setattr__`` refuses every store, and calling each
    slot's setter is slower than a store. The node is immutable from then on; a twin never
    leaves the function that fills it. One twin per class, shared by every pass."""
    made = _TWINS.get(cls)
    if made is None:
        made = _TWINS[cls] = type(
            f"{cls.__name__}Twin",
            (cls,),
            {
                "__slots__": (),
                "__setattr__": object.__setattr__,
                "__init__": object.__init__,
                "twin_of": cls,
                "__module__": __name__,
            },
        )
    return made


_TWINS: dict[type[Node], type] = {}
