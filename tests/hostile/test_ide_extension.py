"""The workspace-reading ``ide`` extension under hostile programs: paths stay inside the
workspace root, and no pattern can hang a run past its deadline."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import dialectic_ide.plugin as ide
import pytest

from dialectic import Outcome, Runtime

SOURCE = "def f():\n    return self._validate_token_signature_for_user_session(token)\n"


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text(SOURCE)
    outside = tmp_path / "secret.py"
    outside.write_text("SECRET = 's3cret'\n")
    (root / "link.py").symlink_to(outside)
    (root / "linkdir").symlink_to(tmp_path)
    return root


def _run(program: Any, root: Path) -> Outcome:
    rt = Runtime(plugins=[ide], load_entry_points=False)
    out = rt.run(program, context={"workspace": str(root)})
    assert out.status in ("success", "failure", "ambiguous")
    if out.error is not None:
        assert out.error.code != "internal_error", out.message
    return out


@pytest.mark.parametrize(
    "file",
    [
        "../secret.py",
        "{outside}",
        "link.py",
        "linkdir/secret.py",
        "linkdir/ws/../secret.py",
        "a.py\x00",
        "//{outside}",
        "./../ws/../secret.py",
    ],
)
def test_paths_stay_inside_the_workspace(workspace: Path, file: str) -> None:
    path = file.format(outside=workspace.parent / "secret.py")
    for program in (
        {"lines": {"file": path}},
        {"findSymbol": {"name": "SECRET", "file": path}},
        {"search": {"pattern": "SECRET", "path": path}},
    ):
        out = _run(program, workspace)
        assert "s3cret" not in str(out.to_json()), program
        assert out.status != "success" or not out.value, out.to_json()


def test_search_does_not_follow_symlinks_out(workspace: Path) -> None:
    out = _run({"search": {"pattern": "s3cret"}}, workspace)
    assert "s3cret" not in str(out.to_json())


REDOS = textwrap.dedent(
    """
    import sys, time
    import dialectic_ide.plugin as ide
    from dialectic import Limits, Runtime
    rt = Runtime(plugins=[ide], load_entry_points=False,
                 limits=Limits(call_timeout=0.5, deadline=1.0))
    started = time.monotonic()
    out = rt.run({"search": {"pattern": sys.argv[2]}}, context={"workspace": sys.argv[1]})
    print(out.status, out.error.code if out.error else None, time.monotonic() - started)
    """
)


def test_pathological_regex_cannot_outlive_the_deadline(workspace: Path) -> None:
    try:
        done = subprocess.run(
            # backtracks exponentially under `re` and `regex` alike; RE2 matches it in linear
            # time (and the search's time budget stops any slow search) long before 5 s; the
            # run times itself (starting Python and importing take seconds under load)
            [sys.executable, "-c", REDOS, str(workspace), r"(\w|\w)+\($"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the run was still going 2 minutes after a 1 s deadline")
    assert done.returncode == 0, done.stderr[-2000:]
    status, _, took = done.stdout.split()
    assert status in ("success", "failure"), done.stdout
    assert float(took) < 5, f"the run took {took} s after a 1 s deadline"
