"""Calls that go into the call log (SPEC 18): every registered function but the built-in
library. Each call appends one record to the run's log (:mod:`dialectic.run.calllog`) and
marks how it ended; when the run has observers (a journal, an event hook, a tracer:
:mod:`dialectic.run.events`), the call goes through them instead, one ``if`` away.

- :func:`logged_sync`: a synchronous function of synchronous arguments;
- :func:`logged_inline`: a synchronous function with asynchronous arguments;
- :func:`logged_timed`: wraps an asynchronous call's timed await (inside the concurrency
  limiters, so a call waiting for a slot has not started).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from dialectic.compiler.callsite import DONE_TYPES, AmbiguousArg, CallSite
from dialectic.compiler.lambdas import FRAME
from dialectic.outcome.errors import DialecticError
from dialectic.run.calllog import (
    DONE,
    END,
    FAILED,
    STATUS,
    begin,
    drop,
    in_arrow,
    now,
    record,
)
from dialectic.run.evaluator import MISSING, Compiled, State, async_many
from dialectic.values.data import UNDEFINED

Timed = Callable[[State, dict[str, Any]], Awaitable[Any]]


def frames_of(site: CallSite) -> Callable[[], Any]:
    """How to read the arrow applications a call runs in (none outside arrow functions)."""
    return FRAME.get if in_arrow(site.path) else _none


_frames = frames_of  # (the name dialectic.run.effects imports)


def _none() -> None:
    return None


def call_sync(site: CallSite, kw: dict[str, Any], s: State, frames: Any) -> Any:
    """Call a synchronous implementation, recorded (and observed, if the run has observers)."""
    obs = s.observers
    if obs is not None:
        rec, replay = obs.before(s, site, kw, frames)
        if replay is not MISSING:
            return replay
    else:
        rec = begin(s, site, kw, frames)
    try:
        r = site.impl(**kw)
    except Exception as exc:
        rec[END], rec[STATUS] = now(), FAILED
        if obs is not None:
            obs.after(s, rec)
        raise site.error(exc, s) from None
    rec[END] = now()
    try:
        if type(r) not in DONE_TYPES:
            r = site.finish(r, s)
    except BaseException:
        rec[STATUS] = FAILED
        if obs is not None:
            obs.after(s, rec)
        raise
    rec[STATUS] = DONE
    if obs is not None:
        obs.after(s, rec, r)
    return r


def logged_sync(site: CallSite) -> Compiled:
    if site.simple and len(site.args) == 1 and site.args[0].fn is not None:
        return _logged_one(site)
    evaluate, kwargs, frames = site.evaluate, site.kwargs, _frames(site)

    def call_logged(s: State) -> Any:
        return call_sync(site, kwargs(evaluate(s), s), s, frames())

    return Compiled(sync=call_logged)


def _logged_one(site: CallSite) -> Compiled:
    """A function of one synchronous argument, no validator or context (as ``SyncOne``),
    recorded: the record is built inline, the argument kept as a 1-tuple."""
    arg = site.args[0]
    argfn, exact, slow, optional, pname = arg.fn, arg.exact, arg.slow, arg.optional, arg.name
    assert argfn is not None
    impl, error, finish, max_len = site.impl, site.error, site.finish, site.max_len
    positional = site.positional([pname])
    frames = _frames(site)
    in_arrow = frames is not _none

    def call_one_logged(s: State) -> Any:
        v = argfn(s)
        if type(v) not in exact:
            if v is UNDEFINED:
                if optional:
                    return call_sync(site, {}, s, frames())  # the optional argument left out
                raise site.undefined(pname)
            if slow is not None:
                v = slow(v, s)
        if s.observers is not None:
            return call_sync(site, {pname: v}, s, frames())
        # a synchronous call runs to its end before anything else starts: its record is
        # appended when it ends, in one piece, still in the order the calls started
        t0 = now()
        try:
            r = impl(v) if positional else impl(**{pname: v})
        except Exception as exc:
            record(s, (site, frames() if in_arrow else None, (v,), t0, now(), FAILED, False))
            raise error(exc, s) from None
        t1 = now()
        t = type(r)
        if t is str:
            if len(r) > max_len:
                record(s, (site, frames() if in_arrow else None, (v,), t0, t1, FAILED, False))
                raise site.long_result(len(r))
        elif t not in DONE_TYPES:
            try:
                r = finish(r, s)
            except BaseException:
                record(s, (site, frames() if in_arrow else None, (v,), t0, t1, FAILED, False))
                raise
        log = s.calls
        if len(log) < s.limits.max_call_log:
            log.append((site, frames() if in_arrow else None, (v,), t0, t1, DONE, False))
        else:
            drop(s, site)
        return r

    return Compiled(sync=call_one_logged)


def logged_inline(site: CallSite) -> Compiled:
    amany = async_many([a.compiled for a in site.args], mark=AmbiguousArg)
    kwargs, frames = site.kwargs, _frames(site)

    async def call_inline_logged(s: State) -> Any:
        kw = kwargs(await amany(s), s)
        return call_sync(site, kw, s, frames())

    return Compiled(aio=call_inline_logged)


def own_timeout(exc: DialecticError, site: CallSite) -> bool:
    """The call's own per-call timeout: it was cancelled while running."""
    return exc.code == "timeout" and exc.details.get("limit") == "call_timeout"


def logged_timed(site: CallSite, timed: Timed) -> Timed:
    """``timed`` with the call recorded: done, failed, or (cancelled, timed out) in flight."""
    frames = _frames(site)

    async def timed_logged(s: State, kw: dict[str, Any]) -> Any:
        obs = s.observers
        if obs is not None:
            rec, replay = obs.before(s, site, kw, frames())
            if replay is not MISSING:
                return replay
        else:
            rec = begin(s, site, kw, frames())
        try:
            r = await timed(s, kw)
        except DialecticError as exc:
            rec[END] = now()
            if not own_timeout(exc, site):
                rec[STATUS] = FAILED
            if obs is not None:
                obs.after(s, rec)
            raise
        except Exception:
            rec[END], rec[STATUS] = now(), FAILED
            if obs is not None:
                obs.after(s, rec)
            raise
        except BaseException:  # cancelled: it may have taken effect
            rec[END] = now()
            if obs is not None:
                obs.after(s, rec)
            raise
        rec[END], rec[STATUS] = now(), DONE
        if obs is not None:
            obs.after(s, rec, r)
        return r

    return timed_logged
