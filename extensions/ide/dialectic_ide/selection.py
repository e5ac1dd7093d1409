"""The run's current selection: parsed from the context key ``selection`` and checked.

Accepted forms (lines and columns 1-based, the end just after the last selected character):

- text ``path:line:column-endLine:endColumn``, ``path:line:column-endColumn`` (one line),
  ``path:line:column`` (a cursor) or ``path:line`` (the whole line);
- an object ``{"file", "line", "column", "endLine"?, "endColumn"?, "text"?}`` (``path``,
  ``startLine``/``startColumn`` and snake_case spellings are accepted too);
- a :class:`~dialectic_ide.types.Selection`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from dialectic import Failure
from dialectic.outcome.errors import quote

from .types import Selection
from .workspace import Workspace

MAX_SELECTED_CHARS = 20_000
HOW = (
    "Pass the selection in the run's context as `selection`, e.g. the CLI's "
    "`--selection app.py:6:8-6:22` (path:line:column-endLine:endColumn, 1-based) or "
    'context={"selection": {"file": "app.py", "line": 6, "column": 8, "endLine": 6, '
    '"endColumn": 22}}.'
)
SPEC = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+)(?::(?P<column>\d+))?"
    r"(?:-(?:(?P<end_line>\d+):)?(?P<end_column>\d+))?$"
)

_KEYS = {
    "file": ("file", "path"),
    "line": ("line", "startLine", "start_line"),
    "column": ("column", "startColumn", "start_column", "col", "character"),
    "end_line": ("endLine", "end_line"),
    "end_column": ("endColumn", "end_column", "endCol", "endCharacter"),
    "text": ("text",),
}


def _pick(value: Mapping[str, Any], field: str) -> Any:
    for key in _KEYS[field]:
        if key in value and value[key] is not None:
            return value[key]
    return None


def _integer(value: Any, field: str) -> int | None:
    if value is None:
        return None
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif (isinstance(value, float) and value.is_integer()) or (
        isinstance(value, str) and value.strip().isdigit()
    ):
        number = int(value)
    if number is None or number < 1:
        raise Failure(
            f"The selection's {field} must be a positive integer, got {value!r}.", hint=HOW
        )
    return number


def parse(value: Any) -> tuple[str, int, int | None, int | None, int | None, str | None]:
    """(file, line, column?, end line?, end column?, text?) from a context value."""
    if value is None or value == "":
        raise Failure("No selection was given for this run.", hint=HOW, code="no_selection")
    if isinstance(value, Selection):
        return value.file, value.line, value.column, value.end_line, value.end_column, value.text
    if isinstance(value, str):
        m = SPEC.match(value.strip())
        if m is None:
            raise Failure(
                f"The selection {quote(value)} is not of the form path:line:column-line:column.",
                hint=HOW,
            )
        line = int(m["line"])
        column = int(m["column"]) if m["column"] else None
        end_column = int(m["end_column"]) if m["end_column"] else None
        end_line = (
            int(m["end_line"]) if m["end_line"] else (line if end_column is not None else None)
        )
        for number in (line, column, end_line, end_column):
            if number is not None and number < 1:
                raise Failure(
                    f"The selection {quote(value)} has a 0 line or column; they start at 1.",
                    hint=HOW,
                )
        return m["file"], line, column, end_line, end_column, None
    if isinstance(value, Mapping):
        file = _pick(value, "file")
        if not isinstance(file, str) or not file:
            raise Failure("The selection object has no `file`.", hint=HOW)
        start = _integer(_pick(value, "line"), "line")
        if start is None:
            raise Failure("The selection object has no `line`.", hint=HOW)
        text = _pick(value, "text")
        return (
            file,
            start,
            _integer(_pick(value, "column"), "column"),
            _integer(_pick(value, "end_line"), "endLine"),
            _integer(_pick(value, "end_column"), "endColumn"),
            text if isinstance(text, str) else None,
        )
    raise Failure(f"The selection must be text or an object, got {type(value).__name__}.", hint=HOW)


def current_selection(ws: Workspace, value: Any) -> Selection:
    """The checked selection: its file inside the workspace, its range inside the file."""
    file, line, column, end_line, end_column, text = parse(value)
    path = ws.resolve(file, what="selection's file")
    rel = ws.relative(path) or file
    lines = ws.lines(path)
    count = max(len(lines), 1)
    where = f"{quote(rel)} has {len(lines)} lines"

    def length(n: int) -> int:
        return len(lines[n - 1]) if n <= len(lines) else 0

    if line > count:
        raise Failure(f"The selection starts at line {line}, but {where}.", hint=HOW)
    whole_line = column is None
    if column is None:
        column = 1
    if end_line is None:
        end_line = line
    if end_column is None:
        end_column = length(end_line) + 1 if whole_line else column
    if end_line > count:
        raise Failure(f"The selection ends at line {end_line}, but {where}.", hint=HOW)
    for n, c, which in ((line, column, "starts"), (end_line, end_column, "ends")):
        if c > length(n) + 1:
            raise Failure(
                f"The selection {which} at column {c} of line {n}, but that line has "
                f"{length(n)} characters.",
                hint=HOW,
            )
    if (end_line, end_column) < (line, column):
        raise Failure(
            f"The selection ends ({end_line}:{end_column}) before it starts ({line}:{column}).",
            hint=HOW,
        )
    if text is None:
        text = _slice(lines, line, column, end_line, end_column)
    return Selection(rel, line, column, end_line, end_column, text)


def _slice(lines: list[str], line: int, column: int, end_line: int, end_column: int) -> str:
    if not lines:
        return ""
    if line == end_line:
        return lines[line - 1][column - 1 : end_column - 1]
    parts = [lines[line - 1][column - 1 :]]
    parts.extend(lines[line : end_line - 1])
    parts.append(lines[end_line - 1][: end_column - 1])
    text = "\n".join(parts)
    return text if len(text) <= MAX_SELECTED_CHARS else text[:MAX_SELECTED_CHARS]
