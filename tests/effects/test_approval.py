"""Approving write and destructive calls, and the preview (SPEC 17)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from memfs import MemoryFS

from dialectic import Runtime
from dialectic.run.approval import Approval, ApprovalRequest
from dialectic.tools.cli import main
from dialectic.tools.preview import Preview, TerminalApprover

Make = Callable[..., tuple[Runtime, MemoryFS]]

SCRIPT = """
cd({folder: 'docs'});
mkdir({dir_name: 'tmp'});
mv({source: 'a.pdf', destination: 'tmp'});
return ls();
"""


def test_the_approver_sees_each_call_with_its_arguments(make_fs: Make) -> None:
    asked: list[ApprovalRequest] = []

    def approve(request: ApprovalRequest) -> Approval:
        asked.append(request)
        return Approval.ALLOW

    rt, fs = make_fs(approve=approve)
    out = rt.run(SCRIPT, lang="plan")
    assert out.status == "success", out.message
    assert fs.log == ["cd docs", "mkdir tmp", "mv a.pdf tmp", "ls"]
    assert [(r.function, r.args, r.effects, r.scope) for r in asked] == [
        ("cd", {"folder": "docs"}, "write", "fs"),
        ("mkdir", {"dir_name": "tmp"}, "write", "fs"),
        ("mv", {"source": "a.pdf", "destination": "tmp"}, "write", "fs"),
    ]
    assert asked[1].where == "program.$do[1]"


def test_a_denial_fails_at_the_call_and_nothing_after_it_runs(make_fs: Make) -> None:
    def approve(request: ApprovalRequest) -> Approval:
        if request.function == "mkdir":
            return Approval.deny("no new directories today")
        return Approval.ALLOW

    rt, fs = make_fs()
    out = rt.run(SCRIPT, lang="plan", approve=approve)
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "denied"
    assert out.error.path == "program.$do[1]"
    assert "no new directories today" in str(out.message) and "`mkdir`" in str(out.message)
    assert out.error.details["effects_done"] == [{"function": "cd", "path": "program.$do[0]"}]
    assert fs.log == ["cd docs"]


def test_allow_all_asks_once(make_fs: Make) -> None:
    asked: list[str] = []

    def approve(request: ApprovalRequest) -> Approval:
        asked.append(request.function)
        return Approval.ALLOW_ALL

    rt, fs = make_fs()
    assert rt.run(SCRIPT, lang="plan", approve=approve).status == "success"
    assert asked == ["cd"] and fs.log == ["cd docs", "mkdir tmp", "mv a.pdf tmp", "ls"]


@pytest.mark.parametrize("use_async", [False, True], ids=["sync-functions", "async-functions"])
@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_an_async_approver(make_fs: Make, use_async: bool, backend: str) -> None:
    asked: list[str] = []

    async def approve(request: ApprovalRequest) -> Approval:
        await anyio.sleep(0)
        asked.append(request.function)
        return Approval.deny("stop") if request.function == "mv" else Approval.ALLOW

    rt, fs = make_fs(use_async=use_async)

    async def main() -> Any:
        return await rt.run_async(SCRIPT, lang="plan", approve=approve)

    out = anyio.run(main, backend=backend)
    assert out.status == "failure" and out.error is not None and out.error.code == "denied"
    assert asked == ["cd", "mkdir", "mv"]
    assert fs.log == ["cd docs", "mkdir tmp"]


def test_an_approver_that_raises_refuses(make_fs: Make) -> None:
    def approve(request: ApprovalRequest) -> Approval:
        raise RuntimeError("the approval service is down")

    rt, fs = make_fs()
    out = rt.run(SCRIPT, lang="plan", approve=approve)
    assert out.error is not None and out.error.code == "denied"
    assert "approval service is down" in str(out.message) and fs.log == []


def test_true_and_false_are_answers(make_fs: Make) -> None:
    rt, fs = make_fs()
    assert rt.run(SCRIPT, lang="plan", approve=lambda r: True).status == "success"
    rt, fs = make_fs()
    out = rt.run(SCRIPT, lang="plan", approve=lambda r: False)
    assert out.error is not None and out.error.code == "denied" and fs.log == []


def test_approving_the_whole_preview_once(make_fs: Make) -> None:
    seen: list[Preview] = []

    def refuse(preview: Preview) -> bool:
        seen.append(preview)
        return False

    rt, fs = make_fs()
    out = rt.run(SCRIPT, lang="plan", approve_plan=refuse)
    assert out.error is not None and out.error.code == "denied"
    assert "3 effectful calls" in str(out.message)
    assert fs.log == [] and len(seen) == 1 and len(seen[0]) == 3
    rt, fs = make_fs()
    assert rt.run(SCRIPT, lang="plan", approve_plan=lambda p: True).status == "success"
    assert fs.log == ["cd docs", "mkdir tmp", "mv a.pdf tmp", "ls"]


def test_the_preview(make_fs: Make) -> None:
    rt, fs = make_fs()
    program = """
    cd({folder: 'docs'});
    name = 'tmp';
    mkdir({dir_name: name});
    listed = ls();
    mv({source: listed.current_directory_content[0], destination: name});
    flag ? rm({file_name: 'b.txt'}) : null;
    made = ['x', 'y'].map(d => touch({file_name: d}));
    return listed;
    """
    shown = rt.preview(program, lang="plan")
    assert fs.log == []  # nothing ran
    assert shown.to_json() == [
        {
            "function": "cd",
            "effects": "write",
            "scope": "fs",
            "path": "program.$do[0]",
            "args": {"folder": "docs"},
        },
        {
            "function": "mkdir",
            "effects": "write",
            "scope": "fs",
            "path": "program.$do[2]",
            "args": {"dir_name": "tmp"},
        },
        {
            "function": "mv",
            "effects": "write",
            "scope": "fs",
            "path": "program.$do[4]",
            "args": {
                "source": {"expression": "listed.current_directory_content[0]"},
                "destination": "tmp",
            },
        },
        {
            "function": "rm",
            "effects": "destructive",
            "scope": "fs",
            "path": "program.$do[5].$if[1]",
            "args": {"file_name": "b.txt"},
            "conditional": True,
        },
        {
            "function": "touch",
            "effects": "write",
            "scope": "fs",
            "path": "program.$do[6].$let.made.$method[2].$fn[1]",
            "args": {"file_name": {"expression": "d"}},
            "repeated": True,
        },
    ]
    text = shown.text()
    assert text.splitlines()[0] == "The program makes 5 write or destructive call(s), in order:"
    assert "2. mkdir(dir_name: 'tmp')  [write, scope fs] at program.$do[2]" in text
    assert "[destructive, scope fs, if its branch is taken]" in text


def test_the_catalog_shows_effects(make_fs: Make) -> None:
    rt, _ = make_fs()
    compact = rt.describe("compact")
    assert "rm(file_name: string)" in compact and "[destructive, scope fs]" in compact
    line = next(ln for ln in compact.splitlines() if ln.startswith("- ls("))
    assert "[" not in line.split(")")[1].split(":")[0]  # read: the default, not shown


def test_terminal_approver_answers() -> None:
    import io

    request = ApprovalRequest("rm", "destructive", "fs", False, ("$do", 0), {"file_name": "a"})
    prompts = io.StringIO()
    ask = TerminalApprover(io.StringIO("y\na\nn\n"), prompts)
    assert [ask(request), ask(request), ask(request)] == [
        Approval.ALLOW,
        Approval.ALLOW_ALL,
        Approval.deny("refused on the terminal"),
    ]
    assert ask(request) == Approval.deny("no answer on the terminal")
    assert (
        "Allow rm(file_name: 'a') [destructive, scope fs] at program.$do[0]?" in prompts.getvalue()
    )


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "script.js"
    path.write_text(SCRIPT, encoding="utf-8")
    return path


def test_cli_dry_run(script: Path) -> None:
    runner = CliRunner()
    args = ["run", "--plugin", "memfs", "--no-entry-points", "--dry-run", str(script)]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "1. cd(folder: 'docs')  [write, scope fs] at program.$do[0]" in result.output
    result = runner.invoke(main, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    assert '"function": "mv"' in result.output


def test_cli_approve_reads_answers_from_a_pipe(script: Path) -> None:
    """A real process; its answers come through a standard-input pipe."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent)}
    cmd = [
        sys.executable,
        "-m",
        "dialectic.tools.cli",
        "run",
        "--plugin",
        "memfs",
        "--no-entry-points",
        "--approve",
        str(script),
    ]
    done = subprocess.run(
        cmd, input="y\nn\n", capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert done.returncode == 1, done.stderr
    assert "the approver refused the write call `mkdir`" in done.stdout
    assert done.stderr.count("[y]es / [n]o / [a]ll") == 2
    done = subprocess.run(
        cmd, input="a\n", capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"tmp"' in done.stdout and done.stderr.count("[y]es") == 1


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_an_async_plan_approver(make_fs: Make, backend: str) -> None:
    async def refuse(preview: Preview) -> Approval:
        await anyio.sleep(0)
        return Approval.deny(f"{len(preview)} calls is too many")

    rt, fs = make_fs(use_async=True)

    async def main() -> Any:
        return await rt.run_async(SCRIPT, lang="plan", approve_plan=refuse)

    out = anyio.run(main, backend=backend)
    assert out.error is not None and out.error.code == "denied"
    assert "3 calls is too many" in str(out.message) and fs.log == []
