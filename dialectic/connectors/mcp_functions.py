"""The tools of a connected MCP server as dialectic functions ``NAME.TOOL``.

A tool name that is not an identifier (``get-sum``) is called by its identifier form
(``everything.get_sum``; the server still receives ``get-sum``). The description, parameters and
annotations come from the tool's listing through :func:`dialectic.registry.importers.from_mcp_tool`
when that importer is installed, else from a plain reading of ``inputSchema`` here.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any

from mcp_types import Tool

from dialectic.connectors.mcp_client import MCPConnectError, MCPConnections, ServerSession
from dialectic.registry.descriptions import FunctionDescription, Optional

__all__ = ["session_functions", "tool_identifier"]

_NOT_IDENT = re.compile(r"[^A-Za-z0-9_]")
_JSON_TYPES = ("string", "number", "integer", "boolean", "array", "object", "null")


def tool_identifier(name: str) -> str:
    """A tool's name as a Plan identifier: ``get-sum`` -> ``get_sum``."""
    ident = _NOT_IDENT.sub("_", name)
    return f"_{ident}" if not ident or ident[0].isdigit() else ident


def _importer() -> Callable[..., FunctionDescription] | None:
    try:
        module = importlib.import_module("dialectic.registry.importers")
    except ImportError:
        return None
    found = getattr(module, "from_mcp_tool", None)
    return found if callable(found) else None


def _param_type(schema: Any) -> str:
    kind = schema.get("type") if isinstance(schema, dict) else None
    return kind if isinstance(kind, str) and kind in _JSON_TYPES else "any"


def _plain(tool: Tool, implementation: Callable[..., Any], namespace: str) -> FunctionDescription:
    """A description read from ``inputSchema`` alone (the fallback of ``from_mcp_tool``)."""
    schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
    properties = schema.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    required = schema.get("required")
    required = set(required) if isinstance(required, list) else set()
    parameters: dict[str, Any] = {}
    notes: dict[str, str] = {}
    for pname, pschema in properties.items():
        kind = _param_type(pschema)
        parameters[pname] = kind if pname in required else Optional(kind)
        text = pschema.get("description") if isinstance(pschema, dict) else None
        if isinstance(text, str) and text:
            notes[pname] = text
    return FunctionDescription(
        tool_identifier(tool.name),
        tool.description or tool.title or tool.name,
        implementation,
        parameters,
        "object" if tool.output_schema is not None else "any",
        parameter_descriptions=notes,
        namespace=namespace,
    )


def session_functions(
    connections: MCPConnections, session: ServerSession
) -> list[FunctionDescription]:
    """One function per tool of ``session``, named ``NAMESPACE.TOOL``."""
    namespace = session.config.namespace
    importer = _importer()
    out: list[FunctionDescription] = []
    seen: dict[str, str] = {}
    for tool in session.tools:
        ident = tool_identifier(tool.name)
        if ident in seen:
            raise MCPConnectError(
                f"the MCP server {session.name!r} has the tools {seen[ident]!r} and "
                f"{tool.name!r}, which both become {namespace}.{ident}"
            )
        seen[ident] = tool.name
        impl = connections.implementation(session.name, tool.name)
        fn = importer(tool, impl, namespace=namespace) if importer is not None else None
        if fn is None:
            fn = _plain(tool, impl, namespace)
        fn.name, fn.namespace = ident, namespace  # the registry names it NAMESPACE.IDENT
        if session.config.timeout is not None:
            fn.timeout = session.config.timeout
        out.append(fn)
    return out
