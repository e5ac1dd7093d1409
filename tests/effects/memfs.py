"""A stateful extension for the effects tests (SPEC 17): a small in-memory file system with
the real signatures of BFCL's multi-turn ``GorillaFileSystem`` (read from the corpus and turned
into functions by ``from_bfcl``), synchronous or asynchronous, plus a log of the calls in the
order they ran."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio

from dialectic import Failure, FunctionDescription, hookimpl
from dialectic.registry.importers import from_bfcl

DOCS = Path(__file__).parents[2] / ".." / "shared" / "corpora" / "bfcl" / "multi_turn_func_doc"

#: what each GorillaFileSystem function does to the file system
EFFECTS = {
    "cd": "write",
    "mkdir": "write",
    "mv": "write",
    "touch": "write",
    "echo": "write",
    "cp": "write",
    "rm": "destructive",
    "rmdir": "destructive",
}


def gorilla_docs() -> dict[str, dict[str, Any]]:
    text = (DOCS / "gorilla_file_system.json").read_text(encoding="utf-8")
    return {d["name"]: d for d in map(json.loads, text.splitlines()) if d}


class MemoryFS:
    """Directories are dicts, files are text; ``log`` lists the calls as they ran."""

    def __init__(self) -> None:
        self.root: dict[str, Any] = {"docs": {"a.pdf": "A", "b.txt": "B"}}
        self.cwd: list[str] = []
        self.log: list[str] = []
        #: asynchronous calls started so far (each later one sleeps less)
        self.started = 0

    def here(self) -> dict[str, Any]:
        d = self.root
        for part in self.cwd:
            d = d[part]
        return d

    # -- the functions (keyword arguments as in the BFCL documents) ----------------------
    def cd(self, folder: str) -> dict[str, Any]:
        self.log.append(f"cd {folder}")
        if folder == "..":
            if self.cwd:
                self.cwd.pop()
        elif isinstance(self.here().get(folder), dict):
            self.cwd.append(folder)
        else:
            raise Failure(f"cd: {folder}: no such directory")
        return {"current_working_directory": "/" + "/".join(self.cwd)}

    def mkdir(self, dir_name: str) -> None:
        self.log.append(f"mkdir {dir_name}")
        here = self.here()
        if dir_name in here:
            raise Failure(f"mkdir: {dir_name}: exists")
        here[dir_name] = {}

    def mv(self, source: str, destination: str) -> dict[str, Any]:
        self.log.append(f"mv {source} {destination}")
        here = self.here()
        if source not in here:
            raise Failure(f"mv: {source}: no such file")
        item = here.pop(source)
        if isinstance(here.get(destination), dict):
            here[destination][source] = item
        else:
            here[destination] = item
        return {"result": f"moved {source} to {destination}"}

    def touch(self, file_name: str) -> None:
        self.log.append(f"touch {file_name}")
        self.here().setdefault(file_name, "")

    def rm(self, file_name: str) -> dict[str, Any]:
        self.log.append(f"rm {file_name}")
        if self.here().pop(file_name, None) is None:
            raise Failure(f"rm: {file_name}: no such file")
        return {"result": f"removed {file_name}"}

    def ls(self, a: bool = False) -> dict[str, Any]:
        self.log.append("ls")
        return {"current_directory_content": sorted(self.here())}

    def cat(self, file_name: str) -> dict[str, Any]:
        self.log.append(f"cat {file_name}")
        content = self.here().get(file_name)
        if not isinstance(content, str):
            raise Failure(f"cat: {file_name}: no such file")
        return {"file_content": content}

    def pwd(self) -> dict[str, Any]:
        self.log.append("pwd")
        return {"current_working_directory": "/" + "/".join(self.cwd)}


NAMES = ("cd", "mkdir", "mv", "touch", "rm", "ls", "cat", "pwd")


def fs_functions(fs: MemoryFS, *, use_async: bool = False) -> list[FunctionDescription]:
    """The file system's functions from the BFCL documents, in the scope ``fs``; with
    ``use_async``, each implementation is a coroutine that yields to the loop first (so
    independent calls would interleave if nothing ordered them)."""
    docs = gorilla_docs()
    out = []
    for name in NAMES:
        method: Callable[..., Any] = getattr(fs, name)
        impl = _async(fs, method) if use_async else method
        out.append(from_bfcl(docs[name], impl, effects=EFFECTS.get(name, "read"), scope="fs"))
    return out


def _async(fs: MemoryFS, method: Callable[..., Any]) -> Callable[..., Any]:
    """A coroutine that sleeps before it acts, each call less than the one started before it:
    calls that ran concurrently would act in the reverse of the order they started."""

    async def call(**kwargs: Any) -> Any:
        fs.started += 1
        await anyio.sleep(0.03 / fs.started)
        return method(**kwargs)

    return call


#: the file system of the plugin below (``dialectic run --plugin memfs``)
PLUGIN_FS = MemoryFS()


@hookimpl
def dialectic_register_functions(register: Callable[..., None]) -> None:
    register(*fs_functions(PLUGIN_FS))
