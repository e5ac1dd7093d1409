"""Batches on a real ``distributed.LocalCluster`` (2 worker processes, one thread each), shared
by the module: the same records as a local run, a worker killed mid-batch, resuming, the CLI's
``--dask`` and ``analyze --dask``."""

from __future__ import annotations

import contextlib
import importlib
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from batch_corpus import by_id, mixed_records, read_records, write_jsonl
from click.testing import CliRunner

from dialectic.batch.driver import run_batch
from dialectic.batch.items import RuntimeSpec
from dialectic.tools.cli import main

distributed: Any = importlib.import_module("distributed")  # (a dev dependency: no skip)

SPEC = RuntimeSpec.make(["batch_plugin"], entry_points=False)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    # the workers are spawned with this process's sys.path (batch_plugin's folder included)
    cluster = distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        dashboard_address=None,
        silence_logs=50,
    )
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def test_same_records_as_a_local_run(client: Any, tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", mixed_records(36))
    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    run_batch(src, local, spec=SPEC, progress=False)
    summary = run_batch(src, remote, spec=SPEC, client=client, partition_size=5, progress=False)
    assert summary["where"].startswith("dask tcp://")
    local_outcomes, remote_outcomes = by_id(local), by_id(remote)
    differ = {
        k: (v, remote_outcomes.get(k))
        for k, v in local_outcomes.items()
        if remote_outcomes.get(k) != v
    }
    assert not differ
    assert len(remote_outcomes) == 36
    statuses = {o["status"] for o in by_id(remote).values()}
    assert statuses == {"success", "failure", "ambiguous"}


def test_a_worker_killed_mid_batch_loses_no_program(client: Any, tmp_path: Path) -> None:
    records = [
        {"id": f"k{i:02d}", "program": f"return nap(0.05, '{i}');", "lang": "plan"}
        for i in range(48)
    ]
    src = write_jsonl(tmp_path / "in.jsonl", records)
    out = tmp_path / "out.jsonl"
    killed: list[str] = []

    def kill_a_busy_worker(record: dict[str, Any]) -> None:
        if killed:
            return
        busy = [w for w, keys in client.processing().items() if keys]
        if busy:  # a worker in the middle of a partition
            killed.append(busy[0])
            client.run(os._exit, 1, workers=[busy[0]], on_error="ignore", wait=False)

    summary = run_batch(
        src,
        out,
        spec=SPEC,
        client=client,
        concurrency=1,
        partition_size=4,
        progress=False,
        on_record=kill_a_busy_worker,
    )
    assert killed, "no worker was busy when the first partition finished"
    outcomes = by_id(out)  # each id exactly once
    assert sorted(outcomes) == [r["id"] for r in records]
    assert {o["status"] for o in outcomes.values()} == {"success"}
    assert summary["programs"] == 48
    client.wait_for_workers(2, timeout=60)  # the nanny restarts it for the next tests


def test_resume_after_an_interrupted_dask_batch(client: Any, tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", mixed_records(30))
    out = tmp_path / "out.jsonl"

    class Interrupted(Exception):
        pass

    def stop_after_7(record: dict[str, Any]) -> None:
        if len(read_records(out)) >= 7:
            raise Interrupted

    with pytest.raises(Interrupted):
        run_batch(
            src,
            out,
            spec=SPEC,
            client=client,
            partition_size=3,
            progress=False,
            on_record=stop_after_7,
        )
    first = len(read_records(out))
    assert 7 <= first < 30
    summary = run_batch(src, out, spec=SPEC, client=client, partition_size=3, progress=False)
    assert summary["resumed"] == first and summary["programs"] == 30 - first
    assert sorted(by_id(out)) == sorted(r["id"] for r in mixed_records(30))


def test_cli_dask_address(client: Any, tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", mixed_records(12))
    out = tmp_path / "out.jsonl"
    address = client.scheduler.address
    args = ["batch", str(src), "--out", str(out), "--dask", address, "--plugin", "batch_plugin"]
    result = CliRunner().invoke(main, [*args, "--no-entry-points", "--format", "json"])
    assert result.exit_code == 0, result.output
    summary = orjson.loads(result.output)
    assert summary["programs"] == 12 and summary["where"] == f"dask {address}"
    assert (summary["success"], summary["failure"], summary["ambiguous"]) == (6, 4, 2)


def test_cli_dask_local_starts_and_ends_its_own_cluster(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", mixed_records(6))
    out = tmp_path / "out.jsonl"
    args = ["batch", str(src), "--out", str(out), "--dask", "local:1", "--plugin", "batch_plugin"]
    with contextlib.ExitStack() as stack:
        # another cluster's HTTP server on Dask's default port: no warning in the output
        holder = stack.enter_context(socket.socket())
        with contextlib.suppress(OSError):  # (already held by someone else: the same case)
            holder.bind(("127.0.0.1", 8787))
            holder.listen()
        result = CliRunner().invoke(main, [*args, "--no-entry-points", "--format", "json"])
    assert result.exit_code == 0, (result.output, repr(result.exception))
    summary = orjson.loads(result.output)
    assert summary["programs"] == 6 and summary["where"].startswith("dask tcp://127.0.0.1:")
    assert sorted(by_id(out)) == sorted(r["id"] for r in mixed_records(6))


def test_cli_unreachable_scheduler_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    src = write_jsonl(tmp_path / "in.jsonl", mixed_records(2))
    address = f"tcp://127.0.0.1:{port}"
    args = ["batch", str(src), "--dask", address, "--dask-timeout", "1", "--no-entry-points"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert f"could not reach a Dask scheduler at {address} within 1 s" in result.output
    assert "dask scheduler" in result.output and "Traceback" not in result.output


def test_analyze_on_dask_equals_local(client: Any, tmp_path: Path) -> None:
    from dialectic.batch.cluster import analyze_with_dask
    from dialectic.tools.analysis import analyze

    src = write_jsonl(tmp_path / "in.jsonl", mixed_records(30))
    local = analyze([src], progress=False)
    remote = analyze_with_dask(
        "unused", [src], None, (), False, ("batch_plugin",), False, client=client
    )
    assert [r.id for r in remote] == [r.id for r in local]
    # compiled against the plugin: the unknown function is a compile error on the workers
    unknown = {f"p{i:03d}" for i in range(4, 30, 6)}  # the programs calling `nope`
    assert {r.id for r in remote if r.status == "compile_error"} == unknown
    assert [r.status for r in local] == ["ok"] * 30
    assert [r.calls for r in remote] == [r.calls for r in local]


def test_workers_build_the_same_openapi_services(client: Any, tmp_path: Path) -> None:
    """Each worker builds its runtime from the same configuration: here an OpenAPI service (a
    real HTTP server on 127.0.0.1) every worker calls."""
    from batch_http import doubler

    records = [
        {"id": f"h{i:02d}", "program": "return svc.double({x: n}).twice;", "context": {"n": i}}
        for i in range(16)
    ]
    src = write_jsonl(tmp_path / "in.jsonl", records)
    out = tmp_path / "out.jsonl"
    with doubler() as base:
        spec = RuntimeSpec.make(entry_points=False, openapi=[f"svc={base}/openapi.json"])
        run_batch(src, out, spec=spec, client=client, partition_size=4, progress=False)
    assert {k: v.get("value") for k, v in by_id(out).items()} == {
        f"h{i:02d}": 2 * i for i in range(16)
    }


def test_cli_analyze_dask(client: Any, tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", mixed_records(12))
    args = ["analyze", str(src), "--format", "json", "--summary-only"]
    local = CliRunner().invoke(main, args)
    remote = CliRunner().invoke(main, [*args, "--dask", client.scheduler.address])
    assert remote.exit_code == 0, remote.output
    assert orjson.loads(remote.output)["summary"]["plans"] == 12
    assert orjson.loads(remote.output) == orjson.loads(local.output)


def test_missing_dask_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from dialectic.batch import cluster

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(cluster.DaskMissing, match=r"pip install 'dialectic\[dask\]'"):
        cluster.connect("local")
