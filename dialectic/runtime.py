"""``Runtime``: the registry plus the pipeline; ``Prepared``: a program compiled once.

``Runtime.run`` never raises for a bad program: every problem is an ``Outcome``. Only a broken
plugin (``PluginError``) or a misuse of the Python API (a bad ``limits`` value) raises.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from dialectic.limits import Limits
from dialectic.outcome.outcome import Outcome
from dialectic.registry import stdlib
from dialectic.registry.plugins import entry_point_plugins, import_plugin_module, plugin_name
from dialectic.registry.registry import Registry
from dialectic.run.events import EventHook
from dialectic.run.journal import Journal
from dialectic.run.prepared import Prepared
from dialectic.run.preparedqueries import CompileFailed
from dialectic.values.coercion import TypeSystem
from dialectic.values.serialize import Serializer

#: prepared programs kept by their text (a text is kept the second time it is prepared)
_CACHE_SIZE = 256
#: texts prepared once, remembered by their hash: the next time, the program is kept
_SEEN_SIZE = 4_096


class Runtime:
    """Functions, types, conversions and constants from plugins, and the pipeline to run programs.

    ``plugins`` are modules (or importable module names) or objects with ``@hookimpl`` hooks;
    ``load_entry_points`` also loads every installed ``dialectic`` entry point.
    """

    def __init__(
        self,
        plugins: Iterable[Any] = (),
        load_entry_points: bool = True,
        limits: Limits | Mapping[str, Any] | None = None,
        *,
        builtins: bool = True,
        debug: bool = False,
        journal: Journal | None = None,
        on_event: EventHook | None = None,
        approve: Any = None,
        approve_plan: Any = None,
        now: int | None = None,
    ) -> None:
        self.limits = Limits.coerce(limits)
        if now is not None and (type(now) is not int or abs(now) > 8_640_000_000_000_000):
            raise ValueError(f"now must be an integer of ms since 1970 (or None), got {now!r}")
        #: the instant every run's ``Date.now()`` and ``new Date()`` read (ms since 1970), or
        #: None: the clock, read once a run (SPEC 1.8, "Dates")
        self.now = now
        #: every run's approver of write/destructive calls and of whole previews (SPEC 17)
        self.approve = approve
        self.approve_plan = approve_plan
        self.debug = debug
        #: every run's journal and event hook, unless a run is given its own (SPEC 18)
        self.journal = journal
        self.on_event = on_event
        self._mcp: Any = None  # dialectic.connectors.MCPConnections, on add_mcp_servers
        #: other things to close with the runtime (OpenAPI services' HTTP clients): each has
        #: ``close()`` and ``aclose()``
        self._resources: list[Any] = []
        self.registry = Registry()
        sources: list[tuple[str, Any]] = []
        if builtins:
            sources.append(("dialectic.registry.stdlib", stdlib))
        if load_entry_points:
            sources.extend(entry_point_plugins())
        for p in plugins:
            if isinstance(p, str):
                sources.append((p, import_plugin_module(p)))
            else:
                sources.append((plugin_name(p), p))
        self.registry.load_plugins(sources)
        self.registry.validate()
        self._rebuild()
        if self.registry.services:  # MCP servers, OpenAPI services from plugins (SPEC 2)
            from dialectic.connectors.services import connect_services

            connect_services(self, self.registry.services)

    def _rebuild(self) -> None:
        self.types = TypeSystem(self.registry)
        self.serializer = Serializer(
            self.registry,
            self.types,
            self.limits.max_output_bytes,
            self.limits.max_string_length,
        )
        #: what each run's state converts and stringifies with (made once, not per program)
        self.hooks = (self.types.coerce, self.serializer.stringify)
        self._cache: OrderedDict[tuple[Any, ...], Prepared] = OrderedDict()
        self._seen: OrderedDict[int, None] = OrderedDict()
        if self.registry.is_builtin("str"):
            self.registry.functions["str"] = stdlib.bind_str(self.serializer.stringify)

    def register(self, *descriptions: Any) -> None:
        """Register FunctionDescription, TypeDescription, TypeConversion or Constant objects.

        A name of a built-in function (``upper``, ``max``, ``str``, ...) is replaced by the new
        registration; a name registered by a plugin, or already by ``register``, is a
        ``PluginError`` naming both sources. A registration that fails leaves the runtime as it
        was (none of ``descriptions`` is registered)."""
        registry = self.registry
        saved = {
            k: v.copy() if isinstance(v, dict | list) else v for k, v in vars(registry).items()
        }
        try:
            for d in descriptions:
                registry.add(d)
            registry.validate()
        except BaseException:
            registry.__dict__.clear()
            registry.__dict__.update(saved)
            raise
        self._rebuild()

    # -- the pipeline -------------------------------------------------------------------
    def prepare(
        self, program: Any, *, lang: str | None = None, strict: bool = False, **options: Any
    ) -> Prepared:
        """Compile once; the result runs many times. Compile errors surface when it runs."""
        key: tuple[Any, ...] | None = None
        if (
            isinstance(program, str)
            and len(program) < 100_000
            and not options
            and (lang is None or type(lang) is str)
        ):
            key = (program, lang, strict)
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        prepared = Prepared(self, program, lang, strict, options)
        if key is not None:
            # kept on second sight: most texts a model writes come once, and a program kept
            # only to be evicted 256 programs later is freed from cold memory (a new text then
            # costs ~15% more); a hash collision only keeps a program early
            seen, h = self._seen, hash(key)
            if h in seen:
                seen.pop(h, None)
                self._cache[key] = prepared
                if len(self._cache) > _CACHE_SIZE:
                    self._cache.popitem(last=False)
            else:
                seen[h] = None
                if len(seen) > _SEEN_SIZE:
                    seen.popitem(last=False)
        return prepared

    def run(
        self,
        program: Any,
        *,
        context: Mapping[str, Any] | None = None,
        lang: str | None = None,
        strict: bool = False,
        journal: Journal | None = None,
        on_event: EventHook | None = None,
        approve: Any = None,
        approve_plan: Any = None,
    ) -> Outcome:
        """Run a program (JSON text, bytes, parsed JSON, Plan or Plan2 text) to an Outcome.
        ``journal``, ``on_event``: see SPEC 18 (default: the runtime's); ``approve``,
        ``approve_plan``: SPEC 17 (default: the runtime's)."""
        prepared = self.prepare(program, lang=lang, strict=strict)
        return prepared.run(
            context,
            journal=journal,
            on_event=on_event,
            approve=approve,
            approve_plan=approve_plan,
        )

    async def run_async(
        self,
        program: Any,
        *,
        context: Mapping[str, Any] | None = None,
        lang: str | None = None,
        strict: bool = False,
        journal: Journal | None = None,
        on_event: EventHook | None = None,
        approve: Any = None,
        approve_plan: Any = None,
    ) -> Outcome:
        prepared = self.prepare(program, lang=lang, strict=strict)
        return await prepared.run_async(
            context,
            journal=journal,
            on_event=on_event,
            approve=approve,
            approve_plan=approve_plan,
        )

    def preview(self, program: Any, *, lang: str | None = None, strict: bool = False) -> Any:
        """Without running anything, the write and destructive calls the program will make,
        in order (SPEC 17): a :class:`dialectic.tools.preview.Preview`. Raises the first
        compile error (``CompileFailed``)."""
        return self.prepare(program, lang=lang, strict=strict).preview()

    def compile(
        self,
        program: Any,
        *,
        lang: str | None = None,
        strict: bool = False,
        context: Mapping[str, Any] | None = None,
    ) -> Any:
        """The canonical call tree, with names resolved and arguments bound by name.

        Raises the first error a run would fail with (every error is in ``.errors`` of the
        ``CompileFailed``); with a ``context``, unknown identifiers are checked against it too,
        so ``compile`` fails exactly where ``run`` with that context fails before any call."""
        prepared = self.prepare(program, lang=lang, strict=strict)
        return prepared.canonical(context)

    def describe(self, format: str = "markdown", *, per_function: bool = False) -> Any:
        """The catalog for a model: ``markdown`` (text, the default), ``compact`` (text for a
        prompt), ``json-schema`` (a JSON Schema of programs), or tool specs ``openai``,
        ``anthropic``, ``mcp`` (a list: one ``run_program`` tool, or one per function with
        ``per_function=True``). See ``dialectic.tools.describe``."""
        from dialectic.tools.describe import describe

        return describe(self, format, per_function=per_function)

    # -- batches (SPEC 19): dialectic.batch.local ----------------------------------------
    def run_many(
        self,
        programs: Iterable[Any],
        *,
        contexts: Iterable[Mapping[str, Any] | None] | None = None,
        lang: str | None = None,
        concurrency: int = 64,
        limits: Limits | Mapping[str, Any] | None = None,
        on_outcome: Any = None,
    ) -> list[Outcome]:
        """Run many programs on one event loop, at most ``concurrency`` at once; the outcomes
        in input order (``on_outcome(index, outcome)`` is called as each finishes).
        ``contexts``: one per program; ``limits``: the programs' limits (default: the
        runtime's). ``dialectic.batch.as_completed`` yields them as they finish."""
        from dialectic.batch.local import run_many

        return run_many(
            self,
            programs,
            contexts=contexts,
            lang=lang,
            concurrency=concurrency,
            limits=limits,
            on_outcome=on_outcome,
        )

    async def run_many_async(
        self,
        programs: Iterable[Any],
        *,
        contexts: Iterable[Mapping[str, Any] | None] | None = None,
        lang: str | None = None,
        concurrency: int = 64,
        limits: Limits | Mapping[str, Any] | None = None,
        on_outcome: Any = None,
    ) -> list[Outcome]:
        """``run_many`` inside a running event loop (asyncio or trio)."""
        from dialectic.batch.local import run_many_async

        return await run_many_async(
            self,
            programs,
            contexts=contexts,
            lang=lang,
            concurrency=concurrency,
            limits=limits,
            on_outcome=on_outcome,
        )

    # -- MCP servers and the runtime's life cycle (SPEC 15) ------------------------------
    def add_mcp_servers(self, config: Any) -> list[str]:
        """Connect the MCP servers of ``config`` (the hosts' ``{"mcpServers": ...}`` file: a
        path, or the parsed object) and register each tool as ``NAME.TOOL``; the names
        registered. Sessions open once and serve every run; ``close()`` ends them."""
        from dialectic.connectors.mcp_client import MCPConnections
        from dialectic.connectors.mcp_runtime import add_mcp_servers

        if self._mcp is None:
            self._mcp = MCPConnections()
        names: list[str] = add_mcp_servers(self, config, self._mcp)
        return names

    async def add_mcp_servers_async(self, config: Any) -> list[str]:
        """``add_mcp_servers`` from async code: the first servers' sessions live on this
        (asyncio) loop, so runs here call them without a thread hop; close with ``aclose()``
        (or ``async with Runtime(...)``)."""
        from dialectic.connectors.mcp_client import MCPConnections
        from dialectic.connectors.mcp_runtime import add_mcp_servers_async

        if self._mcp is None:
            self._mcp = MCPConnections()
        names: list[str] = await add_mcp_servers_async(self, config, self._mcp)
        return names

    def add_openapi(
        self,
        name: str,
        source: Any,
        *,
        base_url: str | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> list[str]:
        """Register every operation of the OpenAPI 3.0/3.1 document ``source`` (a URL, a file
        or a parsed mapping) as ``NAME.operationId`` (SPEC 16); the names registered.
        ``base_url`` overrides the document's server, ``headers`` go with every request
        (``${ENV}`` expanded), ``timeout`` bounds each request (seconds, default 30). One HTTP
        client per service, closed by ``close()``. Raises ``OpenAPIError`` for a bad document."""
        from dialectic.connectors.openapi import add_openapi

        return add_openapi(self, name, source, base_url=base_url, headers=headers, timeout=timeout)

    def close(self) -> None:
        """End what the runtime holds open (MCP sessions, server processes, OpenAPI clients).
        Idempotent."""
        mcp, self._mcp = self._mcp, None
        if mcp is not None:
            mcp.close()
        resources, self._resources = self._resources, []
        for resource in resources:
            resource.close()

    async def aclose(self) -> None:
        mcp, self._mcp = self._mcp, None
        if mcp is not None:
            await mcp.aclose()
        resources, self._resources = self._resources, []
        for resource in resources:
            await resource.aclose()

    def __enter__(self) -> Runtime:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> Runtime:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


__all__ = ["CompileFailed", "Prepared", "Runtime"]
