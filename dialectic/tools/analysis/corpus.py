"""Reading a corpus of plans: files, folders and JSON Lines, in any notation.

- A folder is searched recursively for files with a known extension.
- ``.json``: one program, a JSON call tree (Dialect JSON).
- ``.jsonl`` / ``.ndjson``: one program per line. A line that is an object with a ``program`` or
  ``plan`` key is a record: that key holds the program (a string is source text, anything else a
  call tree), ``lang`` its notation and ``id`` its name; any other line is itself a call tree.
  (A call tree whose only key is ``program`` or ``plan``, i.e. a call of a function so named,
  must therefore be wrapped: ``{"program": {"program": ...}}``.) Blank lines are skipped.
- ``.yaml`` / ``.yml`` / ``.plan2``: Plan2. ``.plan`` / ``.js`` / ``.ts``: Plan.
- Anything else, or source text without a notation, is detected as ``dialectic run`` does
  (:func:`dialectic.frontends.detect_lang`).
- In a folder, files that hold something other than plans are skipped (:data:`NOT_PLANS`:
  stored outcomes ``*.expected.json``, ``manifest.json``, package manifests); a file named
  explicitly is always read.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

EXTENSIONS = {
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".yaml": "plan2",
    ".yml": "plan2",
    ".plan2": "plan2",
    ".plan": "plan",
    ".js": "plan",
    ".ts": "plan",
}
LANGS = ("json", "plan", "plan2")
#: file names (glob patterns, matched case-insensitively) a folder walk does not read as plans:
#: stored outcomes next to programs (``examples/``), manifests and package metadata
NOT_PLANS = (
    "*.expected.json",
    "*.expected.jsonl",
    "manifest.json",
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    "jsconfig.json",
    "composer.json",
)
_STATEMENT = re.compile(r"^\s*(?:return|use)\b", re.M)
_YAML_KEY = re.compile(r"^[A-Za-z_][\w-]*\s*:(?:\s|$)", re.M)


@dataclass
class Program:
    """One program of a corpus: source text (``str``) or an already-parsed call tree."""

    program: Any
    lang: str | None = None
    id: str = ""


def detect_lang(text: str) -> str:
    """The notation of source text, as ``dialectic run`` detects it."""
    try:
        from dialectic.frontends import detect_lang as core_detect
    except ImportError:  # pragma: no cover - the core front-end registry is always there
        return _detect_lang(text)
    lang: str = core_detect(text)
    return lang


def _detect_lang(text: str) -> str:
    stripped = text.strip()
    if stripped[:1] in '{["' or stripped in ("true", "false", "null") or _is_number(stripped):
        try:
            orjson.loads(stripped)
            return "json"
        except orjson.JSONDecodeError:
            pass
    if _YAML_KEY.search(text) and not _STATEMENT.search(text):
        return "plan2"
    return "plan"


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def _jsonl(path: Path, lang: str | None) -> Iterator[Program]:
    with path.open("rb") as fh:
        for n, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            ident = f"{path}:{n}"
            try:
                value = orjson.loads(raw)
            except orjson.JSONDecodeError as exc:
                yield Program(raw.decode("utf-8", "replace"), "json", ident)
                del exc
                continue
            yield from _record(value, lang, ident)


def _record(value: Any, lang: str | None, ident: str) -> Iterator[Program]:
    if isinstance(value, dict) and ("program" in value or "plan" in value):
        program = value["program"] if "program" in value else value["plan"]
        rec_lang = value.get("lang") or lang
        rec_id = str(value["id"]) if "id" in value else ident
        if isinstance(program, str):
            yield Program(program, rec_lang, rec_id)
        else:
            yield Program(program, "json", rec_id)
        return
    yield Program(value, "json", ident)


def is_plan_file(name: str, exclude: tuple[str, ...] = ()) -> bool:
    """Whether a folder walk reads the file ``name`` as plans: a known extension, and neither
    one of :data:`NOT_PLANS` nor matching an ``exclude`` pattern."""
    lowered = name.lower()
    return (
        Path(lowered).suffix in EXTENSIONS
        and not any(fnmatch.fnmatch(lowered, pattern) for pattern in NOT_PLANS)
        and not any(fnmatch.fnmatch(name, pattern) for pattern in exclude)
    )


def iter_path(
    path: Path, lang: str | None = None, exclude: tuple[str, ...] = ()
) -> Iterator[Program]:
    """The programs of a file, or of every regular file with a known extension under a folder
    whose name matches none of the ``exclude`` glob patterns (e.g. ``*.expected.json``)."""
    if path.is_dir():
        for root, dirs, files in os.walk(path):
            dirs.sort()
            for name in sorted(files):
                child = Path(root) / name
                # (only regular files: a FIFO would block the walk forever, a dangling link
                # would raise)
                if is_plan_file(name, exclude) and child.is_file():
                    yield from iter_path(child, lang)
        return
    kind = EXTENSIONS.get(path.suffix.lower())
    if kind == "jsonl":
        yield from _jsonl(path, lang)
        return
    text = path.read_text(encoding="utf-8", errors="replace")
    yield Program(text, lang or kind, str(path))


def iter_programs(
    inputs: Iterable[Any], lang: str | None = None, exclude: tuple[str, ...] = ()
) -> Iterator[Program]:
    """Programs from paths (``Path``, or ``str`` naming an existing file or folder), source texts,
    call trees (dict/list) and :class:`Program` objects."""
    for n, item in enumerate(inputs):
        if isinstance(item, Program):
            yield item
        elif isinstance(item, os.PathLike):
            yield from iter_path(Path(item), lang, exclude)
        elif isinstance(item, str):
            if "\n" not in item and len(item) < 4096 and os.path.exists(item):
                yield from iter_path(Path(item), lang, exclude)
            else:
                yield Program(item, lang, f"#{n}")
        else:
            yield Program(item, "json", f"#{n}")
