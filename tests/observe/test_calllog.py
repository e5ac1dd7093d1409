"""The call log every outcome carries (SPEC 18): what ran, how it ended, when, with what."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import anyio
import pytest

from dialectic import Runtime

from .conftest import Tools, by_path, make_runtime

KEYS = {"function", "path", "status", "arguments", "start", "duration"}


def test_sync_calls_are_logged_and_builtins_are_not(tools: Tools) -> None:
    rt = make_runtime(tools)
    out = rt.run("a = book({city: upper('paris')}); return a.ref;", lang="plan")
    assert out.status == "success", out.message
    [call] = out.calls
    assert set(call) >= KEYS
    assert call["function"] == "book"
    assert call["path"] == "program.$let.a"
    assert call["status"] == "done"
    assert call["arguments"] == {"city": "PARIS"}
    assert call["start"] >= 0 and call["duration"] >= 0
    # to_json carries the log only when asked: what a model reads is unchanged
    assert "calls" not in out.to_json()
    data = out.to_json(calls=True)
    assert data["calls"] == out.calls
    json.dumps(data, allow_nan=False)


def test_a_program_of_builtins_only_has_an_empty_log(tools: Tools) -> None:
    out = make_runtime(tools).run("return upper('x') + str(max(1, 2));", lang="plan")
    assert out.status == "success"
    assert out.calls == [] and out.calls_omitted == 0


def test_failure_lists_done_failed_and_not_started_with_partial(tools: Tools) -> None:
    rt = make_runtime(tools)
    program = "a = book({city: 'Oslo'}); b = fail({reason: a.ref}); c = book({city: b}); return c;"
    out = rt.run(program, lang="plan")
    assert out.status == "failure"
    calls = by_path(out.calls)
    assert calls["program.$let.a"]["status"] == "done"
    assert calls["program.$let.b"]["status"] == "failed"
    assert calls["program.$let.b"]["arguments"] == {"reason": "B-Oslo-1"}
    not_started = calls["program.$let.c"]
    assert not_started["status"] == "not_started"
    assert not_started["start"] is None and not_started["arguments"] is None
    assert [c["status"] for c in out.calls] == ["done", "failed", "not_started"]
    # the aliases that completed come back with the failure
    assert out.partial == {"a": {"city": "Oslo", "nights": 1, "ref": "B-Oslo-1"}}
    assert out.to_json()["partial"] == out.partial
    assert tools.calls == {"book": 1, "fail": 1}


def test_map_applications_get_one_entry_each_with_the_element_index(tools: Tools) -> None:
    rt = make_runtime(tools)
    out = rt.run("return ['a', 'bb', 'ccc'].map((k) => fetch({key: k}).value);", lang="plan")
    assert out.value == [1, 2, 3]
    assert sorted(c["elements"][0] for c in out.calls) == [0, 1, 2]
    paths = {c["path"] for c in out.calls}
    assert len(paths) == 3
    assert all("$fn<" in p for p in paths)
    args = {c["elements"][0]: c["arguments"]["key"] for c in out.calls}
    assert args == {0: "a", 1: "bb", 2: "ccc"}


def test_sync_map_in_a_lambda_and_a_site_never_reached(tools: Tools) -> None:
    rt = make_runtime(tools)
    out = rt.run(
        "xs = [].map((c) => book({city: c})); ys = ['Rome'].map((c) => book({city: c}));"
        " return [xs, ys];",
        lang="plan",
    )
    assert out.status == "success"
    statuses = sorted((c["status"], c.get("elements")) for c in out.calls)
    assert statuses == [("done", [0]), ("not_started", None)]


def test_deadline_marks_running_calls_in_flight(tools: Tools) -> None:
    rt = make_runtime(tools, limits={"deadline": 0.3})
    program = "a = fetch({key: 'k'}); b = hang({key: a.key}); c = book({city: b}); return c;"
    out = rt.run(program, lang="plan")
    assert out.status == "failure" and out.error is not None
    assert out.error.details.get("limit") == "deadline"
    calls = by_path(out.calls)
    assert calls["program.$let.a"]["status"] == "done"
    hung = calls["program.$let.b"]
    assert hung["status"] == "in_flight"
    assert hung["duration"] is not None and hung["duration"] > 0
    assert calls["program.$let.c"]["status"] == "not_started"
    assert out.partial == {"a": {"key": "k", "value": 1}}


def test_deadline_on_trio_marks_running_calls_in_flight(tools: Tools) -> None:
    rt = make_runtime(tools, limits={"deadline": 0.3})

    async def hang_trio(key: str) -> str:
        tools.calls["hang"] += 1
        await anyio.sleep(3600)
        return key

    from dialectic import FunctionDescription

    rt.register(
        FunctionDescription("slow", "never returns", hang_trio, {"key": "string"}, "string")
    )

    async def main() -> Any:
        return await rt.run_async("a = slow({key: 'k'}); return book({city: a});", lang="plan")

    out = anyio.run(main, backend="trio")
    assert out.status == "failure"
    statuses = {c["function"]: c["status"] for c in out.calls}
    assert statuses == {"slow": "in_flight", "book": "not_started"}


def test_fan_out_of_launched_calls_records_each_end(tools: Tools) -> None:
    rt = make_runtime(tools)
    out = rt.run(
        "return [fetch({key: 'a'}), fetch({key: 'bb'}), afail({key: 'c'}), hang({key: 'd'})];",
        lang="plan",
    )
    assert out.status == "failure"
    statuses = {c["arguments"]["key"]: c["status"] for c in out.calls}
    # the failure cancelled the call still running: it may have taken effect
    assert statuses == {"a": "done", "bb": "done", "c": "failed", "d": "in_flight"}


def test_per_call_timeout_is_in_flight(tools: Tools) -> None:
    rt = make_runtime(tools, limits={"call_timeout": 0.1})
    out = rt.run("return hang({key: 'k'});", lang="plan")
    assert out.status == "failure" and out.error is not None and out.error.code == "timeout"
    [call] = out.calls
    assert call["status"] == "in_flight"


def test_arguments_are_clipped_and_the_log_is_capped(tools: Tools) -> None:
    rt = make_runtime(tools, limits={"max_log_bytes": 100, "max_call_log": 3})
    out = rt.run(
        "big = blob({n: 5000}); return [book({city: big}), book({city: 'a'}),"
        " book({city: 'b'}), book({city: 'c'})];",
        lang="plan",
    )
    assert out.status == "success", out.message
    assert len(out.calls) == 3
    assert out.calls_omitted == 2
    first_books = [c for c in out.calls if c["function"] == "book"]
    clipped = first_books[0]
    assert clipped.get("truncated") is True
    assert "not shown" in clipped["arguments"]["city"]
    assert len(json.dumps(clipped["arguments"])) < 200
    assert out.to_json(calls=True)["calls_omitted"] == 2


def test_partial_is_bounded(tools: Tools) -> None:
    rt = make_runtime(tools, limits={"max_partial_bytes": 1000})
    out = rt.run(
        "a = blob({n: 5000}); b = blob({n: 10}); c = fail({reason: a + b}); return c;",
        lang="plan",
    )
    assert out.status == "failure"
    assert out.partial == {"b": "x" * 10}
    assert out.to_json()["partial_omitted"] == ["a"]


def test_success_carries_no_partial_and_ambiguity_carries_a_log(tools: Tools) -> None:
    rt = Runtime(load_entry_points=False, plugins=["dialectic.testing"])
    out = rt.run(
        'a = double(2); b = find({name: "validateToken"}); u = double(3); return [a, b];',
        lang="plan",
    )
    assert out.status == "ambiguous"
    # an alias nobody reads never runs: its call is listed as not started
    assert [(c["function"], c["status"]) for c in out.calls] == [
        ("double", "done"),
        ("find", "failed"),
        ("double", "not_started"),
    ]
    ok = rt.run("return double(2);", lang="plan")
    assert ok.partial == {} and "partial" not in ok.to_json()


@pytest.mark.parametrize("lang", ["plan", "json"])
def test_run_async_inside_a_loop_logs_too(tools: Tools, lang: str) -> None:
    rt = make_runtime(tools)
    program = (
        "return fetch({key: 'abc', seconds: 0.01});"
        if lang == "plan"
        else {"fetch": {"key": "abc", "seconds": 0.01}}
    )

    async def main() -> Any:
        return await rt.run_async(program, lang=lang)

    out = asyncio.run(main())
    assert out.value == {"key": "abc", "value": 3}
    [call] = out.calls
    assert call["status"] == "done" and call["duration"] >= 0.005
