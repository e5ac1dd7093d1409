"""Statements: alias definitions, destructuring, expression statements, recovery (``if``
and blocks ending in ``return``/``use``: :mod:`.ifblocks`)."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.aliasdict import Aliases
from dialectic.frontends.plan.asi import ASI
from dialectic.frontends.plan.base import DECLARATORS, ParseFailure, closing
from dialectic.frontends.plan.caselookup import CHAIN_CASES, chains_as_lookups
from dialectic.frontends.plan.ifblocks import IfBlocksMixin
from dialectic.frontends.plan.keywords import GLOBAL_NAMES, RESERVED, hides_global, keyword_hint
from dialectic.frontends.plan.labels import label_refusal
from dialectic.frontends.plan.promiseloop import all_map_at
from dialectic.frontends.plan.redefinition import defined_twice
from dialectic.frontends.plan.restblock import Block
from dialectic.frontends.plan.runchanges import run_changes
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN

__all__ = ["StatementsMixin"]

_MAX_PROBLEMS = 20


#: the statements whose parts are blocks, and the words that continue one with another block
_BLOCK_STATEMENTS = frozenset(["if", "for", "while", "function", "try", "do", "switch"])
_BLOCK_CONTINUES = frozenset(["else", "catch", "finally"])


class StatementsMixin(IfBlocksMixin):
    """A whole program: its statements, one at a time, resynchronizing after an error."""

    def end_statement(self, what: str) -> None:
        """Consume the `;` ending a statement (none before a block's `}`; lenient: insert it at
        a line end or the end)."""
        pos = self.pos
        kind = self.kinds[pos]
        if kind == ";" and self.values[pos] != ASI:
            self.pos = pos + 1
            return
        if kind == ";":  # (one :mod:`.asi` wrote where JavaScript inserts it: lenient only)
            self.warn(self.ends[pos - 1], f"added the missing `;` after the {what}")
            self.pos = pos + 1
            return
        if kind == "}":  # (JavaScript ends a statement before a block's `}` in every mode)
            return
        if not self.strict and (kind == "eof" or self.newline_before(pos)):
            self.warn(self.ends[pos - 1], f"added the missing `;` after the {what}")
            return
        if what in ("`break`", "`continue`") and kind != "eof" and self.newline_before(pos):
            return  # (JavaScript ends these at a line break in every program: no label here)
        if kind == "eof" or self.newline_before(pos):
            raise self.fail(
                f"missing `;` after the {what}", self.ends[pos - 1], "end each statement with `;`"
            )
        raise self.unexpected(self.tok(pos), f"`;` after the {what}")

    def at_end(self) -> bool:
        """Whether only empty statements remain."""
        i = self.pos
        while self.kinds[i] == ";":
            i += 1
        return self.kinds[i] == "eof"

    def resync(self, first: int, failed: int) -> None:
        """Skip the rest of the statement that started at token ``first`` (error at ``failed``):
        to just after a `;` outside brackets, or to a line that starts a new statement; a
        statement with blocks (`if`, `for`, `function`, `try`, ...) to after its last block."""
        end = self._blocks_end(first)
        if end is not None and end > failed:
            self.pos = end
            return
        depth = 0
        outer = -1  # the statement's outermost open bracket
        balanced: bool | None = None  # whether it closes (then a line inside it is its own)
        i = first
        while True:
            tok = self.tok(i)
            kind = tok[0]
            if kind == "eof":
                break
            if i > first and self.newline_before(i) and self.starts_statement(i):
                if depth > 0 and balanced is None:
                    balanced = self.kinds[closing(self.kinds, outer)] != "eof"
                if depth <= 0 or not balanced:
                    break
            if i >= failed and kind == ";" and depth <= 0:
                i += 1
                break
            if kind in OPEN:
                if depth <= 0:
                    outer, balanced = i, None
                depth += 1
            elif kind in CLOSE:
                depth -= 1
            i += 1
        self.pos = max(i, first + 1) if self.kinds[first] != "eof" else first

    def _blocks_end(self, first: int) -> int | None:
        """The token after the last block of the statement at ``first`` when it is one with
        blocks and they are closed (``if (...) {...} else {...}``), else None."""
        kinds, values = self.kinds, self.values
        i = first + 1 if values[first] == "async" else first
        if kinds[i] != "name" or values[i] not in _BLOCK_STATEMENTS:
            return None
        end = None
        while True:
            while kinds[i] not in ("{", "eof", ";"):
                i = closing(kinds, i) if kinds[i] in ("(", "[") else i
                i += kinds[i] != "eof"
            if kinds[i] != "{":
                return end
            close = closing(kinds, i)
            if kinds[close] == "eof":
                return end
            end = i = close + 1
            if not (kinds[i] == "name" and values[i] in _BLOCK_CONTINUES):
                return end

    def starts_statement(self, i: int) -> bool:
        tok = self.tok(i)
        if tok[0] != "name":
            return False
        if tok[1] in ("return", "use", "const", "let", "var"):
            return True
        return self.kinds[i + 1] == "="

    def program(self) -> Any:
        kinds = self.kinds
        aliases: dict[str, Any] = Aliases()
        alias_at: dict[str, int] = {}  # name -> token index
        # name, name token, first and last token of the value, last token of the statement
        alias_rec: list[tuple[str, int, int, int, int]] = []
        final: tuple[str, Any, int, int] | None = None  # key, value, first and last token
        after_final_reported = False
        self._block_ctx = (aliases, alias_at, alias_rec)
        self._block_close = len(kinds) - 1
        self.find_functions()
        defined = self.function_names()
        while True:
            pos = self.pos
            kind = kinds[pos]
            if kind == "eof":
                break
            if kind == ";":
                self.pos = pos + 1
                continue
            first = pos
            try:
                if pos in defined:  # `function f(x) {...}`, `const f = x => ...;`
                    self.function_definition(pos, alias_at)
                    continue
                if final is not None and not after_final_reported:
                    after_final_reported = True
                    self.problems.append(
                        (
                            f"statements after `{final[0][1:]}` are not allowed",
                            self.starts[pos],
                            f"`{final[0][1:]} expr;` must be the last statement; move alias "
                            "definitions before it",
                        )
                    )
                self.on_time(pos)
                before = len(alias_rec)
                final = self.statement(pos, final, aliases, alias_at, alias_rec)
                self.count_read(pos, aliases, alias_rec[before:], final)  # (:mod:`.readbudget`)
            except ParseFailure as failure:
                self.problems.append(failure.problem)
                if failure.limit is not None:
                    self.limited = (failure.problem, failure.limit)
                if failure.fatal or len(self.problems) >= _MAX_PROBLEMS:
                    break
                self.resync(first, self.pos)
        written_out = False
        if self.functions and final is not None and not self.problems:
            try:  # each use of the program's own functions, written out (SPEC 10)
                final, written_out = self.expand_functions(aliases, alias_rec, final)
            except ParseFailure as failure:
                self.problems.append(failure.problem)
                if failure.limit is not None:
                    self.limited = (failure.problem, failure.limit)
        if final is None and not self.problems:
            self.problems.append(
                (
                    "the program has no `return` statement",
                    self.starts[-1],
                    "end the program with `return expr;` (or `use expr;`)",
                )
            )
        if self._loose_sets:
            self.loose_sets_as_values()  # a Set not taken as its items, count or membership
        if not self.problems:
            problem = self._in_order(aliases, alias_rec, written_out)
            if problem is not None and written_out:
                problem = self.read_through_function(problem)
            if problem is not None:
                self.problems.append(problem)
        if self.problems:
            return None
        assert final is not None
        tree = self.program_tree(aliases, alias_rec, final)
        if self.source.count("===") > CHAIN_CASES:  # `else if (k === 'b')` (.caselookup)
            tree = chains_as_lookups(tree, self.fresh)
        return tree

    def statement(
        self,
        pos: int,
        final: tuple[str, Any, int, int] | None,
        aliases: dict[str, Any],
        alias_at: dict[str, int],
        alias_rec: list[tuple[str, int, int, int, int]],
    ) -> tuple[str, Any, int, int] | None:
        """The statement at token ``pos``: an alias definition goes to ``aliases`` (and
        ``alias_at``, ``alias_rec``); returns the final statement (``final`` if unchanged)."""
        kinds, values = self.kinds, self.values
        word = values[pos] if kinds[pos] == "name" else None
        if word is not None and kinds[pos + 1] == ":" and word not in RESERVED:
            # `outer: for (...) { ... break outer; }` (:mod:`.labels`)
            message, hint = label_refusal(kinds, values, pos)
            raise self.fail(message, self.starts[pos], hint)
        if word in DECLARATORS and kinds[pos + 1] in ("[", "{"):
            # `const [a, b] = await Promise.all([...]);`, `const {x, y: z} = o;`
            for name, value, at, first_tok, last_tok in self.destructure(pos, aliases):
                if name in GLOBAL_NAMES:
                    raise self.fail(hides_global(name), self.starts[at], "choose another name")
                if name in alias_at:
                    first = self.first_definition(alias_at[name])
                    raise self.fail(*defined_twice(self, name, first, at))
                aliases[name] = value
                alias_at[name] = at
                alias_rec.append((name, at, first_tok, last_tok, self.pos - 1))
            return final
        if word in DECLARATORS and kinds[pos + 1] == "name":
            # `const a = f();` is JavaScript: the alias `a` (declared or not, an alias
            # is bound once and never changes)
            pos += 1
            self.pos = pos
            word = values[pos]
            if kinds[pos + 1] in (";", ",") and values[pos - 1] != "const":
                # `let status;`: undefined until a statement changes it (:mod:`.reassign`)
                self.alias_definition(word, pos, aliases, alias_at, alias_rec)
                return final
            if kinds[pos + 1] == ";":  # `const x;`: JavaScript's SyntaxError
                raise self.fail(
                    f"`{word}` is declared without a value: JavaScript requires one for `const`",
                    self.starts[pos],
                    f"declare it with its value, `const {word} = ...;`, or with `let` to set "
                    f"it later: `let {word}; if (test) {{ {word} = a; }} else {{ {word} = b; }}`",
                )
            if kinds[pos + 1] != "=":
                raise self.unexpected(self.tok(pos + 1), f"`=` after `{word}`")
        if word in ("for", "while", "do"):  # `for (const x of xs) { ... }` (SPEC 10, "Loops")
            if self.loop_returns(pos):  # the loop and the rest of the block (:mod:`.loopreturn`)
                made = self.loop_with_return(pos, aliases, alias_at, alias_rec)
                return made if final is None else final
            self.for_statement(pos, aliases, alias_at, alias_rec)
            return final
        if self._changes_here(pos, word, (aliases, alias_at, alias_rec)):
            return final
        if self.returns_partly(pos) or self.bare_block(pos):  # (:mod:`.ifreturn`)
            if not self.brackets().returns_between(pos, self._branch_end(pos)):
                self.for_statement(pos, aliases, alias_at, alias_rec, each=self.once(pos))
                return final
            made = self.loop_with_return(pos, aliases, alias_at, alias_rec, self.once(pos))
            return made if final is None else final
        if word == "if" and kinds[pos + 1] == "(":
            value, last = self.if_statement(pos, "eof")
            return ("$return", value, pos, last) if final is None else final
        if word == "switch" and kinds[pos + 1] == "(":  # :mod:`.switch`
            value, last = self.switch_statement(pos, "eof")
            return ("$return", value, pos, last) if final is None else final
        if word == "return" or (word == "use" and kinds[pos + 1] != "="):
            assert word is not None
            return self.final_statement(word, pos, final)
        if word is not None and kinds[pos + 1] == "=":
            self.alias_definition(word, pos, aliases, alias_at, alias_rec)
            return final
        if (
            word is not None
            and word in alias_at
            and kinds[pos + 1] in (".", "[")
            and (
                self.array_change(pos, (aliases, alias_at, alias_rec))
                or self.nested_change(pos, (aliases, alias_at, alias_rec))
                or self.member_change(pos, aliases, alias_at, alias_rec)
                or self.reorder_statement(pos, (aliases, alias_at, alias_rec))
                or self.date_setter_statement(pos, (aliases, alias_at, alias_rec))
            )
        ):  # `xs[i] = v;`, `xs.pop();` (:mod:`.arraychanges`), `m.a.b = v;` (.nestedchanges),
            # `stats.avg = sum / n;`
            # (:mod:`.members`), `out.sort(...);` (:mod:`.reorder`),
            # `d.setDate(1);` (:mod:`.datesetters`)
            return final
        if (
            word == "delete"
            and kinds[pos + 1] == "name"
            and self.member_delete(pos, (aliases, alias_at, alias_rec))
        ) or (word == "Object" and self.assign_change(pos, (aliases, alias_at, alias_rec))):
            # `delete stats.tmp;` (:mod:`.members`), `Object.assign(stats, {avg});`
            # (:mod:`.assignchange`)
            return final
        dot = self.for_each_at(pos)
        if dot is not None:  # `xs.forEach(x => { ... });`: a loop (SPEC 10, "Loops")
            self.for_statement(pos, aliases, alias_at, alias_rec, each=self.for_each(pos, dot))
            return final
        awaited = all_map_at(self, pos) if word == "await" else None
        if awaited is not None:  # `await Promise.all(xs.map(async x => {...}));` (.promiseloop)
            try:
                each = self.for_each(pos, awaited[0], awaited[1])
            except ParseFailure as failure:
                if failure.fatal:
                    raise
                self.problems.append(failure.problem)  # (and on after the whole statement)
                after = awaited[1] + 1
                self.pos = after + (self.kinds[after] == ";")
                return final
            self.for_statement(pos, aliases, alias_at, alias_rec, each=each)
            return final
        return self.expression_statement(pos, final, (aliases, alias_rec))

    def _outer_assignment(self, word: str, pos: int, span: tuple[int, int, str]) -> None:
        """Refuse ``word = v;`` without `const` or `let` in the body of the function ``span``
        names when the program names ``word`` outside it: JavaScript assigns the outer
        variable (or throws for a `const`), where the body's alias would be the function's
        own, leaving the outer one unchanged (`let x = 1; function run() { x = 2; } run();
        return x;` is 2 in Node)."""
        first, last, function = span
        if self.used_outside(word, first, last):
            raise self.fail(
                f"the function `{function}` assigns `{word}`, a name of the program outside "
                f"it: JavaScript changes that variable, which Plan's functions do not do",
                self.starts[pos],
                f"return the new value and assign it where the function is called: `{word} = "
                f"{function}(...);`, or declare a local of the function, `const {word}2 = ...;`",
            )

    def _changes_here(self, pos: int, word: str | None, block: Block) -> bool:
        """The statement at token ``pos`` read if it changes names of the ``block`` outside a
        loop: ``if (desc) xs.reverse();`` (:mod:`.reorder`), ``if (c) v = w;``, ``t += x;``
        (:mod:`.reassign`, :mod:`.straightread`)."""
        if word == "if" and self.conditional_reorder(pos, block):
            return True
        if self.changes_outside_loop(pos, block[1]):
            self.change_statement(pos, block)
            return True
        return False

    def alias_definition(
        self,
        word: str,
        pos: int,
        aliases: dict[str, Any],
        alias_at: dict[str, int],
        alias_rec: list[tuple[str, int, int, int, int]],
    ) -> None:
        """``word = expr;`` (``word`` is token ``pos``)."""
        if word in RESERVED or word in ("this", "undefined"):
            raise self.fail(
                f"`{word}` cannot be an alias name",
                self.starts[pos],
                "choose another name" if word not in RESERVED else keyword_hint(word),
            )
        if word in GLOBAL_NAMES:
            raise self.fail(hides_global(word), self.starts[pos], "choose another name")
        kinds = self.kinds
        declarator = self.declarator(pos)
        if declarator is None and self.function_span is not None:
            self._outer_assignment(word, pos, self.function_span)
        while True:  # `let a = 1, b = 2, c;`: one alias per declarator
            if kinds[pos + 1] == "=":
                self.pos = pos + 2
                value = self.expr(0)
            elif declarator in ("let", "var"):  # `let x;`: undefined until changed
                self.pos = pos + 1
                value = {"$undefined": None}
            else:
                raise self.unexpected(self.tok(pos + 1), f"`=` after `{word}`")
            last = self.pos - 1
            more = (
                declarator is not None and kinds[self.pos] == "," and kinds[self.pos + 1] == "name"
            )
            if not more:
                self.end_statement(f"definition of `{word}`")
            self.note_definition(word, value, declarator)  # (:meth:`.PromisesMixin._held`)
            self._define(word, pos, value, last, (aliases, alias_at, alias_rec))
            if not more:
                return
            pos = self.pos + 1
            word = str(self.values[pos])
            if word in RESERVED or word in ("this", "undefined") or word in GLOBAL_NAMES:
                raise self.fail(
                    f"`{word}` cannot be an alias name", self.starts[pos], "choose another name"
                )
            if self._declarators is None:
                self._declarators = {}
            self._declarators[pos] = str(declarator)

    def _define(
        self,
        word: str,
        pos: int,
        value: Any,
        last: int,
        block: tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]],
    ) -> None:
        """The alias ``word`` (token ``pos``) of the block: ``value``, whose last token is
        ``last``."""
        aliases, alias_at, alias_rec = block
        if word in alias_at:
            first = self.first_definition(alias_at[word])
            self.problems.append(defined_twice(self, word, first, pos))
            return
        aliases[word] = value
        alias_at[word] = pos
        alias_rec.append((word, pos, pos + 2, last, self.pos - 1))
        self.collection_alias(word, value, pos)  # `const seen = new Set();` (:mod:`.collections`)

    def expression_statement(
        self,
        pos: int,
        final: tuple[str, Any, int, int] | None,
        statements: tuple[dict[str, Any], list[tuple[str, int, int, int, int]]],
    ) -> tuple[str, Any, int, int] | None:
        """An expression as a statement (token ``pos``): before the end, a statement of the
        block (``statements``: its aliases and their records, where it is kept in program
        order); the last one is the final ``return`` (lenient mode)."""
        value = self.expr(0)
        last = self.pos - 1
        self.end_statement("expression")
        if not self.at_end():  # `mkdir({dir_name: 'tmp'});` runs (SPEC 17)
            key = f"#expr{len(statements[1])}"  # not an identifier: never an alias's name
            statements[0][key] = value
            statements[1].append((key, pos, pos, last, self.pos - 1))
            return final
        if self.strict:
            self.problems.append(
                (
                    "missing `return` before the final expression",
                    self.starts[pos],
                    "write `return expr;`",
                )
            )
        elif final is None:
            self.warn(self.starts[pos], "added `return` before the final expression")
            final = ("$return", value, pos, last)
        return final

    def program_tree(
        self,
        aliases: dict[str, Any],
        alias_rec: list[tuple[str, int, int, int, int]],
        final: tuple[str, Any, int, int],
        nested: bool = False,
    ) -> Any:
        """The tree of a program (or of a nested block) without problems, and its spans."""
        rec = self.rec
        tree: dict[str, Any] = {}
        run_changes(aliases, alias_rec, self._versions)  # (a change that may throw runs)
        if aliases and any(name[0] == "#" for name in aliases):
            tree["$do"] = self.statements_tree(aliases, alias_rec, nested)
            if rec is not None:
                first, last = alias_rec[0][1], alias_rec[-1][4]
                rec[(rec.pin(tree), "$do")] = (self.starts[first], self.ends[last])
        elif aliases:
            aliases = tree["$let"] = dict(aliases)  # (a plain dict: :class:`.aliasdict.Aliases`)
            if rec is not None:
                starts, ends = self.starts, self.ends
                rec[(rec.pin(tree), "$let")] = (starts[alias_rec[0][1]], ends[alias_rec[-1][4]])
                for name, at, start, end, _ in alias_rec:
                    if not nested:
                        self.extra[("$let", name, "$name")] = (starts[at], ends[at])
                    rec[(rec.pin(aliases), name)] = (starts[start], ends[end])
        tree[final[0]] = final[1]
        if rec is not None:
            rec[(rec.pin(tree), final[0])] = (self.starts[final[2]], self.ends[final[3]])
        return tree

    def statements_tree(
        self,
        aliases: dict[str, Any],
        alias_rec: list[tuple[str, int, int, int, int]],
        nested: bool,
    ) -> list[Any]:
        """A block with expression statements: ``$do``, its statements in program order
        (consecutive aliases as one ``{"$let": {...}}``), with their spans (SPEC 1.2, 17)."""
        rec = self.rec
        starts, ends = self.starts, self.ends
        items: list[Any] = []
        group: dict[str, Any] | None = None
        for name, at, start, end, _ in alias_rec:
            if name.startswith("#"):
                if rec is not None:
                    rec[(rec.pin(items), len(items))] = (starts[start], ends[end])
                items.append(aliases[name])
                group = None
                continue
            if group is None:
                group = {}
                items.append({"$let": group})
            group[name] = aliases[name]
            if rec is not None:
                rec[(rec.pin(group), name)] = (starts[start], ends[end])
                if not nested:
                    path = ("$do", len(items) - 1, "$let", name, "$name")
                    self.extra[path] = (starts[at], ends[at])
        return items
