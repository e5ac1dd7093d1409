"""Shared fixtures of the dialectic-ide tests: the fixture workspace and run contexts."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dialectic import RunContext

FIXTURE = Path(__file__).parent / "fixture"


@pytest.fixture
def fixture_dir() -> Path:
    return FIXTURE


@pytest.fixture
def make_ctx() -> Callable[..., RunContext]:
    """A RunContext over the fixture workspace (override ``workspace``/``selection``)."""

    def make(**values: Any) -> RunContext:
        values.setdefault("workspace", str(FIXTURE))
        return RunContext(values, [], None)

    return make


@pytest.fixture
def workspace_copy(tmp_path: Path) -> Path:
    """A copy of the fixture workspace plus a secret file next to it (outside it)."""
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "secret.txt").write_text("TOP SECRET validate_token\n")
    return root
