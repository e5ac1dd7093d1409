"""The names a call tree reads and defines, as the program's functions (:mod:`.functions`) and
the functions passed to them (:mod:`.passed`) need them: which names a body reads from outside
(a use must not put it where a local hides one of them), and which parameters it calls."""

from __future__ import annotations

from typing import Any

__all__ = ["binders", "free_names", "scan"]


def binders(node: dict[str, Any]) -> set[str]:
    """The names a block node defines for its parts (``$let`` beside ``$return``/``$use``, the
    ``$let`` groups of ``$do``)."""
    names: set[str] = set()
    lets = node.get("$let")
    if type(lets) is dict and ("$return" in node or "$use" in node or "$do" in node):
        names.update(lets)
    for item in node.get("$do") or ():
        if type(item) is dict and len(item) == 1 and type(item.get("$let")) is dict:
            names.update(item["$let"])
    return names


def free_names(tree: Any) -> frozenset[str]:
    """The names ``tree`` reads (``$ref``) that it does not define itself."""
    return scan(tree, frozenset())[0]


def scan(tree: Any, names: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The names ``tree`` reads that it does not define itself, and which of ``names`` it
    calls (``{name: [args]}``) where it does not define them."""
    free: set[str] = set()
    called: set[str] = set()
    stack: list[tuple[Any, frozenset[str]]] = [(tree, frozenset())]
    while stack:
        t, bound = stack.pop()
        if type(t) is list:
            stack.extend((x, bound) for x in t)
            continue
        if type(t) is not dict:
            continue
        if len(t) == 1:
            key, value = next(iter(t.items()))
            if key == "$ref":
                if type(value) is str and value not in bound:
                    free.add(value)
                continue
            if key == "$quote":
                continue
            if key in names and type(value) is list and key not in bound:
                called.add(key)
            if key == "$fn" and type(value) is list and len(value) == 2 and type(value[0]) is list:
                stack.append((value[1], bound | {p for p in value[0] if type(p) is str}))
                continue
            if key == "$object" and type(value) is dict:
                stack.extend((v, bound) for v in value.values())
                continue
        names_here = binders(t)
        inner = bound | names_here if names_here else bound
        for k, v in t.items():
            if k == "$let" and type(v) is dict:
                stack.extend((x, inner) for x in v.values())
            elif type(v) is dict or type(v) is list:
                stack.append((v, inner))
    return frozenset(free), frozenset(called)
