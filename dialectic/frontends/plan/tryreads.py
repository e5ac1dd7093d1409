"""The reads of a ``catch`` handler's error (SPEC 10, the `try` bullet), checked for
:mod:`.trywrite`: the handler reads the error only as ``e.message``, ``e.name`` or ``throw
e;`` (the error of a failing call is ``{name, message}``, no JavaScript ``Error``), and when
it reads it, the places of the block that may fail run in JavaScript's order, so that the
failure caught is the one JavaScript meets first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from dialectic.frontends.plan.spans import LineIndex
from dialectic.frontends.plan.tryparts import Part, block_parts, calls_in
from dialectic.values.jsmethods import ALL_METHODS

if TYPE_CHECKING:
    from dialectic.frontends.plan.trywrite import TryStatement

__all__ = ["ErrorReads"]


class ErrorReads:
    """The checks (a mixin of :class:`~.trywrite.TryWriter`, which sets these up)."""

    kinds: Sequence[str]
    values: Sequence[object]
    match: dict[int, int]
    starts: Sequence[int]
    index: LineIndex
    tries: dict[int, TryStatement]

    def fail(self, message: str, at: int, hint: str) -> None:
        raise NotImplementedError

    def check_error_reads(self, t: TryStatement) -> None:
        """When the handler reads the error, the block holds places that may fail only in
        JavaScript's order (the reads themselves are checked in the tree, by
        :func:`.errortext.error_as_text`)."""
        kinds, values = self.kinds, self.values
        if t.param is None:
            return
        p0, p1 = t.param
        reads = p1 - p0 != 1  # (a pattern reads it)
        name = values[p0] if p1 - p0 == 1 and kinds[p0] == "name" else None
        shown: set[int] = set()  # a `console` statement's (:mod:`.console`): evaluated and dropped
        for part in block_parts(kinds, values, self.match, t.handler_open + 1, t.close):
            if part.kind == "effect" and kinds[part.first] == "[":
                shown.update(range(part.first, part.end))
        for i in range(t.handler_open + 1, t.close):
            if name is None or kinds[i] != "name" or values[i] != name:
                continue
            if (i > 0 and kinds[i - 1] == ".") or i in shown:
                continue
            if kinds[i + 1] == ":" and kinds[i - 1] in ("{", ","):
                continue  # a key of an object literal (`{error: error.message}`), no read
            reads = True  # (as text, or refused: :func:`.errortext.error_as_text`)
        if not reads:
            return
        first = self.unordered_site(
            block_parts(kinds, values, self.match, t.body_open + 1, t.body_close)
        )
        if first is not None:
            where = self.index.where(self.starts[first[0]])
            self.fail(
                f"the handler reads the error, and the `try` block has another call that may "
                f"fail (at {where}) that this one does not wait for: dialectic may run them "
                "at once, so the failure caught might not be the one JavaScript meets first",
                first[1],
                "give each call its own try/catch, or do not read the error in the handler",
            )

    def unordered_site(self, parts: list[Part]) -> tuple[int, int] | None:
        """Two places of the block that may fail (a call, ``JSON.parse``, ``throw``) where the
        second does not read what the one before declared (so it may run first), or None: each
        statement holds at most one, and each after the first reads, in its arguments (a
        guard: in its test), a name an earlier one declared."""
        kinds, values = self.kinds, self.values
        before: int | None = None
        names: set[object] = set()
        for part in parts:
            if self.waits(part):  # a barrier: what follows runs after what came before
                before = None
                continue
            inner = self.tries.get(part.first)  # (a `try`: what its handler may throw)
            first = part.first if inner is None else inner.handler_open
            sites = calls_in(kinds, values, first, part.end, ALL_METHODS)
            if not sites:
                continue
            unchained = self.unchained(sites)
            if unchained is not None:
                return unchained
            site = sites[-1]  # (the innermost of a chain runs first)
            if part.kind == "guard":
                reads = (part.first + 2, self.match.get(part.first + 1, part.first + 2))
            elif values[site] == "throw":
                reads = (site + 1, part.end)
            else:
                reads = (site + 2, self.match.get(site + 1, site + 2))
            if before is not None and not any(
                kinds[k] == "name" and values[k] in names for k in range(*reads)
            ):
                return before, site
            before = site if not (part.kind == "guard" and before is None) else None
            # (a first guard's test runs first: the rest of the block is its other branch)
            names.update(self.declared(part))
        return None

    def unchained(self, sites: list[int]) -> tuple[int, int] | None:
        """Two places of one statement that may run at once, or None: each place but the first
        stands in the arguments of the one before (``JSON.parse(await read_file(p))``: the
        outer call waits for its argument, so the inner fails first, as in JavaScript)."""
        for outer, inner in zip(sites, sites[1:], strict=False):
            if self.values[outer] == "throw":
                continue  # (`throw f(x)`: the value first)
            close = self.match.get(outer + 1, -1)
            if not outer + 1 < inner < close:
                return outer, inner
        return None

    def waits(self, part: Part) -> bool:
        """Whether the statement is a wait, ``await new Promise(r => setTimeout(r, ms));``
        (SPEC 17, "Waiting"): the calls before it end before it starts, the ones after it
        start after it ended."""
        kinds, values = self.kinds, self.values
        i = part.first + (values[part.first] == "await")
        if part.kind != "effect" or values[i] != "new" or values[i + 1] != "Promise":
            return False
        close = self.match.get(i + 2)
        return close is not None and close + 1 >= part.end - (kinds[part.end - 1] == ";")

    def declared(self, part: Part) -> list[object]:
        """The names a declaration binds (its name, or its pattern's names: more than bound
        when a pattern renames, which only makes a read of them safe), else none."""
        if part.kind != "decl":
            return []
        kinds, values = self.kinds, self.values
        out: list[object] = []
        for k in range(part.first + 1, part.end):
            if kinds[k] == "=":
                break
            if kinds[k] == "name" and kinds[k + 1] != ":":
                out.append(values[k])
        return out
