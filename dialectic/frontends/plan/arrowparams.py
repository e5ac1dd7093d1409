"""The shapes an arrow function's parameters are read into (:mod:`.arrows`): a flat
destructuring pattern, a pattern's ``...rest``, a function's defaults and rest parameter, and
where a default value ends; and an expression body's chain of ``acc.set``/``acc.add`` calls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dialectic.frontends.plan.accumulator import CHANGES as NEXT_VERSION
from dialectic.frontends.plan.patterns import object_rest
from dialectic.frontends.plan.tokenscan import expression_end


class _Pattern:
    """A flat destructuring parameter: its tokens (``[`` / ``{`` to the closer) and, per name,
    the index or key it reads and its token."""

    __slots__ = ("start", "end", "parts")

    def __init__(self, start: int, end: int, parts: list[tuple[str, Any, int]]) -> None:
        self.start = start
        self.end = end
        self.parts = parts


def _set_chain(body: Any, acc: str) -> list[list[Any]] | None:
    """``acc.set(k, v)``, ``acc.add(x)`` or a chain of them (``acc.set(a, 1).set(b, 2)``), as
    an expression body reads them (calls of ``set``/``add``: not JavaScript's methods of a
    value), in order; None for anything else."""
    parts: list[list[Any]] = []
    while type(body) is dict and len(body) == 1 and ("set" in body or "add" in body):
        ((method, called),) = body.items()
        if type(called) is not list or not called:
            return None
        if len(called) - 1 != NEXT_VERSION[method]:
            return None
        parts.append([method, *called[1:]])
        body = called[0]
    if body != {"$ref": acc} or not parts:
        return None
    parts.reverse()
    return parts


class _Rest:
    """The key of a pattern's ``...rest``: the index it starts at (an array pattern) or the
    keys named before it (an object pattern)."""

    __slots__ = ("after",)

    def __init__(self, after: int | tuple[Any, ...]) -> None:
        self.after = after

    def read(self, source: str) -> Any:
        """The rest of ``source``'s value: ``v.slice(i)`` (``v`` is already its items), or the
        members but the named ones, in their order."""
        after = self.after
        if isinstance(after, int):
            return {"$method": [{"$ref": source}, "slice", after]}
        return object_rest(source, after)


class ParamExtras:
    """A function's parameter defaults (each parameter's name: the first token of its value
    and the token after it) and its rest parameter's token (-1: none)."""

    __slots__ = ("defaults", "rest")

    def __init__(self) -> None:
        self.defaults: dict[str, tuple[int, int]] = {}
        self.rest = -1


def _default_end(kinds: Sequence[str], i: int) -> int:
    """The token after a parameter's default value starting at token ``i`` (its `,` or `)`
    outside brackets), -1 if there is none."""
    end = expression_end(kinds, i, (",",))
    return end if end > i and kinds[end] in (",", ")") else -1
