"""Calling an asynchronous (or blocking) function: its arguments, a slot of each concurrency
limiter that applies, then the implementation under its per-call timeout (:class:`AsyncCall`);
with synchronous arguments, on asyncio, also as one task of a fan-out (:class:`LaunchedCall`)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import anyio

from dialectic.compiler.callsite import DONE_TYPES, AmbiguousArg, CallSite
from dialectic.compiler.invoke_logged import _none, frames_of, logged_timed, own_timeout
from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError
from dialectic.run.calllog import DONE, END, FAILED, IN_FLIGHT, STATUS, drop, now
from dialectic.run.evaluator import AmbiguityError, Compiled, Launch, State, async_many
from dialectic.run.fanout import fanout_values, settle_fanout
from dialectic.run.fanstart import native_start
from dialectic.run.state import current_of
from dialectic.values.data import UNDEFINED


class AsyncCall:
    """An asynchronous (or blocking) function: the arguments first, then a slot of each
    concurrency limiter that applies, then the implementation under its per-call timeout."""

    __slots__ = ("site", "timeout", "cap", "counts", "positional")

    def __init__(self, site: CallSite, limits: Limits, async_calls: dict[str, int]) -> None:
        fn = site.fn
        self.site = site
        self.timeout = fn.timeout or limits.call_timeout
        cap = fn.max_concurrency
        per_fn = limits.per_function_concurrency.get(site.name)
        if per_fn is not None:
            cap = min(cap, per_fn) if cap is not None else per_fn
        self.cap = cap
        #: asynchronous calls per function and in all ("*"), counted over the whole program
        #: as it compiles: read at run time, when the count is complete
        self.counts = async_calls
        async_calls[site.name] = async_calls.get(site.name, 0) + 1
        async_calls["*"] += 1
        # every parameter passed, in the implementation's own order: call positionally
        names = [a.name for a in site.args]
        self.positional = len(names) == len(fn.parameters) and site.positional(names)

    def limited(self, s: State) -> bool:
        """Whether a concurrency limiter applies (the program can make more such calls than
        a limit allows; the count is static: there are no loops)."""
        counts, cap = self.counts, self.cap
        return counts["*"] > s.limits.max_concurrency or (
            cap is not None and counts[self.site.name] > cap
        )

    def build(self) -> Compiled:
        site = self.site
        call_async = self._call_async()
        if not site.all_sync or site.blocking:
            return Compiled(aio=call_async)
        return Compiled(aio=call_async, launch=LaunchedCall(self))

    def _timed(self) -> Callable[[State, dict[str, Any]], Awaitable[Any]]:
        site, timeout = self.site, self.timeout
        impl, error, finish, blocking = site.impl, site.error, site.finish, site.blocking
        done_types = DONE_TYPES
        positional, n_args = self.positional, len(site.args)

        async def timed(s: State, kwargs: dict[str, Any]) -> Any:
            """Await the implementation under its per-call timeout, exceptions mapped."""
            if s.native and not blocking:
                # asyncio: the timeout is shared with the calls that start in the same
                # millisecond (one timer handle for a whole fan-out), not a cancel scope
                task = asyncio.current_task()
                assert task is not None
                bucket = s.timeout_bucket(timeout)
                bucket.tasks.add(task)
                try:
                    if positional and len(kwargs) == n_args:
                        result = await impl(*kwargs.values())
                    else:
                        result = await impl(**kwargs)
                except asyncio.CancelledError:
                    if task in bucket.fired and task.uncancel() == 0:
                        raise site.timed_out(timeout) from None
                    if not task.cancelling():  # nobody cancelled this task: it came from inside
                        raise site.cancelled() from None
                    raise
                except Exception as exc:
                    raise error(exc, s) from None
                finally:
                    bucket.release(task)
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
                            raise error(exc, s) from None
                except TimeoutError:  # only our own fail_after raises it here
                    raise site.timed_out(timeout) from None
            return result if type(result) in done_types else finish(result, s)

        return timed

    def _general(self) -> Callable[[State, dict[str, Any]], Awaitable[Any]]:
        """The call's timed await off the inline asyncio path (trio, observers, a blocking
        function, a concurrency limiter), recorded in the call log if the function is."""
        timed = self._timed()
        if self.site.logged:  # recorded in the call log (SPEC 18)
            timed = logged_timed(self.site, timed)
        return timed

    def _call_async(self) -> Callable[[State], Awaitable[Any]]:
        site, cap, counts, timeout = self.site, self.cap, self.counts, self.timeout
        name, kwargs, evaluate, logged = site.name, site.kwargs, site.evaluate, site.logged
        amany = (
            None
            if site.all_sync
            else async_many([a.compiled for a in site.args], mark=AmbiguousArg)
        )
        # asyncio, two or more asynchronous arguments: their fan-out awaited in this frame
        start = None if site.all_sync else native_start([a.compiled for a in site.args])
        impl, error, finish = site.impl, site.error, site.finish
        inline = not site.blocking
        done_types = DONE_TYPES
        by_position = self.positional  # (a positional site is a simple one)
        coerced = coercions(site)
        names = [a.name for a in site.args]
        frames = frames_of(site)
        arrow = frames is not _none  # (inside an arrow function: its element indices)
        # built on first use: most programs never leave the inline path (and a program of
        # 100k call sites prepares faster without a closure per site it never calls)
        general = self._general
        timed: Callable[[State, dict[str, Any]], Awaitable[Any]] | None = None

        unlimited_for: Limits | None = None  # the limits under which no limiter applies

        async def call_async(s: State) -> Any:
            nonlocal timed, unlimited_for
            if amany is None:
                vals = evaluate(s)
            elif start is not None and s.native:
                fan = start(s)
                if fan.pending:
                    try:
                        await fan.waiter
                    except asyncio.CancelledError:
                        await settle_fanout(fan)
                        raise
                vals = fanout_values(fan, AmbiguousArg)
            else:
                vals = await amany(s)
            # every argument passed positionally when each is defined, not ambiguous and of
            # its type (or coerced to it): no dict (else kwargs reports what is wrong)
            if by_position and coerce_in_place(coerced, vals, s):
                kw: Any = vals
            else:
                kw = kwargs(vals, s)
            if s.limits is not unlimited_for:  # (counts are fixed: the limits decide)
                if counts["*"] > s.limits.max_concurrency or (
                    cap is not None and counts[name] > cap
                ):
                    if timed is None:
                        timed = general()
                    return await _limited(s, _as_dict(kw, names), timed, counts, cap, name)
                unlimited_for = s.limits
            if not (inline and s.native) or (logged and s.observers is not None):
                if timed is None:
                    timed = general()
                return await timed(s, _as_dict(kw, names))
            # asyncio with no observers: ``timed``'s asyncio branch inside ``logged_timed`` in
            # one frame (a call costs a coroutine, not three): the implementation's await
            # under the shared per-call timeout and, if logged, its call-log record
            rec: list[Any] | None = None
            if logged:  # (calllog.begin, inline)
                rec = [site, frames() if arrow else None, kw, now(), None, IN_FLIGHT, False]
                log = s.calls
                if len(log) < s.limits.max_call_log:
                    log.append(rec)
                else:
                    drop(s, site)
            bucket = s.timeout_bucket(timeout)  # (which also knows the loop)
            task = current_of(s._loop)
            assert task is not None
            bucket.tasks.add(task)
            try:
                try:
                    # (a dict: a non-positional function, or an optional argument left out)
                    result = await (impl(*vals) if kw is vals else impl(**kw))
                except asyncio.CancelledError:
                    if task in bucket.fired and task.uncancel() == 0:
                        raise site.timed_out(timeout) from None
                    if not task.cancelling():  # nobody cancelled this task: it came from inside
                        raise site.cancelled() from None
                    raise
                except Exception as exc:
                    raise error(exc, s) from None
                finally:  # (bucket.release, inline)
                    waiting = bucket.tasks
                    waiting.discard(task)
                    if not waiting and bucket.handle is not None:
                        bucket.cancel()
                if type(result) not in done_types:
                    result = finish(result, s)
            except BaseException as exc:
                if rec is not None:
                    _record_end(rec, exc, site)
                raise
            if rec is not None:
                rec[END], rec[STATUS] = now(), DONE
            return result

        return call_async


class LaunchedCall(Launch):
    """An :class:`AsyncCall` of synchronous arguments as one task of a fan-out (asyncio): the
    arguments are evaluated and the implementation called when the fan-out starts, and the
    task runs its own coroutine; every argument a literal of its type: known in advance."""

    __slots__ = ("call", "site", "coerced", "consts", "frames", "unlimited_for")

    def __init__(self, call: AsyncCall) -> None:
        self.timeout = call.timeout  # (Launch's one field)
        self.call = call
        self.site = site = call.site
        self.frames = frames_of(site)  # for the call log (SPEC 18)
        args = site.args
        #: the arguments that may need coercion: (index, exact types, coercion)
        self.coerced = coercions(site)
        self.consts: tuple[Any, ...] | None = None
        #: the limits under which no concurrency limiter applies, last seen (counts of calls
        #: are fixed once the program is compiled: the answer depends on the limits alone)
        self.unlimited_for: Limits | None = None
        if call.positional:
            consts = [a.const for a in args if a.fits_as_literal()]
            if len(consts) == len(args):
                self.consts = tuple(consts)

    def start(self, state: State) -> Coroutine[Any, Any, Any] | None:
        """Arguments evaluated now and the implementation called: its coroutine, to run as a
        task (None: a concurrency limiter applies, so take the general path)."""
        limits = state.limits
        if limits is not self.unlimited_for:  # (known for the limits it last saw)
            if self.call.limited(state):
                return None
            self.unlimited_for = limits
        site = self.site
        if site.logged and state.observers is not None:
            return None  # a journal, event hook or tracer: the general path (SPEC 18)
        args: Any
        try:
            if self.consts is not None:
                args = self.consts
                coro = site.impl(*args)
            else:
                args = vals = site.evaluate(state)
                if self.call.positional and coerce_in_place(self.coerced, vals, state):
                    coro = site.impl(*vals)
                else:
                    args = site.kwargs(vals, state)
                    coro = site.impl(**args)
        except (DialecticError, AmbiguityError):
            raise
        except Exception as exc:
            raise site.error(exc, state) from None
        if site.logged:  # its record, found again by the coroutine when the task ends
            rec = [site, self.frames(), args, now(), None, IN_FLIGHT, False]
            log = state.calls
            if len(log) < limits.max_call_log:
                log.append(rec)
            else:
                drop(state, site)
            found = state.calls_launched
            if found is None:
                found = state.calls_launched = {}
            found[coro] = rec
        return coro  # type: ignore[no-any-return]

    def finish(self, value: Any, state: State) -> Any:
        return self.site.finish(value, state)

    def error(self, exc: Exception, state: State) -> BaseException:
        return self.site.error(exc, state)

    def timed_out(self) -> DialecticError:
        return self.site.timed_out(self.timeout)

    def cancelled(self) -> DialecticError:
        return self.site.cancelled()


Coercions = tuple[tuple[int, tuple[type, ...], Callable[[Any, State], Any]], ...]


def coercions(site: CallSite) -> Coercions:
    """The arguments that may need coercion: (index, exact types, coercion)."""
    return tuple((k, a.exact, a.slow) for k, a in enumerate(site.args) if a.slow is not None)


def coerce_in_place(coerced: Coercions, vals: list[Any], state: State) -> bool:
    """Coerce the values for a positional call; False if one is undefined or ambiguous
    (then :meth:`CallSite.kwargs` handles the call and reports every ambiguity)."""
    for v in vals:
        if v is UNDEFINED or type(v) is AmbiguousArg:
            return False
    ready = True
    for k, exact, slow in coerced:
        v = vals[k]
        if type(v) not in exact:
            try:
                vals[k] = slow(v, state)
            except AmbiguityError as exc:
                vals[k], ready = AmbiguousArg(exc), False  # reported by kwargs, in order
    return ready


def _record_end(rec: list[Any], exc: BaseException, site: CallSite) -> None:
    """A logged call raised ``exc``: failed, or (cancelled, or its own timeout) still in
    flight: it may have taken effect (as :func:`logged_timed` records it)."""
    rec[END] = now()
    if isinstance(exc, DialecticError):
        if not own_timeout(exc, site):
            rec[STATUS] = FAILED
    elif isinstance(exc, Exception):
        rec[STATUS] = FAILED


def _as_dict(kw: Any, names: list[str]) -> dict[str, Any]:
    """The keyword arguments, from the values of a positional call (or already a dict)."""
    return kw if type(kw) is dict else dict(zip(names, kw, strict=True))


async def _limited(
    s: State,
    kw: dict[str, Any],
    timed: Callable[[State, dict[str, Any]], Awaitable[Any]],
    counts: dict[str, int],
    cap: int | None,
    name: str,
) -> Any:
    """The call holding a slot of each concurrency limiter that applies."""
    limiter = s.limiter
    if limiter is None and counts["*"] > s.limits.max_concurrency:
        limiter = s.limiter = anyio.CapacityLimiter(s.limits.max_concurrency)
    fn_limiter = s.function_limiter(name, cap) if cap is not None and counts[name] > cap else None
    token = object()  # limiter slots are held on behalf of this call, not the task
    if limiter is not None:
        await _acquire(limiter, token)
    try:
        if fn_limiter is not None:
            await _acquire(fn_limiter, token)
        try:
            return await timed(s, kw)
        finally:
            if fn_limiter is not None:
                fn_limiter.release_on_behalf_of(token)
    finally:
        if limiter is not None:
            limiter.release_on_behalf_of(token)


async def _acquire(limiter: anyio.CapacityLimiter, token: object) -> None:
    """Take a slot without yielding to the event loop when one is free."""
    try:
        limiter.acquire_on_behalf_of_nowait(token)
    except anyio.WouldBlock:
        await limiter.acquire_on_behalf_of(token)
