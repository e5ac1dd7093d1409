"""The statements of a ``for...of`` loop's body (:mod:`.loops`, SPEC 10, "Loops"): blocks in
a scope of their own, each statement flattened into the loop's arrow (definitions, pushes and
other changes, ``if``/``else``, ``continue``/``break``), and the statements refused there."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import DECLARATORS, ParseFailure, closing
from dialectic.frontends.plan.keywords import RESERVED
from dialectic.frontends.plan.labels import label_refusal
from dialectic.frontends.plan.loopbuild import has_call, ref, when
from dialectic.frontends.plan.loopcheck import NEVER, Body
from dialectic.frontends.plan.loopemit import LoopEmitMixin
from dialectic.frontends.plan.loopforms import LoopFormsMixin
from dialectic.frontends.plan.loopreturn import LoopReturnMixin
from dialectic.frontends.plan.loopswitch import LoopSwitchMixin
from dialectic.frontends.plan.patterns import PatternsMixin
from dialectic.frontends.plan.promiseloop import all_map_at
from dialectic.frontends.plan.recordrefusal import nested_refusal
from dialectic.frontends.plan.restblock import RestBlockMixin

__all__ = ["LoopBodyMixin"]

_STEPS = frozenset(["++", "--"])


class LoopBodyMixin(
    LoopEmitMixin, PatternsMixin, LoopFormsMixin, LoopSwitchMixin, LoopReturnMixin, RestBlockMixin
):
    """Reads a loop's body; :class:`.loops.LoopsMixin` builds on it."""

    if TYPE_CHECKING:  # defined by :class:`.loops.LoopsMixin`

        def _loop_pattern(
            self, at: int, value: dict[str, Any]
        ) -> tuple[int, list[tuple[str, Any, int]], tuple[str, int, int] | None, list[Any]]: ...

        def _local(
            self, body: Body, name: str, tok: int, value: Any, first: int, last: int
        ) -> str: ...

        def _place_reads(
            self, gets: list[Any], value: dict[str, Any], first: int, last: int
        ) -> None: ...

        def _bind_parts(
            self,
            body: Body,
            source: str,
            parts: list[tuple[str, Any, int]],
            rest: tuple[str, int, int] | None,
            first: int,
            last: int,
        ) -> None: ...

    def _block(self, body: Body, reach: str | None, closer: str) -> str | None:
        """Statements up to ``closer`` in a scope of their own; returns the hidden alias that
        says whether the end of the block is reached (None: always, NEVER: not)."""
        kinds = self.kinds
        body.open_scope()
        while kinds[self.pos] != closer:
            if kinds[self.pos] == "eof":
                raise self.unexpected(self.tok(self.pos), f"`{closer}`")
            if kinds[self.pos] == ";":
                self.pos += 1
                continue
            if reach == NEVER:
                raise self.fail(
                    "statements after `continue`, `break` or `return` never run",
                    self.starts[self.pos],
                    "remove them, or put `continue` or `break` inside an `if`",
                )
            reach = self._statement(body, reach)
        body.close_scope()
        return reach

    def _statement(self, body: Body, reach: str | None) -> str | None:
        """One statement of the body; returns the reach after it."""
        kinds, values = self.kinds, self.values
        pos = self.pos
        kind = kinds[pos]
        word = values[pos] if kind == "name" else None
        if word in DECLARATORS:
            self._definition(body, reach, pos)
            return reach
        if word == "if" and kinds[pos + 1] == "(":
            return self._if(body, reach, pos)
        if word == "switch" and kinds[pos + 1] == "(":  # (:mod:`.loopswitch`)
            return self._switch(body, reach, pos)
        if body.once and word in ("continue", "break"):
            raise self.fail(
                f"`{word}` outside a loop",
                self.starts[pos],
                "JavaScript refuses it here: end the branch instead (an `if` needs no `break`)",
            )
        if body.each and word in ("continue", "break"):
            call = body.each_call
            raise self.each_break(pos, call) if word == "break" else self.each_continue(pos, call)
        if word == "return" and body.ret is not None and not body.each:
            return self.loop_return(body, reach, pos)  # (:mod:`.loopreturn`)
        if word == "return" and body.each and values[pos + 1] == "%throw":
            # (`throw` in a `forEach` callback, :mod:`.trycatch`: it leaves the callback and
            # the loop, so it fails where it stands, as a statement run for its effect)
            self._run(body, reach, pos + 1)
            return NEVER
        if word == "continue" or (word == "return" and body.each):
            failure = self.each_return(pos, body.each_call) if word == "return" else None
            if failure is not None:
                raise failure
            self.pos = pos + 1
            self._end(f"`{word}`")
            return NEVER
        if word == "break":  # the loop goes on as a fold that does nothing once done
            self.pos = pos + 1
            self._end("`break`")
            body.breaks.append(reach)
            body.fold = True
            return NEVER
        if word in ("for", "while", "do"):
            returns = body.ret is not None and self.loop_returns(pos)
            self.for_statement(pos, body.aliases, body.alias_at, body.alias_rec, (body, reach))
            return self.after_inner_return(body, reach, pos) if returns else reach
        dot = self.for_each_at(pos)
        awaited = all_map_at(self, pos) if dot is None and word == "await" else None
        if awaited is not None:  # `await Promise.all(xs.map(async x => ...))` (:mod:`.promiseloop`)
            dot = awaited[0]
        if dot is not None:  # `xs.forEach(x => ...)` inside the loop
            each = self.for_each(pos, dot, None if awaited is None else awaited[1])
            parent = (body, reach)
            self.for_statement(pos, body.aliases, body.alias_at, body.alias_rec, parent, each)
            return reach
        if kind == "{":
            self.pos += 1
            reach = self._block(body, reach, "}")
            self._expect("}", "`}`")
            return reach
        refused = self._refused(pos, word)
        if refused is not None:
            raise refused
        if kind == "op" and values[pos] in _STEPS and kinds[pos + 1] == "name":
            self._inner_push(pos + 1, True)  # (`++o[k].n;`)
            self.pos = pos + 2
            self._end(f"`{values[pos]}`")
            self._change(body, reach, values[pos + 1], pos + 1, values[pos], None, pos)
            return reach
        if kind == "name" and word not in RESERVED and self._changes(body, reach, pos):
            return reach
        if kind == "name" and word not in RESERVED:
            self._inner_push(pos)
        self._run(body, reach, pos)
        return reach

    def _run(self, body: Body, reach: str | None, pos: int) -> None:
        """The expression statement at ``pos``, run for its effect (a hidden alias the loop
        runs)."""
        self.pos = pos
        value = self.expr(0)
        last = self.pos - 1
        self._end("expression")
        body.use(value, pos, last)
        hidden = self.fresh("_do")
        body.lets[hidden] = self._when(reach, value, None, pos, last)
        self._put(body.lets, hidden, pos, last)
        body.runs.append(hidden)

    def _inner_push(self, pos: int, prefix: bool = False) -> None:
        """``groups[k].push(v)``: a push onto an array inside a value, refused with the new
        value to set instead (`push` is refused anyway; the hint is the loop's idiom)."""
        kinds, values = self.kinds, self.values
        nested = nested_refusal(kinds, values, pos, self.source, (self.starts, self.ends), prefix)
        if nested is not None:  # `o[k].count += 1;` left as written (:mod:`.recordfields`)
            raise self.fail(nested[1], self.starts[nested[0]], nested[2])
        i = pos + 1
        while kinds[i] in (".", "["):
            if kinds[i] == "." and values[i + 1] == "push" and kinds[i + 2] == "(" and i > pos + 1:
                member = self.source[self.starts[pos] : self.ends[i - 1]]
                raise self.fail(
                    f"`{member}.push(...)` changes an array inside `{values[pos]}` in place",
                    self.starts[pos],
                    f"set the member to a new array: {member} = [...({member} ?? []), value];",
                )
            if kinds[i] == "[":
                i = closing(kinds, i)
                if kinds[i] == "eof":
                    return
                i += 1
            elif kinds[i + 1] == "name":
                i += 2
            else:
                return

    def _refused(self, pos: int, word: str | None) -> ParseFailure | None:
        kinds = self.kinds
        if word == "use" and kinds[pos + 1] not in ("=", ";"):
            return self.fail(
                "`use` is allowed only at the top of a program, not inside a statement",
                self.starts[pos],
                "return the value in each branch, and `use` the result: use test ? a : b;",
            )
        if word == "return":
            return self.fail(
                "Plan's loops have no `return`",
                self.starts[pos],
                "find the item before returning it: const hit = xs.find(x => ...); or set an "
                "accumulator and `break`; then return after the loop",
            )
        if word is not None and word not in RESERVED and kinds[pos + 1] == ":":
            message, hint = label_refusal(kinds, self.values, pos)  # (:mod:`.labels`)
            return self.fail(message, self.starts[pos], hint)
        return None

    def _definition(self, body: Body, reach: str | None, pos: int) -> None:
        """``const y = e;`` or ``const [a, b] = e;`` in the body; ``let i = 0, j = i + 1;``
        (several declarators) is one definition after another, as JavaScript runs them."""
        kinds, values = self.kinds, self.values
        if values[pos] == "var":
            raise self.fail(
                "a loop's body declares with `const` or `let`, not `var`",
                self.starts[pos],
                "a `var` outlives the loop in JavaScript, and keeps the last turn's value (it "
                "is read as `let` only with a value, read after it in its block alone, and no "
                "arrow or function written there); write const y = ...;",
            )
        target = pos + 1
        while True:
            self._declarator(body, reach, pos, target)
            if kinds[self.pos] != "," or kinds[self.pos + 1] not in ("name", "[", "{"):
                break
            target = self.pos + 1
        self._end("definition")

    def _declarator(self, body: Body, reach: str | None, pos: int, target: int) -> None:
        """One declarator (its name or pattern at token ``target``) of the definition whose
        `const` or `let` is token ``pos``; stops after its value."""
        kinds, values = self.kinds, self.values
        if kinds[target] == "name":
            name = values[target]
            if kinds[target + 1] in (";", ",") and values[pos] == "let":
                raise self.fail(
                    f"`let {name};` in a loop's body is read only when `if` statements, a "
                    "`switch` whose cases only set it and `break`, or a `try`, right after it "
                    "set it",
                    self.starts[target + 1],
                    f"compute the value as one expression: `const {name} = test ? a : b;` "
                    f"(a `switch` of values: a lookup, `const {name} = {{open: 'a', closed: "
                    f"'b'}}[key] ?? 'c';`), or set it by `if (test) {{ {name} = a; }} else "
                    f"{{ {name} = b; }}` right after the `let`",
                )
            if kinds[target + 1] != "=":
                raise self.unexpected(self.tok(target + 1), f"`=` after `{name}`")
            self.pos = target + 2
            parts: list[tuple[str, Any, int]] = []
            gets: list[Any] = []
            rest = None
        elif kinds[target] in ("[", "{"):
            name = None
            hidden = self.fresh("_parts")
            close, parts, rest, gets = self._loop_pattern(target, ref(hidden))
            if kinds[close + 1] != "=":
                raise self.unexpected(self.tok(close + 1), "`=` after the pattern")
            self.pos = close + 2
        else:
            raise self.unexpected(self.tok(target), "a name after `" + values[pos] + "`")
        first = self.pos
        value = self.expr(0)
        last = self.pos - 1
        body.use(value, first, last)
        wrapped = self._when(reach, value, {"$undefined": None}, first, last)
        if name is not None:
            name = self._local(body, name, target, wrapped, first, last)
            body.defs[name] = (values[pos] != "const", value)
            if has_call(value):
                body.runs.append(name)
            return
        body.lets[hidden] = wrapped
        self._put(body.lets, hidden, first, last)
        if has_call(value):
            body.runs.append(hidden)
        self._place_reads(gets, ref(hidden), first, last)
        self._bind_parts(body, hidden, parts, rest, first, last)

    def _if(self, body: Body, reach: str | None, pos: int) -> str | None:
        """``if (test) branch [else branch]``: a hidden alias per branch says whether it runs."""
        kinds, values = self.kinds, self.values
        self.pos = pos + 2
        first = self.pos
        test = self.expr(0)
        last = self.pos - 1
        self._expect(")", "`)` after the condition")
        body.use(test, first, last)
        taken = self.fresh("_if")
        items: list[Any] = [test, True, False]
        self._put(items, 0, first, last)
        body.lets[taken] = when(reach, {"$if": items}, False)
        self._put(body.lets, taken, first, last)
        then_out = self._branch(body, taken)
        other: str | None = None
        other_out: str | None = None
        if kinds[self.pos] == "name" and values[self.pos] == "else":
            self.pos += 1
            other = self._otherwise(body, reach, taken)
            if (
                kinds[self.pos] == "name"
                and values[self.pos] == "if"
                and kinds[self.pos + 1] == "("
            ):
                other_out = self._if(body, other, self.pos)
            else:
                other_out = self._branch(body, other)
        if then_out == taken and other_out == other:
            return reach
        if other is None:
            other = other_out = self._otherwise(body, reach, taken)
        parts = [p for p in (then_out, other_out) if p != NEVER]
        if not parts:
            return NEVER
        if len(parts) == 1 or parts[0] == parts[1]:
            return parts[0]
        either = self.fresh("_reach")
        body.lets[either] = {"$op": ["||", ref(parts[0] or ""), ref(parts[1] or "")]}
        return either

    def _otherwise(self, body: Body, reach: str | None, taken: str) -> str:
        other = self.fresh("_else")
        body.lets[other] = {"$if": [ref(taken), False, ref(reach) if reach else True]}
        return other

    def _branch(self, body: Body, reach: str | None) -> str | None:
        """A branch of an ``if`` or the body of a loop: a block, or one statement (not a
        declaration: JavaScript refuses one there)."""
        kinds, values = self.kinds, self.values
        if kinds[self.pos] == "{":
            self.pos += 1
            out = self._block(body, reach, "}")
            self._expect("}", "`}` closing the branch")
            return out
        if kinds[self.pos] == "name" and values[self.pos] in DECLARATORS:
            raise self.fail(
                "a declaration as the only statement of a branch or a loop needs braces",
                self.starts[self.pos],
                "write { const y = ...; ... } (JavaScript refuses a lone declaration there)",
            )
        body.open_scope()
        out = self._statement(body, reach)
        body.close_scope()
        return out
