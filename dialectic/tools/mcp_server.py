"""dialectic as an MCP server: ``dialectic mcp`` (stdio; ``--http PORT`` on 127.0.0.1).

Three tools over one runtime (its plugins, MCP servers and OpenAPI services):

- ``run_program``: run a program (``program`` text, optional ``notation`` and ``context``); the
  outcome (``Outcome.to_json()``) is the structured content and readable text the content
  (failure: ``isError``). Its description is the primer and the catalog, computed once when
  the server starts, so it is byte-identical in every listing (prompt caches hold); a catalog
  larger than :data:`INLINE_CATALOG_BYTES` is left to ``search_functions``.
- ``search_functions``: the catalog filtered by words and/or a namespace (progressive
  discovery of a large catalog).
- ``check_program``: parse and resolve only (no call runs): the canonical call tree, or the
  failure a run would end in before any call.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import anyio
import orjson
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp_types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
    ToolAnnotations,
)

from dialectic.outcome.outcome import FAILURE, SUCCESS, Outcome
from dialectic.tools.catalog import catalog_compact, search_functions, short
from dialectic.tools.primer import primer
from dialectic.tools.schema import NOTATIONS

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext

    from dialectic.runtime import Runtime

__all__ = [
    "INLINE_CATALOG_BYTES",
    "DialecticMCP",
    "serve_http",
    "serve_stdio",
]

#: a catalog up to this size is in ``run_program``'s description; a larger one is searched
INLINE_CATALOG_BYTES = 16 * 1024
#: at most this many functions in one ``search_functions`` answer
MAX_SEARCH_RESULTS = 100

_NOTATION = {
    "type": "string",
    "enum": list(NOTATIONS),
    "description": "json (Dialect JSON), plan (the JavaScript subset) or plan2 (YAML); "
    "detected from the text when omitted.",
}
_PROGRAM = {"type": "string", "description": "The program's text, in its notation."}


def _run_description(rt: Runtime) -> str:
    head = (
        "Run a dialectic program: one program composes calls of the functions below (tools of "
        "several servers among them), concurrently where independent, in one round trip. The "
        "outcome is success (the value), failure (what is wrong, where, what to write "
        "instead) or ambiguous (a question, with complete programs to send back).\n\n"
    )
    catalog = catalog_compact(rt)
    if len(catalog.encode()) <= INLINE_CATALOG_BYTES:
        return head + catalog
    namespaces = rt.registry.namespaces()
    return (
        head
        + primer(compact=True)
        + "\nThe catalog is large: find functions with the tool search_functions (by words, or "
        "by namespace" + (f": {', '.join(namespaces)}" if namespaces else "") + ").\n"
    )


def _tools(rt: Runtime) -> list[Tool]:
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    return [
        Tool(
            name="run_program",
            description=_run_description(rt),
            input_schema={
                "type": "object",
                "properties": {
                    "program": _PROGRAM,
                    "notation": _NOTATION,
                    "context": {
                        "type": "object",
                        "description": "Values the program may read by name (optional).",
                    },
                },
                "required": ["program"],
                "additionalProperties": False,
            },
        ),
        Tool(
            name="search_functions",
            description="Find functions for a program, best first: by the words of `query` "
            "(in their names, parameters and descriptions) and/or in one `namespace` (e.g. an "
            "MCP server's name); with neither, every function and the namespaces.",
            input_schema={
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "Words to look for."},
                    "namespace": {"type": "string", "description": "Only this namespace."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": MAX_SEARCH_RESULTS},
                },
                "additionalProperties": False,
            },
            annotations=read_only,
        ),
        Tool(
            name="check_program",
            description="Parse and resolve a program without running anything: its canonical "
            "call tree, or the failure a run would end in before any call.",
            input_schema={
                "type": "object",
                "properties": {"program": _PROGRAM, "notation": _NOTATION},
                "required": ["program"],
                "additionalProperties": False,
            },
            annotations=read_only,
        ),
    ]


def _dump(value: Any) -> str:
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # an integer beyond 64 bits, which orjson refuses
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _answer(data: dict[str, Any], text: str, is_error: bool = False) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=data,
        is_error=is_error,
    )


def _refuse(message: str) -> CallToolResult:
    return _answer({"status": FAILURE, "message": message}, message, True)


def _outcome(outcome: Outcome) -> CallToolResult:
    data = outcome.to_json()
    if outcome.status == SUCCESS:
        value = data.get("value")
        text = value if isinstance(value, str) else _dump(value)
    else:
        text = outcome.message or outcome.status
    return _answer(data, text, outcome.status == FAILURE)


def _text_arg(args: Mapping[str, Any], key: str, required: bool = False) -> str | None:
    value = args.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ValueError(
            f"the argument {key!r} must be text"
            + (f", got {type(value).__name__}" if value is not None else "; it is missing")
        )
    return value


class DialecticMCP:
    """The MCP server of one runtime (``server`` is the SDK's low-level ``Server``)."""

    def __init__(self, runtime: Runtime, name: str = "dialectic") -> None:
        self.runtime = runtime
        self.tools = _tools(runtime)  # computed once: byte-stable descriptions
        self.server: Server[Any] = Server(
            name,
            instructions="Write one program that composes the functions listed in run_program "
            "(or found with search_functions) and run it with run_program.",
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        return ListToolsResult(tools=self.tools)

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: CallToolRequestParams
    ) -> CallToolResult:
        args = params.arguments or {}
        try:
            if params.name == "run_program":
                return await self.run_program(args)
            if params.name == "check_program":
                return self.check_program(args)
            if params.name == "search_functions":
                return self.search_functions(args)
        except ValueError as exc:
            return _refuse(str(exc))
        except Exception as exc:  # a bug: still an answer, never a traceback to the host
            return _refuse(
                f"dialectic failed unexpectedly ({type(exc).__name__}: {str(exc)[:500]}); "
                "this is a bug in dialectic, not in the program"
            )
        names = ", ".join(t.name for t in self.tools)
        return _refuse(f"no tool {params.name[:100]!r}; the tools are {names}")

    async def run_program(self, args: Mapping[str, Any]) -> CallToolResult:
        program = _text_arg(args, "program", True)
        notation = _text_arg(args, "notation")
        context = args.get("context")
        if context is not None and not isinstance(context, dict):
            raise ValueError("the argument 'context' must be an object of values")
        outcome = await self.runtime.run_async(program, lang=notation, context=context)
        return _outcome(outcome)

    def check_program(self, args: Mapping[str, Any]) -> CallToolResult:
        program = _text_arg(args, "program", True)
        notation = _text_arg(args, "notation")
        prepared = self.runtime.prepare(program, lang=notation)
        blocked = prepared.check()
        if blocked is not None:
            return _outcome(blocked)
        tree = prepared.canonical()
        data = {"status": "ok", "canonical": tree, "warnings": list(prepared.warnings)}
        return _answer(data, "The program is valid. Canonical call tree: " + _dump(tree))

    def search_functions(self, args: Mapping[str, Any]) -> CallToolResult:
        query = _text_arg(args, "query") or ""
        namespace = _text_arg(args, "namespace")
        limit = args.get("limit", 30)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError("the argument 'limit' must be a positive integer")
        found = search_catalog(self.runtime, query, namespace, min(limit, MAX_SEARCH_RESULTS))
        lines = [f"- {f['signature']}: {short(f['description'], 200)}" for f in found["functions"]]
        if found.get("namespaces"):
            sizes = [f"{ns} ({n} functions)" for ns, n in found["namespaces"].items()]
            lines.insert(0, "Namespaces: " + ", ".join(sizes))
        text = "\n".join(lines) if lines else "No function matches; try fewer or other words."
        return _answer(found, text)


def search_catalog(rt: Runtime, query: str, namespace: str | None, limit: int) -> dict[str, Any]:
    """The catalog filtered by ``query`` words and ``namespace``, best first
    (:func:`dialectic.tools.catalog.search_functions`): ``{"functions": [entries]}``, and the
    namespaces with their sizes when neither filter is given."""
    from dialectic.tools.search import namespaces_of

    out: dict[str, Any] = {"functions": search_functions(rt, query, namespace, limit)}
    if not query.strip() and not namespace:
        out["namespaces"] = dict(namespaces_of(rt))
    return out


async def serve_stdio(runtime: Runtime) -> None:
    """Serve on standard input and output until the client closes them."""
    mcp = DialecticMCP(runtime)
    async with stdio_server() as (read, write):
        await mcp.server.run(read, write, mcp.server.create_initialization_options())


async def serve_http(
    runtime: Runtime,
    port: int,
    host: str = "127.0.0.1",
    stop_hooks: list[Callable[[], None]] | None = None,
) -> None:
    """Serve streamable HTTP at ``http://HOST:PORT/mcp`` until cancelled, or until a function
    this appends to ``stop_hooks`` is called (a graceful stop)."""
    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield  # the caller handles signals (uvicorn would re-raise them when it returns)

    mcp = DialecticMCP(runtime)
    app = mcp.server.streamable_http_app(host=host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    server = Server(config)
    if stop_hooks is not None:
        stop_hooks.append(lambda: setattr(server, "should_exit", True))
    await server.serve()


async def _serve(runtime: Runtime, configs: Sequence[Any], http_port: int | None) -> None:
    stop_hooks: list[Callable[[], None]] = []
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_stop_on_signal, tg.cancel_scope, stop_hooks)
            for config in configs:  # the sessions live on this loop: no thread hop per call
                await runtime.add_mcp_servers_async(config)
            if http_port is None:

                def end() -> None:
                    tg.start_soon(_end_process, runtime)

                stop_hooks.append(end)
                await serve_stdio(runtime)
            else:
                await serve_http(runtime, http_port, stop_hooks=stop_hooks)
            tg.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            await runtime.aclose()  # the MCP servers it started end with it


async def _end_process(runtime: Runtime) -> None:
    """Stop serving stdio: its reader waits in a thread for a line that may never come, so
    cancelling it would wait too; the runtime is closed, then the process ends."""
    with anyio.CancelScope(shield=True):
        await runtime.aclose()
    sys.stdout.flush()
    os._exit(0)


async def _stop_on_signal(scope: anyio.CancelScope, stop_hooks: list[Callable[[], None]]) -> None:
    """SIGTERM (how hosts stop a server) and SIGINT first close the runtime (and the servers
    it started): the HTTP server stops gracefully, stdio ends the process after closing."""
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async for _ in signals:
            if not stop_hooks:  # still connecting
                scope.cancel()
                return
            for stop in stop_hooks:
                stop()


def run_server(
    runtime: Runtime, mcp_configs: Sequence[Any] = (), http_port: int | None = None
) -> None:
    """Connect the MCP servers of ``mcp_configs``, then serve (stdio, or streamable HTTP on
    127.0.0.1 with a port) until stopped; the runtime is closed at the end."""
    with contextlib.suppress(KeyboardInterrupt):
        anyio.run(_serve, runtime, mcp_configs, http_port)
