"""Recursive functions in the call tree (SPEC 1.2, ``$letrec`` and ``$apply``; SPEC 10,
"Recursive functions"): the nodes and their forms.

``{"$letrec": [["name", {"$fn": [params, body]}], ..., expr]}`` defines a group of functions
that may call themselves and each other, and gives ``expr``'s value; inside the bodies and
``expr``, ``{"$apply": ["name", arg, ...]}`` applies one of them. A function's body runs in a
fresh frame per application (its parameters and its aliases are its own), and reads no
parameter or local of the code around the ``$letrec``: only the program's aliases outside
every arrow function, constants and context values.
"""

# ruff: noqa: RUF005  (path + (key,) makes one tuple)
from __future__ import annotations

from typing import Any

from dialectic.outcome.errors import JSONPath
from dialectic.tree.nodes import Lambda, Node, _path, _setter
from dialectic.tree.reader import _FORMS, _bad, _enter, _node, _text, _Walk

__all__ = ["Apply", "LetRec"]


class LetRec(Node):
    """A group of recursive functions (``names[i]`` is ``fns[i]``) and the expression that
    uses them."""

    __slots__ = ("names", "fns", "body")
    child_fields = ("fns", "body")
    names: tuple[str, ...]
    fns: tuple[Lambda, ...]
    body: Node

    def __init__(
        self, path: JSONPath, names: tuple[str, ...], fns: tuple[Lambda, ...], body: Node
    ) -> None:
        _path(self, path)
        _LetRec_names(self, names)
        _LetRec_fns(self, fns)
        _LetRec_body(self, body)


class Apply(Node):
    """An application of the function ``name`` of an enclosing :class:`LetRec`."""

    __slots__ = ("name", "args")
    child_fields = ("args",)
    name: str
    args: tuple[Node, ...]

    def __init__(self, path: JSONPath, name: str, args: tuple[Node, ...]) -> None:
        _path(self, path)
        _Apply_name(self, name)
        _Apply_args(self, args)


_LetRec_names = _setter(LetRec, "names")
_LetRec_fns = _setter(LetRec, "fns")
_LetRec_body = _setter(LetRec, "body")
_Apply_name = _setter(Apply, "name")
_Apply_args = _setter(Apply, "args")

_LETREC_SHAPE = '$letrec takes [["name", {"$fn": [["param", ...], body]}], ..., expression]'


def _form_letrec(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if type(arg) is not list or len(arg) < 2:
        raise _bad(p, _LETREC_SHAPE, 'Write {"$letrec": [["f", {"$fn": [["n"], body]}], expr]}.')
    _enter(walk, arg, len(p))
    names: list[str] = []
    fns: list[Lambda] = []
    for i in range(len(arg) - 1):
        pair = arg[i]
        at = p + (i,)
        if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str:
            raise _bad(at, _LETREC_SHAPE)
        name = pair[0]
        if not name or name.startswith(("$", "__")) or name in names:
            raise _bad(at + (0,), f"invalid or repeated function name {name[:40]!r}")
        _enter(walk, pair, len(at))
        _text(walk, name)
        fn = _node(walk, pair[1], at + (1,))
        if type(fn) is not Lambda:
            raise _bad(at + (1,), "a function of $letrec is an arrow function", _LETREC_SHAPE)
        names.append(name)
        fns.append(fn)
    body = _node(walk, arg[-1], p + (len(arg) - 1,))
    return LetRec(path, tuple(names), tuple(fns), body)


def _form_apply(walk: _Walk, arg: Any, path: JSONPath, p: JSONPath) -> Node:
    if type(arg) is not list or not arg or type(arg[0]) is not str or not arg[0]:
        raise _bad(p, '$apply takes ["name", argument, ...]', 'Write {"$apply": ["f", x]}.')
    _enter(walk, arg, len(p))
    _text(walk, arg[0])
    args = tuple([_node(walk, arg[i], p + (i,)) for i in range(1, len(arg))])
    return Apply(path, arg[0], args)


_FORMS.update({"$letrec": _form_letrec, "$apply": _form_apply})
