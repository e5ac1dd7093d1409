"""The tools of real MCP servers (the npm ``server-everything``, ``server-memory`` and
``server-filesystem`` that ``python3 tasks.py setup`` installs into ``.node/``), listed by the
SDK's client and imported with ``from_mcp_tool``: every one imports, the catalog shows their
schemas, and a program runs against the memory server through the imported functions (its
arguments validated before the server sees them)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult, Tool

from dialectic import Runtime
from dialectic.registry.importers import from_mcp_tool

NPM = Path(__file__).resolve().parents[2] / ".node" / "node_modules" / "@modelcontextprotocol"
NODE = shutil.which("node")


def server(package: str, *args: str, **env: str) -> StdioServerParameters:
    script = NPM / package / "dist" / "index.js"
    if NODE is None or not script.is_file():
        pytest.skip(f"{package} is not installed (python3 tasks.py setup installs it)")
    return StdioServerParameters(command=NODE, args=[str(script), *args], env=env or None)


def result_value(result: CallToolResult) -> Any:
    if result.is_error:
        raise RuntimeError(str(result.content))
    return result.structured_content


def caller(client: Client, name: str) -> Any:
    async def call(**arguments: Any) -> Any:
        return result_value(await client.call_tool(name, arguments))

    return call


@pytest.fixture(scope="module")
def listed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Tool]]:
    root = tmp_path_factory.mktemp("fs")
    params = {
        "everything": server("server-everything"),
        "memory": server("server-memory", MEMORY_FILE_PATH=str(root / "m.jsonl")),
        "fs": server("server-filesystem", str(root)),
    }
    found: dict[str, list[Tool]] = {}

    async def main() -> None:
        for name, p in params.items():
            async with Client(p) as client:
                found[name] = list((await client.list_tools()).tools)

    anyio.run(main)
    return found


def test_every_tool_of_three_real_servers_imports(listed: dict[str, list[Tool]]) -> None:
    rt = Runtime(plugins=[], load_entry_points=False)
    for namespace, tools in listed.items():
        for tool in tools:
            rt.register(from_mcp_tool(tool, lambda **kw: kw, namespace=namespace))
    assert rt.registry.namespaces() == ["everything", "fs", "memory"]
    assert {len(rt.registry.in_namespace(ns)) for ns in ("everything", "fs", "memory")} == {
        len(listed["everything"]),
        len(listed["fs"]),
        len(listed["memory"]),
    }
    catalog = rt.describe("compact")
    # enums, nested objects and item types, as the servers declare them
    assert "everything.get-annotated-message(messageType: 'error' | 'success' | 'debug'" in catalog
    assert (
        "memory.create_entities(entities: ({name: string, entityType: string, "
        "observations: string[]})[])" in catalog
    )
    assert "fs.edit_file(path: string, edits: ({oldText: string, newText: string})[]" in catalog
    # a tool name that is not a JavaScript name is called in Plan up to case and hyphens
    out = rt.run("return everything.get_sum({a: 1, b: '2'});", lang="plan")
    assert out.value == {"a": 1, "b": 2}
    assert any("everything.get-sum" in w for w in out.warnings)
    assert rt.run({"everything.get-sum": {"a": 1, "b": 2}}).value == {"a": 1, "b": 2}


def test_a_program_runs_against_the_real_memory_server(tmp_path: Path) -> None:
    params = server("server-memory", MEMORY_FILE_PATH=str(tmp_path / "memory.jsonl"))
    program = """
    const made = memory.create_entities({entities: [
      {name: 'Ada', entityType: 'person', observations: 'wrote the first program'}]});
    const linked = create_relations({relations: [{from: 'Ada', to: 'Ada', relationType: 'is'}]});
    return {made: made.entities.map(e => e.name), graph: memory.read_graph({}), linked};
    """
    bad = {"memory.create_entities": {"entities": [{"name": "Bo", "entityType": "person"}]}}

    async def main() -> tuple[Any, Any, Any]:
        async with Client(params) as client:
            rt = Runtime(plugins=[], load_entry_points=False)
            for tool in (await client.list_tools()).tools:
                rt.register(from_mcp_tool(tool, caller(client, tool.name), namespace="memory"))
            refused = await rt.run_async(bad)
            done = await rt.run_async(program, lang="plan")
            graph = await client.call_tool("read_graph", {})
            return refused, done, graph.structured_content

    refused, done, graph = anyio.run(main)
    assert refused.status == "failure"
    assert "`entities[0]` lacks the required field `observations`" in refused.error.message
    assert done.status == "success", done.to_json()
    assert done.value["made"] == ["Ada"]
    # the observation was one text: coerced to the one-element array the schema declares
    assert done.value["graph"]["entities"][0]["observations"] == ["wrote the first program"]
    assert [e["name"] for e in graph["entities"]] == ["Ada"]  # Bo never reached the server
