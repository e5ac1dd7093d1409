"""Plan-corpus analysis: records, summaries, corpus reading, output formats, CLI, NESTFUL."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dialectic.tools.analysis import (
    PlanRecord,
    Program,
    analyze,
    analyze_program,
    analyze_tree,
    call_arguments,
    nestful_to_tree,
    normalize_error,
    read_nestful,
    records_csv,
    summarize,
    summary_csv,
    to_json,
    to_table,
    value_type,
)
from dialectic.tools.commands.analyze import command

NESTFUL = (
    Path(__file__).resolve().parents[2]
    / ".."
    / "shared"
    / "corpora"
    / "nestful"
    / ("nestful_last360.json")
)
#: the one optional input: a corpus kept beside the repository, not in it (absent on a clone)
NESTFUL_ABSENT = "the shared NESTFUL corpus (../shared/corpora/nestful) is not beside the repo"

SEED_000 = {
    "$return": {
        "domainC": {
            "slot3": {"$get": [{"domainA": {"slot1": "foo"}}, "field1"]},
            "slot4": {"$get": [{"domainB": {"slot2": "bar"}}, 0, "field2"]},
        }
    }
}

PLAN2 = """\
a:
  domainA:
    slot1: foo
  domainB:
    slot2: bar
orphan:
  flights:
    origin: SFO
result:
  domainC:
    slot3: ${a.domainA.field1}
    slot4: ${a.domainB[0].field2} on ${tomorrow}
"""

PLAN = """\
flight = flightInfo({airline: 'AA', flight: 1234});
return other({start: flight.departs, end: flight.arrives});
"""


def test_value_types_and_arguments() -> None:
    assert [value_type(v) for v in ("x", 1, 1.5, True, None, [1], {"a": 1, "b": 2})] == [
        "string",
        "number",
        "number",
        "boolean",
        "null",
        "array",
        "object",
    ]
    assert value_type({"f": 1}) == "call"
    assert value_type({"$ref": "x"}) == "reference"
    assert value_type({"$template": []}) == "template"
    assert call_arguments({"a": 1, "b": 2}) == [("a", 1), ("b", 2)]
    assert call_arguments([{"$object": {"a": 1}}]) == [("a", 1)]
    assert call_arguments([{"a": 1, "b": 2}]) == [("a", 1), ("b", 2)]
    assert call_arguments([1, 2]) == [("#0", 1), ("#1", 2)]
    assert call_arguments([{"g": 1}]) == [("#0", {"g": 1})]  # a nested call, positional
    assert call_arguments({"$ref": "x"}) == [("#0", {"$ref": "x"})]
    assert call_arguments(5) == [("#0", 5)]


def test_concurrency_of_seed_000() -> None:
    r = analyze_tree(SEED_000, PlanRecord("s", "json"))
    assert r.status == "ok"
    assert r.domains == {"domainC": 1, "domainA": 1, "domainB": 1}
    assert r.calls == r.reachable_calls == 3
    assert (r.depth, r.width) == (2, 2)  # domainA and domainB at once, then domainC
    assert r.slots["domainC"] == {"slot3": 1, "slot4": 1}
    assert r.arg_types == {"member": 2, "string": 2}


def test_plan2_record_counts_orphans_and_identifiers() -> None:
    r = analyze_program(PLAN2, "plan2", "p")
    assert r.status == "ok", r.error
    assert r.lang == "plan2"
    assert r.calls == 4 and r.reachable_calls == 3
    assert r.aliases == 3 and r.unused_aliases == 1
    assert (r.depth, r.width) == (2, 2)
    assert r.identifiers == {"tomorrow": 1}
    assert r.slot_types["domainC.slot4"] == {"template": 1}


def test_chain_depth_and_width() -> None:
    tree = {
        "$let": {
            "a": {"f": {"x": 1}},
            "b": {"f": {"x": {"$ref": "a"}}},
            "c": {"f": {"x": {"$ref": "b"}}},
            "d": {"g": [1]},
            "e": {"g": [2]},
        },
        "$return": [{"$ref": "c"}, {"$ref": "d"}, {"$ref": "e"}, {"$ref": "b"}],
    }
    r = analyze_tree(tree, PlanRecord("t", "json"))
    assert (r.depth, r.width, r.reachable_calls) == (3, 3, 5)


def test_cycles_and_invalid_programs_are_compile_errors() -> None:
    cyc = {
        "$let": {"a": {"f": [{"$ref": "b"}]}, "b": {"f": [{"$ref": "a"}]}},
        "$return": {"$ref": "a"},
    }
    r = analyze_tree(cyc, PlanRecord("c", "json"))
    assert r.status == "compile_error" and r.error_code == "cycle"
    assert "a -> b -> a" in (r.error or "")
    bad = analyze_tree({"$nope": 1}, PlanRecord("b", "json"))
    assert bad.status == "compile_error" and bad.error_code == "invalid_program"


def test_parse_errors_are_recorded_with_location() -> None:
    r = analyze_program("result: ${a..b}\n", "plan2")
    assert r.status == "parse_error" and r.error_code == "syntax_error"
    assert r.error is not None and r.error.startswith("line 1, column 13:")
    j = analyze_program("{not json", "json")
    assert j.status == "parse_error"


def test_normalize_error_groups_specifics() -> None:
    a = normalize_error("line 3, column 4: in `result.car.x`: unknown `foo`")
    b = normalize_error("line 9, column 1: in `a.b`: unknown `bar`")
    assert a == b == "in `…`: unknown `…`"


def test_corpus_of_files_folders_and_jsonl(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.yaml").write_text(PLAN2)
    (tmp_path / "sub" / "b.plan").write_text(PLAN)
    (tmp_path / "c.json").write_text(json.dumps(SEED_000))
    (tmp_path / "ignored.txt").write_text("nothing")
    lines = [
        json.dumps(SEED_000),
        json.dumps({"id": "p1", "lang": "plan", "program": PLAN}),
        json.dumps({"plan": PLAN2}),  # source text, notation detected
        json.dumps({"program": SEED_000, "id": "tree"}),
        "",
        "{broken",
    ]
    (tmp_path / "d.jsonl").write_text("\n".join(lines) + "\n")
    records = analyze([tmp_path], progress=False)
    assert len(records) == 8
    by_id = {r.id: r for r in records}
    assert by_id["p1"].lang == "plan" and by_id["p1"].status == "ok"
    assert by_id["tree"].calls == 3
    assert sum(r.status == "parse_error" for r in records) == 1
    langs = sorted(r.lang for r in records)
    assert langs.count("plan2") == 2 and langs.count("plan") == 2

    summary = summarize(records)
    assert summary.plans == 8
    assert summary.parse_failure_rate == pytest.approx(1 / 8, abs=1e-4)
    assert summary.domains["domainC"] == 5
    assert summary.domain_plans["domainC"] == 5
    assert summary.slots["domainC"] == {"slot3": 5, "slot4": 5}
    assert summary.top_errors[0]["count"] == 1
    assert summary.depth["max"] == 2

    table = to_table(summary)
    assert "Domains" in table and "domainC" in table and "parse_error" in table
    data = json.loads(to_json(records, summary))
    assert data["summary"]["plans"] == 8 and len(data["records"]) == 8
    rows = list(csv.DictReader(io.StringIO(records_csv(records))))
    assert len(rows) == 8 and rows[0].keys() >= {"id", "status", "depth", "width", "domains"}
    long = list(csv.reader(io.StringIO(summary_csv(summary))))
    assert ["slots", "domainC", "slot3", "5"] in long


def test_programs_and_trees_directly() -> None:
    records = analyze([Program(PLAN2, "plan2", "x"), SEED_000], progress=False)
    assert [r.id for r in records] == ["x", "#1"]


def test_cli_formats(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text("\n".join(json.dumps(SEED_000) for _ in range(3)) + "\n")
    runner = CliRunner()
    table = runner.invoke(command, [str(path)])
    assert table.exit_code == 0, table.output
    assert "3 plans" in table.output
    js = runner.invoke(command, [str(path), "--format", "json", "--summary-only"])
    assert json.loads(js.output)["summary"]["domains"]["domainA"] == 3
    rows = runner.invoke(command, [str(path), "--format", "csv"])
    assert rows.output.count("\n") == 4
    (tmp_path / "c.expected.json").write_text("{}")
    skipped = runner.invoke(
        command,
        [str(tmp_path), "--exclude", "*.expected.json", "--format", "json", "--summary-only"],
    )
    assert json.loads(skipped.output)["summary"]["plans"] == 3
    empty = tmp_path / "empty"
    empty.mkdir()
    none = runner.invoke(command, [str(empty)])
    assert none.exit_code == 1


def test_compile_against_a_registry(tmp_path: Path) -> None:
    import dialectic_travel.fixtures as fixtures
    import dialectic_travel.plugin as travel

    from dialectic import Runtime

    rt = Runtime(plugins=(travel, fixtures), load_entry_points=False)
    good = analyze_program(SEED_000, runtime=rt)
    assert good.status == "ok"
    bad = analyze_program({"$return": {"domainZ": {"slot1": 1}}}, runtime=rt)
    assert bad.status == "compile_error" and "domainZ" in (bad.error or "")
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(SEED_000) + "\n" + json.dumps({"nope": {"a": 1}}) + "\n")
    out = CliRunner().invoke(
        command,
        [
            str(path),
            *("-p", "dialectic_travel.plugin", "-p", "dialectic_travel.fixtures"),
            *("--format", "json", "--summary-only"),
        ],
    )
    assert out.exit_code == 0, out.output
    summary = json.loads(out.output)["summary"]
    assert summary["status"] == {"ok": 1, "compile_error": 1}
    assert summary["compile_failure_rate"] == 0.5


def test_nestful_conversion() -> None:
    calls: list[dict[str, Any]] = [
        {"name": "multiply", "label": "$var_1", "arguments": {"arg_0": 350, "arg_1": 2}},
        {"name": "divide", "label": "$var_2", "arguments": {"arg_0": "$var_1.result$", "arg_1": 5}},
        {
            "name": "pack",
            "label": "$var3",
            "arguments": {"items": ["$var_2.output_0$"], "opts": {"k": 1}},
        },
    ]
    tree = nestful_to_tree(calls)
    assert tree["$let"]["var_2"] == {"divide": {"arg_0": {"$ref": "var_1"}, "arg_1": 5}}
    assert tree["$let"]["var3"] == {
        "pack": {"items": [{"$ref": "var_2"}], "opts": {"$object": {"k": 1}}}
    }
    assert tree["$return"] == {"$ref": "var3"}
    r = analyze_tree(tree, PlanRecord("n", "json"))
    assert (r.depth, r.width) == (3, 1)


@pytest.mark.skipif(not NESTFUL.exists(), reason=NESTFUL_ABSENT)
def test_nestful_corpus() -> None:
    records = analyze(read_nestful(NESTFUL), progress=False)
    assert len(records) == 360
    assert all(r.status == "ok" for r in records)
    summary = summarize(records)
    assert list(summary.domains)[:2] == ["divide", "multiply"]
    assert summary.depth["max"] >= 5 and summary.width["max"] >= 3
    runner = CliRunner()
    out = runner.invoke(command, ["--nestful", str(NESTFUL), "--top", "5"])
    assert out.exit_code == 0 and "divide" in out.output


@pytest.mark.skipif(not NESTFUL.exists(), reason=NESTFUL_ABSENT)
def test_nestful_rows_run_on_the_runtime() -> None:
    from dialectic import FunctionDescription, Runtime

    rt = Runtime(load_entry_points=False)
    maths = {
        "add": lambda arg_0, arg_1: arg_0 + arg_1,
        "subtract": lambda arg_0, arg_1: arg_0 - arg_1,
        "multiply": lambda arg_0, arg_1: arg_0 * arg_1,
        "divide": lambda arg_0, arg_1: arg_0 / arg_1,
    }
    rt.register(
        *(
            FunctionDescription(n, n, f, {"arg_0": "number", "arg_1": "number"})
            for n, f in maths.items()
        )
    )
    rows = json.loads(NESTFUL.read_text())
    checked = 0
    for row in rows:
        calls = json.loads(row["output"])
        if not all(c["name"] in maths for c in calls):
            continue
        out = rt.run(nestful_to_tree(calls), lang="json")
        assert out.status == "success", out.message
        gold = float(row["gold_answer"])
        decimals = len(row["gold_answer"].split(".")[1]) if "." in row["gold_answer"] else 0
        if round(float(out.value), decimals) == round(gold, decimals):
            checked += 1
    assert checked > 150
