"""A ``$while`` loop written as Plan (SPEC 10, "decompile"): only as an alias of a program's
block, where Plan has statements, ``name = state; while (test) { const s = name; ...; name =
step; }`` (the test reading ``name`` for its parameter). Read again, it is a loop that gives
the same value (not the same tree: the front end makes its own fold). Used by
:mod:`.decompile`."""

from __future__ import annotations

from typing import Any

__all__ = ["renamed", "while_parts"]


def while_parts(value: Any) -> tuple[Any, str, Any, str, Any] | None:
    """``$while``'s state, the test's parameter and body, the step's parameter and body; None
    when the form is malformed."""
    if type(value) is not list or len(value) != 3:
        return None
    fns: list[tuple[str, Any]] = []
    for fn in value[1:]:
        items = fn.get("$fn") if type(fn) is dict and len(fn) == 1 else None
        if type(items) is not list or len(items) != 2 or type(items[0]) is not list:
            return None
        if len(items[0]) != 1 or type(items[0][0]) is not str:
            return None
        fns.append((items[0][0], items[1]))
    return value[0], fns[0][0], fns[0][1], fns[1][0], fns[1][1]


def renamed(tree: Any, old: str, new: str) -> Any:
    """``tree`` with its reads of ``old`` reading ``new`` (not where an arrow function's
    parameter or a block's alias binds ``old`` again)."""
    if type(tree) is list:
        return [renamed(item, old, new) for item in tree]
    if type(tree) is not dict:
        return tree
    if tree.get("$ref") == old and len(tree) == 1:
        return {"$ref": new}
    if "$quote" in tree and len(tree) == 1:
        return tree
    fn = tree.get("$fn")
    if type(fn) is list and fn and type(fn[0]) is list and old in fn[0]:
        return tree
    lets = tree.get("$let")
    if type(lets) is dict and old in lets:
        return tree
    return {k: renamed(v, old, new) for k, v in tree.items()}
