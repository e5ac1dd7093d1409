"""``dialectic run --mcp-config FILE``: the tools of the configured servers in a program."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .conftest import ROOT, node_config

DIALECTIC = [sys.executable, "-m", "dialectic.tools.cli"]


def dialectic(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*DIALECTIC, *args], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )


def test_run_with_two_servers(tmp_path: Path) -> None:
    (tmp_path / "note.txt").write_text("remember the milk\n")
    config = tmp_path / "mcp.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "fs": node_config("server-filesystem", str(tmp_path)),
                    "every": node_config("server-everything", "stdio"),
                }
            }
        )
    )
    program = tmp_path / "program.js"
    program.write_text(
        "const note = fs.read_text_file({path: dir + '/note.txt'}).content.trim();\n"
        "return {note, sum: every.get_sum({a: note.split(' ').length, b: 1})};\n"
    )
    done = dialectic(
        "run", str(program), "--no-entry-points", "--mcp-config", str(config),
        "--context", f"dir={tmp_path}", "--format", "json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    value = json.loads(done.stdout)["value"]
    assert value == {"note": "remember the milk", "sum": "The sum of 3 and 1 is 4."}


def test_bad_configurations_are_usage_errors(tmp_path: Path) -> None:
    program = tmp_path / "p.js"
    program.write_text("return 1;\n")
    bad = tmp_path / "bad.json"
    bad.write_text('{"mcpServers": {"x": {"command": "node", "args": "not a list"}}}')
    done = dialectic("run", str(program), "--no-entry-points", "--mcp-config", str(bad))
    assert done.returncode == 2
    assert "mcpServers.x.args" in done.stderr

    missing = tmp_path / "missing.json"
    missing.write_text('{"mcpServers": {"gone": {"command": "/nonexistent/mcp-server"}}}')
    done = dialectic("run", str(program), "--no-entry-points", "--mcp-config", str(missing))
    assert done.returncode == 2
    assert "'gone'" in done.stderr and "not found" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_readme_quickstart_composes_two_servers() -> None:
    """The README's one-command example, taken from the README itself, runs as written."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index('echo "return memory.create_entities(')
    command = readme[start : readme.index("```", start)].strip()
    assert "examples/mcp/servers.mcp.json" in command
    memory = Path("/tmp/dialectic-readme-memory.jsonl")  # the configuration's memory file
    memory.unlink(missing_ok=True)
    env_bin = str(Path(sys.executable).parent)
    done = subprocess.run(
        ["bash", "-c", command.replace(".venv/bin/dialectic", f"{env_bin}/dialectic")],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    memory.unlink(missing_ok=True)
    assert done.returncode == 0, done.stderr
    created = json.loads(done.stdout)
    first_line = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[0]
    assert created["entities"][0]["observations"] == [first_line]
