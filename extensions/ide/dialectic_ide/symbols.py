"""Symbol resolution with jedi: definitions by name, the symbol at a position, references.

Everything here runs under :data:`dialectic_ide.workspace.LOCK` (the callers take it).
"""

from __future__ import annotations

import ast
import json
import keyword
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dialectic import Ambiguous, Candidate, Failure
from dialectic.outcome.errors import quote
from dialectic.registry.registry import closest

from .types import Location, Selection, Symbol
from .workspace import Workspace, join_code

#: jedi's name types -> the kinds a program sees
KINDS = {
    "function": "function",
    "class": "class",
    "statement": "variable",
    "instance": "variable",
    "module": "module",
    "property": "property",
    "param": "parameter",
}
MAX_CANDIDATES = 20
MAX_RESULTS = 500
MAX_TEXT = 200
IDENTIFIER = re.compile(r"(?!\d)\w+")
DOTTED = re.compile(r"\s*(?!\d)\w+(?:\s*\.\s*(?!\d)\w+)*\s*")

Refine = Callable[["Definition"], Any]


@dataclass(frozen=True, slots=True)
class Definition:
    """A definition found in the workspace (``column`` is 1-based)."""

    name: str
    file: str
    line: int
    column: int
    kind: str

    def symbol(self) -> Symbol:
        return Symbol(self.name, self.file, self.line, self.column, self.kind)

    def describe(self) -> str:
        return f"the {self.kind} {quote(self.name)} from {quote(f'{self.file}:{self.line}')}"


def find_symbol_call(name: str, file: str | None = None, line: int | None = None) -> Any:
    args: dict[str, Any] = {"name": name}
    if file is not None:
        args["file"] = file
    if line is not None:
        args["line"] = line
    return {"findSymbol": args}


def _refine_find_symbol(name: str) -> Refine:
    return lambda d: find_symbol_call(name, d.file, d.line)


def location(ws: Workspace, path: Path, line: int, column: int) -> Location:
    """A location (1-based line and column) with the stripped text of its line."""
    rel = ws.relative(path) or path.name
    lines = ws.lines(path)
    text = lines[line - 1].strip() if 0 < line <= len(lines) else None
    if text is not None and len(text) > MAX_TEXT:
        text = text[:MAX_TEXT] + "..."
    return Location(rel, line, column, text)


def _definition(ws: Workspace, name: Any) -> Definition | None:
    """A jedi Name as a workspace Definition, or None (outside the workspace, no position)."""
    path = name.module_path
    if path is None or name.line is None:
        return None
    rel = ws.relative(path)
    if rel is None:
        return None
    kind = KINDS.get(name.type, name.type)
    return Definition(name.name, rel, name.line, name.column + 1, kind)


def _is_wanted(name: Any) -> bool:
    """Definitions a program means by a name: not parameters, not function-local variables."""
    if not name.is_definition() or name.type in ("param", "keyword", "path"):
        return False
    if name.type == "statement":
        parent = name.parent()
        return parent is None or parent.type in ("module", "class")
    return True


def definitions_named(ws: Workspace, name: str) -> list[Definition]:
    """Every workspace definition of ``name`` (``Class.method`` dotted names work too)."""
    key = "definitions:" + name
    cached = ws.cache.get(key)
    if cached is not None:
        return list(cached)
    found: dict[tuple[str, int, int], Definition] = {}
    wanted = name.split()[-1].rsplit(".", 1)[-1] if name.split() else name
    for jedi_name in ws.project.search(name, all_scopes=True):
        if jedi_name.name != wanted or not _is_wanted(jedi_name):  # jedi ignores case
            continue
        definition = _definition(ws, jedi_name)
        if definition is not None:
            found.setdefault((definition.file, definition.line, definition.column), definition)
    result = sorted(found.values(), key=lambda d: (d.file, d.line, d.column))
    ws.cache[key] = result
    return list(result)


def all_names(ws: Workspace) -> list[str]:
    """The names defined in the workspace's Python files (for "did you mean" suggestions)."""
    cached = ws.cache.get("all_names")
    if cached is not None:
        return list(cached)
    names: set[str] = set()
    for path in ws.python_files():
        names.add(path.stem)
        try:
            tree = ast.parse(ws.text(path))
        except (SyntaxError, ValueError, Failure):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
                body: Iterable[ast.stmt] = node.body if isinstance(node, ast.ClassDef) else ()
                names.update(_assigned(body))
            elif isinstance(node, ast.Module):
                names.update(_assigned(node.body))
    result = sorted(names)
    ws.cache["all_names"] = result
    return list(result)


def _assigned(body: Iterable[ast.stmt]) -> Iterable[str]:
    for stmt in body:
        targets: list[ast.expr] = []
        if isinstance(stmt, ast.Assign):
            targets = list(stmt.targets)
        elif isinstance(stmt, ast.AnnAssign | ast.AugAssign):
            targets = [stmt.target]
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    yield node.id


def close_names(ws: Workspace, name: str, limit: int = 5) -> list[str]:
    last = name.rsplit(".", 1)[-1]
    names = all_names(ws)
    close = closest(last, names, limit, substrings=False)
    folded = last.replace("_", "").lower()
    for other in names:  # validateToken ~ validate_token
        if other.replace("_", "").lower() == folded and other not in close:
            close.insert(0, other)
    return close[:limit]


def find_definition(
    ws: Workspace,
    name: str,
    file: str | None = None,
    line: int | None = None,
    refine: Refine | None = None,
) -> Definition:
    """The one definition of ``name`` (narrowed by ``file``/``line``).

    Several -> :class:`Ambiguous` with one candidate per definition (``refine`` builds its
    program; default: the refined ``findSymbol`` call). None -> :class:`Failure` with close names.
    """
    name = name.strip() if isinstance(name, str) else name
    if not isinstance(name, str) or not name:
        raise Failure("The symbol name must be a non-empty identifier, e.g. `validate_token`.")
    refine = refine or _refine_find_symbol(name)
    everywhere = definitions_named(ws, name)
    found = everywhere
    if file is not None:
        found = [d for d in found if ws.matches_file(d.file, file)]
    if line is not None:
        found = [d for d in found if d.line == line]
    if len(found) == 1:
        return found[0]
    if not found:
        raise _not_found(ws, name, file, line, everywhere)
    shown = found[:MAX_CANDIDATES]
    message = f"The symbol {quote(name)} is defined in multiple places. Which did you mean?"
    if len(found) > len(shown):
        message += f" ({len(found)} definitions; the first {len(shown)} are listed, "
        message += "pass `file` to narrow the search.)"
    raise Ambiguous(message, [Candidate(d.describe(), refine(d)) for d in shown])


def _not_found(
    ws: Workspace, name: str, file: str | None, line: int | None, everywhere: list[Definition]
) -> Failure:
    if everywhere:  # the narrowing excluded every definition
        where = f"{quote(file)}" if file is not None else "the workspace"
        at = f" at line {line}" if line is not None else ""
        listed = [f"{d.file}:{d.line}" for d in everywhere[:MAX_CANDIDATES]]
        calls = [find_symbol_call(name, d.file, d.line) for d in everywhere[:3]]
        return Failure(
            f"The symbol {quote(name)} is not defined in {where}{at}; it is defined at "
            f"{join_code(listed, 'and')}.",
            hint="Use " + " or ".join(_json(c) for c in calls) + ".",
            code="not_found",
        )
    close = close_names(ws, name)
    hint = (
        f"Close names: {join_code(close)}."
        if close
        else ("Check the spelling, or use `search` to look for the text.")
    )
    return Failure(
        f"No symbol named {quote(name)} is defined in the workspace.", hint=hint, code="not_found"
    )


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# -- positions -------------------------------------------------------------------------------


def position(ws: Workspace, sym: Symbol, refine: Refine | None = None) -> tuple[Path, int, int]:
    """A concrete position (path, 1-based line, 0-based column) of ``sym``'s name.

    A symbol without a file and line is looked up by name first (which may be ambiguous).
    """
    if sym.file is None or sym.line is None:
        d = find_definition(ws, sym.name, sym.file, sym.line, refine)
        return ws.resolve(d.file), d.line, d.column - 1
    path = ws.resolve(sym.file)
    lines = ws.lines(path)
    if not 0 < sym.line <= len(lines):
        raise Failure(
            f"{quote(sym.file)} has {len(lines)} lines; there is no line {sym.line}.",
            hint=f"Use findSymbol to locate {quote(sym.name)}.",
        )
    text = lines[sym.line - 1]
    ident = sym.name.rsplit(".", 1)[-1].strip()
    if sym.column is not None:
        col0 = sym.column - 1
        for m in IDENTIFIER.finditer(text):
            if m.start() <= col0 <= m.end() and m.group() == ident:
                return path, sym.line, col0
    spots = [m for m in IDENTIFIER.finditer(text) if m.group() == ident]
    if not spots and sym.kind == "module":
        raise Failure(
            f"{quote(ident)} is a module; its references are the imports of it.",
            hint=f'Use {{"search": {{"pattern": "import {ident}|from {ident} import"}}}}.',
        )
    if not spots:
        raise Failure(
            f"{quote(ident)} does not occur on line {sym.line} of {quote(sym.file)}.",
            hint=f'Use {{"findSymbol": {{"name": "{ident}"}}}} to locate it.',
        )
    return path, sym.line, spots[0].start()


def _selected_identifiers(ws: Workspace, sel: Selection) -> list[tuple[str, int, int]]:
    """(name, line, 0-based column) of the identifiers the selection touches."""
    path = ws.resolve(sel.file)
    lines = ws.lines(path)
    found: list[tuple[str, int, int]] = []
    cursor = (sel.line, sel.column) == (sel.end_line, sel.end_column)
    last_line = min(sel.end_line, len(lines), sel.line + 50)
    for line in range(sel.line, last_line + 1):
        text = lines[line - 1]
        lo = sel.column - 1 if line == sel.line else 0
        hi = sel.end_column - 1 if line == sel.end_line else len(text)
        for m in IDENTIFIER.finditer(text):
            if keyword.iskeyword(m.group()):
                continue
            inside = m.start() <= lo <= m.end() if cursor else m.start() < hi and m.end() > lo
            if inside:
                found.append((m.group(), line, m.start()))
    return found


def symbol_at(ws: Workspace, sel: Selection) -> Symbol:
    """The symbol under a selection (or cursor): its definition when jedi finds it in the workspace.

    A selection over several names is ambiguous (one candidate per name); over a dotted name
    (``auth.validate_token``) it means the last one.
    """
    found = _selected_identifiers(ws, sel)
    if not found:
        raise Failure(
            f"There is no name under the selection {quote(sel.spec)}.",
            hint="Select (or put the cursor on) an identifier such as a function or class name.",
        )
    text = sel.text or ""
    if len(found) > 1 and DOTTED.fullmatch(text):
        found = [found[-1]]
    distinct: dict[str, tuple[str, int, int]] = {}
    for item in found:
        distinct.setdefault(item[0], item)
    if len(distinct) > 1:
        options = list(distinct.values())[:MAX_CANDIDATES]
        raise Ambiguous(
            f"The selection {quote(sel.spec)} covers several names. Which did you mean?",
            [
                Candidate(
                    f"{quote(name)} at {quote(f'{sel.file}:{line}:{col0 + 1}')}",
                    {"symbol": {"name": name, "file": sel.file, "line": line, "column": col0 + 1}},
                )
                for name, line, col0 in options
            ],
        )
    name, line, col0 = found[0]
    path = ws.resolve(sel.file)
    return _resolve_at(ws, path, name, line, col0)


def _resolve_at(ws: Workspace, path: Path, name: str, line: int, col0: int) -> Symbol:
    """The definition jedi finds for the name at a position; the position itself otherwise."""
    rel = ws.relative(path) or path.name
    names = ws.script(path).goto(line, col0, follow_imports=True)
    inside = {d: None for n in names if (d := _definition(ws, n)) is not None}
    definitions = list(inside)
    if len(definitions) == 1:
        return definitions[0].symbol()
    if len(definitions) > 1:
        raise Ambiguous(
            f"The name {quote(name)} at {quote(f'{rel}:{line}:{col0 + 1}')} may refer to several "
            "definitions. "
            "Which did you mean?",
            [
                Candidate(
                    d.describe(), {"findSymbol": {"name": d.name, "file": d.file, "line": d.line}}
                )
                for d in definitions[:MAX_CANDIDATES]
            ],
        )
    # defined outside the workspace (a library) or not resolvable: the occurrence itself
    kind = KINDS.get(names[0].type, names[0].type) if names else None
    return Symbol(name, rel, line, col0 + 1, kind)


# -- definitions and references --------------------------------------------------------------


def _refine_argument(function: str, parameter: str, name: str) -> Refine:
    """Candidates of ``function(parameter=<a symbol named name>)``: the call with findSymbol."""
    return lambda d: {function: {parameter: find_symbol_call(name, d.file, d.line)}}


def definitions_of(ws: Workspace, sym: Symbol, warn: Callable[[str], None]) -> list[Location]:
    """Where ``sym`` is defined: by position (following imports) or, without one, by name."""
    if sym.file is None or sym.line is None:
        found = definitions_named(ws, sym.name)
        if sym.file is not None:
            found = [d for d in found if ws.matches_file(d.file, sym.file)]
        if not found:
            raise _not_found(ws, sym.name, sym.file, None, definitions_named(ws, sym.name))
        return [location(ws, ws.resolve(d.file), d.line, d.column) for d in found]
    path, line, col0 = position(ws, sym)
    names = ws.script(path).goto(line, col0, follow_imports=True)
    result: dict[tuple[str, int, int], Location] = {}
    outside: list[str] = []
    for n in names:
        d = _definition(ws, n)
        if d is None:
            outside.append(n.full_name or n.name)
            continue
        result.setdefault(
            (d.file, d.line, d.column), location(ws, ws.resolve(d.file), d.line, d.column)
        )
    if not result and outside:
        libraries = join_code(sorted(set(outside)), "and")
        warn(f"{quote(sym.name)} is defined outside the workspace ({libraries}).")
    return sorted(result.values(), key=lambda loc: (loc.file, loc.line, loc.column))


def references_of(ws: Workspace, sym: Symbol, warn: Callable[[str], None]) -> list[Location]:
    """Every occurrence of ``sym`` in the workspace (its definition included), in file order."""
    refine = _refine_argument("findReferences", "target", sym.name)
    path, line, col0 = position(ws, sym, refine)
    names = ws.script(path).get_references(line, col0, include_builtins=False, scope="project")
    result: dict[tuple[str, int, int], Location] = {}
    for n in names:
        if n.module_path is None or n.line is None:
            continue
        rel = ws.relative(n.module_path)
        if rel is None:
            continue
        key = (rel, n.line, n.column + 1)
        if key not in result:
            result[key] = location(ws, Path(n.module_path), n.line, n.column + 1)
    ordered = sorted(result.values(), key=lambda loc: (loc.file, loc.line, loc.column))
    if len(ordered) > MAX_RESULTS:
        warn(
            f"{quote(sym.name)} has {len(ordered)} references; only the first {MAX_RESULTS} are "
            "returned."
        )
        ordered = ordered[:MAX_RESULTS]
    return ordered
