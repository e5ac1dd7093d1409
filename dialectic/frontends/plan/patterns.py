"""Destructuring definitions: ``const [a, b = 1, ...rest] = e;``, ``const {x, y: {z} = {}} = e;``
(SPEC 10): a hidden alias for the value, and an alias per name reading its part."""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

from dialectic.frontends.plan.base import ParseFailure, ParserBase, closing
from dialectic.frontends.plan.keywords import RESERVED

__all__ = ["PatternsMixin"]


def object_rest(hidden: str, named: tuple[Any, ...]) -> Any:
    """The members of ``hidden``'s value but the ``named`` ones, in their order:
    ``Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'a' && ...))``."""
    entries: Any = {"$global": ["Object.entries", {"$ref": hidden}]}
    if named:
        test: Any = None
        for k in named:
            differs = {"$op": ["!==", {"$get": [{"$ref": "_entry"}, 0]}, k]}
            test = differs if test is None else {"$op": ["&&", test, differs]}
        entries = {"$method": [entries, "filter", {"$fn": [["_entry"], test]}]}
    return {"$global": ["Object.fromEntries", entries]}


class PatternsMixin(ParserBase):
    """Destructuring patterns; the statements' parser (:class:`StatementsMixin`) builds on it."""

    #: the next hidden alias of the destructuring being read (`destructure` sets it)
    _hidden_name: Callable[[], str]
    #: the defaults of the destructuring being read: (default, how many of its parts are
    #: defined before it, its first token)
    _defaults: list[tuple[Any, int, int]]
    _parts_before = 0
    #: where the search for a free `_partsN` of each block's aliases starts (by their id)
    _parts_starts: dict[int, tuple[Container[str], int]] | None = None

    def destructure(
        self,
        pos: int,
        aliases: Container[str],
        depth: int = 0,
        fresh: Callable[[], str] | None = None,
    ) -> list[tuple[str, Any, int, int, int]]:
        """``const [a, b, ...rest] = expr;`` / ``const {x, y: z = 1} = expr;`` from the declarator
        at token ``pos``: a hidden alias for the value, and one alias per name reading its part
        (a default: a hidden alias more for a defaulted nested pattern); its hidden names are
        none of ``aliases`` (or ``fresh``'s). Returns ``(name, value, name token, first and
        last token of the value)`` entries; ``depth`` is the nesting of the statement (an
        arrow's body)."""
        kinds = self.kinds
        taken: set[str] = set()
        # the search for a free name starts where the last one of these aliases ended (from
        # `_parts1` each time, a block of n destructurings was quadratic: 3,000 took 14 s); the
        # container is kept beside its id, which stays its own
        starts = self._parts_starts
        if starts is None:
            starts = self._parts_starts = {}
        held = starts.get(id(aliases))
        first_free = held[1] if held is not None and held[0] is aliases else 1

        def hidden_name() -> str:
            nonlocal first_free
            n = first_free
            while f"_parts{n}" in aliases or f"_parts{n}" in taken:
                n += 1
            taken.add(f"_parts{n}")
            first_free = n
            starts[id(aliases)] = (aliases, n)
            return f"_parts{n}"

        if fresh is not None:
            hidden_name = fresh
        hidden = hidden_name()
        self._hidden_name = hidden_name
        self._defaults = []
        parts: list[tuple[str, Any, int]] = []  # alias name, value, name token
        gets: list[tuple[list[Any], int]] = []  # the reads of the value, with their token
        i, rest = self.pattern_parts(pos + 1, [{"$ref": hidden}], parts, gets)
        if kinds[i + 1] != "=":
            raise self.unexpected(self.tok(i + 1), "`=` after the pattern")
        self.pos = i + 2
        first = self.pos
        value = self.expr(depth)
        last = self.pos - 1
        self.end_statement("destructuring definition")
        self._check_defaults([name for name, _, _ in parts])
        out: list[tuple[str, Any, int, int, int]] = [(hidden, value, pos, first, last)]
        rec = self.rec
        if rec is not None:
            for keys, at in gets:
                if keys[0]["$ref"] == hidden:
                    rec[(rec.pin(keys), 0)] = (self.starts[first], self.ends[last])
                for k in range(len(keys)):
                    rec.setdefault((rec.pin(keys), k), (self.starts[at], self.ends[at]))
        declared = str(self.values[pos])  # (`let [a, b] = ...; a = 5;`: a `let` changed)
        if self._declarators is None:
            self._declarators = {}
        for name, read, at in parts:
            out.append((name, read, at, at, at))
            self._declarators[at] = declared
        if rest is not None and rest[2] < 0:  # `const {a, ...others} = v;`
            name, at, _ = rest
            out.append((name, self._object_rest(hidden, self._rest_keys), at, at, at))
            self._declarators[at] = declared
        elif rest is not None:  # the items after the named ones: `[...v].slice(n)` (an array
            name, at, index = rest  # of a text's characters too, as JavaScript iterates it)
            spread = {"$spread": {"$ref": hidden}}
            items: list[Any] = [[spread], "slice", index]
            self._record(items, [(first, last), (at, at), (at, at)])
            out.append((name, {"$method": items}, at, at, at))
            self._declarators[at] = declared
        return out

    _rest_keys: tuple[str, ...] = ()

    @staticmethod
    def _object_rest(hidden: str, named: tuple[str, ...]) -> Any:
        return object_rest(hidden, named)

    def _read_part(
        self, path: list[Any], at: int, gets: list[tuple[list[Any], int]]
    ) -> dict[str, Any]:
        """The read of the part at ``path`` (a hidden alias, then keys and indexes)."""
        if len(path) == 1:
            return dict(path[0])  # the whole value
        items = list(path)
        gets.append((items, at))
        return {"$get": items}

    def _defaulted(
        self, i: int, path: list[Any], at: int, gets: list[tuple[list[Any], int]], depth: int
    ) -> tuple[Any, int]:
        """The part at ``path`` with the default written at token ``i`` (after its `=`), as
        JavaScript applies it: only when the part is `undefined` (missing; not `null`), and
        only then is the default evaluated: ``part === undefined ? default : part``.
        Returns the value and the token after the default."""
        self.pos = i + 1
        default = self.expr(depth + 1)
        self._defaults.append((default, self._parts_before, i + 1))
        after = self.pos
        test_items: list[Any] = ["===", self._read_part(path, at, gets), {"$undefined": None}]
        items: list[Any] = [{"$op": test_items}, default, self._read_part(path, at, gets)]
        self._record(test_items, [(at, at)] * 3)
        self._record(items, [(at, after - 1), (i + 1, after - 1), (at, at)])
        return {"$if": items}, after

    def pattern_parts(
        self,
        i: int,
        path: list[Any],
        parts: list[tuple[str, Any, int]],
        gets: list[tuple[list[Any], int]],
        level: int = 0,
    ) -> tuple[int, tuple[str, int, int] | None]:
        """The pattern opening at token ``i`` (``[`` or ``{``), read from the value at ``path``
        (a hidden alias's reference, then keys and indexes): each name with the read of its
        part goes to ``parts`` (nested patterns too: ``{data: {items: [first]}}``; holes:
        ``[, b]``; defaults: ``{a = 1, b: {c} = {}}``, a hidden alias holding a defaulted
        nested part). Returns the closer's token and the top level's ``...rest`` (alias name,
        name token, from index); ``level`` counts the patterns around it."""
        kinds, values = self.kinds, self.values
        opener = kinds[i]
        closer = "]" if opener == "[" else "}"
        if level >= self.max_depth:
            raise self.fail(
                f"the pattern is nested more than {self.max_depth} levels deep",
                self.starts[i],
                "read deep parts with member access: a = v.x.y;",
            )
        if opener == "[":
            # JavaScript iterates the value: a text by code points (`const [a, b, c] = '😀xy'`
            # gives 'y' as c, where '😀xy'[2] is 'x'), an object is an error (also when a
            # default would apply: `const [a = 1] = {};` throws): `[...part]`
            hidden = self._hidden_name()
            spread: list[Any] = [{"$spread": self._read_part(path, i, gets)}]
            self._record(spread, [(i, i)])
            parts.append((hidden, spread, i))
            path = [{"$ref": hidden}]
        i += 1
        index = 0
        rest: tuple[str, int, int] | None = None
        named: list[str] = []  # an object pattern's keys (its rest has the others)
        while kinds[i] != closer:
            if opener == "[" and kinds[i] == ",":  # a hole: `[, b]`
                index += 1
                i += 1
                continue
            if kinds[i] == "op" and values[i] == "...":
                rest = self._pattern_rest(i, closer, index)
                if level > 0:  # `{data: [first, ...others]}`: the rest of the inner value
                    self._inner_rest(rest, opener, path, named, parts, gets)
                    rest = None
                elif opener == "{":
                    self._rest_keys = tuple(named)
                    rest = (rest[0], rest[1], -1)
                i += 2
                break
            key: Any = index
            if opener == "{" and kinds[i] == "name" and kinds[i + 1] == ":":
                key = values[i]
                i += 2
                if kinds[i] not in ("[", "{", "name") or (
                    kinds[i] == "name" and values[i] in RESERVED
                ):
                    raise self.unexpected(self.tok(i), "a name or a pattern after `:`")
            elif opener == "{" and kinds[i] == "name":
                key = values[i]
            elif opener == "{":
                raise self._not_a_pattern(i)
            if opener == "{":
                named.append(str(key))
            i = self._pattern_element(i, [*path, key], parts, gets, level)
            index += 1
            if kinds[i] == ",":
                i += 1
            elif kinds[i] != closer:
                raise self.unexpected(self.tok(i), f"`,` or `{closer}`")
        return i, rest

    def _inner_rest(
        self,
        rest: tuple[str, int, int],
        opener: str,
        path: list[Any],
        named: list[str],
        parts: list[tuple[str, Any, int]],
        gets: list[tuple[list[Any], int]],
    ) -> None:
        """``...name`` last in a nested pattern: an array pattern's items after the named ones
        (``path`` is the hidden alias holding ``[...part]``), an object pattern's members but
        the named ones (of a hidden alias for the part)."""
        name, at, index = rest
        if opener == "[":
            items: list[Any] = [dict(path[0]), "slice", index]
            self._record(items, [(at, at)] * 3)
            parts.append((name, {"$method": items}, at))
            return
        hidden = self._hidden_name()
        parts.append((hidden, self._read_part(path, at, gets), at))
        parts.append((name, object_rest(hidden, tuple(named)), at))

    def _pattern_element(
        self,
        i: int,
        path: list[Any],
        parts: list[tuple[str, Any, int]],
        gets: list[tuple[list[Any], int]],
        level: int,
    ) -> int:
        """The name or nested pattern at token ``i`` reading the part at ``path``, with its
        default if one follows: its entries go to ``parts``. Returns the token after it."""
        kinds, values = self.kinds, self.values
        if kinds[i] in ("[", "{"):  # `[[a, b], c]`, `{data: {items}}`
            end = self._pattern_end(i)
            if kinds[end + 1] == "=":
                self._parts_before = len(parts)
                value, after = self._defaulted(end + 1, path, i, gets, level)
                hidden = self._hidden_name()
                parts.append((hidden, value, i))
                self.pattern_parts(i, [{"$ref": hidden}], parts, gets, level + 1)
                return after
            end, _ = self.pattern_parts(i, path, parts, gets, level + 1)
            return end + 1
        if kinds[i] != "name" or values[i] in RESERVED:
            raise self._not_a_pattern(i)
        if kinds[i + 1] == "=":
            self._parts_before = len(parts)
            value, after = self._defaulted(i + 1, path, i, gets, level)
            parts.append((values[i], value, i))
            return after
        parts.append((values[i], self._read_part(path, i, gets), i))
        return i + 1

    def _check_defaults(self, names: list[str]) -> None:
        """A default reading a name its pattern defines at or after it: JavaScript throws a
        ReferenceError there (`const {a = b, b} = v;`), so the program is refused."""
        place: dict[str, int] = {}
        for n, name in enumerate(names):
            place.setdefault(name, n)
        for default, before, at in self._defaults:
            stack = [default]
            while stack:
                node = stack.pop()
                if isinstance(node, list):
                    stack.extend(node)
                elif isinstance(node, dict):
                    ref = node.get("$ref")
                    if isinstance(ref, str) and place.get(ref, -1) >= before:
                        raise self.fail(
                            f"the default reads `{ref}` before the pattern defines it "
                            "(JavaScript throws a ReferenceError when the default applies)",
                            self.starts[at],
                            "define the name first: const {a, b = a} = v;",
                        )
                    stack.extend(node.values())

    def _not_a_pattern(self, i: int) -> ParseFailure:
        return self.fail(
            "only names and patterns can be destructured: const [a, [b, c]] = ...; "
            "const {x, y: {z}} = ...",
            self.starts[i],
            "no computed keys: read the part with member access, a = v[k];",
        )

    def _pattern_end(self, i: int) -> int:
        """The token closing the bracket that opens at token ``i`` (never closed: a problem at
        the end of the program)."""
        end = closing(self.kinds, i)
        if self.kinds[end] == "eof":
            raise self.unexpected(self.tok(end), "the end of the pattern")
        return end

    def _pattern_rest(self, i: int, closer: str, index: int) -> tuple[str, int, int]:
        """``...name`` at token ``i``, last in its pattern: (name, token, index)."""
        kinds, values = self.kinds, self.values
        if kinds[i + 1] != "name" or values[i + 1] in RESERVED:
            raise self.unexpected(self.tok(i + 1), "a name after `...`")
        if kinds[i + 2] != closer:
            raise self.fail(
                "`...rest` must be the last element of the pattern",
                self.starts[i + 2],
                "write const [a, b, ...rest] = v;",
            )
        return (values[i + 1], i + 1, index)
