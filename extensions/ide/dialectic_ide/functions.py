"""The IDE functions and conversions, as dialectic descriptions.

Every implementation takes the run context (``pass_context=True``) for the workspace root
(context key ``workspace``) and the selection (context key ``selection``); the ones that read
files or run jedi are ``blocking`` (they run in a worker thread, one at a time: jedi is not
thread-safe).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from dialectic import FunctionDescription, Optional, RunContext, TypeConversion

from . import selection as selection_mod
from . import symbols, text
from .types import Location, Selection, Symbol
from .workspace import LOCK, workspace_of


def find_symbol(
    name: str, file: str | None = None, line: int | None = None, *, ctx: RunContext
) -> Symbol:
    with LOCK:
        return symbols.find_definition(workspace_of(ctx), name, file, line).symbol()


def find_definitions(of: Any, *, ctx: RunContext) -> list[Location]:
    """A bare name gives every definition of that name (no question asked); a symbol, a
    selection or a location gives the definitions of that one symbol."""
    sym: Symbol
    if isinstance(of, str):
        sym = Symbol(of)
    elif isinstance(of, Symbol):
        sym = of
    else:
        sym = ctx.convert(of, "symbol")
    with LOCK:
        return symbols.definitions_of(workspace_of(ctx), sym, ctx.warn)


def find_references(target: Symbol, *, ctx: RunContext) -> list[Location]:
    with LOCK:
        return symbols.references_of(workspace_of(ctx), target, ctx.warn)


def search(
    pattern: str, path: str | None = None, regex: bool = True, *, ctx: RunContext
) -> list[Location]:
    with LOCK:
        return text.search(
            workspace_of(ctx), pattern, path, regex, ctx.warn, text.time_budget(ctx.limits)
        )


def lines(file: str, start: int | None = None, end: int | None = None, *, ctx: RunContext) -> str:
    with LOCK:
        return text.read_lines(workspace_of(ctx), file, start, end, ctx.warn)


def get_current_selection(*, ctx: RunContext) -> Selection:
    with LOCK:
        return selection_mod.current_selection(workspace_of(ctx), ctx.get("selection"))


def selection_to_symbol(value: Selection, *, ctx: RunContext) -> Symbol:
    with LOCK:
        ws = workspace_of(ctx)
        return symbols.symbol_at(ws, selection_mod.current_selection(ws, value))


def location_to_symbol(value: Location, *, ctx: RunContext) -> Symbol:
    with LOCK:
        ws = workspace_of(ctx)
        cursor = Selection(value.file, value.line, value.column, value.line, value.column)
        return symbols.symbol_at(ws, selection_mod.current_selection(ws, cursor))


def string_to_symbol(value: str, *, ctx: RunContext) -> Symbol:
    with LOCK:
        return symbols.find_definition(workspace_of(ctx), value).symbol()


FUNCTIONS: tuple[FunctionDescription, ...] = (
    FunctionDescription(
        "findSymbol",
        "Find a code symbol (function, class, method, variable, module) of the workspace by "
        "name, optionally narrowed by file and line. Several definitions -> you are asked which "
        "one you meant.",
        find_symbol,
        {"name": "string", "file": Optional("string"), "line": Optional("integer")},
        "symbol",
        blocking=True,
        pass_context=True,
        parameter_descriptions={
            "name": "the name, e.g. `validate_token` or `Session.refresh`",
            "file": "only definitions in this file (relative path, or its last part)",
            "line": "only the definition on this 1-based line",
        },
        examples=(
            '{"findSymbol": {"name": "validate_token"}}',
            '{"findSymbol": {"name": "validate_token", "file": "auth.py", "line": 6}}',
        ),
    ),
    FunctionDescription(
        "findDefinitions",
        "Where a symbol is defined (following imports); a symbol given only by name gives all "
        "of its definitions.",
        find_definitions,
        {"of": "any"},
        "array",
        blocking=True,
        pass_context=True,
        parameter_descriptions={
            "of": "a name (every definition of it), a findSymbol result or a selection"
        },
        examples=('{"findDefinitions": {"of": {"getCurrentSelection": {}}}}',),
    ),
    FunctionDescription(
        "findReferences",
        "Every place in the workspace that refers to a symbol (its definition and imports "
        "included), as locations in file order.",
        find_references,
        {"target": "symbol"},
        "array",
        blocking=True,
        pass_context=True,
        parameter_descriptions={
            "target": "the symbol (a name, a findSymbol result or the current selection)"
        },
        examples=('{"findReferences": {"target": {"getCurrentSelection": {}}}}',),
    ),
    FunctionDescription(
        "search",
        f"Search the workspace's text files for a regular expression (or literal text with "
        f'"regex": false); one location per matching line, at most {text.MAX_MATCHES}.',
        search,
        {"pattern": "string", "path": Optional("string"), "regex": Optional("boolean")},
        "array",
        blocking=True,
        pass_context=True,
        parameter_descriptions={
            "pattern": "a Python regular expression, or the text itself with regex false; a "
            "pattern that backtracks too much (nested quantifiers such as (a+)+) fails",
            "path": "a file or folder of the workspace to search (default: all of it)",
            "regex": "false to search for the pattern literally (default: true)",
        },
        examples=('{"search": {"pattern": "def \\\\w+_token", "path": "pkg"}}',),
    ),
    FunctionDescription(
        "lines",
        f"The text of lines start..end (1-based, inclusive) of a workspace file, at most "
        f"{text.MAX_LINES} lines.",
        lines,
        {"file": "string", "start": Optional("integer"), "end": Optional("integer")},
        "string",
        blocking=True,
        pass_context=True,
        parameter_descriptions={
            "file": "path relative to the workspace root",
            "start": "first line (default 1)",
            "end": "last line, included (default: the end of the file)",
        },
        examples=('{"lines": {"file": "auth.py", "start": 1, "end": 20}}',),
    ),
    FunctionDescription(
        "getCurrentSelection",
        "The user's current selection in the editor (file, range and selected text).",
        get_current_selection,
        {},
        "selection",
        blocking=True,
        pass_context=True,
        examples=('{"getCurrentSelection": {}}',),
    ),
)

#: the RFC's "Simple Operations" example calls it findByName: another name of findSymbol
FUNCTIONS = (dataclasses.replace(FUNCTIONS[0], aliases=("findByName",)), *FUNCTIONS[1:])

CONVERSIONS = (
    TypeConversion(
        "selection",
        "symbol",
        "The symbol under a selection or cursor (its definition, resolved with jedi).",
        selection_to_symbol,
        pass_context=True,
    ),
    TypeConversion(
        "location",
        "symbol",
        "The symbol at a location (its definition, resolved with jedi).",
        location_to_symbol,
        pass_context=True,
    ),
    TypeConversion(
        "string",
        "symbol",
        "A symbol given by name: the workspace's one definition of that name (as findSymbol).",
        string_to_symbol,
        pass_context=True,
    ),
)
