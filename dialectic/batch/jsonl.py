"""The JSON Lines formats of ``dialectic batch`` (SPEC 19): reading programs, writing outcome
records, and resuming.

Input: each line an object ``{"id", "program", "lang"?, "context"?, "functions"?,
"expected"?}``; or a folder of program files (ids: paths relative to it); or a NESTFUL or BFCL
file (``dialectic.batch.corpora``). A line that cannot be read is not skipped: its record is a
failure saying what is wrong on which line.

Output: one record per line, written with one ``write`` (and flush) each on a file opened for
appending, so a crash leaves at most a torn last line. Resuming reads the records already there:
their ids are skipped; a torn last line is cut off before appending.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from dialectic.batch.items import BatchItem
from dialectic.frontends import EXTENSIONS
from dialectic.outcome.outcome import ErrorInfo

_FIELDS = {"id", "program", "lang", "context", "functions", "expected"}


class BatchInputError(ValueError):
    """The input as a whole cannot be read (a missing file, a duplicate id...)."""


def _bad(ident: str, where: str, message: str, hint: str) -> BatchItem:
    return BatchItem(
        ident, None, problem=ErrorInfo("invalid_batch_line", message, where, hint=hint)
    )


def _record_item(value: Any, ident: str, where: str) -> BatchItem:
    hint = 'Each line is an object {"id": ..., "program": ..., "lang"?, "context"?}.'
    if not isinstance(value, dict) or "program" not in value:
        return _bad(ident, where, f"{where}: not a record with a `program`", hint)
    if "id" in value:
        if isinstance(value["id"], float):  # beyond 64 bits, JSON readers round it
            return _bad(
                ident,
                where,
                f"{where}: `id` is a number that is not an integer within 64 bits, which "
                "JSON readers round (this one reads as "
                f"{value['id']!r})",
                'Write an id beyond 64 bits as a string: {"id": "123456789012345678901", ...}.',
            )
        if not isinstance(value["id"], str | int) or isinstance(value["id"], bool):
            return _bad(ident, where, f"{where}: `id` must be a string or an integer", hint)
        ident = str(value["id"])
    unknown = sorted(set(value) - _FIELDS)
    if unknown:
        return _bad(ident, where, f"{where}: unknown field(s) {', '.join(unknown)}", hint)
    lang, context, functions = value.get("lang"), value.get("context"), value.get("functions")
    if lang is not None and not isinstance(lang, str):
        return _bad(ident, where, f"{where}: `lang` must be json, plan or plan2", hint)
    if context is not None and not isinstance(context, dict):
        return _bad(ident, where, f"{where}: `context` must be an object", hint)
    if functions is not None and not isinstance(functions, list):
        return _bad(ident, where, f"{where}: `functions` must be a list of documents", hint)
    return BatchItem(
        ident,
        value["program"],
        lang,
        context,
        tuple(functions) if functions is not None else None,
        value.get("expected"),
    )


def jsonl_items(path: Path) -> Iterator[BatchItem]:
    with path.open("rb") as fh:
        for n, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            where = f"line {n}"
            try:
                value = orjson.loads(raw)
            except orjson.JSONDecodeError as exc:
                yield _bad(
                    f"line-{n}",
                    where,
                    f"{where}: not JSON: {exc}",
                    "Write one JSON object per line.",
                )
                continue
            yield _record_item(value, f"line-{n}", where)


def folder_items(root: Path, lang: str | None = None) -> Iterator[BatchItem]:
    from dialectic.tools.analysis.corpus import is_plan_file

    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if not is_plan_file(name):
                continue
            path = Path(folder) / name
            ident = path.relative_to(root).as_posix()
            if not path.is_file():  # a FIFO would block the batch forever
                yield _bad(ident, ident, f"{ident} is not a regular file", "Use text files.")
                continue
            if path.suffix.lower() in (".jsonl", ".ndjson"):
                for item in jsonl_items(path):
                    yield item.__class__(**{**item.__dict__, "id": f"{ident}#{item.id}"})
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                yield _bad(ident, ident, f"cannot read {ident}: {exc}", "Use UTF-8 text files.")
                continue
            yield BatchItem(ident, text, lang or EXTENSIONS.get(path.suffix.lower()))


def read_items(path: str | Path) -> Iterator[BatchItem]:
    """The items of a JSON Lines file, a folder, or a NESTFUL/BFCL file; ids must be unique
    (a duplicate is a :class:`BatchInputError` naming it)."""
    from dialectic.batch.corpora import corpus_items, sniff

    p = Path(path)
    if p.is_dir():
        items = folder_items(p)
    elif p.is_file():
        kind = sniff(p)
        items = corpus_items(p, kind) if kind else jsonl_items(p)
    else:
        raise BatchInputError(f"no such file or folder: {path}")
    return _unique(items)


def _unique(items: Iterable[BatchItem]) -> Iterator[BatchItem]:
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            raise BatchInputError(
                f"the id {item.id!r} appears twice in the input: ids must be unique "
                "(resuming skips the ids already written)"
            )
        seen.add(item.id)
        yield item


def dumps_record(record: dict[str, Any]) -> bytes:
    """One record as a line of JSON (integers beyond 64 bits are written by ``json``)."""
    try:
        return orjson.dumps(record, option=orjson.OPT_NON_STR_KEYS) + b"\n"
    except TypeError:
        return json.dumps(record, default=str, ensure_ascii=False).encode() + b"\n"


def read_done(path: Path) -> tuple[dict[str, str], int]:
    """The ids of the records in ``path`` with their statuses, and the byte length of its
    complete lines (a torn last line, from a crash, lies beyond it). A broken line that is not
    the last is a :class:`BatchInputError`: the file is not this batch's output."""
    done: dict[str, str] = {}
    good = 0
    if not path.exists():
        return done, 0
    broken = 0  # the number of a line that is not a record (an error unless it is the last)
    with path.open("rb") as fh:
        for n, line in enumerate(fh, 1):
            if not line.endswith(b"\n"):  # text after the last newline: a torn line
                break
            if broken:
                raise BatchInputError(
                    f"{path}: line {broken} is not an outcome record, so the file is not this "
                    "batch's output (choose another --out, or remove the line)"
                )
            if line.strip():
                try:
                    rec = orjson.loads(line)
                except orjson.JSONDecodeError:
                    rec = None
                if not (
                    isinstance(rec, dict) and "id" in rec and isinstance(rec.get("outcome"), dict)
                ):
                    broken = n  # torn by a crash if it is the last line
                    continue
                done[str(rec["id"])] = str(rec["outcome"].get("status"))
            good += len(line)
    return done, good


class OutputFile:
    """Appends records to a JSON Lines file, once per id: ids already there (a resumed batch)
    or already written (a re-run partition) are skipped."""

    def __init__(self, path: Path | None, stream: BinaryIO | None = None) -> None:
        self.path = path
        self.done: dict[str, str] = {}
        if path is not None:
            self.done, good = read_done(path)
            if path.exists() and path.stat().st_size > good:
                os.truncate(path, good)  # cut the torn last line
            self._fh: BinaryIO = path.open("ab", buffering=0)
        else:
            assert stream is not None
            self._fh = stream
        self.resumed = len(self.done)

    def write(self, record: dict[str, Any]) -> bool:
        """Write ``record`` unless its id is already written; True if written."""
        ident = str(record["id"])
        if ident in self.done:
            return False
        self._fh.write(dumps_record(record))
        self._fh.flush()
        self.done[ident] = str(record["outcome"].get("status"))
        return True

    def close(self) -> None:
        if self.path is not None:
            self._fh.close()
        else:
            self._fh.flush()
