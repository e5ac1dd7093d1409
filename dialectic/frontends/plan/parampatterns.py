"""Destructuring parameters beyond the flat ones (SPEC 10, "Functions"): nested patterns and
defaults, ``({a: {b = 1} = {}} = {}) => b``, ``function f({opts: {limit = 10} = {}} = {})``,
``([first, [second]]) => ...``, ``({n, m = 2}) => n + m``.

Such a parameter is a hidden name (``_argN``), and its names are read from it as a ``const``
pattern reads its value (:meth:`.patterns.PatternsMixin.pattern_parts`: a default applies
only to ``undefined`` and runs only then; an array pattern iterates its value), as aliases of
a block around the body. A default of the whole parameter (``= {}``) is the parameter's
default (:mod:`.functions`), so it applies first, as in JavaScript. The flat patterns keep
their own reads (:mod:`.arrows`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import ParserBase, closing
from dialectic.frontends.plan.patterns import object_rest

__all__ = ["ParamPatternsMixin", "Nested"]


class Nested:
    """A nested (or defaulted) destructuring parameter: its tokens and, once read, each of its
    names (and hidden parts) with its value."""

    __slots__ = ("start", "end", "parts", "bindings")

    def __init__(self, start: int, end: int) -> None:
        self.start = start
        self.end = end
        #: the names the program wrote, with their tokens (for the parameters' checks)
        self.parts: list[tuple[str, Any, int]] = []
        self.bindings: dict[str, Any] | None = None


class ParamPatternsMixin(ParserBase):
    """Reads a :class:`Nested` parameter's names (the parser's :class:`.PatternsMixin` reads
    the pattern)."""

    if TYPE_CHECKING:
        _hidden_name: Callable[[], str]
        _defaults: list[tuple[Any, int, int]]
        _rest_keys: tuple[str, ...]

        def pattern_parts(
            self,
            i: int,
            path: list[Any],
            parts: list[tuple[str, Any, int]],
            gets: list[tuple[list[Any], int]],
            level: int = 0,
        ) -> tuple[int, tuple[str, int, int] | None]: ...

        def _check_defaults(self, names: list[str]) -> None: ...

        def _hidden_param(self, n: int) -> str: ...

    def nested_param(self, i: int) -> Nested | None:
        """The pattern opening at token ``i`` (``[`` or ``{``) if its brackets close, else
        None."""
        kinds = self.kinds
        end = closing(kinds, i)
        if kinds[end] != ("]" if kinds[i] == "[" else "}"):
            return None
        return Nested(i, end)

    def read_nested(self, hidden: str, pat: Nested) -> None:
        """Read the pattern of the parameter ``hidden``: its bindings, and the names written."""
        saved = self.pos  # (a default is read where it is written)
        self._hidden_name = lambda: self._hidden_param(0)
        self._defaults = []
        parts: list[tuple[str, Any, int]] = []
        gets: list[tuple[list[Any], int]] = []
        try:
            _, rest = self.pattern_parts(pat.start, [{"$ref": hidden}], parts, gets)
        finally:
            self.pos = saved
        self._check_defaults([name for name, _, _ in parts])
        for keys, at in gets:  # (each key read at its name, for its failures)
            self._record(keys, [(at, at)] * len(keys))
        bindings = {name: value for name, value, _ in parts}
        kinds, values = self.kinds, self.values
        written: list[tuple[str, Any, int]] = [
            (name, None, at)  # (a hidden part's token is its pattern's bracket)
            for name, _, at in parts
            if kinds[at] == "name" and values[at] == name
        ]
        if rest is not None:
            name, at, index = rest
            if index < 0:  # `{a: {b}, ...others}`: the members but the named ones
                bindings[name] = object_rest(hidden, self._rest_keys)
            else:  # `[[a], ...others]`: the items after (a text's characters too)
                items: list[Any] = [[{"$spread": {"$ref": hidden}}], "slice", index]
                bindings[name] = {"$method": items}
            written.append((name, None, at))
        pat.bindings = bindings
        pat.parts = written
