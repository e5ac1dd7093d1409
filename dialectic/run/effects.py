"""Effects: program order for calls that change the world (SPEC 17).

Most programs are pure data flow: an alias nobody reads never runs, independent calls run
concurrently. A function declared ``effects="write"`` or ``"destructive"`` changes that for its
*scope* (its ``scope``, else its namespace, else its plugin, else one shared scope):

- :func:`analyze` (:mod:`dialectic.resolve.effects`, after the resolver, once per program):
  which nodes make effectful calls
  (``marked``: their children with effects run one after the other, in program order, see
  ``gather._in_order``), and for each block (``$let``/``$do``) a :class:`BlockPlan`: its
  statements in program order (the block's dependency order), which of them the block must
  run (every statement that writes, every expression statement, and every read of a written
  scope that comes before a later write of it: it must see the state before), in per-scope
  *chains*, and which lazy statements wait for the last write of a scope they read;
- :func:`effect_block` (the compiler's ``$let`` with a plan): runs the chains (each scope's
  statements in order; consecutive reads together, each write alone), the other expression
  statements and the block's value concurrently; a statement shared by several chains starts
  when each of them reached it; an alias of a chain read from elsewhere waits for its turn;
- :func:`effect_call`: a write or destructive call asks the run's approver
  (:mod:`dialectic.run.approval`) with its arguments, then runs, and is recorded in
  ``state.effects.done``.

A program with no effectful call and no expression statement pays nothing: ``analyze`` is not
called and every node compiles as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import anyio

from dialectic.compiler.callsite import AmbiguousArg
from dialectic.outcome.errors import DialecticError, format_path
from dialectic.resolve.effects import BlockPlan, EffectInfo, analyze, effect_children
from dialectic.run.approval import Approver
from dialectic.run.compiled import AmbiguityError, Compiled
from dialectic.tree.nodes import AliasRef, Block, Invoke, Node

if TYPE_CHECKING:
    from dialectic.compiler.callsite import CallSite
    from dialectic.limits import Limits
    from dialectic.run.state import State

__all__ = ["BlockPlan", "EffectInfo", "EffectRun", "analyze", "effect_block", "effect_call"]


# -- run time --------------------------------------------------------------------------------
class EffectRun:
    """A run's effects: its approver, the blocks being run, the effectful calls done."""

    __slots__ = ("approver", "blocks", "done", "stopped")

    def __init__(self, approver: Approver | None = None) -> None:
        self.approver = approver
        self.blocks: dict[int, _BlockRun] = {}
        #: an ambiguity met by an effectful call: no effectful call runs after it
        self.stopped: AmbiguityError | None = None
        #: the write and destructive calls that finished: {"function", "path"}
        self.done: list[dict[str, Any]] = []


def effects_of(s: State) -> EffectRun:
    run: EffectRun | None = s.effects
    if run is None:
        run = s.effects = EffectRun()
    return run


class _BlockRun:
    """One evaluation of a block with a plan (asynchronous): who reached which statement."""

    __slots__ = ("plan", "arrived", "ready", "done", "broken", "finished")

    def __init__(self, plan: BlockPlan) -> None:
        self.plan = plan
        self.arrived: dict[int, int] = {}
        self.ready: dict[int, anyio.Event] = {}
        self.done: dict[int, anyio.Event] = {}
        self.broken: BaseException | None = None
        self.finished = anyio.Event()

    def event(self, table: dict[int, anyio.Event], i: int) -> anyio.Event:
        ev = table.get(i)
        if ev is None:
            ev = table[i] = anyio.Event()
            if self.broken is not None:
                ev.set()
        return ev

    def fail(self, exc: BaseException) -> None:
        """A statement failed (or was ambiguous): nothing after it may start; wake waiters."""
        if self.broken is None:
            self.broken = exc
        for ev in (*self.ready.values(), *self.done.values(), self.finished):
            ev.set()

    def check(self) -> None:
        if self.broken is not None:
            raise self.broken


def _block_run(s: State, key: int) -> _BlockRun:
    run = effects_of(s).blocks.get(key)
    if run is None:
        raise DialecticError("internal_error", "an ordered statement ran outside its block")
    return run


def effect_block(compiler: Any, block: Block, plan: BlockPlan) -> Compiled:
    """The closure of a block with a plan (the compiler's ``$let``). Each alias's memoized
    reader is made by ``compiler.bind_alias`` as usual; when the block is asynchronous, the
    reader the rest of the program uses waits for its turn (a statement of a chain) or its
    gates (a lazy read after the last write of its scopes): ``compiler.publish_alias``. A
    synchronous block runs its statements in program order, then its value: nothing can run
    out of turn."""
    is_async = may_be_async(compiler, block)
    key = plan.key
    readers: list[Compiled] = []
    for i, b in enumerate(block.bindings):
        reader = compiler.bind_alias(b, compiler.compile(b.node))
        readers.append(reader)
        if not is_async:
            continue
        if i in plan.turn:
            compiler.publish_alias(b, _waiting(key, reader, i))
        elif i in plan.gates:
            compiler.publish_alias(b, _gated(key, reader, plan.gates[i]))
    body = compiler.compile(block.body)
    if is_async:
        return Compiled(aio=_run_async(plan, readers, body))
    run_first = [readers[i].sync for i in plan.run]
    value = body.sync
    if value is None or any(f is None for f in run_first):
        raise DialecticError(
            "internal_error", "a block with effects was compiled as synchronous", block.path
        )

    def run_sync(s: State) -> Any:
        try:
            for f in run_first:
                f(s)  # type: ignore[misc]
            return value(s)
        except DialecticError as exc:
            raise reported(s, exc) from None

    return Compiled(sync=run_sync)


def may_be_async(compiler: Any, block: Block) -> bool:
    """Whether any part of the block may run asynchronously: an asynchronous or blocking call
    in it, or a read of an asynchronous alias from outside it (decided before compiling it,
    so that the readers the block publishes can wait)."""
    stack: list[Node] = [block]
    while stack:
        node = stack.pop()
        t = type(node)
        if t is Invoke:
            fn = node.fn  # type: ignore[attr-defined]
            if fn.is_async or fn.blocking:
                return True
        elif t is AliasRef:
            if node.frame < 0:  # type: ignore[attr-defined]
                known = compiler._aliases.get(node.slot)  # type: ignore[attr-defined]
                reader = known[0] if known is not None else None
            else:
                reader = compiler._locals.get((node.frame, node.slot))  # type: ignore[attr-defined]
            if reader is not None and reader.aio is not None:
                return True
        stack.extend(effect_children(node))
    return False


def _waiting(key: int, reader: Compiled, i: int) -> Compiled:
    async def wait_turn(s: State) -> Any:
        run = _block_run(s, key)
        await run.event(run.ready, i).wait()
        run.check()
        return reader.sync(s) if reader.sync is not None else await reader.aio(s)  # type: ignore[misc]

    out = Compiled(aio=wait_turn)
    out.ordered = reader.ordered
    return out


def _gated(key: int, reader: Compiled, gates: tuple[int, ...]) -> Compiled:
    async def wait_gates(s: State) -> Any:
        run = _block_run(s, key)
        for k in gates:
            await run.event(run.done, k).wait()
        run.check()
        return reader.sync(s) if reader.sync is not None else await reader.aio(s)  # type: ignore[misc]

    out = Compiled(aio=wait_gates)
    out.ordered = reader.ordered
    return out


def _run_async(plan: BlockPlan, readers: list[Compiled], body: Compiled) -> Callable[[State], Any]:
    from dialectic.run.gather import async_many

    key = plan.key

    async def statement(s: State, run: _BlockRun, i: int) -> None:
        n = run.arrived[i] = run.arrived.get(i, 0) + 1
        ready = run.event(run.ready, i)
        if n >= plan.need[i]:
            ready.set()
        else:
            await ready.wait()
        run.check()
        reader = readers[i]
        try:
            if reader.sync is not None:
                reader.sync(s)
            else:
                await reader.aio(s)  # type: ignore[misc]
        except BaseException as exc:
            run.fail(exc)
            if isinstance(exc, DialecticError):
                reported(s, exc)
            raise
        finally:
            run.event(run.done, i).set()

    def one(i: int) -> Compiled:
        async def run_one(s: State) -> None:
            await statement(s, _block_run(s, key), i)

        return Compiled(aio=run_one)

    def chain(groups: list[list[int]]) -> Compiled:
        # a write alone, consecutive reads together
        steps = [one(g[0]).aio if len(g) == 1 else async_many([one(i) for i in g]) for g in groups]

        async def run_chain(s: State) -> None:
            for step in steps:
                await step(s)  # type: ignore[misc]

        return Compiled(aio=run_chain)

    def free(i: int) -> Compiled:
        reader = readers[i]
        if reader.aio is not None:
            return reader
        sync = reader.sync
        assert sync is not None

        async def run_free(s: State) -> Any:
            return sync(s)

        return Compiled(aio=run_free)

    chains = [chain(groups) for groups in plan.chains]
    frees = [free(i) for i in plan.free]
    value = body.sync if body.sync is not None else None
    avalue = body.aio

    async def the_value(s: State) -> Any:
        run = _block_run(s, key)
        if plan.body_waits:
            await run.finished.wait()
            run.check()
        return value(s) if value is not None else await avalue(s)  # type: ignore[misc]

    async def drive(s: State) -> None:
        run = _block_run(s, key)
        try:
            await async_many(chains)(s)
        finally:
            run.finished.set()

    parts = async_many([Compiled(aio=drive), *frees, Compiled(aio=the_value)])

    async def run_block(s: State) -> Any:
        blocks = effects_of(s).blocks
        outer = blocks.get(key)
        blocks[key] = _BlockRun(plan)
        try:
            out = await parts(s)
        finally:
            if outer is not None:
                blocks[key] = outer
        return out[-1]

    return run_block


def sync_in_order(kids: list[Callable[[State], Any]]) -> Callable[[State], list[Any]]:
    """Synchronous children with effectful calls: in order, and an ambiguity stops the ones
    after it, as a failure does (``sync_many`` would go on to collect every ambiguity)."""

    def in_order(s: State) -> list[Any]:
        return [kid(s) for kid in kids]

    return in_order


# -- the calls --------------------------------------------------------------------------------
def _journalled(s: State, site: CallSite, kw: dict[str, Any], frames: Callable[[], Any]) -> bool:
    """Whether the run's journal answers this call (replayed, or asked about as in flight by
    the journal itself): the approver is asked once, or not at all for a replay."""
    observers = s.observers
    return observers is not None and bool(observers.journalled(site, kw, frames()))


def effect_call(site: CallSite, limits: Limits, async_calls: dict[str, int]) -> Compiled:
    """A write or destructive call: its arguments, the approver, the call (logged as every
    call is, SPEC 18), and a record in ``state.effects.done``."""
    from dialectic.compiler.invoke_async import AsyncCall
    from dialectic.compiler.invoke_logged import _frames, call_sync, logged_timed
    from dialectic.run.gather import async_many

    evaluate, kwargs = site.evaluate, site.kwargs
    frames = _frames(site)
    amany = (
        None if site.all_sync else async_many([a.compiled for a in site.args], mark=AmbiguousArg)
    )

    def record(s: State, kw: dict[str, Any]) -> None:
        done = effects_of(s).done
        if len(done) < 1000:
            done.append({"function": site.name, "path": format_path(site.path)})

    if site.is_async or site.blocking:
        timed = logged_timed(site, AsyncCall(site, limits, async_calls)._timed())

        async def call_async(s: State) -> Any:
            kw = kwargs(
                _unless_stopped(s, evaluate) if amany is None else await _astopped(s, amany), s
            )
            with _effect_errors(s):
                approver = s.approver
                if approver is not None and not _journalled(s, site, kw, frames):
                    await approver.acheck(site, kw)
                r = await timed(s, kw)
            record(s, kw)
            return r

        out = Compiled(aio=call_async)
    elif amany is None:

        def call_write(s: State) -> Any:
            kw = kwargs(_unless_stopped(s, evaluate), s)
            with _effect_errors(s):
                approver = s.approver
                if approver is not None and not _journalled(s, site, kw, frames):
                    approver.check(site, kw)
                r = call_sync(site, kw, s, frames())
            record(s, kw)
            return r

        out = Compiled(sync=call_write)
    else:
        args = amany

        async def call_inline(s: State) -> Any:
            kw = kwargs(await _astopped(s, args), s)
            with _effect_errors(s):
                approver = s.approver
                if approver is not None and not _journalled(s, site, kw, frames):
                    await approver.acheck(site, kw)
                r = call_sync(site, kw, s, frames())
            record(s, kw)
            return r

        out = Compiled(aio=call_inline)
    out.ordered = True
    return out


@contextmanager
def _effect_errors(s: State) -> Iterator[None]:
    """An effectful call's failure is reported with what already ran; an ambiguity stops the
    effectful calls after it."""
    try:
        yield
    except DialecticError as exc:
        raise reported(s, exc) from None
    except AmbiguityError as exc:  # no effectful call runs after it
        effects_of(s).stopped = exc
        raise


def _unless_stopped(s: State, evaluate: Callable[[State], list[Any]]) -> list[Any]:
    """The call's arguments, unless an ambiguity already stopped the run's effects; an
    ambiguity in them stops the effectful calls after this one."""
    run: EffectRun | None = s.effects
    if run is not None and run.stopped is not None:
        raise run.stopped
    vals = evaluate(s)
    for v in vals:
        if type(v) is AmbiguousArg:
            effects_of(s).stopped = v.exc
            raise v.exc
    return vals


async def _astopped(s: State, evaluate: Callable[[State], Awaitable[list[Any]]]) -> list[Any]:
    run: EffectRun | None = s.effects
    if run is not None and run.stopped is not None:
        raise run.stopped
    vals = await evaluate(s)
    for v in vals:
        if type(v) is AmbiguousArg:
            effects_of(s).stopped = v.exc
            raise v.exc
    return vals


def reported(s: State, exc: DialecticError) -> DialecticError:
    """``exc`` with the effectful calls that finished before it (``details.effects_done``):
    what a failure leaves behind (SPEC 17)."""
    run: EffectRun | None = s.effects
    if run is not None and "effects_done" not in exc.details:
        exc.details["effects_done"] = list(run.done)
    return exc
