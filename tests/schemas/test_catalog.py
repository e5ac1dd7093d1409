"""The catalog of functions declared by JSON Schema and in namespaces (SPEC 2.1, 2.2, 3.1):
grouped by namespace, schemas shown faithfully, passed through in the tool formats, and
searched with ``search_functions``."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest

from dialectic import FunctionDescription, Runtime
from dialectic.registry.importers import from_mcp_tool
from dialectic.tools.catalog import search_functions
from dialectic.tools.schema import tool_call_program

CREATE: dict[str, Any] = {
    "name": "create_entities",
    "description": "Create multiple new entities in the knowledge graph",
    "inputSchema": {
        "type": "object",
        "properties": {
            "entities": {
                "type": "array",
                "description": "The entities to create",
                "items": {"$ref": "#/$defs/Entity"},
            }
        },
        "required": ["entities"],
        "$defs": {
            "Entity": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "kind": {"enum": ["person", "place"]},
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["name"],
            }
        },
    },
}
SEARCH: dict[str, Any] = {
    "name": "search_nodes",
    "description": "Search for nodes in the knowledge graph by a query",
    "inputSchema": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Words to look for"},
            "mode": {"enum": ["fast", "deep"], "default": "fast", "description": "How hard"},
            "limit": {"type": ["integer", "null"]},
            "since": {"type": "string", "format": "date"},
        },
        "required": ["query"],
    },
}
READ: dict[str, Any] = {
    "name": "read_file",
    "description": "Read a text file",
    "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
}


@pytest.fixture(scope="module")
def rt() -> Runtime:
    runtime = Runtime(plugins=[], load_entry_points=False)
    runtime.register(
        from_mcp_tool(CREATE, lambda **kw: kw, namespace="memory"),
        from_mcp_tool(SEARCH, lambda **kw: kw, namespace="memory"),
        from_mcp_tool(READ, lambda **kw: kw, namespace="files"),
        FunctionDescription("greet", "Greet someone", lambda name: name, {"name": "string"}),
    )
    return runtime


def test_markdown_groups_functions_by_namespace(rt: Runtime) -> None:
    text = rt.describe("markdown")
    functions = text[text.index("## Functions") :]
    plain = functions.index("`greet(name: string) -> any`")
    files = functions.index("### Namespace `files` (1 function;")
    memory = functions.index("### Namespace `memory` (2 functions;")
    assert plain < files < memory < functions.index("memory.search_nodes(")


def test_markdown_shows_schemas_faithfully(rt: Runtime) -> None:
    text = rt.describe("markdown")
    assert (
        "`memory.create_entities(entities: ({name: string, kind?: 'person' | 'place', "
        "tags?: string[]})[]) -> any`" in text
    )
    assert (
        "`memory.search_nodes(query: string, mode?: 'fast' | 'deep', limit?: integer | null, "
        "since?: string (ISO date)) -> any`" in text
    )
    assert "  - `mode`: How hard (default: 'fast')" in text
    assert "  - `entities`: The entities to create" in text


def test_compact_catalog_groups_and_shows_schemas(rt: Runtime) -> None:
    text = rt.describe("compact")
    assert "Namespace `memory` (2 functions;" in text
    assert "- memory.search_nodes(query: string, mode?: 'fast' | 'deep'," in text
    assert text.index("Namespace `files`") < text.index("- files.read_file(path?: string)")


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "mcp"])
def test_tool_formats_pass_the_input_schema_through(rt: Runtime, fmt: str) -> None:
    tools = rt.describe(fmt, per_function=True)
    by_name = {}
    for t in tools:
        spec = t["function"] if fmt == "openai" else t
        key = (
            "parameters"
            if fmt == "openai"
            else "input_schema"
            if fmt == "anthropic"
            else "inputSchema"
        )
        by_name[spec["name"]] = spec[key]
    name = "memory.search_nodes" if fmt == "mcp" else "memory__search_nodes"
    assert by_name[name] == SEARCH["inputSchema"]
    create = "memory.create_entities" if fmt == "mcp" else "memory__create_entities"
    assert by_name[create] == CREATE["inputSchema"]  # $defs and $ref as declared


def test_a_vendor_tool_call_runs_the_namespaced_function(rt: Runtime) -> None:
    [tool] = [
        t
        for t in rt.describe("openai", per_function=True)
        if "search_nodes" in t["function"]["name"]
    ]
    program = tool_call_program(tool["function"]["name"], {"query": "tea", "mode": "deep"})
    assert rt.run(program).value == {"query": "tea", "mode": "deep"}


def test_the_program_schema_accepts_dotted_and_bare_calls(rt: Runtime) -> None:
    schema = rt.describe("json-schema")
    validator = jsonschema.Draft202012Validator(schema)
    assert validator.is_valid({"memory.search_nodes": {"query": "x"}})
    assert validator.is_valid({"search_nodes": {"query": "x"}})  # bare, one namespace has it
    assert not validator.is_valid({"memory.search_nodez": {"query": "x"}})


def test_describing_does_not_change_the_declared_schema(rt: Runtime) -> None:
    before = copy.deepcopy(rt.registry.functions["memory.create_entities"].validator.input_schema)  # type: ignore[union-attr]
    rt.describe("mcp", per_function=True)[0]["inputSchema"]["properties"].clear()
    after = rt.registry.functions["memory.create_entities"].validator.input_schema  # type: ignore[union-attr]
    assert after == before


def test_search_ranks_name_matches_first(rt: Runtime) -> None:
    found = search_functions(rt, "search nodes")
    assert found[0]["name"] == "memory.search_nodes"
    entry = found[0]
    assert entry["namespace"] == "memory"
    assert entry["parameters"] == SEARCH["inputSchema"]
    assert entry["signature"].startswith(
        "memory.search_nodes(query: string, mode?: 'fast' | 'deep'"
    )
    assert entry["returns"] == "any"


def test_search_matches_descriptions_and_parameter_names(rt: Runtime) -> None:
    assert [e["name"] for e in search_functions(rt, "knowledge graph")] == [
        "memory.create_entities",
        "memory.search_nodes",
    ]
    assert [e["name"] for e in search_functions(rt, "path")] == ["files.read_file"]
    assert search_functions(rt, "createEntities")[0]["name"] == "memory.create_entities"
    assert search_functions(rt, "zebra") == []


def test_search_by_namespace_and_limit(rt: Runtime) -> None:
    assert [e["name"] for e in search_functions(rt, namespace="memory")] == [
        "memory.create_entities",
        "memory.search_nodes",
    ]
    assert len(search_functions(rt, "", limit=1)) == 1
    everything = [e["name"] for e in search_functions(rt)]
    assert everything == [
        "files.read_file",
        "greet",
        "memory.create_entities",
        "memory.search_nodes",
    ]


def test_search_takes_a_registry_too(rt: Runtime) -> None:
    found = search_functions(rt.registry, "read file")
    assert found[0]["name"] == "files.read_file"
    assert found[0]["parameters"]["properties"] == {"path": {"type": "string"}}


def test_search_leaves_out_the_built_in_library() -> None:
    runtime = Runtime()  # with the built-ins (upper, join, ...)
    assert all(e["name"] not in ("upper", "join", "str") for e in search_functions(runtime, "text"))


def test_tools_sharing_one_implementation_stay_separate_lines() -> None:
    def shared(**kwargs: Any) -> Any:
        return kwargs

    schema = {"type": "object", "properties": {"path": {"type": "string"}}}
    runtime = Runtime(plugins=[], load_entry_points=False)
    for name in ("read_file", "read_text_file"):
        runtime.register(
            from_mcp_tool(
                {"name": name, "description": f"{name}.", "inputSchema": schema},
                shared,
                namespace="fs",
            )
        )
    text = runtime.describe("compact")
    assert "- fs.read_file(path?: string) -> any" in text
    assert "- fs.read_text_file(path?: string) -> any" in text
    assert "(also" not in text


def test_the_mcp_tool_spec_carries_a_declared_output_schema() -> None:
    output = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    tool = {"name": "count", "inputSchema": {"type": "object"}, "outputSchema": output}
    runtime = Runtime(plugins=[], load_entry_points=False)
    runtime.register(from_mcp_tool(tool, lambda: {"n": 1}, namespace="c"))
    [spec] = runtime.describe("mcp", per_function=True)
    assert spec["name"] == "c.count" and spec["outputSchema"] == output
    [openai] = runtime.describe("openai", per_function=True)
    assert "outputSchema" not in openai
