"""Hostile input against the surfaces added with JSON Schema parameters, envelopes, journals,
the call log and its timeline, and batches: each run ends in a clean outcome (no traceback,
no hang, no wrong success), in bounded time."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from dialectic import FunctionDescription, Outcome, Runtime
from dialectic.outcome.errors import Failure, PluginError
from dialectic.registry.jsonschema import SchemaArguments, function_from_schema
from dialectic.run.journal import DONE, IN_FLIGHT, JsonlJournal, SqliteJournal
from dialectic.tools.timeline import html_timeline, text_timeline

LEAKS = ("Traceback", "RecursionError", 'File "')


def check_outcome(out: Outcome) -> Outcome:
    """``out`` is one of the three outcomes, no internal error, JSON a model could be shown."""
    assert out.status in ("success", "failure", "ambiguous"), out.status
    if out.status == "failure":
        assert out.error is not None and out.error.code != "internal_error", out.message
    text = json.dumps(out.to_json(calls=True), ensure_ascii=False, allow_nan=False)
    text.encode("utf-8")
    if out.status != "success":
        assert not any(leak in text for leak in LEAKS), text[:2000]
    return out


# a generous bound for "did not hang": the unguarded cases take minutes
QUICK = 10.0


def echo(**kwargs: Any) -> Any:
    return kwargs


def schema_rt(schema: dict[str, Any], name: str = "f") -> Runtime:
    rt = Runtime(plugins=[], load_entry_points=False)
    rt.register(function_from_schema(name, "test function", echo, schema, namespace="ns"))
    return rt


def run(rt: Runtime, **args: Any) -> Any:
    started = time.monotonic()
    out = rt.run({"ns.f": {k: {"$quote": v} for k, v in args.items()}})
    assert time.monotonic() - started < QUICK
    return check_outcome(out)


# -- regular expressions of a schema against the model's texts --------------------------------

EVIL = "^(a+)+$"  # catastrophic backtracking in Python's re: minutes for 30 characters


def test_a_backtracking_pattern_against_a_long_argument_is_answered_at_once() -> None:
    rt = schema_rt({"type": "object", "properties": {"s": {"type": "string", "pattern": EVIL}}})
    out = run(rt, s="a" * 5000 + "!")
    assert out.status == "failure" and "does not match" in str(out.message)
    assert run(rt, s="a" * 5000).status == "success"


def test_a_pattern_re2_cannot_run_is_matched_under_a_time_limit() -> None:
    pytest.importorskip("regex")
    look = "^(?=a)(a|aa)+$"  # a lookahead: not RE2's; backtracks in the regex module too
    rt = schema_rt({"type": "object", "properties": {"s": {"type": "string", "pattern": look}}})
    assert run(rt, s="aaa").status == "success"
    out = run(rt, s="a" * 5000 + "!")
    assert out.status == "failure" and "could not be matched" in str(out.message)


def test_pattern_properties_against_hostile_keys() -> None:
    schema = {
        "type": "object",
        "properties": {
            "o": {
                "type": "object",
                "patternProperties": {EVIL: {"type": "integer"}},
                "additionalProperties": False,
            }
        },
    }
    rt = schema_rt(schema)
    bad = run(rt, o={"a" * 3000 + "!": 1})
    assert bad.status == "failure" and "unexpected field" in str(bad.message)
    good = run(rt, o={"a" * 3000: 1})
    assert good.status == "success", good.message
    typed = run(rt, o={"aaa": "x"})  # the pattern's subschema still applies
    assert typed.status == "failure" and "integer" in str(typed.message)


def test_unevaluated_properties_with_pattern_properties_is_refused_at_import() -> None:
    schema = {
        "type": "object",
        "properties": {"o": {"patternProperties": {"^x": {}}, "unevaluatedProperties": False}},
    }
    with pytest.raises(PluginError, match="unevaluatedProperties"):
        function_from_schema("f", "", echo, schema)


def test_format_regex_with_a_pathological_text() -> None:
    rt = schema_rt({"type": "object", "properties": {"r": {"type": "string", "format": "regex"}}})
    out = run(rt, r="(" * 5000)
    assert out.status == "failure" and "not a valid regex" in str(out.message)
    assert run(rt, r="^a+$").status == "success"


# -- depth, references, enums ----------------------------------------------------------------

TREE = {
    "type": "object",
    "properties": {"o": {"$ref": "#/$defs/T"}},
    "$defs": {"T": {"type": "object", "additionalProperties": {"$ref": "#/$defs/T"}}},
}


def test_a_deep_json_text_read_as_an_object_is_refused_with_its_place() -> None:
    rt = schema_rt(TREE)
    for depth in (150, 1000):
        out = run(rt, o='{"a":' * depth + "{}" + "}" * depth)
        assert out.status == "failure", depth
        assert "nested more than 100 levels" in str(out.message) and "`o.a.a" in str(out.message)
        assert out.error is not None and out.error.code == "invalid_argument"
    assert run(rt, o='{"a":' * 90 + "{}" + "}" * 90).status == "success"


def test_a_deep_result_is_refused_by_its_output_schema() -> None:
    checker = SchemaArguments(
        "f", {"type": "object"}, {"type": "object", "additionalProperties": {"$ref": "#"}}
    )
    value: dict[str, Any] = {}
    for _ in range(500):
        value = {"a": value}
    with pytest.raises(Failure, match="nested more than 100 levels"):
        checker.check_result(value)
    checker.check_result({"a": {"b": {}}})


def test_a_long_chain_of_references_is_refused_at_import() -> None:
    defs: dict[str, Any] = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(2000)}
    defs["d2000"] = {"type": "integer"}
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}
    with pytest.raises(PluginError, match="more than 32 references in a row"):
        function_from_schema("f", "", echo, schema)
    short = dict(schema, **{"$defs": {"d0": {"$ref": "#/$defs/d1"}, "d1": {"type": "integer"}}})
    rt = schema_rt(short)
    assert run(rt, x="5").value == {"x": 5}


def test_a_huge_enum_is_looked_up_not_scanned() -> None:
    choices: list[Any] = [*range(100_000), "last", 2.5, True]
    rt = schema_rt({"type": "object", "properties": {"e": {"enum": choices}}})
    started = time.monotonic()
    for _ in range(50):
        assert run(rt, e=99_999).status == "success"
        assert run(rt, e="99999").value == {"e": 99_999}  # the text read as the choice
    assert time.monotonic() - started < QUICK
    out = run(rt, e="nope")
    assert out.status == "failure" and "(and " in str(out.message)  # the choices, clipped
    assert run(rt, e=True).value == {"e": True}
    assert run(rt, e=1).value == {"e": 1}  # 1 is a choice and true is another: no mix-up
    assert run(rt, e=2.5).status == "success"
    assert run(rt, e=[1]).status == "failure"


# -- envelopes: a Llama tool call with a namespaced function's bare name ----------------------


@pytest.fixture(scope="module")
def spaces() -> Runtime:
    rt = Runtime(plugins=[], load_entry_points=False)
    for ns in ("memory", "docs"):
        rt.register(
            FunctionDescription(
                "search", "", lambda q, ns=ns: ns, {"q": "any"}, "any", namespace=ns
            )
        )
    rt.register(
        FunctionDescription("lookup", "", lambda q: q, {"q": "any"}, "any", namespace="memory")
    )
    return rt


def test_a_llama_call_of_a_bare_name_runs_the_one_namespaced_function(spaces: Runtime) -> None:
    out = check_outcome(spaces.run({"name": "lookup", "parameters": {"q": 7}}))
    assert out.status == "success" and out.value == 7
    out = check_outcome(spaces.run({"name": "memory__lookup", "parameters": {"q": 8}}))
    assert out.value == 8


def test_a_llama_call_of_a_bare_name_two_namespaces_have_names_both(spaces: Runtime) -> None:
    out = check_outcome(spaces.run({"name": "search", "parameters": {"q": 1}}))
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "ambiguous_function"
    assert "docs.search" in str(out.message) and "memory.search" in str(out.message)


def test_an_almost_llama_call_of_a_bare_name_is_neither_call_nor_data(spaces: Runtime) -> None:
    program: Any
    for program in (
        {"name": "lookup", "parameters": [1]},
        {"name": "lookup", "parameters": {"q": 1}, "extra": 1},
    ):
        out = check_outcome(spaces.run(program))
        assert out.status == "failure", program  # before: returned as data, or another error
        assert "looks like a Llama JSON tool call" in str(out.message)
    unknown = check_outcome(spaces.run({"name": "nope", "parameters": {"q": 1}}))
    assert unknown.status == "failure" and "could be read two ways" in str(unknown.message)


def test_dunder_names_through_namespaces_reach_nothing(spaces: Runtime) -> None:
    program: Any
    for program in (
        {"memory.__class__": {}},
        {"memory.__init__": {}},
        {"__proto__.search": {"q": 1}},
        "return memory.__class__({q: 1});",
        "return memory.__proto__.search({q: 1});",
        {"name": "__class__", "parameters": {}},
        {"name": "lookup", "parameters": '{"__proto__": 1}'},
    ):
        out = check_outcome(spaces.run(program))
        assert out.status == "failure", program


# -- journals with garbage --------------------------------------------------------------------


def test_a_jsonl_journal_with_garbage_lines_keeps_only_its_own(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    good = {"program": "p", "path": "a", "arguments": "{}", "status": DONE, "result": 5}
    lines = [
        "[" * 100_000,
        "not json",
        "[1, 2]",
        '"text"',
        json.dumps({"program": ["unhashable"], "path": "a", "arguments": "{}", "status": DONE}),
        json.dumps({"program": "p", "path": {"x": 1}, "arguments": "{}", "status": DONE}),
        json.dumps({"program": "p", "path": "b", "arguments": "{}", "status": 5}),
        json.dumps(good),
        "\x00\x01 torn",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")
    journal = JsonlJournal(path)
    try:
        assert len(journal) == 1
        assert journal.get(("p", "a", "{}")) == (DONE, 5)
    finally:
        journal.close()


def test_a_sqlite_journal_row_that_does_not_parse_is_not_replayed(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    journal = SqliteJournal(path)
    journal.done(("p", "a", "{}"), "f", {"x": 1})
    journal.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE calls SET result = ?", ("{not json" + "[" * 5000,))
    db.commit()
    db.close()
    journal = SqliteJournal(path)
    try:
        assert journal.get(("p", "a", "{}")) == (IN_FLIGHT, None)
    finally:
        journal.close()


# -- the timeline and the call log -----------------------------------------------------------

HOSTILE = '</script><svg onload=alert(1)><img src=x onerror="alert(2)">&amp;'


def test_the_html_timeline_escapes_names_paths_and_statuses() -> None:
    calls: list[dict[str, Any]] = [
        {"function": HOSTILE, "path": HOSTILE, "status": "done", "start": 0.0, "duration": 0.1},
        {"function": "f", "path": "p", "status": HOSTILE, "start": 0.05, "duration": None},
        {"function": HOSTILE, "path": "q", "status": "not_started", "start": None},
    ]
    page = html_timeline(calls, title=HOSTILE)
    assert page.count("<svg") == 1 and "<script" not in page and "<img" not in page
    assert "onload=alert" not in page.replace("&lt;svg onload=alert", "")
    assert '"alert(2)"' not in page  # the quotes too: no attribute breaks out
    assert "&lt;/script&gt;" in page
    assert HOSTILE[:20] in text_timeline(calls)  # text: the names as they are


def test_the_text_timeline_escapes_control_characters_of_paths() -> None:
    rt = hostile_rt()
    keys = ["\x1b]0;pwned\x07", "b\nFAKE LINE", "c\u2028d"]
    out = check_outcome(rt.run({"$return": {k: {"take": {"x": 1}} for k in keys}}))
    text = text_timeline(out.calls)
    assert text.count("\n") == 1 + len(keys)  # a header, a column line, a line per call
    assert "\x1b" not in text and "\x07" not in text and "\u2028" not in text
    assert "\\x1b]0;pwned\\x07" in text and "b\\nFAKE LINE" in text


def hostile_rt() -> Runtime:
    rt = Runtime(plugins=[], load_entry_points=False)
    rt.register(FunctionDescription("take", "", lambda x: 1, {"x": "any"}, "integer"))
    return rt


def test_the_call_log_bounds_huge_and_deep_arguments() -> None:
    rt = hostile_rt()
    deep: Any = 1
    for _ in range(95):
        deep = [deep]
    program = {
        "$let": {
            "a": {"take": {"x": {"$quote": deep}}},
            "b": {"take": {"x": "y" * 100_000}},
            "c": {"take": {"x": 2**80}},
            "e": {"take": {"x": 'quote " and \\ slash'}},
        },
        "$return": [{"$ref": "a"}, {"$ref": "b"}, {"$ref": "c"}, {"$ref": "e"}],
    }
    out = check_outcome(rt.run(program))
    assert out.status == "success", out.message
    data = out.to_json(calls=True)
    json.dumps(data, allow_nan=False).encode("utf-8")
    by_path = {c["path"].rsplit(".", 1)[-1]: c for c in data["calls"]}
    assert by_path["a"]["arguments"]["x"] == deep
    assert "bytes of JSON: not shown" in by_path["b"]["arguments"]["x"]
    assert by_path["b"]["truncated"] is True
    assert by_path["e"]["arguments"] == {"x": 'quote " and \\ slash'}
    for c in data["calls"]:
        assert len(json.dumps(c["arguments"])) < 3000


def test_calls_never_started_are_listed_per_program_from_a_cached_walk() -> None:
    rt = hostile_rt()
    lazy = {"$let": {"a": {"take": {"x": 1}}, "b": {"take": {"x": 2}}}, "$return": {"$ref": "a"}}
    both = {"$return": [{"take": {"x": {"$quote": [1]}}}, {"take": {"x": 3}}]}
    for program, statuses in ((lazy, ["done", "not_started"]), (both, ["done", "done"])):
        prepared = rt.prepare(program)
        for _ in range(3):  # the walk is cached per tree: the same answer each time
            calls = prepared.run().to_json(calls=True)["calls"]
            assert [c["status"] for c in calls] == statuses, calls
    calls = rt.run(lazy).to_json(calls=True)["calls"]
    assert calls[1] == {
        "function": "take",
        "path": "program.$let.b",
        "status": "not_started",
        "arguments": None,
        "start": None,
        "duration": None,
    }


# -- batches ----------------------------------------------------------------------------------


def test_hostile_batch_lines_become_clean_records(tmp_path: Path) -> None:
    from dialectic.batch.driver import run_batch
    from dialectic.batch.items import RuntimeSpec

    doc = {"name": "g", "parameters": {"type": "object", "properties": {"x": {"pattern": EVIL}}}}
    deep = "[" * 300 + "]" * 300
    lines = [
        "[" * 100_000,
        '{"id": "deep-docs", "program": "return 1;", "functions": [' + deep + "]}",
        '{"id": "deep-type", "program": "return h(1);", "functions": [{"name": "h", '
        '"parameters": {"a": {"type": ' + deep + "}}}]}",
        json.dumps(
            {"id": "redos", "program": f"return g({{x: '{'a' * 5000}!'}});", "functions": [doc]}
        ),
        json.dumps({"id": "junk-docs", "program": "return f(1);", "functions": [1, None, {}]}),
        json.dumps({"id": "proto", "program": "return __proto__;", "context": {"__proto__": 1}}),
        json.dumps(
            {"id": "llama", "program": {"name": "g", "parameters": {"x": "aa"}}, "functions": [doc]}
        ),
    ]
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    started = time.monotonic()
    summary = run_batch(src, out, spec=RuntimeSpec.make([], entry_points=False), progress=False)
    assert time.monotonic() - started < QUICK
    records = {r["id"]: r["outcome"] for r in map(json.loads, out.read_text().splitlines())}
    assert len(records) == len(lines)
    assert "internal_error" not in summary["failure_codes"], summary
    for ident, outcome in records.items():
        text = json.dumps(outcome)
        assert not any(leak in text for leak in LEAKS), (ident, text[:500])
    assert records["line-1"]["error"]["code"] == "invalid_batch_line"
    assert "cannot be read" in records["deep-docs"]["message"]
    assert "does not match" in records["redos"]["message"]
    assert records["llama"]["status"] == "success"
    assert records["proto"]["error"]["code"] == "forbidden_member"


# -- importers and the catalog search ---------------------------------------------------------


def test_a_bfcl_document_with_unhashable_types_is_a_plugin_error() -> None:
    from dialectic.registry.importers import from_bfcl

    for params in (
        {"type": "dict", "properties": {"a": {"type": {"x": 1}}}, "optional": [[1]]},
        {"type": "dict", "properties": {"a": {"type": ["string", {"x": 1}]}}},
    ):
        with pytest.raises(PluginError, match="not valid JSON Schema"):
            from_bfcl({"name": "f", "parameters": params}, echo)


def test_the_catalog_search_takes_any_limit_a_model_sends(spaces: Runtime) -> None:
    from dialectic.tools.search import search_functions

    for limit in ("ten", None, float("inf"), 10**100, -5):
        found = search_functions(spaces, "search", limit=limit)  # type: ignore[arg-type]
        assert [f["name"] for f in found][:1] in (["docs.search"], ["memory.search"])


def test_a_comparator_that_negates_one_argument_sorts_as_javascript_does() -> None:
    # found by tests/hostile/test_fuzz_text.py: `-a` is an Op "-" of one operand
    rt = Runtime(plugins=[], load_entry_points=False)
    for program in (
        "return [3, 1, 2].toSorted((a, b) => -a);",
        "return [3, 1, 2].toSorted((a, b) => -b);",
    ):
        out = check_outcome(rt.run(program))
        assert out.value == [2, 1, 3], out.message  # Node.js gives [2, 1, 3] for both
