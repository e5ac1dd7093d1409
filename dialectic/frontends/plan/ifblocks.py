"""``if`` statements and the blocks of statements they and other blocks hold (:mod:`.statements`):
an ``if``'s test and branches, a block of alias definitions up to its end and its final
``return`` (or ``use``), and the check that no statement reads an alias of its block defined
after it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.aliasdict import Aliases
from dialectic.frontends.plan.arraychanges import ArrayChangesMixin
from dialectic.frontends.plan.assignchange import AssignChangeMixin
from dialectic.frontends.plan.base import Problem
from dialectic.frontends.plan.datesetters import DateSettersMixin
from dialectic.frontends.plan.ifreturn import TOP_END, IfReturnMixin
from dialectic.frontends.plan.loops import LoopsMixin
from dialectic.frontends.plan.members import MembersMixin
from dialectic.frontends.plan.nestedchanges import NestedChangesMixin
from dialectic.frontends.plan.order import declared_names, first_read, read_before_definition
from dialectic.frontends.plan.readbudget import ReadBudgetMixin
from dialectic.frontends.plan.reassign import ReassignMixin
from dialectic.frontends.plan.restblock import Block
from dialectic.frontends.plan.straightread import StraightReadMixin
from dialectic.frontends.plan.switch import SwitchMixin

__all__ = ["IfBlocksMixin"]


class IfBlocksMixin(
    LoopsMixin,
    AssignChangeMixin,
    MembersMixin,
    ArrayChangesMixin,
    NestedChangesMixin,
    DateSettersMixin,
    ReassignMixin,
    SwitchMixin,
    IfReturnMixin,
    StraightReadMixin,
    ReadBudgetMixin,
):
    """Reads ``if`` statements and blocks; :class:`.statements.StatementsMixin` builds on it."""

    if TYPE_CHECKING:  # defined by :class:`.statements.StatementsMixin`

        def statement(
            self,
            pos: int,
            final: tuple[str, Any, int, int] | None,
            aliases: dict[str, Any],
            alias_at: dict[str, int],
            alias_rec: list[tuple[str, int, int, int, int]],
        ) -> tuple[str, Any, int, int] | None: ...

        def program_tree(
            self,
            aliases: dict[str, Any],
            alias_rec: list[tuple[str, int, int, int, int]],
            final: tuple[str, Any, int, int],
            nested: bool = False,
        ) -> Any: ...

    def if_statement(self, pos: int, end: str) -> tuple[Any, int]:
        """``if (test) { ...; return a; } else ...`` at token ``pos``, as ``test ? a : b``:
        each branch is a block of alias definitions ending in ``return``; without ``else``,
        the statements after the ``if`` (up to ``end``) are the other branch, as in JavaScript.
        Returns the value and its last token."""
        kinds, values = self.kinds, self.values
        self.pos = pos + 2
        test_first = self.pos
        test = self.expr(0)
        if kinds[self.pos] != ")":
            raise self.unexpected(self.tok(self.pos), "`)` after the condition")
        test_last = self.pos - 1
        self.pos += 1
        then_first = self.pos
        then = self.branch()
        then_last = self.pos - 1
        other_first = self.pos
        rest: frozenset[str] = frozenset()  # what the statements after the `if` define
        if kinds[self.pos] == "name" and values[self.pos] == "else":
            self.pos += 1
            other_first = self.pos
            if kinds[self.pos] == "name" and values[self.pos] == "if":
                other, _ = self.if_statement(self.pos, end)
                rest = self._rest_names
            else:
                other = self.branch()
        else:
            block = self._block_ctx
            other = self.block_until(end, rest=True)
            rest = declared_names(other)
            if block is not None and not rest.isdisjoint(block[1]):  # (:mod:`.restblock`)
                rest = rest - block[1].keys()
        if rest:  # JavaScript declares them for the whole block: read before, they throw
            read = first_read(test, rest) or first_read(then, rest)
            if read is not None:
                at = next(
                    (i for i in range(test_first, then_last + 1) if values[i] == read),
                    test_first,
                )
                raise self.fail(
                    f"`{read}` is read before its definition (after this `if`): JavaScript "
                    "throws a ReferenceError there",
                    self.starts[at],
                    f"define `{read}` before the `if`",
                )
        self._rest_names = rest
        other_last = max(self.pos - 1, other_first)
        items: list[Any] = [test, then, other]
        self._record(
            items,
            [(test_first, test_last), (then_first, then_last), (other_first, other_last)],
        )
        return {"$if": items}, other_last

    def branch(self) -> Any:
        """A branch of an ``if``: ``{ statements }`` or one ``return expr;``."""
        kinds, values = self.kinds, self.values
        if kinds[self.pos] == "{":
            self.pos += 1
            value = self.block_until("}", bring=True)
            if kinds[self.pos] != "}":
                raise self.unexpected(self.tok(self.pos), "`}` closing the branch")
            self.pos += 1
            return value
        if kinds[self.pos] == "name" and values[self.pos] == "return":
            start = self.pos
            final = self.final_statement("return", start, None)
            assert final is not None
            return final[1]
        raise self.fail(
            "each branch of `if` ends in `return expr;`",
            self.starts[self.pos],
            "write if (test) { return a; } else { return b; }, or the value test ? a : b",
        )

    def block_until(
        self,
        end: str,
        what: str = "this branch of `if`",
        *,
        rest: bool = False,
        bring: bool = False,
        close: int = -1,
    ) -> Any:
        """Alias definitions and a final ``return`` up to the token kind ``end``: the value, or
        ``{"$let": ..., "$return": ...}`` when the block defines aliases (``what``: the block,
        as errors name it; ``rest``: the statements after an `if`, a `switch` or a loop, the
        rest of the block they stand in; ``rest`` or ``bring``, a branch that returns: the
        values of the enclosing block it changes are brought in, :mod:`.restblock`;
        ``close``: the token ending the block, when it is not a brace's)."""
        outer = (self._block_end, self._ends_undefined, self._block_ctx, self._block_close)
        self._block_end = end
        if not rest:  # (a function's body ends in `undefined`; a branch goes on after it)
            self._ends_undefined = what.startswith(("the arrow", "the function"))
        self._block_close = close if close >= 0 else self.block_close(rest)
        try:
            return self._block_until(end, what, outer[2] if rest or bring else None, rest)
        finally:
            self._block_end, self._ends_undefined, self._block_ctx, self._block_close = outer

    def _block_until(self, end: str, what: str, outer: Block | None, rest: bool) -> Any:
        kinds, values = self.kinds, self.values
        aliases: dict[str, Any] = Aliases()
        alias_at: dict[str, int] = {}
        alias_rec: list[tuple[str, int, int, int, int]] = []
        self._block_ctx = (aliases, alias_at, alias_rec)
        self.bring_changed(outer, self._block_ctx, self._block_close)  # (:mod:`.restblock`)
        final: tuple[str, Any, int, int] | None = None
        while kinds[self.pos] != end and kinds[self.pos] != "eof":
            pos = self.pos
            if kinds[pos] == ";":
                self.pos += 1
                continue
            self.on_time(pos)
            if final is not None:
                raise self.fail(
                    "statements after `return` are not allowed",
                    self.starts[pos],
                    "`return expr;` must be the last statement of its block",
                )
            word = values[pos] if kinds[pos] == "name" else None
            if word == "use":
                raise self.fail(
                    "`use` is allowed only at the top of a program, not inside `if`",
                    self.starts[pos],
                    "return the value in each branch, and `use` the result: use test ? a : b;",
                )
            choice = (  # (else :meth:`statement`: a one-item loop, :mod:`.ifreturn`)
                word in ("if", "switch")
                and kinds[pos + 1] == "("
                and not self.returns_partly(pos)
                and not self.changes_outside_loop(pos, {})
            )
            if choice and word == "if":
                value, last = self.if_statement(pos, end)
                final = ("$return", value, pos, last)
                continue
            if choice:
                value, last = self.switch_statement(pos, end)
                final = ("$return", value, pos, last)
                continue
            before = len(alias_rec)
            final = self.statement(pos, final, aliases, alias_at, alias_rec)
            if rest and end == "eof":  # (the rest of the program, after an `if` without else)
                self.count_read(pos, aliases, alias_rec[before:], None)
        if final is None and rest and end != "eof" and self._ends_undefined:
            # `function f(v) { if (v) return 1; }`: nothing after the `if`, `undefined`
            final = ("$return", {"$undefined": None}, self.pos, self.pos)
        elif final is None and not rest and what.startswith("the function"):
            # `function log(x) { console.log(x); }`: a body that ends gives `undefined`
            final = ("$return", {"$undefined": None}, self.pos, self.pos)
        if final is None:
            top = rest and end == "eof"  # (the rest of the program: no `undefined` there)
            raise self.fail(
                TOP_END[0] if top else f"{what} has no `return`",
                self.starts[self.pos - 1 if top else self.pos],
                TOP_END[1]
                if top
                else "end every branch with `return expr;`"
                if what.endswith("`if`")
                else "end the body with `return expr;`",
            )
        self._block_final = (final[2], final[3])
        if not aliases:
            return final[1]
        problem = self._in_order(aliases, alias_rec)
        if problem is not None:
            raise self.fail(*problem)
        return self.program_tree(aliases, alias_rec, final, nested=True)

    def _in_order(
        self,
        aliases: dict[str, Any],
        alias_rec: list[tuple[str, int, int, int, int]],
        walk: bool = False,
    ) -> Problem | None:
        """The problem of a statement reading an alias of its block defined after it (``walk``:
        look at every statement's tree, not only those whose tokens name a later alias)."""
        return read_before_definition(
            aliases, alias_rec, self.kinds, self.values, self.starts, self.index.where, walk
        )

    def final_statement(
        self, word: str, pos: int, final: tuple[str, Any, int, int] | None
    ) -> tuple[str, Any, int, int] | None:
        """``return expr;`` or ``use expr;`` (``word``) at token ``pos``."""
        kinds = self.kinds
        pos += 1
        self.pos = pos
        bare = kinds[pos] in (";", "}", "eof") or (  # `return;`, `return` before a statement
            word == "return" and self.newline_before(pos) and self.values[pos] in _STATEMENT_WORDS
        )
        if word == "return" and bare:  # `undefined`, as in JavaScript
            if kinds[pos] == ";":  # (before `}` or a statement on the next line, JavaScript
                self.end_statement("`return` statement")  # ends it in every program)
            return final if final is not None else ("$return", {"$undefined": None}, pos, pos - 1)
        if kinds[pos] != ";" and self.newline_before(pos):
            if self.strict:
                raise self.fail(
                    f"the value must start on the same line as `{word}`",
                    self.starts[pos],
                    f"JavaScript ends the statement at the line break; write "
                    f"`{word} expr;` on one line",
                )
            self.warn(self.starts[pos], f"joined the value on the next line to `{word}`")
        value = self.expr(0)
        last = self.pos - 1
        self.end_statement(f"`{word}` statement")
        if final is None:
            final = ("$" + word, value, pos, last)
        return final


#: words that start a statement: `return` before one on the next line is `return;` (ASI)
_STATEMENT_WORDS = frozenset(
    ["return", "const", "let", "var", "if", "for", "while", "do", "switch", "try", "throw",
     "function", "break", "continue"]
)  # fmt: skip
