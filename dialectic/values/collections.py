"""JavaScript's ``Map`` and ``Set`` as run-time values (SPEC 1.8, "Maps and Sets").

A :class:`JsMap` or :class:`JsSet` is a *version*: the core's values never change, so
``m.set(k, v)`` gives a new version and ``m`` stays what it was (the Plan front end reads
JavaScript's ``m.set(k, v);`` as ``m = m.set(k, v)``). The versions of one Map share one
insertion-ordered dict (Baker's rerooted arrays): the newest version owns it, each older one
holds the change that leads to the next, so a change is O(1) and a read of the newest version
O(1); reading an older one replays the changes between (counted: a program reading old versions
over and over fails instead of growing quadratic). ``delete`` copies (re-inserting a key would
not restore its place in the order).

Keys are compared by SameValueZero over primitives: ``1`` and ``'1'`` are two keys, ``0`` and
``-0`` one, ``true`` is not ``1``. An array or an object as a key is refused: JavaScript
compares them by identity, which the call tree has not. The values never leave the run as they
are: a result, an argument, ``JSON.stringify`` or a template refuses them (:func:`leaving`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import MAX_SAFE, as_double, inexact_integer
from dialectic.values.jsops import JsRefusal, kind

__all__ = [
    "MAX_ENTRIES",
    "Collection",
    "JsIterator",
    "JsMap",
    "JsSet",
    "is_collection",
    "leaving",
    "new_map",
    "new_set",
]

#: the most entries one Map or Set holds
MAX_ENTRIES = 1_000_000
#: replayed changes allowed per change made (and per entry), before a read of old versions fails
_REPLAY_PER_CHANGE = 4
_REPLAY_BASE = 10_000
_ABSENT: Any = object()

_MAP_MEMBERS = "get, has, size, keys(), values(), entries(), and the statements set, delete"
_SET_MEMBERS = "has, size, values(), keys(), entries(), and the statements add, delete"


def _key(x: Any, what: str) -> Any:
    """The dict key of the JavaScript value ``x`` under SameValueZero."""
    t = type(x)
    if t is str or x is None or x is UNDEFINED:
        return x
    if t is float:
        return x  # (0.0 == -0.0, one key; 1.0 == 1 as in JavaScript)
    if t is int:
        if -MAX_SAFE <= x <= MAX_SAFE:
            return x
        d = as_double(x)
        if d != x:
            raise inexact_integer(x, what)
        return d
    if t is bool:
        return (bool, x)  # (True == 1 in Python, not in JavaScript)
    raise JsRefusal(
        f"{what} takes a text, a number, a boolean, null or undefined as a key, not "
        f"{'an ' if kind(x)[0] in 'aeiou' else 'a '}{kind(x)} (JavaScript compares arrays and "
        "objects by identity, which a program's values do not have)",
        "Key by a text or a number: m.set(x.id, x), or JSON.stringify(key) for a compound key.",
    )


def _stored(k: Any, given: Any) -> Any:
    """The key as a Map keeps it: ``-0`` as ``0``, as JavaScript's Map does."""
    return 0 if (type(k) is float or type(k) is int) and k == 0 else given


class _Shared:
    """The dict the versions of one Map or Set share, and who owns it."""

    __slots__ = ("allowed", "current", "data", "replayed")

    def __init__(self, data: dict[Any, Any], current: Collection) -> None:
        self.data = data
        self.current = current
        self.replayed = 0
        self.allowed = _REPLAY_BASE + _REPLAY_PER_CHANGE * len(data)


class Collection:
    """A version of a Map or a Set (see the module)."""

    __slots__ = ("_diff", "_shared")
    _what = "Map"

    def __init__(self, data: dict[Any, Any] | None = None) -> None:
        self._shared = _Shared({} if data is None else data, self)
        self._diff: tuple[Any, Any, Collection] | None = None

    def _data(self) -> dict[Any, Any]:
        """This version's entries (the shared dict, rerooted here if need be)."""
        shared = self._shared
        if shared.current is self:
            return shared.data
        chain: list[Collection] = []
        node: Collection = self
        while shared.current is not node:
            chain.append(node)
            assert node._diff is not None
            node = node._diff[2]
        shared.replayed += len(chain)
        if shared.replayed > shared.allowed:
            raise JsRefusal(
                f"the program reads earlier versions of a {self._what} too often (each read "
                "replays the changes made since)",
                f"Read the {self._what} after its last change, or build it in one step: "
                "new Map(entries).",
            )
        data = shared.data
        for older in reversed(chain):
            assert older._diff is not None
            key, before, newer = older._diff
            now = data.get(key, _ABSENT)
            if before is _ABSENT:
                del data[key]
            else:
                data[key] = before
            newer._diff = (key, now, older)
            older._diff = None
            shared.current = older
        return data

    def _changed(self, key: Any, entry: Any) -> Collection:
        """The next version: this one with ``entry`` at ``key`` (``_ABSENT``: without it)."""
        data = self._data()
        shared = self._shared
        before = data.get(key, _ABSENT)
        if entry is _ABSENT:
            if before is _ABSENT:
                return self
            copy = dict(data)  # (a deleted key put back would move to the end)
            del copy[key]
            return type(self)(copy)
        if before is _ABSENT and len(data) >= MAX_ENTRIES:
            raise JsRefusal(
                f"a {self._what} holds at most {MAX_ENTRIES:,} entries",
                "Work on parts of the data.",
            )
        out = type(self).__new__(type(self))
        out._shared = shared
        out._diff = None
        data[key] = entry
        self._diff = (key, before, out)
        shared.current = out
        shared.allowed += _REPLAY_PER_CHANGE
        return out

    @property
    def size(self) -> int:
        return len(self._data())

    def has(self, key: Any = UNDEFINED) -> bool:
        return _key(key, f"{self._what}.has()") in self._data()

    def member(self, name: Any) -> Any:
        """``m.size`` (any other member is refused, with the members there are)."""
        if name == "size":
            return self.size
        raise JsRefusal(
            f"a {self._what} has no member `{name}` here",
            ("Its count is `size` (`length` is an array's). " if name == "length" else "")
            + f"A {self._what}'s members are: "
            + (_MAP_MEMBERS if self._what == "Map" else _SET_MEMBERS)
            + ".",
        )

    def items(self) -> list[Any]:
        """What ``[...c]`` gives."""
        raise NotImplementedError

    def method(self, name: str) -> Any:
        """The method ``name`` (a bound function), refused for any other name."""
        fn = self._methods().get(name)
        if fn is None:
            if name in ("set", "add", "delete", "clear", "forEach"):
                hint = (
                    f"`{name}` is a statement here: write `c.{name}(...);` on a {self._what} "
                    "defined by `const c = new ...` (SPEC 10, Maps and Sets)"
                )
            else:
                hint = f"A {self._what}'s members are: " + (
                    _MAP_MEMBERS if self._what == "Map" else _SET_MEMBERS
                )
            raise JsRefusal(f"a {self._what} has no method `{name}` here", hint + ".")
        return fn

    def _methods(self) -> dict[str, Any]:
        raise NotImplementedError


class JsMap(Collection):
    """A version of a ``Map``: key -> ``(key as given, value)``."""

    __slots__ = ()
    _what = "Map"
    js_kind = "Map"

    def get(self, key: Any = UNDEFINED) -> Any:
        entry = self._data().get(_key(key, "Map.get()"), _ABSENT)
        return UNDEFINED if entry is _ABSENT else entry[1]

    def set(self, key: Any = UNDEFINED, value: Any = UNDEFINED) -> JsMap:
        k = _key(key, "Map.set()")
        return self._changed(k, (_stored(k, key), value))  # type: ignore[return-value]

    def delete(self, key: Any = UNDEFINED) -> JsMap:
        return self._changed(_key(key, "Map.delete()"), _ABSENT)  # type: ignore[return-value]

    def clear(self) -> JsMap:
        return JsMap()

    def items(self) -> list[Any]:
        return [[k, v] for k, v in self._data().values()]

    def keys(self) -> JsIterator:
        return JsIterator([k for k, _ in self._data().values()])

    def values(self) -> JsIterator:
        return JsIterator([v for _, v in self._data().values()])

    def entries(self) -> JsIterator:
        return JsIterator(self.items())

    def _methods(self) -> dict[str, Any]:
        return {
            "get": self.get,
            "has": self.has,
            "keys": self.keys,
            "values": self.values,
            "entries": self.entries,
            "set": self.set,
            "delete": self.delete,
            "clear": self.clear,
        }


class JsSet(Collection):
    """A version of a ``Set``: key -> the item as given."""

    __slots__ = ()
    _what = "Set"
    js_kind = "Set"

    def add(self, item: Any = UNDEFINED) -> JsSet:
        k = _key(item, "Set.add()")
        if k in self._data():
            return self
        return self._changed(k, _stored(k, item))  # type: ignore[return-value]

    def delete(self, item: Any = UNDEFINED) -> JsSet:
        return self._changed(_key(item, "Set.delete()"), _ABSENT)  # type: ignore[return-value]

    def clear(self) -> JsSet:
        return JsSet()

    def items(self) -> list[Any]:
        return list(self._data().values())

    def values(self) -> JsIterator:
        return JsIterator(self.items())

    def entries(self) -> JsIterator:
        return JsIterator([[x, x] for x in self._data().values()])

    def _methods(self) -> dict[str, Any]:
        return {
            "has": self.has,
            "keys": self.values,
            "values": self.values,
            "entries": self.entries,
            "add": self.add,
            "delete": self.delete,
            "clear": self.clear,
        }


class JsIterator:
    """What ``keys()``, ``values()`` and ``entries()`` give: read only by a spread,
    ``Array.from``, a ``for...of`` loop, ``new Map``/``new Set`` or ``Object.fromEntries``
    (an iterator is not an array: ``.length`` and ``.map`` of it are refused)."""

    __slots__ = ("_items",)
    js_kind = "iterator"

    def __init__(self, items: list[Any]) -> None:
        self._items = items

    def items(self) -> list[Any]:
        return list(self._items)

    def member(self, name: Any) -> Any:
        raise JsRefusal(
            f"an iterator (keys(), values(), entries()) has no member `{name}` here",
            "Make it an array first: [...m.keys()] or Array.from(m.values()).",
        )

    def method(self, name: str) -> Any:
        raise JsRefusal(
            f"an iterator (keys(), values(), entries()) has no method `{name}` here",
            f"Make it an array first: [...m.keys()].{name}(...).",
        )


def is_collection(v: Any) -> bool:
    """Whether ``v`` is a Map, a Set, one of their iterators, or another value that lives
    only in the run (a regular expression: ``run_only``)."""
    t = type(v)
    return t is JsMap or t is JsSet or t is JsIterator or getattr(t, "run_only", False)


def _iterated(v: Any, what: str) -> Iterator[Any]:
    t = type(v)
    if t is list:
        return iter(v)
    if t is JsMap or t is JsSet or t is JsIterator:
        return iter(v.items())
    if v is None or v is UNDEFINED:
        return iter(())
    raise JsRefusal(
        f"{what} takes an array (or a Map, a Set, an iterator), not "
        f"{'an ' if kind(v)[0] in 'aeiou' else 'a '}{kind(v)} (a TypeError in JavaScript)",
        "Give it the array: "
        + ("new Map(Object.entries(obj))" if what == "new Map()" else "new Set(xs)")
        + ".",
    )


def new_map(entries: Any = UNDEFINED) -> JsMap:
    """``new Map(entries)``: each entry an array ``[key, value]``, a later key's value winning
    (the key keeps its first place)."""
    data: dict[Any, Any] = {}
    for entry in _iterated(entries, "new Map()"):
        if type(entry) is not list:
            raise JsRefusal(
                f"new Map() takes [key, value] pairs; an entry is {kind(entry)} "
                "(a TypeError in JavaScript)",
                "Give it pairs: new Map(xs.map(x => [x.id, x])) or new Map(Object.entries(o)).",
            )
        key = entry[0] if entry else UNDEFINED
        k = _key(key, "new Map()")
        data[k] = (_stored(k, key), entry[1] if len(entry) > 1 else UNDEFINED)
        if len(data) > MAX_ENTRIES:
            raise JsRefusal(
                f"a Map holds at most {MAX_ENTRIES:,} entries", "Work on parts of the data."
            )
    return JsMap(data)


def new_set(items: Any = UNDEFINED) -> JsSet:
    """``new Set(xs)``: the distinct items in the order of their first occurrence (a text:
    its code points)."""
    data: dict[Any, Any] = {}
    source = list(items) if type(items) is str else items
    for item in _iterated(source, "new Set()"):
        k = _key(item, "new Set()")
        if k not in data:
            data[k] = _stored(k, item)
            if len(data) > MAX_ENTRIES:
                raise JsRefusal(
                    f"a Set holds at most {MAX_ENTRIES:,} items", "Work on parts of the data."
                )
    return JsSet(data)


def leaving(v: Any) -> JsRefusal:
    """The refusal for a Map, a Set or an iterator leaving the run (a result, an argument, a
    template, ``JSON.stringify``): JavaScript writes ``{}`` or ``Map(2) {...}``, not its
    entries."""
    t = type(v)
    if getattr(t, "run_only", False):
        return v.leaving()  # type: ignore[no-any-return]
    if t is JsMap:
        return JsRefusal(
            "a Map cannot leave the program as it is (JavaScript would write it as {})",
            "Make it data first: Object.fromEntries(m) for an object, [...m] for its "
            "[key, value] pairs, [...m.values()] for its values.",
        )
    if t is JsSet:
        return JsRefusal(
            "a Set cannot leave the program as it is (JavaScript would write it as {})",
            "Make it an array first: [...s] (or Array.from(s)).",
        )
    return JsRefusal(
        "an iterator (keys(), values(), entries()) cannot leave the program as it is",
        "Make it an array first: [...m.keys()] (or Array.from(m.values())).",
    )
