"""Calling an asynchronous (or blocking) function: its arguments, a slot of each concurrency
limiter that applies, then the implementation under its per-call timeout (:class:`AsyncCall`);
with synchronous arguments, on asyncio, also as one task of a fan-out (its :class:`Launch`
side: the arguments evaluated and the implementation's own coroutine run as the task).

One :class:`AsyncCall` per call site is both the call's coroutine function (its bound method
``call_async``) and its launch: a program of 100k call sites makes one object and one bound
method per site, not a closure of two dozen cells and a second object. What the calls of one
function share in a program (its timeout, concurrency cap, the program's counts of calls,
whether a limiter applies under the limits last seen) is one :class:`AsyncFn`.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any

import anyio

from dialectic.compiler.asyncfn import AsyncFn, Timed, _limited, async_fn
from dialectic.compiler.callsite import DONE_TYPES, AmbiguousArg, ArgSpec, CallSite
from dialectic.compiler.dagargs import args_awaited, args_now
from dialectic.compiler.invoke_logged import _none, logged_timed, own_timeout
from dialectic.compiler.lambdas import FRAME
from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError
from dialectic.run.calllog import DONE, END, FAILED, IN_FLIGHT, STATUS, drop, now
from dialectic.run.evaluator import (
    MISSING,
    AmbiguityError,
    Compiled,
    Launch,
    State,
    async_many,
)
from dialectic.run.fanout import _Fanout, fanout_values, settle_fanout
from dialectic.run.fanstart import native_start
from dialectic.run.slotwait import MAX_SLOTS, wait_slots
from dialectic.run.state import AsyncSlot, TimeoutBucket, current_of
from dialectic.values.data import UNDEFINED

_Undefined = type(UNDEFINED)

Coercions = tuple[tuple[int, tuple[type, ...], Callable[[Any, State], Any]], ...]


class AsyncCall(Launch):
    """An asynchronous (or blocking) function at one call site: the arguments first, then a
    slot of each concurrency limiter that applies, then the implementation under its per-call
    timeout (:meth:`call_async`). With synchronous arguments, not blocking, it is also the
    call's :class:`Launch` (:meth:`start`): every argument a literal of its type is known in
    advance (``consts``)."""

    __slots__ = (
        "site",
        "shared",
        "positional",
        "coerced",
        "typed",
        "consts",
        "frames",
        "amany",
        "fan_start",
        "slot_idxs",
        "timed",
        "dag_args",
        "dag_tasks",
        "dag_ready",
    )

    def __init__(
        self,
        site: CallSite,
        limits: Limits,
        async_calls: dict[str, int],
        table: dict[int, AsyncFn] | None = None,
    ) -> None:
        fn = site.fn
        self.shared = shared = async_fn(fn, limits, async_calls, table)
        self.site = site
        self.timeout = shared.timeout  # (Launch's one field)
        name = site.name
        async_calls[name] = async_calls.get(name, 0) + 1
        async_calls["*"] += 1
        args = site.args
        # every parameter passed, in the implementation's own order: call positionally
        names = tuple([a.name for a in args])
        positional = shared.positional.get(names)
        if positional is None:
            positional = shared.positional[names] = len(names) == len(
                fn.parameters
            ) and site.positional(list(names))
        self.positional = positional
        #: the arguments that may need coercion: (index, exact types, coercion)
        coerced: Coercions = ()
        #: every argument a literal of its type, passed positionally: known in advance
        consts: list[Any] | None = [] if positional else None
        for k, a in enumerate(args):
            slow = a.slow
            if slow is not None:
                coerced += ((k, a.exact, slow),)
            if consts is not None:
                const = a.const  # (ArgSpec.fits_as_literal)
                if (
                    const is not MISSING
                    and const is not UNDEFINED
                    and (slow is None or type(const) in a.exact)
                ):
                    consts.append(const)
                else:
                    consts = None
        self.coerced = coerced
        #: positional, every argument of a type with exact Python types: a value of one of
        #: them is defined, not ambiguous and needs no coercion (see coerce_in_place)
        self.typed = _typed(args) if positional else None
        self.consts = tuple(consts) if consts is not None else None
        #: the arrow applications the call runs in, for the call log (SPEC 18)
        self.frames = FRAME.get if "$fn" in site.path else _none
        self.timed: Timed | None = None  # built on first use (most programs never need it)
        #: in a program that runs as a static call graph (dialectic.run.dagrun), how each
        #: argument is found while the graph runs: (CONST, value), (SYNC, fn) or (TASK, index)
        self.dag_args: tuple[tuple[int, Any], ...] | None = None
        #: the tasks' indices when every argument is an alias's task, one to three of them
        #: (awaited in place: no iterator and no list held while the call waits)
        self.dag_tasks: tuple[int, ...] | None = None
        #: whether no argument is a task (literals and context values only)
        self.dag_ready = False
        self.slot_idxs: tuple[int, ...] | None = None
        if site.all_sync:
            self.amany = self.fan_start = None
        else:
            kids = [a.compiled for a in args]
            self.amany = async_many(kids, mark=AmbiguousArg)
            # asyncio, two or more asynchronous arguments: their fan-out awaited in one frame
            self.fan_start = start = native_start(kids)
            # every argument an alias (2 to MAX_SLOTS): when all are being evaluated
            # elsewhere, their slots waited on in this frame (no fan-out)
            aliases = [k.alias for k in kids]
            if start is not None and None not in aliases and len(aliases) <= MAX_SLOTS:
                self.slot_idxs = tuple([a[0] for a in aliases if a is not None])

    def limited(self, s: State) -> bool:
        """Whether a concurrency limiter applies to this call in run ``s``."""
        return self.shared.limited(s.limits)

    def build(self) -> Compiled:
        site = self.site
        if not site.all_sync or site.blocking:
            out = Compiled(aio=self.call_async)
        else:
            out = Compiled(aio=self.call_async, launch=self)
        out.into = self.call_async  # (its own fan-out child's task: no wrapper coroutine)
        return out

    def _timed(self) -> Timed:
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

    def general(self) -> Timed:
        """The call's timed await off the inline asyncio path (trio, observers, a blocking
        function, a concurrency limiter), recorded in the call log if the function is; built
        on first use (most programs never leave the inline path)."""
        timed = self.timed
        if timed is None:
            timed = self._timed()
            if self.site.logged:  # recorded in the call log (SPEC 18)
                timed = logged_timed(self.site, timed)
            self.timed = timed
        return timed

    async def call_async(
        self,
        s: State,
        fan: _Fanout | None = None,
        i: int = 0,
        slot: AsyncSlot | None = None,
        idx: int = 0,
    ) -> Any:
        """The call, awaited on its own; or, with ``fan``, the task of child ``i`` of that
        native fan-out, evaluating alias ``idx`` into ``slot``: the call's own coroutine is the
        task, with no wrapper coroutine around it (a coroutine less, and a frame less on each
        of its resumptions), and it does the child's bookkeeping as it ends, as
        :func:`~dialectic.run.fanout._alias` does for the values of other aliases."""
        if fan is not None and fan.stopping:  # stopped before it began: nothing runs
            fan.alias_unbegun(idx, slot)
            return None
        site = self.site
        # (a call of a static call graph, while the graph runs: dialectic.run.dagrun)
        dag = s.dag if self.dag_args is not None else None
        try:
            amany = self.amany
            if dag is not None:  # its arguments: literals, context values, aliases' tasks
                tx = self.dag_tasks
                if tx is None:
                    dag_args = self.dag_args
                    vals = (
                        args_now(dag_args, s)
                        if self.dag_ready
                        else await args_awaited(dag_args, s, dag)
                    )
                else:  # (aliases' tasks only: awaited in place, no iterator or list held)
                    try:
                        n = len(tx)
                        if n == 2:
                            vals = [await dag[tx[0]], await dag[tx[1]]]
                        elif n == 1:
                            vals = [await dag[tx[0]]]
                        else:
                            vals = [await dag[tx[0]], await dag[tx[1]], await dag[tx[2]]]
                    except AmbiguityError:  # (read again: each ambiguous one marked)
                        vals = await args_awaited(self.dag_args, s, dag)
            elif amany is None:
                vals = site.evaluate(s)
            elif self.fan_start is not None and s.native:
                vals = await self._fanned(s)
            else:
                vals = await amany(s)
            # every argument passed positionally when each is defined, not ambiguous and of
            # its type (or coerced to it): no dict (else kwargs reports what is wrong)
            typed = self.typed
            if self.positional and (
                (typed is not None and typed(vals)) or coerce_in_place(self.coerced, vals, s)
            ):
                kw: Any = vals
            else:
                kw = site.kwargs(vals, s)
            # (the inline path's test first: the limits seen before, asyncio, no observers)
            general = (
                None
                if dag is not None  # (dialectic.run.dagrun checked the rest as the run began)
                or (
                    s.limits is self.shared.unlimited_for
                    and s.observers is None
                    and s.native
                    and not site.blocking
                )
                else self._general_path(s)
            )
            if general is not None:
                result = await general(s, _as_dict(kw, site))
            else:
                # asyncio with no observers: ``timed``'s asyncio branch inside
                # ``logged_timed`` in one frame (a call costs a coroutine, not three): the
                # implementation's await under the shared per-call timeout and, if logged,
                # its call-log record
                rec = self._record(s, kw) if site.logged else None
                timeout = self.timeout
                bucket = s.timeout_bucket(timeout)  # (which also knows the loop)
                task = current_of(s._loop)
                assert task is not None
                tasks = bucket.tasks
                tasks.add(task)
                try:
                    try:
                        # (a dict: a non-positional function, or an optional argument left out)
                        result = await (site.impl(*vals) if kw is vals else site.impl(**kw))
                    except asyncio.CancelledError:
                        err = _cancel_error(site, task, bucket, timeout)
                        if err is None:
                            raise
                        raise err from None
                    except Exception as exc:
                        raise site.error(exc, s) from None
                    finally:  # (bucket.release, inline: the run's end cancels the timer)
                        tasks.discard(task)
                    if type(result) not in DONE_TYPES:
                        result = site.finish(result, s)
                except BaseException as exc:
                    if rec is not None:
                        _record_end(rec, exc, site)
                    raise
                if rec is not None:
                    rec[END], rec[STATUS] = now(), DONE
        except BaseException as exc:
            if fan is None:
                if dag is not None:
                    dag.fail(exc)  # the graph's first failure stops its other calls
                raise
            fan.alias_failed(i, slot, exc)
            if not isinstance(exc, Exception):  # (a cancellation; what stops the process)
                raise
            return None
        if fan is not None:
            fan.alias_value(i, slot, result)
        return result

    def _record(self, s: State, args: Any) -> list[Any]:
        """The call's record in the call log, as it starts (``calllog.begin``, inline)."""
        frames = self.frames
        rec = [
            self.site,
            None if frames is _none else frames(),
            args,
            now(),
            None,
            IN_FLIGHT,
            False,
        ]
        log = s.calls
        if len(log) < s.limits.max_call_log:
            log.append(rec)
        else:
            drop(s, self.site)
        return rec

    async def _fanned(self, s: State) -> list[Any]:
        """The arguments' values, two or more asynchronous, on asyncio: the aliases' slots
        waited on in this frame when all are being evaluated elsewhere, else their native
        fan-out, an ambiguous one marked (:class:`AmbiguousArg`)."""
        idxs = self.slot_idxs
        if idxs is not None and (wait := wait_slots(idxs, s)) is not None:
            try:
                await wait.waiter
            except asyncio.CancelledError:
                wait.stop()
                raise
            got = wait.values(AmbiguousArg)  # (None: one was abandoned)
            if got is not None:
                return got
        args: _Fanout = self.fan_start(s)  # type: ignore[misc]
        if args.pending:
            try:
                await args.waiter
            except asyncio.CancelledError:
                await settle_fanout(args)
                raise
        return fanout_values(args, AmbiguousArg)

    def _general_path(self, s: State) -> Timed | None:
        """The call's timed await when it leaves the inline asyncio path (a concurrency
        limiter, trio, a blocking function, observers of a logged call), else None."""
        shared = self.shared
        limits = s.limits
        if limits is not shared.unlimited_for:  # (counts are fixed: the limits decide)
            if shared.limited(limits):
                return functools.partial(_limited, timed=self.general(), shared=shared)
            shared.unlimited_for = limits
        site = self.site
        if site.blocking or not s.native or (site.logged and s.observers is not None):
            return self.general()
        return None

    # -- the call as one task of a fan-out (Launch) ---------------------------------------
    def start(self, state: State) -> tuple[Coroutine[Any, Any, Any], list[Any] | None] | None:
        """Arguments evaluated now and the implementation called: its coroutine, to run as a
        task, and the call's record in the call log, which the task completes as it ends (None
        if the function is not logged); None: a concurrency limiter applies, or observers
        watch the run, so take the general path."""
        limits = state.limits
        shared = self.shared
        if limits is not shared.unlimited_for:  # (known for the limits it last saw)
            if shared.limited(limits):
                return None
            shared.unlimited_for = limits
        site = self.site
        if site.logged and state.observers is not None:
            return None  # a journal, event hook or tracer: the general path (SPEC 18)
        args: Any
        try:
            consts = self.consts
            if consts is not None:
                args = consts
                coro = site.impl(*args)
            else:
                args = vals = site.evaluate(state)
                typed = self.typed
                if self.positional and (
                    (typed is not None and typed(vals))
                    or coerce_in_place(self.coerced, vals, state)
                ):
                    coro = site.impl(*vals)
                else:
                    args = site.kwargs(vals, state)
                    coro = site.impl(**args)
        except (DialecticError, AmbiguityError):
            raise
        except Exception as exc:
            raise site.error(exc, state) from None
        if not site.logged:
            return coro, None
        # its record, handed to the task that runs the coroutine (completed as it ends)
        return coro, self._record(state, args)

    def finish(self, value: Any, state: State) -> Any:
        return self.site.finish(value, state)

    def error(self, exc: Exception, state: State) -> BaseException:
        return self.site.error(exc, state)

    def timed_out(self) -> DialecticError:
        return self.site.timed_out(self.timeout)

    def cancelled(self) -> DialecticError:
        return self.site.cancelled()


def _typed(args: tuple[ArgSpec, ...]) -> Callable[[list[Any]], bool] | None:
    """For one to three arguments, each with exact Python types (a literal's: its own type),
    the test that every value is of its exact types: then it is defined, not ambiguous and
    needs no coercion (one type test per argument, no loop); None otherwise."""
    exacts: list[tuple[type, ...]] = []
    for a in args:
        if a.slow is not None:
            exact = a.exact
        elif a.const is not MISSING and a.const is not UNDEFINED:
            exact = (type(a.const),)
        else:
            return None  # (the type ``any``: the value may be undefined or ambiguous)
        if not exact or _Undefined in exact or AmbiguousArg in exact:
            return None
        exacts.append(exact)
    if len(exacts) == 1:
        (e0,) = exacts
        return lambda vals: type(vals[0]) in e0
    if len(exacts) == 2:
        e0, e1 = exacts
        return lambda vals: type(vals[0]) in e0 and type(vals[1]) in e1
    if len(exacts) == 3:
        e0, e1, e2 = exacts
        return lambda vals: type(vals[0]) in e0 and type(vals[1]) in e1 and type(vals[2]) in e2
    return None


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


def _cancel_error(
    site: CallSite, task: asyncio.Task[Any], bucket: TimeoutBucket, timeout: float
) -> DialecticError | None:
    """What a cancellation of the call's task means: its own timeout, a cancellation from
    inside the implementation (nobody cancelled the task), or None: the run's (re-raised)."""
    if task in bucket.fired and task.uncancel() == 0:
        return site.timed_out(timeout)
    if not task.cancelling():
        return site.cancelled()
    return None


def _record_end(rec: list[Any], exc: BaseException, site: CallSite) -> None:
    """A logged call raised ``exc``: failed, or (cancelled, or its own timeout) still in
    flight: it may have taken effect (as :func:`logged_timed` records it)."""
    rec[END] = now()
    if isinstance(exc, DialecticError):
        if not own_timeout(exc, site):
            rec[STATUS] = FAILED
    elif isinstance(exc, Exception):
        rec[STATUS] = FAILED


def _as_dict(kw: Any, site: CallSite) -> dict[str, Any]:
    """The keyword arguments, from the values of a positional call (or already a dict)."""
    if type(kw) is dict:
        return kw
    return dict(zip([a.name for a in site.args], kw, strict=True))
