"""Functions passed to the program's functions (SPEC 10, "Functions passed as arguments"), as
code-mode programs write higher-order helpers:

    const maxBy = (xs, f) => xs.reduce((a, b) => (f(b) > f(a) ? b : a));
    const by = k => (a, b) => a[k] - b[k];
    return [maxBy(people, p => p.age), [...people].sort(by('age'))];

Functions are not values in the call tree, so a parameter whose argument is a function (an arrow,
a function of the program's, or a call of one that returns an arrow) is written out where the
body uses it: called, ``f(b)`` is the function applied (a block binding its parameters, as a
call of the program's function is); passed to a method or to another function of the program,
``xs.map(f)``, it is the arrow itself. Any other use (stored in data, returned, compared, passed
to a registered function) is refused at the place, as is a use where a name the passed function
reads from where it was written is a parameter or a local of the body (JavaScript reads the
name where the function was written). A call of a function that returns an arrow, ``by('age')``,
is that arrow with the call's bindings moved inside it, when they are names or literals (they
then give the same value at each call of the arrow, and run nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import ParseFailure, ParserBase
from dialectic.frontends.plan.treenames import binders, free_names, scan

__all__ = ["PassedFunctionsMixin"]

_METHODS = ("$method", "$method?")
#: how deep passed functions may be applied inside one another (as the program's functions)
MAX_APPLIED = 32


class _Pass:
    """One function's parameters being written out: the arrows passed (by parameter), the
    free names of each, all the parameters, and the function's name and place for messages."""

    __slots__ = ("arrows", "called", "free", "params", "what")

    def __init__(self, arrows: dict[str, Any], params: frozenset[str], what: str) -> None:
        self.arrows = arrows
        self.free: dict[str, frozenset[str]] = {}
        self.called: dict[str, frozenset[str]] = {}  # (each arrow's parameters it calls)
        for name, arrow in arrows.items():
            own, body = arrow["$fn"]
            names = frozenset(p for p in own if type(p) is str)
            free, called = scan(body, names)
            self.free[name] = free - names
            self.called[name] = called
        self.params = params
        self.what = what


class PassedFunctionsMixin(ParserBase):
    """Arguments that are functions, written out where the body uses them."""

    #: how deep passed functions are being applied inside one another
    _applying: int = 0

    if TYPE_CHECKING:  # provided by :class:`.functionuses.FunctionUsesMixin` and the others

        def _copy(self, node: Any) -> Any: ...

        def _fail_at(self, message: str, hint: str) -> ParseFailure: ...

        def _hidden_param(self, n: int) -> str: ...

        def _charge(self, tokens: int, at: int) -> None: ...

    # -- what a function argument is -----------------------------------------------------------

    def as_arrow(self, node: Any, what: str) -> dict[str, Any] | None:
        """``node`` as an arrow function (``$fn``): itself, or a block of bindings whose value
        is one (a call of a function returning an arrow), the bindings moved inside the arrow.
        None when ``node`` is no function. Refused: bindings that compute something (moved,
        they would run at each call of the arrow, or never)."""
        if type(node) is not dict:
            return None
        if "$fn" in node and len(node) == 1:
            return node
        lets: list[dict[str, Any]] = []
        inner: Any = node
        while type(inner) is dict and len(inner) == 2 and "$let" in inner and "$return" in inner:
            lets.append(inner)
            inner = inner["$return"]
        if not lets or not (type(inner) is dict and len(inner) == 1 and "$fn" in inner):
            return None
        fn = inner["$fn"]
        params = {p for p in fn[0] if type(p) is str}
        for block in lets:
            for name, value in block["$let"].items():
                if not _simple(value) or name in params or free_names(value) & params:
                    raise self._fail_at(
                        f"{what} is an arrow function made by a call that computes values "
                        "first, its arguments or its body's constants (JavaScript computes "
                        "them once, at the call; written inside the arrow they would run at "
                        "each call of it, or never)",
                        "compute them first, as aliases, and pass names: const k = ...; "
                        "xs.sort(by(k))",
                    )
        body: Any = fn[1]
        rec = self.rec
        for block in reversed(lets):
            made = {"$let": block["$let"], "$return": body}
            if rec is not None and (id(fn), 1) in rec:
                rec[(rec.pin(made), "$return")] = rec[(rec.pin(fn), 1)]
            body = made
        arrow: list[Any] = [fn[0], body]
        if rec is not None:
            for k in (0, 1):
                if (id(fn), k) in rec:
                    rec[(rec.pin(arrow), k)] = rec[(rec.pin(fn), k)]
        return {"$fn": arrow}

    def method_arrows(self, node: dict[str, Any]) -> None:
        """A method's arguments that are calls of functions returning arrows, made arrows:
        ``xs.sort(by('age'))``."""
        for key in _METHODS:
            items = node.get(key)
            if type(items) is list:
                for i in range(2, len(items)):
                    arg = items[i]
                    if type(arg) is dict and "$return" in arg:
                        arrow = self.as_arrow(arg, "the method's argument")
                        if arrow is not None:
                            items[i] = arrow

    # -- writing out the uses ------------------------------------------------------------------

    def pass_functions(
        self,
        what: str,
        params: list[Any],
        body: Any,
        args: list[Any],
        called: frozenset[str],
    ) -> tuple[Any, set[str]]:
        """``body`` with each parameter whose argument is a function written out where it is
        used, and those parameters. ``called``: the parameters the body calls; one whose
        argument is no function is refused (JavaScript's TypeError)."""
        arrows: dict[str, Any] = {}
        for i, param in enumerate(params):
            if type(param) is str and not param.startswith("$") and i < len(args):
                arrow = self.as_arrow(args[i], f"the argument `{param}` of {what}")
                if arrow is not None:
                    arrows[param] = arrow
        names = frozenset(p for p in params if type(p) is str)
        plain = called - set(arrows)
        if plain:
            name = min(plain)
            raise self._fail_at(
                f"{what} calls its parameter `{name}`, but the argument passed for it here is "
                "not a function (JavaScript throws a TypeError)",
                f"pass an arrow function for `{name}`, e.g. x => x.name",
            )
        if not arrows:
            return body, set()
        state = _Pass(arrows, names, what)
        return self._pass(body, state, frozenset(), None, None, False), set(arrows)

    def _pass(
        self,
        node: Any,
        state: _Pass,
        local: frozenset[str],
        parent: Any,
        key: Any,
        argument: bool,
    ) -> Any:
        """``node`` with the passed functions written out; ``local``: the names the body
        defines around it; ``argument``: whether it is an argument of a method or of a function
        of the program (where an arrow may stand)."""
        t = type(node)
        if t is list:
            self._pass_args(node, state, local, False)
            return node
        if t is not dict:
            return node
        if len(node) == 1:
            done = self._pass_form(node, state, local, (parent, key) if argument else None)
            if done is not None:
                return done
        names = binders(node)
        inner = local | names if names else local
        for k, v in node.items():
            if type(v) is dict and k == "$let":
                for name, x in v.items():
                    if type(x) is dict or type(x) is list:
                        v[name] = self._pass(x, state, inner, v, name, False)
            elif type(v) is dict or type(v) is list:
                new = self._pass(v, state, inner, node, k, False)
                if new is not v:
                    node[k] = new
        return node

    def _pass_form(self, node: dict[str, Any], state: _Pass, local: frozenset[str], at: Any) -> Any:
        """:meth:`_pass` of a node of one key, or None when it is a block or an operation
        whose parts are passed alike. ``at``: the node's container and key when it is an
        argument (where an arrow may stand), else None."""
        arrows = state.arrows
        k, v = next(iter(node.items()))
        if k == "$ref":
            if v in arrows and v not in local:
                if at is None:
                    raise self._refuse_value(state, v)
                return self._arrow_copy(state, v, local)
            return node
        if k == "$quote":
            return node
        if k == "$fn" and type(v) is list and len(v) == 2 and type(v[0]) is list:
            inner = local | {p for p in v[0] if type(p) is str}
            v[1] = self._pass(v[1], state, inner, v, 1, False)
            return node
        if k == "$object" and type(v) is dict:
            for name, x in v.items():
                if type(x) is dict or type(x) is list:
                    v[name] = self._pass(x, state, local, v, name, False)
            return node
        if type(v) is list and k in arrows and k not in local:
            self._pass_args(v, state, local, True)
            arrow = self._arrow_copy(state, k, local)
            return self.apply_arrow(arrow, v, f"the function passed as `{k}`", state.called[k])
        calls = self._function_calls
        if type(v) is list and calls and id(node) in calls:
            self._pass_args(v, state, local, True)  # another function of the program's
            return node
        if k in _METHODS and type(v) is list:
            for i, x in enumerate(v):
                if type(x) is dict or type(x) is list:
                    new = self._pass(x, state, local, v, i, i >= 2)
                    if new is not x:
                        v[i] = new
            return node
        return None

    def _pass_args(self, args: list[Any], state: _Pass, local: frozenset[str], ok: bool) -> None:
        for i, x in enumerate(args):
            if type(x) is dict or type(x) is list:
                new = self._pass(x, state, local, args, i, ok)
                if new is not x:
                    args[i] = new

    def _arrow_copy(self, state: _Pass, name: str, local: frozenset[str]) -> Any:
        """A copy of the arrow passed as ``name``, where the body's ``local`` names are
        defined (refused where one of them would hide a name the arrow reads)."""
        captured = state.free[name] & (local | state.params)
        if captured:
            caught = min(captured)
            raise self._fail_at(
                f"the function passed to {state.what} as `{name}` reads `{caught}`, which is "
                f"also a parameter or a local of that function (JavaScript reads the `{caught}` "
                "where the passed function was written)",
                f"give that parameter or local another name than `{caught}`",
            )
        arrow = state.arrows[name]
        self._charge(_size(arrow), -1)
        return self._copy(arrow)

    def apply_arrow(
        self, arrow: dict[str, Any], args: list[Any], what: str, called: frozenset[str]
    ) -> Any:
        """The arrow ``arrow`` (a copy) applied to ``args``: a block binding each argument to
        a hidden name, then each parameter, and giving the body's value (arguments that are
        functions written out in the body instead). ``called``: the parameters it calls."""
        params, body = arrow["$fn"]
        self.check_arguments(what, params, args)
        if self._applying >= MAX_APPLIED:
            raise self._fail_at(
                f"functions passed as arguments call each other more than {MAX_APPLIED} deep "
                "here (a passed function that calls itself, as `f(f, x)` does, never ends)",
                "define a recursive function of the program instead, "
                "function f(x) { ... f(...) ... }, or use `reduce`, `map` or a loop",
            )
        self._applying += 1
        try:
            body, passed = self.pass_functions(what, params, body, args, called)
        finally:
            self._applying -= 1
        return self.bind_arguments(params, body, args, passed, arrow["$fn"])

    def check_arguments(self, what: str, params: list[Any], args: list[Any]) -> None:
        """Refused: a spread argument, more arguments than parameters."""
        for arg in args:
            if type(arg) is dict and len(arg) == 1 and "$spread" in arg:
                raise self._fail_at(
                    f"a spread argument `...` in a call of {what}", "pass the arguments one by one"
                )
        if len(args) > len(params):
            raise self._fail_at(
                f"{what} takes {len(params)} argument{'' if len(params) == 1 else 's'}; a call "
                f"here passes {len(args)}",
                "pass only the arguments it takes",
            )

    def bind_arguments(
        self, params: list[Any], body: Any, args: list[Any], passed: set[str], fn: list[Any]
    ) -> Any:
        """``{"$let": {hidden: arg...}, "$return": {"$let": {param: hidden...}, "$return":
        body}}``, the parameters in ``passed`` (written out in ``body``) left out."""
        rec = self.rec
        hidden: dict[str, Any] = {}
        given: dict[str, Any] = {}
        for i, param in enumerate(params):
            if param in passed:
                continue
            if i < len(args):
                name = self._hidden_param(0)
                hidden[name] = args[i]
                if rec is not None and (id(args), i) in rec:
                    rec[(rec.pin(hidden), name)] = rec[(rec.pin(args), i)]
                given[param] = {"$ref": name}
            else:
                given[param] = {"$undefined": None}
        block: Any = {"$let": given, "$return": body} if given else body
        if given and rec is not None and (id(fn), 1) in rec:
            rec[(rec.pin(block), "$return")] = rec[(rec.pin(fn), 1)]
        if hidden:
            block = {"$let": hidden, "$return": block}
        return block

    def _refuse_value(self, state: _Pass, name: str) -> ParseFailure:
        return self._fail_at(
            f"`{name}` holds the function passed to {state.what}: it can be called, "
            f"`{name}(x)`, or passed to an array method or a function of the program, "
            f"`xs.map({name})`; Plan has no function values to store, return, compare or pass "
            "to a registered function",
            f"call it where its value is needed: {name}(x)",
        )


def _simple(value: Any) -> bool:
    """A binding that gives the same value wherever it is read and runs nothing: a literal or
    a name."""
    if value is None or type(value) in (str, int, float, bool):
        return True
    if type(value) is dict and len(value) == 1:
        ref = value.get("$ref")
        return type(ref) is str or "$undefined" in value
    return False


def _size(tree: Any) -> int:
    """The nodes of ``tree`` (what a copy costs)."""
    count = 0
    stack = [tree]
    while stack:
        t = stack.pop()
        count += 1
        if type(t) is dict:
            stack.extend(v for v in t.values() if type(v) is dict or type(v) is list)
        elif type(t) is list:
            stack.extend(v for v in t if type(v) is dict or type(v) is list)
    return count
