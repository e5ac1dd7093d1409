"""A block's aliases (name -> tree), a dict that notes each name it sets or removes, so that
what the aliases read (:mod:`.blockreads`) is kept up to date from the names changed since it
was last asked, not by looking at every alias again for each statement that changes a value
in place (that made a block of ``n`` such statements cost ``n * n``).

Reads (``aliases[k]``, ``get``, ``in``, iteration) are the dict's own; only the writes note
the name (each write once, so the notes grow with the program, not faster).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["Aliases"]


class Aliases(dict[str, Any]):
    """A block's aliases; ``changed`` lists the names set or removed, in order (a name may
    appear more than once; a reader keeps how far it has read)."""

    __slots__ = ("changed",)

    def __init__(self) -> None:
        super().__init__()
        self.changed: list[str] = []

    def __setitem__(self, key: str, value: Any) -> None:
        self.changed.append(key)
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self.changed.append(key)
        super().__delitem__(key)

    def pop(self, key: str, *default: Any) -> Any:
        self.changed.append(key)
        return super().pop(key, *default)

    def popitem(self) -> tuple[str, Any]:
        item = super().popitem()
        self.changed.append(item[0])
        return item

    def setdefault(self, key: str, default: Any = None) -> Any:
        self.changed.append(key)
        return super().setdefault(key, default)

    def update(self, *others: Any, **named: Any) -> None:
        for other in others:
            pairs: Iterable[tuple[str, Any]] = (
                other.items() if isinstance(other, Mapping) else other
            )
            for key, value in pairs:
                self[key] = value
        for key, value in named.items():
            self[key] = value

    def clear(self) -> None:
        self.changed.extend(self)
        super().clear()

    def __ior__(self, other: Any) -> Aliases:  # type: ignore[override,misc]
        self.update(other)
        return self
