"""Importers (SPEC 3.1): OpenAI and Anthropic tool specs, MCP tools (dicts and the SDK's
model, with their annotations), and every BFCL function document of the shared corpus."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import mcp.types
import pytest

from dialectic import FunctionDescription, Runtime
from dialectic.outcome.errors import PluginError
from dialectic.registry.importers import (
    bfcl_schema,
    effects_from_mcp_annotations,
    from_anthropic_tool,
    from_bfcl,
    from_mcp_tool,
    from_openai_tool,
)
from dialectic.registry.registry import Registry

BFCL = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora" / "bfcl"

WEATHER_PARAMS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "location": {"type": "string", "description": "City and country"},
        "units": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    },
    "required": ["location"],
    "additionalProperties": False,
}


def echo(**kwargs: Any) -> dict[str, Any]:
    return kwargs


def runtime(*fns: FunctionDescription) -> Runtime:
    rt = Runtime(plugins=[], load_entry_points=False)
    rt.register(*fns)
    return rt


def test_openai_chat_completions_tool() -> None:
    spec = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the  weather",
            "parameters": WEATHER_PARAMS,
            "strict": True,
        },
    }
    fn = from_openai_tool(spec, echo)
    assert (fn.name, fn.description, fn.namespace) == ("get_weather", "Get the weather", None)
    rt = runtime(fn)
    assert rt.run({"get_weather": {"location": "Oslo"}}).value == {"location": "Oslo"}
    out = rt.run({"get_weather": {"location": "Oslo", "units": "kelvin"}})
    assert 'not one of "celsius", "fahrenheit"' in out.error.message  # type: ignore[union-attr]


def test_openai_responses_tool_in_a_namespace() -> None:
    spec = {"type": "function", "name": "get_weather", "parameters": WEATHER_PARAMS}
    fn = from_openai_tool(spec, echo, namespace="wx")
    assert (fn.name, fn.namespace) == ("wx.get_weather", "wx")
    assert runtime(fn).run("return wx.get_weather({location: 'Rome'});", lang="plan").value == {
        "location": "Rome"
    }


def test_openai_tool_without_parameters_takes_none() -> None:
    fn = from_openai_tool({"type": "function", "function": {"name": "now"}}, lambda: "t")
    assert runtime(fn).run({"now": {}}).value == "t"


def test_openai_non_function_tool_is_refused() -> None:
    with pytest.raises(PluginError, match="not a function tool"):
        from_openai_tool({"type": "web_search"}, echo)


def test_anthropic_tool() -> None:
    spec = {"name": "get_weather", "description": "Weather", "input_schema": WEATHER_PARAMS}
    fn = from_anthropic_tool(spec, echo, namespace="wx")
    assert fn.name == "wx.get_weather"
    assert runtime(fn).run({"get_weather": {"location": "Oslo", "units": "celsius"}}).value == {
        "location": "Oslo",
        "units": "celsius",
    }
    with pytest.raises(PluginError, match="no `input_schema`"):
        from_anthropic_tool({"name": "x"}, echo)


MEMORY_TOOL: dict[str, Any] = {
    "name": "create_entities",
    "description": "Create multiple new entities in the knowledge graph",
    "inputSchema": {
        "type": "object",
        "properties": {
            "entities": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "entityType": {"type": "string"},
                        "observations": {"type": "array", "items": {"type": "string"}},
                    },
                    "required": ["name", "entityType", "observations"],
                },
            }
        },
        "required": ["entities"],
    },
    "outputSchema": {
        "type": "object",
        "properties": {"entities": {"type": "array"}},
        "required": ["entities"],
    },
    "annotations": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True},
}


def test_mcp_tool_dict() -> None:
    fn = from_mcp_tool(MEMORY_TOOL, echo, namespace="memory")
    assert (fn.name, fn.namespace, fn.returns) == ("memory.create_entities", "memory", "object")
    rt = runtime(fn)
    program = {"memory.create_entities": {"entities": [{"name": "Ada", "entityType": "person"}]}}
    out = rt.run(program)
    assert "`entities[0]` lacks the required field `observations`" in out.error.message  # type: ignore[union-attr]


def test_mcp_tool_model_of_the_sdk() -> None:
    tool = mcp.types.Tool.model_validate(MEMORY_TOOL)
    fn = from_mcp_tool(tool, echo, namespace="memory")
    assert fn.name == "memory.create_entities"
    value = runtime(fn).run(
        "return memory.create_entities({entities: [{name: 'A', entityType: 'p', "
        "observations: 'likes tea'}]});",
        lang="plan",
    )
    assert value.value == {
        "entities": [{"name": "A", "entityType": "p", "observations": ["likes tea"]}]
    }


def test_mcp_tool_without_description_uses_its_title() -> None:
    fn = from_mcp_tool(
        {"name": "t", "title": "The T tool", "inputSchema": {"type": "object"}},
        echo,
        namespace="s",
    )
    assert fn.description == "The T tool"


@pytest.mark.parametrize(
    ("annotations", "expected"),
    [
        (None, {"effects": "destructive", "idempotent": False}),
        ({}, {"effects": "destructive", "idempotent": False}),
        ({"readOnlyHint": True}, {"effects": "read", "idempotent": True}),
        (
            {"readOnlyHint": False, "destructiveHint": False},
            {"effects": "write", "idempotent": False},
        ),
        (
            {"destructiveHint": False, "idempotentHint": True},
            {"effects": "write", "idempotent": True},
        ),
        (
            {"destructiveHint": True, "idempotentHint": True},
            {"effects": "destructive", "idempotent": True},
        ),
    ],
)
def test_effects_from_mcp_annotations(
    annotations: dict[str, Any] | None, expected: dict[str, Any]
) -> None:
    assert effects_from_mcp_annotations(annotations) == expected


def test_effects_from_the_sdk_annotations_model() -> None:
    ann = mcp.types.ToolAnnotations(read_only_hint=True)
    assert effects_from_mcp_annotations(ann)["effects"] == "read"


def test_mcp_annotations_reach_the_description_when_it_has_effects() -> None:
    fn = from_mcp_tool(MEMORY_TOOL, echo, namespace="memory")
    fields = {f.name for f in dataclasses.fields(FunctionDescription)}
    if "effects" not in fields:
        pytest.skip("FunctionDescription has no effects yet")
    assert vars(fn)["effects"] == "write"
    if "idempotent" in fields:
        assert vars(fn)["idempotent"] is True


def test_mcp_tool_needs_an_input_schema_and_a_name() -> None:
    with pytest.raises(PluginError, match="no `inputSchema`"):
        from_mcp_tool({"name": "x"}, echo, namespace="s")
    with pytest.raises(PluginError, match="has no name"):
        from_mcp_tool({"inputSchema": {"type": "object"}}, echo, namespace="s")
    with pytest.raises(PluginError, match=r"'s\.bad'.*must describe an object"):
        from_mcp_tool({"name": "bad", "inputSchema": {"type": "array"}}, echo, namespace="s")


def test_bfcl_types_become_json_schema() -> None:
    doc = {
        "type": "dict",
        "properties": {
            "x": {"type": "float"},
            "pair": {"type": "tuple", "items": {"type": "integer"}},
            "anything": {"type": "any"},
            "opts": {
                "type": "dict",
                "properties": {"deep": {"type": "boolean", "optional": True}},
                "required": ["deep"],
            },
            "maybe": {"type": "string", "optional": True},
        },
        "required": ["x", "maybe"],
    }
    assert bfcl_schema(doc) == {
        "type": "object",
        "properties": {
            "x": {"type": "number"},
            "pair": {"type": "array", "items": {"type": "integer"}},
            "anything": {},
            "opts": {"type": "object", "properties": {"deep": {"type": "boolean"}}, "required": []},
            "maybe": {"type": "string"},
        },
        "required": ["x"],
    }


def test_a_bfcl_function_runs_with_coerced_arguments() -> None:
    doc = {
        "name": "math.hypot",
        "description": "Euclidean norm",
        "parameters": {
            "type": "dict",
            "properties": {"x": {"type": "integer"}, "y": {"type": "float"}},
            "required": ["x", "y"],
        },
    }
    fn = from_bfcl(doc, lambda x, y: (x * x + y * y) ** 0.5)
    assert (fn.name, fn.namespace) == ("math.hypot", "math")
    rt = runtime(fn)
    assert rt.run("return math.hypot({x: '3', y: 4});", lang="plan").value == 5.0
    assert rt.run({"hypot": {"x": 3, "y": "4"}}).value == 5.0


def _bfcl_documents() -> list[tuple[str, dict[str, Any]]]:
    files = sorted(BFCL.glob("BFCL_v4_*.json")) + sorted(BFCL.glob("multi_turn_func_doc/*.json"))
    docs: list[tuple[str, dict[str, Any]]] = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            for doc in record.get("function", [record]):
                docs.append((path.name, doc))
    return docs


def test_every_bfcl_function_document_imports() -> None:
    if not BFCL.is_dir():
        pytest.skip(f"the BFCL corpus is not at {BFCL}")
    docs = _bfcl_documents()
    failures = []
    names: set[str] = set()
    for source, doc in docs:
        try:
            fn = from_bfcl(doc, echo)
            reg = Registry()
            reg.add(fn)
            params = reg.params(fn)
        except PluginError as exc:
            failures.append(f"{source}: {doc.get('name')}: {exc}")
            continue
        assert {p.name for p in params} >= set(doc["parameters"].get("required", ())) - {
            n for n, s in doc["parameters"].get("properties", {}).items() if s.get("optional")
        }
        names.add(fn.name)
    assert failures == []
    # 8 categories (400 + 200 x 3 + 258 + 1,053 + 16 + 24 records, several functions each)
    # and the 12 multi-turn APIs
    assert len(docs) == 6388
    assert len(names) > 1000


def _gold(value: Any) -> Any:
    """A BFCL ground-truth argument: each parameter maps to its acceptable values (``""``:
    may be omitted), also inside nested objects; the first acceptable one is taken."""
    if isinstance(value, dict):
        return {
            k: _first(v) if isinstance(v, list) else _gold(v)
            for k, v in value.items()
            if not (isinstance(v, list) and all(o == "" for o in v))
        }
    if isinstance(value, list):
        return [_gold(v) for v in value]
    return value


def _first(options: list[Any]) -> Any:
    return _gold(next(o for o in options if o != ""))


@pytest.mark.parametrize("category", ["simple_python", "multiple"])
def test_bfcl_gold_answers_pass_the_imported_schemas(category: str) -> None:
    """Real data: every gold call of two BFCL categories runs against its imported function
    documents (validated and coerced along their schemas) and succeeds."""
    questions = BFCL / f"BFCL_v4_{category}.json"
    if not questions.is_file():
        pytest.skip(f"the BFCL corpus is not at {BFCL}")
    answers = {
        a["id"]: a["ground_truth"]
        for a in map(json.loads, (BFCL / "possible_answer" / questions.name).open())
    }
    ran = 0
    for line in questions.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        rt = runtime(*(from_bfcl(doc, echo) for doc in record["function"]))
        for call in answers[record["id"]]:
            ((name, args),) = call.items()
            given = {k: _first(v) for k, v in args.items() if any(o != "" for o in v)}
            out = rt.run({name: {k: {"$quote": v} for k, v in given.items()}})
            assert out.status == "success", (record["id"], out.to_json())
            assert set(out.value) == set(given)
            ran += 1
    assert ran >= 400 if category == "simple_python" else ran >= 200
