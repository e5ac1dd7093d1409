"""Running a static call graph: a task per chain of calls, each awaiting what it reads.

A program whose aliases are asynchronous calls whose arguments are literals, context values
and other such aliases (``a = search(q); b = details(a); return merge(a, b)``: what most
programs that chain tools are) has a call graph known before it runs, and every alias the
result reads is surely evaluated (no condition decides it). Such a run (on asyncio, with nothing
observing it) skips the lazy machinery of memo slots and fan-outs (:mod:`dialectic.run.fanstart`):
it starts one task per alias the result reads, in dependency order, and each task awaits the
tasks of its arguments, then makes its call as the call site always does (coercion, ambiguity,
call log, per-call timeout: ``AsyncCall.call_async``, whose arguments come from here while
``state.dag`` is set). The result's own call runs in the run's task. Expressions over the
graph's calls (:mod:`dialectic.run.dagexpr`) are tasks too, and a call or expression read by one
reader may run in that reader's task instead (INLINE: :func:`dialectic.compiler.dagexprs.inlined`),
the run's own task included (``DagRun.pre``; the graph's first failure then cancels the run's
task too, and the run takes that cancellation back: ``DagTasks.runner``). A call read by
several readers shares a task with its first reader that evaluates nothing in its own task
first: a chain of calls, each reading the one before, is one task (``DagRun.starts``,
:meth:`DagRun._chain`), the values of all but its last call going to futures in their places
of ``DagTasks``; the run's own task makes one such chain first (``DagRun.own``:
:func:`dialectic.compiler.dagplan._chained` chooses them).

The semantics are the lazy run's (SPEC 1.3): each alias evaluated at most once, every call
started as soon as its arguments are ready, the first failure stops the other calls (cancelled,
and waited for: the run owns its tasks) and is the run's failure, ambiguities of all the calls
that could run are collected in program order, a cancellation (the deadline) stops every task
before it goes on, and the aliases that completed are kept for a failed run's partial result.
:mod:`dialectic.compiler.dagplan` decides which programs qualify.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from dialectic.run.compiled import AmbiguityError, merge_in_order
from dialectic.run.fanout import settle_tasks
from dialectic.run.state import MISSING, State, current_of

if TYPE_CHECKING:
    from dialectic.compiler.asyncfn import AsyncFn
    from dialectic.compiler.invoke_async import AsyncCall
    from dialectic.run.dagexpr import ExprRead

_Task = asyncio.Task

#: how an argument of a call of the graph is found (``AsyncCall.dag_args``): a literal, a
#: synchronous expression (a context value), the task of an alias, a nested call or a member
#: read (its index), or such a task's value checked as it leaves the run (``(index, what,
#: path)``: an argument of a type that takes arrays, objects or numbers as they are, as the
#: lazy way's check of it does)
CONST, SYNC, TASK, LEAVE = 0, 1, 2, 3
#: an expression (or member read) evaluated in its only reader's task (``(its ExprRead, what,
#: path, its index in DagTasks.inline)``, ``what`` None when nothing checks it as it leaves:
#: :func:`dialectic.compiler.dagexprs.inlined`)
INLINE = 4


class DagTasks(list[Any]):
    """The tasks of one run's graph (by index; the future of a call a chain or the run's own
    task makes before its last) and the first failure among them; a list, so
    that a call reads its arguments' tasks with no attribute lookup. Made from a tuple of
    Nones (``DagTasks(run.empty)``: no ``__init__`` of its own, the list's, in C)."""

    #: the graph's first failure (set on the instance when there is one)
    failure: BaseException | None = None
    #: the values of the expressions evaluated in their readers' tasks that other expressions
    #: read (by their index; made as the run starts when there are such)
    inline: list[Any] | None = None
    #: the run's own task while it evaluates the result's call and the calls that run in its
    #: task (INLINE), which the graph's first failure stops too (set when there are such)
    runner: asyncio.Task[Any] | None = None
    #: whether the graph's first failure cancelled ``runner`` (the run then takes that
    #: cancellation back: it is the failure's, not the caller's)
    stopped_runner = False

    def fail(self, exc: BaseException) -> None:
        """A call of the graph raised ``exc``: if it is a failure (not an ambiguity, not a
        cancellation), the first one is the run's, and stops every other call still running
        (as a fan-out's first failure does), the one the run's own task makes included."""
        if self.failure is not None or not isinstance(exc, Exception):
            return
        if type(exc) is AmbiguityError:
            return
        self.failure = exc
        for task in self:
            if task is not None and not task.done():
                task.cancel()
        runner = self.runner
        if runner is not None and runner is not asyncio.current_task():
            runner.cancel()
            self.stopped_runner = True


class MemberRead:
    """A member of an alias's value given as an argument (``details(user.id)``): a task of the
    graph of its own, as the lazy way's fan-out child of the same read is, so that a member
    missing fails the run as soon as the alias has its value."""

    __slots__ = ("read", "keys", "dag_args")

    def __init__(self, read: Callable[[list[Any]], Any], keys: tuple[Any, ...]) -> None:
        self.read = read
        self.keys = keys
        #: ((TASK, index of the alias's task),), set once the graph's tasks are numbered
        self.dag_args: tuple[tuple[int, Any], ...] = ()

    async def call_async(self, s: State) -> Any:
        tasks: DagTasks = s.dag
        try:
            value = await tasks[self.dag_args[0][1]]
            return self.read([value, *self.keys])
        except Exception as exc:
            tasks.fail(exc)
            raise


class DagRun:
    """A program's call graph: ``calls`` in dependency order (each reads only earlier ones),
    the memo slot of each (for a failed run's partial result), and the result: the call
    ``root`` (in the run's own task), else the alias tasks ``items`` (one: its value; several:
    an array of their values, ``array`` True, or an object of them under ``keys``, when
    given: the result ``{user, orders}``). ``fallback`` is the lazy evaluation of the same
    program, taken when the run is not on asyncio or something observes it."""

    __slots__ = (
        "calls",
        "slots",
        "root",
        "items",
        "array",
        "keys",
        "fallback",
        "shared",
        "empty",
        "memo_size",
        "memo_first",
        "n_inline",
        "root_inline",
        "pre",
        "own",
        "starts",
        "futures",
    )

    def __init__(
        self,
        calls: Sequence[AsyncCall | MemberRead | ExprRead],
        slots: Sequence[int],
        root: AsyncCall | ExprRead | None,
        items: Sequence[int],
        array: bool,
        fallback: Callable[[State], Awaitable[Any]],
        keys: tuple[str, ...] | None = None,
        memo_first: bool = False,
        n_inline: int = 0,
        first: tuple[AsyncCall, int] | None = None,
        chains: Sequence[Sequence[int]] = (),
        own: Sequence[int] = (),
    ) -> None:
        self.calls = tuple(calls)
        #: the call the result's call reads that the run's own task makes first, and its memo
        #: slot (-1 if none): a task fewer, and one less level of awaits each time it waits.
        #: Its value (or ambiguity) is a done future after the tasks (``DagTasks[len(calls)]``),
        #: which the result's call reads as it reads a task
        self.pre = first
        # (a run's DagTasks starts as a copy)
        self.empty = (None,) * (len(self.calls) + (first is not None))
        self.slots = tuple(slots) + ((first[1],) if first is not None else ())
        self.root = root
        self.items = tuple(items)
        self.array = array or keys is not None
        self.keys = keys
        self.fallback = fallback
        every: list[Any] = [c for c in calls if hasattr(c, "shared")]  # (the calls)
        if root is not None and hasattr(root, "shared"):
            every.append(root)
        shared: dict[int, AsyncFn] = {id(c.shared): c.shared for c in every}
        self.shared = tuple(shared.values())
        #: the program's memo slots: a run that takes the graph's path starts with none (the
        #: Prepared program gives its runs no memo), and makes it if it needs one
        self.memo_size = 0
        #: whether a run makes its memo as it starts (the graph's expressions may count steps
        #: there, as the lazy way's do)
        self.memo_first = memo_first
        self.n_inline = n_inline
        #: whether the run's task makes calls of the graph before its result's (``pre``, or
        #: INLINE arguments of the result's call or expression)
        self.root_inline = (
            first is not None
            or bool(own)
            or (root is not None and any(kind == INLINE for kind, _ in root.dag_args or ()))
        )
        #: the calls the run's own task makes first, each after the one before, which it reads
        #: (the last read by ``pre``, the result's call or the result): their values go to
        #: futures in their places of the run's DagTasks
        self.own = tuple(own)
        # the tasks the run starts, in the order of their first calls: (the place of the task
        # in DagTasks, None) for a call of its own, (the place of the chain's last call, the
        # calls before it) for a chain of calls each reading the one before, which one task
        # makes in turn (:meth:`_chain`; the others' values go to futures in their places)
        chained = {k: tuple(chain) for chain in chains for k in chain[:1]}
        in_chain = {k for chain in chains for k in chain} | set(own)
        starts: list[tuple[int, tuple[int, ...] | None]] = []
        for k in range(len(self.calls)):
            chain = chained.get(k)
            if chain is not None:
                starts.append((chain[-1], chain[:-1]))
            elif k not in in_chain:
                starts.append((k, None))
        self.starts = tuple(starts)
        self.futures = tuple(k for chain in chains for k in chain[:-1]) + self.own

    def add_shared(self, calls: Sequence[AsyncCall]) -> None:
        """Calls of the graph that run in their readers' tasks: their limiters are checked as
        the others' are."""
        shared = {id(c): c for c in self.shared}
        shared.update({id(c.shared): c.shared for c in calls})
        self.shared = tuple(shared.values())

    def _direct(self, s: State) -> bool:
        """Whether this run takes the graph's path: asyncio, no observer, no concurrency
        limiter (the lazy path starts calls in the same order; these features watch it)."""
        if not s.native or s.observers is not None:
            return False
        limits = s.limits
        for shared in self.shared:
            if limits is not shared.unlimited_for:
                if shared.limited(limits):
                    return False
                shared.unlimited_for = limits
        return True

    async def run(self, s: State) -> Any:
        if not self._direct(s):
            self._memo(s)
            return await self.fallback(s)
        if self.memo_first:
            self._memo(s)
        loop = s._loop
        calls = self.calls
        tasks = s.dag = DagTasks(self.empty)
        if self.n_inline:
            tasks.inline = [None] * self.n_inline
        direct = s.direct
        if self.futures:
            future = loop.create_future  # type: ignore[union-attr]
            for k in self.futures:
                tasks[k] = future()
        for k, chain in self.starts:
            coro = calls[k].call_async(s) if chain is None else self._chain(s, tasks, chain, k)
            tasks[k] = _Task(coro, loop=loop) if direct else loop.create_task(coro)  # type: ignore[union-attr]
        try:
            root = self.root
            if self.root_inline:
                tasks.runner = current_of(loop)
                for k in self.own:  # (the calls this task makes first)
                    done = tasks[k]
                    try:
                        done.set_result(await calls[k].call_async(s))
                    except AmbiguityError as exc:  # (its reader marks it)
                        done.set_exception(exc)
            if root is not None:
                if self.pre is not None:  # (the call this task makes before the result's)
                    done = loop.create_future()  # type: ignore[union-attr]
                    try:
                        done.set_result(await self.pre[0].call_async(s))
                    except AmbiguityError as exc:  # (the result's call marks it)
                        done.set_exception(exc)
                    tasks[-1] = done
                value = await root.call_async(s)
            elif not self.array:
                value = await tasks[self.items[0]]
            else:
                value = []
                found: list[tuple[int, AmbiguityError]] | None = None
                for i, k in enumerate(self.items):
                    try:
                        value.append(await tasks[k])
                    except AmbiguityError as exc:
                        value.append(None)
                        if found is None:
                            found = [(i, exc)]
                        else:
                            found.append((i, exc))
                if found is not None:
                    raise merge_in_order(found)
                if self.keys is not None:  # (as the lazy way's object: its keys in order)
                    value = dict(zip(self.keys, value, strict=True))
        except BaseException as exc:
            if tasks.runner is not None:
                tasks.runner = None  # (nothing may cancel the run's task as it stops)
                if tasks.stopped_runner:  # (the graph's failure: taken back)
                    current_of(loop).uncancel()  # type: ignore[union-attr]
            failure = await self._stopped(s, tasks)
            if failure is not None and failure is not exc and not _cancelled_itself(s, exc):
                raise failure from None
            raise
        # (kept, should the value fail to leave the run: then the aliases that completed are
        # the failure's partial result, as the lazy way's memo gives them; see keep)
        s.dag = (self, tasks)
        return value

    async def _chain(self, s: State, tasks: DagTasks, chain: tuple[int, ...], last: int) -> Any:
        """One task's calls of the graph, each reading the one before (so each starts as
        soon as it could in a task of its own): the value (or ambiguity) of each but the last
        to its future, which its other readers await; the last one's is the task's. A failure
        stops the chain (the graph's first failure cancels the futures still pending)."""
        calls = self.calls
        for k in chain:
            done = tasks[k]
            try:
                value = await calls[k].call_async(s)
            except AmbiguityError as exc:  # (its readers mark it; the next one reads it)
                done.set_exception(exc)
                continue
            done.set_result(value)
        return await calls[last].call_async(s)

    async def _stopped(self, s: State, tasks: DagTasks) -> BaseException | None:
        """The run stops early (a failure, an ambiguity, a cancellation): every call still
        running is cancelled and waited for; the aliases that completed are put in the memo (a
        failed run's partial result reads them there); the graph's first failure, if any."""
        for task in tasks:
            if task is not None and not task.done():
                task.cancel()
        await settle_tasks([t for t in tasks if t is not None])
        self.keep(s, tasks)
        s.dag = None
        return tasks.failure

    def keep(self, s: State, tasks: DagTasks) -> None:
        """The aliases whose tasks completed, put in the run's memo (a failed run's partial
        result reads them there)."""
        memo = self._memo(s)
        for k, task in enumerate(tasks):
            if task is None or not task.done() or task.cancelled():
                continue
            # (an exception is read: it is not "never retrieved"; a nested call has no slot)
            if task.exception() is None and self.slots[k] >= 0:
                memo[self.slots[k]] = task.result()

    def _memo(self, s: State) -> list[Any]:
        """The run's memo, made now if the run has none yet (the lazy path, a partial result)."""
        memo = s.memo
        if len(memo) < self.memo_size:
            memo = s.memo = [MISSING] * self.memo_size
        return memo


def keep_completed(s: State) -> None:
    """A run whose graph ended with a value that then failed (it cannot leave the run): its
    completed aliases into the memo, for the failure's partial result."""
    done = s.dag
    if type(done) is tuple:
        s.dag = None
        done[0].keep(s, done[1])


def _cancelled_itself(s: State, exc: BaseException) -> bool:
    """Whether the run's own task was cancelled (the deadline, or its caller): that
    cancellation goes on up, whatever failed meanwhile."""
    if not isinstance(exc, asyncio.CancelledError):
        return False
    task = current_of(s._loop)
    return task is not None and task.cancelling() > 0
