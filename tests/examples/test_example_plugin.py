"""The example third-party extension (extensions/example-plugin) installs and is found for real.

The distribution is built and installed with pip into a temporary target directory, offline:
its build backend is the setuptools that set-up put in the virtualenv (``--no-build-isolation``,
``--no-index``), and ``--no-deps`` keeps dialectic itself from being resolved. Then a fresh
interpreter with that directory on PYTHONPATH discovers it through the ``dialectic`` entry-point
group, exactly as an installed extension is discovered.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "extensions" / "example-plugin"


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-cache-dir",
            "--no-index",
            "--no-build-isolation",
            "--target",
            str(where),
            str(PLUGIN),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (where / "dialectic_greetings" / "plugin.py").exists()
    return where


def python(target: Path, code: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(target), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_installed_plugin_is_discovered_through_its_entry_point(target: Path) -> None:
    code = """
import json
from dialectic.registry.plugins import entry_point_plugins
found = {}
for name, module in entry_point_plugins():
    if name == "greetings":
        descs = []
        module.dialectic_register_functions(register=lambda *d: descs.extend(d))
        module.dialectic_register_constants(register=lambda *d: descs.extend(d))
        found = {
            "module": module.__name__,
            "names": [d.name for d in descs],
            "hello": descs[0].implementation("Ada", "pirate"),
            "constant": descs[1].value,
        }
print(json.dumps(found))
"""
    proc = python(target, code)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {
        "module": "dialectic_greetings.plugin",
        "names": ["greet", "greeting"],
        "hello": "Ahoy, Ada!",
        "constant": "Hello",
    }


def test_not_installed_means_not_found() -> None:
    """Without the target on the path the plugin is unknown (the test above proves the install)."""
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "from dialectic.registry.plugins import entry_point_plugins\n"
            "print([n for n, _ in entry_point_plugins()])",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "greetings" not in proc.stdout


def test_installed_plugin_runs_in_a_runtime(target: Path) -> None:
    code = """
import json
from dialectic import Runtime
rt = Runtime()
out = [rt.run(p, lang=lang).to_json() for p, lang in [
    ('{"greet": {"name": "Ada", "style": "pirate"}}', "json"),
    ("return `${greeting} from a constant`;", "plan"),
    ('{"greet": {"name": "Ada", "style": "shouty"}}', "json"),
]]
print(json.dumps([json.loads(o) if isinstance(o, (str, bytes)) else o for o in out]))
"""
    proc = python(target, code)
    assert proc.returncode == 0, proc.stderr
    ok, constant, bad = json.loads(proc.stdout)
    assert (ok["status"], ok["value"]) == ("success", "Ahoy, Ada!")
    assert (constant["status"], constant["value"]) == ("success", "Hello from a constant")
    assert bad["status"] == "failure"
    assert "unknown style 'shouty'" in json.dumps(bad)


def test_installed_plugin_shows_in_describe(target: Path) -> None:
    proc = python(target, "from dialectic.tools.cli import main; main(['describe'])")
    assert proc.returncode == 0, proc.stderr
    assert "greet" in proc.stdout
    assert "Greet someone by name" in proc.stdout
