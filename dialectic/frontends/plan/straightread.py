"""The simplest change statements outside a loop, read straight (SPEC 10, "Changes outside
loops"): ``total += x;``, ``total = total * 2;``, ``count++;``, ``out.push(a, b);``.

:mod:`.reassign` reads a change statement as a loop over one item (its body read as a loop's
body is, statement by statement, then checked), which :mod:`.straight` writes as versions. For
these shapes the loop adds nothing but its cost, so this reads the statement itself, the way a
loop's body reads it (:meth:`.loopchanges.LoopChangesMixin._changes`): the same change, the same
checks of the name (:meth:`.loopcheck.Body.claim`) and of the reads before it (those of
:func:`.loopreads.check_body` a statement without locals needs), then the same trees. Anything
else, or a statement one of them refuses, is left to the loop, which reads it again and gives
its answer (the refusal, with its message and place).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from dialectic.frontends.plan.base import ParseFailure
from dialectic.frontends.plan.keywords import RESERVED
from dialectic.frontends.plan.logicalset import LOGICAL_SETS
from dialectic.frontends.plan.loopbuild import Contribution, scan_reads
from dialectic.frontends.plan.loopcheck import Body
from dialectic.frontends.plan.loopemit import LoopEmitMixin
from dialectic.frontends.plan.straightif import straight_if

if TYPE_CHECKING:
    from dialectic.frontends.plan.blockstate import BlockState
    from dialectic.frontends.plan.loopforms import Each
    from dialectic.frontends.plan.loops import LoopsMixin

__all__ = ["StraightReadMixin"]

_STEPS = frozenset(["++", "--"])
#: `t += v` is a change by `+`; `t *= v` is `t = t * v` (:mod:`.loopchanges`)
_CHANGES = frozenset(["+=", "-="])
_READING = frozenset(["*=", "/=", "%=", "|=", "&=", "^=", "<<=", ">>=", ">>>="])
_Block = tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]]


class StraightReadMixin(LoopEmitMixin):
    """``name op= value;``, ``name++;`` and ``name.push(...);`` of a block, read straight."""

    _loop_return: tuple[str, str] | None = None

    if TYPE_CHECKING:

        def _block_state(self, alias_rec: list[Any]) -> BlockState: ...

        def once(self, pos: int) -> Each: ...

        def for_statement(
            self,
            pos: int,
            aliases: dict[str, Any],
            alias_at: dict[str, int],
            alias_rec: list[tuple[str, int, int, int, int]],
            parent: tuple[Body, str | None] | None = None,
            each: Each | None = None,
        ) -> None: ...

    def change_statement(self, pos: int, block: _Block) -> None:
        """The change statement at token ``pos`` of the ``block``: read straight, or as the
        one-item loop of :mod:`.reassign` (which :mod:`.straight` writes as versions too when
        its body allows)."""
        if self.kinds[pos] == "name" and self.values[pos] == "if":
            if straight_if(cast("LoopsMixin", self), pos, block):  # (:mod:`.straightif`)
                return
        elif self.straight_statement(pos, block):
            return
        self.for_statement(pos, *block, each=self.once(pos))

    def straight_statement(self, pos: int, block: _Block) -> bool:
        """The change statement at token ``pos`` (one :meth:`.reassign.ReassignMixin.
        changes_outside_loop` found) of the ``block`` (its aliases, where each is defined, their
        records), read straight; False (nothing read) to leave it to the one-item loop."""
        kinds, values = self.kinds, self.values
        name = values[pos]
        if kinds[pos] != "name" or name in RESERVED or self._loop_return is not None:
            return False
        op = values[pos + 1] if kinds[pos + 1] == "op" else None
        push = (
            kinds[pos + 1] == "."
            and values[pos + 2] == "push"
            and kinds[pos + 2] == "name"
            and kinds[pos + 3] == "("
        )
        if not (
            push
            or kinds[pos + 1] == "="
            or op in _STEPS
            or op in _CHANGES
            or op in _READING
            or op in LOGICAL_SETS
        ):
            return False
        aliases, alias_at, alias_rec = block
        state = self._block_state(alias_rec)
        body = Body(cast("LoopsMixin", self), aliases, alias_at, alias_rec, state)
        body.once = True
        warned = len(self.warnings)
        try:
            kind, value, first = self._read_change(pos, name, op, push)
            last = self.pos - 1
            body.claim(name, pos, kind)  # (the name's checks, as the loop's)
        except ParseFailure as failure:
            if failure.fatal:
                raise
            self.pos = pos  # (the loop reads it again, and refuses it with its message)
            del self.warnings[warned:]
            return False
        if not self._reads_checked(body, name, value, push):
            self.pos = pos
            del self.warnings[warned:]
            return False
        if value is not None:  # (as :meth:`.loopchanges.LoopChangesMixin._change` keeps it)
            hidden = self.fresh("_push" if push else "_add")
            body.lets[hidden] = value
            self._put(body.lets, hidden, first, last)
        else:
            hidden = None
        body.add_change(name, Contribution(kind, hidden, None, self._span(pos, last)))
        self._emit(body, (name, pos, [0], (pos, pos)), pos, pos)
        return True

    def _read_change(self, pos: int, name: str, op: str | None, push: bool) -> tuple[str, Any, int]:
        """The change at token ``pos``, read as a loop's body reads it: its kind, its value
        (None for ``++``) and the value's first token; ``self.pos`` after the statement."""
        if push:
            self.pos = pos + 4
            args: list[Any] = []
            self.arguments(args, 0)
            self._end("`push(...)`")
            return "push", args, pos
        self.pos = pos + 2
        if op in _STEPS:
            self._end(f"`{op}`")
            return op, None, pos
        first = self.pos
        value = self.expr(0)
        kind = op[0] if op is not None else "="
        if op is None:
            kind, value = self._assignment(name, value, pos)
        elif op in LOGICAL_SETS or op in _READING:  # `t ||= v` is `t || v`, `t *= v` `t * v`
            kind, value = "=", {"$op": [op[:-1], {"$ref": name}, value]}
            self._put(value["$op"], 1, pos, pos)
        self._end("assignment")
        return kind, value, first

    def _reads_checked(self, body: Body, name: str, value: Any, push: bool) -> bool:
        """:func:`.loopreads.check_body`'s checks of a statement with no locals: an array it
        pushes onto is not read whole in the statement, nor before it (a read through its
        members reads the value before, as a number's read does: ``body.old_reads``). False
        where the loop refuses the statement."""
        if push and name in scan_reads(value)[1]:
            return False  # (`xs.push(xs)`)
        state = body.state
        if state.reads(body.aliases).get(name) is None:
            return True
        if push and state.held(body.aliases, name):
            return False  # (`const keep = xs; xs.push(1);`)
        body.old_reads.add(name)
        return True
