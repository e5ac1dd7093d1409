"""What the compiler hands the run: compiled nodes, launchable calls, and collected ambiguities."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any

from dialectic.outcome.errors import Candidate, DialecticError, JSONPath

if TYPE_CHECKING:
    from dialectic.run.state import AsyncSlot, State

SyncFn = Callable[["State"], Any]
AsyncFn = Callable[["State"], Awaitable[Any]]
#: an ``aio`` that is also a fan-out child's whole task (see :attr:`Compiled.into`)
IntoFn = Callable[..., Coroutine[Any, Any, Any]]
#: evaluates an alias into its memo slot (see :attr:`Compiled.alias`)
AliasFill = Callable[["State", "AsyncSlot"], Coroutine[Any, Any, Any]]


class AmbiguityItem:
    """One ambiguous call: the question, its candidates and the path of the node to replace."""

    __slots__ = ("message", "candidates", "path", "function")

    def __init__(
        self, message: str, candidates: Sequence[Candidate], path: JSONPath, function: str
    ) -> None:
        self.message = message
        self.candidates = list(candidates)
        self.path = path
        self.function = function


class AmbiguityError(Exception):
    """Carries every ambiguity found so far up to the top of the run, in program order."""

    def __init__(self, items: list[AmbiguityItem]) -> None:
        super().__init__(f"{len(items)} ambiguities")
        self.items = items

    def merged(self, later: AmbiguityError | None) -> AmbiguityError:
        """These ambiguities, then the ones of ``later`` (a part that comes after in the
        program); an item already listed (an alias used twice) is kept once, where it first
        appeared."""
        if later is None or later is self:
            return self
        seen = {id(i) for i in self.items}
        return AmbiguityError(self.items + [i for i in later.items if id(i) not in seen])


def merge(earlier: AmbiguityError | None, later: AmbiguityError) -> AmbiguityError:
    """``earlier`` followed by ``later`` (``later`` alone if nothing came before)."""
    return later if earlier is None else earlier.merged(later)


def merge_in_order(found: list[tuple[int, AmbiguityError]]) -> AmbiguityError:
    """The ambiguities of several parts, in the parts' program order (their index), whatever
    order they were found in."""
    found.sort(key=lambda f: f[0])
    total = found[0][1]
    for _, exc in found[1:]:
        total = total.merged(exc)
    return total


class Launch:
    """How to start an asynchronous call with no wrapper coroutine (asyncio): ``start``
    evaluates the arguments now and returns the implementation's own coroutine, which becomes
    the task, and the call's call-log record (None if the call is not logged), which the task
    completes as it ends; ``finish`` and ``error`` then turn how the task ended into the
    runtime's terms. ``start`` returns None when the call needs the general path (a
    concurrency limiter applies)."""

    __slots__ = ("timeout",)

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout

    def start(self, state: State) -> tuple[Coroutine[Any, Any, Any], list[Any] | None] | None:
        raise NotImplementedError

    def finish(self, value: Any, state: State) -> Any:
        """The call's value as the run sees it (checked and normalised); may raise."""
        raise NotImplementedError

    def error(self, exc: Exception, state: State) -> BaseException:
        """What an exception from the implementation means to the run."""
        raise NotImplementedError

    def timed_out(self) -> DialecticError:
        raise NotImplementedError

    def cancelled(self) -> DialecticError:
        raise NotImplementedError


class Compiled:
    """A compiled node: exactly one of ``sync`` and ``aio`` is set; an asynchronous call may
    also offer a ``launch``, the cheaper way to start it as one of several concurrent tasks."""

    __slots__ = ("sync", "aio", "launch", "ordered", "alias", "into")

    def __init__(
        self, sync: SyncFn | None = None, aio: AsyncFn | None = None, launch: Launch | None = None
    ) -> None:
        self.sync = sync
        self.aio = aio
        self.launch = launch
        #: it makes effectful calls (SPEC 17): with another such sibling, run in program order
        self.ordered = False
        #: it reads the run's alias of this memo slot (asynchronously), or None; with the
        #: coroutine function that evaluates the alias into a new slot, and, unless the alias
        #: first evaluates others (a deep one), its value's own launch (a call that offers one)
        #: and coroutine function. A fan-out claims the slot as it starts the evaluation (as
        #: a task of the call's or the value's own coroutine when it can, the slot filled as
        #: the task ends), and waits for an alias already being evaluated without a task
        self.alias: tuple[int, AliasFill, Launch | None, AsyncFn | None, IntoFn | None] | None = (
            None
        )
        #: ``aio`` that can itself be the task of a native fan-out's child evaluating an alias
        #: into its slot, doing the child's bookkeeping as it ends: ``into(state, fan, i, slot,
        #: idx)`` (an asynchronous call's ``call_async``), else None (a wrapper does it)
        self.into: IntoFn | None = None

    @property
    def is_async(self) -> bool:
        return self.aio is not None
