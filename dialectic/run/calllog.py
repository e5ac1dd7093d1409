"""The call log: which calls of a run ran, how they ended, when, and with what (SPEC 18).

While a run goes, every call of a registered function other than the built-in library (SPEC 5:
``upper``, ``max``, ``str``, ... are pure and cheap; listing them would drown the calls that
matter) appends one *record*, a short list, to ``State.calls``: nothing else happens on the
call path. An outcome turns the records into dicts only when asked (:class:`CallLog`), and adds
the calls of the program that never started, found in the resolved tree.

A record is ``[site, frames, arguments, start, end, status, replayed]`` (a tuple for a
synchronous call, appended complete when it ends): the
:class:`~dialectic.compiler.callsite.CallSite`, the arrow-function applications it ran in (for
the element indices; None outside arrow functions), the arguments as passed, the
``time.monotonic()`` at start and end (None while running) and the status. A call still
running when the run ends (cancelled by the deadline or a failure elsewhere, or by its own
timeout) stays ``in_flight``: it may have taken effect.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final

import orjson

from dialectic.outcome.errors import JSONPath, format_path
from dialectic.registry.descriptions import FunctionDescription
from dialectic.values.data import DUMP_OPTIONS

if TYPE_CHECKING:
    from dialectic.run.state import State
    from dialectic.tree.nodes import Node

DONE: Final = "done"
FAILED: Final = "failed"
NOT_STARTED: Final = "not_started"
IN_FLIGHT: Final = "in_flight"
STATUSES: Final = (DONE, FAILED, IN_FLIGHT, NOT_STARTED)

# the fields of a record
SITE, FRAMES, ARGS, START, END, STATUS, REPLAYED = range(7)

#: where the built-in library's implementations live (``str`` is bound to the serializer)
_BUILTIN_MODULES: Final = frozenset({"dialectic.registry.stdlib", "dialectic.values.serialize"})

now = time.monotonic


def is_logged(fn: FunctionDescription) -> bool:
    """Whether calls of ``fn`` go into the call log: every function but the built-in library."""
    return getattr(fn.implementation, "__module__", None) not in _BUILTIN_MODULES


def in_arrow(path: JSONPath) -> int:
    """How many arrow functions a call at ``path`` is inside (its element indices)."""
    return path.count("$fn")


def element_index(frame: Any) -> int | None:
    """The element an arrow application was applied to: ``(x, i, xs)`` for the array methods,
    ``(acc, x, i, xs)`` for ``reduce``; None for a comparator ``(a, b)``."""
    args = frame.args
    n = len(args)
    i = args[1] if n == 3 else args[2] if n == 4 else None
    return i if type(i) is int else None


def begin(s: State, site: Any, args: Any, frames: Any) -> list[Any]:
    """A new record for a call starting now, in the run's log (if the log has room)."""
    rec = [site, frames, args, now(), None, IN_FLIGHT, False]
    log = s.calls
    if len(log) < s.limits.max_call_log:
        log.append(rec)
    else:
        drop(s, site)
    return rec


def record(s: State, rec: tuple[Any, ...]) -> None:
    """A finished call's record, complete (a synchronous call's, appended when it ends)."""
    log = s.calls
    if len(log) < s.limits.max_call_log:
        log.append(rec)
    else:
        drop(s, rec[SITE])


def drop(s: State, site: Any) -> None:
    """A call beyond ``max_call_log``: counted, and not taken for a call never started."""
    if s.calls_dropped is None:
        s.calls_dropped = [site]
    else:
        s.calls_dropped.append(site)


def landed(rec: list[Any], status: str | None) -> None:
    """A call launched as a task of its own coroutine (asyncio fan-out), whose record is
    ``rec``, has ended: ``status`` done or failed, or None if it was cancelled (in flight: it
    may have taken effect)."""
    rec[END] = now()
    if status is not None:
        rec[STATUS] = status


def call_path(site: Any, frames: Any) -> str:
    """The call's path as errors show it, each arrow function's element index after its
    ``$fn``: ``program.$return.$method[2].$fn<3>[1]`` is the call in the body of the arrow
    function applied to element 3."""
    path = _path_text(site.path)
    if not frames:
        return path
    indices = element_indices(site.path, frames)
    parts = path.split(".$fn")
    out = [parts[0]]
    for k, part in enumerate(parts[1:]):
        i = indices[k] if k < len(indices) else None
        out.append(f".$fn<{'?' if i is None else i}>{part}")
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def _path_text(path: JSONPath) -> str:
    return format_path(path)


def element_indices(path: JSONPath, frames: Any) -> list[int | None]:
    """The element indices of the arrow applications a call at ``path`` ran in, outermost
    first (an arrow function's parameters are read by absolute frame, as here)."""
    return [element_index(f) for f in tuple(frames)[: in_arrow(path)]]


def arguments(site: Any, args: Any) -> dict[str, Any]:
    """The arguments of a record by parameter name (the run context left out)."""
    if isinstance(args, dict):
        return {k: v for k, v in args.items() if k != "ctx" or not site.pass_ctx}
    return {a.name: v for a, v in zip(site.args, args, strict=False)}


def bounded_json(value: Any, serializer: Any, limit: int) -> tuple[Any, int] | None:
    """``value`` as JSON data and its size, if it is at most ``limit`` bytes of JSON (measured
    before it is written: shared parts cost no more than their size); else None."""
    try:
        if serializer is None:
            text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
            if len(text) > limit:
                return None
            return value, len(text.encode())
        serializer.measure(value, limit)  # (raises beyond the limit: shared parts are cheap)
        raw = orjson.dumps(value, default=serializer.default, option=DUMP_OPTIONS)
    except Exception:  # too large, or what orjson refuses: the serializer decides
        try:
            raw = serializer.dumps(value, limit)
        except Exception:  # too large, or not JSON
            return None
    return _loads(raw), len(raw)


def _loads(raw: bytes) -> Any:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:  # (an integer beyond 64 bits: json reads it exactly)
        return json.loads(raw)


def _scalar_size(value: Any) -> int:
    """The JSON size of a value that is its own JSON form (a small integer, a boolean,
    ``null``, a printable ASCII text), or -1: the others go through the serializer."""
    t = type(value)
    if t is int:
        return len(str(value)) if -(2**63) <= value < 2**63 else -1
    if t is bool:
        return 4 if value else 5
    if value is None:
        return 4
    if t is str and len(value) <= _SHORT and value.isascii() and value.isprintable():
        return int(len(value) + 2 + value.count('"') + value.count("\\"))
    return -1


#: a text this short is measured without the serializer (it cannot be clipped alone)
_SHORT: Final = 256


def clipped_arguments(
    args: dict[str, Any], serializer: Any, limit: int
) -> tuple[dict[str, Any], bool]:
    """The arguments as JSON within about ``limit`` bytes: an argument that does not fit is
    replaced by a note of its size. Scalars are taken as they are, and the other arguments
    are written and read back once together when they fit (the common case)."""
    total = 0
    rest: dict[str, Any] | None = None
    for name, value in args.items():
        n = _scalar_size(value)
        if n < 0:
            if rest is None:
                rest = {}
            rest[name] = value
        else:
            total += n + len(name) + 4
    if total <= limit:
        if rest is None:
            return dict(args), False
        found = bounded_json(rest, serializer, limit - total) if serializer is not None else None
        if found is not None:
            data = found[0]
            return {name: (data[name] if name in rest else v) for name, v in args.items()}, False
    out: dict[str, Any] = {}
    clipped = False
    budget = limit
    for name, value in args.items():
        n = _scalar_size(value)
        found = (value, n) if 0 <= n <= budget else bounded_json(value, serializer, max(budget, 0))
        if found is None:
            out[name] = f"(more than {max(budget, 0)} bytes of JSON: not shown)"
            clipped = True
            budget -= 40
            continue
        out[name], size = found
        budget -= size + len(name) + 4
    return out, clipped


def _seconds(t: float | None, t0: float) -> float | None:
    return None if t is None else round(t - t0, 6)


class CallLog:
    """An outcome's view of a run's records: ``entries()`` builds the dicts once, on demand."""

    __slots__ = (
        "records",
        "dropped_sites",
        "dropped",
        "t0",
        "ends_at",
        "root",
        "serializer",
        "limits",
        "_entries",
    )

    def __init__(self, state: State, root: Node | None, serializer: Any) -> None:
        # (cheap: made for every outcome of a program with logged calls; read maybe never)
        self.records: list[Any] = state.calls
        self.dropped_sites: list[Any] | None = state.calls_dropped
        self.ends_at = state.deadline_at
        self.root = root
        self.serializer = serializer
        self.limits = state.limits
        self._entries: list[dict[str, Any]] | None = None
        self.dropped = 0
        self.t0 = 0.0

    def entries(self) -> list[dict[str, Any]]:
        """The calls that ran, in the order they started, then those that never started, in
        program order; at most ``max_call_log`` (``omitted()`` counts the others)."""
        if self._entries is None:
            self.t0 = self.ends_at - self.limits.deadline  # the run's start
            self.dropped = len(self.dropped_sites or ())
            out = [self.entry(rec) for rec in self.records]
            room = self.limits.max_call_log - len(out)
            for site in self.not_started():
                if room <= 0:
                    self.dropped += 1
                    continue
                out.append(site)
                room -= 1
            self._entries = out
        return self._entries

    def omitted(self) -> int:
        self.entries()
        return self.dropped

    def entry(self, rec: list[Any]) -> dict[str, Any]:
        site, frames, args = rec[SITE], rec[FRAMES], rec[ARGS]
        start, end = rec[START], rec[END]
        shown, clipped = clipped_arguments(
            arguments(site, args), self.serializer, self.limits.max_log_bytes
        )
        out: dict[str, Any] = {
            "function": site.name,
            "path": call_path(site, frames),
            "status": rec[STATUS],
            "arguments": shown,
            "start": _seconds(start, self.t0),
            "duration": None if end is None else round(end - start, 6),
        }
        if frames:
            out["elements"] = element_indices(site.path, frames)
        if clipped:
            out["truncated"] = True
        if rec[REPLAYED]:
            out["replayed"] = True
        return out

    def not_started(self) -> Iterator[dict[str, Any]]:
        """Each call site of the program with no record: it never started (a call site in an
        arrow function appears once, with no element index, if no application reached it)."""
        if self.root is None:
            return
        started = {rec[SITE].path for rec in self.records}
        started.update(site.path for site in self.dropped_sites or ())
        for path, name, text in _logged_invokes(self.root):
            if path not in started:
                yield {
                    "function": name,
                    "path": text,
                    "status": NOT_STARTED,
                    "arguments": None,
                    "start": None,
                    "duration": None,
                }


#: the logged call sites of the trees seen last, by tree (a prepared program's outcomes all
#: read the same tree: it is walked once, not once per outcome)
_SITES: dict[int, tuple[Any, tuple[tuple[JSONPath, str, str], ...]]] = {}
_SITES_KEPT: Final = 64


def _logged_invokes(root: Node) -> tuple[tuple[JSONPath, str, str], ...]:
    """(path, function, path as text) of each call of a logged function in ``root``, in
    program order."""
    hit = _SITES.get(id(root))
    if hit is not None and hit[0] is root:  # (the identity check: ids are reused)
        return hit[1]
    from dialectic.tree.resolved import Invoke
    from dialectic.tree.walking import walk

    found = tuple(
        (node.path, node.fn.name, format_path(node.path))
        for node in walk(root)
        if type(node) is Invoke and is_logged(node.fn)
    )
    if len(_SITES) >= _SITES_KEPT:
        _SITES.clear()
    _SITES[id(root)] = (root, found)
    return found


# -- the values of the aliases that completed ----------------------------------------------
def completed_aliases(
    state: State, root: Node | None, serializer: Any
) -> tuple[dict[str, Any], list[str]]:
    """The top-level aliases whose evaluation completed, by name, in program order, as JSON
    (within ``max_partial_bytes`` in all; the names left out for size are listed second)."""
    from dialectic.tree.resolved import Block
    from dialectic.values.infinity import InfinityLeaving

    if type(root) is not Block:
        return {}, []
    budget = state.limits.max_partial_bytes
    out: dict[str, Any] = {}
    left_out: list[str] = []
    memo = state.memo
    for b in root.bindings:
        if b.frame != -1 or b.slot >= len(memo):
            continue
        completed, value = _completed(memo[b.slot])
        if not completed:
            continue
        # as it would leave the run: an undefined member left out, an undefined item null
        try:
            found = bounded_json(state.defined(value), serializer, budget)
        except InfinityLeaving:  # (JSON has no literal for it: left out, as a large value)
            found = None
        if found is None:
            left_out.append(b.name)
            continue
        out[b.name], size = found
        budget -= size
    return out, left_out


def _completed(slot: Any) -> tuple[bool, Any]:
    """Whether a memo slot holds a completed value, and the value."""
    from dialectic.compiler.aliases import _Err
    from dialectic.run.state import MISSING, AsyncSlot

    if slot is MISSING or type(slot) is _Err:
        return False, None
    if type(slot) is AsyncSlot:
        if slot.done and slot.error is None:
            return True, slot.value
        return False, None
    return True, slot
