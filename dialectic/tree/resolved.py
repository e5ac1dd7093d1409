"""The resolved-only nodes of the call tree, made by the resolver
(:mod:`dialectic.resolve.resolver`); see :mod:`dialectic.tree.nodes`, which re-exports them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.outcome.errors import JSONPath
from dialectic.tree.nodes import Node, _path, _setter

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
        _Arg_param(self, param)
        _Arg_node(self, node)

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
        _path(self, path)
        _Invoke_fn(self, fn)
        _Invoke_args(self, args)
        _Invoke_written(self, written)


class DomainCall(Node):
    """A call resolved without a registry (corpus analysis, SPEC 13): the name is a *domain*
    and the arguments are read by the analysis conventions as ``(slot, expression)`` pairs."""

    __slots__ = ("name", "slots")
    child_fields = ("slots",)
    name: str
    slots: tuple[tuple[str, Node], ...]

    def __init__(self, path: JSONPath, name: str, slots: tuple[tuple[str, Node], ...]) -> None:
        _path(self, path)
        _DomainCall_name(self, name)
        _DomainCall_slots(self, slots)


class AliasRef(Node):
    """A reference to an alias of an enclosing :class:`Block`: ``slot`` in the run's memo
    (``frame`` -1), or in the application of the arrow function at nesting level ``frame``."""

    __slots__ = ("name", "slot", "frame")
    name: str
    slot: int
    frame: int

    def __init__(self, path: JSONPath, name: str, slot: int, frame: int = -1) -> None:
        _path(self, path)
        _AliasRef_name(self, name)
        _AliasRef_slot(self, slot)
        _AliasRef_frame(self, frame)


class ConstRef(Node):
    """A registered constant. ``written`` differs from ``const.name`` when the program named it
    up to case and underscores; then a context value of the written name wins at run time."""

    __slots__ = ("const", "written")
    const: Constant
    written: str

    def __init__(self, path: JSONPath, const: Constant, written: str) -> None:
        _path(self, path)
        _ConstRef_const(self, const)
        _ConstRef_written(self, written)


class ParamRef(Node):
    """Parameter number ``index`` of the enclosing arrow function at nesting level ``frame``
    (0: the outermost; absolute, since an alias of an arrow's body may first be read from
    inside a deeper arrow)."""

    __slots__ = ("name", "frame", "index")
    name: str
    frame: int
    index: int

    def __init__(self, path: JSONPath, name: str, frame: int, index: int) -> None:
        _path(self, path)
        _ParamRef_name(self, name)
        _ParamRef_frame(self, frame)
        _ParamRef_index(self, index)


class ContextRef(Node):
    """A value of the run's context."""

    __slots__ = ("name",)
    name: str

    def __init__(self, path: JSONPath, name: str) -> None:
        _path(self, path)
        _ContextRef_name(self, name)


class Given(Node):
    """Value number ``index`` already computed by the enclosing node (a method's receiver and
    arguments for its fallback; the target of an optional access for the rest of the chain)."""

    __slots__ = ("index",)
    index: int

    def __init__(self, path: JSONPath, index: int) -> None:
        _path(self, path)
        _Given_index(self, index)


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
        _Binding_name(self, name)
        _Binding_slot(self, slot)
        _Binding_node(self, node)
        _Binding_deps(self, deps)
        _Binding_depth(self, depth)
        _Binding_frame(self, frame)

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
        _path(self, path)
        _Block_bindings(self, bindings)
        _Block_body(self, body)
        _Block_mode(self, mode)


# each field's own setter: the nodes are immutable (``__setattr__`` refuses), and calling
# the slot's descriptor is faster than ``object.__setattr__`` by name
_Arg_param = _setter(Arg, "param")
_Arg_node = _setter(Arg, "node")
_Invoke_fn = _setter(Invoke, "fn")
_Invoke_args = _setter(Invoke, "args")
_Invoke_written = _setter(Invoke, "written")
_DomainCall_name = _setter(DomainCall, "name")
_DomainCall_slots = _setter(DomainCall, "slots")
_AliasRef_name = _setter(AliasRef, "name")
_AliasRef_slot = _setter(AliasRef, "slot")
_AliasRef_frame = _setter(AliasRef, "frame")
_ConstRef_const = _setter(ConstRef, "const")
_ConstRef_written = _setter(ConstRef, "written")
_ParamRef_name = _setter(ParamRef, "name")
_ParamRef_frame = _setter(ParamRef, "frame")
_ParamRef_index = _setter(ParamRef, "index")
_ContextRef_name = _setter(ContextRef, "name")
_Given_index = _setter(Given, "index")
_Binding_name = _setter(Binding, "name")
_Binding_slot = _setter(Binding, "slot")
_Binding_node = _setter(Binding, "node")
_Binding_deps = _setter(Binding, "deps")
_Binding_depth = _setter(Binding, "depth")
_Binding_frame = _setter(Binding, "frame")
_Block_bindings = _setter(Block, "bindings")
_Block_body = _setter(Block, "body")
_Block_mode = _setter(Block, "mode")
