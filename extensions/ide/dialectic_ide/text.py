"""Plain-text operations: ``search`` (regex or literal) and ``lines``.

Patterns come from possibly hostile programs, so ``search`` uses the ``regex`` package
(mrab-regex, compatible with ``re``) for its ``timeout=``: Python's ``re`` holds the GIL through a
catastrophically backtracking match (``(\\w+)+\\($`` on an ordinary line), so no run timeout
could stop it. The whole search gets a time budget (:func:`time_budget`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import regex as rx

from dialectic import Failure

from .types import Location
from .workspace import MAX_FILE_BYTES, Workspace

MAX_MATCHES = 200
MAX_LINES = 500
MAX_LINE_SCAN = 2_000  # characters of a line a regex sees (bounds pathological patterns)
MAX_TEXT = 200
SEARCH_SECONDS = 2.0  # the time budget of one search (the run's call_timeout if shorter)


def compile_pattern(pattern: str, regex: bool) -> rx.Pattern[str]:
    if not isinstance(pattern, str) or pattern == "":
        raise Failure("The search pattern must be a non-empty text.")
    if not regex:
        return rx.compile(rx.escape(pattern))
    try:
        return rx.compile(pattern)
    except rx.error as exc:
        pos = getattr(exc, "pos", None)  # (not in the type stubs)
        at = f" at position {pos}" if pos is not None else ""
        raise Failure(
            f"`{pattern}` is not a valid regular expression: {getattr(exc, 'msg', exc)}{at}.",
            hint='Escape special characters (e.g. `\\(`), or pass "regex": false to search for '
            "the text literally.",
            code="invalid_pattern",
        )


def time_budget(limits: Any) -> float:
    """Seconds one search may take: :data:`SEARCH_SECONDS`, or 90% of the run's
    ``call_timeout`` if that is shorter (so that the search's own failure, which says what to
    change, comes before the run's generic timeout)."""
    call_timeout = getattr(limits, "call_timeout", None)
    if isinstance(call_timeout, int | float) and call_timeout > 0:
        return min(SEARCH_SECONDS, 0.9 * float(call_timeout))
    return SEARCH_SECONDS


def _too_slow(pattern: str, seconds: float, backtracking: bool) -> Failure:
    shown = pattern if len(pattern) <= 200 else pattern[:200] + "..."
    why = (
        "the pattern backtracks too much on this workspace's text"
        if backtracking
        else "it was stopped before the end of the workspace"
    )
    return Failure(
        f"The search for `{shown}` takes too long (more than {seconds:g} s): {why}.",
        hint="Simplify the pattern: avoid nested quantifiers such as `(a+)+` or `(\\w+)*` and "
        "overlapping alternatives such as `(a|aa)+`; narrow the search with `path`; or pass "
        '"regex": false to search for plain text.',
        code="pattern_timeout",
    )


def _is_binary(data: str) -> bool:
    return "\x00" in data[:8192]


def search(
    ws: Workspace,
    pattern: str,
    path: str | None,
    regex: bool,
    warn: Callable[[str], None],
    seconds: float = SEARCH_SECONDS,
) -> list[Location]:
    """Lines matching ``pattern`` in the workspace's text files (one location per line); a
    :class:`Failure` if the search takes more than ``seconds``."""
    compiled = compile_pattern(pattern, regex)
    start = ws.resolve(path, what="search path", directory=True) if path is not None else None
    found: list[Location] = []
    clock = time.monotonic
    deadline = clock() + seconds
    for file in ws.walk(start):
        try:
            if file.stat().st_size > MAX_FILE_BYTES:
                continue
            text = ws.text(file, keep=False)
        except (OSError, Failure):
            continue
        if _is_binary(text):
            continue
        rel = ws.relative(file)
        if rel is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            left = deadline - clock()
            if left <= 0:
                raise _too_slow(pattern, seconds, False)
            try:
                m = compiled.search(line[:MAX_LINE_SCAN], timeout=left)
            except TimeoutError:
                raise _too_slow(pattern, seconds, True) from None
            if m is None:
                continue
            if len(found) == MAX_MATCHES:
                warn(
                    f"The search for `{pattern}` stopped after {MAX_MATCHES} matches; "
                    "narrow it with `path` or a more specific pattern."
                )
                return found
            shown = line.strip()
            if len(shown) > MAX_TEXT:
                shown = shown[:MAX_TEXT] + "..."
            found.append(Location(rel, number, m.start() + 1, shown))
    return found


def read_lines(
    ws: Workspace, file: str, start: int | None, end: int | None, warn: Callable[[str], None]
) -> str:
    """Lines ``start``..``end`` (1-based, inclusive) of a workspace file, at most MAX_LINES."""
    path = ws.resolve(file)
    lines = ws.lines(path)
    rel = ws.relative(path) or file
    first = 1 if start is None else start
    if first < 1:
        raise Failure(f"Lines are numbered from 1; got start {first}.")
    if first > len(lines):
        raise Failure(
            f"`{rel}` has {len(lines)} lines; there is no line {first}.",
            hint=f"Ask for lines 1 to {len(lines)}." if lines else None,
        )
    last = len(lines) if end is None else min(end, len(lines))
    if last < first:
        raise Failure(f"The end line {end} is before the start line {first}.")
    if last - first + 1 > MAX_LINES:
        warn(
            f"Only {MAX_LINES} lines are returned at a time: lines {first}-"
            f"{first + MAX_LINES - 1} of `{rel}` ({len(lines)} lines); ask for the next ones "
            f"with start {first + MAX_LINES}."
        )
        last = first + MAX_LINES - 1
    return "\n".join(lines[first - 1 : last])
