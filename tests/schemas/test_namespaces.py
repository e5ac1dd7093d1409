"""Namespaces (SPEC 2.2): dotted names in all three notations, bare names, ambiguity,
suggestions across namespaces, clashes with aliases, plugins with a namespace of their own."""

from __future__ import annotations

import types
from typing import Any

import pytest

from dialectic import FunctionDescription, Runtime, hookimpl
from dialectic.outcome.errors import PluginError
from dialectic.registry.importers import from_mcp_tool
from dialectic.registry.registry import Registry
from dialectic.tools.convert import from_tree


def tool(
    name: str, props: dict[str, Any], required: list[str], read: bool = False
) -> dict[str, Any]:
    return {
        "name": name,
        "description": f"The {name} tool",
        "inputSchema": {"type": "object", "properties": props, "required": required},
        "annotations": {"readOnlyHint": read},
    }


def impl(server: str, name: str) -> Any:
    def call(**kwargs: Any) -> dict[str, Any]:
        return {"server": server, "tool": name, "args": kwargs}

    return call


@pytest.fixture(scope="module")
def rt() -> Runtime:
    runtime = Runtime(plugins=[], load_entry_points=False)
    specs = {
        "memory": [
            tool("create_entities", {"entities": {"type": "array"}}, ["entities"]),
            tool("read_graph", {}, [], read=True),
            tool("search", {"query": {"type": "string"}}, ["query"], read=True),
            tool(
                "open_nodes", {"names": {"type": "array", "items": {"type": "string"}}}, ["names"]
            ),
        ],
        "files": [
            tool("read_file", {"path": {"type": "string"}}, ["path"], read=True),
            tool("search", {"pattern": {"type": "string"}}, ["pattern"], read=True),
            tool("open_nodes", {"names": {"type": "array"}}, ["names"]),
        ],
    }
    for server, tools in specs.items():
        for t in tools:
            runtime.register(from_mcp_tool(t, impl(server, t["name"]), namespace=server))
    return runtime


def value(rt: Runtime, program: Any, lang: str | None = None, **context: Any) -> Any:
    out = rt.run(program, lang=lang, context=context or None)
    assert out.status == "success", out.to_json()
    return out.value


def failure(rt: Runtime, program: Any, lang: str | None = None, **context: Any) -> Any:
    out = rt.run(program, lang=lang, context=context or None)
    assert out.status == "failure", out.to_json()
    assert out.error is not None
    return out.error


def test_registry_knows_its_namespaces(rt: Runtime) -> None:
    reg = rt.registry
    assert reg.namespaces() == ["files", "memory"]
    assert [f.name for f in reg.in_namespace("files")] == [
        "files.open_nodes",
        "files.read_file",
        "files.search",
    ]
    assert reg.bare_names()["search"] == ["files.search", "memory.search"]
    assert reg.functions["memory.read_graph"].namespace == "memory"


EXPECTED = {"server": "memory", "tool": "create_entities", "args": {"entities": [1]}}


@pytest.mark.parametrize(
    ("program", "lang"),
    [
        ({"memory.create_entities": {"entities": [1]}}, None),
        ('{"memory.create_entities": {"entities": [1]}}', "json"),
        ("return memory.create_entities({entities: [1]});", "plan"),
        ("const r = await memory.create_entities({entities: [1]});\nreturn r;", "plan"),
        ("result:\n  memory.create_entities:\n    entities: [1]\n", "plan2"),
        ("r:\n  memory.create_entities:\n    entities: [1]\nresult: ${r}\n", "plan2"),
        ("return create_entities({entities: [1]});", "plan"),  # bare: one namespace has it
        ({"create_entities": {"entities": [1]}}, None),
    ],
)
def test_dotted_and_bare_calls_in_every_notation(
    rt: Runtime, program: Any, lang: str | None
) -> None:
    assert value(rt, program, lang) == EXPECTED


def test_the_canonical_form_has_the_full_name_and_round_trips(rt: Runtime) -> None:
    prepared = rt.prepare("return create_entities({entities: [1]});", lang="plan")
    canonical = prepared.canonical()
    assert canonical == {"$return": {"memory.create_entities": {"entities": [1]}}}
    assert value(rt, canonical) == EXPECTED
    plan = from_tree(canonical, "plan")
    assert plan.strip() == "return memory.create_entities({entities: [1]});"
    assert value(rt, plan, "plan") == EXPECTED
    plan2 = from_tree(canonical, "plan2")
    assert "memory.create_entities:" in plan2
    assert value(rt, plan2, "plan2") == EXPECTED


def test_a_function_named_like_a_javascript_method(rt: Runtime) -> None:
    assert value(rt, "return memory.search({query: 'x'});", "plan")["server"] == "memory"
    assert value(rt, "return files.search('*.py');", "plan") == {
        "server": "files",
        "tool": "search",
        "args": {"pattern": "*.py"},
    }


def test_a_bare_name_of_two_namespaces_fails_with_the_candidates(rt: Runtime) -> None:
    err = failure(rt, "return open_nodes({names: ['a']});", "plan")
    assert err.code == "ambiguous_function"
    assert "`files.open_nodes` or `memory.open_nodes`" in err.message
    assert err.details["candidates"] == ["files.open_nodes", "memory.open_nodes"]
    assert "files.open_nodes(" in (err.hint or "")
    err = failure(rt, {"openNodes": {"names": ["a"]}})  # also up to case and underscores
    assert err.code == "ambiguous_function"


def test_a_misspelt_bare_name_suggests_namespaced_functions(rt: Runtime) -> None:
    err = failure(rt, {"read_grahp": {}})
    assert err.code == "unknown_function"
    assert "memory.read_graph" in err.details["closest"]


def test_a_wrong_namespace_suggests_the_right_one(rt: Runtime) -> None:
    err = failure(rt, {"files.read_graph": {}})
    assert "memory.read_graph" in err.details["closest"]
    err = failure(rt, "return memory.read_file({path: 'x'});", "plan")
    assert err.code == "unknown_function"
    assert "files.read_file" in err.details["closest"]


def test_case_and_underscores_are_forgiven_with_a_warning(rt: Runtime) -> None:
    out = rt.run("return memory.readGraph({});", lang="plan")
    assert out.status == "success"
    assert any("memory.read_graph" in w for w in out.warnings)


def test_a_vendor_tool_name_reaches_the_function(rt: Runtime) -> None:
    # OpenAI and Anthropic tool names have no dots: describe writes memory__read_graph
    assert value(rt, {"memory__read_graph": {}})["tool"] == "read_graph"


def test_an_alias_named_like_a_namespace_is_a_clash_when_called_as_one(rt: Runtime) -> None:
    err = failure(rt, "memory = [1];\nreturn memory.create_entities({entities: []});", "plan")
    assert err.code == "name_clash"
    assert "Rename the alias `memory`" in (err.hint or "")


def test_an_alias_named_like_a_namespace_keeps_its_meaning_otherwise(rt: Runtime) -> None:
    assert value(rt, "memory = [3, 1, 2];\nreturn memory.slice(1);", "plan") == [1, 2]
    assert value(rt, "return [[1], [2]].map(files => files.length);", "plan") == [1, 1]


def test_the_namespace_shadows_a_context_value_in_a_call(rt: Runtime) -> None:
    out = value(rt, "return memory.read_graph({});", "plan", memory={"read_graph": 1})
    assert out["tool"] == "read_graph"
    # reading a member of it is still the context value
    assert value(rt, "return memory.size;", "plan", memory={"size": 3}) == 3


def test_a_function_description_gets_its_namespace_prefix() -> None:
    reg = Registry()
    fn = FunctionDescription("get", "", lambda key: key, {"key": "string"}, namespace="kv")
    reg.add(fn)
    assert fn.name == "kv.get" and "kv.get" in reg.functions
    dotted = FunctionDescription("kv.put", "", lambda key: key, {"key": "string"})
    reg.add(dotted)
    assert dotted.namespace == "kv"
    assert reg.namespaces() == ["kv"]


@pytest.mark.parametrize("namespace", ["", "a.b", "$x"])
def test_an_invalid_namespace_is_refused(namespace: str) -> None:
    with pytest.raises(PluginError, match="invalid namespace"):
        Registry().add(FunctionDescription("f", "", lambda: 1, namespace=namespace))


def test_the_same_full_name_twice_is_a_conflict() -> None:
    reg = Registry()
    reg.add(FunctionDescription("f", "", lambda: 1, namespace="a"))
    with pytest.raises(PluginError, match="registered twice"):
        reg.add(FunctionDescription("a.f", "", lambda: 2), "plugin 'other'")


def test_a_plain_function_wins_over_a_bare_name() -> None:
    rt = Runtime(plugins=[], load_entry_points=False)
    rt.register(FunctionDescription("ping", "", lambda: "plain"))
    rt.register(FunctionDescription("ping", "", lambda: "spaced", namespace="net"))
    assert rt.run({"ping": {}}).value == "plain"
    assert rt.run("return net.ping();", lang="plan").value == "spaced"


def test_a_plugin_registers_functions_in_its_own_namespace() -> None:
    plugin = types.ModuleType("weather_plugin")

    @hookimpl
    def dialectic_register_functions(register: Any) -> None:
        register(
            FunctionDescription(
                "forecast",
                "",
                lambda city: f"sun in {city}",
                {"city": "string"},
                "string",
                namespace="weather",
            )
        )

    plugin.dialectic_register_functions = dialectic_register_functions  # type: ignore[attr-defined]
    rt = Runtime(plugins=[plugin], load_entry_points=False)
    assert rt.registry.namespaces() == ["weather"]
    assert rt.run("return weather.forecast('Oslo');", lang="plan").value == "sun in Oslo"
    assert rt.run({"forecast": "Rome"}).value == "sun in Rome"
