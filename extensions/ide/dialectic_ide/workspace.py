"""The workspace of a run: its root, safe path resolution, file reading and the jedi project.

A run names its workspace with the context key ``workspace`` (default: the current directory).
Every path a program gives is resolved against the root and must stay inside it: ``..``,
absolute paths elsewhere and symlinks that lead out are refused.
"""

from __future__ import annotations

import difflib
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jedi
from jedi.api.environment import InterpreterEnvironment

from dialectic import Failure, RunContext

#: jedi is not thread-safe; blocking implementations run in worker threads, so every use of the
#: workspace (jedi or not) happens under this lock.
LOCK = threading.RLock()

CACHE_KEY = "dialectic_ide.workspace"

#: folders never searched (jedi ignores the same ones, plus the project's .gitignore)
IGNORED_DIRS = frozenset(
    {".git", ".hg", ".svn", ".tox", ".venv", "venv", ".mypy_cache", ".ruff_cache",
     ".pytest_cache", "__pycache__", "node_modules", ".eggs"}
)  # fmt: skip
MAX_FILE_BYTES = 2_000_000
MAX_FILES = 20_000

_ENVIRONMENT: Any = None


def _environment() -> Any:
    """jedi's environment for this interpreter (no subprocess, independent of $VIRTUAL_ENV)."""
    global _ENVIRONMENT
    if _ENVIRONMENT is None:
        _ENVIRONMENT = InterpreterEnvironment()
    return _ENVIRONMENT


class _Project(jedi.Project):  # type: ignore[misc]  # jedi is untyped
    """A jedi project that analyses with this interpreter instead of a subprocess."""

    def get_environment(self) -> Any:
        return _environment()


class Workspace:
    """A workspace root with the files read and the jedi scripts built during one run."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._texts: dict[Path, str] = {}
        self._scripts: dict[Path, Any] = {}
        self._project: Any = None
        self._python_files: list[Path] | None = None
        self.cache: dict[str, Any] = {}

    # -- paths -------------------------------------------------------------------------------

    def relative(self, path: Path | str) -> str | None:
        """``path`` relative to the root (``/`` separators), or None when it is outside."""
        try:
            real = Path(path).resolve()
        except (OSError, ValueError):
            return None
        if not real.is_relative_to(self.root):
            return None
        rel = real.relative_to(self.root).as_posix()
        return rel if rel != "." else ""

    def resolve(self, file: Any, *, what: str = "file", directory: bool = False) -> Path:
        """The real path of ``file`` (relative to the root), refusing anything outside the root."""
        if not isinstance(file, str) or not file.strip():
            raise Failure(
                f"The {what} path must be a non-empty text, got {file!r}.",
                hint="Give a path relative to the workspace root, e.g. `auth.py`.",
            )
        try:
            given = Path(file.strip())
            real = (given if given.is_absolute() else self.root / given).resolve()
        except (OSError, ValueError) as exc:
            raise Failure(f"The {what} path `{file}` is not valid: {exc}.")
        if not real.is_relative_to(self.root):
            raise Failure(
                f"The {what} `{file}` is outside the workspace; only files inside the workspace "
                "root can be read (no `..`, absolute paths elsewhere, or symlinks leading out).",
                hint="Give a path relative to the workspace root, e.g. `auth.py`.",
                code="outside_workspace",
            )
        if directory:
            if not real.exists():
                raise Failure(f"There is no file or folder `{file}` in the workspace.")
            return real
        if not real.is_file():
            kind = "a folder, not a file" if real.is_dir() else "not a file of the workspace"
            message = f"`{file}` is {kind}."
            close = self.close_files(file)
            hint = f"Did you mean {join_code(close)}?" if close else None
            raise Failure(message, hint=hint, code="not_found")
        return real

    def close_files(self, file: str, limit: int = 3) -> list[str]:
        """Workspace Python files whose path ends like ``file``, or whose name is close to it."""
        wanted = file.strip().replace("\\", "/").lstrip("./")
        rels = [rel for rel in (self.relative(p) for p in self.python_files()) if rel]
        suffix = [rel for rel in rels if rel == wanted or rel.endswith("/" + wanted)]
        if suffix:
            return sorted(suffix)[:limit]
        return difflib.get_close_matches(wanted, rels, n=limit, cutoff=0.6)

    def matches_file(self, rel: str, file: str) -> bool:
        """Whether workspace file ``rel`` is the file a program meant by ``file``.

        ``file`` may be the full relative path or a trailing part of it (``utils.py`` for
        ``pkg/utils.py``); an absolute or ``..`` path is checked against the root first.
        """
        wanted = file.strip().replace("\\", "/")
        if Path(wanted).is_absolute() or ".." in Path(wanted).parts:
            return self.relative(self.resolve(wanted)) == rel
        while wanted.startswith("./"):
            wanted = wanted[2:]
        return rel == wanted or rel.endswith("/" + wanted)

    # -- files -------------------------------------------------------------------------------

    def walk(self, start: Path | None = None, *, python_only: bool = False) -> Iterator[Path]:
        """Files under ``start`` (default: the root) inside the workspace, skipping tool folders."""
        base = start or self.root
        if base.is_file():
            yield base
            return
        count = 0
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(
                d for d in dirnames if d not in IGNORED_DIRS and not d.endswith(".egg-info")
            )
            for name in sorted(filenames):
                if python_only and not name.endswith((".py", ".pyi")):
                    continue
                path = Path(dirpath) / name
                if path.is_symlink() and self.relative(path) is None:
                    continue  # a symlink that leads out of the workspace
                count += 1
                if count > MAX_FILES:
                    return
                yield path

    def python_files(self) -> list[Path]:
        if self._python_files is None:
            self._python_files = list(self.walk(python_only=True))
        return self._python_files

    def text(self, path: Path, *, keep: bool = True) -> str:
        """The text of a workspace file (decoded as UTF-8, undecodable bytes replaced).

        ``keep=False`` does not keep it for the rest of the run (a whole-workspace search).
        """
        cached = self._texts.get(path)
        if cached is not None:
            return cached
        rel = self.relative(path) or path.name
        try:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                raise Failure(
                    f"`{rel}` is too large to read ({size} bytes; the limit is {MAX_FILE_BYTES})."
                )
            data = path.read_bytes()
        except OSError as exc:
            raise Failure(f"Cannot read `{rel}`: {exc.strerror or exc}.")
        text = data.decode("utf-8", errors="replace")
        if keep:
            self._texts[path] = text
        return text

    def lines(self, path: Path) -> list[str]:
        return self.text(path).splitlines()

    # -- jedi --------------------------------------------------------------------------------

    @property
    def project(self) -> Any:
        if self._project is None:
            self._project = _Project(str(self.root), load_unsafe_extensions=False)
        return self._project

    def script(self, path: Path) -> Any:
        script = self._scripts.get(path)
        if script is None:
            script = jedi.Script(
                self.text(path), path=str(path), project=self.project, environment=_environment()
            )
            self._scripts[path] = script
        return script


def join_code(items: list[str], last: str = "or") -> str:
    """`` `a`, `b` or `c` `` (for messages)."""
    quoted = [f"`{item}`" for item in items]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + f" {last} " + quoted[-1]


def workspace_of(ctx: RunContext) -> Workspace:
    """The run's workspace (context key ``workspace``, default: the current directory), cached."""
    with LOCK:
        cached = ctx.cache.get(CACHE_KEY)
        if isinstance(cached, Workspace):
            return cached
        given = ctx.get("workspace")
        if given is None or given == "":
            root = Path.cwd()
        elif isinstance(given, str | os.PathLike):
            root = Path(given)
        else:
            raise Failure(
                f"The run's `workspace` must be a folder path, got {type(given).__name__}.",
                hint="Pass the workspace root folder, e.g. the CLI's `--workspace DIR`.",
            )
        try:
            root = root.expanduser().resolve()
        except (OSError, ValueError) as exc:
            raise Failure(f"The workspace `{given}` is not a valid path: {exc}.")
        if not root.is_dir():
            raise Failure(
                f"The workspace `{given}` is not a folder.",
                hint="Pass an existing folder, e.g. the CLI's `--workspace DIR`.",
            )
        workspace = Workspace(root)
        ctx.cache[CACHE_KEY] = workspace
        return workspace
