"""Real MCP servers for the tests: the npm packages ``@modelcontextprotocol/server-memory``,
``server-filesystem`` and ``server-everything`` (installed into ``.node/`` by ``python3 tasks.py
setup``), and ``pyserver.py`` (written with the SDK, for the error cases).

Helpers to watch the processes a runtime starts (no zombies after ``close``) and to wait for
events without wall-clock windows.
"""

from __future__ import annotations

import os
import shutil
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dialectic import Runtime

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
NPM = ROOT / ".node" / "node_modules" / "@modelcontextprotocol"
PYSERVER = HERE / "pyserver.py"
NODE = shutil.which("node")


def npm_server(package: str) -> str:
    """The entry script of an npm MCP server; skips the test when set-up did not install it."""
    script = NPM / package / "dist" / "index.js"
    if NODE is None or not script.is_file():
        pytest.skip(f"{package} is not installed (python3 tasks.py setup installs it)")
    return str(script)


def node_config(package: str, *args: str, **env: str) -> dict[str, Any]:
    spec: dict[str, Any] = {"command": NODE or "node", "args": [npm_server(package), *args]}
    if env:
        spec["env"] = env
    return spec


def py_config(**extra: Any) -> dict[str, Any]:
    return {"command": sys.executable, "args": [str(PYSERVER)], **extra}


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state) of every process, from /proc (Linux)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (command) "
        out[int(entry.name)] = (int(fields[1]), fields[0])
    return out


def descendants(root: int | None = None) -> dict[int, str]:
    """The descendant processes of ``root`` (default: this test process) and their states."""
    table = _processes()
    found: dict[int, str] = {}
    frontier = [os.getpid() if root is None else root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, state) in table.items():
            if ppid == parent and pid not in found:
                found[pid] = state
                frontier.append(pid)
    return found


def children() -> set[int]:
    """Live (not zombie) descendant processes of this test process."""
    return {pid for pid, state in descendants().items() if state != "Z"}


def gone(pids: set[int]) -> bool:
    """Whether none of ``pids`` is still running or left unreaped (a zombie counts as running:
    its parent did not wait for it)."""
    table = _processes()
    return not any(pid in table for pid in pids)


def ended(pids: set[int]) -> bool:
    """None of ``pids`` runs any more (a zombie whose parent is gone too is init's to reap)."""
    table = _processes()
    return all(pid not in table or table[pid][1] == "Z" for pid in pids)


def wait_until(check: Callable[[], bool], seconds: float = 30.0) -> bool:
    """Poll ``check`` until it holds (a generous bound: the machine is shared and noisy)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return check()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mcp")
    (path / "hello.txt").write_text("hello from a file\n")
    return path


@pytest.fixture(scope="module")
def servers(workdir: Path) -> dict[str, Any]:
    """The configuration of every real server, as an MCP host would write it."""
    return {
        "mcpServers": {
            "memory": node_config("server-memory", MEMORY_FILE_PATH=str(workdir / "memory.jsonl")),
            "fs": node_config("server-filesystem", str(workdir)),
            "everything": node_config("server-everything", "stdio"),
            "py": py_config(timeout=2),
        }
    }


@pytest.fixture(scope="module")
def rt(servers: dict[str, Any]) -> Iterator[Runtime]:
    """One runtime connected to every server, shared by a module's tests (sessions reused)."""
    runtime = Runtime(load_entry_points=False, limits={"deadline": 30})
    runtime.add_mcp_servers(servers)
    try:
        yield runtime
    finally:
        runtime.close()
