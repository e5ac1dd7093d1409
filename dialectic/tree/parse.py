"""JSON -> syntax nodes (SPEC.md section 1).

``parse_tree`` makes the typed nodes, which carry their JSON path, and checks the program's
size, depth, strings and numbers in the same walk (:mod:`dialectic.tree.reader`, with the core
forms in :mod:`dialectic.tree.forms`): each object or array is checked (depth, count, keys)
before its members are read, so a 100,000-deep program fails at the limit, never with a
RecursionError. A problem found so is located by :func:`dialectic.tree.measure.locate`, which
walks again with JSON paths; a form's error is reported only if the program has no such
problem, as when the whole program was measured first (``measure``, then ``parse_node``: what
``tests/core/test_tree_parse.py`` compares it with).

Whether an object in argument position is named arguments or a nested call depends on the
callee's parameters: :class:`Call` keeps its argument JSON and the resolver reads it with
:func:`call_named` or :func:`call_as_nested`. The parse reads it ahead, checked as it is read
(``Call.read``: one key as the nested call, more as named arguments), and those functions give
what it read; an object whose reading met a form's error is read again from its JSON (checked
when the tree was parsed), so the resolver meets that error where and when it did before.
"""

# ruff: noqa: RUF005  (path + (key,) makes one tuple; (*path, key) a list, then a tuple)
from __future__ import annotations

from typing import Any

from dialectic.limits import Limits
from dialectic.outcome.errors import JSONPath
from dialectic.tree.forms import BINARY_OPS, UNARY_OPS
from dialectic.tree.measure import locate, measure
from dialectic.tree.nodes import Arr, Call, Node, Obj
from dialectic.tree.reader import _CHECKED, FORMS, _call, _node, _Problem, _Walk

__all__ = [
    "BINARY_OPS",
    "FORMS",
    "UNARY_OPS",
    "call_as_nested",
    "call_named",
    "measure",
    "parse_node",
    "parse_tree",
]

_locate = locate  # (its former name here)


def parse_tree(tree: Any, limits: Limits) -> Node:
    """The program's syntax nodes; any problem of size, depth, strings or numbers first."""
    walk = _Walk()
    walk.max_depth = limits.max_depth
    walk.max_str = limits.max_string_length
    walk.left = limits.max_nodes - 1  # (the root)
    walk.check = True
    try:
        return _node(walk, tree, ())
    except Exception as exc:  # a problem, or a form's error (or a non-JSON value met)
        error = exc
    try:
        # as when the program was measured first: a problem anywhere wins, where it is
        measure(tree, limits)
        if isinstance(error, _Problem):  # (measure finds what the walk found)
            return parse_node(tree)
        raise error
    finally:
        del error


def parse_node(value: Any, path: JSONPath = ()) -> Node:
    """Turn JSON that was checked (by :func:`parse_tree` or :func:`measure`) into a node."""
    return _node(_CHECKED, value, path)


def call_as_nested(call: Call) -> Call:
    """Read a one-key argument object ``{"f": {"g": X}}`` as the nested call ``g(X)``."""
    read = call.read
    if type(read) is Call:  # (read ahead by the parse)
        return read
    ((key, arg),) = call.raw.items()
    return _call(_CHECKED, key, arg, (*call.path, call.name))


def call_named(call: Call) -> dict[str, Node]:
    """Read a call's argument object as named arguments (each value an expression)."""
    read = call.read
    if type(read) is dict:  # (read ahead by the parse)
        return dict(read)
    if type(read) is Call:  # one key: its value as the nested call's parse read it
        value = _argument(read)
        if value is not None:
            return {read.name: value}
    p = (*call.path, call.name)
    return {k: _node(_CHECKED, v, p + (k,)) for k, v in call.raw.items()}


def _argument(call: Call) -> Node | None:
    """A call's argument JSON as one expression (what ``parse_node`` makes of it at the
    argument's path), from what the parse made of it; None where it kept JSON it did not
    read (a form's error met: ``parse_node`` meets it again)."""
    if call.kind == "single":
        return call.single
    p = call.path + (call.name,)
    if call.kind == "array":
        return Arr(p, call.positional)
    read = call.read  # an object of no $ key: a call, or data
    if type(read) is Call:
        return read
    if type(read) is dict:
        return Obj(p, read, False)
    return None
