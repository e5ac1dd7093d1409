"""The RFC's IDE examples run through the dialectic Runtime with the ide plugin."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import dialectic_ide.plugin
import pytest
from dialectic_ide import functions

from dialectic import Ambiguous, RunContext, Runtime

SELECTION = "app.py:8:8-8:22"  # `validate_token` in `if validate_token(token):`


@pytest.fixture(scope="module")
def runtime() -> Any:
    return Runtime(plugins=(dialectic_ide.plugin,), load_entry_points=False)


@pytest.fixture
def context(fixture_dir: Path) -> dict[str, Any]:
    return {"workspace": str(fixture_dir), "selection": SELECTION}


def run(runtime: Any, program: Any, context: dict[str, Any]) -> Any:
    return runtime.run(program, context=context)


def test_get_current_selection(runtime: Any, context: dict[str, Any]) -> None:
    out = run(runtime, {"getCurrentSelection": {}}, context)
    assert out.status == "success", out.message
    sel = out.value
    assert (sel.file, sel.line, sel.column, sel.end_line, sel.end_column, sel.text) == (
        "app.py", 8, 8, 8, 22, "validate_token"
    )  # fmt: skip
    assert out.to_json()["value"] == {
        "selection": {
            "file": "app.py", "line": 8, "column": 8, "endLine": 8, "endColumn": 22,
            "text": "validate_token",
        }
    }  # fmt: skip


def test_find_references_of_the_selection_as_written_in_the_rfc(
    runtime: Any, context: dict[str, Any]
) -> None:
    out = run(runtime, {"findReferences": {"target": {"getCurrentSelection": {}}}}, context)
    assert out.status == "success", out.message
    assert [(loc.file, loc.line, loc.column) for loc in out.value] == [
        ("app.py", 3, 27),
        ("app.py", 8, 8),
        ("auth.py", 6, 5),
    ]


def test_ambiguous_find_symbol_suggests_each_definition(
    runtime: Any, context: dict[str, Any]
) -> None:
    out = run(runtime, {"findSymbol": {"name": "validate_token"}}, context)
    assert out.status == "ambiguous"
    assert "The symbol `validate_token` is defined in multiple places. Which did you mean?" in (
        out.message
    )
    programs = [s.program for s in out.suggestions]
    assert programs == [
        {"findSymbol": {"name": "validate_token", "file": "auth.py", "line": 6}},
        {"findSymbol": {"name": "validate_token", "file": "pkg/utils.py", "line": 6}},
    ]
    for program, expected in zip(programs, ("auth.py", "pkg/utils.py"), strict=True):
        again = run(runtime, program, context)
        assert again.status == "success", again.message
        assert again.value.file == expected


def test_find_by_name_is_the_rfcs_simple_operation(runtime: Any, context: dict[str, Any]) -> None:
    out = run(runtime, {"findByName": {"name": "validate_token", "file": "auth.py"}}, context)
    assert out.status == "success", out.message
    assert (out.value.name, out.value.file) == ("validate_token", "auth.py")
    assert run(runtime, {"findByName": {"name": "validate_token"}}, context).status == "ambiguous"


def test_narrowing_by_file_and_line(runtime: Any, context: dict[str, Any]) -> None:
    out = run(runtime, {"findSymbol": {"name": "validate_token", "file": "utils.py"}}, context)
    assert out.status == "success", out.message
    assert (out.value.file, out.value.line) == ("pkg/utils.py", 6)
    # the line given as text is coerced to an integer
    out = run(
        runtime, {"findSymbol": {"name": "validate_token", "file": "auth.py", "line": "6"}}, context
    )
    assert out.status == "success", out.message
    assert out.value.file == "auth.py"


def test_unknown_symbol_fails_with_close_names(runtime: Any, context: dict[str, Any]) -> None:
    out = run(runtime, {"findSymbol": {"name": "validateToken"}}, context)
    assert out.status == "failure"
    assert "validate_token" in json.dumps(out.to_json())


def test_path_traversal_is_refused(runtime: Any, context: dict[str, Any]) -> None:
    for path in ("../conftest.py", "/etc/passwd"):
        out = run(runtime, {"lines": {"file": path}}, context)
        assert out.status == "failure"
        assert "outside the workspace" in json.dumps(out.to_json())
        assert "Traceback" not in json.dumps(out.to_json())


def test_missing_selection_says_how_to_pass_it(runtime: Any, fixture_dir: Path) -> None:
    out = run(runtime, {"getCurrentSelection": {}}, {"workspace": str(fixture_dir)})
    assert out.status == "failure"
    assert "--selection" in json.dumps(out.to_json())


@pytest.mark.parametrize(
    "program",
    [
        {"findSymbol": {"name": "Session"}},
        {"getCurrentSelection": {}},
        {"findDefinitions": {"of": {"getCurrentSelection": {}}}},
        {"search": {"pattern": "def helper"}},
    ],
)
def test_serialized_values_evaluate_back_to_equal_values(
    runtime: Any, context: dict[str, Any], program: Any
) -> None:
    out = run(runtime, program, context)
    assert out.status == "success", out.message
    serialized = out.to_json()["value"]
    again = run(runtime, serialized, context)
    assert again.status == "success", again.message
    assert again.value == out.value


def test_a_name_converts_to_a_symbol(runtime: Any, context: dict[str, Any]) -> None:
    out = run(runtime, {"findReferences": {"target": "Session"}}, context)
    assert out.status == "success", out.message
    assert [(loc.file, loc.line) for loc in out.value] == [
        ("app.py", 3), ("app.py", 9), ("auth.py", 11)
    ]  # fmt: skip


def test_composition_with_let(runtime: Any, context: dict[str, Any]) -> None:
    program = {
        "$let": {"s": {"findSymbol": {"name": "helper"}}},
        "$return": {"lines": {"file": {"$get": [{"$ref": "s"}, "file"]},
                              "start": {"$get": [{"$ref": "s"}, "line"]}}},
    }  # fmt: skip
    out = run(runtime, program, context)
    assert out.status == "success", out.message
    assert out.value == "def helper() -> int:\n    return 1"


def test_the_rfc_example_in_plan(runtime: Any, context: dict[str, Any]) -> None:
    out = runtime.run("findReferences(getCurrentSelection())", context=context, lang="plan")
    assert out.status == "success", out.message
    assert [(loc.file, loc.line) for loc in out.value] == [
        ("app.py", 3), ("app.py", 8), ("auth.py", 6)
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("program", "selection"),
    [
        ({"findReferences": {"target": {"getCurrentSelection": {}}}}, "app.py:8:8-8:29"),
        ({"findReferences": {"target": "validate_token"}}, SELECTION),
    ],
)
def test_an_ambiguous_conversion_suggests_runnable_programs(
    runtime: Any, context: dict[str, Any], program: Any, selection: str
) -> None:
    context["selection"] = selection
    out = run(runtime, program, context)
    assert out.status == "ambiguous", out.message
    assert len(out.suggestions) == 2
    for suggestion in out.suggestions:
        again = run(runtime, suggestion.program, context)
        assert again.status == "success", again.message
        assert isinstance(again.value, list) and again.value


def test_concurrent_calls_share_the_run_cache(runtime: Any, context: dict[str, Any]) -> None:
    names = ["Session", "helper", "TOKEN_PREFIX", "refresh"]
    program = {
        "$let": {
            name: {"findReferences": {"target": {"findSymbol": {"name": name}}}} for name in names
        },
        "$return": [{"$ref": name} for name in names],
    }
    out = run(runtime, program, context)
    assert out.status == "success", out.message
    assert [len(refs) for refs in out.value] == [3, 2, 2, 2]


def test_conversion_candidates_replace_the_argument(runtime: Any, context: dict[str, Any]) -> None:
    """A conversion's candidates are argument-level programs: spliced in, each one runs."""
    ctx = RunContext({**context, "selection": "app.py:8:8-8:29"}, [], None)
    attempts: list[Callable[[], Any]] = [
        lambda: functions.selection_to_symbol(functions.get_current_selection(ctx=ctx), ctx=ctx),
        lambda: functions.string_to_symbol("validate_token", ctx=ctx),
    ]
    for attempt in attempts:
        with pytest.raises(Ambiguous) as info:
            attempt()
        assert len(info.value.candidates) == 2
        for candidate in info.value.candidates:
            out = run(runtime, {"findReferences": {"target": candidate.program}}, context)
            assert out.status == "success", out.message
            assert out.value
