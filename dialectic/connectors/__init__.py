"""Connectors: functions that live elsewhere, as dialectic functions.

- MCP servers (SPEC 15): ``mcp_config`` reads the hosts' ``{"mcpServers": ...}`` file,
  ``mcp_client`` keeps the connections (``mcp_sessions``: where they live; ``mcp_stderr``: what
  the servers write on stderr), ``mcp_functions`` turns tools into functions ``NAME.TOOL``,
  ``mcp_runtime`` is ``Runtime.add_mcp_servers``;
- OpenAPI services (SPEC 16): ``openapi`` and its modules.

Names are imported on first use, so a connector's dependencies (the ``mcp`` SDK, ...) load only
when it is used.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "MCPConfigError": "dialectic.connectors.mcp_config",
    "ServerConfig": "dialectic.connectors.mcp_config",
    "load_mcp_config": "dialectic.connectors.mcp_config",
    "MCPConnectError": "dialectic.connectors.mcp_client",
    "MCPConnections": "dialectic.connectors.mcp_client",
    "ServerSession": "dialectic.connectors.mcp_client",
    "add_mcp_servers": "dialectic.connectors.mcp_runtime",
    "add_mcp_servers_async": "dialectic.connectors.mcp_runtime",
    "MCPServers": "dialectic.connectors.services",
    "OpenAPIService": "dialectic.connectors.services",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'dialectic.connectors' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
