"""findDefinitions of a bare name returns every definition, as its description says."""

from __future__ import annotations

from pathlib import Path

import dialectic_ide.plugin

from dialectic import Runtime

RT = Runtime(plugins=(dialectic_ide.plugin,), load_entry_points=False)


def test_a_bare_name_gives_every_definition(fixture_dir: Path) -> None:
    context = {"workspace": str(fixture_dir)}
    out = RT.run("return findDefinitions('validate_token');", lang="plan", context=context)
    assert out.status == "success", out.message
    files = sorted(loc["location"]["file"] for loc in out.to_json()["value"])
    assert len(files) >= 2 and len(set(files)) == len(files)


def test_a_selection_gives_its_own_definitions(fixture_dir: Path) -> None:
    context = {"workspace": str(fixture_dir), "selection": "app.py:8:8-8:22"}
    out = RT.run({"findDefinitions": {"of": {"getCurrentSelection": {}}}}, context=context)
    assert out.status == "success", out.message
    assert len(out.to_json()["value"]) == 1


def test_an_unknown_name_fails_with_close_names(fixture_dir: Path) -> None:
    out = RT.run(
        "return findDefinitions('validate_tokn');",
        lang="plan",
        context={"workspace": str(fixture_dir)},
    )
    assert out.status == "failure"
    assert "validate_token" in (out.message or "")
