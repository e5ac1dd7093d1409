"""JSON -> syntax nodes (SPEC.md section 1).

``parse_tree`` checks size and depth iteratively first (so a 100,000-deep program is a clean
``limit_exceeded`` failure, never a RecursionError), then turns the JSON into typed nodes that
carry their JSON path. Whether an object in argument position is named arguments or a nested call
depends on the callee's parameters: :class:`Call` keeps its argument JSON and the resolver reads
it with :func:`call_named` or :func:`call_as_nested`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError, JSONPath, LimitExceeded, clip
from dialectic.tree.nodes import (
    Arr,
    Call,
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
    Undefined,
    Unwrap,
)
from dialectic.values.jsops import BINARY, LOGICAL, UNARY

UNARY_OPS = frozenset(UNARY)
BINARY_OPS = frozenset(["+", *BINARY, *LOGICAL])

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
)


def measure(tree: Any, limits: Limits) -> int:
    """Count nodes and check depth, strings and numbers without recursion; returns the count.

    A first pass, level by level, only looks; if it finds anything wrong, :func:`_locate`
    walks again, keeping JSON paths, to raise the error where it is."""
    max_depth = limits.max_depth
    max_nodes = limits.max_nodes
    max_str = limits.max_string_length
    count = 0
    depth = 1
    level: list[Any] = [tree]
    while level:
        count += len(level)
        if count > max_nodes:
            return _locate(tree, limits)
        deep = depth > max_depth
        below: list[Any] = []
        extend = below.extend
        for value in level:
            t = type(value)
            if t is str:
                if len(value) > max_str or not (value.isascii() or _is_text(value)):
                    return _locate(tree, limits)
            elif t is dict:
                if deep:
                    return _locate(tree, limits)
                for k in value:
                    if type(k) is not str or not (k.isascii() or _is_text(k)):
                        return _locate(tree, limits)
                extend(value.values())
            elif t is list:
                if deep:
                    return _locate(tree, limits)
                extend(value)
            elif t is float:
                if value != value or value in (_INF, _NEG_INF):
                    return _locate(tree, limits)
            elif not (value is None or t is bool or t is int):
                return _locate(tree, limits)
        level = below
        depth += 1
    return count


_INF = float("inf")
_NEG_INF = float("-inf")


def _is_text(text: str) -> bool:
    """Whether ``text`` is valid Unicode (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _locate(tree: Any, limits: Limits) -> int:
    """:func:`measure` with JSON paths: raises the first problem where it is."""
    max_depth = limits.max_depth
    max_nodes = limits.max_nodes
    max_str = limits.max_string_length
    count = 0
    stack: list[tuple[Any, int, JSONPath]] = [(tree, 1, ())]
    while stack:
        value, depth, path = stack.pop()
        count += 1
        if count > max_nodes:
            raise LimitExceeded("max_nodes", f"the program has more than {max_nodes} nodes", path)
        t = type(value)
        if t is dict or t is list:
            if depth > max_depth:
                raise LimitExceeded(
                    "max_depth", f"the program is nested more than {max_depth} levels deep", path
                )
            if t is dict:
                for k, v in value.items():
                    if type(k) is not str:
                        raise DialecticError(
                            "invalid_program", f"object keys must be strings, got {clip(k)}", path
                        )
                    if not k.isascii():
                        _check_unicode(k, path)
                    stack.append((v, depth + 1, (*path, k)))
            else:
                stack.extend((v, depth + 1, (*path, i)) for i, v in enumerate(value))
        elif t is str:
            if len(value) > max_str:
                raise LimitExceeded(
                    "max_string_length",
                    f"a string in the program is longer than {max_str} characters",
                    path,
                )
            if not value.isascii():
                _check_unicode(value, path)
        elif t is float:
            if value != value or value in (float("inf"), float("-inf")):
                raise DialecticError(
                    "invalid_program", "numbers must be finite (JSON has no NaN or Infinity)", path
                )
        elif value is None or t is bool or t is int:
            pass
        else:
            raise DialecticError(
                "invalid_program",
                f"a program is JSON; found a value of Python type {type(value).__name__}",
                path,
            )
    return count


def _check_unicode(text: str, path: JSONPath) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise DialecticError(
            "invalid_program",
            "a string in the program contains a lone surrogate (not valid Unicode text)",
            path,
            hint="Send valid UTF-8 text.",
        ) from None


def _bad(path: JSONPath, message: str, hint: str | None = None) -> DialecticError:
    return DialecticError("invalid_program", message, path, hint=hint)


def _expect_str(value: Any, path: JSONPath, what: str) -> str:
    if not isinstance(value, str):
        raise _bad(path, f"{what} must be a string, got {type(value).__name__}")
    return value


def parse_node(value: Any, path: JSONPath = ()) -> Node:
    """Turn (already measured: containers are exactly dicts and lists) JSON into a typed node."""
    t = type(value)
    if t is dict:
        if len(value) == 1:
            for key, arg in value.items():
                if key.startswith("$"):
                    return _parse_form(value, path)
                return _parse_call(key, arg, path)
        for k in value:
            if k.startswith("$"):
                return _parse_form(value, path)
        fields: dict[str, Node] = {}
        for k, v in value.items():
            t = type(v)
            fields[k] = parse_node(v, (*path, k)) if t is dict or t is list else Lit((*path, k), v)
        return Obj(path, fields, False)
    if t is list:
        return Arr(path, _parse_items(value, path))
    return Lit(path, value)


def _parse_items(values: list[Any], path: JSONPath) -> tuple[Node, ...]:
    """The nodes of an array's items (a scalar item is a literal: made here, not by a call)."""
    out: list[Node] = []
    append = out.append
    for i, v in enumerate(values):
        t = type(v)
        if t is dict:
            if len(v) == 1:  # most often a call: read here, as parse_node would
                for key, arg in v.items():
                    if not key.startswith("$"):
                        append(_parse_call(key, arg, (*path, i)))
                        break
                    append(_parse_form(v, (*path, i)))
                continue
            append(parse_node(v, (*path, i)))
        elif t is list:
            append(parse_node(v, (*path, i)))
        else:
            append(Lit((*path, i), v))
    return tuple(out)


def _parse_call(name: str, arg: Any, path: JSONPath) -> Call:
    p = (*path, name)
    t = type(arg)
    if t is list:
        return Call(path, name, "array", _parse_items(arg, p), None, arg)
    if t is dict and not any(k.startswith("$") for k in arg):
        # named arguments, or (one key) a nested call: the resolver reads it for its callee
        return Call(path, name, "object", (), None, arg)
    single = Lit(p, arg) if t is not dict else parse_node(arg, p)
    return Call(path, name, "single", (), single, arg)


def _parse_form(value: dict[str, Any], path: JSONPath) -> Node:
    if len(value) == 1:  # the common case: one core form (no block form is in _FORMS)
        for key, arg in value.items():
            handler = _FORMS.get(key)
            if handler is not None:
                return handler(arg, path, (*path, key))
    keys = set(value)
    if "$let" in keys or ("$return" in keys) or ("$use" in keys) or ("$do" in keys):
        return _parse_let(value, path)
    if len(value) != 1:
        forms = sorted(k for k in keys if k.startswith("$"))
        raise _bad(
            path,
            f"the core form {forms[0]} cannot be combined with other keys ({sorted(keys)})",
            'Wrap data objects with "$object" or "$quote".',
        )
    ((key, arg),) = value.items()
    handler = _FORMS.get(key)
    if handler is None:
        raise _bad(
            path,
            f"unknown core form {key!r}",
            "Keys starting with $ are reserved; the forms are "
            + ", ".join(FORMS)
            + '. To use such a key as data, write {"$object": {...}} or {"$quote": ...}.',
        )
    return handler(arg, path, (*path, key))


def _form_ref(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    name = _expect_str(arg, p, "$ref")
    if not name:
        raise _bad(p, "$ref needs a non-empty name")
    return Ref(path, name)


def _form_get(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if not isinstance(arg, list) or len(arg) < 2:
        raise _bad(p, "$get takes an array [target, key, ...] with at least one key")
    nodes = _parse_items(arg, p)
    return Get(path, nodes[0], nodes[1:])


def _form_object(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if not isinstance(arg, dict):
        raise _bad(p, "$object takes an object of fields")
    return Obj(path, {k: parse_node(v, (*p, k)) for k, v in arg.items()}, True)


def _form_quote(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    return Lit(path, arg)


def _form_template(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if not isinstance(arg, list):
        raise _bad(p, "$template takes an array of text and expressions")
    parts: list[str | Node] = []
    for i, v in enumerate(arg):
        parts.append(v if isinstance(v, str) else parse_node(v, (*p, i)))
    return Template(path, tuple(parts))


def _form_undefined(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    return Undefined(path)


def _form_unwrap(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    return Unwrap(path, parse_node(arg, p))


def _form_op(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if not isinstance(arg, list) or not arg or not isinstance(arg[0], str):
        raise _bad(
            p, '$op takes an array ["operator", operand, ...]', 'Write {"$op": ["+", 1, 2]}.'
        )
    op = arg[0]
    n = len(arg) - 1
    if (op in UNARY_OPS and n == 1) or (op in BINARY_OPS and n == 2):
        operands = tuple(parse_node(v, (*p, i + 1)) for i, v in enumerate(arg[1:]))
        return Op(path, op, operands)
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


def _form_if(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if not isinstance(arg, list) or len(arg) != 3:
        raise _bad(p, "$if takes an array [test, then, otherwise]")
    test, then, otherwise = (parse_node(v, (*p, i)) for i, v in enumerate(arg))
    return Cond(path, test, then, otherwise)


def _form_get_optional(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if not isinstance(arg, list) or len(arg) < 2:
        raise _bad(p, "$get? takes an array [target, key, ...] with at least one key")
    nodes = [parse_node(v, (*p, i)) for i, v in enumerate(arg)]
    return Get(path, nodes[0], tuple(nodes[1:]), True)


def _form_fn(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if (
        not isinstance(arg, list)
        or len(arg) != 2
        or not isinstance(arg[0], list)
        or not all(isinstance(n, str) and n for n in arg[0])
    ):
        raise _bad(p, '$fn takes [["param", ...], body]', 'Write {"$fn": [["x"], expr]}.')
    params = tuple(arg[0])
    if len(set(params)) != len(params):
        raise _bad((*p, 0), "an arrow function's parameters must have different names")
    for name in params:
        if name.startswith(("$", "__")):
            raise _bad((*p, 0), f"invalid parameter name {clip(name)!r}")
    return Lambda(path, params, parse_node(arg[1], (*p, 1)))


def _form_method(arg: Any, path: JSONPath, p: JSONPath, optional: bool = False) -> Node:
    if not isinstance(arg, list) or len(arg) < 2 or not isinstance(arg[1], str):
        form = "$method?" if optional else "$method"
        raise _bad(p, f'{form} takes [target, "name", argument, ...]')
    target = parse_node(arg[0], (*p, 0))
    args = tuple(parse_node(v, (*p, i + 2)) for i, v in enumerate(arg[2:]))
    return Method(path, target, arg[1], args, optional=optional)


def _form_method_optional(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    return _form_method(arg, path, p, optional=True)


def _form_global(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if not isinstance(arg, list) or not arg or not isinstance(arg[0], str):
        raise _bad(p, '$global takes ["Math.max", argument, ...]')
    args = tuple(parse_node(v, (*p, i + 1)) for i, v in enumerate(arg[1:]))
    return Global(path, arg[0], args)


def _form_spread(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    return Spread(path, parse_node(arg, p))


def _form_merge(arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if not isinstance(arg, list):
        raise _bad(p, "$merge takes an array of objects")
    return Merge(path, tuple(parse_node(v, (*p, i)) for i, v in enumerate(arg)))


def _parse_let(value: dict[str, Any], path: JSONPath) -> Node:
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
    if not isinstance(raw_bindings, dict):
        raise _bad((*path, "$let"), "$let takes an object of alias -> expression")
    bindings: dict[str, Node] = {}
    for name, expr in raw_bindings.items():
        if not name or name.startswith("$"):
            raise _bad((*path, "$let", name), f"invalid alias name {name!r}")
        bindings[name] = parse_node(expr, (*path, "$let", name))
    if "$do" in value:
        _parse_do(value["$do"], (*path, "$do"), bindings)
    body = parse_node(value[end], (*path, end))
    return Let(path, bindings, body, end[1:])


def _parse_do(items: Any, p: JSONPath, bindings: dict[str, Node]) -> None:
    """``$do``: the block's statements in program order (SPEC 1.2, 17), after its ``$let``
    aliases: an expression statement (it runs; its value is dropped) or ``{"$let": {...}}``,
    aliases defined at that place. An expression statement is kept as a binding named
    ``$<index>`` (no alias can be named so)."""
    if not isinstance(items, list):
        raise _bad(p, "$do takes an array of statements", 'Write {"$do": [{"f": {...}}, ...]}.')
    for i, item in enumerate(items):
        if isinstance(item, dict) and set(item) == {"$let"}:
            group = item["$let"]
            if not isinstance(group, dict):
                raise _bad((*p, i, "$let"), "$let takes an object of alias -> expression")
            for name, expr in group.items():
                if not name or name.startswith("$"):
                    raise _bad((*p, i, "$let", name), f"invalid alias name {name!r}")
                if name in bindings:
                    raise _bad((*p, i, "$let", name), f"the alias {name!r} is defined twice")
                bindings[name] = parse_node(expr, (*p, i, "$let", name))
            continue
        bindings[f"${i}"] = parse_node(item, (*p, i))


_FORMS: dict[str, Callable[[Any, JSONPath, JSONPath], Node]] = {
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
    "$merge": _form_merge,
}


def parse_tree(tree: Any, limits: Limits) -> Node:
    measure(tree, limits)
    return parse_node(tree)


def call_as_nested(call: Call) -> Call:
    """Read a one-key argument object ``{"f": {"g": X}}`` as the nested call ``g(X)``."""
    ((key, arg),) = call.raw.items()
    return _parse_call(key, arg, (*call.path, call.name))


def call_named(call: Call) -> dict[str, Node]:
    """Read a call's argument object as named arguments (each value an expression)."""
    p = (*call.path, call.name)
    return {k: parse_node(v, (*p, k)) for k, v in call.raw.items()}
