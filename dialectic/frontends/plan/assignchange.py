"""``Object.assign(stats, {avg, max});`` as a statement on an object the block wrote: each
source's members set on it, as :mod:`.members` reads ``stats.avg = v;`` (SPEC 10,
"Semantics"). The alias is from then on ``{...stats, ...sources}``, which is JavaScript's
object after the call (a key already there keeps its place, a new one goes last; a null or
undefined source adds nothing), under the same conditions as a member set: an object literal of
the block (or a deep copy, or a tool's reply), not read whole before the change. Any other
``Object.assign(target, ...)`` whose target is no new object literal stays refused
(:meth:`.callforms.CallFormsMixin._assign`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import closing
from dialectic.frontends.plan.loopbuild import scan_reads
from dialectic.frontends.plan.members import MembersMixin

__all__ = ["AssignChangeMixin"]

#: a block's aliases, where each is defined, and their records (:mod:`.statements`)
_Block = tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]]
#: the tokens that may follow the call's `)` for it to be a statement of its own
_ENDS = frozenset([";", "}", "eof"])


class AssignChangeMixin(MembersMixin):
    """``Object.assign(name, ...sources);`` on an alias of the block."""

    if TYPE_CHECKING:  # defined by :class:`.postfix.PostfixMixin`

        def arguments(self, args: list[Any], depth: int) -> None: ...

    def assign_change(self, pos: int, block: _Block) -> bool:
        """The statement at token ``pos`` (``Object``) if it is ``Object.assign(name, ...);``
        with ``name`` an alias of the ``block``; False when it is no such statement."""
        kinds, values = self.kinds, self.values
        if (
            values[pos + 1 : pos + 3] != [".", "assign"]
            or kinds[pos + 1] != "."
            or kinds[pos + 3] != "("
            or kinds[pos + 4] != "name"
            or kinds[pos + 5] != ","
        ):
            return False
        aliases, alias_at, alias_rec = block
        name = values[pos + 4]
        if name not in alias_at or name not in aliases:
            return False
        close = closing(kinds, pos + 3)
        if kinds[close] == "eof" or not (
            kinds[close + 1] in _ENDS or self.newline_before(close + 1)
        ):
            return False  # (`Object.assign(o, x).k`: the call's value is read)
        self._check_member_change(name, pos + 4, aliases, alias_rec)
        merged: list[Any] = [{"$ref": name}]
        self.pos = pos + 6
        self.arguments(merged, 0)
        last = self.pos - 1
        self.end_statement(f"change to `{name}`")
        reads: list[dict[str, Any]] = []
        for source in merged[1:]:
            if type(source) is dict and len(source) == 1 and "$spread" in source:
                raise self.fail(
                    "a spread argument of `Object.assign`",
                    self.starts[pos],
                    "pass the objects one by one",
                )
            if name in scan_reads(source, reads)[1]:
                raise self.fail(
                    f"the change to `{name}` holds `{name}` itself (JavaScript would make the "
                    "object contain itself)",
                    self.starts[pos + 6],
                    f"read the members you need: {name}.key",
                )
        reads = [n for n in reads if n.get("$ref") == name]
        hidden = self.move_version(name, reads, block, pos + 4)
        merged[0] = {"$ref": hidden}
        aliases[name] = {"$merge": merged}
        alias_rec.append((name, pos + 4, pos, last, self.pos - 1))
        rec = self.rec
        if rec is not None:
            rec[(rec.pin(merged), 0)] = (self.starts[pos + 4], self.ends[pos + 4])
        return True
