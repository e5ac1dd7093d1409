"""Arrow functions: their parameters (names, flat destructuring patterns) and bodies (an
expression, or a block of definitions ending in `return`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dialectic.frontends.plan.accumulator import CHANGES as NEXT_VERSION
from dialectic.frontends.plan.accumulator import Changes, key_set
from dialectic.frontends.plan.base import CHANGES, CLOSE, DECLARATORS, OPEN
from dialectic.frontends.plan.keywords import (
    GLOBAL_NAMES,
    LITERAL_WORDS,
    RESERVED,
    hides_global,
    keyword_hint,
)
from dialectic.frontends.plan.logicalset import LOGICAL_SETS, only_if
from dialectic.frontends.plan.loopbuild import has_call
from dialectic.frontends.plan.order import first_read
from dialectic.frontends.plan.parampatterns import Nested, ParamPatternsMixin
from dialectic.frontends.plan.patterns import object_rest

__all__ = ["ArrowsMixin"]

#: the tokens that end a parameter a default may follow (a name, a pattern)
_PARAM_ENDS = frozenset(["name", "]", "}"])
#: reserved words that start an expression statement of a body (`await f(x);`, `await new
#: Promise(r => setTimeout(r, ms));`): the expression parser reads them
_EXPRESSION_WORDS = frozenset(["await", "new"])


class _Pattern:
    """A flat destructuring parameter: its tokens (``[`` / ``{`` to the closer) and, per name,
    the index or key it reads and its token."""

    __slots__ = ("start", "end", "parts")

    def __init__(self, start: int, end: int, parts: list[tuple[str, Any, int]]) -> None:
        self.start = start
        self.end = end
        self.parts = parts


def _set_chain(body: Any, acc: str) -> list[list[Any]] | None:
    """``acc.set(k, v)``, ``acc.add(x)`` or a chain of them (``acc.set(a, 1).set(b, 2)``), as
    an expression body reads them (calls of ``set``/``add``: not JavaScript's methods of a
    value), in order; None for anything else."""
    parts: list[list[Any]] = []
    while type(body) is dict and len(body) == 1 and ("set" in body or "add" in body):
        ((method, called),) = body.items()
        if type(called) is not list or not called:
            return None
        if len(called) - 1 != NEXT_VERSION[method]:
            return None
        parts.append([method, *called[1:]])
        body = called[0]
    if body != {"$ref": acc} or not parts:
        return None
    parts.reverse()
    return parts


class _Rest:
    """The key of a pattern's ``...rest``: the index it starts at (an array pattern) or the
    keys named before it (an object pattern)."""

    __slots__ = ("after",)

    def __init__(self, after: int | tuple[Any, ...]) -> None:
        self.after = after

    def read(self, source: str) -> Any:
        """The rest of ``source``'s value: ``v.slice(i)`` (``v`` is already its items), or the
        members but the named ones, in their order."""
        after = self.after
        if isinstance(after, int):
            return {"$method": [{"$ref": source}, "slice", after]}
        return object_rest(source, after)


class ParamExtras:
    """A function's parameter defaults (each parameter's name: the first token of its value
    and the token after it) and its rest parameter's token (-1: none)."""

    __slots__ = ("defaults", "rest")

    def __init__(self) -> None:
        self.defaults: dict[str, tuple[int, int]] = {}
        self.rest = -1


def _default_end(kinds: Sequence[str], i: int) -> int:
    """The token after a parameter's default value starting at token ``i`` (its `,` or `)`
    outside brackets), -1 if there is none."""
    depth = 0
    start = i
    while kinds[i] != "eof":
        kind = kinds[i]
        if kind in ("(", "[", "{", "tplh"):
            depth += 1
        elif kind in (")", "]", "}", "tplt"):
            if depth == 0:
                return i if kind == ")" and i > start else -1
            depth -= 1
        elif kind == "," and depth == 0:
            return i if i > start else -1
        i += 1
    return -1


class ArrowsMixin(ParamPatternsMixin):
    #: the program's functions by their first token (:mod:`.functions`)
    _function_starts: dict[int, str] | None = None
    _function_name_set: frozenset[str] = frozenset()

    """Arrow functions; the operators' parser (:class:`OperatorsMixin`) builds on it."""

    #: the defaults and rest parameter of the function whose parameters were just read
    param_extras: ParamExtras | None = None
    #: the destructured parameters of the arrow function whose parameters were just read
    _arrow_patterns: dict[str, _Pattern | Nested] = {}  # noqa: RUF012 (replaced, never changed)
    _returned: tuple[int, int] = (0, 0)  # the last arrow block's `return` expression (tokens)
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
        first = pos
        # skip to after `=>`
        while not (kinds[pos] == "op" and values[pos] == "=>"):
            pos += 1
        patterns, self._arrow_patterns = self._arrow_patterns, {}
        self.check_params(params, patterns, self.starts[first])
        self.pos = pos + 1
        return self._function_value(params, patterns, depth, (first, pos - 1))

    def function_expression(self, pos: int, depth: int) -> Any:
        """``function (x) { ...; return e; }`` (also ``async``) at token ``pos``, as an
        argument: the arrow function ``(x) => { ...; return e; }`` (its body as an arrow's
        block; ``this`` and ``arguments`` are refused as anywhere)."""
        kinds, values = self.kinds, self.values
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
        if kinds[start] == "{" and start in self.brackets().blocks:
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
            self.rec[(id(body), "$return")] = (self.starts[returned[0]], self.ends[returned[1]])
        made = {"$fn": items}
        if changes is not None:  # checked by the call it is passed to (`call_form`)
            self.changing[id(made)] = changes
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
                    rec[(id(read["$get"]), 0)] = (self.starts[pat.start], self.ends[pat.end])
                    rec[(id(read["$get"]), 1)] = (self.starts[at], self.ends[at])
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

    def block_body(self, depth: int, acc: str | None = None) -> tuple[Any, Changes | None]:
        """``{ const a = ...; return expr; }`` as ``{"$let": ..., "$return": expr}``, and the
        changes the block makes to ``acc`` (its arrow's first parameter: ``acc[k] = v;``,
        ``acc.push(x);``, then ``return acc;``, see :mod:`.accumulator`), if any."""
        kinds, values = self.kinds, self.values
        self.pos += 1  # `{`
        bindings: dict[str, Any] = {}
        result: Any = None
        done = False
        changes: Changes | None = None
        #: the statements in order: a `const`'s name, or an expression statement's value
        order: list[tuple[str | None, Any, int, int]] = []
        while True:
            pos = self.pos
            kind = kinds[pos]
            if kind == ";":
                self.pos += 1
                continue
            if kind == "}":
                self.pos += 1
                break
            if done:
                raise self.fail(
                    "statements after `return` in an arrow function's body",
                    self.starts[pos],
                    "end the body with `return expr;`",
                )
            word = values[pos] if kind == "name" else None
            if acc is not None and word == acc and kinds[pos + 1] in (".", "["):
                changes = self._accumulate(changes, acc, pos, depth)
                continue
            if word in DECLARATORS and kinds[pos + 1] == "name" and kinds[pos + 2] == "=":
                name = values[pos + 1]
                if name in bindings:
                    raise self.fail(f"`{name}` is defined twice", self.starts[pos + 1])
                if changes is not None:
                    raise self.fail(
                        "a `const` after a change to the accumulator",
                        self.starts[pos],
                        f"define the consts first, then change `{acc}`, then `return {acc};`",
                    )
                self.pos = pos + 3
                start = self.pos
                bindings[name] = self.expr(depth + 1)
                rec = self.rec
                if rec is not None:
                    rec[(id(bindings), name)] = (self.starts[start], self.ends[self.pos - 1])
                order.append((name, None, start, self.pos - 1))
                self.end_statement(f"definition of `{name}`")
            elif word == "return":
                self.pos = pos + 1
                result = self.expr(depth + 1)
                self._returned = (pos + 1, self.pos - 1)
                self.end_statement("`return` statement")
                done = True
            else:
                order.append((None, self._body_statement(pos, depth), pos, self.pos - 1))
                self.end_statement("expression")
        if not done:
            raise self.fail(
                "the arrow function's body has no `return`",
                self.starts[self.pos - 1],
                "end the body with `return expr;`",
            )
        if changes is not None:
            if result != {"$ref": acc}:
                raise self.fail(
                    f"an arrow function that changes `{acc}` must return it",
                    changes.at,
                    f"end the body with `return {acc};`",
                )
            result = changes.value()
        if any(name is None for name, _, _, _ in order):
            return self._statements_body(order, bindings, result), changes
        if not bindings:
            return result, changes
        return {"$let": bindings, "$return": result}, changes

    def _body_statement(self, pos: int, depth: int) -> Any:
        """An expression statement at token ``pos`` of an arrow's block body (a call run for
        its effect, ``console.log(x)`` read as ``[x]``): it runs in its place, as in
        JavaScript. A change to a value (``o.k = v``, ``t += 1``) is refused."""
        kinds, values = self.kinds, self.values
        refused = self.fail(
            "an arrow function's body holds `const name = expr;` lines, expression "
            "statements and one `return expr;`",
            self.starts[pos],
            self._statement_hint(pos),
        )
        word = values[pos] if kinds[pos] == "name" else None
        if (
            word is not None
            and word not in _EXPRESSION_WORDS
            and (word in RESERVED or word in DECLARATORS)
        ):
            raise refused
        self.pos = pos
        value = self.expr(depth + 1)
        nxt = kinds[self.pos]
        if nxt == "=" or (nxt == "op" and values[self.pos] in CHANGES):
            raise refused
        return value

    def _statements_body(
        self, order: list[tuple[str | None, Any, int, int]], bindings: dict[str, Any], result: Any
    ) -> Any:
        """A block body with expression statements: ``{"$do": [...], "$return": result}``,
        its ``const``s as ``{"$let": {...}}`` steps in their places (SPEC 1.2)."""
        rec = self.rec
        items: list[Any] = []
        group: dict[str, Any] | None = None
        for name, value, first, last in order:
            if name is None:
                if rec is not None:
                    rec[(id(items), len(items))] = (self.starts[first], self.ends[last])
                items.append(value)
                group = None
                continue
            if group is None:
                group = {}
                items.append({"$let": group})
            group[name] = bindings[name]
            if rec is not None:
                rec[(id(group), name)] = (self.starts[first], self.ends[last])
        return {"$do": items, "$return": result}

    def _accumulate(self, changes: Changes | None, acc: str, pos: int, depth: int) -> Changes:
        """``acc[k] = v;``, ``acc.k = v;`` or ``acc.push(a, b);`` at token ``pos``, added to
        ``changes`` (see :mod:`.accumulator`)."""
        if changes is None:
            changes = Changes(acc, self.starts[pos])
        self.pos = pos
        target = self.expr(depth + 1)
        kinds = self.kinds
        kind: str | None = None
        if kinds[self.pos] == "=" and type(target) is dict and set(target) == {"$get"}:
            got = target["$get"]
            if len(got) == 2 and got[0] == {"$ref": acc}:
                self.pos += 1
                value = self.expr(depth + 1)
                kind, parts = "object", [key_set(got[1], value)]
        elif (
            type(target) is dict
            and set(target) == {"$get"}
            and self.values[self.pos] in LOGICAL_SETS
        ):
            got = target["$get"]  # `acc[k] ??= v;` (:mod:`.logicalset`)
            if len(got) == 2 and got[0] == {"$ref": acc} and not has_call(got[1]):
                op = self.values[self.pos]
                self.pos += 1
                value = self.expr(depth + 1)
                part = only_if(op, target, key_set(got[1], value), {"$object": {}})
                kind, parts = "object", [part]
        elif type(target) is dict and set(target) == {"$method"}:
            called = target["$method"]
            if called[0] == {"$ref": acc} and called[1] == "push":
                kind, parts = "array", called[2:]
        elif type(target) is dict and len(target) == 1 and next(iter(target)) in NEXT_VERSION:
            ((method, called),) = target.items()  # `acc.set(k, v);` (:mod:`.collections`)
            if called[:1] == [{"$ref": acc}] and len(called) - 1 <= NEXT_VERSION[method]:
                kind, parts = "collection", [[method, *called[1:]]]
        if kind is None or changes.kind not in (None, kind):
            raise self.fail(
                "an arrow function's body holds `const name = expr;` lines and one `return expr;`",
                self.starts[pos],
                self._statement_hint(pos),
            )
        if changes.parts and first_read(parts, {acc}) is not None:
            raise self.fail(
                f"a change to `{acc}` that reads `{acc}` after another change",
                self.starts[pos],
                f"make one change per step, or return a new value: ({acc}, x) => "
                f"({{...{acc}, [x.key]: ...}})",
            )
        changes.kind = kind
        changes.parts.extend(parts)
        self.end_statement(f"change to `{acc}`")
        return changes

    def _statement_hint(self, pos: int) -> str:
        """What to write instead of the statement at token ``pos`` in an arrow's body: a change
        to a value (``acc[k] = v``, ``acc.push(x)``, ``total += x``) gets a new value instead."""
        kinds, values = self.kinds, self.values
        if values[pos] == "function" or values[pos : pos + 2] == ["async", "function"]:
            return keyword_hint("function")
        if kinds[pos] == "name":
            nxt = kinds[pos + 1]
            if (
                nxt == "."
                and values[pos + 3 : pos + 4] == ["("]
                and values[pos + 2] in ("push", "unshift", "splice", "pop", "shift")
            ):
                return (
                    "values never change in a Plan: return a new array, as in "
                    "(acc, x) => [...acc, x]"
                )
            i, depth = pos + 1, 0
            while kinds[i] not in ("eof", ";") and not (depth == 0 and kinds[i] == "}"):
                kind = kinds[i]
                if kind in ("(", "[", "{"):
                    depth += 1
                elif kind in (")", "]", "}"):
                    depth -= 1
                elif (depth == 0 and kind == "=") or (kind == "op" and values[i] in CHANGES):
                    if nxt in (".", "["):
                        return (
                            "values never change in a Plan: return a new object, as in "
                            "(acc, x) => ({...acc, [x.key]: (acc[x.key] ?? 0) + 1})"
                        )
                    return (
                        "values never change in a Plan: return the new value, as in "
                        "(total, x) => total + x.price"
                    )
                i += 1
        return "compute values with expressions: x => { const p = x.price; return p * 2; }"
