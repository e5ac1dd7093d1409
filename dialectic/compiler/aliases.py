"""Reading an alias: evaluated on first use, at most once per run, memoized (errors too); a
deep alias first evaluates the aliases it reads, shallowest first, so alias chains of any length
run in bounded stack (SPEC 1.3)."""

from __future__ import annotations

from typing import Any

from dialectic.compiler.arrows import FRAME
from dialectic.outcome.errors import DialecticError
from dialectic.run.evaluator import MISSING, AmbiguityError, AsyncSlot, Compiled, State, async_many
from dialectic.run.state import ABANDONED
from dialectic.tree.nodes import Binding

#: an alias whose evaluation may recurse through more nesting levels than this first evaluates
#: the aliases it reads, so no alias chain can exhaust Python's stack
DEEP_ALIAS = 32


class _Err:
    """A memoized error: a second reference to a failed alias re-raises the same error."""

    __slots__ = ("exc",)

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


AliasTable = dict[int, tuple[Compiled, Binding]]


def alias_reader(idx: int, target: Compiled, deep: AliasTable | None) -> Compiled:
    """The closure that reads alias ``idx``: evaluated on first use, memoized (an error too).
    A ``deep`` alias first evaluates the aliases it reads, transitively, shallowest first."""
    if target.sync is not None:
        fn = target.sync

        def read(s: State) -> Any:
            v = s.memo[idx]
            if v is MISSING:
                if deep is not None:
                    _prefetch(s, idx, deep)
                # evaluated where it is defined, outside every arrow function, even when it
                # is first read inside one (its own arrows' frames are counted from there)
                token = FRAME.set(()) if FRAME.get() else None
                try:
                    v = fn(s)
                except (DialecticError, AmbiguityError) as exc:
                    s.memo[idx] = _Err(exc)
                    raise
                finally:
                    if token is not None:
                        FRAME.reset(token)
                s.memo[idx] = v
                return v
            if type(v) is _Err:
                raise v.exc
            return v

        return Compiled(sync=read)
    afn = target.aio
    assert afn is not None

    async def fill(s: State, slot: AsyncSlot) -> Any:
        """Evaluate the alias into ``slot``, just put in its memo entry by its first reader or
        by a fan-out (so that the others wait for this evaluation rather than start their own)."""
        token = FRAME.set(()) if FRAME.get() else None  # (as `read` above)
        try:
            if deep is not None:
                await _aprefetch(s, idx, deep)
            slot.value = await afn(s)
        except BaseException as exc:
            slot.error = exc
            raise
        finally:
            slot.set()
            if token is not None:
                FRAME.reset(token)
        return slot.value

    async def aread(s: State) -> Any:
        slot = s.memo[idx]
        if slot is MISSING:  # the first reader evaluates it
            slot = s.memo[idx] = AsyncSlot()
            return await fill(s, slot)
        if not slot.done:
            await slot.event.wait()
        if slot.error is not None:
            if slot.error is ABANDONED:  # its fan-out stopped before it began: start again
                return await aread(s)
            raise slot.error
        return slot.value

    out = Compiled(aio=aread)
    # the value's own coroutine (a call of ready arguments: the implementation's) can be the
    # fan-out's task (in its wrapper), with the slot filled as it ends (not for a deep alias,
    # whose evaluation first evaluates the aliases it reads)
    if deep is None:
        out.alias = (idx, fill, target.launch, afn, target.into)
    else:
        out.alias = (idx, fill, None, None, None)
    return out


def _pending(s: State, idx: int, table: AliasTable) -> list[list[Compiled]]:
    """The aliases alias ``idx`` reads, transitively, not yet evaluated, grouped by depth
    (shallowest first): each group reads only aliases of earlier groups."""
    memo = s.memo
    seen = {idx}
    stack = list(table[idx][1].deps)
    found: list[tuple[int, int, Compiled]] = []
    while stack:
        slot = stack.pop()
        if slot in seen or memo[slot] is not MISSING:
            continue
        seen.add(slot)
        reader, binding = table[slot]
        found.append((binding.depth, slot, reader))
        stack.extend(binding.deps)
    found.sort(key=lambda f: (f[0], f[1]))
    groups: list[list[Compiled]] = []
    last = -1
    for depth, _slot, reader in found:
        if depth != last:
            groups.append([])
            last = depth
        groups[-1].append(reader)
    return groups


def _prefetch(s: State, idx: int, table: AliasTable) -> None:
    for group in _pending(s, idx, table):
        for reader in group:
            assert reader.sync is not None
            try:
                reader.sync(s)
            except AmbiguityError:
                continue  # memoized: reported where the program reads it, in program order


async def _aprefetch(s: State, idx: int, table: AliasTable) -> None:
    for group in _pending(s, idx, table):
        try:
            await async_many(group)(s)
        except AmbiguityError:
            continue  # memoized: reported where the program reads it, in program order


def local_reader(frame: int, idx: int, target: Compiled) -> Compiled:
    """The closure that reads alias ``idx`` of the arrow application at nesting ``frame``: as
    :func:`alias_reader`, with the slot in that application instead of the run's memo."""
    keep = frame + 1  # the frames around the alias's definition

    if target.sync is not None:
        fn = target.sync

        def read(s: State) -> Any:
            frames = FRAME.get()
            slots = frames[frame].locals
            v = slots[idx]
            if v is MISSING:
                # evaluated in the frames where it is defined, even when first read from a
                # deeper arrow function (its own arrows' frames are counted from there)
                token = FRAME.set(frames[:keep]) if len(frames) > keep else None
                try:
                    v = fn(s)
                except (DialecticError, AmbiguityError) as exc:
                    slots[idx] = _Err(exc)
                    raise
                finally:
                    if token is not None:
                        FRAME.reset(token)
                slots[idx] = v
                return v
            if type(v) is _Err:
                raise v.exc
            return v

        return Compiled(sync=read)
    afn = target.aio
    assert afn is not None

    async def aread(s: State) -> Any:
        frames = FRAME.get()
        slots = frames[frame].locals
        slot = slots[idx]
        if slot is MISSING:
            slot = slots[idx] = AsyncSlot()
            token = FRAME.set(frames[:keep]) if len(frames) > keep else None  # (as `read`)
            try:
                slot.value = await afn(s)
            except BaseException as exc:
                slot.error = exc
                raise
            finally:
                slot.set()
                if token is not None:
                    FRAME.reset(token)
            return slot.value
        if not slot.done:
            await slot.event.wait()
        if slot.error is not None:
            raise slot.error
        return slot.value

    return Compiled(aio=aread)
