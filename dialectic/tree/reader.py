"""The walk that reads a program's JSON into syntax nodes and checks its bounds as it goes
(:func:`dialectic.tree.parse.parse_tree` is its entry; SPEC.md section 1).

Every object or array is checked before its members are read: its depth (its path's length),
the nodes left (``_Walk.left``) and, for an object, its keys; every string its length and
Unicode, every number finiteness, every other value that it is JSON. A subtree kept as JSON
(``$quote`` data, ``$undefined``'s argument, a call's argument object whose reading ahead met a
form's error: :func:`_read_ahead`) is checked by :func:`_check`. Nodes are built through their
mutable twins (:func:`dialectic.tree.nodes.twin`).
The core forms' handlers are in :mod:`dialectic.tree.forms`, which fills ``_FORMS``.
"""

# ruff: noqa: RUF005  (path + (key,) makes one tuple; (*path, key) a list, then a tuple)
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.outcome.errors import DialecticError, JSONPath
from dialectic.tree.dispatch import twin
from dialectic.tree.measure import is_text
from dialectic.tree.nodes import (
    Arr,
    Call,
    Get,
    Let,
    Lit,
    Node,
    Obj,
    Op,
    Ref,
    Template,
)

FORMS = (
    "$ref",
    "$get",
    "$object",
    "$quote",
    "$template",
    "$undefined",
    "$unwrap",
    "$op",
    "$if",
    "$fn",
    "$method",
    "$global",
    "$spread",
    "$merge",
    "$get?",
    "$method?",
    "$let",
    "$return",
    "$use",
    "$do",
    "$while",
    "$try",
    "$throw",
    "$letrec",
    "$apply",
)

_INF = float("inf")

# the nodes' mutable twins: node = _LitT(); node.path = ...; node.__class__ = Lit (nodes.twin)
_LitT = twin(Lit)
_ArrT = twin(Arr)
_ObjT = twin(Obj)
_CallT = twin(Call)
_RefT = twin(Ref)
_GetT = twin(Get)
_TemplateT = twin(Template)
_OpT = twin(Op)
_LetT = twin(Let)


class _Walk:
    """One parse: the bounds it checks and how many more nodes the program may have.
    ``check``: whether the subtrees kept as JSON are checked (not when the resolver reads
    JSON that its tree's parse has checked)."""

    __slots__ = ("max_depth", "max_str", "left", "check")
    max_depth: float
    max_str: float
    left: float
    check: bool


def _walk(max_depth: float, max_str: float, left: float, check: bool) -> _Walk:
    walk = _Walk()
    walk.max_depth = max_depth
    walk.max_str = max_str
    walk.left = left
    walk.check = check
    return walk


#: reading JSON that was checked (no bound can be exceeded: ``left`` stays infinite)
_CHECKED = _walk(_INF, _INF, _INF, False)


class _Problem(Exception):
    """A value out of bounds (found without a path; :func:`locate` says where)."""


# -- the walk ------------------------------------------------------------------------------------
def _node(walk: _Walk, value: Any, path: JSONPath) -> Node:
    t = type(value)
    if t is dict:
        if len(path) >= walk.max_depth:
            raise _Problem
        n = len(value)
        left = walk.left = walk.left - n
        if left < 0:
            raise _Problem
        if n == 1:
            (key,) = value
            if type(key) is str:
                form = _form(key)
                if form is not None:  # (its name is ASCII)
                    return form(walk, value[key], path, path + (key,))
                if key.isascii() or is_text(key):
                    if not (key and key[0] == "$"):
                        return _call(walk, key, value[key], path)
                    return _block(walk, value, path)
            raise _Problem
        return _object(walk, value, path)
    if t is list:
        node: Arr = _ArrT()
        node.path = path
        node.items = _items(walk, value, path)
        node.__class__ = Arr
        return node
    return _lit(walk, value, path)


def _lit(walk: _Walk, value: Any, path: JSONPath) -> Node:
    """A scalar's literal (anything else here is not JSON)."""
    t = type(value)
    if t is str:
        if len(value) > walk.max_str or not (value.isascii() or is_text(value)):
            raise _Problem
    elif t is float:
        if value - value != 0.0:  # NaN or infinite
            raise _Problem
    elif not (t is int or t is bool or value is None):
        raise _Problem
    node: Lit = _LitT()
    node.path = path
    node.value = value
    node.__class__ = Lit
    return node


def _text(walk: _Walk, value: str) -> None:
    """Check a string the walk keeps as text (a name, a template's text)."""
    if len(value) > walk.max_str or not (value.isascii() or is_text(value)):
        raise _Problem


def _items(walk: _Walk, values: list[Any], path: JSONPath) -> tuple[Node, ...]:
    """The nodes of an array's items (the array at ``path``)."""
    if len(path) >= walk.max_depth:
        raise _Problem
    left = walk.left = walk.left - len(values)
    if left < 0:
        raise _Problem
    if len(values) == 1:  # f(x): made as the loop below makes it
        v = values[0]
        t = type(v)
        if t is dict or t is list:
            return (_node(walk, v, path + (0,)),)
        return (_lit(walk, v, path + (0,)),)
    out: list[Node] = []
    append = out.append
    max_str = walk.max_str
    for i, v in enumerate(values):
        t = type(v)
        if t is dict:
            if len(v) == 1 and "$ref" in v and type(next(iter(v))) is str:
                name = v["$ref"]  # a name (most often the target of $get)
                if type(name) is str and name and len(name) <= max_str and name.isascii():
                    if len(path) + 1 >= walk.max_depth:
                        raise _Problem
                    left = walk.left = walk.left - 1
                    if left < 0:
                        raise _Problem
                    ref: Ref = _RefT()  # (as _node and _form_ref make it)
                    ref.path = path + (i,)
                    ref.name = name
                    ref.__class__ = Ref
                    append(ref)
                    continue
            append(_node(walk, v, path + (i,)))
        elif t is list:
            append(_node(walk, v, path + (i,)))
        elif t is int or (t is str and len(v) <= max_str and (v.isascii() or is_text(v))):
            node: Lit = _LitT()  # (as _lit makes it: most often a key of $get)
            node.path = path + (i,)
            node.value = v
            node.__class__ = Lit
            append(node)
        else:
            append(_lit(walk, v, path + (i,)))
    return tuple(out)


def _enter(walk: _Walk, container: dict[Any, Any] | list[Any], depth: int) -> None:
    """Check an object or array (at ``depth``: its path's length) that the walk reads."""
    if depth >= walk.max_depth:
        raise _Problem
    left = walk.left = walk.left - len(container)
    if left < 0:
        raise _Problem
    if type(container) is dict:
        for k in container:
            if type(k) is not str or not (k.isascii() or is_text(k)):
                raise _Problem


def _keep(walk: _Walk, value: Any, path: JSONPath) -> None:
    """Check a subtree kept as JSON (the subtree itself is counted by its parent)."""
    if walk.check:
        t = type(value)
        if t is dict or t is list:
            _check(walk, value, len(path))
        else:
            _lit(walk, value, path)


def _check(walk: _Walk, container: dict[Any, Any] | list[Any], depth: int) -> None:
    """Check an object or array kept as JSON, and all it holds (its path has ``depth`` items;
    recursion is bounded: a container deeper than the limit stops the walk)."""
    _enter(walk, container, depth)
    values: Any = container.values() if type(container) is dict else container
    max_str = walk.max_str
    for v in values:
        t = type(v)
        if t is str:
            if len(v) > max_str or not (v.isascii() or is_text(v)):
                raise _Problem
        elif t is dict or t is list:
            _check(walk, v, depth + 1)
        elif t is float:
            if v - v != 0.0:
                raise _Problem
        elif not (t is int or t is bool or v is None):
            raise _Problem


def _object(walk: _Walk, value: dict[Any, Any], path: JSONPath) -> Node:
    """An object of two or more keys (or none): data, unless it is a block.

    One loop checks each key and reads its value; a ``$`` key makes the object a block, read
    from the start (what its fields cost is given back; a field's error, if the object is a
    block, gives way to the block's)."""
    left = walk.left
    fields: dict[str, Node] = {}
    max_str = walk.max_str
    try:
        for k, v in value.items():
            if type(k) is not str or not (k.isascii() or is_text(k)):
                raise _Problem
            if k and k[0] == "$":
                break
            t = type(v)
            if t is dict:
                if len(v) == 1 and "$ref" in v and type(next(iter(v))) is str:
                    fields[k] = _ref(walk, v, path + (k,))
                else:
                    fields[k] = _node(walk, v, path + (k,))
            elif t is list:
                fields[k] = _node(walk, v, path + (k,))
            elif t is int or (t is str and len(v) <= max_str and (v.isascii() or is_text(v))):
                lit: Lit = _LitT()  # (as _lit makes it)
                lit.path = path + (k,)
                lit.value = v
                lit.__class__ = Lit
                fields[k] = lit
            else:
                fields[k] = _lit(walk, v, path + (k,))
        else:
            node: Obj = _ObjT()
            node.path = path
            node.fields = fields
            node.explicit = False
            node.__class__ = Obj
            return node
    except DialecticError:
        if not any(type(k) is str and k[:1] == "$" for k in value):
            raise
    walk.left = left
    return _block(walk, value, path)


def _ref(walk: _Walk, value: dict[str, Any], path: JSONPath) -> Node:
    """``{"$ref": name}`` (a field's value), made as ``_node`` makes it."""
    name = value["$ref"]
    if not (type(name) is str and name and len(name) <= walk.max_str and name.isascii()):
        return _node(walk, value, path)  # (the general way: its error, or non-ASCII text)
    if len(path) >= walk.max_depth:
        raise _Problem
    left = walk.left = walk.left - 1
    if left < 0:
        raise _Problem
    ref: Ref = _RefT()
    ref.path = path
    ref.name = name
    ref.__class__ = Ref
    return ref


def _call(walk: _Walk, name: str, arg: Any, path: JSONPath) -> Call:
    p = path + (name,)
    node: Call = _CallT()
    node.path = path
    node.name = name
    node.raw = arg
    t = type(arg)
    node.read = None
    if t is list:
        node.kind = "array"
        node.positional = _items(walk, arg, p)
        node.single = None
    elif t is dict:
        node.positional = ()
        for k in arg:
            if k and k[0] == "$":
                node.kind = "single"
                node.single = _node(walk, arg, p)
                break
        else:
            # named arguments, or (one key) a nested call: the resolver decides for its callee
            node.kind = "object"
            node.single = None
            node.read = _read_ahead(walk, arg, p)
    else:
        node.kind = "single"
        node.positional = ()
        if t is int:  # (as _lit makes it)
            lit: Lit = _LitT()
            lit.path = p
            lit.value = arg
            lit.__class__ = Lit
            node.single = lit
        else:
            node.single = _lit(walk, arg, p)
    node.__class__ = Call
    return node


def _read_ahead(walk: _Walk, arg: dict[str, Any], p: JSONPath) -> Call | dict[str, Node] | None:
    """A call's argument object (at ``p``; no key starts with ``$``) read as the resolver may
    read it, checked as it is read (as ``_keep`` checks it): one key as the nested call, more
    as named arguments (``Call.read``). A form's error met on the way is the resolver's to
    report, if it reads the object so (it reads ``raw`` again and meets it): None, the object
    checked as JSON kept."""
    left = walk.left
    try:
        _enter(walk, arg, len(p))
        if len(arg) == 1:
            ((key, value),) = arg.items()
            return _call(walk, key, value, p)
        return {k: _node(walk, v, p + (k,)) for k, v in arg.items()}
    except DialecticError:
        walk.left = left
        _keep(walk, arg, p)
        return None


def _bad(path: JSONPath, message: str, hint: str | None = None) -> DialecticError:
    return DialecticError("invalid_program", message, path, hint=hint)


# -- blocks and errors ---------------------------------------------------------------------------
def _block(walk: _Walk, value: dict[str, Any], path: JSONPath) -> Node:
    """An object with a ``$`` key that is not a one-key core form (its keys are checked)."""
    keys = set(value)
    if "$let" in keys or ("$return" in keys) or ("$use" in keys) or ("$do" in keys):
        return _parse_let(walk, value, path)
    if len(value) != 1:
        forms = sorted(k for k in keys if k.startswith("$"))
        raise _bad(
            path,
            f"the core form {forms[0]} cannot be combined with other keys ({sorted(keys)})",
            'Wrap data objects with "$object" or "$quote".',
        )
    ((key, _arg),) = value.items()
    raise _bad(
        path,
        f"unknown core form {key!r}",
        "Keys starting with $ are reserved; the forms are "
        + ", ".join(FORMS)
        + '. To use such a key as data, write {"$object": {...}} or {"$quote": ...}.',
    )


def _parse_let(walk: _Walk, value: dict[str, Any], path: JSONPath) -> Node:
    keys = set(value)
    ends = keys & {"$return", "$use"}
    extra = keys - {"$let", "$return", "$use", "$do"}
    if extra:
        raise _bad(path, f"a $let block has unknown keys {sorted(extra)}")
    if len(ends) != 1:
        raise _bad(
            path,
            "a block needs exactly one of $return or $use",
            'Write {"$let": {"a": ...}, "$return": expr}.',
        )
    end = ends.pop()
    raw_bindings = value.get("$let", {})
    if type(raw_bindings) is not dict:
        raise _bad((*path, "$let"), "$let takes an object of alias -> expression")
    if "$let" in value:
        _enter(walk, raw_bindings, len(path) + 1)
    bindings: dict[str, Node] = {}
    for name, expr in raw_bindings.items():
        if not name or name.startswith("$"):
            raise _bad((*path, "$let", name), f"invalid alias name {name!r}")
        bindings[name] = _node(walk, expr, (*path, "$let", name))
    if "$do" in value:
        _parse_do(walk, value["$do"], (*path, "$do"), bindings)
    body = _node(walk, value[end], (*path, end))
    return Let(path, bindings, body, end[1:])


def _parse_do(walk: _Walk, items: Any, p: JSONPath, bindings: dict[str, Node]) -> None:
    """``$do``: the block's statements in program order (SPEC 1.2, 17), after its ``$let``
    aliases: an expression statement (it runs; its value is dropped) or ``{"$let": {...}}``,
    aliases defined at that place. An expression statement is kept as a binding named
    ``$<index>`` (no alias can be named so)."""
    if type(items) is not list:
        raise _bad(p, "$do takes an array of statements", 'Write {"$do": [{"f": {...}}, ...]}.')
    _enter(walk, items, len(p))
    for i, item in enumerate(items):
        if type(item) is dict and set(item) == {"$let"}:
            _enter(walk, item, len(p) + 1)
            group = item["$let"]
            if type(group) is not dict:
                raise _bad((*p, i, "$let"), "$let takes an object of alias -> expression")
            _enter(walk, group, len(p) + 2)
            for name, expr in group.items():
                if not name or name.startswith("$"):
                    raise _bad((*p, i, "$let", name), f"invalid alias name {name!r}")
                if name in bindings:
                    raise _bad((*p, i, "$let", name), f"the alias {name!r} is defined twice")
                bindings[name] = _node(walk, expr, (*p, i, "$let", name))
            continue
        bindings[f"${i}"] = _node(walk, item, (*p, i))


#: the core forms' handlers: (walk, argument, the form's path, the argument's path) -> node
#: (filled by dialectic.tree.forms)
_FORMS: dict[str, Callable[[_Walk, Any, JSONPath, JSONPath], Node]] = {}
_form = _FORMS.get

# the handlers (they read their parts through this module's walk)
import dialectic.tree.forms  # noqa: E402
import dialectic.tree.recursion  # noqa: E402, F401
