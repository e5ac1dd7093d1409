"""Statements that change a value outside a loop, as code-mode programs write them (SPEC 10,
"Changes outside loops"):

    let status = 'low';
    if (n > 5) { status = 'high'; }          // an `if` without `return` that changes values
    let total = 0; total += x; count++;      // a `let` assigned again
    const out = []; out.push(1);             // an array literal pushed to

Each such statement is read as a loop over one item, ``for (const _once1 of [0]) { ... }``
(:mod:`.loops`): the loop machinery already makes each change a new version of the name, under
the hidden boolean of its `if` branch, and gives the name after the statement the value it
leaves, so every read sees JavaScript's value in JavaScript's order. `break` and `continue` there
are refused, as JavaScript refuses them outside a loop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dialectic.frontends.plan.base import CHANGES, ParserBase
from dialectic.frontends.plan.loopforms import Each
from dialectic.frontends.plan.straightif import if_shape
from dialectic.frontends.plan.tokenscan import OPEN

__all__ = ["ReassignMixin"]

#: `++x;`, `--x;`
_STEPS = frozenset(["++", "--"])
_LOOPS = frozenset(["for", "while", "do"])


class ReassignMixin(ParserBase):
    """Finds a statement that changes a value outside a loop, and its one-item loop."""

    #: the last `if` statement :meth:`changes_outside_loop` saw (its token) and its last token
    #: when its branches only change names (:func:`.straightif.if_shape`), else None
    if_shaped: tuple[int, int | None] = (-1, None)

    if TYPE_CHECKING:

        def fresh(self, prefix: str) -> str: ...

        def loop_end(self, pos: int) -> int: ...

    def changes_outside_loop(self, pos: int, alias_at: dict[str, int]) -> bool:
        """Whether the statement at token ``pos`` is an `if` without `return` (its changes
        are the point), an assignment of a `let` defined before it in the block (``alias_at``),
        or a push to an alias."""
        kinds, values = self.kinds, self.values
        kind = kinds[pos]
        if kind == "op" and values[pos] in _STEPS and kinds[pos + 1] == "name":
            return self._is_let(str(values[pos + 1]), alias_at)
        if kind != "name":
            return False
        word = str(values[pos])
        if word == "if" and kinds[pos + 1] == "(":
            shaped = if_shape(kinds, self.values, self.brackets().closes, pos)
            self.if_shaped = (pos, shaped)  # (:func:`.straightif.straight_if` reads it)
            end = self._if_end(pos) if shaped is None else shaped
            return kinds[end] != "eof" and not self.brackets().returns_between(pos, end)
        if word == "switch" and kinds[pos + 1] == "(":  # cases that `break` (:mod:`.loopswitch`)
            end = self._switch_end(pos)
            return kinds[end] != "eof" and not self.brackets().returns_between(pos, end)
        if word not in alias_at or self.declarator(pos) is not None:
            return False  # (`let x = 1; let x = 2;`: JavaScript's SyntaxError, no assignment)
        nxt = kinds[pos + 1]
        if nxt == "=" or (nxt == "op" and values[pos + 1] in CHANGES):
            return self._is_let(word, alias_at)
        return (
            nxt == "."
            and values[pos + 2] in ("push", "pop")
            and kinds[pos + 2] == "name"
            and kinds[pos + 3] == "("
        )

    def once(self, pos: int) -> Each:
        """The one-item loop of the statement at token ``pos`` (``self.pos`` there)."""
        kinds = self.kinds
        if kinds[pos] == "name" and self.values[pos] == "if":
            end = self._if_end(pos)
        elif kinds[pos] == "name" and self.values[pos] == "switch":
            end = self._switch_end(pos)
        else:
            end = self._branch_end(pos)  # (its `;`, or its last token before a `}`)
        name = self.fresh("_once")
        self.pos = pos
        return Each((name, pos, [0], (pos, pos)), end, False, statement=True)

    def _is_let(self, name: str, alias_at: dict[str, int]) -> bool:
        at = alias_at.get(name)
        if at is None or at == 0:
            return False
        return self.declarator(at) in ("let", "var")

    def _switch_end(self, pos: int) -> int:
        """The `}` closing the `switch` at token ``pos`` (or the end)."""
        kinds = self.kinds
        closes = self.brackets().closes
        close = closes[pos + 1]
        if kinds[close] == "eof" or kinds[close + 1] != "{":
            return close if kinds[close] == "eof" else close + 1
        return closes[close + 1]

    def _if_end(self, pos: int) -> int:
        """The last token of the `if` statement at token ``pos`` (its `else` chain too)."""
        kinds, values = self.kinds, self.values
        while True:
            close = self.brackets().closes[pos + 1]  # the test's `)`
            if kinds[close] == "eof":
                return close
            end = self._branch_end(close + 1)
            if kinds[end] == "eof":
                return end
            nxt = end + 1
            if kinds[nxt] == "name" and values[nxt] == "else":
                if kinds[nxt + 1] == "name" and values[nxt + 1] == "if":
                    pos = nxt + 1
                    continue
                return self._branch_end(nxt + 1)
            return end

    def _branch_end(self, i: int) -> int:
        """The last token of the branch that starts at token ``i``: a block's `}`, or a
        statement's `;` (an `if` inside, with its `else`)."""
        kinds, values = self.kinds, self.values
        closes = self.brackets().closes
        if kinds[i] == "{":
            return closes[i]
        if kinds[i] == "name" and values[i] == "if" and kinds[i + 1] == "(":
            return self._if_end(i)
        if (
            kinds[i] == "name"
            and values[i] in _LOOPS
            and (values[i] == "do" or kinds[i + 1] == "(")
        ):
            return self.loop_end(i)
        while kinds[i] not in (";", "}", "eof"):
            if kinds[i] in OPEN:
                i = closes[i]
                if kinds[i] == "eof":
                    return i
            i += 1
        return i if kinds[i] == ";" else i - 1
