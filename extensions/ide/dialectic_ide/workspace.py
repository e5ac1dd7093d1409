"""The workspace of a run: its root, safe path resolution, file reading and the jedi project.

A run names its workspace with the context key ``workspace`` (the CLI's ``--workspace DIR``);
without one, the extension refuses file access: reading files is a grant of the host, never a
default. Every path a program gives is resolved against the root and must stay inside it: ``..``,
absolute paths elsewhere and symlinks that lead out are refused. Only regular files are read
(never a FIFO or a device, which could block), at most :data:`MAX_FILE_BYTES` of them, opened
without blocking; an error of the operating system (such as "File name too long") is a clean
failure that does not show the host's paths.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jedi
from jedi.api.environment import InterpreterEnvironment

from dialectic import Failure, RunContext
from dialectic.outcome.errors import quote
from dialectic.registry.registry import closest

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
        self._special: list[Path] | None = None
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
            return self._resolve(file, what, directory)
        except OSError as exc:  # e.g. "File name too long": its text would show host paths
            raise Failure(
                f"The {what} path {quote(file)} cannot be used: {_os_reason(exc)}.",
                hint="Give a shorter path relative to the workspace root, e.g. `auth.py`.",
            ) from None

    def _resolve(self, file: str, what: str, directory: bool) -> Path:
        try:
            given = Path(file.strip())
            real = (given if given.is_absolute() else self.root / given).resolve()
        except ValueError:  # (an embedded NUL)
            raise Failure(f"The {what} path {quote(file)} is not valid.") from None
        if not real.is_relative_to(self.root):
            raise Failure(
                f"The {what} {quote(file)} is outside the workspace; only files inside the "
                "workspace root can be read (no `..`, absolute paths elsewhere, or symlinks "
                "leading out).",
                hint="Give a path relative to the workspace root, e.g. `auth.py`.",
                code="outside_workspace",
            )
        if directory:
            if not real.exists():
                raise Failure(f"There is no file or folder {quote(file)} in the workspace.")
            return real
        if not real.is_file():
            kind = "a folder, not a file" if real.is_dir() else "not a file of the workspace"
            message = f"{quote(file)} is {kind}."
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
        return closest(wanted, rels, limit, substrings=False)

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
            data = _read_regular(path, rel)
        except OSError as exc:
            raise Failure(f"Cannot read {quote(rel)}: {_os_reason(exc)}.") from None
        text = data.decode("utf-8", errors="replace")
        if keep:
            self._texts[path] = text
        return text

    def lines(self, path: Path) -> list[str]:
        return self.text(path).splitlines()

    # -- jedi --------------------------------------------------------------------------------

    def check_readable_by_jedi(self) -> None:
        """Refuse code intelligence in a workspace holding a Python file that is not a regular
        file (a FIFO named ``x.py``): jedi reads the project's files itself, and such a read
        would block forever while the extension holds its lock."""
        if self._special is None:
            self._special = [p for p in self.python_files() if not _is_regular(p)]
        if self._special:
            rel = self.relative(self._special[0]) or self._special[0].name
            raise Failure(
                f"The workspace holds {quote(rel)}, which is not a regular file (a FIFO, device "
                "or socket): code intelligence cannot read this workspace safely.",
                hint="Remove it from the workspace; `search` and `lines` still work (they skip "
                "such files).",
                code="unreadable_workspace",
            )

    @property
    def project(self) -> Any:
        self.check_readable_by_jedi()
        if self._project is None:
            self._project = _Project(str(self.root), load_unsafe_extensions=False)
        return self._project

    def script(self, path: Path) -> Any:
        script = self._scripts.get(path)
        if script is None:
            self.check_readable_by_jedi()
            script = jedi.Script(
                self.text(path), path=str(path), project=self.project, environment=_environment()
            )
            self._scripts[path] = script
        return script


def _is_regular(path: Path) -> bool:
    """Whether ``path`` is a regular file (``stat`` never blocks, even on a FIFO)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return True  # gone or unreadable: reading it fails cleanly, it cannot block


def _os_reason(exc: OSError) -> str:
    """What went wrong, without the paths an ``OSError``'s text holds."""
    if exc.errno is not None:
        return os.strerror(exc.errno)
    return exc.strerror or type(exc).__name__


def _read_regular(path: Path, rel: str) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_FILE_BYTES`. Opened without blocking
    (``O_NONBLOCK``: a FIFO put in place of a file cannot hang the read) and checked on the open
    descriptor, so a FIFO, a device or a socket is refused, never read."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Failure(
                f"{quote(rel)} is not a regular file (a FIFO, device or socket) and is not read."
            )
        if info.st_size > MAX_FILE_BYTES:
            raise Failure(
                f"{quote(rel)} is too large to read ({info.st_size} bytes; the limit is "
                f"{MAX_FILE_BYTES})."
            )
        chunks: list[bytes] = []
        size = 0
        while True:
            try:
                chunk = os.read(fd, 1 << 20)
            except BlockingIOError:
                raise OSError(errno.EAGAIN, os.strerror(errno.EAGAIN)) from None
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_FILE_BYTES:  # (it grew since fstat)
                raise Failure(f"{quote(rel)} is too large to read (over {MAX_FILE_BYTES} bytes).")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def join_code(items: list[str], last: str = "or") -> str:
    """`` `a`, `b` or `c` `` (for messages)."""
    quoted = [quote(item) for item in items]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + f" {last} " + quoted[-1]


def workspace_of(ctx: RunContext) -> Workspace:
    """The run's workspace (context key ``workspace``; none: a failure saying how to grant one),
    cached."""
    with LOCK:
        cached = ctx.cache.get(CACHE_KEY)
        if isinstance(cached, Workspace):
            return cached
        given = ctx.get("workspace")
        if given is None or given == "":
            raise Failure(
                "The ide functions have no workspace: this run was not given access to any folder.",
                hint="The host grants it: run the CLI with `--workspace DIR`, or pass the "
                "context key `workspace` (a folder path). Files are never read without it.",
                code="no_workspace",
            )
        if isinstance(given, str | os.PathLike):
            root = Path(given)
        else:
            raise Failure(
                f"The run's `workspace` must be a folder path, got {type(given).__name__}.",
                hint="Pass the workspace root folder, e.g. the CLI's `--workspace DIR`.",
            )
        try:
            root = root.expanduser().resolve()
            is_dir = root.is_dir()
        except OSError as exc:
            raise Failure(f"The workspace {quote(given)} cannot be used: {_os_reason(exc)}.")
        except ValueError:
            raise Failure(f"The workspace {quote(given)} is not a valid path.") from None
        if not is_dir:
            raise Failure(
                f"The workspace {quote(given)} is not a folder.",
                hint="Pass an existing folder, e.g. the CLI's `--workspace DIR`.",
            )
        workspace = Workspace(root)
        ctx.cache[CACHE_KEY] = workspace
        return workspace
