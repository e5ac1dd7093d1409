"""Evaluating independent children: synchronous ones inline, asynchronous ones concurrently.

On asyncio the children are native tasks (:mod:`dialectic.run.fanout`: a call with ready
arguments is a task of the implementation's own coroutine); on trio they run in an anyio task
group. Either way the first
failure cancels the siblings, every ambiguity is collected and reported in program order, and
the node returns (or raises) only once every child it started has ended (SPEC section 6).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import anyio
from anyio import CancelScope

from dialectic.run.compiled import (
    AmbiguityError,
    AsyncFn,
    Compiled,
    SyncFn,
    merge,
    merge_in_order,
)
from dialectic.run.fanout import settle_tasks
from dialectic.run.fanstart import start_native
from dialectic.run.state import State


def sync_many(children: Sequence[SyncFn]) -> Callable[[State], list[Any]]:
    """Evaluate synchronous children in order, collecting ambiguities from all of them."""
    kids = tuple(children)
    if len(kids) == 1:  # (an object of one field, a call's one argument)
        only = kids[0]
        return lambda state: [only(state)]
    if len(kids) == 2:
        first, second = kids

        def two(state: State) -> list[Any]:
            try:
                a = first(state)
            except AmbiguityError as exc:
                try:
                    second(state)
                except AmbiguityError as later:
                    raise exc.merged(later) from None
                raise
            return [a, second(state)]

        return two

    def many(state: State) -> list[Any]:
        out = []
        amb: AmbiguityError | None = None
        for kid in kids:
            try:
                out.append(kid(state))
            except AmbiguityError as exc:
                amb = merge(amb, exc)
                out.append(None)
        if amb is not None:
            raise amb
        return out

    return many


def async_many(
    children: Sequence[Compiled], mark: Callable[[AmbiguityError], Any] | None = None
) -> Callable[[State], Awaitable[list[Any]]]:
    """Evaluate children, synchronous ones inline and asynchronous ones concurrently. Their
    ambiguities are raised together, in program order; with ``mark``, an ambiguous child's
    value is instead ``mark(its ambiguity)`` (a call reports them with its coercions')."""
    kids = tuple(children)
    if sum(1 for c in kids if c.ordered) > 1:
        return _in_order(kids)  # effectful calls in program order (SPEC 17)
    sync_idx = tuple((i, c.sync) for i, c in enumerate(kids) if c.sync is not None)
    async_kids = tuple((i, c) for i, c in enumerate(kids) if c.aio is not None)
    if len(async_kids) == 1:  # (awaited in place)
        return one_awaited(kids, async_kids[0][0], _as_is, mark)
    n = len(kids)

    async def many(state: State) -> list[Any]:
        out: list[Any] = [None] * n
        found: list[tuple[int, AmbiguityError]] = []
        for i, fn in sync_idx:
            assert fn is not None
            try:
                out[i] = fn(state)
            except AmbiguityError as exc:
                found.append((i, exc))
        if not async_kids:
            pass
        elif state.native:  # started here, awaited in place (no coroutine of its own)
            fan = start_native(state, async_kids, out, found or None)
            if fan.pending:
                try:
                    await fan.waiter
                except asyncio.CancelledError:
                    fan.stop(None)
                    await settle_tasks(fan.running())
                    raise
            # the callbacks of the aliases it waited for refer to the fan-out: a cycle,
            # which would keep the run's state alive until the cyclic collector found it
            fan.waits = None
            if fan.failure is not None:
                raise fan.failure
            if fan.found is not None:
                found = fan.found
        else:
            await _gather_group(state, async_kids, out, found)
        if found:
            if mark is None:  # in the children's order, not the order they were found in
                raise merge_in_order(found)
            for i, amb in found:
                out[i] = mark(amb)
        return out

    return many


def one_awaited(
    children: Sequence[Compiled],
    j: int,
    finish: Callable[[list[Any]], Any],
    mark: Callable[[AmbiguityError], Any] | None = None,
) -> Callable[[State], Awaitable[Any]]:
    """``finish`` of the children's values when one of them, ``j``, is asynchronous
    (``{id, v: await f(id)}``, ``(await f(x)) + 1``): the others evaluated first, in order,
    then it awaited in this frame (the compiler's expressions call this directly: a coroutine
    less on every level of such an expression; :func:`async_many` too); their ambiguities
    together, in the children's order, or each marked with ``mark``."""
    n = len(children)
    sync_idx = tuple((i, c.sync) for i, c in enumerate(children) if c.sync is not None)
    afn = children[j].aio
    assert afn is not None

    async def run(s: State) -> Any:
        out: list[Any] = [None] * n
        found: list[tuple[int, AmbiguityError]] | None = None
        for i, fn in sync_idx:
            try:
                out[i] = fn(s)
            except AmbiguityError as exc:
                found = [(i, exc)] if found is None else [*found, (i, exc)]
        try:
            out[j] = await afn(s)
        except AmbiguityError as exc:
            found = [(j, exc)] if found is None else [*found, (j, exc)]
        if found is not None:
            if mark is None:
                raise merge_in_order(found)
            for i, amb in found:
                out[i] = mark(amb)
        return finish(out)

    return run


def _as_is(out: list[Any]) -> list[Any]:
    return out


def _in_order(kids: tuple[Compiled, ...]) -> Callable[[State], Awaitable[list[Any]]]:
    """Children with effectful calls (SPEC 17): one after the other, in program order; an
    ambiguity stops the ones after it, as a failure does (their effects must not run)."""

    async def in_order(state: State) -> list[Any]:
        out = []
        for kid in kids:
            fn = kid.sync
            out.append(fn(state) if fn is not None else await kid.aio(state))  # type: ignore[misc]
        return out

    return in_order


async def _gather_group(
    state: State,
    items: Sequence[tuple[int, Compiled]],
    out: list[Any],
    found: list[tuple[int, AmbiguityError]],
) -> None:
    """Any backend: an anyio task group (it waits for every child, also when cancelled)."""
    failures: list[BaseException] = []
    async with anyio.create_task_group() as tg:
        for i, kid in items:
            afn = kid.aio
            assert afn is not None
            tg.start_soon(_child, state, afn, i, out, found, failures, tg.cancel_scope)
    if failures:
        raise failures[0]


async def _child(
    state: State,
    fn: AsyncFn,
    i: int,
    out: list[Any],
    found: list[tuple[int, AmbiguityError]],
    failures: list[BaseException],
    scope: CancelScope,
) -> None:
    try:
        out[i] = await fn(state)
    except AmbiguityError as exc:
        found.append((i, exc))
    except Exception as exc:
        if not failures:
            failures.append(exc)
        scope.cancel()
