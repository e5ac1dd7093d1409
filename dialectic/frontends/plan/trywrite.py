"""``try``/``catch`` and ``throw`` written as the core's ``$try`` and ``$throw`` (SPEC 10).

Each statement is rewritten in the token list (:class:`.TokenWriter`: every new token takes
the place of one it stands for, so a problem points into the text as written) into hidden
calls the parser reads as the forms (``%try(...)``, ``%throw(...)``: a name with ``%`` is
never lexed, so no program can write them):

- ``throw X;`` is ``return %throw(X);``: the rest of its block does not run, and the value
  fails when computed (an ``if`` guard becomes an early return of the failure; in a function's
  body, the function's value is the failure; in a ``forEach`` callback, whose ``return`` goes
  on to the next item, the loop reads ``return %throw(...)`` as a statement that fails,
  :mod:`.loops`).
- a ``try`` whose block ends in ``return`` (its handler returns too, or the statements after
  the ``try`` end the handler: JavaScript runs them after it) is the value
  ``return %try(async () => {block}, async (e) => {handler; rest});``, at the top of the
  program or of a function's body. Neither may change a name outside them.
- a ``try`` whose block and handler return nothing is a hidden alias and a test:
  ``const _try1 = %try(async () => {...; return [0, v];}, async (e) => {...; return [1,
  w];}); if (_try1[0] === 0) { list.push(_try1[1]); } else { ... }``: each is declarations,
  calls run for their effect and ``if (t) throw ...;`` guards, then at most one change of a
  name outside it (``list.push(v);``, ``name = v;``, ``name += v;``, ``n++;``) as its last
  statement, so that no change is made before a statement that may fail (JavaScript keeps
  such a change; here the handler would run without it). The loops, ``let`` changes and
  branches read the test as written (SPEC 10).

The handler reads the error as ``e.message``, ``e.name``, ``throw e;`` or as text (``${e}``,
checked and written in the tree by :mod:`.errortext`): the error of a failing call is
``{name: "Error", message}`` with dialectic's message, no JavaScript ``Error``. When it
reads it, the block may
hold one call that may fail: two could run at once, and the first to fail might not be the
one JavaScript meets first. ``break``, ``continue`` and a ``try`` in a ``try`` are refused.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from dialectic.frontends.plan.base import Problem
from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.spans import LineIndex
from dialectic.frontends.plan.tokenwrite import TokenWriter
from dialectic.frontends.plan.trybranches import RETURN, TryBranches
from dialectic.frontends.plan.tryparts import (
    Part,
    block_parts,
    calls_in,
    ends_statement,
    member_changes,
)
from dialectic.frontends.plan.tryreorder import local_reorder
from dialectic.values.jsmethods import ALL_METHODS

__all__ = ["TryStatement", "TryWriter"]

_CHANGE_OPS = frozenset(["+=", "-=", "*=", "/=", "%=", "**=", "++", "--", "||=", "&&=", "??="])
_MUTATORS = frozenset(
    ["push", "pop", "shift", "unshift", "splice", "set", "add", "delete", "clear", "sort"]
)
_NOT_FUNCTION = frozenset(["if", "for", "while", "switch", "catch", "with"])


class TryStatement:
    """Token indexes of one ``try`` statement."""

    __slots__ = (
        "at",
        "holder",
        "body_open",
        "body_close",
        "catch_at",
        "param",
        "handler_open",
        "close",
    )

    def __init__(
        self,
        at: int,
        holder: int | None,
        body_close: int,
        kinds: Sequence[str],
        match: dict[int, int],
    ) -> None:
        self.at = at
        self.holder = holder  # the bracket holding the statement
        self.body_open = at + 1
        self.body_close = body_close
        self.catch_at = body_close + 1
        j = body_close + 2
        self.param: tuple[int, int] | None = None
        if kinds[j] == "(":
            self.param = (j + 1, match[j])
            j = match[j] + 1
        self.handler_open = j
        self.close = match[j]


class TryWriter(TryBranches):
    """Writes the token list with every ``try`` and ``throw`` rewritten; ``problems`` holds
    what it refused."""

    def __init__(
        self,
        tokens: Lexed,
        match: dict[int, int],
        opener: dict[int, int],
        parent: dict[int, int | None],
        index: LineIndex,
    ) -> None:
        self.kinds, self.values = tokens.kinds, tokens.values
        self.match, self.opener, self.parent = match, opener, parent
        self.index = index
        self.w = TokenWriter(tokens)
        self.starts = self.w.starts
        self.tries: dict[int, TryStatement] = {}
        self.throws: set[int] = set()
        self.blocks: set[int] = set()  # the braces of `try` blocks and handlers (arrows here)
        self.problems: list[Problem] = []
        self.names = {v for k, v in zip(tokens.kinds, tokens.values, strict=True) if k == "name"}
        self.made = 0
        self.special: list[int] | None = None  # the `try` and `throw` statements, in order
        self.functions_throw = False  # whether a `throw` stands in a function's body

    # -- where a token stands ---------------------------------------------------------------
    def function_brace(self, brace: int) -> bool:
        """Whether the ``{`` at ``brace`` opens a function's body."""
        kinds, values = self.kinds, self.values
        before = brace - 1
        if before < 0:
            return False
        if kinds[before] == "op" and values[before] == "=>":
            return True
        if kinds[before] != ")":
            return False
        opened = self.opener.get(before, 0)
        word = values[opened - 1] if opened and kinds[opened - 1] == "name" else None
        return word not in _NOT_FUNCTION

    def in_function(self, holder: int | None) -> bool:
        """Whether a statement held by the bracket ``holder`` is in a function's body."""
        while holder is not None:
            if self.kinds[holder] == "{" and self.function_brace(holder):
                return True
            holder = self.parent.get(holder)
        return False

    def fail(self, message: str, at: int, hint: str) -> None:
        self.problems.append((message, self.starts[at], hint))

    # -- writing ----------------------------------------------------------------------------
    def put(self, at: int, *tokens: str) -> None:
        for t in tokens:
            if t[0].isalpha() or t[0] in "_%":
                self.w.put("name", t, at)
            elif t.isdigit():
                self.w.put("num", t, at)
            elif t in ("=>", "==="):
                self.w.put("op", t, at)
            else:
                self.w.put(t, t, at)

    def emit(self, first: int, stop: int) -> None:
        """Tokens ``[first, stop)``, each ``try`` and ``throw`` in them rewritten."""
        special = self.special
        if special is None:
            special = self.special = sorted({*self.tries, *self.throws})
        i = first
        while i < stop and not self.problems:
            k = bisect_left(special, i)
            nxt = special[k] if k < len(special) else stop
            if nxt > i:  # (the tokens up to the next statement to rewrite, as they are)
                self.w.copy(i, min(nxt, stop))
                i = min(nxt, stop)
            elif i in self.tries:
                i = self.emit_try(self.tries[i])
            else:
                i = self.emit_throw(i, stop)

    def emit_throw(self, at: int, stop: int) -> int:
        end = ends_statement(self.kinds, self.match, at, stop)
        last = end - 1 if self.kinds[end - 1] == ";" else end
        if last <= at + 1:
            self.fail("`throw` needs a value", at, "write `throw new Error('what went wrong');`")
            return end
        unclosed = next(
            (
                i
                for i in range(at, last)
                if self.kinds[i] in ("(", "[", "{") and i not in self.match
            ),
            None,
        )
        if unclosed is not None:  # (the program ends inside it: nothing to rewrite)
            self.fail(
                f"this `{self.kinds[unclosed]}` is never closed",
                unclosed,
                "close it: `throw new Error('what went wrong');`",
            )
            return end
        self.put(at, "return", "%throw", "(")
        self.emit(at + 1, last)
        self.put(last - 1, ")", ";")
        return end

    def emit_part(self, part: Part) -> None:
        """A statement of a block or handler (``await`` dropped before a call run for its
        effect: the arrow runs it the same)."""
        first = part.first
        if part.kind == "effect" and self.values[first] == "await":
            first += 1
        self.emit(first, part.end)

    # -- try --------------------------------------------------------------------------------
    def plain(self, t: TryStatement) -> bool:
        """Whether nothing in the block may fail as JavaScript throws (no call of a function
        that is not JavaScript's, no ``JSON.parse``, no ``throw``): then its handler never
        runs, and its statements run as plain statements of the block holding it (any
        ``return``, ``break`` in them too). A program whose functions throw has no such block:
        a function passed by name (``xs.map(check)``) may throw there."""
        if self.functions_throw:
            return False
        first, stop = t.body_open + 1, t.body_close
        if member_changes(self.kinds, self.values, first, stop):
            return False
        return not calls_in(self.kinds, self.values, first, stop, ALL_METHODS)

    def emit_try(self, t: TryStatement) -> int:
        kinds, values = self.kinds, self.values
        if self.plain(t):
            self.emit(t.body_open + 1, t.body_close)
            return t.close + 1
        body, handler = self.parts(t)
        for part in (*body, *handler):
            if part.kind == "decl" and values[part.first] == "var":
                self.fail(
                    "Plan reads no `var` in a `try` block or its handler: JavaScript's `var` "
                    "reaches the whole function",
                    part.first,
                    "declare the name with `let` before the `try`, and set it in the block",
                )
                return t.close + 1
        jumps = (self.jump(body), self.jump(handler))  # (`break;` ending a block: its branch's)
        body, handler = (
            body[: len(body) - (jumps[0] is not None)],
            handler[: len(handler) - (jumps[1] is not None)],
        )
        for word in ("break", "continue"):
            for i in range(t.body_open, t.close):
                if kinds[i] == "name" and values[i] == word and i not in jumps:
                    self.fail(
                        f"Plan reads no `{word}` in a `try` block or its handler",
                        i,
                        f"set a flag in the handler and test it after the `try` (`if (failed) "
                        f"{word};`)",
                    )
                    return t.close + 1
        self.check_error_reads(t)
        if self.problems:
            return t.close + 1
        if self.returning(body, handler):
            if jumps != (None, None) or (
                not self.value_here(t, handler) and body[-1].kind != "throw"
            ):
                body = [*body[:-1], self.returned(body[-1])]
                return self.emit_changing(t, body, handler, jumps)
            return self.emit_returning(t, body, handler)
        if handler and values[handler[-1].first] == "return":  # then the rest of the block
            handler = [*handler[:-1], self.returned(handler[-1])]
        for parts in (body, handler):
            returning = [p for p in parts if self.returns_inside(p) and p.target != RETURN]
            if returning:
                at = returning[0].first
                self.fail(
                    "a `try` block that does not end in `return` and a handler that returns",
                    at,
                    "end the `try` block with `return` too, or set a name in both and return "
                    "after the `try`",
                )
                return t.close + 1
        return self.emit_changing(t, body, handler, jumps)

    def jump(self, parts: list[Part]) -> int | None:
        """The ``break`` or ``continue`` of a block's last statement ``break;``, if it is."""
        if not parts:
            return None
        last = parts[-1]
        word = self.values[last.first]
        if self.kinds[last.first] != "name" or word not in ("break", "continue"):
            return None
        return last.first if last.end - last.first <= 2 else None

    def returned(self, last: Part) -> Part:
        """A block's last ``return v;`` read as a change of the value the ``try`` returns."""
        value = (last.first + 1, last.end - (self.kinds[last.end - 1] == ";"))
        return Part("change", last.first, last.end, RETURN, value)

    def value_here(self, t: TryStatement, handler: list[Part]) -> bool:
        """Whether a ``try`` whose block returns is a value where it stands (the top of the
        program or of a function's body, or with a handler that returns: any block); else
        (in a loop's body: a retry) its block's value is returned after the ``try``, the
        rest of the block the handler's branch (:meth:`emit_changing`)."""
        holder = t.holder
        return holder is None or (
            self.kinds[holder] == "{"
            and (self.returns(handler) or holder in self.blocks or self.function_brace(holder))
        )

    def returning(self, body: list[Part], handler: list[Part]) -> bool:
        """Whether the ``try`` is a value (its block returns; or throws, and its handler
        returns), else the changes it makes."""
        if not self.returns(body):
            return False
        return self.values[body[-1].first] != "throw" or self.returns(handler)

    def parts(self, t: TryStatement) -> tuple[list[Part], list[Part]]:
        """The statements of the block and of the handler."""
        kinds, values, match = self.kinds, self.values, self.match
        return (
            block_parts(kinds, values, match, t.body_open + 1, t.body_close),
            block_parts(kinds, values, match, t.handler_open + 1, t.close),
        )

    def returns(self, parts: list[Part]) -> bool:
        """Whether the last statement returns (``return``, a ``try`` whose block returns)."""
        if not parts:
            return False
        last = parts[-1].first
        inner = self.tries.get(last)
        if inner is not None:
            kinds, values = self.kinds, self.values
            return self.returns(
                block_parts(kinds, values, self.match, inner.body_open + 1, inner.body_close)
            )
        return self.values[last] in ("return", "throw")

    def returns_inside(self, part: Part) -> bool:
        return any(
            self.kinds[i] == "name" and self.values[i] == "return"
            for i in range(part.first, part.end)
        )

    def emit_returning(self, t: TryStatement, body: list[Part], handler: list[Part]) -> int:
        """``return %try(async () => {block}, async (e) => {handler; rest});``."""
        holder = t.holder
        handler_returns = self.returns(handler)
        if holder is not None and not (
            self.kinds[holder] == "{"
            and (handler_returns or holder in self.blocks or self.function_brace(holder))
        ):
            self.fail(
                "Plan reads a `try` block that returns, with a handler that does not, only at "
                "the top of the program or of a function's body",
                t.at,
                "end the handler with `return` too, or set a name in the block and in the "
                "handler and return after the `try`",
            )
            return t.close + 1
        end = self.match[holder] if holder is not None else len(self.kinds) - 1
        rest = block_parts(self.kinds, self.values, self.match, t.close + 1, end)
        if handler_returns and rest:
            self.fail(
                "statements after a `try` whose block and handler both return never run",
                rest[0].first,
                "remove them, or move them into the handler",
            )
            return t.close + 1
        for i in range(t.body_open + 1, end):
            if self.changes(i) and not (
                i < t.body_close and local_reorder(self.kinds, self.values, self.match, i, body)
            ):
                self.fail(
                    "a `try` block that returns may not change a name outside it here",
                    i,
                    "compute the values with `const` and return them",
                )
                return t.close + 1
        if t.param is not None and not handler_returns:
            names = {self.values[k] for k in range(*t.param) if self.kinds[k] == "name"}
            for part in rest:
                for i in range(part.first, part.end):
                    if self.kinds[i] == "name" and self.values[i] in names:
                        self.fail(
                            f"`{self.values[i]}` is the `catch`'s error, which JavaScript "
                            "does not see after the handler",
                            i,
                            "read it inside the handler",
                        )
                        return t.close + 1
        self.put(t.at, "return", "%try", "(", "async", "(", ")", "=>")
        self.w.copy(t.body_open, t.body_open + 1)
        for part in body:
            self.emit_part(part)
        self.open_handler(t)
        for part in handler:
            self.emit_part(part)
        if not handler_returns:
            for part in rest:
                self.emit_part(part)
            if not self.returns(rest):
                self.put(end, "return", "undefined", ";")
        self.w.copy(t.close, t.close + 1)
        self.put(t.close, ")", ";")
        return end if not handler_returns else t.close + 1

    def open_handler(self, t: TryStatement) -> None:
        """``}, async (e) => {``: the block's close and the handler's head."""
        self.w.copy(t.body_close, t.body_close + 1)
        self.put(t.catch_at, ",", "async", "(")
        if t.param is not None:
            self.w.copy(*t.param)
        self.put(t.catch_at, ")", "=>")
        self.w.copy(t.handler_open, t.handler_open + 1)

    def changes(self, i: int) -> bool:
        """Whether token ``i`` changes a name (an assignment that is no declaration's, ``++``,
        a method that changes its array, Map or Set)."""
        kinds, values = self.kinds, self.values
        kind = kinds[i]
        if kind == "op" and values[i] in _CHANGE_OPS:
            return True
        if kind == "=":
            before = i - 1
            if kinds[before] in ("}", "]"):
                before = self.opener.get(before, before)
            return not (before > 0 and values[before - 1] in ("const", "let", "var"))
        return (
            kind == "name"
            and values[i] in _MUTATORS
            and kinds[i - 1] == "."
            and kinds[i + 1] == "("
        )

    def fresh(self) -> str:
        while True:
            self.made += 1
            name = f"_try{self.made}"
            if name not in self.names:
                return name
