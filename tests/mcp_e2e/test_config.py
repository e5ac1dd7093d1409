"""The MCP hosts' configuration file: what it accepts, and a located error for what it does not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dialectic.connectors.mcp_config import MCPConfigError, load_mcp_config, namespace_of


def one(spec: Any, name: str = "srv") -> Any:
    (server,) = load_mcp_config({"mcpServers": {name: spec}})
    return server


def test_stdio_and_http_servers() -> None:
    servers = load_mcp_config(
        {
            "mcpServers": {
                "memory": {"command": "npx", "args": ["-y", "pkg"], "env": {"K": "v"}},
                "remote": {"url": "http://127.0.0.1:9/mcp", "headers": {"X-Key": "k"}},
                "off": {"command": "x", "disabled": True},
                "brave-search": {"type": "stdio", "command": "b", "autoApprove": ["x"]},
            }
        }
    )
    assert [s.name for s in servers] == ["memory", "remote", "brave-search"]
    memory, remote, brave = servers
    assert (memory.transport, memory.command, memory.args, dict(memory.env)) == (
        "stdio",
        "npx",
        ("-y", "pkg"),
        {"K": "v"},
    )
    assert (remote.transport, remote.url, dict(remote.headers)) == (
        "http",
        "http://127.0.0.1:9/mcp",
        {"X-Key": "k"},
    )
    assert brave.namespace == "brave_search"


def test_environment_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALECTIC_TEST_TOKEN", "t0k")
    server = one(
        {
            "url": "https://example.invalid/mcp",
            "headers": {"Authorization": "Bearer ${DIALECTIC_TEST_TOKEN}"},
        }
    )
    assert server.headers["Authorization"] == "Bearer t0k"
    assert one({"command": "x", "args": ["${DIALECTIC_UNSET_VAR:-fallback}"]}).args == ("fallback",)
    with pytest.raises(MCPConfigError) as err:
        one({"command": "x", "env": {"A": "${DIALECTIC_UNSET_VAR}"}})
    assert "mcpServers.srv.env.A" in str(err.value)
    assert "DIALECTIC_UNSET_VAR is not set" in str(err.value)


@pytest.mark.parametrize(
    ("data", "where", "what"),
    [
        ({}, "", "mcpServers"),
        ({"mcpServers": []}, "", "mcpServers"),
        ({"mcpServers": {"a": "npx"}}, "mcpServers.a", "expected an object"),
        ({"mcpServers": {"a": {}}}, "mcpServers.a", "exactly one of command"),
        ({"mcpServers": {"a": {"command": "x", "url": "http://h"}}}, "mcpServers.a", "one of"),
        ({"mcpServers": {"a": {"command": "x", "args": "-y"}}}, "mcpServers.a.args", "list"),
        ({"mcpServers": {"a": {"command": "x", "args": [1]}}}, "mcpServers.a.args[0]", "text"),
        ({"mcpServers": {"a": {"command": ""}}}, "mcpServers.a.command", "empty"),
        ({"mcpServers": {"a": {"command": "x", "env": []}}}, "mcpServers.a.env", "object"),
        ({"mcpServers": {"a": {"url": "ftp://h"}}}, "mcpServers.a.url", "http://"),
        ({"mcpServers": {"a": {"type": "sse", "url": "http://h"}}}, "mcpServers.a.type", "SSE"),
        ({"mcpServers": {"a": {"command": "x", "timeout": 0}}}, "mcpServers.a.timeout", "positive"),
        (
            {"mcpServers": {"a-b": {"command": "x"}, "a_b": {"command": "y"}}},
            "mcpServers",
            "both become the namespace 'a_b'",
        ),
    ],
)
def test_located_errors(data: Any, where: str, what: str) -> None:
    with pytest.raises(MCPConfigError) as err:
        load_mcp_config(data)
    assert err.value.where == where
    assert what in str(err.value)


def test_files(tmp_path: Path) -> None:
    good = tmp_path / "mcp.json"
    good.write_text('{"mcpServers": {"m": {"command": "node", "args": ["s.js"]}}}')
    assert [s.command for s in load_mcp_config(good)] == ["node"]
    assert [s.command for s in load_mcp_config(str(good))] == ["node"]
    bad = tmp_path / "bad.json"
    bad.write_text("{mcpServers: ")
    with pytest.raises(MCPConfigError, match="is not JSON"):
        load_mcp_config(bad)
    with pytest.raises(MCPConfigError, match="cannot read"):
        load_mcp_config(tmp_path / "missing.json")


def test_namespaces() -> None:
    assert namespace_of("memory") == "memory"
    assert namespace_of("brave-search") == "brave_search"
    assert namespace_of("1password") == "_1password"
