"""The Llama JSON tool call ``{"name", "parameters"}`` (under SPEC 9's detection rule) and
LLMCompiler plans whose calls span lines (issue 12)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest

import dialectic.run.prepared
import dialectic.testing
from dialectic import FunctionDescription, Runtime
from dialectic.frontends import compile as compile_tree
from dialectic.frontends import to_tree
from dialectic.frontends.base import SourceError
from dialectic.frontends.envelopes import EnvelopeError, classify, read_envelope


@pytest.fixture(scope="module")
def runtime() -> Runtime:
    rt = Runtime(plugins=[dialectic.testing])
    rt.register(
        FunctionDescription(
            "name", "a function called `name`", lambda x: f"name:{x}", {"x": "string"}, "string"
        )
    )
    return rt


@pytest.fixture
def rt(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> Iterator[Runtime]:
    """The runtime, passing its registered names to the front end (as ``Prepared`` does)."""
    real = dialectic.frontends.to_tree

    def with_functions(program: Any, lang: str | None = None, **kw: Any) -> Any:
        kw.setdefault("functions", runtime.registry.functions)
        return real(program, lang, **kw)

    monkeypatch.setattr(dialectic.run.prepared, "to_tree", with_functions)
    runtime._cache.clear()
    yield runtime
    runtime._cache.clear()


def dump(value: Any) -> str:
    return orjson.dumps(value).decode()


# -- Llama --------------------------------------------------------------------------------------


@pytest.mark.parametrize("parameters", [{"a": 1, "b": 2}, '{"a": 1, "b": 2}'])
@pytest.mark.parametrize("as_text", [False, True])
def test_llama_tool_call_runs_the_call(rt: Runtime, parameters: Any, as_text: bool) -> None:
    program = {"name": "add", "parameters": parameters}
    out = rt.run(dump(program) if as_text else program)
    assert (out.status, out.value) == ("success", 3), out.message
    assert out.warnings == ['read as a Llama JSON tool call {"name", "parameters"}: the call `add`']
    assert classify(program) == "llama_function"


def test_a_function_called_name_both_ways(rt: Runtime) -> None:
    # Dialect JSON: the one-key call of the registered function `name`
    assert rt.run({"name": {"x": "parameters"}}).value == "name:parameters"
    assert rt.run({"name": "parameters"}).value == "name:parameters"
    # the Llama envelope naming the function `name`
    out = rt.run({"name": "name", "parameters": {"x": "hi"}})
    assert (out.status, out.value) == ("success", "name:hi")
    assert "Llama" in out.warnings[0]


def test_parallel_llama_calls(rt: Runtime) -> None:
    out = rt.run(
        [
            {"name": "add", "parameters": {"a": 1, "b": 2}},
            {"name": "double", "parameters": {"n": 4}},
        ]
    )
    assert (out.status, out.value) == ("success", [3, 8])
    assert "2 parallel calls" in out.warnings[0]


def test_unregistered_name_is_neither_call_nor_data(rt: Runtime) -> None:
    out = rt.run({"name": "ad", "parameters": {"a": 1, "b": 2}})
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "invalid_program"
    assert "could be read two ways" in out.error.message
    readings = out.error.details["readings"]
    assert readings[0]["program"] == {"$quote": {"name": "ad", "parameters": {"a": 1, "b": 2}}}
    assert {
        "description": "a call of `add`",
        "program": {"name": "add", "parameters": {"a": 1, "b": 2}},
    } in readings
    # each reading, sent back, is what it says
    assert rt.run(readings[0]["program"]).value == {"name": "ad", "parameters": {"a": 1, "b": 2}}
    assert rt.run(readings[1]["program"]).value == 3


def test_without_a_registry_only_a_function_shaped_name_is_a_call() -> None:
    assert compile_tree({"name": "add", "parameters": {"a": 1}}) == {"add": [{"$object": {"a": 1}}]}
    data = {"name": "Ada Lovelace", "parameters": {"born": 1815}}
    assert read_envelope(data) is None  # data, as Dialect JSON reads it


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ({"name": "add", "parameters": {"a": 1}, "extra": 1}, "the keys `extra` are not in it"),
        ({"name": "add", "parameters": [1, 2]}, "its `parameters` is an array"),
        ({"name": "add", "parameters": "{oops"}, "`parameters` is a JSON string that does not"),
        ({"name": "add", "parameters": "[1]"}, "`parameters` must be a JSON object"),
    ],
)
def test_malformed_llama_calls_fail_clearly(rt: Runtime, program: Any, message: str) -> None:
    out = rt.run(program)
    assert out.status == "failure" and out.error is not None
    assert message in out.error.message
    with pytest.raises(EnvelopeError):
        read_envelope(program, functions=["add"])


@pytest.mark.parametrize(
    "program",
    [
        {"$quote": {"name": "add", "parameters": {"a": 1, "b": 2}}},
        {"echo": {"value": {"$quote": {"name": "add", "parameters": {"a": 1, "b": 2}}}}},
        {"$let": {"x": {"$quote": {"name": "add", "parameters": {}}}}, "$return": {"$ref": "x"}},
    ],
)
def test_nested_llama_shapes_are_data(rt: Runtime, program: Any) -> None:
    out = rt.run(program)
    assert out.status == "success" and out.warnings == []
    assert isinstance(out.value, dict) and "parameters" in out.value


# -- LLMCompiler: calls over several lines -------------------------------------------------------

MULTILINE = """Thought: one call's arguments take several lines.
1. echo(value={
     "origin": "SFO",  # a comment, with a ) in it
     "legs": [1,
              2],
     "note": "a ) and a ( in a string",
   })
2. concat(
     a="from ",
     b="$1",
   )
3. join()<END_OF_PLAN>
"""


def test_llmcompiler_call_over_several_lines(rt: Runtime) -> None:
    tree = compile_tree(MULTILINE)
    assert tree["$let"]["step_1"] == {
        "echo": [
            {
                "$object": {
                    "value": {
                        "$object": {
                            "origin": "SFO",
                            "legs": [1, 2],
                            "note": "a ) and a ( in a string",
                        }
                    }
                }
            }
        ]
    }
    assert tree["$let"]["step_2"] == {
        "concat": [{"$object": {"a": "from ", "b": {"$ref": "step_1"}}}]
    }
    out = rt.run("1. add(\n  a=1,\n  b=2)\n2. double(n=$1)\n3. join()")
    assert (out.status, out.value) == ("success", 6)


@pytest.mark.parametrize(
    ("plan", "where", "message"),
    [
        ('1. echo(value={\n  "a": x,\n})', (2, 8), "`x` is not a value"),
        ("1. add(\n  a=1,\n  b=$3)", (3, 5), "refers to call 3"),
        ('1. concat(\n  from="a",\n  b=zz)', (3, 5), "`zz` is not a value"),
        ("1. add(a=1,\n  b=2) extra\n2. join()", (2, 8), "unexpected text after the call"),
        ("1. add(a=[1,\n  2)\n", (2, 4), "')' does not match opening parenthesis '['"),
        ('1. echo(value="abc)\n2. join()', (1, 15), "the arguments are not a Python-style"),
        ("1. add(1, 2)\n2. echo(value=[1,\n  2\n", (2, 8), "the `(` of call 2 is never closed"),
    ],
)
def test_multiline_errors_are_located(
    rt: Runtime, plan: str, where: tuple[int, int], message: str
) -> None:
    with pytest.raises(SourceError) as info:
        to_tree(plan)
    first = info.value.problems[0]
    assert message in first.message
    assert (first.line, first.column) == where
    out = rt.run(plan)
    assert out.status == "failure" and out.error is not None and out.error.code == "syntax_error"


@pytest.mark.parametrize(
    "plan",
    [
        "1. echo(value=" + '"""' + "a" * 200_000,
        "1. echo(value=" + "'" * 100_001,
        "1. echo(value=" + "[" * 100_000,
        "1. echo(\n" + "x,\n" * 50_000,
        "\n".join(f'{i}. echo(value="{")" * 50}")' for i in range(1, 3000)),
    ],
)
def test_hostile_plans_fail_or_run_in_linear_time(plan: str) -> None:
    try:
        to_tree(plan)
    except SourceError as exc:
        assert exc.problems
