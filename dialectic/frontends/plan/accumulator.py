"""``reduce`` with an accumulator changed in place, as models write it (SPEC 1.8):

    items.reduce((acc, x) => { acc[x.kind] = (acc[x.kind] || 0) + 1; return acc; }, {})
    items.reduce((acc, x) => { acc.push(x.id); return acc; }, [])
    items.reduce((acc, x) => { acc.set(x.id, x); return acc; }, new Map())

The core's values never change, but when the accumulator starts as a fresh literal (``{}``,
``[]``, ``{a: 0}``: nothing else holds it) and the arrow only sets its keys (``acc[k] = v``,
``acc.name = v``) or pushes onto it (``acc.push(a, b)``) and returns it, the same answer comes
from a new value per step: ``({...acc, [k]: v})``, ``[...acc, a, b]`` and a Map's next version
``acc.set(k, v)`` (SPEC 1.8, "Maps and Sets"), which is what this module writes. A key set again
keeps its place, as JavaScript's does. (Each step costs the size of the change, as Node's
in-place change does: the compiler changes such an accumulator in place when nothing else can
hold it, :mod:`dialectic.resolve.accumulate`.) Everything else stays refused with the idiom to use:
another receiver, an initial value that is not a fresh literal, no initial value (the
accumulator would be the array's first item), two changes where a later one reads the
accumulator, a ``const`` after a change, ``return`` of anything but the accumulator."""

from __future__ import annotations

from typing import Any

__all__ = ["CHANGES", "URL_CHANGES", "Changes", "fresh_initial", "is_new_collection", "key_set"]

#: the statements that change a Map or a Set, and how many arguments each takes
CHANGES = {"set": 2, "add": 1, "delete": 1, "clear": 0, "append": 2}
#: the statements that change a URL through its query (`u.searchParams.set(k, v);`)
URL_CHANGES = {"searchParams.set": 2, "searchParams.append": 2, "searchParams.delete": 1}
_GLOBALS = frozenset(["Map", "Set", "new Set", "URLSearchParams", "URL"])


def is_new_collection(node: Any) -> bool:
    """Whether ``node`` is ``new Map(...)`` or ``new Set(...)`` (a new value: a change to it
    changes nothing else)."""
    if type(node) is not dict or len(node) != 1:
        return False
    items = node.get("$global")
    return type(items) is list and bool(items) and items[0] in _GLOBALS


class Changes:
    """The changes an arrow's block makes to its accumulator ``acc``, in order."""

    __slots__ = ("acc", "kind", "parts", "at", "original")

    def __init__(self, acc: str, at: int) -> None:
        self.acc = acc
        #: "object" (keys set), "array" (items pushed) or "collection" (a Map's or Set's set,
        #: add, delete)
        self.kind: str | None = None
        #: object: a `$merge` part per key; array: the items; collection: `[method, *args]`
        self.parts: list[Any] = []
        self.at = at  # the offset of the first change (errors point there)
        #: an expression body `acc.set(k, v)` as written: the call of a registered `set` or
        #: `add` it stays where it is not a `reduce` step from a new Map or Set
        self.original: Any = None

    def value(self) -> Any:
        """The tree of the accumulator after the changes."""
        ref: Any = {"$ref": self.acc}
        if self.kind == "array":
            return [{"$spread": ref}, *self.parts]
        if self.kind == "collection":  # `acc.set(k, v);`: the Map's next version
            for method, *args in self.parts:
                ref = {"$method": [ref, method, *args]}
            return ref
        return {"$merge": [ref, *self.parts]}


def key_set(key: Any, value: Any) -> Any:
    """The ``$merge`` part setting ``key`` (a text, a number, or an expression) to ``value``."""
    return {"$global": ["Object.fromEntries", [[key, value]]]}


def fresh_initial(tree: Any, kind: str) -> bool:
    """Whether the tree of a ``reduce``'s initial value is a literal nothing else holds: an
    object literal for keys set, an array literal for items pushed, ``new Map()``/``new Set()``
    for a Map or a Set changed."""
    if kind == "collection":
        return is_new_collection(tree)
    if kind == "array":
        return type(tree) is list or (
            type(tree) is dict and set(tree) == {"$quote"} and type(tree["$quote"]) is list
        )
    if type(tree) is not dict:
        return False
    if not tree:
        return True
    keys = set(tree)
    if keys == {"$object"} or keys == {"$merge"}:
        return True
    return keys == {"$quote"} and type(tree["$quote"]) is dict
