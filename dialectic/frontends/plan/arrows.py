"""Arrow functions: their parameters (names, flat destructuring patterns) and bodies (an
expression, or a block of definitions ending in `return`)."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.accumulator import Changes
from dialectic.frontends.plan.arrowblock import ArrowBlockMixin
from dialectic.frontends.plan.arrowparams import (
    ParamExtras,
    _default_end,
    _Pattern,
    _Rest,
    _set_chain,
)
from dialectic.frontends.plan.asynccallbacks import async_callback_problem
from dialectic.frontends.plan.keywords import (
    GLOBAL_NAMES,
    LITERAL_WORDS,
    RESERVED,
    hides_global,
    keyword_hint,
)
from dialectic.frontends.plan.order import first_read
from dialectic.frontends.plan.parampatterns import Nested, ParamPatternsMixin
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN

__all__ = ["ArrowsMixin"]

#: the tokens that end a parameter a default may follow (a name, a pattern)
_PARAM_ENDS = frozenset(["name", "]", "}"])


class ArrowsMixin(ParamPatternsMixin, ArrowBlockMixin):
    #: the program's functions by their first token (:mod:`.functions`)
    _function_starts: dict[int, str] | None = None
    _function_name_set: frozenset[str] = frozenset()

    """Arrow functions; the operators' parser (:class:`OperatorsMixin`) builds on it."""

    #: the defaults and rest parameter of the function whose parameters were just read
    param_extras: ParamExtras | None = None
    #: the destructured parameters of the arrow function whose parameters were just read
    _arrow_patterns: dict[str, _Pattern | Nested] = {}  # noqa: RUF012 (replaced, never changed)
    #: the names written in the program (made on first need: a hidden parameter avoids them)
    _source_names: set[str] | None = None

    def arrow_params(self, pos: int) -> list[str] | None:
        """The parameters if an arrow function starts at token ``pos`` (``x =>``,
        ``(a, b) =>``, ``async x =>``), else None."""
        kinds, values = self.kinds, self.values
        if kinds[pos] == "name" and values[pos] == "async" and kinds[pos + 1] in ("name", "("):
            inner = self.arrow_params(pos + 1)
            if inner is not None:
                self.pos = pos + 1
            return inner
        if kinds[pos] == "name" and kinds[pos + 1] == "op" and values[pos + 1] == "=>":
            return [values[pos]]
        if kinds[pos] != "(":
            return None
        names: list[str] = []
        patterns: dict[str, _Pattern | Nested] = {}
        self.param_extras = None
        i = pos + 1
        while kinds[i] == "name" or kinds[i] in ("[", "{", "op"):
            if kinds[i] == "op":  # `...rest`, the last
                if values[i] != "..." or kinds[i + 1] != "name" or kinds[i + 2] != ")":
                    break
                names.append(values[i + 1])
                self._extras().rest = i + 1
                i += 2
                break
            after = self._param(i, names, patterns)
            if after is None:
                break
            i = after
            if kinds[i] == "=" and kinds[i - 1] in _PARAM_ENDS:  # `name = default`, `{a} = {}`
                end = _default_end(kinds, i + 1)
                if end < 0:
                    break
                self._extras().defaults[names[-1]] = (i + 1, end)
                i = end
            if kinds[i] == ",":
                i += 1
            elif kinds[i] != ")":
                break
        if kinds[i] == ")" and kinds[i + 1] == "op" and values[i + 1] == "=>":
            self._arrow_patterns = patterns
            return names
        self.param_extras = None
        if kinds[i] in ("{", "[") and self._closes_params(i):
            raise self.fail(
                "a parameter is a name or a destructuring pattern: ([k, v]) => ..., "
                "({name, price: p}) => ..., ({a: {b = 1}}) => ...",
                self.starts[i],
                "separate the parameters with `,`, or take the whole value and read its "
                "parts: x => x.a.b",
            )
        return None

    def _param(
        self, i: int, names: list[str], patterns: dict[str, _Pattern | Nested]
    ) -> int | None:
        """A parameter at token ``i`` (a name, or a flat pattern under a hidden name) added to
        ``names`` (and ``patterns``): the token after it, or None if none is there."""
        if self.kinds[i] == "name":
            names.append(self.values[i])
            return i + 1
        found: _Pattern | Nested | None = None
        if self.kinds[i] in ("[", "{"):  # (nested or with defaults: :mod:`.parampatterns`)
            found = self._flat_pattern(i) or self.nested_param(i)
        if found is None:
            return None
        hidden = self._hidden_param(len(patterns))
        names.append(hidden)
        patterns[hidden] = found
        return found.end + 1

    def _flat_pattern(self, i: int) -> _Pattern | None:
        """``[a, b]`` or ``{a, b: c}`` at token ``i`` (names only; a trailing comma allowed;
        holes in an array pattern, ``[, b]``; a last ``...rest``): its names with the index or
        key each reads (a rest's: :class:`_Rest`), or None."""
        kinds, values = self.kinds, self.values
        closer = "]" if kinds[i] == "[" else "}"
        parts: list[tuple[str, Any, int]] = []
        j = i + 1
        index = 0
        while closer == "]" and kinds[j] == ",":  # (holes before the first name)
            index += 1
            j += 1
        while kinds[j] == "name" or (
            kinds[j] == "op" and values[j] == "..." and kinds[j + 1] == "name"
        ):
            if kinds[j] == "op":  # `...rest`, the last part
                if kinds[j + 2] != closer:
                    return None
                named = tuple(key for _, key, _ in parts)
                parts.append((values[j + 1], _Rest(index if closer == "]" else named), j + 1))
                j += 2
                break
            key: Any = index if closer == "]" else values[j]
            index += 1
            at = j
            if closer == "}" and kinds[j + 1] == ":":
                if kinds[j + 2] != "name":
                    return None
                at = j + 2
                j += 2
            parts.append((values[at], key, at))
            j += 1
            if kinds[j] == ",":
                j += 1
                while closer == "]" and kinds[j] == "," and kinds[j + 1] != closer:
                    index += 1  # a hole
                    j += 1
            elif kinds[j] != closer:
                return None
        while closer == "]" and kinds[j] == ",":  # (holes after the last name)
            j += 1
        if kinds[j] != closer or not parts:
            return None
        return _Pattern(i, j, parts)

    #: for each first number asked of :meth:`_hidden_param`, the last one it gave (every
    #: number between is taken: the search goes on from there, linear over a parse)
    _hidden_from: dict[int, int] | None = None

    def _hidden_param(self, n: int) -> str:
        """A parameter name for a destructured one: the first ``_argN`` after ``n`` written
        nowhere in the program and not given before."""
        names = self._source_names
        if names is None:
            names = self._source_names = {
                v for k, v in zip(self.kinds, self.values, strict=True) if k == "name"
            }
        last = self._hidden_from
        if last is None:
            last = self._hidden_from = {}
        start = n
        n = last.get(start, n)
        while True:
            n += 1
            name = f"_arg{n}"
            if name not in names:
                names.add(name)
                last[start] = n
                return name

    def _closes_params(self, i: int) -> bool:
        depth = 0
        kinds = self.kinds
        while kinds[i] != "eof":
            if kinds[i] in OPEN:
                depth += 1
            elif kinds[i] in CLOSE:
                depth -= 1
                if depth < 0:
                    return kinds[i] == ")" and kinds[i + 1] == "op" and self.values[i + 1] == "=>"
            i += 1
        return False

    def arrow(self, params: list[str], depth: int) -> Any:
        kinds, values = self.kinds, self.values
        pos = self.pos
        if kinds[pos] == "name" and values[pos] == "async":
            pos += 1
        if pos and kinds[pos - 1] == "name" and values[pos - 1] == "async":
            self._async_callback(pos - 1)
        first = pos
        # skip to after `=>`
        while not (kinds[pos] == "op" and values[pos] == "=>"):
            pos += 1
        patterns, self._arrow_patterns = self._arrow_patterns, {}
        self.check_params(params, patterns, self.starts[first])
        self.pos = pos + 1
        return self._function_value(params, patterns, depth, (first, pos - 1))

    def _async_callback(self, pos: int) -> None:
        """Refuse the ``async`` at token ``pos`` if it starts a callback that the method does
        not wait for (:mod:`.asynccallbacks`)."""
        problem = async_callback_problem(self.kinds, self.values, pos, self.brackets().closes)
        if problem is not None:
            message, at, hint = problem
            raise self.fail(message, self.starts[at], hint)

    def function_expression(self, pos: int, depth: int) -> Any:
        """``function (x) { ...; return e; }`` (also ``async``) at token ``pos``, as an
        argument: the arrow function ``(x) => { ...; return e; }`` (its body as an arrow's
        block; ``this`` and ``arguments`` are refused as anywhere)."""
        kinds, values = self.kinds, self.values
        if values[pos] == "async":
            self._async_callback(pos)
        at = pos + 1 if values[pos] == "function" else pos + 2
        if kinds[at] == "name" and (
            pos == 0 or kinds[pos - 1] in (";", "{", "}") or self.newline_before(pos)
        ):  # a declaration in a block
            raise self.fail(
                "Plan has no `function` declaration here",
                self.starts[pos],
                keyword_hint("function"),
            )
        if kinds[at] == "name":
            raise self.fail(
                "a named function expression (`function name(...) {...}`) here",
                self.starts[at],
                "drop the name, write an arrow function, or define the function at the top "
                "of the program: function name(x) { ... }",
            )
        if kinds[at] != "(":
            if self.values[at] == "*":  # `async function* () {...}`
                raise self.fail(
                    "Plan has no generator functions (`function*`, `async function*`)",
                    self.starts[at],
                    keyword_hint("function", "*"),
                )
            raise self.unexpected(self.tok(at), "`(` after `function`")
        params, patterns, close = self.function_params(at)
        self.refuse_param_extras(at)
        if kinds[close + 1] != "{":
            raise self.unexpected(self.tok(close + 1), "`{` starting the function's body")
        self.check_params(params, patterns, self.starts[at])
        self.pos = close + 1
        return self._function_value(params, patterns, depth, (at, close))

    def _function_value(
        self,
        params: list[str],
        patterns: dict[str, _Pattern | Nested],
        depth: int,
        head: tuple[int, int],
    ) -> Any:
        """The ``$fn`` of a function whose body starts at ``self.pos`` (``head``: the tokens
        of its parameters)."""
        bound = self.arrow_bound
        if bound is None:
            bound = self.arrow_bound = {}
        values = [] if self._passed_to_function(head[0]) else params
        for name in values:  # (a call of one of them is refused: `_call_of`)
            bound[name] = bound.get(name, 0) + 1
        try:
            return self._function_body(params, patterns, depth, head)
        finally:
            for name in values:
                bound[name] -= 1

    def _passed_to_function(self, first: int) -> bool:
        """Whether the arrow whose parameters start at token ``first`` is an argument of a call
        of one of the program's functions (whose parameters may be functions passed to it:
        :mod:`.passed`), not of a method, whose arguments' parameters are data."""
        starts = self._function_starts
        if not starts:
            return False
        kinds = self.kinds
        i = first - 1
        level = 0
        stop = max(first - 2_000, 0)  # (a bounded look back: linear in any program)
        while i > stop:  # back to the `(` of the call the arrow is an argument of
            kind = kinds[i]
            if kind in (")", "]", "}"):
                level += 1
            elif kind in ("(", "[", "{"):
                if level == 0:
                    break
                level -= 1
            elif level == 0 and kind != "," and i == first - 1:
                return False  # (not right after `(` or `,`)
            i -= 1
        if i <= 0 or kinds[i] != "(" or kinds[i - 1] != "name":
            return False
        return self.values[i - 1] in self._function_name_set

    def _function_body(
        self,
        params: list[str],
        patterns: dict[str, _Pattern | Nested],
        depth: int,
        head: tuple[int, int],
    ) -> Any:
        kinds = self.kinds
        start = self.pos
        returned: tuple[int, int] | None = None  # a block's `return` expression, in tokens
        changes: Changes | None = None
        table = self.brackets()
        if kinds[start] == "{" and (
            start in table.blocks
            or (
                start in table.let_blocks  # (`x => { let v = x; v += 1; return v; }`)
                and not (params and table.changes_name(start, params[0]))
            )
        ):
            # `x => { if (!x) return null; for (...) {...} return y; }`: a block as a
            # function's body (`if` with early returns, loops), SPEC 10 "Arrow functions"
            self.pos = start + 1
            body = self.block_until("}", "the arrow function's body")
            if kinds[self.pos] != "}":
                raise self.unexpected(self.tok(self.pos), "`}` closing the arrow function's body")
            self.pos += 1
            returned = self._block_final
        elif kinds[start] == "{":
            acc = params[0] if params and params[0] not in patterns else None
            body, changes = self.block_body(depth + 1, acc)
            returned = self._returned
        else:
            body = self.expr(depth + 1)
            acc = params[0] if params and params[0] not in patterns else None
            chain = None if acc is None else _set_chain(body, acc)
            if chain is not None:  # `(m, x) => m.set(k, v)`: changes it, gives it back
                assert acc is not None
                changes = Changes(acc, self.starts[start])
                changes.kind = "collection"
                for i, part in enumerate(chain):
                    if i and first_read([part], {acc}) is not None:
                        raise self.fail(
                            f"a change to `{acc}` that reads `{acc}` after another change",
                            self.starts[start],
                            f"make one change per step: ({acc}, x) => {acc}.set(k, v)",
                        )
                    changes.parts.append(part)
                changes.original = body
                body = changes.value()
        block = type(body) is dict and "$return" in body
        if patterns:
            body = self._destructured(patterns, body)
        items: list[Any] = [params, body]
        whole = (start, self.pos - 1)
        if returned is not None and not block and not patterns:
            whole = returned  # `{ return e; }` is `e`: an error in `e` points at `e`
        self._record(items, [head, whole])
        if returned is not None and self.rec is not None and type(body) is dict:
            self.rec[(self.rec.pin(body), "$return")] = (
                self.starts[returned[0]],
                self.ends[returned[1]],
            )
        made = {"$fn": items}
        if changes is not None:  # checked by the call it is passed to (`call_form`)
            self.changing[id(made)] = changes
            self.keep.append(made)  # (its id stays its own)
        return made

    def check_params(self, params: list[str], patterns: dict[str, Any], offset: int) -> None:
        """Refuse a parameter that is a keyword or hides a global, and two of one name (a
        nested pattern read first: its names and their values)."""
        for hidden, pat in patterns.items():
            if type(pat) is Nested:
                self.read_nested(hidden, pat)
        written = [p for p in params if p not in patterns]
        written += [name for pat in patterns.values() for name, _, _ in pat.parts]
        for name in written:
            if name in RESERVED or name in LITERAL_WORDS:
                raise self.fail(f"`{name}` cannot be a parameter name", offset)
            if name in GLOBAL_NAMES:
                raise self.fail(hides_global(name), offset, "choose another name")
        if len(set(written)) != len(written):
            raise self.fail("a function's parameters must differ", offset)

    def function_params(self, pos: int) -> tuple[list[str], dict[str, _Pattern | Nested], int]:
        """The parameters of ``function f(...)`` whose ``(`` is token ``pos``: names and flat
        destructuring patterns, as an arrow's; and the token of the ``)``."""
        kinds, values = self.kinds, self.values
        names: list[str] = []
        patterns: dict[str, _Pattern | Nested] = {}
        self.param_extras = None
        i = pos + 1
        while kinds[i] != ")":
            if kinds[i] == "op" and values[i] == "..." and kinds[i + 1] == "name":
                if kinds[i + 2] != ")":
                    raise self.fail(
                        "a rest parameter `...` comes last", self.starts[i], "move it last"
                    )
                names.append(values[i + 1])
                self._extras().rest = i + 1
                i += 2
                break
            after = self._param(i, names, patterns)
            if after is None:
                raise self.fail(
                    "a function's parameters are names or destructuring patterns: "
                    "function f(a, {name, price: p}, [k, v], {opts: {limit = 10} = {}} = {})",
                    self.starts[i],
                    "close each pattern's brackets, or take the whole value and read its parts "
                    "inside",
                )
            i = after
            if kinds[i] == "=" and kinds[i - 1] in _PARAM_ENDS:  # `name = default`, `{a} = {}`
                end = _default_end(kinds, i + 1)
                if end < 0:
                    raise self.unexpected(self.tok(i + 1), "a default value")
                self._extras().defaults[names[-1]] = (i + 1, end)
                i = end
            if kinds[i] == ",":
                i += 1
            elif kinds[i] != ")":
                raise self.unexpected(self.tok(i), "`,` or `)` in the parameters")
        return names, patterns, i

    def _extras(self) -> ParamExtras:
        extras = self.param_extras
        if extras is None:
            extras = self.param_extras = ParamExtras()
        return extras

    def refuse_param_extras(self, at: int) -> None:
        """Refuse defaults and a rest parameter where they are not read (a function passed
        to a method, a callback): only the program's own functions take them."""
        extras = self.param_extras
        if extras is None:
            return
        self.param_extras = None
        first = extras.rest if extras.rest >= 0 else min(a for a, _ in extras.defaults.values())
        raise self.fail(
            "a function passed here takes no defaults or rest (`...`) in its parameters",
            self.starts[first],
            "give the default inside: x => { const y = x ?? 1; ... }, or define the "
            "function at the top of the program: function f(a, b = 1) { ... }",
        )

    def _destructured(self, patterns: dict[str, _Pattern | Nested], body: Any) -> Any:
        """The body with an alias per destructured name, reading its part of the argument
        (``([k, v]) => e`` is ``(p) => { const q = [...p]; const k = q[0]; const v = q[1];
        return e; }``: an array pattern iterates its value, a text by code points)."""
        bindings: dict[str, Any] = {}
        rec = self.rec
        for hidden, pat in patterns.items():
            if type(pat) is Nested:  # (read by `check_params`)
                bindings.update(pat.bindings or {})
                continue
            source = hidden
            if self.kinds[pat.start] == "[":  # JavaScript iterates it: a text by code points
                source = self._hidden_param(0)
                items = [{"$spread": {"$ref": hidden}}]
                self._record(items, [(pat.start, pat.end)])
                bindings[source] = items
            for name, key, at in pat.parts:
                if type(key) is _Rest:  # `[a, ...r]`: the items after; `{a, ...r}`: the others
                    bindings[name] = key.read(source)
                    continue
                read = {"$get": [{"$ref": source}, key]}
                if rec is not None:
                    rec[(rec.pin(read["$get"]), 0)] = (self.starts[pat.start], self.ends[pat.end])
                    rec[(rec.pin(read["$get"]), 1)] = (self.starts[at], self.ends[at])
                bindings[name] = read
        if type(body) is dict and set(body) == {"$let", "$return"}:
            inner = body["$let"]
            for name in inner:
                if name in bindings:
                    raise self.fail(
                        f"`{name}` is a parameter and a `const` of the arrow function's body",
                        self.starts[patterns[next(iter(patterns))].start],
                        "give the `const` another name",
                    )
            bindings.update(inner)
            return {"$let": bindings, "$return": body["$return"]}
        return {"$let": bindings, "$return": body}
