"""``d.setDate(x);``, ``d.setHours(0, 0, 0, 0);``... as statements at the top of a block (SPEC
10, "Changes outside loops"), as programs do date arithmetic: ``const d = new Date(start);
d.setDate(d.getDate() + 7); return d.toISOString().slice(0, 10);``.

JavaScript changes the Date itself. The core's values never change, so the statement makes a new
version of the alias, as a sort does (:mod:`.reorder`): the definition so far moves to a hidden
alias (``_d1``, which every read before the statement reads, the setter's arguments too, as
JavaScript reads them before it changes the Date), and the name is from then on
``new Date(new Date(_d1).setDate(x))``: a copy changed by the setter, whose value (the new time)
makes the new version; JavaScript computes the same, and changes only the copy. That is its
answer only when nothing else holds the Date: it must be one the program made (``new
Date(...)``, or a version made so), read before the statement only through its methods or as a
copy (``new Date(d)``): a read of the whole Date (``const start = d;``, ``[d]``, ``{at: d}``)
would see the change in JavaScript, and an operator's read (``d - x``, kept whole by the scan,
:func:`.loopbuild.scan_reads`) is taken as one; else the statement is refused at its place, with
what to write (``d.getTime()`` first).
"""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.base import closing
from dialectic.frontends.plan.loopbuild import scan_reads
from dialectic.frontends.plan.reorder import ReorderMixin, arg_spans
from dialectic.values.jsdate import SETTERS

__all__ = ["DateSettersMixin"]

_Block = tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]]


def _made_date(value: Any) -> bool:
    """Whether the alias's value ``value`` is a Date the program made (``new Date(...)``)."""
    items = value.get("$global") if type(value) is dict and len(value) == 1 else None
    return type(items) is list and bool(items) and items[0] == "Date"


class DateSettersMixin(ReorderMixin):
    """``name.setDate(...);`` and the other setters of a Date, as statements of a block (and
    the sorts of :class:`.ReorderMixin`: the statements that make a version by a method)."""

    def date_setter_statement(self, pos: int, block: _Block) -> bool:
        """The statement at token ``pos`` if it is ``name.setX(...);`` of an alias of the
        ``block`` (its aliases, where each is defined, their records): the alias from then on
        is the changed copy. False when it is no such statement."""
        aliases, alias_at, alias_rec = block
        kinds, values = self.kinds, self.values
        name, method = values[pos], values[pos + 2]
        if not (
            kinds[pos + 1] == "."
            and kinds[pos + 2] == "name"
            and method in SETTERS
            and method != "setYear"
            and kinds[pos + 3] == "("
            and name in aliases
            and name in alias_at
        ):
            return False
        close = closing(kinds, pos + 3)
        if kinds[close] == "eof" or kinds[close + 1] not in (";", "}", "eof"):
            return False  # (`d.setDate(1) > x`: an expression; the resolver refuses it)
        if not _made_date(aliases[name]):
            raise self.fail(
                f"`{method}()` changes `{name}` itself in JavaScript, and `{name}` is not a "
                "Date the program made here (JavaScript would change the Date it holds, seen "
                "everywhere it is held)",
                self.starts[pos],
                f"make a Date of your own first: const {name}2 = new Date({name}); "
                f"{name}2.{method}(...); or, for a `let`, change it on a copy: "
                f"{name} = new Date(new Date({name}).{method}(...));",
            )
        if self.block_reads().whole_reader(aliases, name, self.starts[pos]) is not None:
            raise self.fail(
                f"`{name}` is held whole before `{method}()` changes it: JavaScript shares the "
                "Date, so that value would change too",
                self.starts[pos],
                f"keep a copy or the time instead: const before = new Date({name}); or "
                f"const t = {name}.getTime();",
            )
        call, args, last = self.method_statement(pos, name, method)
        reads: list[dict[str, Any]] = []
        for arg in args:  # (read before the change, as JavaScript reads them)
            scan_reads(arg, reads)
        hidden = self.move_version(name, [r for r in reads if r["$ref"] == name], block, pos)
        copy = ["Date", {"$ref": hidden}]
        items = [{"$global": copy}, method, *args]
        outer = ["Date", {"$method": items}]
        aliases[name] = {"$global": outer}
        alias_at[name] = pos
        alias_rec.append((name, pos, pos, last, self.pos - 1))
        rec = self.rec
        if rec is not None:
            span = (self.starts[pos], self.ends[last])
            rec[(rec.pin(copy), 0)] = rec[(rec.pin(outer), 0)] = (self.starts[pos], self.ends[pos])
            rec[(rec.pin(items), 0)] = rec[(rec.pin(items), 1)] = span
            rec[(rec.pin(aliases[name]), "$global")] = span
            arg_spans(rec, call, items)  # (each argument's place, for its failures)
        return True
