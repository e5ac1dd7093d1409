"""The program's own functions (SPEC 10, "Functions"), as code-mode programs write helpers:

    function label(p) { return `${p.name} (${p.age})`; }
    const isAdult = p => p.age >= 18;
    return people.filter(isAdult).map(label);

Functions are not values in the call tree, so each use is written out where it stands: a name
passed as an argument (``xs.map(label)``) becomes the arrow function itself, and a call
``label(p)`` becomes a block that binds the arguments (each under a hidden name, so an argument
never reads a parameter) and then the parameters, and gives the body's value:
``{"$let": {"_arg1": p}, "$return": {"$let": {"p": {"$ref": "_arg1"}}, "$return": body}}``.

Only a definition at the top of the program (a statement of its own) is a function. Its body is
a block of statements as an ``if``'s branch is (aliases, ``if``, loops, a final ``return``), or
an arrow's expression. A copy is made per use (its source map still points into the
definition), within a bound on the tokens copied; a function that calls itself, directly or
not, is a recursive function (:mod:`.recursive`: a ``$letrec``). Refused: a use where an
enclosing arrow's parameter or a block's ``const`` would capture a name the body reads from
the top of the program (JavaScript reads the outer one). A ``const`` function used by a
statement before its definition is JavaScript's ReferenceError; a ``function`` declaration is
hoisted. An argument whose parameter the body never reads never
runs, as an alias nothing reads (SPEC 10, deliberate differences).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dialectic.frontends.budget import count_nodes, nodes_message
from dialectic.frontends.plan.base import DECLARATORS, ParseFailure, Problem
from dialectic.frontends.plan.keywords import GLOBAL_NAMES, LITERAL_WORDS, RESERVED, hides_global
from dialectic.frontends.plan.passed import PassedFunctionsMixin
from dialectic.frontends.plan.recursive import RecursiveMixin
from dialectic.frontends.plan.treenames import binders, free_names, scan

__all__ = ["Function", "FunctionsMixin", "free_names"]

#: the message of a read before its definition (:mod:`.order`)
_READ_AHEAD = re.compile(r"`([^`]+)` is read before its definition")
#: how deep functions may call functions (each call is written out inside the one before)
MAX_NESTING = 32
#: the tokens all uses may copy, beyond four times the program's own
MIN_COPIED = 50_000


@dataclass(slots=True)
class Function:
    """A function the program defines: its name token, the first and last token of its
    statement, whether it is hoisted (a ``function`` declaration), its tree (``$fn``), and the
    names its body reads from outside."""

    name: str
    at: int
    first: int
    last: int
    hoisted: bool
    tree: dict[str, Any]
    free: frozenset[str]
    #: the parameters the body calls (each use checks their arguments are functions)
    called: frozenset[str]
    #: whether the last parameter is a rest parameter (`...more`: the arguments after)
    rest: bool = False


class FunctionsMixin(PassedFunctionsMixin, RecursiveMixin):
    """Function definitions at the top of a program, and their uses written out."""

    #: the names of those functions, and the first token of each definition
    _function_starts: dict[int, str] | None = None
    #: their names (a set: a call looks its name up once, not in every definition)
    _function_name_set: frozenset[str] = frozenset()

    if TYPE_CHECKING:  # provided by the other mixins
        read_limit: int | None

        def on_time(self, pos: int) -> None: ...

        def arrow_params(self, pos: int) -> list[str] | None: ...

        def check_params(self, params: list[str], patterns: dict[str, Any], first: int) -> None: ...

        def _destructured(self, patterns: dict[str, Any], body: Any) -> Any: ...

        def function_params(self, pos: int) -> tuple[list[str], dict[str, Any], int]: ...

        def _hidden_param(self, n: int) -> str: ...

        param_extras: Any

        _arrow_patterns: dict[str, Any]

    # -- finding the definitions ---------------------------------------------------------------

    def find_functions(self) -> None:
        """Note the top-level statements that define a function (before parsing, so that a
        call parsed before a hoisted declaration is known as one). Cheap when there are none:
        a text search for `function` and `=>`, then a look at each `=` token."""
        kinds, values = self.kinds, self.values
        found: list[tuple[int, int]] = []  # (first token, name token)
        source = self.source  # (a substring test costs far less than a token scan)
        if "function" in source and "function" in values:
            for i, value in enumerate(values):
                if value == "function" and kinds[i] == "name" and kinds[i + 1] == "name":
                    first = i - 1 if i and values[i - 1] == "async" else i
                    found.append((first, i + 1))
        arrows, expressions = "=>" in source, "function" in source
        i = 2
        while arrows or expressions:  # `const f = x => ...;`, `const f = function (x) {...};`
            try:
                i = kinds.index("=", i)
            except ValueError:
                break
            named = kinds[i - 1] == "name" and values[i - 2] in DECLARATORS
            if named and (
                (arrows and self._arrow_at(i + 1)) or (expressions and self._expression_at(i + 1))
            ):
                found.append((i - 2, i - 1))
            i += 1
        if not found:
            return
        depth = self._depths()
        starts: dict[int, str] = {}
        for first, name_at in found:
            if depth[first] == 0 and (
                first == 0 or kinds[first - 1] in (";", "}") or self.newline_before(first)
            ):
                starts[first] = values[name_at]
        if starts:
            self._function_starts = starts
            self._function_name_set = frozenset(starts.values())
            self._function_calls = set()
            self.functions = {}

    def _expression_at(self, pos: int) -> bool:
        """Whether a function expression (``function (x) {...}``) starts at token ``pos``."""
        values, kinds = self.values, self.kinds
        word = pos + 1 if values[pos] == "async" else pos
        return values[word] == "function" and kinds[word + 1] in ("(", "name")

    def _arrow_at(self, pos: int) -> bool:
        saved, patterns = self.pos, self._arrow_patterns
        try:
            return self.arrow_params(pos) is not None
        except ParseFailure:  # (reported where the statement is parsed)
            return False
        finally:
            self.pos, self._arrow_patterns = saved, patterns

    def _depths(self) -> list[int]:
        """The bracket depth at each token."""
        out: list[int] = []
        depth = 0
        for kind in self.kinds:
            if kind in (")", "]", "}", "tplt") and depth:
                depth -= 1
            out.append(depth)
            if kind in ("(", "[", "{", "tplh"):
                depth += 1
        return out

    def function_names(self) -> dict[int, str]:
        return self._function_starts or {}

    def is_function_call(self, fn: str, made: dict[str, Any]) -> None:
        """Mark ``made`` (``{fn: args}``) as a plain call when ``fn`` is the program's."""
        if fn in self._function_name_set and self._function_calls is not None:
            self._function_calls.add(id(made))

    def method_of_function(self, fn: str, offset: int) -> None:
        """``x.f()`` where ``f`` is the program's function: JavaScript reads ``f`` of ``x``."""
        if fn in self._function_name_set:
            raise self.fail(
                f"`.{fn}(...)` calls a method of the value before it, and `{fn}` is the "
                "program's own function, not a method",
                offset,
                f"call the function with the value as its argument: {fn}(x, ...)",
            )

    # -- parsing a definition ------------------------------------------------------------------

    def function_definition(self, pos: int, alias_at: dict[str, int]) -> None:
        """The definition starting at token ``pos`` (one of ``find_functions``'s)."""
        kinds, values = self.kinds, self.values
        assert self.functions is not None
        hoisted = values[pos] in ("function", "async")
        if hoisted:
            at = pos + 1 if values[pos] == "function" else pos + 2
            if kinds[at + 1] != "(":
                raise self.unexpected(self.tok(at + 1), f"`(` after `function {values[at]}`")
            params, patterns, close = self.function_params(at + 1)
            body_at = close + 1
            if kinds[body_at] != "{":
                raise self.unexpected(self.tok(body_at), "`{` starting the function's body")
            params_span = (at + 1, close)
        elif self._expression_at(pos + 3):  # `const f = [async] function [g](x) { ... };`
            at = pos + 1
            word = pos + 4 if values[pos + 3] == "async" else pos + 3
            paren = word + 2 if kinds[word + 1] == "name" else word + 1
            if kinds[paren] != "(":
                raise self.unexpected(self.tok(paren), "`(` after `function`")
            params, patterns, close = self.function_params(paren)
            body_at = close + 1
            if kinds[body_at] != "{":
                raise self.unexpected(self.tok(body_at), "`{` starting the function's body")
            params_span = (paren, close)
        else:
            at = pos + 1
            first = pos + 3
            found = self.arrow_params(first)
            assert found is not None
            params = found
            patterns, self._arrow_patterns = self._arrow_patterns, {}
            arrow = self.pos if self.pos > first else first
            body_at = arrow
            while not (kinds[body_at] == "op" and values[body_at] == "=>"):
                body_at += 1
            params_span = (arrow, body_at - 1)
            body_at += 1
        extras, self.param_extras = self.param_extras, None
        name = values[at]
        self._check_function_name(name, at, alias_at)
        self.check_params(params, patterns, self.starts[params_span[0]])
        if kinds[body_at] == "{":
            self.pos = body_at + 1
            body = self.block_until("}", f"the function `{name}`")
            if kinds[self.pos] != "}":
                raise self.unexpected(self.tok(self.pos), "`}` closing the function's body")
            self.pos += 1
        else:
            self.pos = body_at
            body = self.expr(1)
        body_span = (body_at, self.pos - 1)
        if kinds[body_at] == "{" and not (type(body) is dict and "$return" in body):
            body_span = self._block_final  # `{ return e; }` is `e`: an error in `e` points at it
        if patterns:
            body = self._destructured(patterns, body)
        if extras is not None and extras.defaults:
            body = self._param_defaults(params, extras.defaults, body)
        items: list[Any] = [params, body]
        self._record(items, [params_span, body_span])
        if hoisted:
            if kinds[self.pos] == ";":
                self.pos += 1
        else:
            self.end_statement(f"definition of `{name}`")
        tree = {"$fn": items}
        names = frozenset(params)
        free, called = scan(items[1], names)  # (one walk for both)
        self.functions[name] = Function(
            name,
            at,
            pos,
            self.pos - 1,
            hoisted,
            tree,
            free - names,
            called,
            extras is not None and extras.rest >= 0,
        )
        alias_at[name] = at

    def _param_defaults(
        self, params: list[str], defaults: dict[str, tuple[int, int]], body: Any
    ) -> Any:
        """The body under a block binding each defaulted parameter to its value or, when that
        is ``undefined`` (missing too), to its default, which runs only then (JavaScript's
        rule): ``b = 1`` is ``{"$let": {"b": {"$if": [{"$op": ["===", {"$ref": HIDDEN},
        {"$undefined": null}]}, 1, {"$ref": HIDDEN}]}}, "$return": BODY}``, the parameter
        renamed to a hidden name. A default reading its own or a later parameter (JavaScript's
        ReferenceError) is refused."""
        lets: dict[str, Any] = {}
        save = self.pos
        for n, param in enumerate(params):
            if param not in defaults:
                continue
            first, end = defaults[param]
            self.pos = first
            value = self.expr(1)
            if self.pos != end:
                raise self.unexpected(self.tok(self.pos), "`,` or `)` after the default")
            later = set(params[n:]) & scan(value, frozenset())[0]
            if later:
                raise self.fail(
                    f"the default of `{param}` reads `{min(later)}`, a parameter at or after "
                    "it: JavaScript throws a ReferenceError there",
                    self.starts[first],
                    "read only the parameters before it",
                )
            hidden = self._hidden_param(100 + n)
            params[n] = hidden
            given = {"$ref": hidden}
            missing = {"$op": ["===", {"$ref": hidden}, {"$undefined": None}]}
            lets[param] = {"$if": [missing, value, given]}
        self.pos = save
        return {"$let": lets, "$return": body}

    def _check_function_name(self, name: str, at: int, alias_at: dict[str, int]) -> None:
        if name in RESERVED or name in LITERAL_WORDS or name == "this":
            raise self.fail(f"`{name}` cannot be a function's name", self.starts[at])
        if name in GLOBAL_NAMES:
            raise self.fail(hides_global(name), self.starts[at], "choose another name")
        if name in alias_at:
            raise self.fail(
                f"`{name}` is defined twice ({self.index.where(self.starts[alias_at[name]])} "
                f"and {self.index.where(self.starts[at])})",
                self.starts[at],
                "give each function and alias its own name",
            )

    # -- writing out the uses ------------------------------------------------------------------

    def expand_functions(
        self,
        aliases: dict[str, Any],
        rec: list[tuple[str, int, int, int, int]],
        final: tuple[str, Any, int, int],
    ) -> tuple[tuple[str, Any, int, int], bool]:
        """Write out every use of the program's functions in ``aliases`` (in place) and in
        the final statement (``final``: returned, its value perhaps replaced), and whether any
        was. ``rec``: the statements, for the first token of each."""
        functions = self.functions
        if not functions:
            return final, False
        self._copied = 0
        self._budget = max(MIN_COPIED, 4 * len(self.kinds))
        self._any = False
        limit = self.read_limit
        total = 0  # (the nodes of the aliases written out: they are the program's)
        for name, _, first, _, _ in rec:
            self._use_at = first
            tree = aliases[name] = self._expand(aliases[name], frozenset(), ())
            self.on_time(first)
            if limit is not None:
                total += count_nodes(tree, limit - total)
                if total > limit:
                    message, hint = nodes_message(limit)
                    raise ParseFailure(
                        message, self.starts[first], hint, fatal=True, limit="max_nodes"
                    )
        self._use_at = final[2]
        value = self._expand(final[1], frozenset(), ())
        return (final[0], value, final[2], final[3]), self._any

    _use_at: int = 0
    _copied: int = 0
    _budget: int = 0
    _any: bool = False

    def _expand(self, node: Any, bound: frozenset[str], stack: tuple[str, ...]) -> Any:
        t = type(node)
        if t is list:
            for i, x in enumerate(node):
                if type(x) is dict or type(x) is list:
                    new = self._expand(x, bound, stack)
                    if new is not x:
                        node[i] = new
            return node
        if t is not dict:
            return node
        functions = self.functions
        assert functions is not None
        if len(node) == 1:
            key, value = next(iter(node.items()))
            if key == "$ref":
                if value in functions and value not in bound:
                    return self._use(functions[value], None, node, bound, stack)
                return node
            if key == "$quote":
                return node
            if key == "$fn" and type(value) is list and len(value) == 2:
                params = value[0] if type(value[0]) is list else []
                value[1] = self._expand(value[1], bound | set(params), stack)
                return node
            if key in functions and self._function_calls and id(node) in self._function_calls:
                self._expand(value, bound, stack)
                if key in bound:
                    raise self._fail_at(
                        f"`{key}` here is a parameter or a local, not the function `{key}`",
                        "give the parameter or the local another name",
                    )
                return self._use(functions[key], value, node, bound, stack)
        names = binders(node)
        inner = bound | names if names else bound
        if "$object" in node and len(node) == 1 and type(node["$object"]) is dict:
            obj = node["$object"]  # (its values, not its keys)
            for k, v in obj.items():
                if type(v) is dict or type(v) is list:
                    obj[k] = self._expand(v, bound, stack)
            return node
        for k, v in node.items():
            if type(v) is dict and k == "$let":
                for name, x in v.items():
                    if type(x) is dict or type(x) is list:
                        v[name] = self._expand(x, inner, stack)
            elif type(v) is dict or type(v) is list:
                new = self._expand(v, inner, stack)
                if new is not v:
                    node[k] = new
        if "$method" in node or "$method?" in node:
            self.method_arrows(node)  # `xs.sort(by('age'))`
        return node

    def read_through_function(self, problem: Problem) -> Problem:
        """A read before its definition found in a function written out (the statement's text
        does not show it): said as the function's read, with what to write instead."""
        found = _READ_AHEAD.match(problem[0])
        if found is None or not self.functions:
            return problem
        name = found.group(1)
        for fn in self.functions.values():
            if name in fn.free:
                where = self.index.where(self.starts[fn.at])
                return (
                    f"the function `{fn.name}` ({where}) reads `{name}`, which is defined or "
                    "changed after the statement that calls it here (JavaScript would read "
                    "it at the call)",
                    problem[1],
                    f"pass the value as an argument: {fn.name}({name}, ...)",
                )
        return problem

    def _fail_at(self, message: str, hint: str) -> ParseFailure:
        """A problem with a use: it points at the statement that (perhaps through other
        functions) makes it."""
        at = min(self._use_at, len(self.kinds) - 1)
        return ParseFailure(message, self.starts[at], hint)

    def _use(
        self,
        fn: Function,
        args: list[Any] | None,
        old: dict[str, Any],
        bound: frozenset[str],
        stack: tuple[str, ...],
    ) -> Any:
        """The written-out use of ``fn``: its arrow function (``args`` None) or its call."""
        self._any = True
        self.keep.append(old)
        if fn.name in self.find_cycles():  # (SPEC 10, "Recursive functions")
            return self.recursive_use(fn, args, bound)
        where = self.index.where(self.starts[fn.at])
        if fn.name in stack:
            through = stack[stack.index(fn.name) + 1 :]
            via = f" (through `{'`, `'.join(through)}`)" if through else ""
            raise self._fail_at(
                f"the function `{fn.name}` ({where}) calls itself{via}",
                "a recursion the program cannot write out here: use `reduce`, `map` or a loop",
            )
        if len(stack) >= MAX_NESTING:
            raise self._fail_at(
                f"functions call functions more than {MAX_NESTING} deep here",
                "call fewer functions inside one another",
            )
        if not fn.hoisted and self._use_at < fn.first:
            raise self._fail_at(
                f"`{fn.name}` is used before its definition ({where}): JavaScript throws a "
                "ReferenceError there",
                f"define `{fn.name}` before the statement that uses it",
            )
        captured = fn.free & bound
        if captured:
            name = min(captured)
            raise self._fail_at(
                f"the function `{fn.name}` ({where}) reads `{name}` of the top of the program, "
                f"but where it is used here `{name}` is a parameter or a local",
                f"give that parameter or local another name than `{name}`",
            )
        self._charge(fn.last - fn.first + 1, fn.at)
        made = self._copy(fn.tree)
        params, body = made["$fn"]
        inner_stack = (*stack, fn.name)
        if args is None:
            if fn.rest:
                raise self._fail_at(
                    f"the function `{fn.name}` ({where}) has a rest parameter: passed by name "
                    "it would get what the method passes (an item, an index)",
                    f"call it in an arrow function: xs.map(x => {fn.name}(x))",
                )
            if fn.called:  # (a method passes items and indexes: no function)
                raise self._fail_at(
                    f"the function `{fn.name}` ({where}) calls its parameter "
                    f"`{min(fn.called)}`, but passed by name it gets what the method passes "
                    "(an item, an index), not a function",
                    f"call it with the function: xs.map(x => {fn.name}(x, y => ...))",
                )
            made["$fn"][1] = self._expand(body, bound | set(params), inner_stack)
            return made
        return self._apply(fn, made, args, bound, inner_stack)

    def _apply(
        self,
        fn: Function,
        made: dict[str, Any],
        args: list[Any],
        bound: frozenset[str],
        stack: tuple[str, ...],
    ) -> Any:
        params, body = made["$fn"]
        what = f"the function `{fn.name}`"
        if fn.rest:  # `...more`: the arguments from its place, an array (spreads spread in it)
            before = len(params) - 1
            missing = [{"$undefined": None} for _ in range(before - len(args))]
            args = [*args[:before], *missing, list(args[before:])]
        self.check_arguments(what, params, args)
        if fn.called or any(type(a) is dict and ("$fn" in a or "$return" in a) for a in args):
            where = self.index.where(self.starts[fn.at])
            body, passed = self.pass_functions(f"{what} ({where})", params, body, args, fn.called)
        else:
            passed = set()
        body = self._expand(body, bound | set(params), stack)
        return self.bind_arguments(params, body, args, passed, made["$fn"])

    def _charge(self, tokens: int, at: int) -> None:
        """Count ``tokens`` more copied (at the definition at token ``at``; -1: an arrow
        passed, at the statement making the use): too many is a limit breached."""
        self._copied += tokens
        if self._copied > self._budget:
            raise ParseFailure(
                "the program's functions, written out at each use, make it too large "
                f"(over {self._budget} tokens)",
                self.starts[at if at >= 0 else min(self._use_at, len(self.kinds) - 1)],
                "use the functions fewer times (for example once, inside a `map`)",
                fatal=True,
                limit="max_nodes",
            )

    def _copy(self, node: Any) -> Any:
        """A deep copy of ``node`` with the source map and the call marks of its parts."""
        rec = self.rec
        calls = self._function_calls

        def cp(x: Any) -> Any:
            new: Any
            if type(x) is dict:
                new = {k: cp(v) if type(v) is dict or type(v) is list else v for k, v in x.items()}
                keys: Any = x
            else:
                new = [cp(v) if type(v) is dict or type(v) is list else v for v in x]
                keys = range(len(x))
            if rec is not None:
                old = id(x)
                for k in keys:
                    span = rec.get((old, k))
                    if span is not None:
                        rec[(id(new), k)] = span
            if calls and id(x) in calls:
                calls.add(id(new))
            return new

        return cp(node)
