"""What the asynchronous calls of one function share in one program (SPEC 7, "Limits"): an
:class:`AsyncFn` holds the per-call timeout, the function's concurrency cap and the program's
counts of asynchronous calls (:func:`async_fn` finds the one of a program's table), and
:func:`_limited` runs a call holding a slot of each concurrency limiter that applies, taking a
free slot without yielding to the event loop. Moved out of
:mod:`dialectic.compiler.invoke_async`, which keeps the call site's coroutine; its per-call
code reads these names at module level, as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio

from dialectic.limits import Limits
from dialectic.registry.descriptions import FunctionDescription
from dialectic.run.evaluator import State

Timed = Callable[[State, dict[str, Any]], Awaitable[Any]]


class AsyncFn:
    """What the asynchronous calls of one function share in one program: the per-call timeout,
    the function's concurrency cap, the program's counts of asynchronous calls, and the limits
    under which no concurrency limiter applies, last seen (the counts are fixed once the program
    is compiled: the answer depends on the limits alone)."""

    __slots__ = ("fn", "name", "timeout", "cap", "counts", "unlimited_for", "positional")

    def __init__(self, fn: FunctionDescription, limits: Limits, counts: dict[str, int]) -> None:
        self.fn = fn
        self.name = fn.name
        self.timeout = fn.timeout or limits.call_timeout
        cap = fn.max_concurrency
        per_fn = limits.per_function_concurrency.get(fn.name)
        if per_fn is not None:
            cap = min(cap, per_fn) if cap is not None else per_fn
        self.cap = cap
        #: asynchronous calls per function and in all ("*"), counted over the whole program
        #: as it compiles: read at run time, when the count is complete
        self.counts = counts
        self.unlimited_for: Limits | None = None
        #: argument names -> whether every parameter is passed, in the implementation's order
        self.positional: dict[tuple[str, ...], bool] = {}

    def limited(self, limits: Limits) -> bool:
        """Whether a concurrency limiter applies (the program can make more such calls than
        a limit allows; the count is static: there are no loops)."""
        counts, cap = self.counts, self.cap
        return counts["*"] > limits.max_concurrency or (cap is not None and counts[self.name] > cap)


def async_fn(
    fn: FunctionDescription,
    limits: Limits,
    counts: dict[str, int],
    table: dict[int, AsyncFn] | None,
) -> AsyncFn:
    """The :class:`AsyncFn` of ``fn`` in the program whose ``table`` it is (None: a new one)."""
    if table is None:
        return AsyncFn(fn, limits, counts)
    shared = table.get(id(fn))
    if shared is None or shared.fn is not fn:
        shared = table[id(fn)] = AsyncFn(fn, limits, counts)
    return shared


async def _limited(s: State, kw: dict[str, Any], *, timed: Timed, shared: AsyncFn) -> Any:
    """The call holding a slot of each concurrency limiter that applies."""
    counts, cap, name = shared.counts, shared.cap, shared.name
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
