"""The IDE functions over a real code base: the project's own source tree (dialectic/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dialectic_ide import functions as f

import dialectic
from dialectic import RunContext

SOURCE = Path(dialectic.__file__).resolve().parent


@pytest.fixture
def ctx() -> RunContext:
    return RunContext({"workspace": str(SOURCE)}, [], None)


def test_find_a_class_defined_once(ctx: RunContext) -> None:
    sym = f.find_symbol("FunctionDescription", ctx=ctx)
    assert (sym.file, sym.kind) == ("registry/descriptions.py", "class")
    assert sym.file is not None and sym.line is not None
    assert f.lines(sym.file, sym.line, sym.line, ctx=ctx).startswith("class FunctionDescription")


def test_references_of_a_core_class_span_several_modules(ctx: RunContext) -> None:
    refs = f.find_references(f.find_symbol("Failure", file="outcome/errors.py", ctx=ctx), ctx=ctx)
    files = {r.file for r in refs}
    assert "outcome/errors.py" in files and "__init__.py" in files
    assert len(files) >= 3
    assert all(not r.file.startswith("/") and ".." not in r.file for r in refs)


def test_selection_in_the_source_tree(ctx: RunContext) -> None:
    init = (SOURCE / "__init__.py").read_text().splitlines()
    number = next(i for i, line in enumerate(init, 1) if line.strip() == "FunctionDescription,")
    column = init[number - 1].index("FunctionDescription") + 1
    spec = f"__init__.py:{number}:{column}-{number}:{column + len('FunctionDescription')}"
    run = RunContext({"workspace": str(SOURCE), "selection": spec}, [], None)
    sel = f.get_current_selection(ctx=run)
    assert sel.text == "FunctionDescription"
    assert f.selection_to_symbol(sel, ctx=run).file == "registry/descriptions.py"
