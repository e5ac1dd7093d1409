"""Calling a registered function: the fast synchronous paths, the asynchronous path with its
timeout and concurrency limiters, and how an implementation's exceptions become outcomes."""

from __future__ import annotations

import asyncio
import functools
import inspect
import traceback
from collections.abc import Callable, Coroutine
from typing import Any, TypeGuard

import anyio

from dialectic.limits import Limits
from dialectic.outcome.errors import Ambiguous, DialecticError, Failure, LimitExceeded
from dialectic.registry.descriptions import FunctionDescription
from dialectic.run.evaluator import (
    AmbiguityError,
    AmbiguityItem,
    Compiled,
    Launch,
    State,
    async_many,
    sync_many,
)
from dialectic.tree.nodes import Call, Lit, Node
from dialectic.values.data import UNDEFINED, BadValue, is_scalar
from dialectic.values.serialize import value_error

Coercer = tuple[tuple[type, ...], Callable[[Any, State], Any]]


def invocation(
    node: Call,
    fn: FunctionDescription,
    specs: list[tuple[str, Compiled, Coercer | None, bool]],
    arg_nodes_of: list[Node],
    limits: Limits,
    async_calls: dict[str, int],
) -> Compiled:
    """The closure that calls ``fn``: arguments evaluated, coerced and passed; the outcome of
    the implementation (value, Failure, Ambiguous, unexpected exception) turned into the
    runtime's terms; synchronous functions inline, asynchronous ones with a timeout and the
    concurrency limiters."""
    impl = fn.implementation
    name = fn.name
    path = node.path
    pass_ctx = fn.pass_context
    validator = fn.validator
    is_async = inspect.iscoroutinefunction(impl) or inspect.iscoroutinefunction(
        getattr(impl, "__call__", None)  # noqa: B004
    )
    blocking = fn.blocking and not is_async
    plan = tuple(
        (sp[0], sp[2][0] if sp[2] else (), sp[2][1] if sp[2] else None, sp[3]) for sp in specs
    )

    max_len = limits.max_string_length

    def long_result(n: int) -> LimitExceeded:
        return LimitExceeded(
            "max_string_length",
            f"`{name}` returned {n} characters of text; the limit is {max_len}",
            path,
        )

    def undefined(pname: str) -> DialecticError:
        return DialecticError(
            "missing_argument",
            f"`{name}` needs the argument `{pname}`, which is undefined",
            path,
        )

    def finish_kwargs(kwargs: dict[str, Any], s: State) -> dict[str, Any]:
        if validator is not None:
            try:
                kwargs = validator(kwargs)
            except Failure as exc:
                raise DialecticError(exc.code, f"`{name}`: {exc.message}", path, hint=exc.hint)
        if pass_ctx:
            kwargs["ctx"] = s.ctx
        return kwargs

    def prepare(vals: list[Any], s: State) -> dict[str, Any]:
        kwargs: dict[str, Any] = {}
        for (pname, exact, slow, opt), v in zip(plan, vals, strict=True):
            if v is UNDEFINED:
                if opt:
                    continue
                raise undefined(pname)
            if slow is not None and type(v) not in exact:
                v = slow(v, s)
            kwargs[pname] = v
        if validator is None and not pass_ctx:
            return kwargs
        return finish_kwargs(kwargs, s)

    def call_with(kwargs: dict[str, Any], s: State) -> Any:
        """Call a synchronous implementation: exceptions mapped, returned text bounded."""
        try:
            r = impl(**kwargs)
        except Exception as exc:
            raise handle(exc, s) from None
        if type(r) is str and len(r) > max_len:
            raise long_result(len(r))
        return r

    def handle(exc: Exception, s: State) -> BaseException:
        if isinstance(exc, Ambiguous):
            return AmbiguityError([AmbiguityItem(exc.message, exc.candidates, path, name)])
        if isinstance(exc, Failure):
            return DialecticError(
                exc.code,
                f"`{name}` failed: {exc.message}",
                path,
                hint=exc.hint,
                details={"function": name},
            )
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
        return DialecticError(
            "function_error",
            f"`{name}` failed unexpectedly: {type(exc).__name__}: {exc}",
            path,
            hint="This is an error inside the function, not in the program; "
            "try other arguments or another function.",
            details=details,
        )

    kids = [sp[1] for sp in specs]
    if not is_async and not blocking and all(k.sync is not None for k in kids):
        arg_nodes = arg_nodes_of
        steps = tuple(
            (
                p[0],
                None if _shared_literal(n) else k.sync,
                p[1],
                p[2],
                p[3],
                n.value if _shared_literal(n) else None,
            )
            for p, k, n in zip(plan, kids, arg_nodes, strict=True)
        )
        simple = validator is None and not pass_ctx
        if simple and len(steps) == 1 and steps[0][1] is not None:
            pname1, argfn1, exact1, slow1, _opt1, _ = steps[0]
            assert argfn1 is not None

            def call_one(s: State) -> Any:
                v = argfn1(s)
                if type(v) not in exact1:
                    if v is UNDEFINED:
                        if _opt1:
                            return call_with({}, s)  # the optional argument left out
                        raise undefined(pname1)
                    if slow1 is not None:
                        v = slow1(v, s)
                try:
                    r = impl(v) if positional1 else impl(**{pname1: v})
                except Exception as exc:
                    raise handle(exc, s) from None
                if type(r) is str and len(r) > max_len:
                    raise long_result(len(r))
                return r

            positional1 = _takes_positionally(impl, [pname1])
            return Compiled(sync=call_one)

        if simple and len(steps) == 2:
            (pa, fa, ea, sa, oa, ca), (pb, fb, eb, sb, ob, cb) = steps

            def call_two(s: State) -> Any:
                amb: AmbiguityError | None = None
                a = ca
                if fa is not None:
                    try:
                        a = fa(s)
                    except AmbiguityError as exc:
                        amb = exc
                b = cb
                if fb is not None:
                    try:
                        b = fb(s)
                    except AmbiguityError as exc:
                        amb = exc.merged(amb)
                if amb is not None:
                    raise amb
                if a is not UNDEFINED and b is not UNDEFINED:
                    if sa is not None and type(a) not in ea:
                        a = sa(a, s)
                    if sb is not None and type(b) not in eb:
                        b = sb(b, s)
                    try:
                        r = impl(a, b) if positional2 else impl(**{pa: a, pb: b})
                    except Exception as exc:
                        raise handle(exc, s) from None
                    if type(r) is str and len(r) > max_len:
                        raise long_result(len(r))
                    return r
                kw: dict[str, Any] = {}
                if a is not UNDEFINED:
                    kw[pa] = a if sa is None or type(a) in ea else sa(a, s)
                elif not oa:
                    raise undefined(pa)
                if b is not UNDEFINED:
                    kw[pb] = b if sb is None or type(b) in eb else sb(b, s)
                elif not ob:
                    raise undefined(pb)
                try:
                    r = impl(**kw)
                except Exception as exc:
                    raise handle(exc, s) from None
                if type(r) is str and len(r) > max_len:
                    raise long_result(len(r))
                return r

            positional2 = _takes_positionally(impl, [pa, pb])
            return Compiled(sync=call_two)

        def call_sync(s: State) -> Any:
            kwargs: dict[str, Any] = {}
            amb: AmbiguityError | None = None
            for pname, argfn, exact, slow, opt, v in steps:
                if argfn is not None:
                    try:
                        v = argfn(s)
                    except AmbiguityError as exc:
                        amb = exc.merged(amb)
                        continue
                if v is UNDEFINED:
                    if opt:
                        continue
                    raise undefined(pname)
                if slow is not None and type(v) not in exact:
                    v = slow(v, s)
                kwargs[pname] = v
            if amb is not None:
                raise amb
            if not simple:
                kwargs = finish_kwargs(kwargs, s)
            return call_with(kwargs, s)

        return Compiled(sync=call_sync)

    # arguments that are ready without awaiting are evaluated inline (no coroutine)
    smany = sync_many([k.sync for k in kids]) if all(k.sync for k in kids) else None  # type: ignore[misc]
    amany = async_many(kids) if smany is None else None
    if not is_async and not blocking:
        assert amany is not None

        async def call_inline(s: State) -> Any:
            return call_with(prepare(await amany(s), s), s)

        return Compiled(aio=call_inline)
    timeout = fn.timeout or limits.call_timeout
    cap = fn.max_concurrency
    per_fn = limits.per_function_concurrency.get(name)
    if per_fn is not None:
        cap = min(cap, per_fn) if cap is not None else per_fn

    counts = async_calls
    counts[name] = counts.get(name, 0) + 1
    counts["*"] += 1

    def timed_out() -> DialecticError:
        return DialecticError(
            "timeout",
            f"`{name}` did not finish within {timeout:g} s",
            path,
            hint="The service may be slow; try again, narrow the request, or raise the "
            "`call_timeout` limit.",
            details={"limit": "call_timeout", "function": name},
        )

    def cancelled() -> DialecticError:
        return DialecticError(
            "cancelled",
            f"`{name}` was cancelled unexpectedly (it raised CancelledError itself)",
            path,
            hint="The service or its client library gave up; try again.",
            details={"function": name},
        )

    # all parameters passed, in the implementation's own order: call positionally (faster)
    all_names = [sp[0] for sp in specs]
    positional = (
        validator is None
        and not pass_ctx
        and len(all_names) == len(fn.parameters)
        and _takes_positionally(impl, all_names)
    )

    async def timed(s: State, kwargs: dict[str, Any]) -> Any:
        """Await the implementation under its per-call timeout, exceptions mapped."""
        if s.native and not blocking:
            # asyncio: the timeout is shared with the calls that start in the same millisecond
            # (one timer handle for a whole fan-out), not a cancel scope per call
            task = asyncio.current_task()
            assert task is not None
            bucket = s.timeout_bucket(timeout)
            bucket.tasks.add(task)
            try:
                if positional and len(kwargs) == len(all_names):
                    result = await impl(*kwargs.values())
                else:
                    result = await impl(**kwargs)
            except asyncio.CancelledError:
                if task in bucket.fired and task.uncancel() == 0:
                    raise timed_out() from None
                if not task.cancelling():  # nobody cancelled this task: it came from inside
                    raise cancelled() from None
                raise
            except Exception as exc:
                raise handle(exc, s) from None
            finally:
                bucket.tasks.discard(task)
        else:
            try:
                with anyio.fail_after(timeout):
                    try:
                        if blocking:
                            result = await anyio.to_thread.run_sync(
                                functools.partial(impl, **kwargs), abandon_on_cancel=True
                            )
                        else:
                            result = await impl(**kwargs)
                    except Exception as exc:
                        raise handle(exc, s) from None
            except TimeoutError:  # only our own fail_after raises it here
                raise timed_out() from None
        if type(result) is str and len(result) > max_len:
            raise long_result(len(result))
        return result

    async def call_async(s: State) -> Any:
        kwargs = prepare(smany(s) if smany is not None else await amany(s), s)  # type: ignore[misc]
        # A limiter is needed only if the program can make more calls than it allows
        # (the count is static: there are no loops).
        limiter = s.limiter
        if limiter is None and counts["*"] > s.limits.max_concurrency:
            limiter = s.limiter = anyio.CapacityLimiter(s.limits.max_concurrency)
        fn_limiter = (
            s.function_limiter(name, cap) if cap is not None and counts[name] > cap else None
        )
        if limiter is None and fn_limiter is None:
            return await timed(s, kwargs)
        token = object()  # limiter slots are held on behalf of this call, not the task
        if limiter is not None:
            await _acquire(limiter, token)
        try:
            if fn_limiter is not None:
                await _acquire(fn_limiter, token)
            try:
                return await timed(s, kwargs)
            finally:
                if fn_limiter is not None:
                    fn_limiter.release_on_behalf_of(token)
        finally:
            if limiter is not None:
                limiter.release_on_behalf_of(token)

    if smany is None or blocking:
        return Compiled(aio=call_async)
    argsync = smany
    coerced = tuple((k, p[1], p[2]) for k, p in enumerate(plan) if p[2] is not None)

    def start(s: State) -> Coroutine[Any, Any, Any] | None:
        """Arguments evaluated now and the implementation called: its coroutine, to run as a
        task (None: a concurrency limiter applies, so take the general path)."""
        if counts["*"] > s.limits.max_concurrency or (cap is not None and counts[name] > cap):
            return None
        vals = argsync(s)
        try:
            if positional:
                for v in vals:
                    if v is UNDEFINED:
                        break
                else:
                    for k, exact, slow in coerced:
                        v = vals[k]
                        if type(v) not in exact:
                            vals[k] = slow(v, s)
                    return impl(*vals)  # type: ignore[no-any-return]
            return impl(**prepare(vals, s))  # type: ignore[no-any-return]
        except (DialecticError, AmbiguityError):
            raise
        except Exception as exc:
            raise handle(exc, s) from None

    # every argument a literal of the declared type: the arguments are known now
    if positional and all(
        _shared_literal(n) and n.value is not UNDEFINED and (slow is None or type(n.value) in exact)
        for n, (_, exact, slow, _) in zip(arg_nodes_of, plan, strict=True)
    ):
        consts = tuple(n.value for n in arg_nodes_of)  # type: ignore[attr-defined]

        def start_known(s: State) -> Coroutine[Any, Any, Any] | None:
            if counts["*"] > s.limits.max_concurrency or (cap is not None and counts[name] > cap):
                return None
            try:
                return impl(*consts)  # type: ignore[no-any-return]
            except Exception as exc:
                raise handle(exc, s) from None

        start = start_known

    def result(r: Any) -> Any:
        if type(r) is str and len(r) > max_len:
            raise long_result(len(r))
        return r

    return Compiled(
        aio=call_async, launch=Launch(start, result, handle, timeout, timed_out, cancelled)
    )


def _shared_literal(node: Node) -> TypeGuard[Lit]:
    """A literal argument that can be passed as the same object to every call: an immutable
    scalar (a quoted container is copied per use, so a function cannot change the program)."""
    return isinstance(node, Lit) and is_scalar(node.value)


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


async def _acquire(limiter: anyio.CapacityLimiter, token: object) -> None:
    """Take a slot without yielding to the event loop when one is free."""
    try:
        limiter.acquire_on_behalf_of_nowait(token)
    except anyio.WouldBlock:
        await limiter.acquire_on_behalf_of(token)
