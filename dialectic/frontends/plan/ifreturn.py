"""An `if` (or a `switch`) of a block that returns in some branches and goes on in others
(SPEC 10, "Changes outside loops"): ``let s; if (ok) { s = 'a'; } else { return 'b'; }
return s;``.

A block's `if` whose branches all end in `return` is the choice ``test ? a : b``
(:meth:`.statements.StatementsMixin.if_statement`), the statements after it being its `else`
when it has none. One where a branch may end without `return` (a branch with none, an `if`
without `else` or a loop as its last statement, a `switch` case ending in `break`) is read as
the one-item loop of :mod:`.reassign` that returns, as a loop of a block that returns is
(:mod:`.loopreturn`): each `return value;` sets a hidden result and ends the statement, and the
statements after it are the `else` of ``if (returned) return result;``. So the statements after
the `if` run only when no branch returned, in JavaScript's order, and are read once (never
copied into each branch).

Whether a branch ends in `return` is read on the tokens (:meth:`IfReturnMixin.ends_in_return`):
its last statement is `return`, a block ending so, an `if` with `else` whose branches both end
so, or a `switch` with `default` whose cases all do. Each statement's answer is kept, so the
reading is linear in the tokens however deep the `if`s nest."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dialectic.frontends.plan.base import ParseFailure, ParserBase

if TYPE_CHECKING:
    from dialectic.frontends.plan.loopforms import Each

__all__ = ["TOP_END", "IfReturnMixin"]

#: the rest of the program after an `if` (or a `try`) that returns in some branches is empty:
#: refused (a program ends with a `return`, SPEC 10), with where and what to write
TOP_END = (
    "the program may end here without `return` (when no branch before returns: "
    "JavaScript's value would be `undefined`)",
    "end the program with `return value;` (`return null;` for nothing)",
)

_LOOPS = frozenset(["for", "while", "do"])
#: what follows a name that starts an object literal, not a block statement: `{a: 1}`, `{a}`
_IN_OBJECT = frozenset([":", ",", "}", "("])


class IfReturnMixin(ParserBase):
    """Finds the `if` and `switch` statements of a block that may end without `return`."""

    _ends_memo: dict[int, bool] | None = None

    if TYPE_CHECKING:  # defined by the other mixins

        def _if_end(self, pos: int) -> int: ...

        def _switch_end(self, pos: int) -> int: ...

        def _branch_end(self, i: int) -> int: ...

        def loop_end(self, pos: int) -> int: ...

        def _blocks_end(self, first: int) -> int | None: ...

        def once(self, pos: int) -> Each: ...

    def returns_partly(self, pos: int) -> bool:
        """Whether the `if` or `switch` statement at token ``pos`` holds a `return` and is not
        the choice of a block (a branch, or a case, may end without `return`)."""
        kinds, values = self.kinds, self.values
        if kinds[pos] != "name" or kinds[pos + 1] != "(":
            return False
        word = values[pos]
        if word == "if":
            end = self._if_end(pos)
        elif word == "switch":
            end = self._switch_end(pos)
        else:
            return False
        if kinds[end] == "eof" or not self.brackets().returns_between(pos, end):
            return False
        return not (self._if_is_choice(pos) if word == "if" else self._cases_all_return(pos))

    def bare_block(self, pos: int) -> bool:
        """Whether token ``pos`` opens a block statement (`{ const y = 1; ... }`, `{ t = 1; }`):
        a `{` followed by a statement, not what an object literal holds (`{a: 1}`, `{a, b}`:
        lenient mode's final value)."""
        kinds = self.kinds
        return (
            kinds[pos] == "{"
            and kinds[pos + 1] == "name"
            and kinds[pos + 2] not in _IN_OBJECT
            and self.values[pos + 1] != "use"
        )

    def _if_is_choice(self, pos: int) -> bool:
        """Whether the `if` at token ``pos`` is a choice: its first branch ends in `return`,
        and its `else` (if any) too, or is such an `if` (the rest of the block follows)."""
        kinds, values = self.kinds, self.values
        close = self.brackets().closes[pos + 1]
        if kinds[close] == "eof" or not self.ends_in_return(close + 1):
            return False
        end = self._branch_end(close + 1)
        other = end + 1
        if not (kinds[other] == "name" and values[other] == "else"):
            return True
        other += 1
        if kinds[other] == "name" and values[other] == "if" and kinds[other + 1] == "(":
            return self._if_is_choice(other)
        return self.ends_in_return(other)

    def ends_in_return(self, i: int) -> bool:
        """Whether the statement at token ``i`` always ends in `return` (kept per token)."""
        memo = self._ends_memo
        if memo is None:
            memo = self._ends_memo = {}
        found = memo.get(i)
        if found is None:
            found = memo[i] = self._returns_at(i)
        return found

    def _returns_at(self, i: int) -> bool:
        kinds, values = self.kinds, self.values
        kind = kinds[i]
        if kind == "{":
            close = self.brackets().closes[i]
            return self.ends_in_return(self.last_statement(i + 1, close))
        if kind != "name":
            return False
        word = values[i]
        if word == "return" or word == "use":  # (`use` in a branch: refused there)
            return True
        if word == "if" and kinds[i + 1] == "(":
            close = self.brackets().closes[i + 1]
            if kinds[close] == "eof" or not self.ends_in_return(close + 1):
                return False
            other = self._branch_end(close + 1) + 1
            if not (kinds[other] == "name" and values[other] == "else"):
                return False
            return self.ends_in_return(other + 1)
        if word == "switch" and kinds[i + 1] == "(":
            return self._cases_all_return(i, need_default=True)
        return False

    def last_statement(self, first: int, close: int) -> int:
        """The first token of the last statement between tokens ``first`` and ``close``
        (``close`` when there is none)."""
        kinds = self.kinds
        last = close
        i = first
        while i < close:
            if kinds[i] == ";":
                i += 1
                continue
            last = i
            i = max(self._last_token_of(i), i) + 1
        return last

    def _last_token_of(self, i: int) -> int:
        """The last token of the statement at token ``i``."""
        kinds, values = self.kinds, self.values
        word = values[i] if kinds[i] == "name" else None
        if word == "switch" and kinds[i + 1] == "(":
            return self._switch_end(i)
        if word in ("try", "function", "async"):
            end = self._blocks_end(i)
            if end is not None:
                return end - 1
        if word in _LOOPS and (word == "do" or kinds[i + 1] == "("):
            return self.loop_end(i)
        return self._branch_end(i)

    def _cases_all_return(self, pos: int, need_default: bool = False) -> bool:
        """Whether each case of the `switch` at token ``pos`` that has statements ends in
        `return` (``need_default``: and it has a `default`, so no value goes past it)."""
        from dialectic.frontends.plan.switch import case_labels

        kinds, values = self.kinds, self.values
        opened = self.brackets().closes[pos + 1] + 1
        if kinds[opened] != "{":
            return True  # (the switch's own reading reports it)
        close = self.brackets().closes[opened]
        try:
            labels = case_labels(self, opened, close)
        except ParseFailure:
            return True
        default = False
        for n, label in enumerate(labels):
            default = default or values[label] == "default"
            first = self._label_colon(label, close) + 1
            end = labels[n + 1] if n + 1 < len(labels) else close
            last = self.last_statement(first, end)
            if last != end and not self.ends_in_return(last):
                return False
        return default or not need_default

    def _label_colon(self, label: int, close: int) -> int:
        """The `:` ending the `case` or `default` label at token ``label``."""
        kinds = self.kinds
        closes = self.brackets().closes
        i = label + 1
        pending = 0  # `?` of a conditional in the case's value, waiting for its `:`
        while i < close:
            kind = kinds[i]
            if kind in ("(", "[", "{"):
                i = closes[i]
            elif kind == "op" and self.values[i] == "?":
                pending += 1
            elif kind == ":":
                if not pending:
                    return i
                pending -= 1
            i += 1
        return close - 1
