"""The MCP configuration file MCP hosts already use, read into :class:`ServerConfig` values.

``{"mcpServers": {"NAME": {"command": ..., "args": [...], "env": {...}, "cwd": ...}}}`` starts a
server as a subprocess (stdio); ``{"url": ..., "headers": {...}}`` connects over streamable HTTP.
``type`` (``stdio``, ``http`` or ``streamable-http``) may say which; ``disabled: true`` skips a
server; ``timeout`` (seconds) bounds each call of its tools. ``${VAR}`` and ``${VAR:-default}`` in
the text values read the environment (a variable that is not set, without a default, is an
error). Other keys hosts write (``autoApprove``, ...) are ignored. Every problem is a
:class:`MCPConfigError` naming the place (``mcpServers.NAME.args[1]``) and what to write instead.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["MCPConfigError", "ServerConfig", "load_mcp_config", "namespace_of"]

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_NOT_IDENT = re.compile(r"[^A-Za-z0-9_]")
_TRANSPORTS = {
    "stdio": "stdio",
    "http": "http",
    "streamable-http": "http",
    "streamableHttp": "http",
}
#: bounds on a configuration (it may come from anywhere)
MAX_SERVERS = 100
MAX_CONFIG_BYTES = 1_000_000


class MCPConfigError(ValueError):
    """A configuration that cannot be used: what is wrong, where, and what to write."""

    def __init__(self, message: str, where: str = "", hint: str | None = None) -> None:
        text = f"{where}: {message}" if where else message
        super().__init__(text + (f" ({hint})" if hint else ""))
        self.where = where
        self.hint = hint


@dataclass(frozen=True)
class ServerConfig:
    """One MCP server: ``command`` (stdio) or ``url`` (streamable HTTP)."""

    name: str
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    #: seconds each call may take (None: the run's limits decide)
    timeout: float | None = None

    @property
    def namespace(self) -> str:
        return namespace_of(self.name)

    @property
    def transport(self) -> str:
        return "stdio" if self.command is not None else "http"


def namespace_of(name: str) -> str:
    """The name as a Plan identifier: ``brave-search`` -> ``brave_search``."""
    ident = _NOT_IDENT.sub("_", name)
    return f"_{ident}" if ident[:1].isdigit() else ident


def _expand(text: str, where: str) -> str:
    def value(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        found = os.environ.get(name)
        if found is not None:
            return found
        if default is not None:
            return default
        raise MCPConfigError(
            f"the environment variable {name} is not set",
            where,
            f"set it, or write ${{{name}:-default}}",
        )

    return _VAR.sub(value, text) if "${" in text else text


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise MCPConfigError(f"expected text, got {type(value).__name__}", where)
    return _expand(value, where)


def _texts(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise MCPConfigError(
            f"expected a list of text, got {type(value).__name__}", where, 'e.g. ["-y", "pkg"]'
        )
    return tuple(_text(v, f"{where}[{i}]") for i, v in enumerate(value))


def _mapping(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise MCPConfigError(
            f"expected an object of text values, got {type(value).__name__}",
            where,
            'e.g. {"KEY": "value"}',
        )
    return {str(k): _text(v, f"{where}.{k}") for k, v in value.items()}


def _server(name: str, spec: Any) -> ServerConfig | None:
    where = f"mcpServers.{name}"
    if not name or len(name) > 100:
        raise MCPConfigError("a server name must be 1 to 100 characters", where)
    if not isinstance(spec, dict):
        raise MCPConfigError(
            f"expected an object, got {type(spec).__name__}",
            where,
            'write {"command": "...", "args": [...]} or {"url": "..."}',
        )
    if spec.get("disabled") is True:
        return None
    kind = spec.get("type", spec.get("transport"))
    if kind is not None and _TRANSPORTS.get(kind) is None:
        raise MCPConfigError(
            f"unsupported transport {kind!r}",
            f"{where}.type",
            "use stdio (with command) or http (streamable HTTP, with url); SSE is not supported",
        )
    has_command, has_url = "command" in spec, "url" in spec
    if has_command == has_url:
        raise MCPConfigError(
            "give exactly one of command (a subprocess over stdio) or url (streamable HTTP)",
            where,
        )
    timeout = spec.get("timeout")
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0
    ):
        raise MCPConfigError("expected a positive number of seconds", f"{where}.timeout")
    seconds = float(timeout) if timeout is not None else None
    if has_command:
        command = _text(spec["command"], f"{where}.command")
        if not command:
            raise MCPConfigError("the command is empty", f"{where}.command")
        cwd = spec.get("cwd")
        return ServerConfig(
            name,
            command=command,
            args=_texts(spec.get("args", []), f"{where}.args"),
            env=_mapping(spec.get("env", {}), f"{where}.env"),
            cwd=_text(cwd, f"{where}.cwd") if cwd is not None else None,
            timeout=seconds,
        )
    url = _text(spec["url"], f"{where}.url")
    if not url.startswith(("http://", "https://")):
        raise MCPConfigError(
            f"expected an http:// or https:// URL, got {url[:60]!r}", f"{where}.url"
        )
    return ServerConfig(
        name,
        url=url,
        headers=_mapping(spec.get("headers", {}), f"{where}.headers"),
        timeout=seconds,
    )


def load_mcp_config(source: str | Path | Mapping[str, Any]) -> list[ServerConfig]:
    """The enabled servers of a configuration: a path to its JSON file, or the parsed object."""
    data: Any = source
    if isinstance(source, str | Path):
        path = Path(source)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise MCPConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
        if len(raw) > MAX_CONFIG_BYTES:
            raise MCPConfigError(f"{path} is larger than {MAX_CONFIG_BYTES} bytes")
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise MCPConfigError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, Mapping) or not isinstance(data.get("mcpServers"), Mapping):
        raise MCPConfigError(
            "expected an object with the key mcpServers",
            hint='write {"mcpServers": {"NAME": {"command": "...", "args": [...]}}}',
        )
    servers = data["mcpServers"]
    if len(servers) > MAX_SERVERS:
        raise MCPConfigError(f"more than {MAX_SERVERS} servers", "mcpServers")
    out: list[ServerConfig] = []
    seen: dict[str, str] = {}
    for name, spec in servers.items():
        server = _server(str(name), spec)
        if server is None:
            continue
        other = seen.get(server.namespace)
        if other is not None:
            raise MCPConfigError(
                f"the servers {other!r} and {name!r} both become the namespace "
                f"{server.namespace!r}",
                "mcpServers",
                "rename one of them",
            )
        seen[server.namespace] = server.name
        out.append(server)
    return out
