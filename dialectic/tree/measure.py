"""The program's size, depth, strings and numbers (SPEC.md section 1): the checks, and the walk
that locates a problem with its JSON path.

:func:`dialectic.tree.parse.parse_tree` makes the same checks while it builds the nodes (one
walk, :mod:`dialectic.tree.reader`). A problem found there (no path is kept) is then located by
:func:`measure` and :func:`locate`, which walks again with JSON paths: that walk, not the fast
ones, decides which problem is reported and where, so every fast path reports exactly what
:func:`measure` would.
"""

from __future__ import annotations

from typing import Any

from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError, JSONPath, LimitExceeded, clip

_INF = float("inf")
_NEG_INF = float("-inf")


def measure(tree: Any, limits: Limits) -> int:
    """Count nodes and check depth, strings and numbers without recursion; returns the count.

    A first pass, level by level, only looks; if it finds anything wrong, :func:`locate`
    walks again, keeping JSON paths, to raise the error where it is."""
    count = scan(tree, 1, limits.max_depth, limits.max_string_length, limits.max_nodes)
    if count < 0:
        return locate(tree, limits)
    return count


def size(tree: Any) -> int:
    """How many JSON values ``tree`` holds (each object, array and scalar one), as the
    ``max_nodes`` limit counts them; -1 for a tree that is not JSON."""
    return scan(tree, 1, _INF, _INF, _INF)


def scan(tree: Any, depth: int, max_depth: float, max_str: float, max_nodes: float) -> int:
    """The JSON values of ``tree`` (itself at ``depth``), or -1 if more than ``max_nodes`` or
    any is out of bounds (nested deeper than ``max_depth``, a string longer than ``max_str`` or
    not valid Unicode, a key not a string, a number not finite, a value not JSON)."""
    count = 0
    level: list[Any] = [tree]
    while level:
        count += len(level)
        if count > max_nodes:
            return -1
        deep = depth > max_depth
        below: list[Any] = []
        extend = below.extend
        for value in level:
            t = type(value)
            if t is str:
                if len(value) > max_str or not (value.isascii() or is_text(value)):
                    return -1
            elif t is dict:
                if deep:
                    return -1
                for k in value:
                    if type(k) is not str or not (k.isascii() or is_text(k)):
                        return -1
                extend(value.values())
            elif t is list:
                if deep:
                    return -1
                extend(value)
            elif t is float:
                if value != value or value in (_INF, _NEG_INF):
                    return -1
            elif not (value is None or t is bool or t is int):
                return -1
        level = below
        depth += 1
    return count


def is_text(text: str) -> bool:
    """Whether ``text`` is valid Unicode (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def locate(tree: Any, limits: Limits) -> int:
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
                raise LimitExceeded("max_depth", _too_deep(max_depth, path), path)
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
                    "invalid_program",
                    "numbers must be finite (JSON has no NaN or Infinity)",
                    path,
                    hint='Write Infinity as {"$ref": "Infinity"} and -Infinity as '
                    '{"$op": ["-", {"$ref": "Infinity"}]}; NaN is no value of a run.',
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


#: a long chain of one form nesting each link inside the one before, as written: what it is,
#: and what to write instead
_CHAINS = {
    "$if": (
        "tests (`if`/`else if`, a `switch`'s cases, `? :`)",
        "look the value up in an object (`const table = {a: 1, b: 2}; table[v] ?? fallback`)",
    ),
    "$op": (
        "operators (`a && b && ...`, `a + b + ...`)",
        "split it into named parts (`const p1 = a + b + c; const p2 = p1 + d + e;`)",
    ),
    "$method": (
        "method calls (`xs.map(...).filter(...)...`)",
        "split it into named steps (`const ys = xs.map(...); const zs = ys.filter(...);`)",
    ),
}


def _too_deep(max_depth: int, path: JSONPath) -> str:
    """The message of a program nested past ``max_depth`` at ``path``: what nests so when it
    is one form inside itself (a flat program as written: a chain of tests or operators)."""
    message = f"the program is nested more than {max_depth} levels deep"
    keys = [k for k in path if type(k) is str and k in _CHAINS]
    if keys:
        key = max(_CHAINS, key=keys.count)
        count = keys.count(key)
        if count * 3 > max_depth:  # (each link is two levels: the form and its arguments)
            what, instead = _CHAINS[key]
            message += f": a chain of {count} {what}, each inside the one before; {instead}"
    return message
