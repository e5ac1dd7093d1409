"""The resolver's nodes, built the fast way: each through its class's mutable twin
(:func:`dialectic.tree.nodes.twin`), fields stored directly, then the node's own class (a
third of the cost of the constructor, which refuses plain stores and calls each slot's setter).
Each builder sets every field its class's constructor sets (``tests/core/
test_resolver_fast_paths.py`` compares them); the resolver's hottest handlers (names, member
access, calls) build their nodes inline the same way, with the twins below."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.outcome.errors import JSONPath
from dialectic.registry.descriptions import FunctionDescription
from dialectic.registry.registry import Param
from dialectic.tree.dispatch import twin
from dialectic.tree.nodes import (
    AliasRef,
    Arg,
    Arr,
    Binding,
    Block,
    Cond,
    ConstRef,
    ContextRef,
    Get,
    Invoke,
    Lambda,
    Method,
    Node,
    Obj,
    Op,
    ParamRef,
    Template,
)

if TYPE_CHECKING:
    from dialectic.registry.descriptions import Constant

__all__ = [
    "ArgTwin",
    "GetTwin",
    "InvokeTwin",
    "ParamRefTwin",
    "alias_ref",
    "arg",
    "arr",
    "binding",
    "block",
    "cond",
    "const_ref",
    "context_ref",
    "get",
    "invoke",
    "lambda_",
    "method",
    "obj",
    "op",
    "template",
]

# (Arg and Binding are no nodes, but built the same way: slotted, immutable, no __dict__)
ArgTwin: Any = twin(Arg)  # type: ignore[arg-type]
BindingTwin: Any = twin(Binding)  # type: ignore[arg-type]
InvokeTwin: Any = twin(Invoke)
GetTwin: Any = twin(Get)
ContextRefTwin: Any = twin(ContextRef)
AliasRefTwin: Any = twin(AliasRef)
ParamRefTwin: Any = twin(ParamRef)
ArrTwin: Any = twin(Arr)
ObjTwin: Any = twin(Obj)
OpTwin: Any = twin(Op)
TemplateTwin: Any = twin(Template)
BlockTwin: Any = twin(Block)
CondTwin: Any = twin(Cond)
ConstRefTwin: Any = twin(ConstRef)
LambdaTwin: Any = twin(Lambda)
MethodTwin: Any = twin(Method)


def arg(param: Param, node: Node) -> Arg:
    made = ArgTwin()
    made.param = param
    made.node = node
    made.__class__ = Arg
    out: Arg = made
    return out


def invoke(path: JSONPath, fn: FunctionDescription, args: tuple[Arg, ...], written: str) -> Node:
    made = InvokeTwin()
    made.path = path
    made.fn = fn
    made.args = args
    made.written = written
    made.__class__ = Invoke
    out: Node = made
    return out


def get(
    path: JSONPath, target: Node, keys: tuple[Node, ...], optional: bool, soft: int = 0
) -> Node:
    made = GetTwin()
    made.path = path
    made.target = target
    made.keys = keys
    made.optional = optional
    made.soft = soft
    made.__class__ = Get
    out: Node = made
    return out


def soften(node: Node) -> Node:
    """``node`` where the program says its data may be missing (the left operand of ``??``,
    ``||``, ``&&``, a test, the target of ``?.``: SPEC 1.2, "Optional members"): a member access
    whose last key may name a member the object lacks, or an index past the end (then it is
    undefined); any other node as it is."""
    if type(node) is not Get:
        return node
    g: Any = node
    last = 1 << (len(g.keys) - 1)
    if g.soft & last:
        return node
    return get(g.path, g.target, g.keys, g.optional, g.soft | last)


def or_empty(node: Node) -> bool:
    """``(x ?? {}).b``, ``(xs || [])[0]``: the first key read from a value whose default is an
    empty object or array may be missing, as in the default itself (SPEC 1.2)."""
    if type(node) is not Op:
        return False
    op: Any = node
    if op.op != "??" and op.op != "||":
        return False
    last: Any = op.operands[-1]
    return (type(last) is Obj and not last.fields) or (type(last) is Arr and not last.items)


def context_ref(path: JSONPath, name: str) -> Node:
    made = ContextRefTwin()
    made.path = path
    made.name = name
    made.__class__ = ContextRef
    out: Node = made
    return out


def alias_ref(path: JSONPath, name: str, slot: int, frame: int) -> Node:
    made = AliasRefTwin()
    made.path = path
    made.name = name
    made.slot = slot
    made.frame = frame
    made.__class__ = AliasRef
    out: Node = made
    return out


def arr(path: JSONPath, items: tuple[Node, ...]) -> Node:
    made = ArrTwin()
    made.path = path
    made.items = items
    made.__class__ = Arr
    out: Node = made
    return out


def obj(path: JSONPath, fields: dict[str, Node], explicit: bool) -> Node:
    made = ObjTwin()
    made.path = path
    made.fields = fields
    made.explicit = explicit
    made.__class__ = Obj
    out: Node = made
    return out


def op(path: JSONPath, operator: str, operands: tuple[Node, ...]) -> Node:
    made = OpTwin()
    made.path = path
    made.op = operator
    made.operands = operands
    made.__class__ = Op
    out: Node = made
    return out


def template(path: JSONPath, parts: tuple[str | Node, ...]) -> Node:
    made = TemplateTwin()
    made.path = path
    made.parts = parts
    made.__class__ = Template
    out: Node = made
    return out


def binding(
    name: str, slot: int, node: Node, deps: tuple[int, ...], depth: int, frame: int
) -> Binding:
    made = BindingTwin()
    made.name = name
    made.slot = slot
    made.node = node
    made.deps = deps
    made.depth = depth
    made.frame = frame
    made.__class__ = Binding
    out: Binding = made
    return out


def block(path: JSONPath, bindings: tuple[Binding, ...], body: Node, mode: str) -> Node:
    made = BlockTwin()
    made.path = path
    made.bindings = bindings
    made.body = body
    made.mode = mode
    made.__class__ = Block
    out: Node = made
    return out


def cond(path: JSONPath, test: Node, then: Node, otherwise: Node) -> Node:
    made = CondTwin()
    made.path = path
    made.test = test
    made.then = then
    made.otherwise = otherwise
    made.__class__ = Cond
    out: Node = made
    return out


def const_ref(path: JSONPath, const: Constant, written: str) -> Node:
    made = ConstRefTwin()
    made.path = path
    made.const = const
    made.written = written
    made.__class__ = ConstRef
    out: Node = made
    return out


def lambda_(path: JSONPath, params: tuple[str, ...], body: Node, locals_: int) -> Node:
    made = LambdaTwin()
    made.path = path
    made.params = params
    made.body = body
    made.locals = locals_
    made.__class__ = Lambda
    out: Node = made
    return out


def method(
    path: JSONPath,
    target: Node,
    name: str,
    args: tuple[Node, ...],
    fallback: Node | None,
    optional: bool,
) -> Node:
    made = MethodTwin()
    made.path = path
    made.target = target
    made.name = name
    made.args = args
    made.fallback = fallback
    made.optional = optional
    made.__class__ = Method
    out: Node = made
    return out
