"""What a batch runs (``BatchItem``), how a process builds its runtime (``RuntimeSpec``), and the
``Runner`` that turns items into output records (one JSON object per program).

An output record is ``{"id", "outcome": Outcome.to_json(), "timings": {"prepare_ms",
"run_ms"}}`` plus ``"expected"`` when the item carries a gold answer (SPEC 19).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from dialectic.batch.local import drive, internal_failure
from dialectic.batch.stubs import stub_descriptions
from dialectic.outcome.errors import PluginError
from dialectic.outcome.outcome import FAILURE, ErrorInfo, Outcome

#: runtimes of distinct function-document sets kept per process
_STUB_RUNTIMES = 256


@dataclass(frozen=True)
class BatchItem:
    """One program of a batch: its ``id`` (unique in the batch), the ``program`` (text or call
    tree), its notation ``lang``, its ``context``, ``functions`` (function documents: the
    program runs against stubs of them) and ``expected`` (a gold answer, copied to the record)."""

    id: str
    program: Any
    lang: str | None = None
    context: Mapping[str, Any] | None = None
    functions: tuple[Any, ...] | None = None
    expected: Any = None
    #: a problem found while reading the item: its record is this failure, nothing runs
    problem: ErrorInfo | None = field(default=None, compare=False)


@dataclass(frozen=True)
class RuntimeSpec:
    """How every process of a batch builds the same runtime: plugin modules by name, whether
    to load entry points, limits by name, MCP configuration files and OpenAPI services
    (picklable, hashable: a Dask worker builds its runtime from it once and keeps it, sessions
    open, for the batch)."""

    plugins: tuple[str, ...] = ()
    entry_points: bool = True
    #: the limits as a JSON object text (hashable); see :meth:`make`
    limits_json: str = ""
    debug: bool = False
    #: MCP hosts' configuration files (paths valid where the runtime is built)
    mcp_configs: tuple[str, ...] = ()
    #: ``--openapi NAME=URL|FILE``, ``--openapi-header``, ``--openapi-base-url`` values
    openapi: tuple[str, ...] = ()
    openapi_headers: tuple[str, ...] = ()
    openapi_base_urls: tuple[str, ...] = ()

    def build(self) -> Any:
        from dialectic.runtime import Runtime

        rt = Runtime(
            plugins=self.plugins,
            load_entry_points=self.entry_points,
            limits=self.limits_dict() or None,
            debug=self.debug,
        )
        try:
            for config in self.mcp_configs:
                rt.add_mcp_servers(config)
            if self.openapi or self.openapi_headers or self.openapi_base_urls:
                from dialectic.connectors.openapi import load_openapi_options

                load_openapi_options(rt, self.openapi, self.openapi_headers, self.openapi_base_urls)
        except BaseException:
            rt.close()
            raise
        return rt

    def limits_dict(self) -> dict[str, Any]:
        return orjson.loads(self.limits_json) if self.limits_json else {}

    @classmethod
    def make(
        cls,
        plugins: Iterable[str] = (),
        entry_points: bool = True,
        limits: Mapping[str, Any] | None = None,
        *,
        debug: bool = False,
        mcp_configs: Iterable[str] = (),
        openapi: Iterable[str] = (),
        openapi_headers: Iterable[str] = (),
        openapi_base_urls: Iterable[str] = (),
    ) -> RuntimeSpec:
        """A spec from plugin module names and limits by name (checked here)."""
        from dialectic.limits import Limits

        if limits:
            Limits.coerce(limits)  # a bad limit is a ValueError now, not on every worker
        return cls(
            tuple(plugins),
            entry_points,
            orjson.dumps(dict(limits), option=orjson.OPT_SORT_KEYS).decode() if limits else "",
            debug,
            tuple(mcp_configs),
            tuple(openapi),
            tuple(openapi_headers),
            tuple(openapi_base_urls),
        )


class StubError(ValueError):
    """An item's function documents cannot be made into stubs."""


def problem_outcome(info: ErrorInfo) -> Outcome:
    hint = f"\nHint: {info.hint}" if info.hint else ""
    return Outcome(FAILURE, message=f"{info.message}{hint}", error=info)


class Runner:
    """Runs items to records in one process: the runtime is built once (lazily); items with
    ``functions`` run on a runtime of their stubs (one per distinct set, cached)."""

    def __init__(self, spec: RuntimeSpec, runtime: Any = None) -> None:
        self.spec = spec
        self._runtime = runtime
        self._stubs: OrderedDict[bytes, Any] = OrderedDict()

    @property
    def runtime(self) -> Any:
        if self._runtime is None:
            self._runtime = self.spec.build()
        return self._runtime

    def runtime_for(self, item: BatchItem) -> Any:
        """The runtime ``item`` runs on; a ``PluginError`` if its documents cannot be stubs."""
        if item.functions is None:
            return self.runtime
        try:
            key = orjson.dumps(item.functions, option=orjson.OPT_SORT_KEYS)
        except (TypeError, orjson.JSONEncodeError) as exc:  # (nested beyond orjson's limit)
            raise StubError(f"the function documents cannot be read: {exc} (too deep?)") from None
        rt = self._stubs.get(key)
        if rt is not None:
            self._stubs.move_to_end(key)
            return rt
        from dialectic.runtime import Runtime

        rt = Runtime(load_entry_points=False, limits=self.spec.limits_dict() or None)
        try:
            rt.register(*stub_descriptions(item.functions))
        except (PluginError, ValueError, TypeError, RecursionError) as exc:
            rt.close()
            raise StubError(str(exc)) from None
        self._stubs[key] = rt
        if len(self._stubs) > _STUB_RUNTIMES:
            self._stubs.popitem(last=False)
        return rt

    async def record(self, item: BatchItem, calls: bool = True) -> dict[str, Any]:
        """The output record of one item (never raises an ``Exception``); ``calls``: with the
        call log (SPEC 18)."""
        t0 = time.perf_counter()
        t1 = t0
        if item.problem is not None:
            outcome = problem_outcome(item.problem)
        else:
            try:
                prepared = self.runtime_for(item).prepare(item.program, lang=item.lang)
                t1 = time.perf_counter()
                if prepared._sync is not None:
                    outcome = prepared.run(item.context)
                else:
                    outcome = await prepared.run_async(item.context)
            except StubError as exc:
                outcome = problem_outcome(
                    ErrorInfo(
                        "invalid_functions",
                        f"the item's function documents cannot be used: {exc}",
                        "functions",
                        hint="Each document needs a `name` and JSON-Schema-like `parameters`.",
                    )
                )
            except Exception as exc:
                outcome = internal_failure(exc, "the program's run")
        t2 = time.perf_counter()
        rec: dict[str, Any] = {
            "id": item.id,
            "outcome": outcome.to_json(calls=calls),
            "timings": {
                "prepare_ms": round((t1 - t0) * 1000, 3),
                "run_ms": round((t2 - t1) * 1000, 3),
            },
        }
        if item.expected is not None:
            rec["expected"] = item.expected
        return rec

    async def records(
        self, items: Iterator[BatchItem], concurrency: int, emit: Any, calls: bool = True
    ) -> None:
        """``emit(record)`` for every item, at most ``concurrency`` running at once."""

        async def work(item: BatchItem) -> None:
            emit(await self.record(item, calls))

        await drive(items, concurrency, work)


#: the runner of each spec in each thread of this process: a Dask worker thread builds its
#: runtime once and keeps it (its sessions open) for every partition it runs
_RUNNERS = threading.local()


def runner_for(spec: RuntimeSpec) -> Runner:
    runners: dict[RuntimeSpec, Runner] | None = getattr(_RUNNERS, "by_spec", None)
    if runners is None:
        runners = _RUNNERS.by_spec = {}
    runner = runners.get(spec)
    if runner is None:
        runner = runners[spec] = Runner(spec)
    return runner
