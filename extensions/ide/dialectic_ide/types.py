"""The value types of the IDE extension: ``symbol``, ``selection`` and ``location``.

Coordinates follow editors: lines and columns are 1-based; a selection's end is the position just
after its last character (a zero-width selection is a cursor). Files are paths relative to the
workspace root, with ``/`` separators.

Each type serializes as the program that builds it again, e.g.
``{"symbol": {"name": "validate_token", "file": "auth.py", "line": 6, "column": 5,
"kind": "function"}}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dialectic import Optional, TypeDescription


@dataclass(frozen=True, slots=True)
class Symbol:
    """A code symbol; ``file``/``line``/``column`` locate its definition (or an occurrence)."""

    name: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    kind: str | None = None

    @property
    def where(self) -> str:
        if self.file is None:
            return "(anywhere)"
        if self.line is None:
            return self.file
        return f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True)
class Location:
    """A position in a file, with the text of its line."""

    file: str
    line: int
    column: int
    text: str | None = None


@dataclass(frozen=True, slots=True)
class Selection:
    """A range of a file: start ``line``/``column`` to ``end_line``/``end_column`` (exclusive)."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    text: str | None = None

    @property
    def spec(self) -> str:
        """The compact text form ``file:line:column-endLine:endColumn``."""
        return f"{self.file}:{self.line}:{self.column}-{self.end_line}:{self.end_column}"


def _drop_none(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    return {key: value for key, value in pairs if value is not None}


def make_symbol(
    name: str,
    file: str | None = None,
    line: int | None = None,
    column: int | None = None,
    kind: str | None = None,
) -> Symbol:
    return Symbol(name=name, file=file, line=line, column=column, kind=kind)


def serialize_symbol(sym: Symbol) -> dict[str, Any]:
    return _drop_none(
        [
            ("name", sym.name),
            ("file", sym.file),
            ("line", sym.line),
            ("column", sym.column),
            ("kind", sym.kind),
        ]
    )


def format_symbol(sym: Symbol) -> str:
    return sym.name if sym.file is None else f"{sym.name} ({sym.where})"


def make_location(file: str, line: int, column: int, text: str | None = None) -> Location:
    return Location(file=file, line=line, column=column, text=text)


def serialize_location(loc: Location) -> dict[str, Any]:
    return _drop_none(
        [("file", loc.file), ("line", loc.line), ("column", loc.column), ("text", loc.text)]
    )


def format_location(loc: Location) -> str:
    return f"{loc.file}:{loc.line}:{loc.column}"


def make_selection(
    file: str,
    line: int,
    column: int,
    endLine: int | None = None,
    endColumn: int | None = None,
    text: str | None = None,
) -> Selection:
    end_line = line if endLine is None else endLine
    end_column = column if endColumn is None else endColumn
    return Selection(
        file=file, line=line, column=column, end_line=end_line, end_column=end_column, text=text
    )


_SELECTION_FIELDS = {
    "file": "file",
    "line": "line",
    "column": "column",
    "endLine": "end_line",
    "endColumn": "end_column",
    "text": "text",
}


def selection_field(sel: Selection, name: str) -> Any:
    return getattr(sel, _SELECTION_FIELDS.get(name, name))


def serialize_selection(sel: Selection) -> dict[str, Any]:
    return _drop_none(
        [
            ("file", sel.file),
            ("line", sel.line),
            ("column", sel.column),
            ("endLine", sel.end_line),
            ("endColumn", sel.end_column),
            ("text", sel.text),
        ]
    )


def format_selection(sel: Selection) -> str:
    return sel.spec


SYMBOL_TYPE = TypeDescription(
    "symbol",
    "A code symbol (function, class, method, variable or module) of the workspace: its name and "
    "where it is defined (file relative to the workspace, 1-based line and column).",
    make_symbol,
    {
        "name": "string",
        "file": Optional("string"),
        "line": Optional("integer"),
        "column": Optional("integer"),
        "kind": Optional("string"),
    },
    Symbol,
    serialize=serialize_symbol,
    format=format_symbol,
    parameter_descriptions={
        "name": "the identifier, e.g. `validate_token`",
        "file": "the file that defines it, relative to the workspace root",
        "line": "1-based line of the definition",
        "column": "1-based column of the name on that line",
        "kind": "function, class, variable, module or property",
    },
)

LOCATION_TYPE = TypeDescription(
    "location",
    "A position in a workspace file (1-based line and column) with the text of its line.",
    make_location,
    {
        "file": "string",
        "line": "integer",
        "column": "integer",
        "text": Optional("string"),
    },
    Location,
    serialize=serialize_location,
    format=format_location,
    parameter_descriptions={
        "file": "path relative to the workspace root",
        "line": "1-based line",
        "column": "1-based column",
        "text": "the text of the line",
    },
)

SELECTION_TYPE = TypeDescription(
    "selection",
    "A range of text in a workspace file: from line:column to endLine:endColumn (1-based; the "
    "end is just after the last selected character), with the selected text.",
    make_selection,
    {
        "file": "string",
        "line": "integer",
        "column": "integer",
        "endLine": Optional("integer"),
        "endColumn": Optional("integer"),
        "text": Optional("string"),
    },
    Selection,
    serialize=serialize_selection,
    format=format_selection,
    fields=selection_field,
    parameter_descriptions={
        "file": "path relative to the workspace root",
        "line": "1-based start line",
        "column": "1-based start column",
        "endLine": "1-based end line (default: line)",
        "endColumn": "1-based column just after the selection (default: column, a cursor)",
        "text": "the selected text",
    },
)

TYPES = (SYMBOL_TYPE, SELECTION_TYPE, LOCATION_TYPE)
