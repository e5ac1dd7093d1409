"""A choice among many cases whose values are literals, as a lookup (SPEC 10, "Switch"): a
``switch`` of more than :data:`CHAIN_CASES` cases that return, each ``case`` a string, a
number, a boolean or ``null``, and an ``if``/``else if`` chain as long testing one name
against such literals (``if (code === 'a') return 1; else if (code === 'b') ...``).

Tested one inside the other, each case nests two levels deeper than the one before, and
``max_depth`` (100) stops a choice of about 48 cases; models write 20 to 80 to map codes to
labels. Read as a lookup, the choice is

    {"$let": {"_sw1": {"$method": [[c1, c2, ...], "indexOf", V]}},
     "$return": {"$if": [_sw1 < 0, DEFAULT, SEARCH]}}

``indexOf`` compares with ``===`` (JavaScript's ``switch``'s comparison), the value ``V`` is read
once, and ``SEARCH`` finds the case's statements by a binary search over the positions where
each case's labels start (``_sw1 < 5 ? (_sw1 < 2 ? A : B) : C``): the depth grows with the
logarithm of the number of cases, the cost is linear in it. A literal written twice keeps its
first case (as JavaScript's first equal case is taken); the labels of ``default``'s statements
(``case 'x': default: ...``) are the default."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["CHAIN_CASES", "DEFAULT", "case_key", "chains_as_lookups", "lookup_tree"]

#: a choice of at most this many cases is the chain of tests it was (its tree unchanged)
CHAIN_CASES = 8


class _Default:
    """The place of ``default``'s statements among the cases (the values of the cases
    falling into it are tested there)."""

    def __repr__(self) -> str:
        return "DEFAULT"


DEFAULT: Any = _Default()


def case_key(value: Any) -> tuple[str, Any] | None:
    """The identity of a literal case value under ``===`` (``1`` and ``1.0`` are one,
    ``true`` is not ``1``), or None when ``value`` is no literal a lookup compares so."""
    t = type(value)
    if t is str:
        return ("s", value)
    if t is bool:
        return ("b", value)
    if t is int or t is float:
        return ("n", float(value))  # (-0.0 == 0.0, as -0 === 0)
    if value is None:
        return ("z", None)
    return None


def lookup_tree(
    hidden: str,
    value: Any,
    cases: list[tuple[list[Any], Any]],
    default: Any,
) -> dict[str, Any]:
    """The choice among ``cases`` (each its literal values, in order, and its statements'
    tree, or :data:`DEFAULT` for the cases falling into ``default``) over ``value``, ``default``
    when none is equal; ``hidden``: the hidden alias holding the position of the value among
    the literals. Every case value must have a :func:`case_key`."""
    seen: set[tuple[str, Any]] = set()
    labels: list[Any] = []
    starts: list[tuple[int, Any]] = []  # (first position, statements) of each case kept
    for tested, body in cases:
        first = len(labels)
        for literal in tested:
            key = case_key(literal)
            assert key is not None
            if key not in seen:  # (a later case with the same value is never taken)
                seen.add(key)
                if body is not DEFAULT:  # (not in the list: `default`'s when not found)
                    labels.append(literal)
        if len(labels) > first:
            starts.append((first, body))
    if not starts:
        return {"$let": {hidden: value}, "$return": default}

    def search(lo: int, hi: int) -> Any:
        if hi - lo == 1:
            return starts[lo][1]
        mid = (lo + hi) // 2
        test = {"$op": ["<", {"$ref": hidden}, starts[mid][0]]}
        return {"$if": [test, search(lo, mid), search(mid, hi)]}

    position = {"$method": [labels, "indexOf", value]}
    chosen = {"$if": [{"$op": ["<", {"$ref": hidden}, 0]}, default, search(0, len(starts))]}
    return {"$let": {hidden: position}, "$return": chosen}


def _compared(test: Any, name: str | None) -> tuple[str, list[Any]] | None:
    """``X === literal`` (either way round), or an ``||`` of them, all on the name ``X`` (and
    on ``name`` when given): the name and the literals, else None."""
    found: list[Any] = []
    stack = [test]
    while stack:
        node = stack.pop()
        if type(node) is not dict or len(node) != 1:
            return None
        op = node.get("$op")
        if type(op) is not list or len(op) != 3:
            return None
        if op[0] == "||":
            stack.append(op[2])
            stack.append(op[1])
            continue
        if op[0] != "===":
            return None
        left, right = op[1], op[2]
        if type(left) is not dict:
            left, right = right, left
        if type(left) is not dict or len(left) != 1 or case_key(right) is None:
            return None
        read = left.get("$ref")
        if type(read) is not str or (name is not None and read != name):
            return None
        name = read
        found.append(right)
    assert name is not None
    return name, found


def _links(node: Any) -> tuple[str, list[tuple[list[Any], Any]], Any] | None:
    """The chain ``X === a ? A : X === b ? B : ... : D`` at ``node`` (``if``/``else if``
    tests of one name against literals): the name, each link's literals and value, and the
    value ``D`` after the last link; None when ``node`` starts none of more than
    :data:`CHAIN_CASES` links."""
    links: list[tuple[list[Any], Any]] = []
    name: str | None = None
    while type(node) is dict and len(node) == 1:
        parts = node.get("$if")
        if type(parts) is not list or len(parts) != 3:
            break
        found = _compared(parts[0], name)
        if found is None:
            break
        name = found[0]
        links.append((found[1], parts[1]))
        node = parts[2]
    if name is None or len(links) <= CHAIN_CASES:
        return None
    return name, links, node


def chains_as_lookups(tree: Any, fresh: Callable[[str], str]) -> Any:
    """``tree`` with each chain of more than :data:`CHAIN_CASES` tests of one name against
    literals (``if (code === 'a') return 1; else if (code === 'b') ...``, or the same with
    `?:`) written as the lookup :func:`lookup_tree` over the name (read once: a name's value
    never changes), ``fresh`` naming its hidden alias. One walk, without recursion; a chain
    is found once, at its first link (a shorter one is looked at from each of its links)."""
    holder = [tree]
    stack: list[tuple[Any, Any]] = [(holder, 0)]
    while stack:
        container, key = stack.pop()
        node = container[key]
        if type(node) is list:
            stack.extend((node, i) for i in range(len(node)))
            continue
        if type(node) is not dict:
            continue
        chain = _links(node) if "$if" in node else None
        if chain is None:
            stack.extend((node, k) for k in node)
            continue
        name, links, last = chain
        container[key] = lookup_tree(fresh("_sw"), {"$ref": name}, links, last)
        stack.append((container, key))  # (its links' values and the last, where they are)
    return holder[0]
