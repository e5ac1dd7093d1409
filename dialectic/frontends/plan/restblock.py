"""The statements after an `if` that returns (or a loop that returns: :mod:`.loopreturn`):
``let total = 0; if (!orders.length) return 0; for (const o of orders) total += o.n;``.

Those statements are the `else` of the `if` (SPEC 10, "Changes outside loops"): a block of
their own, nested in the tree. A `let`, an array or an object of the enclosing block that they
change is brought into that block first: the enclosing block gets a hidden alias reading the
value there (``_total1 = total``), and the block after the `if` starts with ``total =
_total1``, a copy it may change as the enclosing block could (the checks are the enclosing
block's: `let` or not, an array or object the program wrote, not held whole before). The
enclosing block has nothing after the `if`, so no read there sees the change.

Which names to bring: those a statement after the `if` changes (a name before `=`, a compound
assignment, `++`/`--`, `.push(`, `.set(`, `[k] =`, `.k =`...), found once per program in a
table of the change sites (:meth:`change_sites`), then per block by bisection."""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import CHANGES, ParserBase

if TYPE_CHECKING:
    from dialectic.frontends.plan.blockstate import BlockState

__all__ = ["Block", "Outer", "RestBlockMixin", "is_shared"]

Block = tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]]

#: methods that change their receiver in place, as statements (arrays, Maps, Sets)
_CHANGING = frozenset(
    ["push", "set", "add", "delete", "clear", "unshift", "pop", "shift", "sort", "reverse"]
)


class Outer:
    """A name brought into a block after an `if` that returns: the enclosing block, and
    whether that block read it whole before (JavaScript would see a change through that)."""

    __slots__ = ("block", "held")

    def __init__(self, block: Block, held: bool) -> None:
        self.block = block
        self.held = held


class RestBlockMixin(ParserBase):
    """Brings the enclosing block's values into the block after an `if` that returns."""

    #: the block being read: (aliases, alias_at, alias_rec), and the token closing it
    _block_ctx: Block | None = None
    _block_close = -1
    #: (id of a block's alias_rec, name) -> where a name brought into it comes from
    brought: dict[tuple[int, str], Outer] | None = None
    _sites: tuple[list[int], list[str]] | None = None

    if TYPE_CHECKING:

        def fresh(self, prefix: str) -> str: ...

        def _block_state(self, alias_rec: list[Any]) -> BlockState: ...

    def change_sites(self) -> tuple[list[int], list[str]]:
        """The tokens (in order) of the names that statements change, and those names."""
        sites = self._sites
        if sites is not None:
            return sites
        kinds, values = self.kinds, self.values
        closes = self.brackets().closes
        at: list[int] = []
        names: list[str] = []
        end = len(kinds) - 1
        for i in range(end):
            kind = kinds[i]
            if kind == "op" and values[i] in ("++", "--") and kinds[i + 1] == "name":
                at.append(i + 1)
                names.append(str(values[i + 1]))
                continue
            if kind != "name" or (i and kinds[i - 1] == "."):
                continue
            nxt = kinds[i + 1]
            j = i + 1
            if nxt == "." and kinds[i + 2] == "name":  # (-1: `x.push(`, a change)
                j = -1 if values[i + 2] in _CHANGING and kinds[i + 3] == "(" else i + 3
            elif nxt == "[" and kinds[closes[i + 1]] != "eof":
                j = closes[i + 1] + 1
            if (
                j >= 0
                and j < end
                and not (kinds[j] == "=" or (kinds[j] == "op" and values[j] in CHANGES))
            ):
                continue
            at.append(i)
            names.append(str(values[i]))
        sites = self._sites = (at, names)
        return sites

    def block_close(self, rest: bool) -> int:
        """The token closing the block that starts at ``self.pos`` (``rest``: the statements
        after an `if`, which end where the enclosing block does)."""
        if rest:
            return self._block_close
        before = self.pos - 1
        if before >= 0 and self.kinds[before] == "{":
            return self.brackets().closes[before]
        return len(self.kinds) - 1

    def bring_changed(self, outer: Block | None, block: Block, close: int) -> None:
        """Into ``block`` (the statements after an `if` that returns, up to token ``close``),
        each value of the ``outer`` block those statements change."""
        if outer is None:
            return
        at, names = self.change_sites()
        first = bisect_left(at, self.pos)
        last = bisect_left(at, close)
        if first == last:
            return
        outer_aliases, outer_at, outer_rec = outer
        aliases, alias_at, alias_rec = block
        state = self._block_state(outer_rec)
        brought = self.brought
        if brought is None:
            brought = self.brought = {}
        pos = self.pos
        for name in dict.fromkeys(names[first:last]):
            if name not in outer_at or name not in outer_aliases or name in aliases:
                continue
            held = state.held(outer_aliases, name)  # (before the hidden read below)
            hidden = self.fresh(f"_{name}")
            read = outer_aliases[hidden] = {"$ref": name}
            state.returned.add(id(read))  # (the block it goes to ends the outer one)
            outer_at[hidden] = outer_at[name]
            outer_rec.append((hidden, pos, pos, pos, pos))
            aliases[name] = {"$ref": hidden}
            alias_at[name] = outer_at[name]
            alias_rec.append((name, outer_at[name], pos, pos, pos))
            brought[(id(alias_rec), name)] = Outer(outer, held)

    def brought_from(self, alias_rec: list[Any], name: str) -> Outer | None:
        """Where ``name`` of the block ``alias_rec`` comes from, if it was brought in."""
        brought = self.brought
        return None if brought is None else brought.get((id(alias_rec), name))

    def brought_value(
        self, alias_rec: list[Any], name: str, pos: int, change: tuple[str, str, str]
    ) -> tuple[Outer, Any, Any] | None:
        """For ``name`` brought into the block ``alias_rec``: where from, its value in the
        enclosing block and how that block made it (``None`` when not brought in). Refuses a
        name that block read whole before the `if` (``change``: what the statement does to
        it, what that read would see, and the hint)."""
        outer = self.brought_from(alias_rec, name)
        if outer is None:
            return None
        if outer.held:
            does, seen, hint = change
            raise self.fail(
                f"`{name}` is read whole before the `if` that returns, and {does}: in "
                f"JavaScript that read would see {seen}",
                self.starts[pos],
                hint,
            )
        made = self._block_state(outer.block[2]).finals.get(name)
        return outer, outer.block[0][name], made


def is_shared(family: str) -> bool:
    """Whether a change of ``family`` changes the value in place in JavaScript."""
    return family in ("push", "entry", "collection")
