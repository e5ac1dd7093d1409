"""Whole API answers as envelopes (SPEC 9): an OpenAI chat completion or Responses API response,
a Gemini response, content or functionCall parts run the calls of their one answer; several
answers, an answer without calls and a streamed chunk fail with what to send instead.

Before, a chat completion and a Gemini response with metadata came back as the data object
itself, with status success: a wrong success. The shapes are written as the vendors document
them (OpenAI chat completions and Responses API, Google Gemini generateContent)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest

import dialectic.testing
from dialectic import FunctionDescription, Runtime
from dialectic.frontends.envelopes import read_envelope

FLIGHTS = {"origin": "SFO", "destination": "LAX"}


def dump(value: Any) -> str:
    return orjson.dumps(value).decode()


@pytest.fixture(scope="module")
def rt() -> Iterator[Runtime]:
    runtime = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    yield runtime


def tool_call(name: str, args: Any, i: int = 1) -> dict[str, Any]:
    return {
        "id": f"call_{i}",
        "type": "function",
        "function": {"name": name, "arguments": dump(args)},
    }


def completion(*messages: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
        "object": "chat.completion",
        "created": 1741570283,
        "model": "gpt-4o-2024-08-06",
        "choices": [
            {"index": i, "message": m, "logprobs": None, "finish_reason": "tool_calls"}
            for i, m in enumerate(messages)
        ],
        "usage": {"prompt_tokens": 82, "completion_tokens": 17, "total_tokens": 99},
        "service_tier": "default",
        "system_fingerprint": "fp_fc9f1d7035",
    }


def assistant(*calls: dict[str, Any], content: Any = None) -> dict[str, Any]:
    return {"role": "assistant", "content": content, "tool_calls": list(calls), "refusal": None}


def gemini(*parts: dict[str, Any], candidates: int = 1) -> dict[str, Any]:
    return {
        "candidates": [
            {
                "content": {"role": "model", "parts": list(parts)},
                "finishReason": "STOP",
                "avgLogprobs": -0.01,
            }
            for _ in range(candidates)
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "abc",
    }


def call_part(name: str, args: Any) -> dict[str, Any]:
    return {"functionCall": {"name": name, "args": args}, "thoughtSignature": "Cs0BAcu98P"}


def ok(rt: Runtime, program: Any) -> tuple[Any, list[str]]:
    out = rt.run(program)
    assert out.status == "success", out.message
    return out.value, out.warnings


def fails(rt: Runtime, program: Any, *words: str) -> Any:
    out = rt.run(program)
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "invalid_program"
    for w in words:
        assert out.message is not None and w in out.message, out.message
    return out.error


# -- OpenAI ------------------------------------------------------------------------------------


def test_a_chat_completion_runs_its_message_calls(rt: Runtime) -> None:
    value, warnings = ok(rt, dump(completion(assistant(tool_call("add", {"a": 2, "b": 40})))))
    assert value == 42
    assert warnings == ["read as an OpenAI chat completion: the call `add`"]


def test_a_chat_completion_with_two_calls_is_their_list(rt: Runtime) -> None:
    message = assistant(tool_call("add", {"a": 1, "b": 2}), tool_call("upper", {"text": "x"}, 2))
    value, warnings = ok(rt, completion(message))
    assert value == [3, "X"]
    assert "2 parallel calls (`add`, `upper`)" in warnings[0]


def test_a_chat_completion_of_several_choices_fails_with_each(rt: Runtime) -> None:
    first = assistant(tool_call("add", {"a": 1, "b": 2}))
    second = assistant(tool_call("add", {"a": 5, "b": 5}))
    error = fails(rt, completion(first, second), "holds 2 choices", "cannot be known")
    assert error.path == "program.choices"
    readings = error.details["readings"]
    assert [r["description"] for r in readings] == ["choice 0", "choice 1"]
    # each reading is a program the model can send back as it is
    assert [rt.run(r["program"]).value for r in readings] == [3, 10]


def test_a_chat_completion_without_calls_fails(rt: Runtime) -> None:
    message = {"role": "assistant", "content": "The sum is 3.", "refusal": None}
    error = fails(rt, completion(message), "holds no tool calls", "'The sum is 3.'")
    assert error.path == "program.choices[0].message"


def test_a_chat_completion_with_no_choices_fails(rt: Runtime) -> None:
    program = {**completion(), "choices": []}
    fails(rt, program, "`choices` is empty", "nothing to run")


def test_a_streamed_chunk_fails_with_what_to_send(rt: Runtime) -> None:
    chunk = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {}}]}}],
    }
    error = fails(rt, chunk, "one chunk of a streamed chat completion")
    assert error.hint is not None and "Join the stream's chunks" in error.hint


def test_a_responses_api_response_runs_its_function_calls(rt: Runtime) -> None:
    response = {
        "id": "resp_67ccd2bed1ec8190",
        "object": "response",
        "created_at": 1741476542,
        "status": "completed",
        "model": "gpt-4.1-2025-04-14",
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "call_1",
                "name": "add",
                "arguments": '{"a": 20, "b": 22}',
                "status": "completed",
            },
        ],
        "parallel_tool_calls": True,
        "tools": [],
        "usage": {"input_tokens": 36, "output_tokens": 87},
    }
    value, warnings = ok(rt, response)
    assert value == 42
    assert warnings[0] == "read as an OpenAI Responses API response: the call `add`"
    assert "ignored 1 reasoning item" in warnings[1]


def test_a_responses_api_response_with_another_tool_fails(rt: Runtime) -> None:
    response = {
        "object": "response",
        "output": [{"type": "web_search_call", "id": "ws_1", "status": "completed"}],
    }
    error = fails(rt, response, "output item of type 'web_search_call'")
    assert error.path == "program.output[0]"


def test_a_responses_api_text_answer_has_nothing_to_run(rt: Runtime) -> None:
    response = {
        "object": "response",
        "output": [{"type": "message", "role": "assistant", "content": []}],
    }
    fails(rt, response, "no function_call item")


# -- Gemini ------------------------------------------------------------------------------------


def test_a_gemini_response_runs_its_function_call_parts(rt: Runtime) -> None:
    program = gemini({"text": "Adding."}, call_part("add", {"a": 1, "b": 2}))
    value, warnings = ok(rt, dump(program))
    assert value == 3
    assert warnings == [
        "read as a Gemini response: the call `add`",
        "ignored 1 text part of the content; only its functionCall parts run",
    ]


def test_gemini_parallel_calls_and_a_call_without_args(rt: Runtime) -> None:
    program = gemini(call_part("add", {"a": 1, "b": 2}), {"functionCall": {"name": "nothing"}})
    value, _ = ok(rt, program)
    assert value == [3, "nothing"]


def test_a_gemini_response_of_several_candidates_fails_with_each(rt: Runtime) -> None:
    error = fails(rt, gemini(call_part("add", {"a": 1, "b": 2}), candidates=2), "2 candidates")
    assert [rt.run(r["program"]).value for r in error.details["readings"]] == [3, 3]


def test_gemini_content_part_and_parts(rt: Runtime) -> None:
    content = {"role": "model", "parts": [call_part("add", {"a": 1, "b": 1})]}
    assert ok(rt, content) == (2, ["read as a Gemini model content: the call `add`"])
    part = {"functionCall": {"name": "add", "args": {"a": 2, "b": 2}}}
    assert ok(rt, part) == (4, ["read as a Gemini functionCall part: the call `add`"])
    value, warnings = ok(rt, [part, call_part("add", {"a": 3, "b": 3})])
    assert value == [4, 6]
    assert warnings[0].startswith("read as 2 parallel calls (Gemini functionCall parts)")


def test_gemini_arguments_are_data_and_validated(rt: Runtime) -> None:
    fails(rt, {"functionCall": {"name": "add", "args": [1, 2]}}, "`args` of a Gemini functionCall")
    out = rt.run({"functionCall": {"name": "add", "args": {"a": 1, "b": 2, "c": 3}}})
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "unknown_parameter"
    # an object among the arguments is data, never a call
    out = rt.run({"functionCall": {"name": "echo", "args": {"value": {"add": {"a": 1}}}}})
    assert (out.status, out.value) == ("success", {"add": {"a": 1}})


def test_gemini_parts_other_than_calls_and_text_fail(rt: Runtime) -> None:
    program = gemini({"executableCode": {"code": "print(1)"}})
    error = fails(rt, program, "cannot run this part", "`executableCode`")
    assert error.path == "program.candidates[0].content.parts[0]"
    fails(rt, gemini({"text": "Hello"}), "no functionCall part")


def test_a_registered_function_called_functioncall_keeps_its_dialect_json_call() -> None:
    runtime = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    runtime.register(
        FunctionDescription(
            "functionCall",
            "a tool named so",
            lambda name: f"fc:{name}",
            {"name": "string"},
            "string",
        )
    )
    out = runtime.run({"functionCall": {"name": "add"}})
    assert (out.status, out.value, out.warnings) == ("success", "fc:add", [])


def test_without_a_registry_gemini_shapes_are_dialect_json() -> None:
    # Gemini's shapes carry no marker value: without the registered names they stay what
    # Dialect JSON makes of them (OpenAI's whole responses carry one: they are read)
    part = {"functionCall": {"name": "add", "args": {"a": 1}}}
    assert read_envelope(part) is None
    assert read_envelope(gemini(call_part("add", {"a": 1}))) is None
    found = read_envelope(completion(assistant(tool_call("add", {"a": 1, "b": 2}))))
    assert found is not None and found[0] == {"add": [{"$object": {"a": 1, "b": 2}}]}


def test_data_that_only_resembles_a_response_stays_data(rt: Runtime) -> None:
    for data in (
        {"object": "invoice", "choices": [1, 2]},
        {"candidates": ["Ada", "Grace"], "count": 2},
        {"role": "model", "parts": ["wheel"], "price": 3},
    ):
        assert ok(rt, data) == (data, [])


# -- Amazon Bedrock Converse -------------------------------------------------------------------


def tool_use(name: str, args: Any) -> dict[str, Any]:
    return {"toolUse": {"toolUseId": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "name": name, "input": args}}


def converse(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": list(blocks)}},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 30, "outputTokens": 10, "totalTokens": 40},
        "metrics": {"latencyMs": 100},
    }


def test_a_converse_response_runs_its_tool_use_blocks(rt: Runtime) -> None:
    program = converse({"text": "Adding."}, tool_use("add", {"a": 1, "b": 2}))
    value, warnings = ok(rt, dump(program))
    assert value == 3
    assert warnings == [
        "read as a Bedrock Converse response: the call `add`",
        "ignored 1 text or reasoning block of the message; only its toolUse blocks run",
    ]
    message = program["output"]["message"]
    assert ok(rt, message)[0] == 3
    assert ok(rt, tool_use("add", {"a": 2, "b": 2})) == (
        4,
        ["read as a Bedrock Converse toolUse block: the call `add`"],
    )
    value, warnings = ok(rt, [tool_use("add", {"a": 1, "b": 1}), tool_use("double", {"n": 4})])
    assert value == [2, 8] and "(Bedrock toolUse blocks)" in warnings[0]


def test_a_converse_text_answer_and_other_blocks_fail(rt: Runtime) -> None:
    no_call = converse({"text": "The sum is 3."})
    no_call["stopReason"] = "end_turn"
    fails(rt, no_call, "holds no toolUse block", "'The sum is 3.'")
    image = {"image": {"format": "png"}}
    error = fails(rt, converse(image, tool_use("add", {})), "cannot run this content block")
    assert error.path == "program.output.message.content[0]"
    fails(rt, tool_use("add", [1, 2]), "`input` of a toolUse block must be a JSON object")
