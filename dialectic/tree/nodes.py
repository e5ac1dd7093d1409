"""The call tree's typed nodes (SPEC.md section 1).

Nodes are frozen and slotted; each class lists its child-bearing ``child_fields`` so that one
generic :func:`~dialectic.tree.walking.children` / :func:`~dialectic.tree.walking.walk` serves
every pass, and a :class:`~dialectic.tree.walking.Visitor` dispatches on the class through a
table built once per visitor class (jinja2's ``nodes.py`` is the model).

Two layers share these classes:

- **syntax** nodes, made by :mod:`dialectic.tree.parse` from the JSON: ``Lit``, ``Arr``, ``Obj``,
  ``Call`` (a call as written: the name and its argument JSON, not yet bound), ``Ref``, ``Get``,
  ``Template``, ``Undefined``, ``Unwrap``, ``Let``;
- **resolved** nodes, made by the resolver (:mod:`dialectic.resolve.resolver`): ``Invoke`` (a call
  bound to a registered function, one argument per parameter), ``AliasRef``, ``ConstRef``,
  ``ContextRef``, ``Block`` (aliases in dependency order, each with its memo slot). Structural
  nodes (``Lit``, ``Arr``, ``Obj``, ``Get``, ``Template``, ``Undefined``, ``Unwrap``) appear in
  both, with resolved children.

The compiler, the canonical writer and the static checks each take the resolved tree in one walk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from dialectic.outcome.errors import JSONPath

__all__ = [
    "AliasRef",
    "Arg",
    "Arr",
    "Binding",
    "Block",
    "Call",
    "Cond",
    "ConstRef",
    "ContextRef",
    "DomainCall",
    "Get",
    "Given",
    "Global",
    "Invoke",
    "Lambda",
    "Let",
    "Lit",
    "Merge",
    "Method",
    "Node",
    "Obj",
    "Op",
    "ParamRef",
    "Ref",
    "Spread",
    "Template",
    "Throw",
    "Try",
    "Undefined",
    "Unwrap",
    "While",
]


class Node:
    """A node; ``path`` is its JSON path from the program's root. Immutable once built."""

    __slots__ = ("path",)
    #: the attributes that hold child nodes (a node, a tuple of nodes, a dict of nodes, or a
    #: tuple of pairs whose second item is a node), in evaluation order
    child_fields: ClassVar[tuple[str, ...]] = ()

    path: JSONPath

    def __init__(self, path: JSONPath) -> None:
        _path(self, path)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} nodes are immutable")

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={getattr(self, k)!r}" for k in _slots(type(self)) if k != "path")
        return f"{type(self).__name__}({inner})"


_set = object.__setattr__


def _setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The setter of ``cls``'s own slot ``name`` (for the nodes' ``__init__``)."""
    setter: Callable[[Any, Any], None] = vars(cls)[name].__set__
    return setter


_path = _setter(Node, "path")


def _slots(cls: type) -> list[str]:
    out: list[str] = []
    for klass in reversed(cls.__mro__):
        out.extend(getattr(klass, "__slots__", ()))
    return out


# -- structure (both layers) ---------------------------------------------------------------------
class Lit(Node):
    """A literal value: a JSON scalar, or quoted data (``$quote``)."""

    __slots__ = ("value",)
    value: Any

    def __init__(self, path: JSONPath, value: Any) -> None:
        _path(self, path)
        _Lit_value(self, value)


class Arr(Node):
    __slots__ = ("items",)
    child_fields = ("items",)
    items: tuple[Node, ...]

    def __init__(self, path: JSONPath, items: tuple[Node, ...]) -> None:
        _path(self, path)
        _Arr_items(self, items)


class Obj(Node):
    """An object constructor: a plain multi-key object, or ``$object`` (``explicit``)."""

    __slots__ = ("fields", "explicit")
    child_fields = ("fields",)
    fields: dict[str, Node]
    explicit: bool

    def __init__(self, path: JSONPath, fields: dict[str, Node], explicit: bool) -> None:
        _path(self, path)
        _Obj_fields(self, fields)
        _Obj_explicit(self, explicit)


class Get(Node):
    """Member access ``target[key]...`` (``$get``); ``optional``: ``target?.[key]...``
    (``$get?``): undefined when the target is null or undefined. ``soft`` (set by the resolver,
    never written out): bit ``i`` set, a member that key ``i`` names and the object lacks (or an
    index past the end of an array or text) is undefined instead of a failure, where the
    program says the data may be missing (SPEC 1.2, "Optional members")."""

    __slots__ = ("target", "keys", "optional", "soft")
    child_fields = ("target", "keys")
    target: Node
    keys: tuple[Node, ...]
    optional: bool
    soft: int

    def __init__(
        self,
        path: JSONPath,
        target: Node,
        keys: tuple[Node, ...],
        optional: bool = False,
        soft: int = 0,
    ) -> None:
        _path(self, path)
        _Get_target(self, target)
        _Get_keys(self, keys)
        _Get_optional(self, optional)
        _Get_soft(self, soft)


class Template(Node):
    __slots__ = ("parts",)
    child_fields = ("parts",)
    parts: tuple[str | Node, ...]

    def __init__(self, path: JSONPath, parts: tuple[str | Node, ...]) -> None:
        _path(self, path)
        _Template_parts(self, parts)


class Undefined(Node):
    __slots__ = ()


class Unwrap(Node):
    __slots__ = ("value",)
    child_fields = ("value",)
    value: Node

    def __init__(self, path: JSONPath, value: Node) -> None:
        _path(self, path)
        _Unwrap_value(self, value)


class Op(Node):
    """A JavaScript operator applied to its operands (``$op``): unary (one operand), binary, or
    short-circuit (``&&``, ``||``, ``??``: the right operand runs only if needed)."""

    __slots__ = ("op", "operands")
    child_fields = ("operands",)
    op: str
    operands: tuple[Node, ...]

    def __init__(self, path: JSONPath, op: str, operands: tuple[Node, ...]) -> None:
        _path(self, path)
        _Op_op(self, op)
        _Op_operands(self, operands)


class Cond(Node):
    """``test ? then : otherwise`` (``$if``): only the branch taken runs."""

    __slots__ = ("test", "then", "otherwise")
    child_fields = ("test", "then", "otherwise")
    test: Node
    then: Node
    otherwise: Node

    def __init__(self, path: JSONPath, test: Node, then: Node, otherwise: Node) -> None:
        _path(self, path)
        _Cond_test(self, test)
        _Cond_then(self, then)
        _Cond_otherwise(self, otherwise)


class Lambda(Node):
    """An arrow function ``(a, b) => body`` (``$fn``): only as an argument of a method."""

    __slots__ = ("params", "body", "locals")
    child_fields = ("body",)
    params: tuple[str, ...]
    body: Node
    #: (resolved) how many alias slots one application of the body needs
    locals: int

    def __init__(
        self, path: JSONPath, params: tuple[str, ...], body: Node, locals: int = 0
    ) -> None:
        _path(self, path)
        _Lambda_params(self, params)
        _Lambda_body(self, body)
        _Lambda_locals(self, locals)


class Method(Node):
    """``target.name(args)`` with JavaScript's meaning for arrays and texts (``$method``);
    ``optional``: ``target?.name(args)`` (``$method?``): undefined when the target is null or
    undefined, the arguments unevaluated.

    ``fallback`` (resolved): when ``name`` is also a registered function, the call of it on
    :class:`Given` values (the receiver, then the arguments), used when the receiver is neither
    an array nor a text (``date.at('9:00am')``)."""

    __slots__ = ("target", "name", "args", "fallback", "optional")
    child_fields = ("target", "args")
    target: Node
    name: str
    args: tuple[Node, ...]
    fallback: Node | None
    optional: bool

    def __init__(
        self,
        path: JSONPath,
        target: Node,
        name: str,
        args: tuple[Node, ...],
        fallback: Node | None = None,
        optional: bool = False,
    ) -> None:
        _path(self, path)
        _Method_target(self, target)
        _Method_name(self, name)
        _Method_args(self, args)
        _Method_fallback(self, fallback)
        _Method_optional(self, optional)


class Global(Node):
    """A JavaScript global function: ``Math.max(...)``, ``Object.keys(x)``, ``Number(x)``
    (``$global``)."""

    __slots__ = ("name", "args")
    child_fields = ("args",)
    name: str
    args: tuple[Node, ...]

    def __init__(self, path: JSONPath, name: str, args: tuple[Node, ...]) -> None:
        _path(self, path)
        _Global_name(self, name)
        _Global_args(self, args)


class Spread(Node):
    """``...value`` as an array element or an argument (``$spread``)."""

    __slots__ = ("value",)
    child_fields = ("value",)
    value: Node

    def __init__(self, path: JSONPath, value: Node) -> None:
        _path(self, path)
        _Spread_value(self, value)


class Merge(Node):
    """``{...a, ...b}``: the objects' members, later ones winning (``$merge``)."""

    __slots__ = ("parts",)
    child_fields = ("parts",)
    parts: tuple[Node, ...]

    def __init__(self, path: JSONPath, parts: tuple[Node, ...]) -> None:
        _path(self, path)
        _Merge_parts(self, parts)


class While(Node):
    """``{"$while": [state, test, step]}``: from ``state``, while ``test(state)`` is truthy,
    ``state = step(state)``; the value is the last state (``test`` and ``step`` are
    :class:`Lambda` nodes of one parameter). Each test and each step is a method step."""

    __slots__ = ("init", "test", "step")
    child_fields = ("init", "test", "step")
    init: Node
    test: Node
    step: Node

    def __init__(self, path: JSONPath, init: Node, test: Node, step: Node) -> None:
        _path(self, path)
        _While_init(self, init)
        _While_test(self, test)
        _While_step(self, step)


class Try(Node):
    """``{"$try": [body, handler]}``: the value of ``body``, or, when it fails with a failure
    JavaScript also throws, ``handler`` (a :class:`Lambda` of one parameter) applied to the
    error (SPEC 1.2)."""

    __slots__ = ("body", "handler")
    child_fields = ("body", "handler")
    body: Node
    handler: Node

    def __init__(self, path: JSONPath, body: Node, handler: Node) -> None:
        _path(self, path)
        _Try_body(self, body)
        _Try_handler(self, handler)


class Throw(Node):
    """``{"$throw": value}``: a failure carrying ``value`` (JavaScript's ``throw``)."""

    __slots__ = ("value",)
    child_fields = ("value",)
    value: Node

    def __init__(self, path: JSONPath, value: Node) -> None:
        _path(self, path)
        _Throw_value(self, value)


# -- syntax only ---------------------------------------------------------------------------------
class Call(Node):
    """``{"name": ARGS}`` as written. ``kind`` is "array", "object" or "single" (SPEC 1.5).

    Whether an argument object is named arguments or a nested call depends on the callee, so a
    call keeps its argument JSON (``raw``) and the resolver reads it (``tree.parse.call_named``,
    ``call_as_nested``). ``positional`` and ``single`` are parsed eagerly. ``read``: an
    argument object as the parse read it ahead (a ``Call`` for one key, the nested call; a
    dict of nodes for other keys, the named arguments), which those two functions give; None
    when there is none, or reading it met a form's error (they read ``raw`` and meet it).
    """

    __slots__ = ("name", "kind", "positional", "single", "raw", "read")
    child_fields = ("positional", "single")
    name: str
    kind: str
    positional: tuple[Node, ...]
    single: Node | None
    raw: Any
    read: Call | dict[str, Node] | None

    def __init__(
        self,
        path: JSONPath,
        name: str,
        kind: str,
        positional: tuple[Node, ...] = (),
        single: Node | None = None,
        raw: Any = None,
        read: Call | dict[str, Node] | None = None,
    ) -> None:
        _path(self, path)
        _Call_name(self, name)
        _Call_kind(self, kind)
        _Call_positional(self, positional)
        _Call_single(self, single)
        _Call_raw(self, raw)
        _Call_read(self, read)


class Ref(Node):
    """A name as written (``$ref``); the resolver decides what it names."""

    __slots__ = ("name",)
    name: str

    def __init__(self, path: JSONPath, name: str) -> None:
        _path(self, path)
        _Ref_name(self, name)


class Let(Node):
    """``$let`` bindings and a body; ``mode`` is "return" or "use"."""

    __slots__ = ("bindings", "body", "mode")
    child_fields = ("bindings", "body")
    bindings: dict[str, Node]
    body: Node
    mode: str

    def __init__(self, path: JSONPath, bindings: dict[str, Node], body: Node, mode: str) -> None:
        _path(self, path)
        _Let_bindings(self, bindings)
        _Let_body(self, body)
        _Let_mode(self, mode)


# the resolved-only nodes (they subclass Node, so they must be defined whenever this module is
# imported: dispatch_table finds node classes through Node.__subclasses__())
from dialectic.tree.resolved import (  # noqa: E402
    AliasRef,
    Arg,
    Binding,
    Block,
    ConstRef,
    ContextRef,
    DomainCall,
    Given,
    Invoke,
    ParamRef,
)

# each field's own setter: the nodes are immutable (``__setattr__`` refuses), and calling
# the slot's descriptor is faster than ``object.__setattr__`` by name
_Lit_value = _setter(Lit, "value")
_Arr_items = _setter(Arr, "items")
_Obj_fields = _setter(Obj, "fields")
_Obj_explicit = _setter(Obj, "explicit")
_Get_target = _setter(Get, "target")
_Get_keys = _setter(Get, "keys")
_Get_optional = _setter(Get, "optional")
_Get_soft = _setter(Get, "soft")
_Template_parts = _setter(Template, "parts")
_Unwrap_value = _setter(Unwrap, "value")
_Op_op = _setter(Op, "op")
_Op_operands = _setter(Op, "operands")
_Cond_test = _setter(Cond, "test")
_Cond_then = _setter(Cond, "then")
_Cond_otherwise = _setter(Cond, "otherwise")
_Lambda_params = _setter(Lambda, "params")
_Lambda_body = _setter(Lambda, "body")
_Lambda_locals = _setter(Lambda, "locals")
_Method_target = _setter(Method, "target")
_Method_name = _setter(Method, "name")
_Method_args = _setter(Method, "args")
_Method_fallback = _setter(Method, "fallback")
_Method_optional = _setter(Method, "optional")
_Global_name = _setter(Global, "name")
_Global_args = _setter(Global, "args")
_Spread_value = _setter(Spread, "value")
_Merge_parts = _setter(Merge, "parts")
_While_init = _setter(While, "init")
_While_test = _setter(While, "test")
_While_step = _setter(While, "step")
_Try_body = _setter(Try, "body")
_Try_handler = _setter(Try, "handler")
_Throw_value = _setter(Throw, "value")
_Call_name = _setter(Call, "name")
_Call_kind = _setter(Call, "kind")
_Call_positional = _setter(Call, "positional")
_Call_single = _setter(Call, "single")
_Call_raw = _setter(Call, "raw")
_Call_read = _setter(Call, "read")
_Ref_name = _setter(Ref, "name")
_Let_bindings = _setter(Let, "bindings")
_Let_body = _setter(Let, "body")
_Let_mode = _setter(Let, "mode")
