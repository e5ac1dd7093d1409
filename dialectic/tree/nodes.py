"""The call tree's typed nodes (SPEC.md section 1).

Nodes are frozen and slotted; each class lists its child-bearing ``child_fields`` so that one
generic :func:`children` / :func:`walk` serves every pass, and a :class:`Visitor` dispatches on
the class through a table built once per visitor class (jinja2's ``nodes.py`` is the model).

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

from collections.abc import Callable, Iterator
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
    "Undefined",
    "Unwrap",
    "Visitor",
    "children",
    "dispatch_table",
    "walk",
]


class Node:
    """A node; ``path`` is its JSON path from the program's root. Immutable once built."""

    __slots__ = ("path",)
    #: the attributes that hold child nodes (a node, a tuple of nodes, a dict of nodes, or a
    #: tuple of pairs whose second item is a node), in evaluation order
    child_fields: ClassVar[tuple[str, ...]] = ()

    path: JSONPath

    def __init__(self, path: JSONPath) -> None:
        _set(self, "path", path)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} nodes are immutable")

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={getattr(self, k)!r}" for k in _slots(type(self)) if k != "path")
        return f"{type(self).__name__}({inner})"


_set = object.__setattr__


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
        _set(self, "path", path)
        _set(self, "value", value)


class Arr(Node):
    __slots__ = ("items",)
    child_fields = ("items",)
    items: tuple[Node, ...]

    def __init__(self, path: JSONPath, items: tuple[Node, ...]) -> None:
        _set(self, "path", path)
        _set(self, "items", items)


class Obj(Node):
    """An object constructor: a plain multi-key object, or ``$object`` (``explicit``)."""

    __slots__ = ("fields", "explicit")
    child_fields = ("fields",)
    fields: dict[str, Node]
    explicit: bool

    def __init__(self, path: JSONPath, fields: dict[str, Node], explicit: bool) -> None:
        _set(self, "path", path)
        _set(self, "fields", fields)
        _set(self, "explicit", explicit)


class Get(Node):
    """Member access ``target[key]...`` (``$get``); ``optional``: ``target?.[key]...``
    (``$get?``): undefined when the target is null or undefined."""

    __slots__ = ("target", "keys", "optional")
    child_fields = ("target", "keys")
    target: Node
    keys: tuple[Node, ...]
    optional: bool

    def __init__(
        self, path: JSONPath, target: Node, keys: tuple[Node, ...], optional: bool = False
    ) -> None:
        _set(self, "path", path)
        _set(self, "target", target)
        _set(self, "keys", keys)
        _set(self, "optional", optional)


class Template(Node):
    __slots__ = ("parts",)
    child_fields = ("parts",)
    parts: tuple[str | Node, ...]

    def __init__(self, path: JSONPath, parts: tuple[str | Node, ...]) -> None:
        _set(self, "path", path)
        _set(self, "parts", parts)


class Undefined(Node):
    __slots__ = ()


class Unwrap(Node):
    __slots__ = ("value",)
    child_fields = ("value",)
    value: Node

    def __init__(self, path: JSONPath, value: Node) -> None:
        _set(self, "path", path)
        _set(self, "value", value)


class Op(Node):
    """A JavaScript operator applied to its operands (``$op``): unary (one operand), binary, or
    short-circuit (``&&``, ``||``, ``??``: the right operand runs only if needed)."""

    __slots__ = ("op", "operands")
    child_fields = ("operands",)
    op: str
    operands: tuple[Node, ...]

    def __init__(self, path: JSONPath, op: str, operands: tuple[Node, ...]) -> None:
        _set(self, "path", path)
        _set(self, "op", op)
        _set(self, "operands", operands)


class Cond(Node):
    """``test ? then : otherwise`` (``$if``): only the branch taken runs."""

    __slots__ = ("test", "then", "otherwise")
    child_fields = ("test", "then", "otherwise")
    test: Node
    then: Node
    otherwise: Node

    def __init__(self, path: JSONPath, test: Node, then: Node, otherwise: Node) -> None:
        _set(self, "path", path)
        _set(self, "test", test)
        _set(self, "then", then)
        _set(self, "otherwise", otherwise)


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
        _set(self, "path", path)
        _set(self, "params", params)
        _set(self, "body", body)
        _set(self, "locals", locals)


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
        _set(self, "path", path)
        _set(self, "target", target)
        _set(self, "name", name)
        _set(self, "args", args)
        _set(self, "fallback", fallback)
        _set(self, "optional", optional)


class Global(Node):
    """A JavaScript global function: ``Math.max(...)``, ``Object.keys(x)``, ``Number(x)``
    (``$global``)."""

    __slots__ = ("name", "args")
    child_fields = ("args",)
    name: str
    args: tuple[Node, ...]

    def __init__(self, path: JSONPath, name: str, args: tuple[Node, ...]) -> None:
        _set(self, "path", path)
        _set(self, "name", name)
        _set(self, "args", args)


class Spread(Node):
    """``...value`` as an array element or an argument (``$spread``)."""

    __slots__ = ("value",)
    child_fields = ("value",)
    value: Node

    def __init__(self, path: JSONPath, value: Node) -> None:
        _set(self, "path", path)
        _set(self, "value", value)


class Merge(Node):
    """``{...a, ...b}``: the objects' members, later ones winning (``$merge``)."""

    __slots__ = ("parts",)
    child_fields = ("parts",)
    parts: tuple[Node, ...]

    def __init__(self, path: JSONPath, parts: tuple[Node, ...]) -> None:
        _set(self, "path", path)
        _set(self, "parts", parts)


# -- syntax only ---------------------------------------------------------------------------------
class Call(Node):
    """``{"name": ARGS}`` as written. ``kind`` is "array", "object" or "single" (SPEC 1.5).

    Whether an argument object is named arguments or a nested call depends on the callee, so a
    call keeps its argument JSON (``raw``) and the resolver reads it (``tree.parse.call_named``,
    ``call_as_nested``). ``positional`` and ``single`` are parsed eagerly.
    """

    __slots__ = ("name", "kind", "positional", "single", "raw")
    child_fields = ("positional", "single")
    name: str
    kind: str
    positional: tuple[Node, ...]
    single: Node | None
    raw: Any

    def __init__(
        self,
        path: JSONPath,
        name: str,
        kind: str,
        *,
        positional: tuple[Node, ...] = (),
        single: Node | None = None,
        raw: Any = None,
    ) -> None:
        _set(self, "path", path)
        _set(self, "name", name)
        _set(self, "kind", kind)
        _set(self, "positional", positional)
        _set(self, "single", single)
        _set(self, "raw", raw)


class Ref(Node):
    """A name as written (``$ref``); the resolver decides what it names."""

    __slots__ = ("name",)
    name: str

    def __init__(self, path: JSONPath, name: str) -> None:
        _set(self, "path", path)
        _set(self, "name", name)


class Let(Node):
    """``$let`` bindings and a body; ``mode`` is "return" or "use"."""

    __slots__ = ("bindings", "body", "mode")
    child_fields = ("bindings", "body")
    bindings: dict[str, Node]
    body: Node
    mode: str

    def __init__(self, path: JSONPath, bindings: dict[str, Node], body: Node, mode: str) -> None:
        _set(self, "path", path)
        _set(self, "bindings", bindings)
        _set(self, "body", body)
        _set(self, "mode", mode)


# -- walking -------------------------------------------------------------------------------------
def children(node: Node) -> Iterator[Node]:
    """The node's direct children, in evaluation order."""
    for name in node.child_fields:
        value = getattr(node, name)
        if value is None:
            continue
        if isinstance(value, Node):
            yield value
        elif isinstance(value, dict):
            yield from value.values()
        else:
            for item in value:
                if isinstance(item, Node):
                    yield item
                elif isinstance(item, Arg | Binding):
                    yield item.node
                elif isinstance(item, tuple):
                    yield item[1]


def walk(node: Node) -> Iterator[Node]:
    """Every node of the subtree, parents before children (iterative: any depth)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        kids = list(children(n))
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


def _all_node_classes() -> list[type[Node]]:
    out: list[type[Node]] = []
    todo: list[type[Node]] = [Node]
    while todo:
        cls = todo.pop()
        out.append(cls)
        todo.extend(cls.__subclasses__())
    return out


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
