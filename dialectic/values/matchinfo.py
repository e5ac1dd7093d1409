"""The members of a regex match array (SPEC 1.8, "Regular expressions"): ``m.index`` (the
match's place, in UTF-16 code units), ``m.input`` (the text) and ``m.groups`` (the named
groups, ``undefined`` without any). The array stays a plain ``list`` (``m[1]``, ``m.length``,
``JSON.stringify(m)``, a spread or a destructuring read it as an array, as in JavaScript,
where a copy of it has none of these members); its members are kept beside it, in a table of
the run that made it (:data:`OWNER`, set by the compiled method around the call: a match made
without one has no members and reading them is refused, as before).

The table holds each array (so no other list can take its ``id``) until the run's state is
freed."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from typing import Any

from dialectic.values.data import UNDEFINED

__all__ = [
    "MEMBERS",
    "NOT_A_MATCH",
    "OWNER",
    "carry",
    "match_fields",
    "match_member",
    "named_groups",
    "remember",
]

#: the run (its state) whose calls are making match arrays, or None
OWNER: ContextVar[Any] = ContextVar("regex_match_owner", default=None)

#: the members a match array has beyond an array's
MEMBERS = frozenset({"index", "input", "groups"})

#: id(array) -> (the array, its index, its input, its groups, the ids of its run's arrays)
_TABLE: dict[int, tuple[list[Any], int, str, Any, list[int]]] = {}

#: the attribute of a run's state holding the ids its arrays are kept under
_KEYS_OF = "_match_keys"
#: the weak references to the states of runs that keep arrays (each removes their entries
#: when its state is freed)
_REFS: set[weakref.ref[Any]] = set()


def _keys_of(owner: Any) -> list[int]:
    keys: list[int] | None = getattr(owner, _KEYS_OF, None)
    if keys is None:
        keys = []
        setattr(owner, _KEYS_OF, keys)

        def forget(ref: weakref.ref[Any], keys: list[int] = keys) -> None:
            _REFS.discard(ref)
            for key in keys:
                _TABLE.pop(key, None)

        _REFS.add(weakref.ref(owner, forget))
    return keys


def remember(found: list[list[Any]], places: list[int], text: str, groups: list[Any]) -> None:
    """Keep the match arrays ``found`` of ``text`` with their members (``places``: each one's
    index; ``groups``: each one's named groups, or empty when the pattern names none) for
    the run that makes them."""
    owner = OWNER.get()
    if owner is None:
        return
    keys = _keys_of(owner)
    table = _TABLE
    for i, array in enumerate(found):
        key = id(array)
        keys.append(key)
        table[key] = (array, places[i], text, groups[i] if groups else UNDEFINED, keys)


def carry(copies: dict[int, Any], copy: Callable[[Any], Any]) -> None:
    """``structuredClone``'s copies (id of the original -> its copy) of match arrays keep
    their members, as JavaScript copies them (``groups`` copied with ``copy``)."""
    if not _TABLE:
        return
    for key, new in copies.items():
        entry = _TABLE.get(key)
        if entry is not None and type(new) is list:
            keys = entry[4]
            keys.append(id(new))
            _TABLE[id(new)] = (new, entry[1], entry[2], copy(entry[3]), keys)


def match_fields(value: list[Any]) -> list[tuple[str, Any]]:
    """The members of the match array ``value`` after its items, as ``Object.keys``,
    ``entries`` and ``for...in`` list them (none for any other array)."""
    entry = _TABLE.get(id(value)) if _TABLE else None
    if entry is None or entry[0] is not value:
        return []
    return [("index", entry[1]), ("input", entry[2]), ("groups", entry[3])]


#: what :func:`match_member` gives for an array that is no match array
NOT_A_MATCH: Any = object()


def match_member(value: list[Any], name: str) -> Any:
    """``value.index``, ``.input`` or ``.groups`` of a match array, else ``NOT_A_MATCH``."""
    entry = _TABLE.get(id(value))
    if entry is None or entry[0] is not value:
        return NOT_A_MATCH
    if name == "index":
        return entry[1]
    if name == "input":
        return entry[2]
    return entry[3]


def named_groups(names: Sequence[str | None], groups: list[Any]) -> dict[str, Any]:
    """The ``groups`` member: the named groups' values in the pattern's order (an unmatched
    one ``undefined``)."""
    return {n: groups[i + 1] for i, n in enumerate(names) if n is not None}
