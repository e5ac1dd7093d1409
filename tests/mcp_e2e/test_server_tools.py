"""The tools of ``dialectic mcp`` called in process (no transport): arguments a model may get
wrong are an ``isError`` answer saying what to send, never an exception."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from mcp_types import CallToolRequestParams, CallToolResult, TextContent

from dialectic import FunctionDescription, Runtime
from dialectic.tools.mcp_server import DialecticMCP


@pytest.fixture(scope="module")
def server() -> DialecticMCP:
    rt = Runtime(load_entry_points=False)
    rt.register(
        FunctionDescription(
            "weather.today",
            "Today's weather in a city",
            lambda city: {"city": city},
            {"city": "string"},
        )
    )
    return DialecticMCP(rt)


def call(server: DialecticMCP, name: str, arguments: dict[str, Any] | None) -> CallToolResult:
    params = CallToolRequestParams(name=name, arguments=arguments)
    ctx: Any = None  # the handlers do not read the request context
    result: CallToolResult = anyio.run(server._call_tool, ctx, params)
    return result


def text(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


def test_run_program_outcomes(server: DialecticMCP) -> None:
    ok = call(
        server,
        "run_program",
        {"program": "return today({city: c}).city;", "context": {"c": "Oslo"}},
    )
    assert not ok.is_error and ok.structured_content == {
        "status": "success",
        "value": "Oslo",
        "mode": "return",
    }
    assert text(ok) == "Oslo"
    as_json = call(
        server,
        "run_program",
        {"program": '{"weather.today": {"city": "Rome"}}', "notation": "json"},
    )
    assert as_json.structured_content is not None and as_json.structured_content["value"] == {
        "city": "Rome"
    }
    assert text(as_json) == '{"city":"Rome"}'
    big = call(server, "run_program", {"program": "return [x];", "context": {"x": 2**70}})
    assert not big.is_error and big.structured_content is not None
    assert json.loads(text(big)) == big.structured_content["value"]


@pytest.mark.parametrize(
    ("name", "arguments", "says"),
    [
        ("run_program", {"program": "return 1;", "notation": "python"}, "unknown notation"),
        ("run_program", {}, "'program' must be text; it is missing"),
        ("run_program", None, "'program' must be text"),
        ("run_program", {"program": ["return 1;"]}, "got list"),
        ("run_program", {"program": "return x;", "context": [1]}, "'context' must be an object"),
        ("run_program", {"program": "return nosuch({});"}, "unknown function `nosuch`"),
        ("check_program", {"program": "return (;"}, "line 1"),
        ("search_functions", {"limit": 0}, "'limit' must be a positive integer"),
        ("search_functions", {"query": 7}, "'query' must be text"),
        ("no_such_tool", {}, "the tools are run_program, search_functions, check_program"),
    ],
)
def test_mistakes_are_is_error_answers(
    server: DialecticMCP, name: str, arguments: dict[str, Any] | None, says: str
) -> None:
    result = call(server, name, arguments)
    assert result.is_error
    assert says in text(result)
    assert (
        result.structured_content is not None and result.structured_content["status"] == "failure"
    )


def test_search_and_check(server: DialecticMCP) -> None:
    found = call(server, "search_functions", {"query": "weather"})
    assert not found.is_error and "weather.today(city: string)" in text(found)
    listed = call(server, "search_functions", {})
    assert listed.structured_content is not None
    assert listed.structured_content["namespaces"] == {"weather": 1}
    checked = call(server, "check_program", {"program": "return today({city: 'Oslo'});"})
    assert checked.structured_content == {
        "status": "ok",
        "canonical": {"$return": {"weather.today": {"city": "Oslo"}}},
        "warnings": [],
    }
