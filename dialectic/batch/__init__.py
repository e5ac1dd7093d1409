"""Batch runs: many programs through one runtime, locally (one event loop) or on Dask.

- ``local.py``: ``run_many`` / ``run_many_async`` / ``as_completed`` (``Runtime.run_many``).
- ``items.py``: ``BatchItem``, ``RuntimeSpec`` (how every process builds the same runtime),
  ``Runner`` (items -> output records).
- ``jsonl.py``: the JSON Lines formats (SPEC 19), reading inputs, writing and resuming outputs.
- ``corpora.py``: NESTFUL and BFCL files as items;  ``stubs.py``: function documents as stubs.
- ``progress.py``: the progress bar and the summary;  ``cluster.py``: Dask;
  ``driver.py``: ``run_batch``, what ``dialectic batch`` does.
"""

from dialectic.batch.items import BatchItem, Runner, RuntimeSpec
from dialectic.batch.local import as_completed, run_many, run_many_async

__all__ = [
    "BatchItem",
    "Runner",
    "RuntimeSpec",
    "as_completed",
    "run_many",
    "run_many_async",
]
