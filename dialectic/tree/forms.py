"""The core forms' handlers (SPEC.md section 1): each checks its argument's shape, then reads
its parts through the walk of :mod:`dialectic.tree.reader` (which dispatches to them)."""

# ruff: noqa: RUF005  (path + (key,) makes one tuple; (*path, key) a list, then a tuple)
from __future__ import annotations

from typing import Any

from dialectic.outcome.errors import JSONPath, clip
from dialectic.tree.measure import is_text
from dialectic.tree.nodes import (
    Cond,
    Get,
    Global,
    Lambda,
    Let,
    Lit,
    Merge,
    Method,
    Node,
    Obj,
    Op,
    Ref,
    Spread,
    Template,
    Throw,
    Try,
    Undefined,
    Unwrap,
    While,
)
from dialectic.tree.reader import (
    _FORMS,
    _bad,
    _enter,
    _GetT,
    _items,
    _keep,
    _LetT,
    _LitT,
    _node,
    _OpT,
    _Problem,
    _RefT,
    _TemplateT,
    _text,
    _Walk,
)
from dialectic.values.jsops import BINARY, LOGICAL, UNARY

UNARY_OPS = frozenset(UNARY)
BINARY_OPS = frozenset(["+", *BINARY, *LOGICAL])


# -- the core forms: (walk, argument, the form's path, the argument's path) -> node ---------------
def _form_ref(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if type(arg) is not str:
        raise _bad(p, f"$ref must be a string, got {type(arg).__name__}")
    if not arg:
        raise _bad(p, "$ref needs a non-empty name")
    if len(arg) > walk.max_str or not (arg.isascii() or is_text(arg)):
        raise _Problem
    node: Ref = _RefT()
    node.path = path
    node.name = arg
    node.__class__ = Ref
    return node


def _form_get(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if type(arg) is not list or len(arg) < 2:
        raise _bad(p, "$get takes an array [target, key, ...] with at least one key")
    target = arg[0]
    if type(target) is dict and len(target) == 1 and len(p) + 1 < walk.max_depth:
        made = _get_of_name(walk, arg, target, path, p)  # `user.profile.name`
        if made is not None:
            return made
    nodes = _items(walk, arg, p)
    node: Get = _GetT()
    node.path = path
    node.target = nodes[0]
    node.keys = nodes[1:]
    node.optional = False
    node.soft = 0
    node.__class__ = Get
    return node


def _get_of_name(
    walk: _Walk, arg: list[Any], target: dict[Any, Any], path: JSONPath, p: JSONPath
) -> Node | None:
    """``{"$get": [{"$ref": name}, "k", 0, ...]}`` (a name, text and integer keys, all within
    bounds), made as ``_items`` then ``_form_get`` make it; None for any other shape or at a
    limit (the general way decides, and raises where it would)."""
    name = target.get("$ref")
    max_str = walk.max_str
    if not (
        type(name) is str
        and name
        and len(name) <= max_str
        and name.isascii()
        and type(next(iter(target))) is str
    ):
        return None
    keys: list[Node] = []
    append = keys.append
    i = 0
    for k in arg:
        if i:
            t = type(k)
            if not (t is int or (t is str and len(k) <= max_str and k.isascii())):
                return None
            lit: Lit = _LitT()
            lit.path = p + (i,)
            lit.value = k
            lit.__class__ = Lit
            append(lit)
        i += 1
    # the array, then its target object (checked as the general walk checks them: at the
    # limits, the general way raises where it would)
    left = walk.left - i - 1
    if left < 0:
        return None
    walk.left = left
    ref: Ref = _RefT()
    ref.path = p + (0,)
    ref.name = name
    ref.__class__ = Ref
    node: Get = _GetT()
    node.path = path
    node.target = ref
    node.keys = tuple(keys)
    node.optional = False
    node.soft = 0
    node.__class__ = Get
    return node


def _form_get_optional(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if type(arg) is not list or len(arg) < 2:
        raise _bad(p, "$get? takes an array [target, key, ...] with at least one key")
    nodes = _items(walk, arg, p)
    return Get(path, nodes[0], nodes[1:], True)


def _form_object(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if type(arg) is not dict:
        raise _bad(p, "$object takes an object of fields")
    _enter(walk, arg, len(p))
    return Obj(path, {k: _node(walk, v, p + (k,)) for k, v in arg.items()}, True)


def _form_quote(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    _keep(walk, arg, p)
    return Lit(path, arg)


def _form_template(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if type(arg) is not list:
        raise _bad(p, "$template takes an array of text and expressions")
    _enter(walk, arg, len(p))
    parts: list[str | Node] = []
    append = parts.append
    for i, v in enumerate(arg):
        if type(v) is str:
            if len(v) > walk.max_str or not (v.isascii() or is_text(v)):
                raise _Problem
            append(v)
        else:
            append(_node(walk, v, p + (i,)))
    node: Template = _TemplateT()
    node.path = path
    node.parts = tuple(parts)
    node.__class__ = Template
    return node


def _form_undefined(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    _keep(walk, arg, p)
    return Undefined(path)


def _form_unwrap(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    return Unwrap(path, _node(walk, arg, p))


def _form_op(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if type(arg) is not list or not arg or type(arg[0]) is not str:
        raise _bad(
            p, '$op takes an array ["operator", operand, ...]', 'Write {"$op": ["+", 1, 2]}.'
        )
    _enter(walk, arg, len(p))
    op = arg[0]
    _text(walk, op)
    n = len(arg) - 1
    if (n == 2 and op in BINARY_OPS) or (n == 1 and op in UNARY_OPS):
        node: Op = _OpT()
        node.path = path
        node.op = op
        node.operands = (
            (_node(walk, arg[1], p + (1,)), _node(walk, arg[2], p + (2,)))
            if n == 2
            else (_node(walk, arg[1], p + (1,)),)
        )
        node.__class__ = Op
        return node
    if op in UNARY_OPS or op in BINARY_OPS:
        arity = "one operand" if op in UNARY_OPS and op not in BINARY_OPS else "two operands"
        if op in UNARY_OPS and op in BINARY_OPS:
            arity = "one or two operands"
        raise _bad(p, f"the operator {clip(op)!r} takes {arity}, {n} given")
    raise _bad(
        (*p, 0),
        f"unknown operator {clip(op)!r}",
        "The operators are " + " ".join(sorted(UNARY_OPS | BINARY_OPS)) + ".",
    )


def _form_if(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if type(arg) is not list or len(arg) != 3:
        raise _bad(p, "$if takes an array [test, then, otherwise]")
    _enter(walk, arg, len(p))
    test = _node(walk, arg[0], p + (0,))
    then = _node(walk, arg[1], p + (1,))
    return Cond(path, test, then, _node(walk, arg[2], p + (2,)))


def _form_fn(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if (
        type(arg) is not list
        or len(arg) != 2
        or type(arg[0]) is not list
        or not all(type(n) is str and n for n in arg[0])
    ):
        raise _bad(p, '$fn takes [["param", ...], body]', 'Write {"$fn": [["x"], expr]}.')
    params = tuple(arg[0])
    if len(set(params)) != len(params):
        raise _bad((*p, 0), "an arrow function's parameters must have different names")
    for name in params:
        if name.startswith(("$", "__")):
            raise _bad((*p, 0), f"invalid parameter name {clip(name)!r}")
    _enter(walk, arg, len(p))
    _enter(walk, arg[0], len(p) + 1)
    for name in params:
        _text(walk, name)
    return Lambda(path, params, _node(walk, arg[1], p + (1,)))


def _form_method(
    walk: _Walk, arg: Any, path: JSONPath, p: JSONPath, optional: bool = False
) -> Node:
    if type(arg) is not list or len(arg) < 2 or type(arg[1]) is not str:
        form = "$method?" if optional else "$method"
        raise _bad(p, f'{form} takes [target, "name", argument, ...]')
    _enter(walk, arg, len(p))
    _text(walk, arg[1])
    target = _node(walk, arg[0], p + (0,))
    args = tuple([_node(walk, arg[i], p + (i,)) for i in range(2, len(arg))])
    return Method(path, target, arg[1], args, optional=optional)


def _form_method_optional(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    return _form_method(walk, arg, path, p, optional=True)


def _form_global(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if type(arg) is not list or not arg or type(arg[0]) is not str:
        raise _bad(p, '$global takes ["Math.max", argument, ...]')
    _enter(walk, arg, len(p))
    _text(walk, arg[0])
    args = tuple([_node(walk, arg[i], p + (i,)) for i in range(1, len(arg))])
    return Global(path, arg[0], args)


def _form_while(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if type(arg) is not list or len(arg) != 3:
        raise _bad(
            p,
            '$while takes [state, {"$fn": [["s"], test]}, {"$fn": [["s"], step]}]',
            'Write {"$while": [{"n": 0}, {"$fn": [["s"], test]}, {"$fn": [["s"], step]}]}.',
        )
    _enter(walk, arg, len(p))
    init = _node(walk, arg[0], p + (0,))
    fns: list[Node] = []
    for i in (1, 2):
        fn = _node(walk, arg[i], p + (i,))
        if type(fn) is not Lambda or len(fn.params) != 1:
            raise _bad(
                p + (i,),
                "the test and the step of $while are arrow functions of one parameter",
                'Write {"$fn": [["s"], ...]}.',
            )
        fns.append(fn)
    return While(path, init, fns[0], fns[1])


def _form_try(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if type(arg) is not list or len(arg) != 2:
        raise _bad(
            p,
            '$try takes [body, {"$fn": [["e"], handler]}]',
            'Write {"$try": [{"f": {...}}, {"$fn": [["e"], {"$get": [{"$ref": "e"}, "message"]}]}]}'
            ".",
        )
    _enter(walk, arg, len(p))
    body = _node(walk, arg[0], p + (0,))
    handler = _node(walk, arg[1], p + (1,))
    if type(handler) is not Lambda or len(handler.params) > 1:
        raise _bad(
            p + (1,),
            "the handler of $try is an arrow function of one parameter (the error) or none",
            'Write {"$fn": [["e"], ...]}.',
        )
    return Try(path, body, handler)


def _form_throw(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    return Throw(path, _node(walk, arg, p))


def _form_spread(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    return Spread(path, _node(walk, arg, p))


def _form_merge(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if type(arg) is not list:
        raise _bad(p, "$merge takes an array of objects")
    return Merge(path, _items(walk, arg, p))


def _form_return(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    """A block of no aliases: ``{"$return": expr}`` (what a Plan program's tree is)."""
    node: Let = _LetT()
    node.path = path
    node.bindings = {}
    node.body = _node(walk, arg, p)
    node.mode = "return"
    node.__class__ = Let
    return node


def _form_use(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    return Let(path, {}, _node(walk, arg, p), "use")


_FORMS.update(
    {
        "$ref": _form_ref,
        "$get": _form_get,
        "$object": _form_object,
        "$quote": _form_quote,
        "$template": _form_template,
        "$undefined": _form_undefined,
        "$unwrap": _form_unwrap,
        "$op": _form_op,
        "$if": _form_if,
        "$get?": _form_get_optional,
        "$fn": _form_fn,
        "$method": _form_method,
        "$method?": _form_method_optional,
        "$global": _form_global,
        "$spread": _form_spread,
        "$while": _form_while,
        "$try": _form_try,
        "$throw": _form_throw,
        "$merge": _form_merge,
        "$return": _form_return,
        "$use": _form_use,
    }
)
