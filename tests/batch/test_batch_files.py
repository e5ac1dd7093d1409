"""``dialectic batch`` locally: the JSON Lines formats, bad input lines, resuming (a killed CLI,
a torn last line), the progress bar and the summary."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest
from batch_corpus import by_id, mixed_records, read_records, timeless, write_jsonl
from click.testing import CliRunner

from dialectic import Runtime
from dialectic.batch.driver import run_batch
from dialectic.batch.items import RuntimeSpec
from dialectic.batch.jsonl import BatchInputError, OutputFile, read_done, read_items
from dialectic.tools.cli import main

HERE = Path(__file__).parent
SPEC = RuntimeSpec.make(["batch_plugin"], entry_points=False)
CLI = [sys.executable, "-m", "dialectic.tools.cli"]


def test_records_hold_id_outcome_timings(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", mixed_records(12))
    out = tmp_path / "out.jsonl"
    summary = run_batch(src, out, spec=SPEC, concurrency=4, progress=False)
    records = read_records(out)
    assert len(records) == 12
    rt = Runtime(plugins=["batch_plugin"], load_entry_points=False)
    for rec in records:
        src_rec = next(r for r in mixed_records(12) if r["id"] == rec["id"])
        expected = rt.run(
            src_rec["program"], context=src_rec.get("context"), lang=src_rec.get("lang")
        )
        assert timeless(rec["outcome"]) == timeless(expected.to_json(calls=True))
        assert set(rec["timings"]) == {"prepare_ms", "run_ms"}
    assert (summary["success"], summary["failure"], summary["ambiguous"]) == (6, 4, 2)
    first = next(r for r in records if r["id"] == "p000")
    if "calls" in first["outcome"]:  # the call log (SPEC 18) comes with every record
        assert [c["function"] for c in first["outcome"]["calls"]] == ["double"]
    assert summary["failure_codes"] == {"failure": 2, "unknown_function": 2}


def test_bad_lines_become_located_failures(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text(
        '{"id": "ok", "program": "return double(1);"}\n'
        "\n"
        "{not json\n"
        '{"id": "x", "program": "return 1;", "contxt": {}}\n'
        '{"id": "y", "program": "return 1;", "context": [1]}\n'
        '["just", "a", "list"]\n'
        '{"id": 123456789012345678901234567890, "program": "return 1;"}\n'
    )
    items = {i.id: i for i in read_items(src)}
    assert set(items) == {"ok", "line-3", "x", "y", "line-6", "line-7"}
    assert "not an integer within 64 bits" in items["line-7"].problem.message  # type: ignore[union-attr]
    problems = {k: v.problem for k, v in items.items() if v.problem is not None}
    assert problems["line-3"].path == "line 3" and "not JSON" in problems["line-3"].message
    assert "unknown field(s) contxt" in problems["x"].message
    assert "`context` must be an object" in problems["y"].message
    assert "not a record with a `program`" in problems["line-6"].message
    out = tmp_path / "out.jsonl"
    run_batch(src, out, spec=SPEC, progress=False)
    outcomes = by_id(out)
    assert outcomes["ok"]["status"] == "success"
    assert outcomes["line-3"]["error"]["code"] == "invalid_batch_line"


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "program": "1"}] * 2)
    with pytest.raises(BatchInputError, match="'a' appears twice"):
        list(read_items(src))


def test_folder_of_program_files(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.plan").write_text("return double(2);")
    (tmp_path / "sub" / "b.yaml").write_text("result:\n  double:\n    x: 3\n")
    (tmp_path / "sub" / "c.json").write_text('{"double": {"x": 4}}')
    (tmp_path / "c.expected.json").write_text('{"status": "success"}')  # not a program
    out = tmp_path / "out.jsonl"
    run_batch(tmp_path, out, spec=SPEC, progress=False)
    assert {k: v["value"] for k, v in by_id(out).items()} == {
        "a.plan": 4,
        "sub/b.yaml": 6,
        "sub/c.json": 8,
    }


def test_resume_skips_written_ids_and_cuts_a_torn_line(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", mixed_records(10))
    out = tmp_path / "out.jsonl"
    seen: list[str] = []

    class Stop(Exception):
        pass

    def stop_after_4(record: dict[str, object]) -> None:
        seen.append(str(record["id"]))
        if len(seen) == 4:
            raise Stop

    with pytest.raises(Stop):
        run_batch(src, out, spec=SPEC, concurrency=1, progress=False, on_record=stop_after_4)
    assert len(read_records(out)) == 4
    with out.open("ab") as fh:  # a crash in the middle of writing a line
        fh.write(b'{"id": "p009", "outcome": {"sta')
    done, good = read_done(out)
    assert set(done) == set(seen) and good < out.stat().st_size
    summary = run_batch(src, out, spec=SPEC, concurrency=3, progress=False)
    assert summary["resumed"] == 4 and summary["programs"] == 6
    assert set(by_id(out)) == {r["id"] for r in mixed_records(10)}  # each id once


def test_output_that_is_not_a_batch_output_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": "a", "outcome": {"status": "success"}}\nhello\n{"id": "b"}\n')
    with pytest.raises(BatchInputError, match="line 2 is not an outcome record"):
        OutputFile(out)


def test_output_writes_each_id_once(tmp_path: Path) -> None:
    output = OutputFile(tmp_path / "o.jsonl")
    rec = {"id": "a", "outcome": {"status": "success", "value": 2**70}}
    assert output.write(rec) is True
    assert output.write(rec) is False
    output.close()
    assert read_records(tmp_path / "o.jsonl") == [rec]  # a big integer is written exactly


def test_progress_bar_shows_rate_and_counts(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", mixed_records(12))
    stream = io.StringIO()
    out = tmp_path / "out.jsonl"
    run_batch(src, out, spec=SPEC, progress=True, progress_stream=stream, calls=False)
    assert not any("calls" in r["outcome"] for r in read_records(out))  # --no-calls
    text = stream.getvalue()
    assert "12/12" in text and "programs/s" in text
    assert "success=6" in text and "failure=4" in text and "ambiguous=2" in text


def test_cli_summary_table_and_json(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", mixed_records(6))
    out = tmp_path / "out.jsonl"
    args = ["batch", str(src), "--out", str(out), "--plugin", "batch_plugin", "--no-entry-points"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "programs run" in result.output and "ambiguous" in result.output
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    summary = orjson.loads(result.output)
    assert summary["programs"] == 0 and summary["resumed"] == 6
    bad = CliRunner().invoke(main, [*args, "--limit", "deadline=-1"])
    assert bad.exit_code == 2 and "deadline" in bad.output
    broken = CliRunner().invoke(main, ["batch", str(src), "--plugin", "no_such_module_x"])
    assert broken.exit_code == 2


def test_cli_killed_mid_batch_resumes(tmp_path: Path) -> None:
    """A real interruption: the CLI process is killed while programs run; the same command
    again finishes the batch with every id exactly once."""
    records = [
        {"id": f"n{i:02d}", "program": f"return nap(0.05, '{i}');", "lang": "plan"}
        for i in range(40)
    ]
    src = write_jsonl(tmp_path / "in.jsonl", records)
    out = tmp_path / "out.jsonl"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]),
    }
    cmd = [*CLI, "batch", str(src), "--out", str(out), "--concurrency", "1"]
    cmd += ["--plugin", "batch_plugin", "--no-entry-points", "--progress"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if out.exists() and out.read_bytes().count(b"\n") >= 5:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.communicate(timeout=60)
    first = len(read_records(out))
    assert 5 <= first < 40
    again = subprocess.run(
        [*cmd[:-1], "--no-progress", "--format", "json"], env=env, capture_output=True, timeout=120
    )
    assert again.returncode == 0, (again.stdout.decode(), again.stderr.decode())
    summary = orjson.loads(again.stdout)
    assert summary["resumed"] == first and summary["programs"] == 40 - first
    outcomes = by_id(out)
    assert sorted(outcomes) == [r["id"] for r in records]
    assert all(o["status"] == "success" for o in outcomes.values())


def test_cli_progress_goes_to_stderr(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", mixed_records(6))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]),
    }
    cmd = [*CLI, "batch", str(src), "--plugin", "batch_plugin", "--no-entry-points", "--progress"]
    done = subprocess.run(cmd, env=env, capture_output=True, timeout=120)
    assert done.returncode == 0
    lines = [orjson.loads(x) for x in done.stdout.splitlines()]  # stdout: only records
    assert len(lines) == 6
    err = done.stderr.decode()
    assert "programs/s" in err and "success=3" in err and "programs run" in err


def test_cli_mcp_server_serves_the_whole_batch(tmp_path: Path) -> None:
    """--mcp-config: one session of a real MCP server (npm server-everything) for every
    program of the batch."""
    import shutil

    node = shutil.which("node")
    root = HERE.parents[1]
    script = root / ".node/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
    if node is None or not script.is_file():
        pytest.skip("server-everything is not installed (python3 tasks.py setup installs it)")
    config = tmp_path / "mcp.json"
    config.write_bytes(
        orjson.dumps({"mcpServers": {"every": {"command": node, "args": [str(script), "stdio"]}}})
    )
    records = [
        {"id": f"s{i}", "program": "return every.get_sum({a: n, b: 1});", "context": {"n": i}}
        for i in range(8)
    ]
    src = write_jsonl(tmp_path / "in.jsonl", records)
    out = tmp_path / "out.jsonl"
    args = ["batch", str(src), "--out", str(out), "--no-entry-points", "--mcp-config", str(config)]
    done = subprocess.run([*CLI, *args, "--concurrency", "4"], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    values = {k: v.get("value") for k, v in by_id(out).items()}
    assert values == {f"s{i}": f"The sum of {i} and 1 is {i + 1}." for i in range(8)}


def test_cli_openapi_service_for_every_program(tmp_path: Path) -> None:
    """--openapi: a real HTTP service (uvicorn on 127.0.0.1) called by every program."""
    from batch_http import doubler

    records = [
        {"id": f"h{i}", "program": "return svc.double({x: n}).twice;", "context": {"n": i}}
        for i in range(10)
    ]
    src = write_jsonl(tmp_path / "in.jsonl", records)
    out = tmp_path / "out.jsonl"
    with doubler() as base:
        args = ["batch", str(src), "--out", str(out), "--no-entry-points"]
        result = CliRunner().invoke(main, [*args, "--openapi", f"svc={base}/openapi.json"])
    assert result.exit_code == 0, result.output
    assert {k: v.get("value") for k, v in by_id(out).items()} == {f"h{i}": 2 * i for i in range(10)}
    bad = CliRunner().invoke(main, [*args, "--openapi", "svc=/no/such/file.json"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output
