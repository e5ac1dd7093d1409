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
hoisted. An argument whose parameter the body never reads never runs, as an alias nothing
reads (SPEC 10, deliberate differences). This module finds the definitions;
:mod:`.functionuses` writes out the uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import DECLARATORS, ParseFailure
from dialectic.frontends.plan.functionuses import FunctionUsesMixin
from dialectic.frontends.plan.keywords import (
    GLOBAL_NAMES,
    LITERAL_WORDS,
    RESERVED,
    hides_global,
    keyword_hint,
)
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN
from dialectic.frontends.plan.treenames import free_names, scan

__all__ = ["Function", "FunctionsMixin", "free_names"]


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


class FunctionsMixin(FunctionUsesMixin):
    """Function definitions at the top of a program, and their uses written out."""

    #: the names of those functions, and the first token of each definition
    _function_starts: dict[int, str] | None = None
    #: their names (a set: a call looks its name up once, not in every definition)
    _function_name_set: frozenset[str] = frozenset()

    if TYPE_CHECKING:  # provided by the other mixins

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
            if kind in CLOSE and depth:
                depth -= 1
            out.append(depth)
            if kind in OPEN:
                depth += 1
        return out

    def function_names(self) -> dict[int, str]:
        return self._function_starts or {}

    def is_function_call(self, fn: str, made: dict[str, Any]) -> None:
        """Mark ``made`` (``{fn: args}``) as a plain call when ``fn`` is the program's."""
        if fn in self._function_name_set and self._function_calls is not None:
            self._function_calls.add(id(made))
            self.keep.append(made)  # (its id stays its own: a mark of this call only)

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
            if values[at] == "*":  # `async function* gen() {...}`
                raise self.fail(
                    "Plan has no generator functions (`function*`, `async function*`)",
                    self.starts[at],
                    keyword_hint("function", "*"),
                )
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
                if values[word + 1] == "*":  # `const g = async function* () {...};`
                    raise self.fail(
                        "Plan has no generator functions (`function*`, `async function*`)",
                        self.starts[word + 1],
                        keyword_hint("function", "*"),
                    )
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
            outer_span, self.function_span = (
                self.function_span,
                (
                    pos,
                    self.brackets().closes[body_at],
                    name,
                ),
            )
            try:
                body = self.block_until("}", f"the function `{name}`")
            finally:
                self.function_span = outer_span
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
