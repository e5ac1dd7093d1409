"""The resolved-only nodes of the call tree, made by the resolver
(:mod:`dialectic.resolve.resolver`); see :mod:`dialectic.tree.nodes`, which re-exports them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.outcome.errors import JSONPath
from dialectic.tree.nodes import Node, _set

if TYPE_CHECKING:
    from dialectic.registry.descriptions import Constant, FunctionDescription
    from dialectic.registry.registry import Param

__all__ = [
    "AliasRef",
    "Arg",
    "Binding",
    "Block",
    "ConstRef",
    "ContextRef",
    "DomainCall",
    "Given",
    "Invoke",
    "ParamRef",
]


class Arg:
    """One bound argument of an :class:`Invoke`: the parameter and the expression."""

    __slots__ = ("param", "node")
    param: Param
    node: Node

    def __init__(self, param: Param, node: Node) -> None:
        _set(self, "param", param)
        _set(self, "node", node)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Arg is immutable")

    def __repr__(self) -> str:
        return f"Arg({self.param.name}={self.node!r})"


class Invoke(Node):
    """A call bound to a registered function: ``args`` in parameter order, omitted ones absent.
    ``written`` is the name as the program wrote it (it may differ from ``fn.name`` up to case
    and underscores)."""

    __slots__ = ("fn", "args", "written")
    child_fields = ("args",)
    fn: FunctionDescription
    args: tuple[Arg, ...]
    written: str

    def __init__(
        self, path: JSONPath, fn: FunctionDescription, args: tuple[Arg, ...], written: str
    ) -> None:
        _set(self, "path", path)
        _set(self, "fn", fn)
        _set(self, "args", args)
        _set(self, "written", written)


class DomainCall(Node):
    """A call resolved without a registry (corpus analysis, SPEC 13): the name is a *domain*
    and the arguments are read by the analysis conventions as ``(slot, expression)`` pairs."""

    __slots__ = ("name", "slots")
    child_fields = ("slots",)
    name: str
    slots: tuple[tuple[str, Node], ...]

    def __init__(self, path: JSONPath, name: str, slots: tuple[tuple[str, Node], ...]) -> None:
        _set(self, "path", path)
        _set(self, "name", name)
        _set(self, "slots", slots)


class AliasRef(Node):
    """A reference to an alias of an enclosing :class:`Block`: ``slot`` in the run's memo
    (``frame`` -1), or in the application of the arrow function at nesting level ``frame``."""

    __slots__ = ("name", "slot", "frame")
    name: str
    slot: int
    frame: int

    def __init__(self, path: JSONPath, name: str, slot: int, frame: int = -1) -> None:
        _set(self, "path", path)
        _set(self, "name", name)
        _set(self, "slot", slot)
        _set(self, "frame", frame)


class ConstRef(Node):
    """A registered constant. ``written`` differs from ``const.name`` when the program named it
    up to case and underscores; then a context value of the written name wins at run time."""

    __slots__ = ("const", "written")
    const: Constant
    written: str

    def __init__(self, path: JSONPath, const: Constant, written: str) -> None:
        _set(self, "path", path)
        _set(self, "const", const)
        _set(self, "written", written)


class ParamRef(Node):
    """Parameter number ``index`` of the enclosing arrow function at nesting level ``frame``
    (0: the outermost; absolute, since an alias of an arrow's body may first be read from
    inside a deeper arrow)."""

    __slots__ = ("name", "frame", "index")
    name: str
    frame: int
    index: int

    def __init__(self, path: JSONPath, name: str, frame: int, index: int) -> None:
        _set(self, "path", path)
        _set(self, "name", name)
        _set(self, "frame", frame)
        _set(self, "index", index)


class ContextRef(Node):
    """A value of the run's context."""

    __slots__ = ("name",)
    name: str

    def __init__(self, path: JSONPath, name: str) -> None:
        _set(self, "path", path)
        _set(self, "name", name)


class Given(Node):
    """Value number ``index`` already computed by the enclosing node (a method's receiver and
    arguments for its fallback; the target of an optional access for the rest of the chain)."""

    __slots__ = ("index",)
    index: int

    def __init__(self, path: JSONPath, index: int) -> None:
        _set(self, "path", path)
        _set(self, "index", index)


class Binding:
    """One alias of a :class:`Block`: its name, memo slot, expression, the aliases of the same
    block it reads directly whatever the data (``deps``, slots; reads under a condition are not
    listed), and ``depth``: the nesting levels its evaluation may recurse through."""

    __slots__ = ("name", "slot", "node", "deps", "depth", "frame")
    name: str
    slot: int
    node: Node
    deps: tuple[int, ...]
    depth: int
    frame: int

    def __init__(
        self,
        name: str,
        slot: int,
        node: Node,
        deps: tuple[int, ...],
        depth: int,
        frame: int = -1,
    ) -> None:
        _set(self, "name", name)
        _set(self, "slot", slot)
        _set(self, "node", node)
        _set(self, "deps", deps)
        _set(self, "depth", depth)
        _set(self, "frame", frame)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Binding is immutable")

    def __repr__(self) -> str:
        return f"Binding({self.name}#{self.slot}={self.node!r})"


class Block(Node):
    """A resolved ``$let``: bindings in dependency order (each after the aliases it reads)."""

    __slots__ = ("bindings", "body", "mode")
    child_fields = ("bindings", "body")
    bindings: tuple[Binding, ...]
    body: Node
    mode: str

    def __init__(
        self, path: JSONPath, bindings: tuple[Binding, ...], body: Node, mode: str
    ) -> None:
        _set(self, "path", path)
        _set(self, "bindings", bindings)
        _set(self, "body", body)
        _set(self, "mode", mode)
