"""Plain-text operations: ``search`` (regex or literal) and ``lines``.

Patterns come from possibly hostile programs, so ``search`` uses RE2 (``google-re2``): matching
takes linear time (no catastrophic backtracking: ``(\\w+)+\\($`` is as fast as any pattern) and
compiling a pattern has a memory budget (:data:`PATTERN_MEMORY`), so a 35-byte pattern such as
``(?:(?:a{100}){100}){100}`` or 5,000 nested groups is refused cleanly instead of taking gigabytes
or overflowing a stack. RE2 syntax is Python's without lookaround and backreferences. The whole
search also gets a time budget (:func:`time_budget`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import re2  # type: ignore[import-untyped]  # (google-re2 ships no type information)

from dialectic import Failure
from dialectic.outcome.errors import clip, quote

from .types import Location
from .workspace import Workspace

MAX_MATCHES = 200
MAX_LINES = 500
MAX_LINE_SCAN = 2_000  # characters of a line a regex sees (bounds pathological patterns)
MAX_TEXT = 200
SEARCH_SECONDS = 2.0  # the time budget of one search (the run's call_timeout if shorter)


MAX_PATTERN = 1_000  # characters of a search pattern
PATTERN_MEMORY = 8 << 20  # bytes RE2 may use for one compiled pattern


def compile_pattern(pattern: str, regex: bool) -> Any:
    """The compiled RE2 pattern (``regex=False``: the text literally)."""
    if not isinstance(pattern, str) or pattern == "":
        raise Failure("The search pattern must be a non-empty text.")
    if len(pattern) > MAX_PATTERN:
        raise Failure(
            f"The search pattern is too long ({len(pattern)} characters; the limit is "
            f"{MAX_PATTERN}).",
            hint="Search for a shorter, more specific pattern and narrow it with `path`.",
            code="invalid_pattern",
        )
    options = re2.Options()
    options.max_mem = PATTERN_MEMORY
    options.log_errors = False
    try:
        if not regex:
            options.literal = True
        return re2.compile(pattern, options)
    except re2.error as exc:
        reason = exc.args[0] if exc.args else exc
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise Failure(
            f"{quote(pattern)} is not a valid regular expression: {clip(reason, 120)}.",
            hint="Patterns use RE2 syntax (Python's without lookaround or backreferences, "
            "repetition counts up to 1000, bounded size). Escape special characters (e.g. "
            '`\\(`), simplify the pattern, or pass "regex": false to search for the text '
            "literally.",
            code="invalid_pattern",
        ) from None


def time_budget(limits: Any) -> float:
    """Seconds one search may take: :data:`SEARCH_SECONDS`, or 90% of the run's
    ``call_timeout`` if that is shorter (so that the search's own failure, which says what to
    change, comes before the run's generic timeout)."""
    call_timeout = getattr(limits, "call_timeout", None)
    if isinstance(call_timeout, int | float) and call_timeout > 0:
        return min(SEARCH_SECONDS, 0.9 * float(call_timeout))
    return SEARCH_SECONDS


def _too_slow(pattern: str, seconds: float) -> Failure:
    why = "it was stopped before the end of the workspace"
    return Failure(
        f"The search for {quote(pattern, 200)} takes too long (more than {seconds:g} s): {why}.",
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
            text = ws.text(file, keep=False)  # (skips FIFOs, devices and oversized files)
        except (OSError, Failure):
            continue
        if _is_binary(text):
            continue
        rel = ws.relative(file)
        if rel is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if deadline - clock() <= 0:
                raise _too_slow(pattern, seconds)
            m = compiled.search(line[:MAX_LINE_SCAN])  # (RE2: linear time)
            if m is None:
                continue
            if len(found) == MAX_MATCHES:
                warn(
                    f"The search for {quote(pattern)} stopped after {MAX_MATCHES} matches; "
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
            f"{quote(rel)} has {len(lines)} lines; there is no line {first}.",
            hint=f"Ask for lines 1 to {len(lines)}." if lines else None,
        )
    last = len(lines) if end is None else min(end, len(lines))
    if last < first:
        raise Failure(f"The end line {end} is before the start line {first}.")
    if last - first + 1 > MAX_LINES:
        warn(
            f"Only {MAX_LINES} lines are returned at a time: lines {first}-"
            f"{first + MAX_LINES - 1} of {quote(rel)} ({len(lines)} lines); ask for the next ones "
            f"with start {first + MAX_LINES}."
        )
        last = first + MAX_LINES - 1
    return "\n".join(lines[first - 1 : last])
