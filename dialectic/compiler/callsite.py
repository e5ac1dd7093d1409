"""What every way of calling a registered function at one place of a program shares: its
arguments (:class:`ArgSpec`), how they are coerced and passed, how the implementation's
exceptions become outcomes, and how its result is finished (:class:`CallSite`). The call
strategies that use them are in :mod:`dialectic.compiler.invoke` (synchronous functions) and
:mod:`dialectic.compiler.invoke_async` (asynchronous and blocking ones)."""

from __future__ import annotations

import inspect
import traceback
from collections.abc import Callable
from typing import Any, Final

from dialectic.compiler.literals import Literal
from dialectic.compiler.sitefacts import FnFacts
from dialectic.limits import Limits
from dialectic.outcome.errors import Ambiguous, DialecticError, Failure, JSONPath, LimitExceeded
from dialectic.registry.descriptions import FunctionDescription
from dialectic.run.evaluator import MISSING, AmbiguityError, AmbiguityItem, Compiled, State, merge
from dialectic.tree.nodes import Arr, Get, Lit, Node, Obj, Op, Template, Undefined
from dialectic.tree.resolved import ConstRef, ContextRef, DomainCall, Invoke
from dialectic.values.data import UNDEFINED, BadValue, is_scalar
from dialectic.values.infinity import INFINITIES, InfinityLeaving
from dialectic.values.serialize import value_error

Coercer = tuple[tuple[type, ...], Callable[[Any, State], Any]]

#: result types that need no finishing (text is bounded; containers and others normalised)
DONE_TYPES: Final = frozenset({int, bool, type(None)})  # (a float is checked: NaN is refused)


class ArgSpec:
    """One argument of a call: its parameter, compiled expression, coercion and whether it may
    be left out; a literal scalar is passed as the same object every time (``const``)."""

    __slots__ = ("name", "_compiled", "given", "fn", "exact", "slow", "optional", "const")

    def __init__(
        self,
        name: str,
        compiled: Compiled | None,
        coercer: Coercer | None,
        optional: bool,
        node: Node,
    ) -> None:
        self.name = name
        #: the compiled argument as given, before any check added below (None: a literal)
        self.given = compiled
        #: the compiled argument; None for a literal scalar (made when first asked for: most
        #: call sites only pass its value, ``const``)
        self._compiled = compiled
        #: the Python types that need no coercion, and the coercion (None: the type is `any`,
        #: or the argument is a literal of the parameter's type)
        self.exact: tuple[type, ...]
        self.slow: Callable[[Any, State], Any] | None
        if coercer is None:
            self.exact, self.slow = (), None
        else:
            self.exact, self.slow = coercer
        self.optional = optional
        #: a literal scalar, passed as the same object every time (else MISSING), and how to
        #: evaluate the argument synchronously (None: a shared literal, or an asynchronous one);
        #: a quoted container is no such literal (it is copied per use, so that a function
        #: cannot change the program)
        if type(node) is Lit and is_scalar(node.value) and node.value not in INFINITIES:
            self.const, self.fn = node.value, None
        else:
            assert compiled is not None
            if unchecked(self.exact if coercer is not None else None) and may_hold_undefined(node):
                # an array or object the program built may hold `undefined`: null in an
                # array, a member left out (a conversion to another type does the same); a
                # number may be an infinity, which cannot leave the run
                self._compiled = compiled = leaving(compiled, f"argument `{name}`", node.path)
            self.const, self.fn = MISSING, compiled.sync

    @property
    def compiled(self) -> Compiled:
        """The compiled argument (a literal scalar's made on first use)."""
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = Literal(self.const)
        return compiled

    def fits_as_literal(self) -> bool:
        """A literal of the declared type: known before the run, nothing to coerce."""
        const = self.const
        return (
            const is not MISSING
            and const is not UNDEFINED
            and (self.slow is None or type(const) in self.exact)
        )


#: argument nodes whose value never holds an `undefined` nor an infinity: finite literals,
#: templates, booleans and texts of operators, calls (their results are plain data), the
#: context and constants
CLEAN: Final = frozenset({Lit, Template, Undefined, Invoke, DomainCall, ContextRef, ConstRef})
_SCALAR_OPS: Final = frozenset(
    {"<", "<=", ">", ">=", "===", "!==", "==", "!=", "!", "typeof"}
)  # (arithmetic may make an infinity: `1 / 0`, `1e308 * 10`)


def unchecked(exact: tuple[type, ...] | None) -> bool:
    """Whether a parameter with the types ``exact`` that need no conversion (None: any value)
    takes an array, an object or a number as it is: one the program made is checked as it
    leaves (an `undefined` inside, an infinity); another value is checked by its conversion."""
    return exact is None or list in exact or dict in exact or float in exact


def may_hold_undefined(node: Node) -> bool:
    """Whether the value of ``node`` may be an array or object holding ``undefined`` (built by
    the program: a literal, a method's result, an alias...), or an infinity, judged from its
    form."""
    stack = [node]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is Lit and n.value in INFINITIES:  # type: ignore[attr-defined]
            return True
        if t in CLEAN:
            continue
        if t is Op and n.op in _SCALAR_OPS:  # type: ignore[attr-defined]
            continue
        if t is Arr or t is Obj:
            # (`undefined` as an argument counts as omitted; as an item or a field it is held)
            kids = n.items if t is Arr else list(n.fields.values())  # type: ignore[attr-defined]
            if any(type(k) is Undefined for k in kids):
                return True
            stack.extend(kids)
            continue
        if t is Get and not n.optional:  # type: ignore[attr-defined]
            stack.append(n.target)  # type: ignore[attr-defined]
            continue
        return True
    return False


def _argument(s: State, v: Any, what: str, path: JSONPath) -> Any:
    """An argument's value made ready to leave the run (:meth:`State.defined`); ``undefined``
    itself stays, so that it counts as omitted; an infinity is refused (``what``: the
    argument, ``path``: its expression)."""
    if v is UNDEFINED:
        return v
    try:
        return s.defined(v)
    except InfinityLeaving as exc:
        raise exc.error(what, path) from None


def leaving_fn(sync: Callable[[State], Any], what: str, path: JSONPath) -> Callable[[State], Any]:
    """The synchronous ``sync`` with its value made ready to leave the run."""
    return lambda s: _argument(s, sync(s), what, path)


def leaving(compiled: Compiled, what: str, path: JSONPath) -> Compiled:
    """``compiled`` with its value made ready to leave the run (:func:`_argument`)."""
    sync, aio = compiled.sync, compiled.aio
    if sync is not None:
        out = Compiled(sync=lambda s: _argument(s, sync(s), what, path))
    else:
        assert aio is not None

        async def leave(s: State) -> Any:
            return _argument(s, await aio(s), what, path)

        out = Compiled(aio=leave)
    out.ordered = compiled.ordered
    return out


class AmbiguousArg:
    """An argument whose evaluation was ambiguous: its ambiguity, kept in argument order so
    that :meth:`CallSite.kwargs` reports it with the other arguments' ambiguities."""

    __slots__ = ("exc",)

    def __init__(self, exc: AmbiguityError) -> None:
        self.exc = exc


class CallSite:
    """What every way of calling one function at one place shares."""

    __slots__ = (
        "fn",
        "impl",
        "name",
        "path",
        "args",
        "max_len",
        "validator",
        "pass_ctx",
        "simple",
        "is_async",
        "blocking",
        "all_sync",
        "logged",
    )

    def __init__(
        self,
        node: Node,
        fn: FunctionDescription,
        args: tuple[ArgSpec, ...],
        limits: Limits,
        facts: FnFacts | None = None,
    ) -> None:
        if facts is None:
            facts = FnFacts(fn)
        self.fn = fn
        self.impl = fn.implementation
        self.name = fn.name
        self.path = node.path
        self.args = args
        self.max_len = limits.max_string_length
        self.validator = fn.validator
        self.pass_ctx = fn.pass_context
        #: the keyword arguments are passed as they are (no validator, no run context)
        self.simple = facts.simple
        # facts about the implementation are computed once per function (registry), not per
        # call site: `inspect` costs more than compiling the call
        self.is_async = facts.is_async
        self.blocking = facts.blocking
        all_sync = True
        for a in args:
            if a.fn is None and a.const is MISSING:  # (neither synchronous nor a literal)
                all_sync = False
                break
        self.all_sync = all_sync
        #: calls of it go into the call log (every function but the built-in library)
        self.logged = facts.logged

    def positional(self, names: list[str]) -> bool:
        """Whether the implementation can take these arguments positionally (faster)."""
        if not self.simple:
            return False
        if self.impl is self.fn.implementation:
            return self.fn.takes_positionally(names)
        return _takes_positionally(self.impl, names)

    # -- errors ---------------------------------------------------------------------------
    def error(self, exc: Exception, s: State) -> BaseException:
        """What an exception from the implementation means to the run."""
        name, path = self.name, self.path
        if isinstance(exc, Ambiguous):
            return AmbiguityError([AmbiguityItem(exc.message, exc.candidates, path, name)])
        if isinstance(exc, Failure):
            err = DialecticError(
                exc.code,
                f"`{name}` failed: {exc.message}",
                path,
                hint=exc.hint,
                details={"function": name},
            )
            err.throws = True  # (a call that fails throws in JavaScript: `try` may catch it)
            err.thrown = ({"name": "Error", "message": exc.message},)  # (`e.message`: its own)
            return err
        if isinstance(exc, BadValue):
            err = value_error(exc, "max_string_length")
            err.message = f"`{name}`: {err.message}"
            err.path = path
            return err
        if isinstance(exc, DialecticError | AmbiguityError):
            if isinstance(exc, DialecticError) and not exc.path:
                exc.path = path
            return exc
        details: dict[str, Any] = {"function": name, "exception": type(exc).__name__}
        if s.debug:
            details["traceback"] = "".join(traceback.format_exception(exc))
        err = DialecticError(
            "function_error",
            f"`{name}` failed unexpectedly: {type(exc).__name__}: {exc}",
            path,
            hint="This is an error inside the function, not in the program; "
            "try other arguments or another function.",
            details=details,
        )
        err.throws = True
        err.thrown = ({"name": "Error", "message": str(exc)},)
        return err

    def undefined(self, pname: str) -> DialecticError:
        return DialecticError(
            "missing_argument",
            f"`{self.name}` needs the argument `{pname}`, which is undefined",
            self.path,
        )

    def long_result(self, n: int) -> LimitExceeded:
        return LimitExceeded(
            "max_string_length",
            f"`{self.name}` returned {n} characters of text; the limit is {self.max_len}",
            self.path,
        )

    def timed_out(self, timeout: float) -> DialecticError:
        return DialecticError(
            "timeout",
            f"`{self.name}` did not finish within {timeout:g} s",
            self.path,
            hint="The service may be slow; try again, narrow the request, or raise the "
            "`call_timeout` limit.",
            details={"limit": "call_timeout", "function": self.name},
        )

    def cancelled(self) -> DialecticError:
        return DialecticError(
            "cancelled",
            f"`{self.name}` was cancelled unexpectedly (it raised CancelledError itself)",
            self.path,
            hint="The service or its client library gave up; try again.",
            details={"function": self.name},
        )

    # -- arguments ------------------------------------------------------------------------
    def evaluate(self, s: State) -> list[Any]:
        """The synchronous arguments' values; an ambiguous one is marked, not raised, so that
        :meth:`kwargs` reports every ambiguity of the call in argument order."""
        vals: list[Any] = []
        for a in self.args:
            fn = a.fn
            if fn is None:
                vals.append(a.const)
                continue
            try:
                vals.append(fn(s))
            except AmbiguityError as exc:
                if a.compiled.ordered:  # nothing effectful after it runs (SPEC 17)
                    raise
                vals.append(AmbiguousArg(exc))
        return vals

    def kwargs(self, vals: list[Any], s: State) -> dict[str, Any]:
        """The keyword arguments: an undefined required argument fails, an undefined optional
        one is left out, the others are coerced to their parameter's type; the ambiguities of
        all arguments (evaluation or coercion) are raised together, in argument order."""
        out: dict[str, Any] = {}
        amb: AmbiguityError | None = None
        for a, v in zip(self.args, vals, strict=True):
            if type(v) is AmbiguousArg:
                amb = merge(amb, v.exc)
                continue
            if v is UNDEFINED:
                if a.optional:
                    continue
                raise self.undefined(a.name)
            slow = a.slow
            if slow is not None and type(v) not in a.exact:
                try:
                    v = slow(v, s)
                except AmbiguityError as exc:
                    amb = merge(amb, exc)
                    continue
            out[a.name] = v
        if amb is not None:
            raise amb
        if self.simple:
            return out
        return self.finish_kwargs(out, s)

    def finish_kwargs(self, kwargs: dict[str, Any], s: State) -> dict[str, Any]:
        """The function's own validator (pydantic, from ``@function``) and the run context."""
        if self.validator is not None:
            try:
                kwargs = self.validator(kwargs)
            except Failure as exc:
                raise DialecticError(
                    exc.code, f"`{self.name}`: {exc.message}", self.path, hint=exc.hint
                )
        if self.pass_ctx:
            kwargs["ctx"] = s.ctx
        return kwargs

    # -- results --------------------------------------------------------------------------
    def finish(self, r: Any, s: State) -> Any:
        """A result as the run holds it: text within ``max_string_length``; arrays and objects
        of any class as lists and dicts, all the way down (SPEC section 3)."""
        t = type(r)
        if t is str:
            if len(r) > self.max_len:
                raise self.long_result(len(r))
            return r
        if t in DONE_TYPES:
            return r
        try:
            return s.plain(r)
        except Exception as exc:  # a Mapping that cannot be read, ...
            raise self.error(exc, s) from None

    def call_one(self, v: Any, s: State) -> Any:
        """Call with ``v``, the value of the only argument, the general way (left out if
        undefined and optional, coerced): the slow path of a one-argument call."""
        a = self.args[0]
        if v is UNDEFINED:
            if a.optional:
                return self.call({}, s)  # the optional argument left out
            raise self.undefined(a.name)
        if a.slow is not None and type(v) not in a.exact:
            v = a.slow(v, s)
        return self.call({a.name: v}, s)

    def call_with(self, vals: list[Any], s: State) -> Any:
        """Call with the arguments' values, the general way (:meth:`kwargs`)."""
        return self.call(self.kwargs(vals, s), s)

    def call(self, kwargs: dict[str, Any], s: State) -> Any:
        """Call the synchronous implementation: exceptions mapped, the result finished."""
        try:
            r = self.impl(**kwargs)
        except Exception as exc:
            raise self.error(exc, s) from None
        return self.finish(r, s)


def _takes_positionally(impl: Callable[..., Any], names: list[str]) -> bool:
    """Whether ``impl(*values)`` means ``impl(**dict(zip(names, values)))`` (a faster call)."""
    try:
        params = list(inspect.signature(impl).parameters.values())
    except (TypeError, ValueError):
        return False
    if len(params) < len(names):
        return False
    for p, name in zip(params, names, strict=False):
        if p.name != name or p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
            return False
    # parameters after ours must not be required positionals (they would be filled wrongly)
    return all(
        p.default is not inspect.Parameter.empty
        or p.kind
        in (
            inspect.Parameter.KEYWORD_ONLY,
            inspect.Parameter.VAR_KEYWORD,
            inspect.Parameter.VAR_POSITIONAL,
        )
        for p in params[len(names) :]
    )
