"""JavaScript's ``Infinity`` and ``-Infinity`` where a value leaves a run (SPEC 5).

Inside a run an infinity is a number like any other (Python's ``inf``), as in JavaScript. JSON
has no literal for it, and ``JSON.stringify`` would write it ``null`` (a wrong answer the reader
cannot tell), so a value that leaves the run holding one (the result, an argument of a
registered function) is refused with where it is: :class:`InfinityLeaving`. The check is folded
into the walk a leaving value gets anyway (:func:`dialectic.values.data.defined`); the path is
looked for only once an infinity was found.
"""

from __future__ import annotations

import math
from typing import Any

from dialectic.outcome.errors import DialecticError, JSONPath, format_path

INFINITIES = (math.inf, -math.inf)

#: what to write instead, in every refusal
HINT = (
    "Replace it before it leaves the run, e.g. `Number.isFinite(x) ? x : null` (an infinity "
    "is a value inside a run, as in JavaScript; JSON has no literal for it)."
)


class InfinityLeaving(Exception):
    """A value leaving the run holds an infinity at ``where`` (a path inside the value)."""

    def __init__(self, value: Any, where: JSONPath) -> None:
        super().__init__("a value leaving the run holds an infinity")
        self.infinity = value
        self.where = where

    def error(self, what: str, path: JSONPath = ()) -> DialecticError:
        """The run's failure: ``what`` (e.g. "the result") holds the infinity, the program's
        ``path`` the expression that made the value."""
        shown = "Infinity" if self.infinity > 0 else "-Infinity"
        at = "" if not self.where else f" at {format_path(self.where, '$')}"
        return DialecticError(
            "invalid_value",
            f"{what} holds {shown}{at}; JSON cannot hold it",
            path,
            hint=HINT,
            details={"value": shown, "at": format_path(self.where, "$")},
        )


def infinity_leaving(value: Any) -> InfinityLeaving | None:
    """The refusal for ``value`` if it holds an infinity: the first one's path, found by a
    walk of the containers (each once: ``value`` may share them); else None."""
    seen: set[int] = set()
    stack: list[tuple[Any, JSONPath]] = [(value, ())]
    while stack:
        v, path = stack.pop()
        t = type(v)
        if t is float and v in INFINITIES:
            return InfinityLeaving(v, path)
        if (t is list or t is dict) and id(v) not in seen:
            seen.add(id(v))
            pairs = v.items() if t is dict else enumerate(v)
            stack.extend((x, (*path, k)) for k, x in reversed(list(pairs)))
    return None


def found_infinity(value: Any) -> InfinityLeaving:
    """The refusal for ``value``, in which a walk found an infinity."""
    leaving = infinity_leaving(value)
    assert leaving is not None
    return leaving
