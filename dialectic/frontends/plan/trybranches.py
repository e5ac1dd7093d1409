"""The ``try`` statements whose block or handler changes names outside them, or returns from
a loop's body, written for :mod:`.trywrite` (SPEC 10, the `try` bullet): ``const _tryN =
%try(async () => {...; return [0, v, names...];}, async (e) => {...; return [1, w,
names...];});`` and a branch per tag, ``if (_tryN[0] === 0) { list.push(_tryN[1]); }``
(``return _tryN[1];`` for a block's ``return v;``; a ``break;`` ending a block, in its
branch). Each block is declarations, calls run for their effect and guards, then at most one
change as its last statement, so that no change is made before a statement that may fail; or
then several changes of different names, each after the first setting a value that cannot fail
(``data = d; ok = true;``: ``return [0, d, true];`` and ``data = _tryN[1]; ok = _tryN[2];``)."""

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
#: names whose read fails or is no value of data (`x = this;`, `y = arguments;`)
_UNSAFE = frozenset(["this", "arguments", "await", "new", "typeof", "void", "delete", "yield"])
_FIRST_ONLY = (
    "compute values with `const`, make calls for their effect, guard with `if (test) throw "
    "...;`, and make at most one change of a name outside the block (`list.push(v);`, `name "
    "= v;`, `n++;`) as its last statement (or end with changes of other names to a literal or "
    "a name: `data = d; ok = true; count++;`)"
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
        changes: list[list[Part]] = []
        param = t.param
        error = (
            str(self.values[param[0]])
            if param is not None and param[1] == param[0] + 1 and self.kinds[param[0]] == "name"
            else None
        )
        for parts, caught in ((body, None), (handler, error)):
            run = self.last_changes(parts, caught)
            if self.problems:
                return t.close + 1
            changes.append(run)
        name = self.fresh()
        if changes == [[], []] and jumps == (None, None):
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
        if jumps != (None, None) or (done and done[-1].target == RETURN):
            for tag, change, jump in (("0", done, jumps[0]), ("1", other, jumps[1])):
                self.branch(name, tag, change, jump)
            return t.close + 1
        if other and other[-1].target == RETURN:  # the rest is the other branch
            self.put(other[0].first, "if", "(", name, "[", "0", "]", "===", "1", ")")
            self.put(other[0].first, "return", name, "[", "1", "]", ";")
            if done:
                self.changed(done, name)
            return t.close + 1
        if done:
            self.put(done[0].first, "if", "(", name, "[", "0", "]", "===", "0", ")", "{")
            self.changed(done, name)
            self.put(done[0].first, "}")
            if other:
                self.put(other[0].first, "else", "{")
                self.changed(other, name)
                self.put(other[0].first, "}")
        elif other:
            self.put(other[0].first, "if", "(", name, "[", "0", "]", "===", "1", ")", "{")
            self.changed(other, name)
            self.put(other[0].first, "}")
        return t.close + 1

    def branch(self, name: str, tag: str, changes: list[Part], jump: int | None) -> None:
        """``if (_tryN[0] === tag) { changes; break; }`` (``return _tryN[1];``)."""
        if not changes and jump is None:
            return
        at = changes[0].first if changes else jump
        assert at is not None
        self.put(at, "if", "(", name, "[", "0", "]", "===", tag, ")")
        if changes and changes[-1].target == RETURN:
            self.put(at, "return", name, "[", "1", "]", ";")
            return
        self.put(at, "{")
        if changes:
            self.changed(changes, name)
        if jump is not None:
            self.w.copy(jump, jump + 1)
            self.put(jump, ";")
        self.put(at, "}")

    def last_changes(self, parts: list[Part], error: str | None = None) -> list[Part]:
        """The block's changes (its last statement; or its last statements, when each after
        the first sets a value that cannot fail, :meth:`quiet_run`; ``error``: the handler's
        parameter), after checking that every statement is one :mod:`.tryparts` reads
        here."""
        declared: set[object] = set()
        run = self.quiet_run(parts, error)
        out: list[Part] = []
        for n, part in enumerate(parts):
            last = n == len(parts) - 1
            allowed = ("decl", "effect", "guard") + (("change", "throw") if last else ())
            if n >= run:
                allowed += ("change",)
            if part.kind not in allowed:
                guarded = part.kind == "change" and any(p.kind == "guard" for p in parts[n:])
                self.fail(
                    "Plan reads this `try` block or handler only as declarations, calls and "
                    "guards, then one change: JavaScript keeps a change made before a later "
                    "statement fails",
                    part.first,
                    _GUARD_FIRST if guarded else _FIRST_ONLY,
                )
                return []
            if part.kind == "decl":
                declared.update(self.declared(part))
            if part.kind == "change":
                key = range(part.first + 1, part.value[0])  # (`o[k] = v`: run after the block)
                if part.value == (0, 0) and self.kinds[part.first] == "name":
                    key = range(part.first + 1, part.end)  # (`o[k]++;`)
                names = [k for k in key if self.kinds[k] == "name" and self.kinds[k - 1] != "."]
                if any(self.values[k] in declared for k in names) or calls_in(
                    self.kinds, self.values, key.start, key.stop, ALL_METHODS
                ):
                    self.fail(
                        "the key of this change reads what the block declares or calls a function",
                        part.first,
                        "compute the key before the `try`: `const k = ...;`",
                    )
                    return []
                if part.target in declared:
                    self.fail(
                        f"`{part.target}` is declared inside the block, and changed in it",
                        part.first,
                        f"declare `{part.target}` with its value",
                    )
                    return []
                out.append(part)
        return out

    def quiet_run(self, parts: list[Part], error: str | None = None) -> int:
        """Where the block's last statements start when they are two or more changes of
        different names, each after the first setting a value that cannot fail and reads
        none of the names they change (``data = d; ok = true; count++;``; in a handler of
        the parameter ``error``, also ``e.message`` and ``e.name``): their values are
        computed in the block, in any order, as JavaScript computes them (else
        ``len(parts)``)."""
        start = len(parts)
        while start > 0 and parts[start - 1].kind == "change":
            start -= 1
        run = parts[start:]
        targets = {part.target for part in run}
        if len(run) < 2 or len(targets) < len(run) or RETURN in targets:
            return len(parts)
        kinds, values = self.kinds, self.values
        for part in run[1:]:
            v0, v1 = part.value
            if v1 - v0 == 2 and kinds[v0] == "-" and kinds[v1 - 1] == "num":
                continue  # (`size = -1;`)
            if (
                v1 - v0 == 3
                and error is not None
                and values[v0] == error
                and kinds[v0 + 1] == "."
                and values[v0 + 2] in ("message", "name")
                and error not in targets
            ):
                continue  # (`failed = true; error = e.message;`: the error's text)
            if v1 - v0 > 1 or (
                v1 - v0 == 1
                and kinds[v0] not in ("num", "str")
                and (kinds[v0] != "name" or values[v0] in targets or values[v0] in _UNSAFE)
            ):
                return len(parts)
        return start

    def tagged(self, parts: list[Part], changes: list[Part], tag: str, close: int) -> None:
        """A block's statements, its changes' values returned with ``tag``: ``return [0, v,
        w];``."""
        for part in parts:
            if not any(part is change for change in changes):
                self.emit_part(part)
        if parts and parts[-1].kind == "throw":
            return
        at = changes[0].first if changes else close
        self.put(at, "return", "[", tag)
        if not changes:
            self.put(at, ",", "0")
        for change in changes:
            self.put(change.first, ",")
            if change.value[0] < change.value[1]:
                self.emit(*change.value)
            else:  # (`n++`; `return;`)
                self.put(change.first, "undefined" if change.target == RETURN else "0")
        for part in parts:  # its names, so that each runs, as JavaScript runs them
            if part.kind == "decl" and self.kinds[part.first + 1] == "name":
                self.put(at, ",")
                self.w.copy(part.first + 1, part.first + 2)
        self.put(at, "]", ";")

    def changed(self, changes: list[Part], name: str) -> None:
        """The changes, each value read from the hidden alias: ``list.push(_try1[1]);``."""
        for n, change in enumerate(changes, 1):
            if change.value == (0, 0):
                self.w.copy(change.first, change.end)
            else:
                v0, v1 = change.value
                self.w.copy(change.first, v0)
                self.put(v0, name, "[", str(n), "]")
                self.w.copy(v1, change.end)
            if self.kinds[change.end - 1] != ";":
                self.put(change.end - 1, ";")
