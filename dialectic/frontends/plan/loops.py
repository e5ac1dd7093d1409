"""``for (const x of xs) { ... }`` (SPEC 10, "Loops"): read as the constructs the core has.

One loop becomes a hidden alias ``_loopN = [...xs].map(x => { ...; return record; })``, run
as an expression statement (JavaScript runs every loop), whose record holds what one iteration
adds to each accumulator; each accumulator is then an alias after the loop
(``out = [..._out1, ..._loopN.flatMap(r => r.a0)]``, ``total = _loopN.reduce(step, _total1)``),
its definition before the loop renamed to a hidden alias. The body's statements are flattened
into the arrow's aliases: a statement inside ``if`` is computed only when its hidden condition
alias is true, ``continue`` makes the rest of the body conditional. Anything else is refused at
its place (:mod:`.loopbody` reads the body's statements, :mod:`.loopcheck` holds the checks of
names and scopes)."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.base import DECLARATORS, ParseFailure, closing
from dialectic.frontends.plan.blockstate import BlockState
from dialectic.frontends.plan.keywords import GLOBAL_NAMES, RESERVED, hides_global
from dialectic.frontends.plan.loopbody import LoopBodyMixin
from dialectic.frontends.plan.loopbuild import ref
from dialectic.frontends.plan.loopcheck import Body
from dialectic.frontends.plan.loopfor import c_style_parts, read_c_style, unscope
from dialectic.frontends.plan.loopforms import Each
from dialectic.frontends.plan.loopreads import check_body
from dialectic.frontends.plan.loopwhile import body_start, read_while, skip_do_test

__all__ = ["LoopsMixin"]

_AFTER = "`for (const x of xs) { ... }`"
#: how deep loops may nest in one another
MAX_NESTING = 8


class LoopsMixin(LoopBodyMixin):
    """``for...of`` statements; :class:`.statements.StatementsMixin` builds on it."""

    _blocks: dict[int, BlockState] | None = None

    def _loop_pattern(
        self, at: int, value: dict[str, Any]
    ) -> tuple[int, list[tuple[str, Any, int]], tuple[str, int, int] | None, list[Any]]:
        """The pattern opening at token ``at`` read from ``value`` (a hidden name's reference):
        its closer's token, each name with the read of its part (defaults applied as in a
        `const` pattern: :mod:`.patterns`), the top level's ``...rest``, and the reads made
        (their places: :meth:`_place_reads`)."""
        self._hidden_name = lambda: self.fresh("_parts")
        self._defaults = []
        parts: list[tuple[str, Any, int]] = []
        gets: list[tuple[list[Any], int]] = []
        saved = self.pos  # (a default is read where it is written)
        close, rest = self.pattern_parts(at, [value], parts, gets)
        self.pos = saved
        self._check_defaults([name for name, _, _ in parts])
        return close, parts, rest, gets

    def _place_reads(self, gets: list[Any], value: dict[str, Any], first: int, last: int) -> None:
        """The places of a pattern's reads: the value read (tokens ``first`` to ``last``), then
        each key at its name."""
        for keys, tok in gets:
            if keys[0] == value:
                self._put(keys, 0, first, last)
            for k in range(1, len(keys)):
                self._put(keys, k, tok, tok)

    def _block_state(self, alias_rec: list[Any]) -> BlockState:
        blocks = self._blocks
        if blocks is None:
            blocks = self._blocks = {}
        state = blocks.get(id(alias_rec))
        if state is None:
            state = blocks[id(alias_rec)] = BlockState(alias_rec)
        return state

    # -- the statement -------------------------------------------------------------------------

    def for_statement(
        self,
        pos: int,
        aliases: dict[str, Any],
        alias_at: dict[str, int],
        alias_rec: list[tuple[str, int, int, int, int]],
        parent: tuple[Body, str | None] | None = None,
        each: Each | None = None,
    ) -> None:
        """``for (const x of xs) body`` at token ``pos``: its aliases go to the block's, or,
        for a loop inside a loop (``parent``: the enclosing body and the reach there), to the
        enclosing loop's body. ``each``: the loop is the statement ``xs.forEach(...)``
        (:mod:`.loopforms`), its header read already."""
        is_while = self.values[pos] in ("while", "do") and each is None
        header = (
            (None, pos, None, (pos, pos))
            if is_while
            else self._header(pos)
            if each is None
            else each.header
        )
        outer = None if parent is None else parent[0]
        body = Body(self, aliases, alias_at, alias_rec, self._block_state(alias_rec), outer)
        target, self._loop_return = self._loop_return, None
        if outer is None:  # a loop of a block that returns (:mod:`.loopreturn`)
            body.ret = target
        if body.depth > MAX_NESTING:
            raise self.fail(
                f"loops nested more than {MAX_NESTING} deep",
                self.starts[pos],
                "loop over a flattened list: xs.flatMap(x => x.items)",
            )
        body_first = body_start(self, pos) if is_while else self.pos
        parts = None
        names: list[str] = []
        if header is None:  # `for (let i = 1; i < n; i *= 2)` (:mod:`.loopfor`)
            parts = c_style_parts(self, pos)
            if parts is None:
                raise self._c_style(pos)
            if outer is not None:
                raise self.fail(
                    "inside a loop or a callback's body, a C-style loop is only a count "
                    "(`i < n` with `i++` or `i += 2`)",
                    self.starts[pos],
                    "declare its variables before it and write while: let i = 0; let j = "
                    "s.length - 1; while (i < j) { ...; i++; j--; }",
                )
            body_first = parts[2] + 1
        try:
            if is_while:  # `while (test)`, `do` (:mod:`.loopwhile`)
                header, body_first = read_while(self, pos, body)
            elif parts is not None:
                header, body_first, names = read_c_style(
                    self, pos, body, parts, (aliases, alias_at, alias_rec)
                )
            else:
                assert header is not None
                self._read_for(body, header, each)
        except ParseFailure as failure:
            if failure.fatal or parent is not None:
                raise
            problem = failure.problem
            if each is not None and each.statement:  # (:mod:`.reassign`: no loop is written)
                hint = problem[2]
                problem = (
                    problem[0].replace("the loop", "the statement"),
                    problem[1],
                    None if hint is None else hint.replace("the loop", "the statement"),
                )
            self.problems.append(problem)
            self._skip_loop(body_first)
            if is_while:  # a `do` loop's `while (...);`
                skip_do_test(self, pos)
            if each is not None:  # to after `xs.forEach(...);` (or the statement)
                end = each.close if each.awaited is None else each.awaited
                after = min(end + 1, len(self.kinds) - 1)
                self.pos = after + (self.kinds[after] == ";")
            return
        assert header is not None
        if parent is None:
            self._emit(body, header, pos, body_first)
            if names:  # (the loop's own variables leave the block's scope)
                unscope(self, names, (aliases, alias_at, alias_rec))
        else:
            self._emit_nested(body, header, pos, body_first, *parent)

    def _read_for(
        self, body: Body, header: tuple[str | None, int, Any, tuple[int, int]], each: Each | None
    ) -> None:
        """A ``for`` loop's (or ``forEach``'s) variable and body, checked."""
        self._bind_item(body, header)
        if each is not None:
            body.each = not each.statement
            if each.awaited is not None:
                body.each_call = "`await Promise.all(xs.map(...))`"
            body.once = each.statement
            for name, tok, value in each.locals:
                self._local(body, name, tok, value, tok, tok)
        self._loop_body(body, self._going(body), each)
        if each is not None and each.awaited is not None:
            self._expect(")", "`)` closing `map(`")
            self._expect(")", "`)` closing `Promise.all(`")
            self._end("`await Promise.all(...)` statement")
        elif each is not None and not each.statement:
            self._expect(")", "`)` closing `forEach(`")
            self._end("`forEach` statement")
        check_body(self, body, header[2], header[3])

    def _loop_body(self, body: Body, start: str | None, each: Each | None) -> None:
        """The loop's body: a block, or one statement."""
        if self.kinds[self.pos] == "{":
            self.pos += 1
            self._block(body, start, "}")
            self._expect("}", "`}` closing the loop's body")
        elif each is not None and each.expression:
            self.kinds[each.close] = ";"  # `xs.forEach(x => out.push(x))`: one statement
            try:
                self._branch(body, start)
            finally:
                self.kinds[each.close] = ")"
            self.pos -= 1
        else:
            self._branch(body, start)

    def _going(self, body: Body) -> str | None:
        """For a loop with `break` (a fold whose state says when it is done): the hidden
        alias saying that the iteration runs, which every statement of the body needs."""
        if not self._breaks(self.pos) and not (
            body.ret is not None
            and self.brackets().returns_between(self.pos, self._branch_end(self.pos))
        ):
            return None
        state = body.state_param = self.fresh("_s")
        go = self.fresh("_go")
        body.lets[go] = {"$if": [{"$get": [ref(state), "done"]}, False, True]}
        body.fold = True
        return go

    def _breaks(self, first: int) -> bool:
        """Whether the body starting at token ``first`` holds a `break` of its own (not of a
        loop inside it)."""
        if "break" not in self.written():
            return False
        kinds, values = self.kinds, self.values
        end = closing(kinds, first) if kinds[first] == "{" else self._statement_end(first)
        i = first
        while i < end:
            if kinds[i] == "name" and values[i] == "break":
                return True
            if kinds[i] == "name" and values[i] in ("for", "while") and kinds[i + 1] == "(":
                inner = closing(kinds, i + 1) + 1
                i = closing(kinds, inner) if kinds[inner] == "{" else self._statement_end(inner)
            elif kinds[i] == "name" and values[i] == "do":  # (its `while (...)` next)
                inner = i + 1
                i = closing(kinds, inner) if kinds[inner] == "{" else self._statement_end(inner)
            i += 1
        return False

    def _statement_end(self, i: int) -> int:
        kinds = self.kinds
        while kinds[i] not in (";", "eof"):
            i += 1
        return i

    def _header(self, pos: int) -> tuple[str | None, int, Any, tuple[int, int]] | None:
        """``(const x of xs)``: the name (None for a pattern), the token of the name or
        pattern, the iterable, and its first and last tokens; ``self.pos`` after ``)``."""
        kinds, values = self.kinds, self.values
        if kinds[pos + 1] == "name" and values[pos + 1] == "await":
            raise self.fail(
                "Plan has no `for await`",
                self.starts[pos + 1],
                f"calls are awaited where their values are used: write {_AFTER}",
            )
        if kinds[pos + 1] != "(":
            raise self.unexpected(self.tok(pos + 1), "`(` after `for`")
        i = pos + 2
        decl = values[i] if kinds[i] == "name" and values[i] in DECLARATORS else None
        if decl is None or kinds[i + 1] not in ("name", "[", "{"):
            if c_style_parts(self, pos) is not None:  # `for (; k < n; k *= 2)` (:mod:`.loopfor`)
                return None
            raise self._c_style(pos)
        if decl == "var":
            raise self.fail(
                "a loop's variable is declared with `const` or `let`, not `var`",
                self.starts[i],
                "a `var` outlives the loop in JavaScript (it is read as `let` only when nothing "
                "after the loop reads it and no arrow or function is written in the loop); "
                "write `let` (`for (let i = 0; i < n; i++)`, and `const`/`let` for the names "
                "its body declares) or for (const x of xs)",
            )
        target = i + 1
        after = target + 1 if kinds[target] == "name" else self._pattern_end(target) + 1
        keys = kinds[after] == "name" and values[after] == "in"
        if not keys and not (kinds[after] == "name" and values[after] == "of"):
            counted = self.counted_header(pos) if kinds[after] == "=" else None
            if counted is not None:  # `for (let i = 0; i < n; i++)` (:mod:`.loopforms`)
                return counted
            if c_style_parts(self, pos) is not None:  # any other: :mod:`.loopfor`
                return None
            raise self._c_style(pos)
        self.pos = after + 1
        first = self.pos
        iterable = self.expr(0)
        last = self.pos - 1
        self._expect(")", "`)` after the loop's list")
        if keys:  # `for (const k in o)`: the keys of `Object.keys(o)`, in its order
            items = ["Object.keys", iterable]
            self._put(items, 1, first, last)
            iterable = {"$global": items}
        name = values[target] if kinds[target] == "name" else None
        return name, target, iterable, (first, last)

    def _c_style(self, pos: int) -> ParseFailure:
        return self.fail(
            "Plan has only `for...of` loops over a list",
            self.starts[pos],
            f"write {_AFTER}, or make the list with .map: const results = cities.map(c => "
            "weather({city: c}));",
        )

    def _skip_loop(self, first: int) -> None:
        """After an error in the body: to the end of the loop statement (its body's `}`)."""
        kinds = self.kinds
        i = first
        if kinds[i] != "{":
            i = self._statement_end(i)
            self.pos = i + (kinds[i] == ";")
            return
        end = closing(kinds, i)
        self.pos = end if kinds[end] == "eof" else end + 1

    def _bind_item(self, body: Body, header: tuple[str | None, int, Any, tuple[int, int]]) -> None:
        """The loop's variable: the arrow's parameter, or a hidden one and an alias per name of
        its pattern (nested, holes and a rest as in `const [a, b] = v;`)."""
        name, at, _, _ = header
        if name is not None:
            self._check_name(name, at)
            body.param = name
            body.item_names.add(name)
            body.declare(name, at)
            return
        param = body.param = self.fresh("_item")
        close, parts, rest, gets = self._loop_pattern(at, ref(param))
        self._place_reads(gets, ref(param), at, close)
        body.item_names.update(part for part, _, _ in parts)
        if rest is not None:
            body.item_names.add(rest[0])
        self._bind_parts(body, param, parts, rest, at, close)

    def _bind_parts(
        self,
        body: Body,
        source: str,
        parts: list[tuple[str, Any, int]],
        rest: tuple[str, int, int] | None,
        first: int,
        last: int,
    ) -> None:
        """A local per name of a pattern read from the hidden ``source`` (tokens ``first`` to
        ``last``), and the rest's local: the items after the named ones."""
        for part, read, tok in parts:
            self._local(body, part, tok, read, tok, tok)
        if rest is not None and rest[2] < 0:  # `for (const {a, ...others} of xs)`
            part, tok, _ = rest
            self._local(body, part, tok, self._object_rest(source, self._rest_keys), tok, tok)
        elif rest is not None:
            part, tok, index = rest
            items: list[Any] = [[{"$spread": ref(source)}], "slice", index]
            self._put(items, 0, first, last)
            self._local(body, part, tok, {"$method": items}, tok, tok)

    def _check_name(self, name: str, tok: int) -> None:
        if name in RESERVED or name in ("this", "undefined"):
            raise self.fail(f"`{name}` cannot be a name", self.starts[tok], "choose another name")
        if name in GLOBAL_NAMES:
            raise self.fail(hides_global(name), self.starts[tok], "choose another name")

    def _local(self, body: Body, name: str, tok: int, value: Any, first: int, last: int) -> str:
        """The local ``name`` (token ``tok``): the alias holding it (:mod:`.loopscope`)."""
        self._check_name(name, tok)
        name = body.declare(name, tok)
        body.lets[name] = value
        self._put(body.lets, name, first, last)
        return name
