"""Starting a native asyncio fan-out (:mod:`dialectic.run.fanout` keeps its bookkeeping).

Each asynchronous child becomes a task: a call with ready arguments as a task of the
implementation's own coroutine (in :func:`~dialectic.run.fanout._launched`), under a timeout
shared with the calls launched in the same millisecond; an alias's evaluation as a task that
fills its memo slot, claimed as it starts; an alias already being evaluated elsewhere is waited
for on its slot, with no task of its own.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, cast

from dialectic.run.compiled import AmbiguityError, Compiled
from dialectic.run.fanout import _alias, _Fanout, _launched, _plain
from dialectic.run.state import MISSING, AsyncSlot, State, TimeoutBucket

_Future = asyncio.Future
_Task = asyncio.Task

Items = Sequence[tuple[int, Compiled]]


def native_start(children: Sequence[Compiled]) -> Callable[[State], _Fanout] | None:
    """For a caller that awaits the children in its own frame on asyncio (a call's arguments:
    no coroutine of :func:`async_many`'s between it and the tasks): ``start(state)`` evaluates
    the synchronous children and starts the asynchronous ones, a fan-out the caller awaits as
    ``many`` does (see ``call_async`` in :mod:`dialectic.compiler.invoke_async`). None unless
    two or more children are asynchronous and at most one is effectful (the cases ``many``
    runs as a native fan-out)."""
    kids = tuple(children)
    if sum(1 for c in kids if c.ordered) > 1:
        return None
    sync_idx = tuple((i, c.sync) for i, c in enumerate(kids) if c.sync is not None)
    async_kids = tuple((i, c) for i, c in enumerate(kids) if c.aio is not None)
    if len(async_kids) < 2:
        return None
    n = len(kids)
    if not sync_idx:  # every child asynchronous (a call of aliases): one frame, no closure
        return functools.partial(_start_all, async_kids, n)

    def start(state: State) -> _Fanout:
        out: list[Any] = [None] * n
        found: list[tuple[int, AmbiguityError]] | None = None
        for i, fn in sync_idx:
            assert fn is not None
            try:
                out[i] = fn(state)
            except AmbiguityError as exc:
                if found is None:
                    found = [(i, exc)]
                else:
                    found.append((i, exc))
        return start_native(state, async_kids, out, found)

    return start


def _start_all(items: Items, n: int, state: State) -> _Fanout:
    return start_native(state, items, [None] * n, None)


def start_native(
    state: State,
    items: Items,
    out: list[Any],
    found: list[tuple[int, AmbiguityError]] | None,
) -> _Fanout:
    """The asyncio fast path of a task group, with the same semantics: the first failure (not an
    ambiguity) cancels the siblings and is raised once all have stopped; ambiguities are all
    collected; a cancellation from outside (the deadline, the caller) cancels the children and
    waits for them before it goes on. A call that offers a ``Launch`` runs as a task of the
    implementation's own coroutine (in a wrapper that does its bookkeeping as it ends), with
    a shared timeout. This starts the children; the caller awaits ``fan.waiter`` while
    ``fan.pending`` (see ``many`` in :func:`async_many`)."""
    loop = state._loop
    assert loop is not None
    fan = _Fanout(state, out, found, _Future(loop=loop))
    # the task class itself unless the loop has a task factory (skips create_task's frame)
    direct = state.direct
    memo = state.memo
    ready: list[tuple[int, AsyncSlot]] | None = None
    # calls launched within the same millisecond with the same timeout share a timeout bucket,
    # asked for 1 ms late so that each of them gets at least its whole timeout (and at most a
    # slice and 1 ms more: see State.timeout_bucket)
    bucket: TimeoutBucket | None = None
    bucket_timeout = 0.0
    shared_until = 0.0
    clock = state._clock if state._shared is not None else loop.time
    for i, kid in items:
        alias = kid.alias
        slot: AsyncSlot | None = None
        idx = 0
        if alias is not None:
            idx, fill, launch, value_of, into = alias
            slot = memo[idx]
            if slot is not MISSING:
                if not slot.done:  # being evaluated elsewhere: no task to wait for it
                    fan.wait_alias(i, kid, slot)
                elif ready is None:
                    ready = [(i, slot)]
                else:
                    ready.append((i, slot))
                continue
            # evaluated by this fan-out; a later reader waits for it
            slot = memo[idx] = AsyncSlot()
        else:
            launch = kid.launch
        coro: Coroutine[Any, Any, Any] | None = None
        rec: list[Any] | None = None
        if launch is not None:
            try:
                started = launch.start(state)
            except AmbiguityError as exc:
                if slot is not None:  # (as the alias's evaluation would have ended)
                    slot.error = exc
                    slot.set()
                if fan.found is None:
                    fan.found = [(i, exc)]
                else:
                    fan.found.append((i, exc))
                continue
            except Exception as exc:
                if slot is not None:
                    slot.error = exc
                    slot.set()
                fan.stop(exc)
                break
            if started is not None:
                coro, rec = started
        if coro is not None:
            assert launch is not None
            now = clock()
            timeout = launch.timeout
            if (
                bucket is None
                or now > shared_until
                or timeout != bucket_timeout
                or bucket.handle is None
            ):
                bucket = state.timeout_bucket(timeout + 0.001)
                bucket_timeout = timeout
                shared_until = now + 0.001
            call = _launched(fan, i, coro, launch, bucket, idx, slot, rec)
            if direct:
                task = _Task(call, loop=loop)
            else:  # the factory sees the call by its function's name, as without the wrapper
                named: Any = call
                named.__name__ = getattr(coro, "__name__", named.__name__)
                named.__qualname__ = getattr(coro, "__qualname__", named.__qualname__)
                task = loop.create_task(call)
            bucket.tasks.add(task)
        else:
            if slot is not None:
                if into is not None:  # the call's own coroutine is the task, and does its part
                    coro = into(state, fan, i, slot, idx)
                elif value_of is not None:  # the value's coroutine, the slot filled as it ends
                    coro = _alias(fan, i, value_of(state), idx, slot, False)  # type: ignore[arg-type]
                else:
                    coro = _alias(fan, i, fill(state, slot), idx, slot, True)
            else:
                assert kid.aio is not None
                coro = _plain(fan, i, cast("Coroutine[Any, Any, Any]", kid.aio(state)))
            task = _Task(coro, loop=loop) if direct else loop.create_task(coro)
        out[i] = task  # (until its value replaces it)
        fan.pending += 1
    if ready is not None and not fan.stopping:  # read once all are started, as tasks would be
        for i, slot in ready:
            fan.alias_read(i, slot)
    return fan
