"""``dialectic mcp``: dialectic as an MCP server in front of other MCP servers, driven by the
SDK's client over stdio (a subprocess) and over streamable HTTP on loopback."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult, TextContent

from .conftest import ROOT, children, descendants, ended, free_port, node_config, wait_until

DIALECTIC = [sys.executable, "-m", "dialectic.tools.cli"]

COMPOSE = """
const text = fs.read_text_file({path: file});
const saved = memory.create_entities({entities: [
  {name: 'notes', entityType: 'file', observations: [text.content.trim()]}]});
return {saved: saved.entities.map(e => e.name), allowed: fs.list_allowed_directories({})};
"""


@pytest.fixture
def config_file(workdir: Path, tmp_path: Path) -> Path:
    """A configuration with a fresh memory (each server process starts from nothing)."""
    path = tmp_path / "mcp.json"
    servers = {
        "memory": node_config("server-memory", MEMORY_FILE_PATH=str(tmp_path / "memory.jsonl")),
        "fs": node_config("server-filesystem", str(workdir)),
    }
    path.write_text(json.dumps({"mcpServers": servers}))
    return path


def text_of(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


async def exercise(client: Client, workdir: Path) -> dict[str, Any]:
    """Every tool of the server, as a model would use them; the facts the tests check."""
    facts: dict[str, Any] = {}
    listed = await client.list_tools()
    again = await client.list_tools()
    facts["tools"] = {t.name: t for t in listed.tools}
    facts["stable"] = [t.model_dump() for t in listed.tools] == [
        t.model_dump() for t in again.tools
    ]
    facts["run"] = await client.call_tool(
        "run_program",
        {
            "program": COMPOSE,
            "notation": "plan",
            "context": {"file": str(workdir / "hello.txt")},
        },
    )
    facts["bad"] = await client.call_tool("run_program", {"program": "return nosuch({});"})
    facts["search"] = await client.call_tool("search_functions", {"namespace": "memory"})
    facts["words"] = await client.call_tool("search_functions", {"query": "allowed directories"})
    facts["check"] = await client.call_tool(
        "check_program", {"program": '{"memory.read_graph": {}}'}
    )
    facts["unchecked"] = await client.call_tool("check_program", {"program": "return x +;"})
    facts["wrong"] = await client.call_tool("run_program", {"program": 42})
    return facts


def check_facts(facts: dict[str, Any]) -> None:
    tools = facts["tools"]
    assert set(tools) == {"run_program", "search_functions", "check_program"}
    description = tools["run_program"].description
    assert "memory.create_entities" in description and "fs.read_text_file" in description
    assert "Plan" in description and "Dialect JSON" in description  # the primer
    assert facts["stable"]

    run = facts["run"]
    assert not run.is_error
    assert run.structured_content["status"] == "success"
    value = run.structured_content["value"]
    assert value["saved"] == ["notes"]
    assert json.loads(text_of(run)) == value  # readable text: the value as JSON

    bad = facts["bad"]
    assert bad.is_error and bad.structured_content["status"] == "failure"
    assert "nosuch" in text_of(bad)

    found = facts["search"].structured_content["functions"]
    assert found and all(f["name"].startswith("memory.") for f in found)
    words = [f["name"] for f in facts["words"].structured_content["functions"]]
    assert words[0] == "fs.list_allowed_directories"  # the name matches best

    assert facts["check"].structured_content["status"] == "ok"
    assert facts["check"].structured_content["canonical"] == {"memory.read_graph": {}}
    unchecked = facts["unchecked"]
    assert unchecked.is_error and "line 1" in text_of(unchecked)
    wrong = facts["wrong"]
    assert wrong.is_error and "'program' must be text" in text_of(wrong)


def test_stdio(config_file: Path, workdir: Path) -> None:
    params = StdioServerParameters(
        command=DIALECTIC[0],
        args=[*DIALECTIC[1:], "mcp", "--no-entry-points", "--mcp-config", str(config_file)],
        cwd=str(ROOT),
    )
    before = children()
    seen: set[int] = set()

    async def main() -> dict[str, Any]:
        async with Client(params) as client:
            seen.update(children() - before)  # dialectic and the servers it started
            return await exercise(client, workdir)

    facts = anyio.run(main)
    check_facts(facts)
    assert len(seen) >= 3
    # the host closed the session: dialectic closed its servers and exited
    assert wait_until(lambda: ended(seen))


@pytest.fixture
def http_server(config_file: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    proc = subprocess.Popen(
        [
            *DIALECTIC,
            "mcp",
            "--no-entry-points",
            "--mcp-config",
            str(config_file),
            "--http",
            str(port),
        ],
        cwd=str(ROOT),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield f"http://127.0.0.1:{port}/mcp", proc
    finally:
        if proc.poll() is None:
            proc.terminate()
        proc.wait(60)


def test_streamable_http(
    http_server: tuple[str, subprocess.Popen[bytes]], workdir: Path, config_file: Path
) -> None:
    url, proc = http_server

    async def connect() -> dict[str, Any]:
        for _ in range(600):  # until it listens (the servers behind it start first)
            assert proc.poll() is None, "dialectic mcp --http exited"
            try:
                async with Client(url) as client:
                    return await exercise(client, workdir)
            except Exception:  # not listening yet
                await anyio.sleep(0.1)
        raise AssertionError("dialectic mcp --http did not answer")

    facts = anyio.run(connect)
    check_facts(facts)
    tree = set(descendants(proc.pid)) | {proc.pid}
    proc.terminate()  # SIGTERM, as a host stops a server: it closes its servers first
    assert proc.wait(60) == 0 or proc.returncode is not None
    assert wait_until(lambda: ended(tree))


def test_descriptions_are_byte_stable_and_a_large_catalog_is_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dialectic import FunctionDescription, Runtime
    from dialectic.tools import mcp_server

    rt = Runtime(load_entry_points=False)
    for ns in ("memory", "everything"):
        rt.register(
            FunctionDescription(
                f"{ns}.lookup", f"Look a key up in {ns}", lambda key: key, {"key": "string"}
            )
        )
    first = mcp_server.DialecticMCP(rt).tools
    second = mcp_server.DialecticMCP(rt).tools
    assert [t.model_dump_json() for t in first] == [t.model_dump_json() for t in second]
    inline = first[0].description or ""
    assert "memory.lookup" in inline and "everything.lookup" in inline
    monkeypatch.setattr(mcp_server, "INLINE_CATALOG_BYTES", 100)
    searched = mcp_server.DialecticMCP(rt).tools[0].description or ""
    assert "memory.lookup" not in searched
    assert "search_functions" in searched and "namespace: everything, memory" in searched


def test_sigterm_over_stdio_closes_the_servers_first(config_file: Path) -> None:
    """A host stops a stdio server with SIGTERM: dialectic closes the servers it started, then
    exits (its stdin reader would wait for a line forever)."""
    proc = subprocess.Popen(
        [*DIALECTIC, "mcp", "--no-entry-points", "--mcp-config", str(config_file)],
        cwd=str(ROOT),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_until(lambda: len(descendants(proc.pid)) >= 2, 60)  # both servers up
        servers = set(descendants(proc.pid))
        proc.terminate()
        assert proc.wait(60) == 0
        assert wait_until(lambda: ended(servers))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
