#!/usr/bin/env python3
"""Developer tasks for dialectic; needs python3 (3.11+) and pip, and Node.js (npm) for the tests.

    python3 tasks.py demo     # set up .venv, then run the demo program
    python3 tasks.py test     # set up .venv and .node, then ruff, mypy --strict and all the tests
                              # (in a process per core, up to 4: pytest-xdist)
    python3 tasks.py bench    # set up .venv, then print the benchmark tables
    python3 tasks.py setup    # only set up: the virtualenv (core and all extensions) and .node

The virtualenv is `.venv` next to this file; it is reinstalled only when a pyproject.toml changes.
`.node` holds the pinned npm packages the tests use: the JavaScript parser (acorn) that
tests/plan/test_differential.py compares the Plan parser with, and the MCP servers the MCP tests
talk to; they are installed with npm only when missing or when a pinned version changes.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
EXTENSIONS = ("datetime", "ide", "travel")
DEMO = [
    "run",
    "examples/travel/sf_to_la_next_thursday.js",
    "--now",
    "2023-10-10T08:00:00-07:00",
    "--timezone",
    "America/Los_Angeles",
]
NODE_DIR = ROOT / ".node"  # git-ignored; tests/plan/test_differential.py reads acorn from here
ACORN = "8.19.0"  # the pinned acorn version; changing it reinstalls .node on the next set-up
#: npm packages the tests run for real (MCP servers nobody here wrote); pinned like acorn
NODE_PACKAGES = {
    "acorn": ACORN,
    "@modelcontextprotocol/server-memory": "2026.8.31",
    "@modelcontextprotocol/server-filesystem": "2026.8.31",
    "@modelcontextprotocol/server-everything": "2026.8.31",
}
TYPED = ["dialectic", "benchmarks", "tasks.py"] + [
    f"extensions/{name}/dialectic_{name}" for name in EXTENSIONS
]


def sh(*args: str | Path, check: bool = True) -> int:
    print("+", " ".join(str(a) for a in args), flush=True)
    return subprocess.run([str(a) for a in args], cwd=ROOT, check=check).returncode


def _stamp() -> str:
    h = hashlib.sha256(sys.version.encode())
    for path in sorted(
        [ROOT / "pyproject.toml", ROOT / "tasks.py", *ROOT.glob("extensions/*/pyproject.toml")]
    ):
        h.update(path.read_bytes())
    return h.hexdigest()


def setup() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - tasks.py may be run by an older python3
        sys.exit(f"dialectic needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not PY.exists():
        print(f"creating {VENV}", flush=True)
        venv.create(VENV, with_pip=True)
    stamp_file = VENV / ".dialectic-installed"
    stamp = _stamp()
    if stamp_file.exists() and stamp_file.read_text() == stamp:
        return
    pip: list[str | Path] = [PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    sh(*pip, "--upgrade", "pip", "setuptools>=77", "wheel")
    # The core first: the extensions depend on `dialectic`, which must be this checkout. Each
    # editable install is a static .pth file (`package-dir` in its pyproject.toml), which mypy
    # follows, so no deprecated `editable_mode=compat` is needed.
    sh(*pip, "-e", ".[dev,bench]")  # dev takes the mcp, openapi, dask, otel extras
    for name in EXTENSIONS:
        sh(*pip, "-e", f"extensions/{name}")
    stamp_file.write_text(stamp)


def installed_node_package(name: str) -> str | None:
    """The version of the npm package ``name`` in .node, or None."""
    manifest = NODE_DIR / "node_modules" / name / "package.json"
    try:
        version = json.loads(manifest.read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        return None
    return version if isinstance(version, str) else None


def setup_node() -> bool:
    """Install the pinned npm packages into .node (acorn for the Plan differential test, the MCP
    servers for the MCP tests); False if it cannot."""
    if all(installed_node_package(n) == v for n, v in NODE_PACKAGES.items()):
        return True
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        print(
            "error: Node.js (node and npm) is not installed; the tests need it to compare the "
            "Plan parser with acorn. Install Node.js 18 or newer, then run: python3 tasks.py setup",
            file=sys.stderr,
            flush=True,
        )
        return False
    NODE_DIR.mkdir(exist_ok=True)
    package = {
        "private": True,
        "description": "written by tasks.py",
        "dependencies": NODE_PACKAGES,
    }
    (NODE_DIR / "package.json").write_text(json.dumps(package, indent=2) + "\n", encoding="utf-8")
    args: list[str | Path] = [npm, "install", "--prefix", NODE_DIR, "--no-audit", "--no-fund"]
    failed = sh(*args, check=False) != 0
    missing = [n for n, v in NODE_PACKAGES.items() if installed_node_package(n) != v]
    if failed or missing:
        print(f"error: could not install {', '.join(missing)} into {NODE_DIR}", file=sys.stderr)
        return False
    return True


def demo() -> int:
    setup()
    return sh(BIN / "dialectic", *DEMO, check=False)


def test() -> int:
    setup()
    failed = 0 if setup_node() else 1  # the differential test then fails and says why
    failed |= sh(BIN / "ruff", "check", ".", check=False)
    failed |= sh(BIN / "ruff", "format", "--check", ".", check=False)
    failed |= sh(BIN / "mypy", *TYPED, check=False)
    # test folders one by one: several hold a conftest.py, which mypy would see as one module
    for folder in sorted([*ROOT.glob("tests/*/"), *ROOT.glob("extensions/*/tests/")]):
        if any(folder.glob("*.py")):
            failed |= sh(BIN / "mypy", folder.relative_to(ROOT), check=False)
    failed |= sh(PY, "-m", "pytest", *workers(sys.argv[2:]), *sys.argv[2:], check=False)
    return 1 if failed else 0


def workers(args: list[str]) -> list[str]:
    """pytest-xdist's options for the suite: a worker per core, at most 4 (each holds up to ~2 GB
    at its peak), whole test files to a worker (their module fixtures: servers, clusters, Node
    processes, are set up once); none when the caller chose (``-n``, ``-p no:xdist``) or for
    a single test (``::`` or ``-k``)."""
    chosen = ("-n", "--numprocesses", "-k", "--dist")
    if any(a.startswith(chosen) or "::" in a or a.endswith("no:xdist") for a in args):
        return []
    n = min(4, os.cpu_count() or 1)
    return ["-n", str(n), "--dist", "loadfile"] if n > 1 else []


def bench() -> int:
    setup()
    failed = 0
    for script in sorted((ROOT / "benchmarks").glob("*.py")):
        failed |= sh(PY, script, check=False)
    return 1 if failed else 0


def setup_task() -> int:
    setup()
    return 0 if setup_node() else 1


def main() -> int:
    tasks = {"demo": demo, "test": test, "bench": bench, "setup": setup_task}
    if len(sys.argv) < 2 or sys.argv[1] not in tasks:
        print(__doc__)
        return 2
    return tasks[sys.argv[1]]()


if __name__ == "__main__":
    sys.exit(main())
