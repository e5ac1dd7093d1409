"""NESTFUL and BFCL files as batches: gold calls as programs against stubs of the corpus's own
function documents (a bounded sample of the real files in ../shared/corpora)."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest
from batch_corpus import by_id

from dialectic import Runtime
from dialectic.batch.corpora import bfcl_items, nestful_items, sniff
from dialectic.batch.driver import run_batch
from dialectic.batch.items import BatchItem, Runner, RuntimeSpec
from dialectic.batch.jsonl import read_items
from dialectic.batch.stubs import stub_description

CORPORA = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora"
NESTFUL = CORPORA / "nestful" / "nestful_last360.json"
BFCL = CORPORA / "bfcl"
SPEC = RuntimeSpec.make(entry_points=False)

needs_corpora = pytest.mark.skipif(not NESTFUL.exists(), reason="../shared/corpora is absent")


@needs_corpora
def test_files_are_recognized() -> None:
    assert sniff(NESTFUL) == "nestful"
    assert sniff(BFCL / "BFCL_v4_simple_python.json") == "bfcl"
    assert sniff(BFCL / "possible_answer" / "BFCL_v4_simple_python.json") is None


@needs_corpora
def test_nestful_gold_sequences_replay_against_stubs(tmp_path: Path) -> None:
    rows = orjson.loads(NESTFUL.read_bytes())[:40]
    sample = tmp_path / "nestful_sample.json"
    sample.write_bytes(orjson.dumps(rows))
    out = tmp_path / "out.jsonl"
    summary = run_batch(sample, out, spec=SPEC, progress=False)
    assert summary["success"] == 40
    records = {r["id"]: r for r in map(orjson.loads, out.read_bytes().splitlines())}
    for row in rows:
        rec = records[row["sample_id"]]
        calls = orjson.loads(row["output"])
        value = rec["outcome"]["value"]
        # the value is the last call's echo; its arguments hold the earlier calls' echoes
        assert value["function"] == calls[-1]["name"]
        assert len(value["arguments"]) == len(calls[-1]["arguments"])
        assert rec["expected"] == row["gold_answer"]
        assert "NESTFUL sequence" in rec["outcome"]["warnings"][0]


@needs_corpora
def test_bfcl_gold_answers_replay_against_checked_stubs(tmp_path: Path) -> None:
    folder = tmp_path / "bfcl"
    (folder / "possible_answer").mkdir(parents=True)
    name = "BFCL_v4_parallel_multiple.json"
    lines = (BFCL / name).read_bytes().splitlines()[:30]
    (folder / name).write_bytes(b"\n".join(lines) + b"\n")
    shutil.copy(BFCL / "possible_answer" / name, folder / "possible_answer" / name)
    out = tmp_path / "out.jsonl"
    run_batch(folder / name, out, spec=SPEC, progress=False)
    outcomes = by_id(out)
    assert len(outcomes) == 30
    failed = {k: o["error"]["code"] for k, o in outcomes.items() if o["status"] != "success"}
    # the stubs check the gold answers against their documents: 26 passes `type` to
    # bank.calculate_balance, which declares no such parameter; 21 passes the Python text
    # "data['sales']" where an array of numbers is declared
    assert failed == {
        "parallel_multiple_21": "invalid_argument",
        "parallel_multiple_26": "unknown_parameter",
    }
    first = orjson.loads(lines[0])
    truth = next(
        orjson.loads(x)["ground_truth"]
        for x in (BFCL / "possible_answer" / name).read_bytes().splitlines()
        if orjson.loads(x)["id"] == first["id"]
    )
    value = outcomes[first["id"]]["value"]
    assert [v["function"] for v in value] == [next(iter(c)) for c in truth]
    for call, echo in zip(truth, value, strict=True):
        ((_, params),) = call.items()
        for key, acceptable in params.items():
            if acceptable[0] != "":
                assert echo["arguments"][key] == acceptable[0]


@needs_corpora
def test_bfcl_stubs_check_a_models_program() -> None:
    """The same stubs judge a model's program: a wrong name, a missing required argument and a
    wrong type fail as against the real function."""
    row = orjson.loads((BFCL / "BFCL_v4_simple_python.json").read_bytes().splitlines()[0])
    docs = tuple(row["function"])
    runner = Runner(SPEC)
    good = '{"calculate_triangle_area": {"base": 10, "height": 5}}'
    cases = {
        good: "success",
        '{"calculate_triangle_area": {"base": 10}}': "missing_argument",
        '{"calculate_triangle_area": {"base": "ten", "height": 5}}': "type_mismatch",
        '{"triangle_area": {"base": 10, "height": 5}}': "unknown_function",
    }
    import asyncio

    for program, expected in cases.items():
        rec = asyncio.run(runner.record(BatchItem("x", program, "json", functions=docs)))
        outcome = rec["outcome"]
        got = outcome["status"] if outcome["status"] == "success" else outcome["error"]["code"]
        assert got == expected, (program, outcome)


def test_stub_documents_in_every_shape() -> None:
    bfcl = stub_description(
        {
            "name": "math.hypot",
            "parameters": {
                "type": "dict",
                "properties": {"x": {"type": "integer"}, "z": {"type": "float"}},
                "required": ["x"],
            },
        }
    )
    openai = stub_description(
        {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
    )
    nestful = stub_description({"name": "add", "parameters": {"arg_0": {"type": "int or float"}}})
    rt = Runtime(load_entry_points=False)
    rt.register(bfcl, openai, nestful)
    assert rt.run('{"math.hypot": {"x": 3}}').value == {
        "function": "math.hypot",
        "arguments": {"x": 3},
    }
    assert rt.run('{"add": [2]}').value == {"function": "add", "arguments": {"arg_0": 2}}
    assert rt.run('{"f": {}}').value == {"function": "f", "arguments": {}}
    bad = asyncio_record(BatchItem("b", '{"g": {}}', "json", functions=({"nameless": 1},)))
    assert bad["outcome"]["error"]["code"] == "invalid_functions"


def asyncio_record(item: BatchItem) -> dict[str, Any]:
    import asyncio

    return asyncio.run(Runner(SPEC).record(item))


@needs_corpora
def test_every_corpus_file_reads(tmp_path: Path) -> None:
    """Every BFCL category and NESTFUL read to items with programs (the first few of each)."""
    for path in [NESTFUL, *sorted(BFCL.glob("BFCL_v4_*.json"))]:
        items = list(itertools.islice(read_items(path), 5))
        assert len(items) == 5, path
        assert all(i.problem is None and i.functions for i in items), path
    assert next(nestful_items(NESTFUL)).expected is not None
    assert next(bfcl_items(BFCL / "BFCL_v4_live_simple.json")).expected is not None
