"""The per-run state: context, memo slots, warnings, limits, limiters and shared call timeouts."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, cast

import anyio

from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError, JSONPath
from dialectic.registry.descriptions import RunContext
from dialectic.values.coercion import TypeSystem
from dialectic.values.data import UNDEFINED, copy_structure, defined, plain
from dialectic.values.infinity import InfinityLeaving


class State:
    """Everything one run needs: context, memo slots, warnings, limits, concurrency limiters.

    A run of a small synchronous program is a few microseconds, so creating its State is part
    of the cost: only the fields every run reads are set per run (slots); the ones an optional
    feature or the asynchronous path uses (call log, observers, effects, limiters, timeouts)
    start as the class's defaults and are set on the instance (in its ``__dict__``, created
    only then) when first needed."""

    __slots__ = (
        "context",
        "memo",
        "warnings",
        "limits",
        "deadline_at",
        "debug",
        "_convert",
        "native",
        "dag",
        "__dict__",
        "__weakref__",  # (the regex match arrays a run makes are kept until it is freed)
    )

    context: Any
    memo: list[Any]
    #: NO_WARNINGS (shared, empty) until the run warns (:meth:`warn`)
    warnings: list[str] | tuple[str, ...]
    limits: Limits
    deadline_at: float
    debug: bool
    _convert: tuple[Callable[..., Any], Callable[[Any], str]]
    #: running on asyncio: spawn children as native tasks (4x cheaper than a task group)
    native: bool
    #: the tasks of the program's static call graph while it runs (dialectic.run.dagrun)
    dag: Any

    # -- set only when needed (class defaults until then) ----------------------------------
    #: the run's instant in ms (``Date.now()``), read at its first use (compiler/forms.py)
    now_ms: int | None = None
    #: the RunContext handed to implementations (see :attr:`ctx`)
    _ctx: RunContext | None = None
    limiter: anyio.CapacityLimiter | None = None
    fn_limiters: dict[str, anyio.CapacityLimiter] | None = None
    #: the timeout buckets the run used (for :meth:`close`): None, the one bucket itself (the
    #: usual case: no dict per run), or a dict by key from the second
    _buckets: TimeoutBucket | dict[int, TimeoutBucket] | None = None
    #: the run's event loop (asyncio: set as the run starts)
    _loop: asyncio.AbstractEventLoop | None = None
    #: asyncio: tasks made by the Task class itself (the loop has no task factory)
    direct = True
    #: the first failure that stopped a fan-out of the run: the evaluations it cancelled end
    #: with it for their other readers (:meth:`dialectic.run.fanout._Fanout.stop`)
    stopped_by: Exception | None = None
    #: the loop's clock and its table of shared timeouts (set by :meth:`bind`)
    _clock: Callable[[], float]
    _shared: BucketTable | None = None
    #: containers of function results already found to be plain data (id -> container)
    _plain: dict[int, Any] | None = None
    #: the call log's records (dialectic.run.calllog: a list of the run's own, which the run
    #: of a program with logged call sites sets as it starts) and the sites of calls that
    #: did not fit
    calls: list[Any] = cast(list[Any], ())  # (a tuple: appending to it fails loudly)
    calls_dropped: list[Any] | None = None
    #: the journal, event hook and tracer of the run, if any (dialectic.run.events)
    observers: Any = None
    #: effects (SPEC 17): the run's approver, the ordered blocks being run and the
    #: effectful calls done (dialectic.run.effects.EffectRun), created when first needed
    effects: Any = None
    #: the ids of the regex match arrays this run keeps with their members
    #: (dialectic.values.matchinfo)
    _match_keys: list[int] | None = None

    @property
    def approver(self) -> Any:
        """The run's approver of write and destructive calls (SPEC 17), or None: a
        :class:`dialectic.run.approval.Approver` (``check(site, kwargs, state)``); the
        journal may ask it about an effectful call that was in flight."""
        effects = self.effects
        return effects.approver if effects is not None else None

    def plain(self, value: Any) -> Any:
        """A function's result with its arrays as lists and objects as dicts, all the way down
        (SPEC section 6). The runtime's type system, whose ``coerce`` the run was given, knows
        which classes are registered types (kept as they are); looked up only when needed, so
        that creating a State stays cheap."""
        known = self._plain
        if known is None:
            known = self._plain = {}
        types = getattr(self._convert[0], "__self__", None)
        registered = types.registered if isinstance(types, TypeSystem) else _no_type
        out = plain(value, registered, known)
        if self._match_keys is not None and (type(out) is list or type(out) is dict):
            # a regex match array given to a function comes back as JSON data would: a plain
            # array (without the members this run keeps for the original: values.matchinfo)
            out = copy_structure(out)
        return out

    def defined(self, value: Any) -> Any:
        """``value`` as it leaves the run (a function's argument, the result): every
        ``undefined`` in an array ``null`` (see :func:`dialectic.values.data.defined`); the
        containers found clean are remembered for the run, with the plain ones."""
        t = type(value)
        if t is not list and t is not dict:
            if t is float and value - value != 0.0:  # (an infinity or NaN)
                raise InfinityLeaving(value, ())
            return None if value is UNDEFINED else value
        known = self._plain
        if known is None:
            known = self._plain = {}
        return defined(value, known)

    def timeout_bucket(self, timeout: float) -> TimeoutBucket:
        """The shared per-call timeout for calls starting now (asyncio): one timer handle per
        slice of deadlines, however many calls start together, in this run and in the other
        runs on the loop; a slice is 1 ms per second of timeout, at least 1 ms (as for the
        deadlines: a 30 s call timeout fires at most 31 ms late, and the loop's heap of timers
        gets a new one every 31 ms rather than every millisecond). The caller adds its task at
        once and releases it when the call ends; the last release cancels the timer."""
        shared = self._shared
        if shared is None:  # not bound yet (run_async binds the run as it starts)
            shared = self.bind(asyncio.get_running_loop())
        now = self._clock()
        bucket = shared.recent
        # the bucket the loop's last call took, while calls starting now fall in its slice
        # (most calls of a fan-out or a batch start together)
        if (
            bucket is None
            or timeout != shared.recent_timeout
            or now >= shared.recent_until
            or bucket.handle is None
        ):
            if timeout > FAR:
                timeout = FAR
            grain = 1 + int(timeout)  # in milliseconds
            # rounded up to the end of its slice
            key = (int((now + timeout) * 1000) // grain + 1) * grain
            bucket = shared.get(key)
            if bucket is None:
                bucket = shared[key] = TimeoutBucket(shared, key)
                bucket.handle = self._loop.call_at(key / 1000, bucket.fire)  # type: ignore[union-attr]
            shared.recent, shared.recent_timeout = bucket, timeout
            # (a call starting before then falls in the same slice)
            shared.recent_until = key / 1000 - timeout - 0.001
            key = bucket._key
        else:
            key = bucket._key
        used = self._buckets
        if used is None:
            self._buckets = bucket
        elif type(used) is dict:
            used[key] = bucket
        elif used is not bucket:
            assert isinstance(used, TimeoutBucket)
            if used.handle is None:  # ended (its timer fired, or its last call released it)
                self._buckets = bucket  # (close() would pass it by: no dict for it)
            else:
                self._buckets = {used._key: used, key: bucket}
        return bucket

    def bind(self, loop: asyncio.AbstractEventLoop) -> BucketTable:
        """The run's event loop, its clock and its table of shared timers, looked up once per
        run (the table, which :meth:`timeout_bucket` and :meth:`deadline_bucket` use)."""
        self._loop = loop
        self._clock = loop_clock(loop)
        shared = _loop_buckets(loop)
        if shared is None:  # a loop that takes no weak reference: a table of the run's own
            shared = BucketTable()
        self._shared = shared
        return shared

    def deadline_bucket(self) -> TimeoutBucket:
        """The shared timer of the run's deadline (asyncio): runs whose deadlines fall in the
        same slice of time share one timer handle (a slice is 1 ms per second of deadline,
        at least 1 ms: the deadline is enforced at most 0.1% + 1 ms late, and checked again
        when the run ends), so that concurrent runs do not each put a timer in the loop's
        heap. The caller adds its :class:`RunDeadline` and releases it when the run ends."""
        deadline = min(self.limits.deadline, FAR)
        grain = 1 + int(deadline)  # in milliseconds
        # negative keys: the deadlines' buckets share the loop's table with the calls' ones
        shared = self._shared
        if shared is None:
            shared = self.bind(asyncio.get_running_loop())
        key = -(int((self._clock() + deadline) * 1000) // grain + 1) * grain
        bucket = shared.get(key)
        if bucket is None:
            bucket = shared[key] = TimeoutBucket(shared, key)
            bucket.handle = self._loop.call_at(-key / 1000, bucket.fire)  # type: ignore[union-attr]
        return bucket

    def close(self) -> None:
        """The run has ended: no timer of it stays scheduled (normally none is left: each
        bucket cancels its timer when its last call ends; one that still has calls of other
        runs keeps its timer for them)."""
        used = self._buckets
        if used is None:
            return
        buckets: Any = used.values() if type(used) is dict else (used,)
        for bucket in buckets:
            if bucket.handle is None:  # released by its last call (the usual case)
                continue
            for task in bucket.tasks:
                if not task.done():
                    break  # a call of another run still needs it
            else:
                bucket.cancel()
        if type(used) is dict:
            used.clear()
        else:
            self._buckets = None

    def warn(self, note: str) -> None:
        """The run noticed ``note`` and went on (an outcome's warning)."""
        found = self.warnings
        if type(found) is tuple:
            self.warnings = [note]
        else:
            found.append(note)  # type: ignore[union-attr]

    @property
    def ctx(self) -> RunContext:
        """The RunContext handed to implementations (created on first use)."""
        if self._ctx is None:
            convert, stringify = self._convert
            warnings = self.warnings
            if type(warnings) is tuple:  # (the implementation may warn)
                warnings = self.warnings = [*warnings]
            assert type(warnings) is list
            self._ctx = RunContext(self.context, warnings, self.limits, convert, stringify)
        return self._ctx

    def function_limiter(self, name: str, cap: int) -> anyio.CapacityLimiter:
        if self.fn_limiters is None:
            self.fn_limiters = {}
        lim = self.fn_limiters.get(name)
        if lim is None:
            lim = self.fn_limiters[name] = anyio.CapacityLimiter(cap)
        return lim


#: timers further out than this (~32 years) are armed at this distance: a limit of 1e300
#: seconds must not overflow the millisecond keys (it never fires either way)
FAR = 1e9


def new_state(
    context: Any,
    memo_size: int,
    limits: Limits,
    convert: tuple[Callable[..., Any], Callable[[Any], str]],
    debug: bool,
) -> State:
    """A run's State. (``State`` has no ``__init__``: ``State()`` is the cheapest way CPython
    makes an object; Prepared's synchronous fast path sets these same slots inline, and
    tests/core/test_run_envelope.py checks that the two agree.)"""
    state = State()
    state.context = context
    state.memo = [MISSING] * memo_size if memo_size else NO_MEMO
    state.warnings = NO_WARNINGS
    state.limits = limits
    state.deadline_at = time.monotonic() + limits.deadline
    state.debug = debug
    state._convert = convert
    #: running on asyncio: spawn children as native tasks (4x cheaper than a task group)
    state.native = False
    state.dag = None
    return state


#: the task running now on ``loop`` (``current_of(loop)``): asyncio's own table read directly
#: before 3.14 (``asyncio.current_task`` is a Python function there); from 3.14 the table lives
#: in the thread's state (``asyncio.tasks._current_tasks`` still exists but stays empty) and
#: ``asyncio.current_task`` is written in C (tests/core/test_schedule_paths.py checks both agree)
_TASKS = getattr(asyncio.tasks, "_current_tasks", None)
current_of: Callable[[asyncio.AbstractEventLoop | None], asyncio.Task[Any] | None] = (
    _TASKS.get if sys.version_info < (3, 14) and isinstance(_TASKS, dict) else asyncio.current_task
)


_BASE_TIME = asyncio.BaseEventLoop.time


def loop_clock(loop: asyncio.AbstractEventLoop) -> Callable[[], float]:
    """The loop's clock: ``time.monotonic`` itself when the loop's ``time()`` is asyncio's
    own (which returns ``time.monotonic()``: a Python frame less per reading), else its own."""
    return time.monotonic if getattr(type(loop), "time", None) is _BASE_TIME else loop.time


def _no_type(cls: type) -> bool:
    return False


#: the timeout buckets of the runs on each event loop, by deadline (in milliseconds)
_SHARED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, BucketTable] = (
    weakref.WeakKeyDictionary()
)
_SHARED_LOCK = threading.Lock()


#: the last loop looked up and its buckets (most processes run one loop at a time): one
#: tuple, replaced whole, so that another thread reads either the old pair or the new one
_LAST: tuple[asyncio.AbstractEventLoop | None, BucketTable | None] = (None, None)


def _loop_buckets(loop: asyncio.AbstractEventLoop) -> BucketTable | None:
    global _LAST
    last = _LAST
    if last[0] is loop:
        return last[1]
    try:
        buckets = _SHARED.get(loop)
        if buckets is None:
            with _SHARED_LOCK:  # loops of other threads may be added at the same time
                buckets = _SHARED.get(loop)
                if buckets is None:
                    buckets = _SHARED[loop] = BucketTable()
    except TypeError:
        return None
    _LAST = (loop, buckets)
    return buckets


class RunDeadline:
    """A run in a deadline's :class:`TimeoutBucket`: when the deadline passes, the task running
    it is cancelled and the run marked ``expired`` (it then reports the deadline)."""

    __slots__ = ("task", "expired")

    def __init__(self, task: asyncio.Task[Any]) -> None:
        self.task = task
        self.expired = False

    def cancel(self) -> None:
        self.expired = True
        self.task.cancel()


class BucketTable(dict[int, "TimeoutBucket"]):
    """A loop's shared timers by deadline (in milliseconds), and the bucket its last call
    took (``recent``): for the calls with the same timeout starting before ``recent_until``,
    it is the one the slice arithmetic would find."""

    __slots__ = ("recent", "recent_timeout", "recent_until")

    def __init__(self) -> None:
        super().__init__()
        self.recent: TimeoutBucket | None = None
        self.recent_timeout = 0.0
        self.recent_until = 0.0


class TimeoutBucket:
    """Calls sharing one timeout deadline; when it passes, the ones still running are
    cancelled (and marked, so they report a timeout rather than a cancellation). The timer is
    cancelled when the last run that used it ends (:meth:`State.close`), or fires with no call
    left: a long-lived loop keeps no timer of a run that has ended."""

    __slots__ = ("tasks", "fired", "handle", "_owner", "_key")

    def __init__(self, owner: BucketTable, key: int) -> None:
        #: the calls' tasks (or the runs' :class:`RunDeadline`: anything with ``cancel()``)
        self.tasks: set[Any] = set()
        self.fired: set[Any] = set()
        self.handle: asyncio.TimerHandle | None = None
        self._owner = owner
        self._key = key

    def fire(self) -> None:
        self.handle = None
        self._forget()
        for task in self.tasks:
            self.fired.add(task)
            task.cancel()

    def release(self, task: Any) -> None:
        """``task``'s call has ended. The timer stays for the run's next calls in the same
        slice of time (a run of calls one after another makes one timer per slice, not one
        per call); the run's :meth:`State.close` cancels it unless a call of another run is
        still in it."""
        self.tasks.discard(task)

    def cancel(self) -> None:
        handle = self.handle
        if handle is not None:
            self.handle = None
            handle.cancel()
        self._forget()

    def _forget(self) -> None:
        owner = self._owner
        if owner.get(self._key) is self:
            del owner[self._key]
        if owner.recent is self:  # (no cycle of the table and a bucket that has ended)
            owner.recent = None


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()

#: the memo of a run with no memo slots, and the warnings of a run that has not warned: shared
#: (nothing appends to a memo; a warning replaces the tuple, :meth:`State.warn`), so that a run
#: keeps no empty list of its own alive
NO_MEMO: list[Any] = []
NO_WARNINGS: tuple[str, ...] = ()


class _Abandoned(Exception):
    """The error of a slot whose evaluation was cancelled before it began: its readers start
    the evaluation again (as if the slot had never been claimed)."""


ABANDONED = _Abandoned("the evaluation was cancelled before it began")


class AsyncSlot:
    """A memo slot for an alias being computed asynchronously; waiters share one evaluation.
    ``done`` once it has a value or an error; the event exists only once someone waits (most
    slots are read once: an event each would be a third of a small program's allocations)."""

    __slots__ = ("_event", "done", "value", "error", "_callbacks")

    def __init__(self) -> None:
        self._event: anyio.Event | None = None
        self.done = False
        self.value: Any = None
        self.error: BaseException | None = None
        #: what to call (with no argument) when the slot is done: a native fan-out that
        #: reads an alias already being evaluated waits on it without a task of its own; one
        #: function as it is (the usual case: no list), two or more in a list
        self._callbacks: Any = None

    def add_callback(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` once the slot is done (the slot must not be done yet)."""
        callbacks = self._callbacks
        if callbacks is None:
            self._callbacks = fn
        elif type(callbacks) is list:
            callbacks.append(fn)
        else:
            self._callbacks = [callbacks, fn]

    def remove_callback(self, fn: Callable[[], None]) -> None:
        callbacks = self._callbacks
        if callbacks is fn:
            self._callbacks = None
        elif type(callbacks) is list and fn in callbacks:
            callbacks.remove(fn)

    @property
    def event(self) -> anyio.Event:
        """Set once the slot is done (created on first use)."""
        event = self._event
        if event is None:
            event = self._event = anyio.Event()
            if self.done:
                event.set()
        return event

    def set(self) -> None:
        """The evaluation has ended: wake the waiters."""
        self.done = True
        if self._event is not None:
            self._event.set()
        callbacks = self._callbacks
        if callbacks is not None:
            self._callbacks = None
            if type(callbacks) is list:
                for fn in callbacks:
                    fn()
            else:
                callbacks()


def deadline_error(limits: Limits, path: JSONPath = ()) -> DialecticError:
    from dialectic.outcome.errors import LimitExceeded

    return LimitExceeded(
        "deadline", f"the run took longer than its deadline of {limits.deadline:g} s", path
    )
