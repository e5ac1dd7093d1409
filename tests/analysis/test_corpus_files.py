"""Folder walks read plans only: stored outcomes and manifests next to programs are not plans."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from dialectic.tools.analysis import analyze
from dialectic.tools.analysis.corpus import is_plan_file, iter_path
from dialectic.tools.commands.analyze import command

ROOT = Path(__file__).resolve().parents[2]
PLAN = {"$return": {"f": {"x": 1}}}


def test_expected_outcomes_and_manifests_are_not_plans(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps(PLAN))
    (tmp_path / "a.expected.json").write_text(json.dumps({"status": "success", "value": 1}))
    (tmp_path / "a.json.expected.json").write_text(json.dumps({"status": "success"}))
    (tmp_path / "manifest.json").write_text(json.dumps({"examples": {}}))
    (tmp_path / "Manifest.JSON").write_text(json.dumps({"examples": {}}))
    (tmp_path / "package.json").write_text(json.dumps({"name": "x"}))
    (tmp_path / "b.js").write_text("return f(1);")
    ids = sorted(Path(p.id).name for p in iter_path(tmp_path))
    assert ids == ["a.json", "b.js"]
    # a file named explicitly is read, whatever its name
    assert [p.id for p in iter_path(tmp_path / "manifest.json")] == [
        str(tmp_path / "manifest.json")
    ]


def test_is_plan_file() -> None:
    assert is_plan_file("plan.json") and is_plan_file("x.yaml") and is_plan_file("p.js")
    assert not is_plan_file("plan.expected.json")
    assert not is_plan_file("plan.yaml.expected.json")
    assert not is_plan_file("manifest.json")
    assert not is_plan_file("notes.txt")
    assert not is_plan_file("draft.json", exclude=("draft*",))


def test_analyze_examples_counts_only_programs() -> None:
    examples = ROOT / "examples"
    programs = [
        p
        for p in examples.rglob("*")
        if p.suffix in (".js", ".json", ".yaml")
        and "workspace" not in p.parts
        and not p.name.endswith(".expected.json")
        and p.name != "manifest.json"
    ]
    records = analyze([examples], progress=False)
    assert len(records) == len(programs) > 40
    assert not any(r.id.endswith(("expected.json", "manifest.json")) for r in records)
    assert all(r.status == "ok" for r in records), [r.id for r in records if r.status != "ok"]
    out = CliRunner().invoke(command, [str(examples), "--format", "json", "--summary-only"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["summary"]["plans"] == len(programs)
