"""Envelopes: the shapes models answer in (OpenAI and Anthropic tool calls, TypeChat, NESTFUL,
LLMCompiler) run as the calls they stand for; Dialect JSON is never taken for one (SPEC 9,
"Envelopes and repairs").

The vendor shapes are written out as the vendors document them (OpenAI chat completions and
Responses API, Anthropic Messages API); the NESTFUL rows are the real sample in
``shared/corpora/nestful`` (read from there, skipped when absent).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import dialectic.frontends
import dialectic.run.prepared
import dialectic.testing
from dialectic import FunctionDescription, Runtime
from dialectic.frontends import compile as compile_tree
from dialectic.frontends import to_tree
from dialectic.frontends.base import SourceError
from dialectic.frontends.envelopes import EnvelopeError, classify, read_envelope
from dialectic.outcome.errors import DialecticError
from dialectic.tools.cli import main
from dialectic.tools.convert import convert

FLIGHTS = {"origin": "SFO", "destination": "LAX"}
TRAINS = {"from": "San Francisco", "to": "Los Angeles"}


@pytest.fixture(scope="module")
def runtime() -> Runtime:
    rt = Runtime(plugins=[dialectic.testing])  # plus the installed extensions (travel, ...)
    rt.register(
        FunctionDescription(
            "name", "a function called `name`", lambda x: f"name:{x}", {"x": "string"}, "string"
        )
    )
    return rt


def pass_functions(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``runtime`` pass its registered function names to the front end (what ``Prepared``
    does with ``to_tree(..., functions=runtime.registry.functions)``)."""
    real = dialectic.frontends.to_tree

    def to_tree_with_functions(program: Any, lang: str | None = None, **kw: Any) -> Any:
        kw.setdefault("functions", runtime.registry.functions)
        return real(program, lang, **kw)

    monkeypatch.setattr(dialectic.run.prepared, "to_tree", to_tree_with_functions)


@pytest.fixture
def rt(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> Iterator[Runtime]:
    pass_functions(runtime, monkeypatch)
    runtime._cache.clear()
    yield runtime
    runtime._cache.clear()


def value_of(rt: Runtime, program: Any) -> Any:
    out = rt.run(program)
    assert out.status == "success", out.message
    return out.value


def dump(value: Any) -> str:
    return orjson.dumps(value).decode()


# -- OpenAI -------------------------------------------------------------------------------------


@pytest.mark.parametrize("as_text", [False, True])
def test_openai_function_call_runs_the_call(rt: Runtime, as_text: bool) -> None:
    expected = value_of(rt, {"flights": FLIGHTS})
    for arguments in (FLIGHTS, dump(FLIGHTS)):
        program: Any = {"name": "flights", "arguments": arguments}
        out = rt.run(dump(program) if as_text else program)
        assert out.status == "success", out.message
        assert out.value == expected
        assert any("OpenAI function call" in w and "`flights`" in w for w in out.warnings)


def test_the_wrong_success_is_gone(rt: Runtime) -> None:
    # issue 12: this came back as the data object itself, with status success
    out = rt.run('{"name": "add", "arguments": "{\\"a\\": 1, \\"b\\": 2}"}')
    assert (out.status, out.value) == ("success", 3)


def test_chat_completions_tool_call(rt: Runtime) -> None:
    call = {
        "id": "call_abc123",
        "type": "function",
        "function": {"name": "add", "arguments": '{"a": 2, "b": 40}'},
    }
    out = rt.run(call)
    assert (out.status, out.value) == ("success", 42)
    assert out.warnings == ["read as an OpenAI chat-completions tool call: the call `add`"]


def test_openai_assistant_message_runs_its_tool_calls_in_parallel(rt: Runtime) -> None:
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "flights", "arguments": dump(FLIGHTS)},
            },
            {
                "id": "call_2",
                "type": "function",
                "function": {"name": "trains", "arguments": dump(TRAINS)},
            },
        ],
        "refusal": None,
        "annotations": [],
    }
    out = rt.run(dump(message))
    assert out.status == "success", out.message
    assert out.value == value_of(rt, [{"flights": FLIGHTS}, {"trains": TRAINS}])
    assert "2 parallel calls (`flights`, `trains`)" in out.warnings[0]


def test_a_message_with_one_call_is_its_result_and_its_text_is_ignored(rt: Runtime) -> None:
    message = {
        "role": "assistant",
        "content": "Let me add those.",
        "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "add", "arguments": "{}"}}
        ],
    }
    out = rt.run(message)
    assert out.status == "failure"  # add needs a and b: validated as any call is
    assert out.error is not None and out.error.code == "missing_argument"
    message["tool_calls"][0]["function"]["arguments"] = '{"a": 1, "b": 1}'  # type: ignore[index]
    out = rt.run(message)
    assert (out.status, out.value) == ("success", 2)
    assert any("ignored the message's text content" in w for w in out.warnings)


def test_responses_api_function_call_item(rt: Runtime) -> None:
    item = {
        "type": "function_call",
        "id": "fc_67ca09c6bedc8190a7abfec07b1a1332",
        "call_id": "call_unLAR8MvFNptuiZK6K6HCy5k",
        "name": "trains",
        "arguments": dump(TRAINS),
        "status": "completed",
    }
    assert value_of(rt, item) == value_of(rt, {"trains": TRAINS})
    out = rt.run(item)
    assert (
        out.warnings[0] == "read as an OpenAI Responses API function_call item: the call `trains`"
    )


def test_an_array_of_tool_calls_is_parallel_calls_whose_value_is_the_list(rt: Runtime) -> None:
    items = [
        {"type": "function_call", "call_id": "a", "name": "add", "arguments": '{"a":1,"b":2}'},
        {"type": "tool_use", "id": "toolu_1", "name": "add", "input": {"a": 3, "b": 4}},
        {"name": "concat", "arguments": {"a": "x", "b": "y"}},
    ]
    out = rt.run(items)
    assert (out.status, out.value) == ("success", [3, 7, "xy"])
    assert out.warnings[0].startswith("read as 3 parallel calls")
    assert value_of(rt, items[:1]) == [3]  # an array is a list, as in Dialect JSON


# -- Anthropic ----------------------------------------------------------------------------------


def test_anthropic_tool_use_block(rt: Runtime) -> None:
    block = {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "flights"}
    block["input"] = FLIGHTS  # type: ignore[assignment]
    assert value_of(rt, block) == value_of(rt, {"flights": FLIGHTS})
    assert rt.run(block).warnings[0] == "read as an Anthropic tool_use block: the call `flights`"


def test_anthropic_message_keeps_tool_use_blocks_and_ignores_text(rt: Runtime) -> None:
    message = {
        "id": "msg_01Aq9w938a90dw8q",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [
            {"type": "text", "text": "I'll look up both for you."},
            {"type": "tool_use", "id": "toolu_01", "name": "flights", "input": FLIGHTS},
            {"type": "tool_use", "id": "toolu_02", "name": "trains", "input": TRAINS},
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 472, "output_tokens": 91},
    }
    out = rt.run(dump(message))
    assert out.status == "success", out.message
    assert out.value == value_of(rt, [{"flights": FLIGHTS}, {"trains": TRAINS}])
    assert "ignored 1 text block of the message; only its tool_use blocks run" in out.warnings


def test_anthropic_input_is_validated_like_any_arguments(rt: Runtime) -> None:
    block = {"type": "tool_use", "id": "t", "name": "add", "input": {"a": 1, "c": 2}}
    out = rt.run(block)
    assert out.error is not None and out.error.code == "unknown_parameter"


# -- arguments ----------------------------------------------------------------------------------


def test_arguments_are_data_never_calls(rt: Runtime) -> None:
    # in Dialect JSON {"add": {...}} would be a call; as a tool-call argument it is data
    payload = {"add": {"a": 1, "b": 2}}
    out = rt.run({"name": "echo", "arguments": {"value": payload}})
    assert (out.status, out.value) == ("success", payload)
    out = rt.run({"name": "count", "arguments": {"items": [{"add": [1, 2]}]}})
    assert (out.status, out.value) == ("success", 1)


def test_one_unknown_argument_is_unknown_parameter_not_a_nested_call(rt: Runtime) -> None:
    # {"concat": {"double": 2}} in Dialect JSON would call `double`; an argument name never does
    out = rt.run({"name": "concat", "arguments": {"double": 2}})
    assert out.error is not None and out.error.code == "unknown_parameter"


def test_arguments_string_that_does_not_parse_fails_with_its_position(rt: Runtime) -> None:
    out = rt.run({"name": "add", "arguments": '{"a": 1, "b": 2'})
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "invalid_program"
    assert "line 1, column 1 of the string" in out.error.message
    assert "never closed" in out.error.message
    out = rt.run({"name": "add", "arguments": '{"a": 1 "b": 2}'})
    assert out.error is not None and "line 1, column 9 of the string" in out.error.message
    out = rt.run({"name": "add", "arguments": "[1, 2]"})
    assert out.error is not None and "must be a JSON object" in out.error.message


def test_arguments_string_is_repaired_in_lenient_mode_only(rt: Runtime) -> None:
    program = {"name": "add", "arguments": "{a: 1, b: 2,}"}
    out = rt.run(program)
    assert (out.status, out.value) == ("success", 3)
    assert any("program.arguments" in w and "unquoted" in w for w in out.warnings)
    out = rt.run(dump(program), strict=True)
    assert out.error is not None and "is not quoted" in out.error.message


# -- detection: Dialect JSON is never an envelope ------------------------------------------------


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        # a registered function called `name`: a one-key object is its call
        ({"name": "flights"}, "name:flights"),
        ({"name": {"x": "arguments"}}, "name:arguments"),
        # data with name/arguments keys, as Dialect JSON writes data
        (
            {"$quote": {"name": "flights", "arguments": {"origin": "SFO"}}},
            {"name": "flights", "arguments": {"origin": "SFO"}},
        ),
        (
            {"$object": {"name": "flights", "arguments": "{}"}},
            {"name": "flights", "arguments": "{}"},
        ),
        (
            {"$return": {"$quote": {"type": "tool_use", "name": "add", "input": {}}}},
            {"type": "tool_use", "name": "add", "input": {}},
        ),
        # nested: never examined
        (
            {"echo": {"value": {"$quote": {"name": "add", "arguments": {"a": 1, "b": 2}}}}},
            {"name": "add", "arguments": {"a": 1, "b": 2}},
        ),
        (
            {
                "$let": {"x": {"$quote": {"name": "add", "arguments": "{}"}}},
                "$return": {"$ref": "x"},
            },
            {"name": "add", "arguments": "{}"},
        ),
        # not the exact shape, and no registered function named: data, as before
        ({"name": "Ada", "arguments": [1, 2]}, {"name": "Ada", "arguments": [1, 2]}),
        ({"name": "Ada", "arguments": {}, "x": 1}, {"name": "Ada", "arguments": {}, "x": 1}),
        ({"type": "tool", "name": "add"}, {"type": "tool", "name": "add"}),
        ({"role": "user", "content": [1]}, {"role": "user", "content": [1]}),
        ([{"add": [1, 2]}, {"double": 3}], [3, 6]),
    ],
)
def test_dialect_json_is_never_taken_for_an_envelope(
    rt: Runtime, program: Any, expected: Any
) -> None:
    out = rt.run(program)
    assert out.status == "success", out.message
    assert out.value == expected
    assert not any("read as" in w for w in out.warnings)
    assert read_envelope(program, functions=rt.registry.functions) is None


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ({"name": "add", "arguments": [1, 2]}, "its `arguments` is an array"),
        ({"name": "add", "arguments": {"a": 1, "b": 2}, "x": 1}, "the keys `x` are not in it"),
        ({"type": "tool_use", "name": "add"}, "it lacks `input`"),
        (
            {"type": "tool_use", "name": "add", "input": {}, "caller": "me"},
            "the keys `caller` are not in it",
        ),
        (
            {"role": "assistant", "tool_calls": [], "reasoning_content": "..."},
            "the keys `reasoning_content`",
        ),
        ({"role": "assistant", "content": [], "type": "chunk"}, "its `type` is 'chunk'"),
        ([{"name": "add", "arguments": "{}", "id": "1"}], "an OpenAI function call"),
    ],
)
def test_an_almost_envelope_is_neither_run_nor_returned(
    rt: Runtime, program: Any, message: str
) -> None:
    out = rt.run(program)
    assert out.status == "failure" and out.error is not None, out.value
    assert "but not exactly" in out.error.message and message in out.error.message
    assert out.error.hint is not None and '{"$quote": {...}}' in out.error.hint


def test_a_legacy_function_call_message(rt: Runtime) -> None:
    message = {
        "role": "assistant",
        "content": None,
        "function_call": {"name": "add", "arguments": '{"a": 20, "b": 22}'},
    }
    out = rt.run(message)
    assert (out.status, out.value) == ("success", 42)
    assert out.warnings[0].startswith("read as an OpenAI assistant message with a function_call")


def test_an_envelope_calling_a_function_named_name(rt: Runtime) -> None:
    out = rt.run({"name": "name", "arguments": {"x": "y"}})
    assert (out.status, out.value) == ("success", "name:y")


def test_an_unregistered_name_fails_with_both_readings(rt: Runtime) -> None:
    out = rt.run({"name": "flihgts", "arguments": {"origin": "SFO"}})
    assert out.status == "failure" and out.error is not None
    message = out.error.message
    assert "could be read two ways" in message and "data object" in message
    assert "did you mean `flights`" in message
    assert out.error.hint is not None and '{"$quote": {...}}' in out.error.hint
    readings = out.error.details["readings"]
    assert readings[0]["program"] == {"$quote": {"name": "flihgts", "arguments": {"origin": "SFO"}}}
    assert readings[1]["program"] == {"name": "flights", "arguments": {"origin": "SFO"}}
    assert value_of(rt, readings[1]["program"]) == value_of(rt, {"flights": {"origin": "SFO"}})
    # the same object as data: quoted
    assert value_of(rt, {"$quote": {"name": "flihgts", "arguments": {}}}) == {
        "name": "flihgts",
        "arguments": {},
    }


def test_without_a_registry_the_exact_shape_decides() -> None:
    assert compile_tree({"name": "flights", "arguments": FLIGHTS}) == {
        "flights": [{"$object": FLIGHTS}]
    }
    # a name no function could have: data
    person = {"name": "Ada Lovelace", "arguments": {"x": 1}}
    assert compile_tree(person) == person
    assert compile_tree('{"name": "f", "arguments": {"x": {"y": 1}}}') == {
        "f": [{"$object": {"x": {"$quote": {"y": 1}}}}]
    }


def test_a_case_insensitive_match_is_registered_as_the_resolver_forgives(rt: Runtime) -> None:
    assert value_of(rt, {"name": "Add", "arguments": {"a": 1, "b": 1}}) == 2


def test_the_function_names_reach_to_tree() -> None:
    with pytest.raises(EnvelopeError, match="could be read two ways"):
        to_tree({"name": "x", "arguments": {}}, functions={"y"})
    assert to_tree({"name": "x", "arguments": {}}, functions={"x"}).tree == {"x": []}


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ({"type": "tool_use", "name": "add", "input": "{}"}, "`input` of a tool_use block"),
        (
            {"type": "function", "function": {"name": "add"}},
            "`function` of an OpenAI chat-completions tool call",
        ),
        ({"role": "assistant", "tool_calls": []}, "no tool calls"),
        ({"role": "assistant", "content": [{"type": "text", "text": "Hi"}]}, "no tool_use block"),
        (
            {"role": "assistant", "content": [{"type": "image", "source": {}}]},
            "cannot run a content block of type 'image'",
        ),
        ([{"type": "tool_use", "name": "add", "input": {}}, {"add": [1, 2]}], "element 1"),
        ({"name": "", "arguments": {}}, None),  # not a function name: data without a registry
    ],
)
def test_malformed_envelopes_fail_with_what_is_wrong(
    rt: Runtime, program: Any, message: str | None
) -> None:
    out = rt.run(program)
    if message is None:
        assert out.status == "failure"  # with a registry: neither reading is picked
        assert out.error is not None and "two ways" in out.error.message
        return
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "invalid_program"
    assert message in out.error.message
    assert out.error.hint or "tool" in out.error.message


def test_classify_looks_only_at_the_shape() -> None:
    assert classify({"add": {"a": 1}}) is None
    assert classify({"name": "f", "arguments": "{}"}) == "openai_function"
    assert classify({"name": "f", "arguments": "{}", "id": "x"}) is None
    assert classify({"type": "function_call", "name": "f", "arguments": "{}"}) == (
        "responses_function_call"
    )
    assert classify({"role": "user", "content": []}) is None


# -- TypeChat -----------------------------------------------------------------------------------


def test_typechat_program(rt: Runtime) -> None:
    program = {
        "@steps": [
            {"@func": "add", "@args": [1, 2]},
            {"@func": "double", "@args": [{"@ref": 0}]},
            {"@func": "add", "@args": [{"@ref": 1}, {"@func": "double", "@args": [5]}]},
        ]
    }
    out = rt.run(program)
    assert (out.status, out.value) == ("success", 16)
    assert out.warnings == ["read as a TypeChat program of 3 steps; its value is the last step's"]
    assert convert(dump(program), "json", "plan") == (
        "step_1 = add(1, 2);\nstep_2 = double(step_1);\n"
        "step_3 = add(step_2, double(5));\nreturn step_3;\n"
    )


def test_typechat_bad_reference(rt: Runtime) -> None:
    out = rt.run({"@steps": [{"@func": "double", "@args": [{"@ref": 0}]}]})
    assert out.error is not None and "an earlier step" in out.error.message
    assert out.error.path == 'program["@steps"][0]["@args"][0]'


def test_typechat_steps_the_result_does_not_need_are_named(rt: Runtime) -> None:
    out = rt.run({"@steps": [{"@func": "add", "@args": [1, 2]}, {"@func": "double", "@args": [4]}]})
    assert out.value == 8
    assert "step_1 is not used by it and does not run" in out.warnings[0]


# -- NESTFUL ------------------------------------------------------------------------------------

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "nestful"
N = "number"
MATHS: dict[str, Any] = {
    "add": lambda a, b: a + b,
    "subtract": lambda a, b: a - b,
    "multiply": lambda a, b: a * b,
    "divide": lambda a, b: a / b,
    "power": lambda a, b: a**b,
}


def nestful_rows() -> list[dict[str, Any]]:
    path = CORPUS / "nestful_last360.json"
    if not path.exists():
        pytest.skip("the NESTFUL sample is not in shared/corpora/nestful")
    rows: list[dict[str, Any]] = orjson.loads(path.read_bytes())
    return rows


def maths_runtime() -> Runtime:
    rt = Runtime(load_entry_points=False, builtins=False)
    rt.register(*(FunctionDescription(n, n, f, {"a": N, "b": N}, N) for n, f in MATHS.items()))
    return rt


def matches(value: Any, gold: str) -> bool:
    expected = float(gold)
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    return isinstance(value, int | float) and round(float(value), decimals) == round(
        expected, decimals
    )


def test_nestful_sample_rows_run_as_sequences() -> None:
    rows = [r for r in nestful_rows() if all(c["name"] in MATHS for c in orjson.loads(r["output"]))]
    assert len(rows) > 200
    rt = maths_runtime()
    names = rt.registry.functions
    right = 0
    for row in rows:
        # the row's `output` exactly as the corpus has it: JSON text of the call list
        front = to_tree(row["output"], functions=names)
        assert front.warnings[0].startswith("read as a NESTFUL sequence of")
        out = rt.prepare(row["output"]).run()
        if out.status == "success" and matches(out.value, row["gold_answer"]):
            right += 1
    assert right >= len(rows) - 2, f"{right} of {len(rows)}"


def test_every_nestful_row_reads_as_a_sequence() -> None:
    rows = nestful_rows()
    for row in rows:
        front = to_tree(row["output"])  # the corpus's JSON text, as a model would send it
        calls = orjson.loads(row["output"])
        assert front.warnings[0].startswith(f"read as a NESTFUL sequence of {len(calls)} call")
        if len(calls) > 1:
            assert list(front.tree["$let"]) == [c["label"].lstrip("$") for c in calls]
    assert len(rows) == 360


def test_nestful_row_reads_as_aliases_with_references() -> None:
    row = nestful_rows()[0]
    tree = compile_tree(row["output"])
    calls = orjson.loads(row["output"])
    assert list(tree["$let"]) == [c["label"].lstrip("$") for c in calls]
    assert tree["$let"]["var_2"] == {"divide": [{"$ref": "var_1"}, 5]}
    assert tree["$return"] == {"$ref": calls[-1]["label"].lstrip("$")}
    plan = convert(row["output"], "json", "plan")
    assert "var_2 = divide(var_1, 5);" in plan


def test_nestful_unknown_label_and_unregistered_function(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seq = [
        {"name": "add", "label": "$var_1", "arguments": {"arg_0": 1, "arg_1": 2}},
        {"name": "add", "label": "$var_2", "arguments": {"arg_0": "$var_9.result$", "arg_1": 1}},
    ]
    with pytest.raises(EnvelopeError, match=r"refers to `\$var_9`"):
        to_tree(seq)
    rt = maths_runtime()
    pass_functions(rt, monkeypatch)
    seq[1]["arguments"] = {"arg_0": "$var_1.result$", "arg_1": 1}
    assert rt.run(seq).value == 4
    seq[1]["name"] = "ad"
    out = rt.run(seq)
    assert out.error is not None and "could be read two ways" in out.error.message


# -- LLMCompiler --------------------------------------------------------------------------------

LLMC = """Thought: I need both sums first.
1. add(a=1, b=2)
2. add(3, 4)
3. concat(a="total: ", b="$1 and ${2}")
4. join()<END_OF_PLAN>
"""


def test_llmcompiler_plan(rt: Runtime) -> None:
    out = rt.run(LLMC)
    assert (out.status, out.value) == ("success", "total: 3 and 7")
    assert out.warnings == [
        "read as an LLMCompiler plan of 3 calls (add, add, concat); its value is the result "
        "of step_3"
    ]
    assert convert(LLMC, "plan", "plan") == (
        "step_1 = add({a: 1, b: 2});\nstep_2 = add(3, 4);\n"
        "step_3 = concat({a: 'total: ', b: `${step_1} and ${step_2}`});\nreturn step_3;\n"
    )


def test_llmcompiler_calls_nothing_uses_are_all_results(rt: Runtime) -> None:
    plan = '1. add(1, 2)\n2. double(n=$1)\n3. flights(origin="SFO", from="x")\n4. join()'
    assert compile_tree(plan)["$let"]["step_3"] == {
        "flights": [{"$object": {"origin": "SFO", "from": "x"}}]
    }
    out = rt.run("1. add(1, 2)\n2. double(n=$1)\n3. concat('a', 'b')\n4. join()")
    assert (out.status, out.value) == ("success", [6, "ab"])


@pytest.mark.parametrize(
    ("plan", "where", "message"),
    [
        ("1. add(1, 2)\n3. add(1, 2)\n", (2, 1), "call number 3 where 2 was expected"),
        ("1. add(1, $2)\n2. join()", (1, 11), "refers to call 2"),
        ("1. add(1, x)\n2. join()", (1, 11), "`x` is not a value"),
        ("1. add(1, 2)\nhello\n", (2, 1), "expected a numbered call"),
        ("1. add(1, b=2)\n", (1, 8), "both by position and by name"),
        ("1. add(1, 2\n", (1, 7), "the `(` of call 1 is never closed"),
        ("1. join()\n2. add(1, 2)", (2, 1), "after `join()`"),
    ],
)
def test_llmcompiler_errors_are_located(
    rt: Runtime, plan: str, where: tuple[int, int], message: str
) -> None:
    out = rt.run(plan)
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "syntax_error"
    assert message in out.message if out.message else False
    with pytest.raises(SourceError) as info:
        to_tree(plan)
    first = info.value.problems[0]
    assert (first.line, first.column) == where


# -- dialectic convert --to plan ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("program", "plan"),
    [
        (
            {"name": "flights", "arguments": dump(FLIGHTS)},
            "return flights({origin: 'SFO', destination: 'LAX'});",
        ),
        (
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "add", "arguments": '{"a": 1, "b": 2}'},
            },
            "return add({a: 1, b: 2});",
        ),
        (
            {"type": "tool_use", "id": "toolu_1", "name": "echo", "input": {"value": {"k": [1]}}},
            "return echo({value: {k: [1]}});",
        ),
        (
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Checking."},
                    {"type": "tool_use", "id": "t1", "name": "flights", "input": {"origin": "SFO"}},
                    {"type": "tool_use", "id": "t2", "name": "trains", "input": {}},
                ],
            },
            "return [flights({origin: 'SFO'}), trains()];",
        ),
    ],
)
def test_convert_to_plan_shows_what_an_envelope_became(
    tmp_path: Path, program: Any, plan: str
) -> None:
    path = tmp_path / "reply.json"
    path.write_text(dump(program), encoding="utf-8")
    result = CliRunner().invoke(main, ["convert", "--to", "plan", str(path)])
    assert result.exit_code == 0, result.output
    assert plan in result.output
    assert "warning: read as" in result.output  # (stderr is mixed in by CliRunner)


def test_convert_llmcompiler_text_file(tmp_path: Path) -> None:
    path = tmp_path / "plan.txt"
    path.write_text(LLMC, encoding="utf-8")
    result = CliRunner().invoke(main, ["convert", "--to", "plan", str(path)])
    assert result.exit_code == 0, result.output
    assert "step_2 = add(3, 4);" in result.output


def test_convert_reports_a_malformed_envelope(tmp_path: Path) -> None:
    path = tmp_path / "reply.json"
    path.write_text('{"name": "f", "arguments": "{oops"}', encoding="utf-8")
    result = CliRunner().invoke(main, ["convert", "--to", "plan", str(path)])
    assert result.exit_code == 1
    assert "does not parse" in result.output and "Traceback" not in result.output


def test_strict_mode_reads_envelopes_too(rt: Runtime) -> None:
    out = rt.run(dump({"name": "add", "arguments": {"a": 1, "b": 2}}), strict=True)
    assert (out.status, out.value) == ("success", 3)


def test_deep_typechat_arguments_fail_cleanly() -> None:
    arg: Any = 1
    for _ in range(300):
        arg = [arg]
    with pytest.raises(DialecticError, match="nested too deeply"):
        to_tree({"@steps": [{"@func": "echo", "@args": [arg]}]})


def test_no_superlinear_cost_in_a_long_message() -> None:
    calls = [
        {"type": "function", "id": f"c{i}", "function": {"name": "add", "arguments": "{}"}}
        for i in range(20_000)
    ]
    tree, warnings = read_envelope({"role": "assistant", "tool_calls": calls}) or (None, [])
    assert isinstance(tree, list) and len(tree) == 20_000
    assert len(warnings[0]) < 300 and "(19990 more)" in warnings[0]  # the listing is cut


# -- any JSON: a call tree, Dialect JSON, or a clear error ---------------------------------------

KEYS = ["name", "arguments", "type", "function", "role", "content", "tool_calls", "input", "id"]
KEYS += ["@steps", "@func", "@args", "@ref", "label", "text", "call_id"]
KEYS += ["object", "choices", "message", "output", "candidates", "parts", "functionCall", "args"]
KEYS += ["toolUse", "stopReason"]
SHAPED = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from(["add", "function", "tool_use", "function_call", "assistant", "text"])
    | st.sampled_from(["chat.completion", "response", "model", "message", "reasoning"])
    | st.sampled_from(['{"a": 1}', "{a: 1,}", "{", "$var_1.result$", "Add", ""]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=800, deadline=None)
@given(SHAPED, st.booleans())
def test_any_json_is_dialect_json_a_call_tree_or_a_clear_error(tree: Any, registry: bool) -> None:
    try:
        found = read_envelope(tree, functions={"add"} if registry else None)
    except DialecticError as exc:
        assert exc.code == "invalid_program" and exc.message
        return
    if found is not None:
        out, warnings = found
        assert warnings and warnings[0].startswith("read as")
        orjson.dumps(out)  # a JSON call tree


def _chain_llmcompiler(n: int) -> str:
    lines = ["1. add(1, 2)"] + [f"{i}. add(${i - 1}, 1)" for i in range(2, n + 1)]
    return "\n".join([*lines, f"{n + 1}. join()"])


def _chain_typechat(n: int) -> Any:
    steps = [{"@func": "add", "@args": [1, 2]}]
    steps += [{"@func": "add", "@args": [{"@ref": i - 1}, 1]} for i in range(1, n)]
    return {"@steps": steps}


def _chain_nestful(n: int) -> Any:
    calls = [{"name": "add", "label": "$var_1", "arguments": {"arg_0": 1, "arg_1": 2}}]
    calls += [
        {"name": "add", "label": f"$var_{i}", "arguments": {"arg_0": f"$var_{i - 1}.result$"}}
        for i in range(2, n + 1)
    ]
    return calls


@pytest.mark.parametrize("chain", [_chain_llmcompiler, _chain_typechat, _chain_nestful])
def test_sequences_cost_linear_time(chain: Any) -> None:
    def timed(n: int) -> float:
        program = chain(n)
        gc.disable()  # (a collection during one measurement is noise, not cost)
        try:
            start = time.thread_time()  # CPU time: another process's load does not count
            front = to_tree(program)
            elapsed = time.thread_time() - start
        finally:
            gc.enable()
        assert len(front.tree["$let"]) == n
        return elapsed

    small = min(timed(500) for _ in range(3))
    large = min(timed(4000) for _ in range(3))  # 8x the steps
    assert large < 8 * small * 4  # linear (quadratic would be 64x), with room for noise


DATA = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)
PLAIN = Runtime(plugins=[dialectic.testing], load_entry_points=False)


@settings(max_examples=200, deadline=None)
@given(DATA, st.booleans())
def test_arguments_are_passed_exactly_as_written(value: Any, as_text: bool) -> None:
    # whatever the data (one-key objects, `$`-keys, strings that look like references), the
    # function receives it as written: nothing in arguments is evaluated
    arguments: Any = {"value": value}
    program = {"name": "echo", "arguments": dump(arguments) if as_text else arguments}
    out = PLAIN.run(program)
    assert out.status == "success", out.message
    assert out.value == value


def test_dialectic_run_reads_a_tool_call_file(tmp_path: Path) -> None:
    path = tmp_path / "reply.json"
    call = {"type": "tool_use", "id": "toolu_1", "name": "add", "input": {"a": 1, "b": 2}}
    path.write_text(dump(call), encoding="utf-8")
    args = ["run", str(path), "--plugin", "dialectic.testing", "--no-entry-points"]
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    out = orjson.loads(result.output)
    assert out["value"] == 3
    assert out["warnings"] == ["read as an Anthropic tool_use block: the call `add`"]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["name", "type", "role", "arguments", "tool_calls", "f", "$get", "@steps"]),
    st.one_of(
        st.none(),
        st.sampled_from(["function", "assistant", "tool_use", "search_flights"]),
        st.just([{"@func": "f", "@args": []}]),
        st.just({"type": "function", "function": {"name": "f"}}),
    ),
    st.booleans(),
)
def test_an_object_of_one_key_is_an_envelope_only_as_steps(
    key: str, value: Any, known: bool
) -> None:
    """``read_envelope`` answers an object of one key at once (None, unless it is ``@steps``, or
    Gemini's ``candidates`` or ``functionCall``: tests/core/test_envelopes_responses.py): what
    the shapes' detection says of it (no other shape has fewer than two keys)."""
    from dialectic.frontends.envelopes.common import Names
    from dialectic.frontends.envelopes.vendors import near_miss

    tree = {key: value}
    functions = {"search_flights", "f"} if known else None
    if key != "@steps":
        assert classify(tree) is None
        assert near_miss(tree, Names(functions), ()) is None
        assert read_envelope(tree, functions=functions) is None
    elif isinstance(value, list):
        assert read_envelope(tree, functions=functions) is not None
