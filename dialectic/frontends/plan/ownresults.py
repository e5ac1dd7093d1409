"""A call of the program's own function as new data (SPEC 10, "Changes outside loops"): its
result may be a value the program holds elsewhere (``function mk() { return base; }``, then
``const a = mk(); a.push(5);`` changes ``base`` in JavaScript), so a change in place of it is
refused, unless every value the function can return is, at its top, one nothing else holds: an
array or object literal (``[1]``, ``{...o}``, ``[...xs]``), a new array (``xs.map(f)``,
``xs.filter(f)``, ``xs.slice()``, ``Object.entries(o)``, ``Array.from(x)``), a copy
(``JSON.parse(text)``, ``structuredClone(v)``) or a tool's reply, directly or through the body's
own ``const``s, ``if``s and ``try``s. The decision is the one a block's own alias gets
(:func:`.reorder.new_array`, :func:`.callforms.new_object`, :func:`.callforms.fresh_copy`),
made of each value the body returns.

Such a result is new at its top only: its items and members may be shared (``return [base]``,
``return {...o}`` holds ``o``'s members), so a change of a part (``a[0].push(x)``,
``a.tags.push(x)``: :mod:`.nestedchanges`) stays refused. A function defined after the change
(hoisted), one that calls itself or another of the program's functions, and a name that is
also a parameter (which may be any function) are not read so."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.callforms import fresh_copy, new_object
from dialectic.frontends.plan.functionscope import own_calls, param_names
from dialectic.frontends.plan.reorder import new_array

if TYPE_CHECKING:
    from dialectic.frontends.plan.base import ParserBase

__all__ = ["held_calls", "new_result"]

#: the most nodes one function's check walks (its cost stays bounded)
_MOST_NODES = 2_000


def new_result(p: ParserBase, value: Any, array: Callable[[Any], bool] | None = None) -> bool:
    """Whether ``value`` is a call of a function of the program each of whose results is new
    at its top (the module's rule); with ``array``, each also an array by that test (the one
    a block's own alias gets, :func:`.arraychanges.array_version`)."""
    if type(value) is not dict or len(value) != 1:
        return False
    name = next(iter(value))
    return type(name) is str and name[:1] != "$" and _returns_new(p, name, array)


def held_calls(p: ParserBase) -> frozenset[str]:
    """The names whose call's result may be a value the program holds (:func:`.own_calls`)
    but for the functions whose every result is new at its top."""
    own = own_calls(p)
    functions = p.functions or {}
    cached: tuple[int, frozenset[str]] | None = getattr(p, "_held_calls", None)
    if cached is not None and cached[0] == len(functions):
        return cached[1]
    out = frozenset(name for name in own if not _returns_new(p, name))
    p._held_calls = (len(functions), out)  # type: ignore[attr-defined]
    return out


def _returns_new(p: ParserBase, name: str, array: Callable[[Any], bool] | None = None) -> bool:
    functions = p.functions
    if not functions or name not in functions or name in param_names(p):
        return False  # (not the program's function, or not parsed yet: a later hoisted one)
    known: dict[tuple[str, bool], bool] | None = getattr(p, "_new_results", None)
    if known is None:
        known = p._new_results = {}  # type: ignore[attr-defined]
    key = (name, array is not None)
    found = known.get(key)
    if found is None:
        tree = functions[name].tree["$fn"]
        found = known[key] = (
            type(tree) is list and len(tree) == 2 and _all_new(tree[1], own_calls(p), array)
        )
    return found


def _all_new(body: Any, own: frozenset[str], array: Callable[[Any], bool] | None) -> bool:
    """Whether each value the function body ``body`` can return is new at its top: walked
    through the body's blocks (``$let``, ``$do``), choices (``$if``), ``$try`` (the block's
    value and the handler's), and its own names, bounded."""
    stack: list[tuple[Any, dict[str, Any]]] = [(body, {})]
    walked = 0
    while stack:
        node, scope = stack.pop()
        walked += 1
        if walked > _MOST_NODES:
            return False
        if array is not None and array(node):
            continue
        if array is None and (
            type(node) is list or new_array(node, own) or new_object(node) or fresh_copy(node)
        ):
            continue
        if type(node) is not dict:
            return False
        keys = set(node)
        if keys == {"$let", "$return"} and type(node["$let"]) is dict:
            stack.append((node["$return"], {**scope, **node["$let"]}))
        elif keys == {"$do", "$return"} and type(node["$do"]) is list:
            inner = dict(scope)
            for part in node["$do"]:
                if type(part) is dict and list(part) == ["$let"] and type(part["$let"]) is dict:
                    inner.update(part["$let"])
            stack.append((node["$return"], inner))
        elif len(node) != 1:
            return False
        elif "$ref" in node:
            ref = node["$ref"]
            if type(ref) is not str or ref not in scope:
                return False  # (a parameter, or a name of the program's: may be held)
            stack.append((scope[ref], scope))
        elif "$if" in node:
            parts = node["$if"]
            if type(parts) is not list or len(parts) != 3:
                return False
            stack.extend((part, scope) for part in parts[1:])
        elif "$try" in node:
            parts = node["$try"]
            if type(parts) is not list or len(parts) != 2 or not _handler(parts[1]):
                return False
            stack.extend([(parts[0], scope), (parts[1]["$fn"][1], scope)])
        else:
            return False
    return True


def _handler(node: Any) -> bool:
    """Whether ``node`` is a ``catch`` handler, ``{"$fn": [[e], body]}``."""
    if type(node) is not dict or list(node) != ["$fn"]:
        return False
    fn = node["$fn"]
    return type(fn) is list and len(fn) == 2
