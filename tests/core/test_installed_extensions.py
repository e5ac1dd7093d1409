"""The shipped extensions, once pip-installed (tasks.py setup does), appear through their entry
points in `dialectic describe`, with nothing registered by import path."""

from __future__ import annotations

import importlib.metadata

import pytest
from click.testing import CliRunner

from dialectic.tools.cli import main

EXPECTED = {
    "datetime": ["`next(component: string) -> date`", "`date`"],
    "ide": ["`findSymbol(", "`findReferences(", "`selection` -> `symbol`"],
    "travel": ["`flights(", "`trains(", "`car("],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_installed_extension_shows_in_describe(name: str) -> None:
    points = {ep.name for ep in importlib.metadata.entry_points(group="dialectic")}
    assert name in points, f"the {name} extension is not installed (run python3 tasks.py setup)"
    result = CliRunner().invoke(main, ["describe"])
    assert result.exit_code == 0, result.output
    for text in EXPECTED[name]:
        assert text in result.output, text
