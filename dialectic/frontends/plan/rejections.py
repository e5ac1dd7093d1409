"""The trees of a promise's failures (SPEC 10, "Mapping to the call tree"): ``p.catch(h)`` and
``p.then(f, h)`` as the core's ``$try``, ``Promise.allSettled(xs)`` with ``rejected`` entries.

A handler reads the error as ``e.message``, ``e.name``, as text or throws it again
(:mod:`.errortext`): the error of a failing call is ``{name, message}`` with dialectic's
message, no JavaScript ``Error`` (SPEC 10, the `try` bullet). When it reads the error, the
promise may hold one place that may fail (a call of a registered function or of the
program's own, ``$throw``, ``JSON.parse``), or a chain ``f(x).then(v => g(v))`` whose parts
each hold one: dialectic runs independent calls at once, and the failure caught must be the
one JavaScript meets first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = [
    "caught_text",
    "failure_places",
    "settled_entry",
    "settled_text",
    "settled_value",
    "thrown_text",
]


def failure_places(tree: Any, limit: int = 2) -> int:
    """How many places of ``tree`` may fail as JavaScript throws (counted up to ``limit``)."""
    count = 0
    stack = [tree]
    while stack and count < limit:
        node = stack.pop()
        if type(node) is list:
            stack.extend(node)
        elif type(node) is dict:
            if len(node) == 1:
                key, args = next(iter(node.items()))
                if key[:1] != "$" or key == "$throw":
                    count += 1
                    if type(args) is dict and key != "$throw":  # (named arguments)
                        stack.extend(args.values())
                        continue
                elif key == "$global" and args[:1] == ["JSON.parse"]:
                    count += 1
                elif key == "$quote":
                    continue  # (data, not evaluated)
                elif key == "$if" and type(args) is list and len(args) == 3:
                    # (one branch runs: `(t ? f(x) : g(x)).catch(h)` holds one place)
                    count += failure_places(args[0], limit)
                    count += max(failure_places(args[1], limit), failure_places(args[2], limit))
                    continue
                elif key == "$object" and type(args) is dict:
                    stack.extend(args.values())  # (its keys are no calls)
                    continue
            stack.extend(node.values())
    return count


def settled_entry(value: Any, reason: str) -> Any:
    """``$try`` of ``{status: 'fulfilled', value}``, its handler making ``{status:
    'rejected', reason}`` (``reason``: the handler's parameter)."""
    return {
        "$try": [
            {"status": "fulfilled", "value": value},
            {"$fn": [[reason], {"status": "rejected", "reason": {"$ref": reason}}]},
        ]
    }


#: what `new Error(message)` makes, by name (:meth:`.Parser.try_form`)
_ERRORS = frozenset(["Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError"])


def thrown_text(value: Any, expr: Callable[[Any], str]) -> str:
    """``$throw``'s value as Plan writes it (``new Error(m)`` for the object that makes),
    ``expr`` writing an expression."""
    made = value.get("$object", value) if type(value) is dict else None
    if type(made) is dict and set(made) == {"name", "message"} and made["name"] in _ERRORS:
        message = made["message"]
        if type(message) is dict and set(message) == {"$global"}:
            args = message["$global"]
            if type(args) is list and len(args) == 2 and args[0] == "String":
                message = args[1]
            else:
                message = None
        elif not (type(message) is str or (type(message) is dict and "$template" in message)):
            message = None
        if message is not None:
            return f"new {made['name']}({expr(message)})"
    return expr(value)


def caught_text(value: Any, expr: Callable[[Any], str]) -> str | None:
    """``$try`` in an expression as Plan's ``p.catch((e) => h)`` when its body is a promise
    (a call, ``$throw``, another ``$try``); else None."""
    if type(value) is not list or len(value) != 2:
        return None
    body, handler = value
    if not (type(handler) is dict and set(handler) == {"$fn"}):
        return None
    if not (type(body) is dict and len(body) == 1):
        return None
    key = next(iter(body))
    if key[:1] == "$" and key not in ("$throw", "$try"):
        return None
    text = expr(body)
    if key == "$try" and not text.endswith(")"):
        return None
    return f"{text}.catch({expr(handler)})"


def settled_value(node: Any) -> tuple[Any] | None:
    """The value of a ``Promise.allSettled`` entry :func:`settled_entry` made, else None."""
    if not (type(node) is dict and set(node) == {"$try"} and type(node["$try"]) is list):
        return None
    parts = node["$try"]
    if len(parts) != 2 or type(parts[0]) is not dict or set(parts[0]) != {"status", "value"}:
        return None
    fn = parts[1].get("$fn") if type(parts[1]) is dict and len(parts[1]) == 1 else None
    if parts[0]["status"] != "fulfilled" or type(fn) is not list or len(fn) != 2:
        return None
    if type(fn[0]) is not list or len(fn[0]) != 1:
        return None
    if fn[1] != {"status": "rejected", "reason": {"$ref": fn[0][0]}}:
        return None
    return (parts[0]["value"],)


def settled_text(node: Any, expr: Callable[[Any], str]) -> str | None:
    """``Promise.allSettled([...])`` or ``Promise.allSettled(xs.map(f))`` for the trees
    :meth:`.PromisesMixin.all_settled` makes, else None."""
    if type(node) is list:
        values = [settled_value(item) for item in node]
        if not node or any(v is None for v in values):
            return None
        return f"Promise.allSettled({expr([v[0] for v in values if v is not None])})"
    method = node.get("$method") if type(node) is dict and len(node) == 1 else None
    if type(method) is not list or len(method) != 3 or method[1] != "map":
        return None
    fn = method[2].get("$fn") if type(method[2]) is dict and len(method[2]) == 1 else None
    value = settled_value(fn[1]) if type(fn) is list and len(fn) == 2 else None
    if fn is None or value is None:
        return None
    return (
        f"Promise.allSettled({expr({'$method': [method[0], 'map', {'$fn': [fn[0], value[0]]}]})})"
    )
