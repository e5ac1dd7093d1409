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
  concurrency limiters; with synchronous arguments it also offers a :class:`LaunchedCall`, the
  asyncio fan-out form (a task of the implementation's own coroutine).
"""

from __future__ import annotations

from typing import Any

from dialectic.compiler.callsite import (
    DONE_TYPES,
    AmbiguousArg,
    ArgSpec,
    CallSite,
    Coercer,
)
from dialectic.compiler.invoke_async import AsyncCall
from dialectic.compiler.invoke_logged import logged_inline, logged_sync
from dialectic.limits import Limits
from dialectic.registry.descriptions import FunctionDescription
from dialectic.run.effects import effect_call
from dialectic.run.evaluator import AmbiguityError, Compiled, State, async_many
from dialectic.tree.nodes import Node
from dialectic.values.data import UNDEFINED

__all__ = ["Coercer", "InlineCall", "SyncCall", "SyncOne", "SyncTwo", "invocation"]


def invocation(
    node: Node,
    fn: FunctionDescription,
    specs: list[tuple[str, Compiled, Coercer | None, bool]],
    arg_nodes_of: list[Node],
    limits: Limits,
    async_calls: dict[str, int],
) -> Compiled:
    """The closure that calls ``fn``: arguments evaluated, coerced and passed; the outcome of
    the implementation (value, Failure, Ambiguous, unexpected exception) turned into the
    runtime's terms; synchronous functions inline, asynchronous ones with a timeout and the
    concurrency limiters. ``specs`` are (parameter, compiled argument, coercer, optional) in
    parameter order, ``arg_nodes_of`` the argument nodes."""
    args = tuple(
        ArgSpec(name, compiled, coercer, optional, arg)
        for (name, compiled, coercer, optional), arg in zip(specs, arg_nodes_of, strict=True)
    )
    site = CallSite(node, fn, args, limits)
    if site.logged:  # counted for the call log (SPEC 18): not a function name
        async_calls["$logged"] = async_calls.get("$logged", 0) + 1
    if fn.changes_things:  # write or destructive: approved, in order (SPEC 17)
        return effect_call(site, limits, async_calls)
    if site.is_async or site.blocking:
        return AsyncCall(site, limits, async_calls).build()
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


class SyncOne:
    """A synchronous function of one synchronous argument, no validator or context."""

    @staticmethod
    def fits(site: CallSite) -> bool:
        return site.simple and len(site.args) == 1 and site.args[0].fn is not None

    @staticmethod
    def build(site: CallSite) -> Compiled:
        arg = site.args[0]
        if site.positional([arg.name]):
            return SyncOne.positional(site)
        argfn, exact, slow, optional, pname = arg.fn, arg.exact, arg.slow, arg.optional, arg.name
        assert argfn is not None
        impl, error, finish, call = site.impl, site.error, site.finish, site.call
        max_len = site.max_len

        def call_one(s: State) -> Any:
            v = argfn(s)
            if type(v) not in exact:
                if v is UNDEFINED:
                    if optional:
                        return call({}, s)  # the optional argument left out
                    raise site.undefined(pname)
                if slow is not None:
                    v = slow(v, s)
            try:
                r = impl(**{pname: v})
            except Exception as exc:
                raise error(exc, s) from None
            t = type(r)
            if t is str:
                if len(r) > max_len:
                    raise site.long_result(len(r))
                return r
            return r if t in DONE_TYPES else finish(r, s)

        return Compiled(sync=call_one)

    @staticmethod
    def positional(site: CallSite) -> Compiled:
        """:meth:`build` for an implementation that takes the argument positionally."""
        arg = site.args[0]
        argfn, exact, slow, optional, pname = arg.fn, arg.exact, arg.slow, arg.optional, arg.name
        assert argfn is not None
        impl, error, finish, call = site.impl, site.error, site.finish, site.call
        max_len = site.max_len

        if slow is None:  # a parameter of type `any`: only `undefined` is not passed

            def call_one_any(s: State) -> Any:
                v = argfn(s)
                if v is UNDEFINED:
                    if optional:
                        return call({}, s)  # the optional argument left out
                    raise site.undefined(pname)
                try:
                    r = impl(v)
                except Exception as exc:
                    raise error(exc, s) from None
                if type(r) is str:
                    if len(r) > max_len:
                        raise site.long_result(len(r))
                    return r
                return r if type(r) in DONE_TYPES else finish(r, s)

            return Compiled(sync=call_one_any)

        def call_one_positional(s: State) -> Any:
            v = argfn(s)
            if type(v) not in exact:
                if v is UNDEFINED:
                    if optional:
                        return call({}, s)  # the optional argument left out
                    raise site.undefined(pname)
                if slow is not None:
                    v = slow(v, s)
            try:
                r = impl(v)
            except Exception as exc:
                raise error(exc, s) from None
            if type(r) is str:
                if len(r) > max_len:
                    raise site.long_result(len(r))
                return r
            return r if type(r) in DONE_TYPES else finish(r, s)

        return Compiled(sync=call_one_positional)


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
        pa, fa, ea, sa, ca = first.name, first.fn, first.exact, first.slow, first.const
        pb, fb, eb, sb, cb = second.name, second.fn, second.exact, second.slow, second.const
        impl, error, finish = site.impl, site.error, site.finish
        call, kwargs = site.call, site.kwargs
        max_len = site.max_len
        positional = site.positional([pa, pb])
        if positional and fa is not None and fb is None and second.fits_as_literal():
            return SyncTwo.with_literal(site)

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
                or (sa is not None and type(a) not in ea)
                or (sb is not None and type(b) not in eb)
            ):  # ambiguous, left out, or to coerce: the general way
                return call(kwargs([a, b], s), s)
            try:
                r = impl(a, b) if positional else impl(**{pa: a, pb: b})
            except Exception as exc:
                raise error(exc, s) from None
            t = type(r)
            if t is str:
                if len(r) > max_len:
                    raise site.long_result(len(r))
                return r
            return r if t in DONE_TYPES else finish(r, s)

        return Compiled(sync=call_two)

    @staticmethod
    def with_literal(site: CallSite) -> Compiled:
        """``max(x, 18)``: the second argument a literal of its parameter's type, both passed
        positionally (what :meth:`build` does, with the literal's checks made once)."""
        first, second = site.args
        fa, ea, sa, cb = first.fn, first.exact, first.slow, second.const
        assert fa is not None
        impl, error, finish = site.impl, site.error, site.finish
        call, kwargs = site.call, site.kwargs
        max_len = site.max_len

        def call_two_literal(s: State) -> Any:
            try:
                a = fa(s)
            except AmbiguityError as exc:
                a = AmbiguousArg(exc)
            if (
                type(a) is AmbiguousArg or a is UNDEFINED or (sa is not None and type(a) not in ea)
            ):  # ambiguous, left out, or to coerce: the general way
                return call(kwargs([a, cb], s), s)
            try:
                r = impl(a, cb)
            except Exception as exc:
                raise error(exc, s) from None
            if type(r) is str:
                if len(r) > max_len:
                    raise site.long_result(len(r))
                return r
            return r if type(r) in DONE_TYPES else finish(r, s)

        return Compiled(sync=call_two_literal)


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
