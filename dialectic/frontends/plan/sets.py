"""``new Set(xs)`` where JavaScript uses it for distinct items (SPEC 10): ``[...new Set(xs)]``,
``Array.from(new Set(xs))``, ``new Set(xs).size`` and ``new Set(xs).has(x)`` are its items,
``{"$global": ["new Set", xs]}`` (first occurrences, in order), their length and ``includes``.
Any other ``new Set(xs)`` (``const seen = new Set(ids);``) is a Set as a value,
``{"$global": ["Set", xs]}`` (:mod:`.collections`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.collections import CollectionsMixin

__all__ = ["SET_GLOBAL", "SetsMixin", "is_set_items", "is_set_spread"]

#: the `$global` of a Set's items
SET_GLOBAL = "new Set"


def is_set_items(node: Any) -> bool:
    """Whether ``node`` is ``{"$global": ["new Set", ...]}``."""
    if type(node) is not dict or len(node) != 1:
        return False
    items = node.get("$global")
    return type(items) is list and bool(items) and items[0] == SET_GLOBAL


def is_set_spread(node: Any) -> bool:
    """Whether ``node`` is ``{"$spread": {"$global": ["new Set", ...]}}``."""
    return type(node) is dict and len(node) == 1 and is_set_items(node.get("$spread"))


class SetsMixin(CollectionsMixin):
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
            rec[(rec.pin(items), 0)] = (self.starts[pos], self.ends[pos + 1])
        p = self.pos
        if kinds[p] != "." or kinds[p + 1] != "name":
            return self._loose(node, pos)
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
                rec[(rec.pin(out), 0)] = (self.starts[pos], self.ends[end])
                rec[(rec.pin(out), 1)] = (self.starts[p + 1], self.ends[p + 1])
            return {"$method": out}
        return self._loose(node, pos)  # `new Set(xs).values()`: a Set as a value

    def _loose(self, node: dict[str, Any], pos: int) -> dict[str, Any]:
        """``node`` made at token ``pos``, to be taken as items or else be a value."""
        if self._loose_sets is None:
            self._loose_sets = {}
            self._loose_nodes = []
        self._loose_sets[id(node)] = pos
        self._loose_nodes.append(node)
        return node

    def _one_argument(self, args: list[Any], at: int, message: str) -> None:
        if len(args) != 1 or (type(args[0]) is dict and "$spread" in args[0]):
            if not args and message.startswith("new Set"):
                args.append(None)  # `new Set()`: empty, as `new Set(null)`
                return
            raise self.fail(message, self.starts[at], _SET_HINT)

    #: the Sets made, in order (their ids key ``_loose_sets``: kept alive here)
    _loose_nodes: list[Any]

    def take_set(self, node: Any) -> bool:
        """Whether ``node`` is a Set made by :meth:`new_set` that a spread or ``Array.from``
        now takes (as its items)."""
        loose = self._loose_sets
        if loose and id(node) in loose and is_set_items(node):
            del loose[id(node)]
            return True
        return False

    def loose_sets_as_values(self) -> None:
        """Each Set no spread, ``Array.from``, ``.size`` or ``.has`` took is a Set as a value,
        ``{"$global": ["Set", xs]}`` (:mod:`.collections`)."""
        loose = self._loose_sets
        if not loose:
            return
        for node in self._loose_nodes:
            if id(node) in loose and is_set_items(node):
                node["$global"][0] = "Set"
        loose.clear()


_SET_HINT = (
    "for the distinct items write [...new Set(xs)] (or Array.from(new Set(xs))), for their "
    "count new Set(xs).size; to test an item, xs.includes(x)"
)
