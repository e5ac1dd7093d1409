"""Journals: what each call of a program did, so that running it again repeats nothing that
completed (SPEC 18).

A journal keeps one entry per call, keyed by the program's identity (a hash of its canonical
call tree), the call's place (its whole JSON path and the element indices of the arrow
functions it is in, as canonical JSON) and its arguments as canonical JSON. An entry is
written *before* the call (``in_flight``) and completed after it (``done``, with the result);
a failed call's entry is removed, so it runs again. Running the program again with the same
journal replays a ``done`` call's result without calling; a call left ``in_flight`` (the run
ended while it ran: it may have taken effect) is not repeated silently: see
:mod:`dialectic.run.events`.

- :class:`MemoryJournal`: in this process (results kept as copies);
- :class:`SqliteJournal`: a SQLite file (results kept as JSON; a result that is not plain JSON
  cannot be replayed and counts as ``in_flight``);
- :class:`JsonlJournal`: a JSON Lines file, appended to (one line per write, the last line of
  a key wins; readable with any text tool; results as in SQLite).
"""

from __future__ import annotations

import copy
import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any, Final

DONE: Final = "done"
IN_FLIGHT: Final = "in_flight"

Key = tuple[str, str, str]


class Journal:
    """The interface: ``get`` an entry (status and result), ``started``, ``done``, ``failed``."""

    def get(self, key: Key) -> tuple[str, Any] | None:
        raise NotImplementedError

    def started(self, key: Key, function: str) -> None:
        raise NotImplementedError

    def done(self, key: Key, function: str, result: Any) -> None:
        raise NotImplementedError

    def failed(self, key: Key) -> None:
        raise NotImplementedError


class MemoryJournal(Journal):
    """A journal in memory: for resuming within one process."""

    def __init__(self) -> None:
        self.entries: dict[Key, tuple[str, str, Any]] = {}
        self._lock = threading.Lock()

    def get(self, key: Key) -> tuple[str, Any] | None:
        found = self.entries.get(key)
        # a copy: neither the program's host nor a later run can change what was recorded
        return None if found is None else (found[0], copy.deepcopy(found[2]))

    def started(self, key: Key, function: str) -> None:
        with self._lock:
            self.entries[key] = (IN_FLIGHT, function, None)

    def done(self, key: Key, function: str, result: Any) -> None:
        kept = copy.deepcopy(result)
        with self._lock:
            self.entries[key] = (DONE, function, kept)

    def failed(self, key: Key) -> None:
        with self._lock:
            self.entries.pop(key, None)

    def __len__(self) -> int:
        return len(self.entries)


class SqliteJournal(Journal):
    """A journal in a SQLite file (created if absent): for resuming in another process. Each
    write is committed at once, so a crash loses nothing already written."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        # write-ahead logging: each write is durable when the process dies, and cheap
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS calls (program TEXT NOT NULL, path TEXT NOT NULL, "
            "arguments TEXT NOT NULL, function TEXT NOT NULL, status TEXT NOT NULL, "
            "result TEXT, PRIMARY KEY (program, path, arguments))"
        )

    def get(self, key: Key) -> tuple[str, Any] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT status, result FROM calls WHERE program=? AND path=? AND arguments=?",
                key,
            ).fetchone()
        if row is None:
            return None
        status, result = row
        if status != DONE or result is None:
            return (IN_FLIGHT, None)  # also a result that could not be kept as JSON
        try:
            return (DONE, json.loads(result))
        except (ValueError, TypeError, RecursionError):  # a row not written here: unreadable
            return (IN_FLIGHT, None)

    def _put(self, key: Key, function: str, status: str, result: str | None) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO calls VALUES (?, ?, ?, ?, ?, ?)",
                (*key, function, status, result),
            )

    def started(self, key: Key, function: str) -> None:
        self._put(key, function, IN_FLIGHT, None)

    def done(self, key: Key, function: str, result: Any) -> None:
        try:
            text = json.dumps(result, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError):
            text = None  # not plain JSON: replaying it is not possible
        self._put(key, function, DONE, text)

    def failed(self, key: Key) -> None:
        with self._lock:
            self._db.execute("DELETE FROM calls WHERE program=? AND path=? AND arguments=?", key)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM calls").fetchone()[0])


class JsonlJournal(Journal):
    """A journal in a JSON Lines file (created if absent): each write appends one line
    ``{"program", "path", "arguments", "function", "status", "result"}`` and is flushed at
    once; on opening, the last line of each key wins (a torn last line is ignored)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self.entries: dict[Key, tuple[str, Any]] = {}
        text = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
        if text:
            for line in text.splitlines():
                found = _row(line)
                if found is None:
                    continue  # not a line this journal wrote (torn, or edited): ignored
                key, status, result = found
                if status == "failed":
                    self.entries.pop(key, None)
                else:
                    self.entries[key] = (status, result)
        self._file = self.path.open("a", encoding="utf-8")
        if text and not text.endswith("\n"):
            self._file.write("\n")  # after a torn last line, the next one starts afresh

    def _write(self, key: Key, function: str, status: str, result: Any = None) -> None:
        row = {
            "program": key[0],
            "path": key[1],
            "arguments": key[2],
            "function": function,
            "status": status,
            "result": result,
        }
        line = json.dumps(row, ensure_ascii=False, allow_nan=False)
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()
            if status == "failed":
                self.entries.pop(key, None)
            else:
                self.entries[key] = (status, result)

    def get(self, key: Key) -> tuple[str, Any] | None:
        found = self.entries.get(key)
        if found is None:
            return None
        if found[0] != DONE:
            return (IN_FLIGHT, None)
        return (DONE, copy.deepcopy(found[1]))

    def started(self, key: Key, function: str) -> None:
        self._write(key, function, IN_FLIGHT)

    def done(self, key: Key, function: str, result: Any) -> None:
        try:
            json.dumps(result, allow_nan=False)
        except (TypeError, ValueError):
            self._write(key, function, "unreplayable")  # not plain JSON: counts as in flight
            return
        self._write(key, function, DONE, result)

    def failed(self, key: Key) -> None:
        self._write(key, "", "failed")

    def close(self) -> None:
        with self._lock:
            self._file.close()

    def __len__(self) -> int:
        return len(self.entries)


def _row(line: str) -> tuple[Key, str, Any] | None:
    """(key, status, result) of a journal line, or None when it is not one."""
    try:
        row = json.loads(line)
    except (ValueError, RecursionError):  # (RecursionError: nested too deeply to read)
        return None
    if not isinstance(row, dict):
        return None
    program, path, arguments, status = (
        row.get("program"),
        row.get("path"),
        row.get("arguments"),
        row.get("status"),
    )
    if not (
        isinstance(program, str)
        and isinstance(path, str)
        and isinstance(arguments, str)
        and isinstance(status, str)
    ):
        return None
    return (program, path, arguments), status, row.get("result")


def canonical_json(value: Any) -> str:
    """Arguments as canonical JSON (sorted keys, no spaces): equal arguments, equal text."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=repr
    )


def program_identity(canonical_tree: Any) -> str:
    """A program's identity: the SHA-256 of its canonical call tree (SPEC 1.6), so the same
    program in any notation, or reformatted, is the same program."""
    return hashlib.sha256(canonical_json(canonical_tree).encode()).hexdigest()
