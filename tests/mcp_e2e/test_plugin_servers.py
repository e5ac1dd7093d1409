"""MCP servers (and OpenAPI services) declared by a plugin (SPEC 2, 15): the plugin's
``dialectic_register_services`` hook names them, the runtime connects them when it is built,
and ``close()``/``aclose()`` end them. With the real npm server ``server-memory``."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from dialectic import Runtime, hookimpl
from dialectic.connectors.services import MCPServers, OpenAPIService
from dialectic.outcome.errors import PluginError

from .conftest import children, ended, node_config, wait_until


class MemoryPlugin:
    """A plugin whose services are the memory server (and a small OpenAPI document)."""

    __name__ = "memory_plugin"

    def __init__(self, memory_file: Path, plain_mapping: bool = False) -> None:
        self.config = {
            "mcpServers": {
                "memory": node_config("server-memory", MEMORY_FILE_PATH=str(memory_file))
            }
        }
        self.plain_mapping = plain_mapping

    @hookimpl
    def dialectic_register_services(self, register: Any) -> None:
        register(self.config if self.plain_mapping else MCPServers(self.config))
        register(OpenAPIService("notes", NOTES, base_url="http://127.0.0.1:9"))


NOTES: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "notes", "version": "1"},
    "paths": {
        "/notes": {"get": {"operationId": "listNotes", "responses": {"200": {"description": "ok"}}}}
    },
}

PROGRAM = """
memory.create_entities({entities: [{name: "Ada", entityType: "person",
                                    observations: ["wrote the first program"]}]});
const graph = memory.read_graph({});
return graph.entities.map(e => e.name);
"""


@pytest.mark.parametrize("plain_mapping", [False, True], ids=["MCPServers", "mapping"])
def test_a_plugins_servers_are_connected_used_and_closed(
    tmp_path: Path, plain_mapping: bool
) -> None:
    before = children()
    rt = Runtime(
        plugins=[MemoryPlugin(tmp_path / "m.jsonl", plain_mapping)],
        load_entry_points=False,
        limits={"deadline": 30},
    )
    try:
        assert "memory.read_graph" in rt.registry.functions
        assert "notes.listNotes" in rt.registry.functions
        started = children() - before
        assert started, "the server process was not started"
        out = rt.run(PROGRAM)
        assert out.status == "success", out
        assert out.value == ["Ada"]
        assert rt.run("return memory.read_graph({}).entities.length;").value == 1  # reused
    finally:
        rt.close()
    assert wait_until(lambda: ended(started)), "close() left the server running"


def test_aclose_ends_a_plugins_servers(tmp_path: Path) -> None:
    before = children()

    async def main() -> Any:
        async with Runtime(
            plugins=[MemoryPlugin(tmp_path / "m.jsonl")], load_entry_points=False
        ) as rt:
            started = children() - before
            out = await rt.run_async("return memory.read_graph({});")
            return started, out

    started, out = asyncio.run(main())
    assert out.status == "success", out
    assert out.value == {"entities": [], "relations": []}
    assert started
    assert wait_until(lambda: ended(started)), "aclose() left the server running"


def test_a_plugins_server_that_fails_names_the_plugin_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    before = children()

    class Broken:
        __name__ = "broken_services"

        @hookimpl
        def dialectic_register_services(self, register: Any) -> None:
            register(
                MCPServers(
                    {
                        "mcpServers": {
                            "memory": node_config(
                                "server-memory", MEMORY_FILE_PATH=str(tmp_path / "m.jsonl")
                            ),
                            "gone": {"command": sys.executable, "args": ["-c", "pass"]},
                        }
                    }
                )
            )

    with pytest.raises(PluginError, match=r"broken_services.*MCP servers") as info:
        Runtime(plugins=[Broken()], load_entry_points=False)
    assert "gone" in str(info.value)
    assert wait_until(lambda: ended(children() - before)), "a server was left running"


def test_anything_else_registered_as_a_service_is_refused() -> None:
    class Wrong:
        __name__ = "wrong_services"

        @hookimpl
        def dialectic_register_services(self, register: Any) -> None:
            register({"servers": {}})

    with pytest.raises(PluginError, match=r"wrong_services.*MCPServers"):
        Runtime(plugins=[Wrong()], load_entry_points=False)
