"""``Runtime``: the registry plus the pipeline; ``Prepared``: a program compiled once.

``Runtime.run`` never raises for a bad program: every problem is an ``Outcome``. Only a broken
plugin (``PluginError``) or a misuse of the Python API (a bad ``limits`` value) raises.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

import anyio

from dialectic.compiler.closures import CompileErrors, Compiler
from dialectic.frontends import to_tree
from dialectic.frontends.base import FrontEndResult
from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError, LimitExceeded, PluginError
from dialectic.outcome.outcome import Outcome
from dialectic.outcome.report import ambiguous, bounded_warnings, failure
from dialectic.registry import stdlib
from dialectic.registry.plugins import entry_point_plugins, import_plugin_module, plugin_name
from dialectic.registry.registry import Registry, closest
from dialectic.resolve.resolver import Resolved, ResolveErrors, resolve
from dialectic.run.approval import attach
from dialectic.run.evaluator import AmbiguityError, Compiled, State, deadline_error
from dialectic.run.events import EventHook, ended, observe
from dialectic.run.journal import Journal
from dialectic.run.telemetry import TRACING
from dialectic.tree.nodes import Let
from dialectic.tree.parse import parse_tree
from dialectic.values.coercion import TypeSystem
from dialectic.values.data import UNDEFINED
from dialectic.values.serialize import Serializer

_CACHE_SIZE = 256


def _utf8_length(text: str) -> int:
    """The text's size in UTF-8 (invalid text is measured by characters; its front end refuses
    it with a located error)."""
    if text.isascii():
        return len(text)
    try:
        return len(text.encode())
    except UnicodeEncodeError:
        return len(text)


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
    ) -> None:
        self.limits = Limits.coerce(limits)
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

    def _rebuild(self) -> None:
        self.types = TypeSystem(self.registry)
        self.serializer = Serializer(
            self.registry,
            self.types,
            self.limits.max_output_bytes,
            self.limits.max_string_length,
        )
        self._cache: OrderedDict[tuple[Any, ...], Prepared] = OrderedDict()
        if self.registry.is_builtin("str"):
            self.registry.functions["str"] = stdlib.bind_str(self.serializer.stringify)

    def register(self, *descriptions: Any) -> None:
        """Register FunctionDescription, TypeDescription, TypeConversion or Constant objects.

        A name of a built-in function (``upper``, ``max``, ``str``, ...) is replaced by the new
        registration; a name registered by a plugin, or already by ``register``, is a
        ``PluginError`` naming both sources."""
        for d in descriptions:
            self.registry.add(d)
        self.registry.validate()
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
            self._cache[key] = prepared
            if len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)
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


#: young objects left after preparing beyond which they go straight to the oldest generation
_PROMOTE_AT = 10_000


def _promote_if_large() -> None:
    """After a large program was prepared (the collector paused): move the young objects, its
    closures and nodes, straight to the oldest generation, which ``gc.freeze()`` then
    ``gc.unfreeze()`` do in constant time. Otherwise resuming the collector would make it scan
    them all at once (for a 100k-node program, about as long as preparing it), only to find
    them alive: a prepared program lives as long as its holder wants. Not done when the host
    itself keeps objects frozen (``unfreeze`` would release them too)."""
    if gc.get_count()[0] > _PROMOTE_AT and gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


def _bad_context(context: Any) -> DialecticError:
    return DialecticError(
        "invalid_option",
        f"the context must be a mapping of names to values, got {type(context).__name__}",
        hint="Pass a dict, e.g. run(program, context={'user': {...}}).",
    )


class CompileFailed(DialecticError):
    """``Runtime.compile`` of a program that cannot run: the first problem, and all of them."""

    def __init__(self, errors: list[DialecticError]) -> None:
        first = errors[0]
        super().__init__(
            first.code, first.message, first.path, hint=first.hint, details=first.details
        )
        self.errors = errors


class Prepared:
    """A compiled program. ``run``/``run_async`` evaluate it with a context."""

    def __init__(
        self,
        runtime: Runtime,
        program: Any,
        lang: str | None,
        strict: bool,
        options: Mapping[str, Any],
    ) -> None:
        self.runtime = runtime
        self.front: FrontEndResult | None = None
        self.root: Compiled | None = None
        self._sync: Any = None
        self._result_path: tuple[str, ...] = ()
        self.errors: list[DialecticError] = []
        self.warnings: list[str] = []
        self.mode = "return"
        self.context_refs: dict[str, Any] = {}
        self.known_names: list[str] = []
        self.memo_size = 0
        self.resolved: Resolved | None = None
        #: call sites that go into the call log (SPEC 18)
        self._logged = 0
        # Compiling allocates many objects and frees almost none, which the cyclic garbage
        # collector would scan again and again (more than half of preparing a 10k-node program,
        # and the more so the larger the application's heap): it is paused while a program is
        # prepared and resumed after, whatever happens (unless the host had paused it).
        collecting = gc.isenabled()
        if collecting:
            gc.disable()
        try:
            self._prepare(program, lang, strict, options)
        finally:
            if collecting:
                _promote_if_large()
                gc.enable()

    def _prepare(
        self, program: Any, lang: str | None, strict: bool, options: Mapping[str, Any]
    ) -> None:
        runtime = self.runtime
        limits = runtime.limits
        try:
            if isinstance(program, str) and _utf8_length(program) > limits.max_program_bytes:
                raise LimitExceeded(
                    "max_program_bytes",
                    f"the program is larger than {limits.max_program_bytes} bytes",
                )
            try:
                self.front = to_tree(
                    program,
                    lang,
                    strict=strict,
                    limits=limits,
                    functions=runtime.registry.functions,
                    **options,
                )
            except (TypeError, ValueError) as exc:  # a bad host argument (lang, options)
                if isinstance(exc, DialecticError):
                    raise
                raise DialecticError("invalid_option", f"invalid option: {exc}") from None
            self.warnings = list(self.front.warnings)
            node = parse_tree(self.front.tree, limits)
            #: where the result comes from: output errors point there
            self._result_path = (f"${node.mode}",) if isinstance(node, Let) else ()
            resolved = resolve(runtime.registry, limits, node)
            self.resolved = resolved
            self.warnings.extend(resolved.warnings)
            self.mode = resolved.mode
            self.context_refs = resolved.context_refs
            self.memo_size = resolved.memo_size
            self.known_names = sorted(resolved.alias_names | set(runtime.registry.constants))
            compiler = Compiler(
                runtime.registry,
                runtime.types,
                runtime.serializer,
                limits,
                self.front.tree,
                resolved,
            )
            self.root = compiler.compile_root()
            self._logged = compiler.async_calls.get("$logged", 0)
            self._data = runtime.serializer.data
            self._sync = self.root.sync
            self._limits = limits
            self._hooks = (runtime.types.coerce, runtime.serializer.stringify)
            self._debug = runtime.debug
            self._str_fast = limits.max_output_bytes // 4  # 4 bytes per char at most in UTF-8
        except (ResolveErrors, CompileErrors) as exc:
            self.errors = exc.errors
        except DialecticError as exc:
            self.errors = [exc]
        except RecursionError:
            self.errors = [
                LimitExceeded("max_depth", "the program is nested too deeply to compile")
            ]

    @property
    def tree(self) -> Any:
        return self.front.tree if self.front is not None else None

    @property
    def error(self) -> DialecticError | None:
        """The first compile error, or None if the program compiled."""
        return self.errors[0] if self.errors else None

    def problems(self, context: Mapping[str, Any] | None = None) -> list[DialecticError]:
        """What stops a run before any call: compile errors, and with a ``context``, the names
        the program reads that are neither aliases, constants nor in it."""
        if self.errors:
            return list(self.errors)
        if context is None:
            return []
        missing = [n for n in self.context_refs if n not in context]
        return [self._unknown_identifier(n, context) for n in missing]

    def check(self, context: Mapping[str, Any] | None = None) -> Outcome | None:
        """The failure a run with ``context`` would end in before any call, or None."""
        problems = self.problems(context)
        if not problems:
            return None
        return failure(problems, self.front, list(self.warnings))

    def canonical(self, context: Mapping[str, Any] | None = None) -> Any:
        """The canonical call tree (SPEC 1.6); raises the first of :meth:`problems`."""
        from dialectic.resolve.canonical import canonical

        problems = self.problems(context)
        if problems:
            raise CompileFailed(problems)
        assert self.resolved is not None
        return canonical(self.resolved.root)

    def _start(self, context: Mapping[str, Any] | None) -> State | Outcome:
        if self.errors:
            return failure(self.errors, self.front, list(self.warnings))
        if context is not None and not isinstance(context, Mapping):
            return failure([_bad_context(context)], self.front, list(self.warnings))
        values: Any = context if context is not None else {}
        for name in self.context_refs:
            if name not in values:
                missing = [n for n in self.context_refs if n not in values]
                return failure(
                    [self._unknown_identifier(n, values) for n in missing],
                    self.front,
                    list(self.warnings),
                )
        rt = self.runtime
        return State(
            values, self.memo_size, rt.limits, (rt.types.coerce, rt.serializer.stringify), rt.debug
        )

    def _unknown_identifier(self, name: str, values: Mapping[str, Any]) -> DialecticError:
        pool = [*self.known_names, *values]
        near = closest(name, pool)
        return DialecticError(
            "unknown_identifier",
            f"unknown identifier `{name}`"
            + (f"; did you mean {' or '.join(f'`{n}`' for n in near)}?" if near else ""),
            self.context_refs[name],
            hint="A name must be an alias defined in the program, a registered constant, or a "
            "value in the run's context."
            + (f" Known names: {', '.join(pool[:20])}." if pool else ""),
        )

    def _observe(self, state: State, journal: Journal | None, on_event: EventHook | None) -> None:
        """The run's journal, event hook and tracer, if any (SPEC 18)."""
        rt = self.runtime
        j = journal if journal is not None else rt.journal
        e = on_event if on_event is not None else rt.on_event
        if j is not None or e is not None or TRACING in sys.modules:
            observe(self, state, j, e)

    def preview(self) -> Any:
        """The effectful calls this program will make, in order (SPEC 17)."""
        from dialectic.tools.preview import preview

        if self.errors:
            raise CompileFailed(self.errors)
        assert self.resolved is not None
        return preview(self.resolved.root)

    def _approvals(self, state: State, approve: Any, approve_plan: Any) -> Outcome | None:
        """The run's approvers (SPEC 17); the failure if the whole preview is refused."""
        rt = self.runtime
        approve = approve if approve is not None else rt.approve
        approve_plan = approve_plan if approve_plan is not None else rt.approve_plan
        if approve is None and approve_plan is None:
            return None
        refused = attach(state, approve, approve_plan, self.preview)
        return None if refused is None else self._fail(refused, state)

    def run(
        self,
        context: Mapping[str, Any] | None = None,
        *,
        journal: Journal | None = None,
        on_event: EventHook | None = None,
        approve: Any = None,
        approve_plan: Any = None,
    ) -> Outcome:
        sync = self._sync
        if sync is not None:  # the fast path: a synchronous program that compiled
            values: Any = context if context is not None else {}
            if type(values) is not dict and not isinstance(values, Mapping):
                return self._start(context)  # type: ignore[return-value]
            for name in self.context_refs:
                if name not in values:
                    return self._start(context)  # type: ignore[return-value]
            state = State(values, self.memo_size, self._limits, self._hooks, self._debug)
            if self._logged:
                self._observe(state, journal, on_event)
                refused = self._approvals(state, approve, approve_plan)
                if refused is not None:
                    return refused
            try:
                value = sync(state)
            except BaseException as exc:
                return self._fail(exc, state)
            if time.monotonic() > state.deadline_at:
                return self._fail(deadline_error(state.limits), state)
            if (
                type(value) is str
                and len(value) <= self._str_fast
                and value.isascii()
                and not state.warnings
                and not self._logged
            ):
                return Outcome.success(
                    value,
                    bounded_warnings([*self.warnings]) if self.warnings else [],
                    self.mode,
                    self._data,
                )
            return self._success(value, state)
        started = self._start(context)
        if isinstance(started, Outcome):
            return started
        state = started
        if self._logged:
            self._observe(state, journal, on_event)
            refused = self._approvals(state, approve, approve_plan)
            if refused is not None:
                return refused
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return anyio.run(self._run_async_state, state)
        # Called from inside an event loop: run in a fresh thread with its own loop.
        result: list[Outcome] = []
        errors: list[BaseException] = []

        def target() -> None:
            try:
                result.append(anyio.run(self._run_async_state, state))
            except BaseException as exc:  # re-raised in the caller's thread
                errors.append(exc)

        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
        if errors:
            raise errors[0]
        return result[0]

    async def run_async(
        self,
        context: Mapping[str, Any] | None = None,
        *,
        journal: Journal | None = None,
        on_event: EventHook | None = None,
        approve: Any = None,
        approve_plan: Any = None,
    ) -> Outcome:
        state = self._start(context)
        if isinstance(state, Outcome):
            return state
        if self._logged:
            self._observe(state, journal, on_event)
            refused = self._approvals(state, approve, approve_plan)
            if refused is not None:
                return refused
        root = self.root
        assert root is not None
        if root.sync is not None:
            try:
                value = root.sync(state)
            except BaseException as exc:
                return self._fail(exc, state)
            return self._success(value, state)
        return await self._run_async_state(state)

    async def _run_async_state(self, state: State) -> Outcome:
        root = self.root
        assert root is not None and root.aio is not None
        loop = asyncio._get_running_loop()
        if loop is None:  # trio: an anyio cancel scope
            try:
                with anyio.fail_after(state.limits.deadline):
                    value = await root.aio(state)
            except TimeoutError:
                return self._fail(deadline_error(state.limits), state)
            except Exception as exc:
                return self._fail(exc, state)
            if time.monotonic() > state.deadline_at:  # a synchronous step ran past it
                return self._fail(deadline_error(state.limits), state)
            return self._success(value, state)
        # asyncio: children run as native tasks, and the deadline is one timer that cancels
        # this task (a cancel scope costs more than the rest of a small fan-out)
        state.native = True
        task = asyncio.current_task()
        assert task is not None
        expired: list[bool] = []

        def expire() -> None:
            expired.append(True)
            task.cancel()

        timer = loop.call_at(loop.time() + state.limits.deadline, expire)
        try:
            value = await root.aio(state)
        except asyncio.CancelledError:
            if expired and task.uncancel() == 0:
                return self._fail(deadline_error(state.limits), state)
            raise
        except Exception as exc:
            if expired:  # the cancellation turned into an error on its way up
                task.uncancel()
                return self._fail(deadline_error(state.limits), state)
            return self._fail(exc, state)
        finally:
            timer.cancel()
            state.close()  # no timer of the run stays scheduled
        if expired:  # the deadline passed, and the cancellation was swallowed
            task.uncancel()
        if expired or time.monotonic() > state.deadline_at:  # or nothing awaited after it
            return self._fail(deadline_error(state.limits), state)
        return self._success(value, state)

    def _warnings(self, state: State) -> list[str]:
        if not self.warnings and not state.warnings:
            return []
        return bounded_warnings([*self.warnings, *state.warnings])

    def _success(self, value: Any, state: State) -> Outcome:
        out = self._succeeded(value, state)
        return ended(self, out, state) if self._logged and out.status == "success" else out

    def _fail(self, exc: BaseException, state: State) -> Outcome:
        """The outcome of a run that raised, with the call log and completed aliases."""
        return ended(self, self._failed(exc, state), state)

    def _succeeded(self, value: Any, state: State) -> Outcome:
        rt = self.runtime
        limit = state.limits.max_output_bytes
        if value is UNDEFINED:
            value = None
        t = type(value)
        if t is str:
            try:
                size = len(value.encode())
            except UnicodeEncodeError:
                return self._fail(
                    DialecticError(
                        "invalid_value",
                        "the result contains a lone surrogate, which is not valid Unicode text",
                    ),
                    state,
                )
        elif (t is int and -(2**63) <= value < 2**63) or t is float or t is bool or value is None:
            size = 0
        else:
            try:
                size = len(rt.serializer.dumps(value))
            except DialecticError as exc:
                if not exc.path:
                    exc.path = self._result_path
                return self._fail(exc, state)
        if size > limit:
            return self._fail(
                LimitExceeded(
                    "max_output_bytes",
                    f"the result is {size} bytes of JSON; the limit is {limit}",
                    self._result_path,
                ),
                state,
            )
        return Outcome.success(value, self._warnings(state), self.mode, rt.serializer.data)

    def _failed(self, exc: BaseException, state: State) -> Outcome:
        fe = self.front
        assert fe is not None
        warnings = self._warnings(state)
        if isinstance(exc, AmbiguityError):
            return ambiguous(exc.items, fe, warnings)
        if isinstance(exc, DialecticError):
            return failure([exc], fe, warnings)
        if isinstance(exc, RecursionError):
            return failure(
                [LimitExceeded("max_depth", "the program is nested too deeply to evaluate")],
                fe,
                warnings,
            )
        if isinstance(exc, PluginError):
            return failure([DialecticError("plugin_error", str(exc))], fe, warnings)
        if not isinstance(exc, Exception):
            raise exc
        details: dict[str, Any] = {"exception": type(exc).__name__}
        if self.runtime.debug:
            details["traceback"] = "".join(traceback.format_exception(exc))
        return failure(
            [
                DialecticError(
                    "internal_error",
                    f"the runtime failed unexpectedly: {type(exc).__name__}: {exc}",
                    hint="This is a bug in dialectic, not in the program; please report it.",
                    details=details,
                )
            ],
            fe,
            warnings,
        )
