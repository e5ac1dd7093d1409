"""The cyclic garbage collector's young-generation threshold while batches run.

A batch keeps ``concurrency`` runs alive at once, each a few dozen tracked containers (its
State, slots, tasks, coroutines, call-log records) that live for the run's whole length. At
CPython's default threshold (700 net new containers) a young collection then runs every few
programs, finds most of what it scans alive, and moves it to the middle generation, whose
collections (and the full ones they trigger) scan it again: for 10,000 programs of 5 calls at
100 at once, 400-500 young and 30-40 middle collections, about a sixth of the batch's CPU time
(benchmarks/README.md, "run_many: the collector's young threshold raised while a batch runs").
While a batch runs, the threshold is raised to
:func:`batch_gen0` (a few hundred containers per concurrent program, at least
:data:`GEN0_FLOOR`, at most :data:`GEN0_CEILING`), and put back when the last batch of the
process ends, also when it raises or is cancelled.

What this costs: cyclic garbage waits for a collection at most that many net new containers
longer (a few MB at the ceiling); a run leaves none (see
:func:`dialectic.run.finish.untangle`). Nothing is frozen here (:class:`dialectic.batch.local.
Kept` freezes the kept outcomes and unfreezes them when the batch ends). Not done when the
collector is off, or the threshold is 0 (automatic collection off) or already as high; if the
host changes the threshold while a batch runs, its setting is the one kept at the end.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: the least young-generation threshold while a batch runs
GEN0_FLOOR = 20_000
#: containers per program running at once (a run keeps ~80 alive, with headroom for the
#: outcomes kept between two freezes of :class:`dialectic.batch.local.Kept`)
GEN0_PER_PROGRAM = 200
#: the most: a young collection scans at most this many containers; garbage waits no longer
GEN0_CEILING = 200_000

_LOCK = threading.Lock()
#: batches running now in this process (any thread), the threshold before the first of them,
#: and the one set for them
_active = 0
_saved: tuple[int, int, int] | None = None
_set: tuple[int, int, int] | None = None


def batch_gen0(concurrency: int) -> int:
    """The young-generation threshold while a batch of ``concurrency`` programs at once runs."""
    return max(GEN0_FLOOR, min(GEN0_PER_PROGRAM * concurrency, GEN0_CEILING))


def _enter(gen0: int) -> None:
    global _active, _saved, _set
    with _LOCK:
        _active += 1
        current = gc.get_threshold()
        if not gc.isenabled() or current[0] == 0 or current[0] >= gen0:
            return
        if _set is None:  # the first batch (or the first to raise it): keep the host's
            _saved = current
        elif current != _set:  # the host changed it meanwhile: leave its setting alone
            return
        _set = (gen0, current[1], current[2])
        gc.set_threshold(*_set)


def _exit() -> None:
    global _active, _saved, _set
    with _LOCK:
        _active -= 1
        if _active > 0 or _set is None:
            return
        if gc.get_threshold() == _set and _saved is not None:
            gc.set_threshold(*_saved)
        _saved = _set = None


@contextmanager
def batch_collector(concurrency: int) -> Iterator[None]:
    """The young-generation threshold raised for the batch's length (see the module)."""
    _enter(batch_gen0(concurrency))
    try:
        yield
    finally:
        _exit()


def batches_running() -> int:
    """How many batches hold the raised threshold now (for tests)."""
    return _active
