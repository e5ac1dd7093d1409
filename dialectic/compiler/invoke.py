"""Calling a registered function.

One :class:`CallSite` per call of the program holds what every way of calling shares: the
arguments (:class:`ArgSpec`), how they are coerced and passed, how an implementation's
exceptions become outcomes (:meth:`CallSite.error`) and how its result is finished
(:meth:`CallSite.finish`: returned text bounded, arrays and objects held as lists and dicts).
A call strategy builds the closure that runs it:

- :class:`SyncOne`, :class:`SyncTwo`: a synchronous function of one or two synchronous
  arguments, with no validator or context (the fastest paths, positional when the signature
  allows; for one argument of type `any` nothing but `undefined` is checked; a literal second
  argument of the parameter's type, ``max(x, 18)``, is passed as it is with no check);
- :class:`SyncCall`: any other synchronous function of synchronous arguments;
- :class:`InlineCall`: a synchronous function with asynchronous arguments, called inline once
  they are ready;
- :func:`~dialectic.compiler.invoke_logged.logged_sync` and ``logged_inline``: a synchronous
  function outside the built-in library, recorded in the call log (SPEC 18);
- :class:`AsyncCall`: an asynchronous (or blocking) function, under its per-call timeout and the
  concurrency limiters; with synchronous arguments it is also its own launch, the
  asyncio fan-out form (a task of the implementation's own coroutine).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.compiler.asyncfn import AsyncFn
from dialectic.compiler.callsite import (
    DONE_TYPES,
    AmbiguousArg,
    ArgSpec,
    CallSite,
    Coercer,
)
from dialectic.compiler.invoke_async import AsyncCall
from dialectic.compiler.invoke_logged import logged_inline, logged_sync
from dialectic.compiler.sitefacts import FnFacts
from dialectic.limits import Limits
from dialectic.registry.descriptions import FunctionDescription
from dialectic.registry.waiting import is_sleep
from dialectic.run.effects import effect_call
from dialectic.run.evaluator import MISSING, AmbiguityError, Compiled, State, async_many
from dialectic.run.waiting import sleep_call
from dialectic.tree.nodes import Node
from dialectic.values.data import UNDEFINED

__all__ = ["Coercer", "InlineCall", "SyncCall", "SyncOne", "SyncTwo", "invocation"]


def invocation(
    node: Node,
    fn: FunctionDescription,
    specs: list[tuple[str, Compiled | None, Coercer | None, bool]],
    arg_nodes_of: list[Node],
    limits: Limits,
    async_calls: dict[str, int],
    facts: FnFacts | None = None,
    async_fns: dict[int, AsyncFn] | None = None,
) -> Compiled:
    """The closure that calls ``fn``: arguments evaluated, coerced and passed; the outcome of
    the implementation (value, Failure, Ambiguous, unexpected exception) turned into the
    runtime's terms; synchronous functions inline, asynchronous ones with a timeout and the
    concurrency limiters. ``specs`` are (parameter, compiled argument, coercer, optional) in
    parameter order (no compiled argument: a literal scalar), ``arg_nodes_of`` the argument
    nodes; ``facts`` those of ``fn``, if known; ``async_fns`` what the program's asynchronous
    calls of each function share, if kept."""
    args = tuple(
        [
            ArgSpec(name, compiled, coercer, optional, arg)
            for (name, compiled, coercer, optional), arg in zip(specs, arg_nodes_of, strict=True)
        ]
    )
    site = CallSite(node, fn, args, limits, facts)
    if site.logged:  # counted for the call log (SPEC 18): not a function name
        async_calls["$logged"] = async_calls.get("$logged", 0) + 1
    if is_sleep(fn):  # a wait, bounded by the run's deadline (SPEC 17)
        return sleep_call(site)
    if (
        fn.changes_things if facts is None else facts.changes_things
    ):  # write or destructive: approved, in order (SPEC 17)
        return effect_call(site, limits, async_calls)
    if site.is_async or site.blocking:
        return AsyncCall(site, limits, async_calls, async_fns).build()
    if site.logged:
        return logged_sync(site) if site.all_sync else logged_inline(site)
    if not site.all_sync:
        return InlineCall.build(site)
    if SyncOne.fits(site):
        return SyncOne.build(site)
    if SyncTwo.fits(site):
        return SyncTwo.build(site)
    return SyncCall.build(site)


# -- synchronous functions -----------------------------------------------------------------

#: the call site of a fast closure: built (once) when a call needs it, to fail or to coerce
SiteOf = Callable[[], CallSite]
SyncFn = Callable[[State], Any]


def _finish(r: Any, s: State, site_of: SiteOf) -> Any:
    """A result that is not text or a number (an array, an object, ...), as the run holds it
    (:meth:`CallSite.finish`)."""
    try:
        return s.plain(r)
    except Exception as exc:  # a Mapping that cannot be read, ...
        raise site_of().error(exc, s) from None


def _call_one(
    impl: Callable[..., Any],
    pname: str,
    argfn: SyncFn,
    exact: tuple[type, ...] | None,
    max_len: int,
    site_of: SiteOf,
) -> SyncFn:
    """:meth:`SyncOne.closure`, the argument passed by name."""
    typed = exact is not None

    def call_one(s: State) -> Any:
        v = argfn(s)
        if v is UNDEFINED or (typed and type(v) not in exact):  # type: ignore[operator]
            return site_of().call_one(v, s)  # left out, missing, or coerced
        try:
            r = impl(**{pname: v})
        except Exception as exc:
            raise site_of().error(exc, s) from None
        t = type(r)
        if t is str:
            if len(r) > max_len:
                raise site_of().long_result(len(r))
            return r
        return r if t in DONE_TYPES else _finish(r, s, site_of)

    return call_one


def _call_one_any(impl: Callable[..., Any], argfn: SyncFn, max_len: int, site_of: SiteOf) -> SyncFn:
    """:meth:`SyncOne.closure`, positional, of a parameter of type `any`."""

    def call_one_any(s: State) -> Any:
        v = argfn(s)
        if v is UNDEFINED:
            return site_of().call_one(v, s)  # left out, or missing
        try:
            r = impl(v)
        except Exception as exc:
            raise site_of().error(exc, s) from None
        if type(r) is str:
            if len(r) > max_len:
                raise site_of().long_result(len(r))
            return r
        return r if type(r) in DONE_TYPES else _finish(r, s, site_of)

    return call_one_any


def _call_one_positional(
    impl: Callable[..., Any],
    argfn: SyncFn,
    exact: tuple[type, ...],
    max_len: int,
    site_of: SiteOf,
) -> SyncFn:
    """:meth:`SyncOne.closure`, positional, of a typed parameter."""

    def call_one_positional(s: State) -> Any:
        v = argfn(s)
        if type(v) not in exact:
            if v is UNDEFINED:
                return site_of().call_one(v, s)  # left out, or missing
            v = site_of().args[0].slow(v, s)  # type: ignore[misc]
        try:
            r = impl(v)
        except Exception as exc:
            raise site_of().error(exc, s) from None
        if type(r) is str:
            if len(r) > max_len:
                raise site_of().long_result(len(r))
            return r
        return r if type(r) in DONE_TYPES else _finish(r, s, site_of)

    return call_one_positional


class SyncOne:
    """A synchronous function of one synchronous argument, no validator or context."""

    @staticmethod
    def fits(site: CallSite) -> bool:
        return site.simple and len(site.args) == 1 and site.args[0].fn is not None

    @staticmethod
    def build(site: CallSite) -> Compiled:
        arg = site.args[0]
        assert arg.fn is not None
        fn = SyncOne.closure(
            site.impl,
            arg.name,
            arg.fn,
            None if arg.slow is None else arg.exact,
            site.positional([arg.name]),
            site.max_len,
            lambda: site,
        )
        return Compiled(fn)

    @staticmethod
    def closure(
        impl: Callable[..., Any],
        pname: str,
        argfn: SyncFn,
        exact: tuple[type, ...] | None,
        positional: bool,
        max_len: int,
        site_of: SiteOf,
    ) -> SyncFn:
        """The closure of ``impl(pname=argfn(s))``: ``exact`` are the types that need no
        coercion (None: the parameter is `any`, only `undefined` is not passed); ``site_of``
        gives the call site, for the slow paths (undefined, coercion, errors). (Each shape is
        made by a function of its own: a closure's parts are cells, one per part that any
        closure of the function reads, made whichever closure is returned.)"""
        if not positional:
            return _call_one(impl, pname, argfn, exact, max_len, site_of)
        if exact is None:  # a parameter of type `any`: only `undefined` is not passed
            return _call_one_any(impl, argfn, max_len, site_of)
        return _call_one_positional(impl, argfn, exact, max_len, site_of)

    @staticmethod
    def literal(
        impl: Callable[..., Any], pname: str, const: Any, max_len: int, site_of: SiteOf
    ) -> SyncFn:
        """``double(4)``: the only argument a literal of its parameter's type (what the
        general call does with it, its checks made once)."""
        kwargs = {pname: const}

        def call_literal(s: State) -> Any:
            try:
                r = impl(**kwargs)
            except Exception as exc:
                raise site_of().error(exc, s) from None
            if type(r) is str:
                if len(r) > max_len:
                    raise site_of().long_result(len(r))
                return r
            return r if type(r) in DONE_TYPES else _finish(r, s, site_of)

        return call_literal


class SyncTwo:
    """A synchronous function of two arguments, no validator or context."""

    @staticmethod
    def fits(site: CallSite) -> bool:
        # (two effectful arguments: the general way, which stops at an ambiguity, SPEC 17)
        return (
            site.simple
            and len(site.args) == 2
            and not (site.args[0].compiled.ordered and site.args[1].compiled.ordered)
        )

    @staticmethod
    def build(site: CallSite) -> Compiled:
        first, second = site.args
        fn = SyncTwo.closure(
            site.impl,
            (first.name, first.fn, None if first.slow is None else first.exact, first.const),
            (second.name, second.fn, None if second.slow is None else second.exact, second.const),
            site.positional([first.name, second.name]),
            site.max_len,
            lambda: site,
        )
        return Compiled(fn)

    @staticmethod
    def closure(
        impl: Callable[..., Any],
        first: tuple[str, SyncFn | None, tuple[type, ...] | None, Any],
        second: tuple[str, SyncFn | None, tuple[type, ...] | None, Any],
        positional: bool,
        max_len: int,
        site_of: SiteOf,
    ) -> SyncFn:
        """The closure of ``impl(a, b)``: each argument is (parameter, closure or None for a
        literal, the types that need no coercion or None, the literal or MISSING)."""
        _, fa, ea, _ = first
        _, fb, eb, cb = second
        if (
            positional
            and fa is not None
            and fb is None
            and cb is not MISSING
            and cb is not UNDEFINED
            and (eb is None or type(cb) in eb)
        ):
            return SyncTwo.with_literal(impl, fa, ea, cb, max_len, site_of)
        return _call_two(impl, first, second, positional, max_len, site_of)

    @staticmethod
    def with_literal(
        impl: Callable[..., Any],
        fa: SyncFn,
        ea: tuple[type, ...] | None,
        cb: Any,
        max_len: int,
        site_of: SiteOf,
    ) -> SyncFn:
        """``max(x, 18)``: the second argument a literal of its parameter's type, both passed
        positionally (what :meth:`closure` does, with the literal's checks made once)."""

        def call_two_literal(s: State) -> Any:
            try:
                a = fa(s)
            except AmbiguityError as exc:
                a = AmbiguousArg(exc)
            if (
                type(a) is AmbiguousArg or a is UNDEFINED or (ea is not None and type(a) not in ea)
            ):  # ambiguous, left out, or to coerce: the general way
                return site_of().call_with([a, cb], s)
            try:
                r = impl(a, cb)
            except Exception as exc:
                raise site_of().error(exc, s) from None
            if type(r) is str:
                if len(r) > max_len:
                    raise site_of().long_result(len(r))
                return r
            return r if type(r) in DONE_TYPES else _finish(r, s, site_of)

        return call_two_literal


def _call_two(
    impl: Callable[..., Any],
    first: tuple[str, SyncFn | None, tuple[type, ...] | None, Any],
    second: tuple[str, SyncFn | None, tuple[type, ...] | None, Any],
    positional: bool,
    max_len: int,
    site_of: SiteOf,
) -> SyncFn:
    """:meth:`SyncTwo.closure`'s general closure."""
    pa, fa, ea, ca = first
    pb, fb, eb, cb = second

    def call_two(s: State) -> Any:
        amb = False
        a = ca
        if fa is not None:
            try:
                a = fa(s)
            except AmbiguityError as exc:
                a, amb = AmbiguousArg(exc), True
        b = cb
        if fb is not None:
            try:
                b = fb(s)
            except AmbiguityError as exc:
                b, amb = AmbiguousArg(exc), True
        if (
            amb
            or a is UNDEFINED
            or b is UNDEFINED
            or (ea is not None and type(a) not in ea)
            or (eb is not None and type(b) not in eb)
        ):  # ambiguous, left out, or to coerce: the general way
            return site_of().call_with([a, b], s)
        try:
            r = impl(a, b) if positional else impl(**{pa: a, pb: b})
        except Exception as exc:
            raise site_of().error(exc, s) from None
        t = type(r)
        if t is str:
            if len(r) > max_len:
                raise site_of().long_result(len(r))
            return r
        return r if t in DONE_TYPES else _finish(r, s, site_of)

    return call_two


class SyncCall:
    """Any other synchronous function of synchronous arguments."""

    @staticmethod
    def build(site: CallSite) -> Compiled:
        evaluate, kwargs, call = site.evaluate, site.kwargs, site.call

        def call_sync(s: State) -> Any:
            return call(kwargs(evaluate(s), s), s)

        return Compiled(sync=call_sync)


class InlineCall:
    """A synchronous function with asynchronous arguments: called inline once they are ready."""

    @staticmethod
    def build(site: CallSite) -> Compiled:
        amany = async_many([a.compiled for a in site.args], mark=AmbiguousArg)
        kwargs, call = site.kwargs, site.call

        async def call_inline(s: State) -> Any:
            return call(kwargs(await amany(s), s), s)

        return Compiled(aio=call_inline)
