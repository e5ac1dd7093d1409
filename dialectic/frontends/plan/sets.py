"""``new Set(xs)`` where JavaScript uses it for distinct items (SPEC 10): ``[...new Set(xs)]``,
``Array.from(new Set(xs))``, ``new Set(xs).size`` and ``new Set(xs).has(x)``, and an alias
``const s = new Set(xs);`` read only so (``s.size``, ``s.has(x)``, ``...s``). The call tree has
no Set: ``{"$global": ["new Set", xs]}`` is its items as an array (first occurrences, in
order), so a Set anywhere else (``return new Set(xs);``, ``f(s)``) is refused: as an array it
would not be what JavaScript has there."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import ParserBase

__all__ = ["SET_GLOBAL", "SetsMixin", "is_set_items", "is_set_spread"]

#: the `$global` of a Set's items
SET_GLOBAL = "new Set"


def is_set_items(node: Any) -> bool:
    """Whether ``node`` is ``{"$global": ["new Set", ...]}``."""
    if type(node) is not dict or len(node) != 1:
        return False
    items = node.get("$global")
    return type(items) is list and bool(items) and items[0] == SET_GLOBAL


def _is_ref_to(node: Any, names: dict[str, int]) -> bool:
    return type(node) is dict and len(node) == 1 and node.get("$ref") in names


def is_set_spread(node: Any) -> bool:
    """Whether ``node`` is ``{"$spread": {"$global": ["new Set", ...]}}``."""
    return type(node) is dict and len(node) == 1 and is_set_items(node.get("$spread"))


class SetsMixin(ParserBase):
    """``new Set(...)`` and the places that take it."""

    if TYPE_CHECKING:  # defined by :class:`.postfix.PostfixMixin`

        def arguments(self, args: list[Any], depth: int) -> None: ...

        def _moved(self, args: list[Any], head: list[Any], skip: int) -> list[Any]: ...

    def new_set(self, pos: int, depth: int) -> Any:
        """``new Set(v)`` at token ``pos`` (``new``, then ``Set`` and ``(``), with a ``.size``
        or ``.has(x)`` right after it; else the items, to be taken by a spread or
        ``Array.from`` (:meth:`take_set`)."""
        kinds, values = self.kinds, self.values
        self.pos = pos + 3
        args: list[Any] = []
        self.arguments(args, depth)
        self._one_argument(args, pos, "new Set(...) takes one array or text: new Set(xs)")
        items = self._moved(args, [SET_GLOBAL], 0)
        node = {"$global": items}
        end = self.pos - 1
        rec = self.rec
        if rec is not None:
            rec[(id(items), 0)] = (self.starts[pos], self.ends[pos + 1])
        p = self.pos
        if kinds[p] != "." or kinds[p + 1] != "name":
            if self._loose_sets is None:
                self._loose_sets = {}
            self._loose_sets[id(node)] = pos
            return node
        member = values[p + 1]
        if member == "size" and kinds[p + 2] != "(":  # the count of distinct items
            self.pos = p + 2
            keys: list[Any] = [node, "length"]
            self._record(keys, [(pos, end), (p + 1, p + 1)])
            return {"$get": keys}
        if member == "has" and kinds[p + 2] == "(":  # SameValueZero, as `includes`
            self.pos = p + 3
            tested: list[Any] = []
            self.arguments(tested, depth)
            self._one_argument(tested, p + 1, "has() takes one value: new Set(xs).has(x)")
            out = self._moved(tested, [node, "includes"], 0)
            if rec is not None:
                rec[(id(out), 0)] = (self.starts[pos], self.ends[end])
                rec[(id(out), 1)] = (self.starts[p + 1], self.ends[p + 1])
            return {"$method": out}
        raise self.fail(
            f"Plan has a Set only for its items, count and membership, not `.{member}`",
            self.starts[p + 1],
            _SET_HINT,
        )

    def _one_argument(self, args: list[Any], at: int, message: str) -> None:
        if len(args) != 1 or (type(args[0]) is dict and "$spread" in args[0]):
            if not args and message.startswith("new Set"):
                args.append(None)  # `new Set()`: empty, as `new Set(null)`
                return
            raise self.fail(message, self.starts[at], _SET_HINT)

    def take_set(self, node: Any) -> bool:
        """Whether ``node`` is a Set made by :meth:`new_set` that a spread or ``Array.from``
        now takes (as its items)."""
        loose = self._loose_sets
        if loose and id(node) in loose and is_set_items(node):
            del loose[id(node)]
            return True
        return False

    def set_alias(self, name: str, value: Any, at: int) -> None:
        """``const name = new Set(xs);``: the alias holds the items; :meth:`set_alias_reads`
        then lets it be read only as a Set's count, membership or items."""
        if self.take_set(value):
            if self._set_aliases is None:
                self._set_aliases = {}
            self._set_aliases[name] = at

    def set_alias_reads(self, roots: list[Any]) -> None:
        """Rewrite the reads of the Set aliases in ``roots`` (the program's aliases and final
        value): ``s.size`` is ``s.length``, ``s.has(x)`` ``s.includes(x)``, ``...s`` and
        ``Array.from(s)`` its items; any other read (``s.length``, ``return s;``, ``f(s)``) or a
        parameter or nested alias of the name is a problem (at the definition)."""
        names = self._set_aliases
        assert names is not None
        kinds, values = self.kinds, self.values
        for i in range(2, len(kinds)):  # `has(s, x)` has the tree of `s.has(x)`: not a Set's
            if (
                kinds[i] == "name"
                and values[i] in names
                and kinds[i - 1] == "("
                and (kinds[i - 2] == "name" and values[i - 2] == "has")
            ):
                return self._bad_set_read(values[i])
        stack: list[Any] = list(roots)
        while stack:
            node = stack.pop()
            if type(node) is list:
                stack.extend(node)
                continue
            if type(node) is not dict:
                continue
            if len(node) == 1:
                ((key, value),) = node.items()
                if key == "$ref":
                    if value in names:
                        return self._bad_set_read(value)
                    continue
                if self._set_read(node, key, value, names, stack):
                    continue
            for key, value in node.items():
                shadowed: set[str] = set()
                if key == "$let" and type(value) is dict:
                    shadowed = names.keys() & value.keys()
                elif key == "$fn" and type(value) is list and value and type(value[0]) is list:
                    shadowed = names.keys() & set(value[0])
                if shadowed:
                    return self._bad_set_read(min(shadowed))
                stack.append(value)
        return None

    def _set_read(
        self, node: dict[str, Any], key: str, value: Any, names: dict[str, int], stack: list[Any]
    ) -> bool:
        """Whether ``node`` (``{key: value}``) is a read of a Set alias that
        :meth:`set_alias_reads` allows (rewritten: ``.size``, ``.has(x)``)."""
        if key == "$spread":
            return _is_ref_to(value, names)  # `...s`: its items
        if (
            type(value) is not list
            or len(value) < 2
            or not _is_ref_to(value[1 if key == "$global" else 0], names)
        ):
            return False
        if key == "$global":
            return value[0] == "Array.from" and len(value) == 2  # `Array.from(s)`: its items
        if key == "$get" and value[1] == "size":
            value[1] = "length"  # `s.size`
            stack.extend(value[2:])
            return True
        if key == "has" and len(value) == 2:  # `s.has(x)`: SameValueZero, as `includes`
            del node["has"]
            node["$method"] = value
            value.insert(1, "includes")
            rec = self.rec
            if rec is not None and (id(value), 1) in rec:
                rec[(id(value), 2)] = rec.pop((id(value), 1))
            stack.append(value[2])
            return True
        return False

    def _bad_set_read(self, name: str) -> None:
        names = self._set_aliases
        assert names is not None
        self.problems.append(
            (
                f"the Set `{name}` can only be read as {name}.size, {name}.has(x), "
                f"[...{name}] or Array.from({name}) (and no parameter or nested alias may "
                "take its name)",
                self.starts[names[name]],
                _SET_HINT,
            )
        )

    def loose_set_problem(self) -> None:
        """A problem for the first Set no spread or ``Array.from`` took."""
        loose = self._loose_sets
        if loose:
            at = min(loose.values())
            self.problems.append(
                (
                    "Plan has a Set only for its items ([...new Set(xs)]), count "
                    "(new Set(xs).size) and membership (new Set(xs).has(x)), not as a value",
                    self.starts[at],
                    _SET_HINT,
                )
            )


_SET_HINT = (
    "for the distinct items write [...new Set(xs)] (or Array.from(new Set(xs))), for their "
    "count new Set(xs).size; to test an item, xs.includes(x)"
)
