"""The ``try`` statements whose block or handler changes names outside them, or returns from
a loop's body, written for :mod:`.trywrite` (SPEC 10, the `try` bullet): ``const _tryN =
%try(async () => {...; return [0, v, names...];}, async (e) => {...; return [1, w,
names...];});`` and a branch per tag, ``if (_tryN[0] === 0) { list.push(_tryN[1]); }``
(``return _tryN[1];`` for a block's ``return v;``; a ``break;`` ending a block, in its
branch). Each block is declarations, calls run for their effect and guards, then at most one
change as its last statement, so that no change is made before a statement that may fail."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dialectic.frontends.plan.base import Problem
from dialectic.frontends.plan.tokenwrite import TokenWriter
from dialectic.frontends.plan.tryparts import Part, calls_in
from dialectic.frontends.plan.tryreads import ErrorReads
from dialectic.values.jsmethods import ALL_METHODS

if TYPE_CHECKING:
    from dialectic.frontends.plan.trywrite import TryStatement

__all__ = ["RETURN", "TryBranches"]

#: the target of a block's last `return v;`, read as a change (:meth:`TryWriter.emit_try`)
RETURN = "%return"
_GUARD_FIRST = (
    "guard first, testing the value the change makes, then change (a retry's handler: `if "
    "(attempts + 1 >= 3) throw e; attempts++;`)"
)
_FIRST_ONLY = (
    "compute values with `const`, make calls for their effect, guard with `if (test) throw "
    "...;`, and make at most one change of a name outside the block (`list.push(v);`, `name "
    "= v;`, `n++;`) as its last statement"
)


class TryBranches(ErrorReads):
    """The writing of a changing ``try`` (a mixin of :class:`~.trywrite.TryWriter`, which
    sets these up)."""

    w: TokenWriter
    problems: list[Problem]

    def put(self, at: int, *tokens: str) -> None:
        raise NotImplementedError

    def emit(self, first: int, stop: int) -> None:
        raise NotImplementedError

    def emit_part(self, part: Part) -> None:
        raise NotImplementedError

    def open_handler(self, t: TryStatement) -> None:
        raise NotImplementedError

    def fresh(self) -> str:
        raise NotImplementedError

    def emit_changing(
        self,
        t: TryStatement,
        body: list[Part],
        handler: list[Part],
        jumps: tuple[int | None, int | None],
    ) -> int:
        """``const _tryN = %try(...); if (_tryN[0] === 0) {change} else {change}`` (a block's
        ``return v;``: ``if (_tryN[0] === 0) return _tryN[1];``, and its ``break;`` in its
        branch)."""
        changes: list[Part | None] = []
        for parts in (body, handler):
            change = self.last_change(parts)
            if self.problems:
                return t.close + 1
            changes.append(change)
        name = self.fresh()
        if changes == [None, None] and jumps == (None, None):
            self.put(t.at, "%try", "(", "async", "(", ")", "=>")
        else:
            self.put(t.at, "const", name, "=", "%try", "(", "async", "(", ")", "=>")
        self.w.copy(t.body_open, t.body_open + 1)
        self.tagged(body, changes[0], "0", t.body_close)
        self.open_handler(t)
        self.tagged(handler, changes[1], "1", t.close)
        self.w.copy(t.close, t.close + 1)
        self.put(t.close, ")", ";")
        done, other = changes
        if jumps != (None, None) or (done is not None and done.target == RETURN):
            for tag, change, jump in (("0", done, jumps[0]), ("1", other, jumps[1])):
                self.branch(name, tag, change, jump)
            return t.close + 1
        if other is not None and other.target == RETURN:  # the rest is the other branch
            self.put(other.first, "if", "(", name, "[", "0", "]", "===", "1", ")")
            self.put(other.first, "return", name, "[", "1", "]", ";")
            if done is not None:
                self.changed(done, name)
            return t.close + 1
        if done is not None:
            self.put(done.first, "if", "(", name, "[", "0", "]", "===", "0", ")", "{")
            self.changed(done, name)
            self.put(done.first, "}")
            if other is not None:
                self.put(other.first, "else", "{")
                self.changed(other, name)
                self.put(other.first, "}")
        elif other is not None:
            self.put(other.first, "if", "(", name, "[", "0", "]", "===", "1", ")", "{")
            self.changed(other, name)
            self.put(other.first, "}")
        return t.close + 1

    def branch(self, name: str, tag: str, change: Part | None, jump: int | None) -> None:
        """``if (_tryN[0] === tag) { change; break; }`` (``return _tryN[1];``)."""
        if change is None and jump is None:
            return
        at = change.first if change is not None else jump
        assert at is not None
        self.put(at, "if", "(", name, "[", "0", "]", "===", tag, ")")
        if change is not None and change.target == RETURN:
            self.put(at, "return", name, "[", "1", "]", ";")
            return
        self.put(at, "{")
        if change is not None:
            self.changed(change, name)
        if jump is not None:
            self.w.copy(jump, jump + 1)
            self.put(jump, ";")
        self.put(at, "}")

    def last_change(self, parts: list[Part]) -> Part | None:
        """The block's change (its last statement), after checking that every statement is
        one :mod:`.tryparts` reads here."""
        declared: set[object] = set()
        for n, part in enumerate(parts):
            last = n == len(parts) - 1
            allowed = ("decl", "effect", "guard") + (("change", "throw") if last else ())
            if part.kind not in allowed:
                guarded = part.kind == "change" and parts[n + 1].kind == "guard"
                self.fail(
                    "Plan reads this `try` block or handler only as declarations, calls and "
                    "guards, then one change: JavaScript keeps a change made before a later "
                    "statement fails",
                    part.first,
                    _GUARD_FIRST if guarded else _FIRST_ONLY,
                )
                return None
            if part.kind == "decl":
                declared.update(self.declared(part))
            if part.kind == "change":
                key = range(part.first + 1, part.value[0])  # (`o[k] = v`: run after the block)
                names = [k for k in key if self.kinds[k] == "name" and self.kinds[k - 1] != "."]
                if any(self.values[k] in declared for k in names) or calls_in(
                    self.kinds, self.values, key.start, key.stop, ALL_METHODS
                ):
                    self.fail(
                        "the key of this change reads what the block declares or calls a function",
                        part.first,
                        "compute the key before the `try`: `const k = ...;`",
                    )
                    return None
                if part.target in declared:
                    self.fail(
                        f"`{part.target}` is declared inside the block, and changed in it",
                        part.first,
                        f"declare `{part.target}` with its value",
                    )
                    return None
                return part
        return None

    def tagged(self, parts: list[Part], change: Part | None, tag: str, close: int) -> None:
        """A block's statements, its change's value returned with ``tag``: ``return [0,
        v];``."""
        for part in parts:
            if part is not change:
                self.emit_part(part)
        if parts and parts[-1].kind == "throw":
            return
        at = change.first if change is not None else close
        self.put(at, "return", "[", tag, ",")
        if change is not None and change.value[0] < change.value[1]:
            self.emit(*change.value)
        else:  # (`n++`; `return;`)
            self.put(at, "undefined" if change is not None and change.target == RETURN else "0")
        for part in parts:  # its names, so that each runs, as JavaScript runs them
            if part.kind == "decl" and self.kinds[part.first + 1] == "name":
                self.put(at, ",")
                self.w.copy(part.first + 1, part.first + 2)
        self.put(at, "]", ";")

    def changed(self, change: Part, name: str) -> None:
        """The change, its value read from the hidden alias: ``list.push(_try1[1]);``."""
        if change.value == (0, 0):
            self.w.copy(change.first, change.end)
        else:
            v0, v1 = change.value
            self.w.copy(change.first, v0)
            self.put(v0, name, "[", "1", "]")
            self.w.copy(v1, change.end)
        if self.kinds[change.end - 1] != ";":
            self.put(change.end - 1, ";")
