"""A corpus mixing success, failure and ambiguous outcomes, in every notation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson


def mixed_records(n: int = 30) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for i in range(n):
        kind = i % 6
        rec: dict[str, Any] = {"id": f"p{i:03d}"}
        if kind == 0:
            rec.update(program="return double(n);", lang="plan", context={"n": i})
        elif kind == 1:
            rec.update(program={"double": {"x": {"$ref": "n"}}}, context={"n": i})
        elif kind == 2:
            rec.update(program="result:\n  account:\n    name: nobody\n", lang="plan2")
        elif kind == 3:
            rec.update(program="return account('sam');", lang="plan")
        elif kind == 4:
            rec.update(program="return nope(1);", lang="plan")
        else:
            rec.update(program="return account(who).balance + double(2);", context={"who": "ada"})
        records.append(rec)
    return records


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


def read_records(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def timeless(outcome: dict[str, Any]) -> dict[str, Any]:
    """An outcome without the call log's times (``start``, ``duration``), which differ run to
    run."""
    calls = outcome.get("calls")
    if not calls:
        return outcome
    same = [{k: v for k, v in c.items() if k not in ("start", "duration")} for c in calls]
    return {**outcome, "calls": same}


def by_id(path: Path) -> dict[str, dict[str, Any]]:
    """The outcomes of an output file by id (call times left out); fails if an id appears
    twice."""
    out: dict[str, dict[str, Any]] = {}
    for rec in read_records(path):
        assert rec["id"] not in out, f"id {rec['id']} written twice"
        out[rec["id"]] = timeless(rec["outcome"])
    return out
