"""Services a plugin declares (SPEC 2, 15, 16): MCP servers and OpenAPI services.

A plugin's ``dialectic_register_services`` hook hands ``register`` one or more of

- :class:`MCPServers` (or the plain mapping ``{"mcpServers": {...}}``): the MCP hosts'
  configuration, as ``Runtime.add_mcp_servers`` takes it;
- :class:`OpenAPIService`: a service as ``Runtime.add_openapi`` takes it.

The runtime connects them when it is built, after every plugin has registered (a program is
compiled against the tools the servers list, so they are connected before the first one): the
MCP sessions run on dialectic's own loop thread, as with ``add_mcp_servers``, and
``Runtime.close()``/``aclose()`` end them with the runtime's other resources. A service that
cannot be connected is a :class:`PluginError` naming the plugin, and what was already
connected is closed. This module imports nothing of the connectors until a runtime connects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dialectic.outcome.errors import PluginError

if TYPE_CHECKING:
    from dialectic.runtime import Runtime

__all__ = ["MCPServers", "OpenAPIService", "check_service", "connect_services"]


@dataclass(frozen=True)
class MCPServers:
    """MCP servers in the hosts' configuration shape: ``{"mcpServers": {NAME: {...}}}`` (or a
    path to such a file); every tool is registered as ``NAME.TOOL``."""

    config: Any


@dataclass(frozen=True)
class OpenAPIService:
    """An OpenAPI 3.0/3.1 service: every operation registered as ``name.operationId``;
    ``source`` is a URL, a file or the parsed document."""

    name: str
    source: Any
    base_url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout: float | None = None


def check_service(service: Any, source: str) -> MCPServers | OpenAPIService:
    """``service`` as a declaration (a ``{"mcpServers": ...}`` mapping as :class:`MCPServers`),
    or a :class:`PluginError` naming ``source``."""
    if isinstance(service, (MCPServers, OpenAPIService)):
        return service
    if isinstance(service, Mapping) and "mcpServers" in service:
        return MCPServers(service)
    raise PluginError(
        f"{source} registered {service!r} as a service; register MCPServers({{'mcpServers': "
        "...}}) (or that mapping itself) or OpenAPIService(name, source) from "
        "dialectic.connectors.services"
    )


def connect_services(runtime: Runtime, services: list[tuple[str, Any]]) -> None:
    """Connect every declared service into ``runtime`` (in the plugins' order). On a failure
    the runtime is closed (every session it holds ended) and a :class:`PluginError` names the
    plugin."""
    for source, service in services:
        try:
            if isinstance(service, MCPServers):
                runtime.add_mcp_servers(service.config)
            else:
                runtime.add_openapi(
                    service.name,
                    service.source,
                    base_url=service.base_url,
                    headers=service.headers or None,
                    timeout=service.timeout,
                )
        except BaseException as exc:
            runtime.close()
            if not isinstance(exc, Exception):
                raise
            what = "MCP servers" if isinstance(service, MCPServers) else "OpenAPI service"
            raise PluginError(
                f"{source}: its {what} could not be connected: {type(exc).__name__}: {exc}"
            ) from exc
