"""The IDE functions called directly over the fixture workspace (no Runtime needed)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from dialectic_ide import functions as f
from dialectic_ide import text
from dialectic_ide.types import Location, Selection, Symbol

from dialectic import Ambiguous, Failure, Limits, RunContext

Ctx = Callable[..., RunContext]

AUTH_VALIDATE = Symbol("validate_token", "auth.py", 6, 5, "function")
UTILS_VALIDATE = Symbol("validate_token", "pkg/utils.py", 6, 5, "function")


# -- findSymbol ------------------------------------------------------------------------------


def test_find_symbol_unique_class(make_ctx: Ctx) -> None:
    assert f.find_symbol("Session", ctx=make_ctx()) == Symbol("Session", "auth.py", 11, 7, "class")


def test_find_symbol_method_and_dotted_name(make_ctx: Ctx) -> None:
    expected = Symbol("refresh", "auth.py", 17, 9, "function")
    assert f.find_symbol("refresh", ctx=make_ctx()) == expected
    assert f.find_symbol("Session.refresh", ctx=make_ctx()) == expected


def test_find_symbol_module_level_variable(make_ctx: Ctx) -> None:
    sym = f.find_symbol("TOKEN_PREFIX", ctx=make_ctx())
    assert (sym.file, sym.line, sym.kind) == ("auth.py", 3, "variable")


def test_find_symbol_ambiguous_lists_each_definition(make_ctx: Ctx) -> None:
    with pytest.raises(Ambiguous) as info:
        f.find_symbol("validate_token", ctx=make_ctx())
    exc = info.value
    assert exc.message == (
        "The symbol `validate_token` is defined in multiple places. Which did you mean?"
    )
    assert [c.program for c in exc.candidates] == [
        {"findSymbol": {"name": "validate_token", "file": "auth.py", "line": 6}},
        {"findSymbol": {"name": "validate_token", "file": "pkg/utils.py", "line": 6}},
    ]
    assert exc.candidates[0].description == "the function `validate_token` from `auth.py:6`"


def test_each_refined_call_finds_one_symbol(make_ctx: Ctx) -> None:
    with pytest.raises(Ambiguous) as info:
        f.find_symbol("validate_token", ctx=make_ctx())
    found = [
        f.find_symbol(**c.program["findSymbol"], ctx=make_ctx()) for c in info.value.candidates
    ]
    assert found == [AUTH_VALIDATE, UTILS_VALIDATE]


@pytest.mark.parametrize(
    ("file", "line", "expected"),
    [
        ("auth.py", None, AUTH_VALIDATE),
        ("pkg/utils.py", None, UTILS_VALIDATE),
        ("utils.py", None, UTILS_VALIDATE),  # a trailing part of the path is enough
        (None, 6, None),  # both are on line 6: still ambiguous
        ("pkg/utils.py", 6, UTILS_VALIDATE),
    ],
)
def test_find_symbol_narrowing(
    make_ctx: Ctx, file: str | None, line: int | None, expected: Symbol | None
) -> None:
    if expected is None:
        with pytest.raises(Ambiguous):
            f.find_symbol("validate_token", file, line, ctx=make_ctx())
    else:
        assert f.find_symbol("validate_token", file, line, ctx=make_ctx()) == expected


def test_find_symbol_narrowed_to_nothing_names_the_definitions(make_ctx: Ctx) -> None:
    with pytest.raises(Failure) as info:
        f.find_symbol("validate_token", "auth.py", 3, ctx=make_ctx())
    assert "not defined in `auth.py` at line 3" in info.value.message
    assert "`auth.py:6`" in info.value.message and "`pkg/utils.py:6`" in info.value.message
    assert info.value.hint is not None and '"line": 6' in info.value.hint


def test_find_symbol_unknown_name_suggests_close_names(make_ctx: Ctx) -> None:
    with pytest.raises(Failure) as info:
        f.find_symbol("validateToken", ctx=make_ctx())
    assert info.value.message == "No symbol named `validateToken` is defined in the workspace."
    assert info.value.hint == "Close names: `validate_token`."
    with pytest.raises(Failure) as info:
        f.find_symbol("Sesion", ctx=make_ctx())
    assert "`Session`" in (info.value.hint or "")


def test_find_symbol_ignores_parameters_and_locals(make_ctx: Ctx) -> None:
    for name in ("token", "session"):
        with pytest.raises(Failure):
            f.find_symbol(name, ctx=make_ctx())


# -- findDefinitions / findReferences --------------------------------------------------------


def test_find_definitions_by_name_gives_all(make_ctx: Ctx) -> None:
    locations = f.find_definitions(Symbol("validate_token"), ctx=make_ctx())
    assert [(loc.file, loc.line, loc.column) for loc in locations] == [
        ("auth.py", 6, 5),
        ("pkg/utils.py", 6, 5),
    ]
    assert locations[0].text == "def validate_token(token: str) -> bool:"


def test_find_definitions_from_a_usage_follows_imports(make_ctx: Ctx) -> None:
    usage = Symbol("validate_token", "app.py", 11)  # utils.validate_token(token)
    assert f.find_definitions(usage, ctx=make_ctx()) == [
        Location("pkg/utils.py", 6, 5, "def validate_token(token: str) -> bool:")
    ]
    imported = Symbol("Session", "app.py", 9)
    [loc] = f.find_definitions(imported, ctx=make_ctx())
    assert (loc.file, loc.line) == ("auth.py", 11)


def test_find_definitions_outside_the_workspace_warns(make_ctx: Ctx) -> None:
    ctx = make_ctx()
    assert f.find_definitions(Symbol("print", "app.py", 11), ctx=ctx) == []
    assert any("outside the workspace" in w for w in ctx._warnings)


def test_find_references_of_one_definition(make_ctx: Ctx) -> None:
    refs = f.find_references(AUTH_VALIDATE, ctx=make_ctx())
    assert [(r.file, r.line, r.column) for r in refs] == [
        ("app.py", 3, 27),
        ("app.py", 8, 8),
        ("auth.py", 6, 5),
    ]
    assert refs[1].text == "if validate_token(token):"


def test_find_references_keeps_the_two_definitions_apart(make_ctx: Ctx) -> None:
    refs = f.find_references(UTILS_VALIDATE, ctx=make_ctx())
    assert [(r.file, r.line) for r in refs] == [("app.py", 11), ("pkg/utils.py", 6)]


def test_find_references_of_a_name_only_symbol_is_ambiguous(make_ctx: Ctx) -> None:
    with pytest.raises(Ambiguous) as info:
        f.find_references(Symbol("validate_token"), ctx=make_ctx())
    assert info.value.candidates[1].program == {
        "findReferences": {
            "target": {"findSymbol": {"name": "validate_token", "file": "pkg/utils.py", "line": 6}}
        }
    }


def test_find_references_without_column_locates_the_name(make_ctx: Ctx) -> None:
    refs = f.find_references(Symbol("Session", "auth.py", 11), ctx=make_ctx())
    assert [(r.file, r.line) for r in refs] == [("app.py", 3), ("app.py", 9), ("auth.py", 11)]


def test_find_references_name_not_on_the_line(make_ctx: Ctx) -> None:
    with pytest.raises(Failure) as info:
        f.find_references(Symbol("Session", "auth.py", 3), ctx=make_ctx())
    assert info.value.message == "`Session` does not occur on line 3 of `auth.py`."


# -- search / lines --------------------------------------------------------------------------


def test_search_regex(make_ctx: Ctx) -> None:
    found = f.search(r"def \w+_token", ctx=make_ctx())
    assert [(loc.file, loc.line, loc.column) for loc in found] == [
        ("auth.py", 6, 1),
        ("pkg/utils.py", 6, 1),
    ]


def test_search_literal_and_path(make_ctx: Ctx) -> None:
    found = f.search("validate_token(", path="pkg", regex=False, ctx=make_ctx())
    assert [(loc.file, loc.line, loc.column) for loc in found] == [("pkg/utils.py", 6, 5)]
    assert f.search("helper", path="app.py", ctx=make_ctx())[0].line == 11


def test_search_invalid_regex_is_a_clear_failure(make_ctx: Ctx) -> None:
    with pytest.raises(Failure) as info:
        f.search("validate_token(", ctx=make_ctx())
    assert "not a valid regular expression" in info.value.message
    assert '"regex": false' in (info.value.hint or "")


def test_search_is_bounded(make_ctx: Ctx, tmp_path: Path) -> None:
    (tmp_path / "many.txt").write_text("hit\n" * 1000)
    ctx = make_ctx(workspace=str(tmp_path))
    assert len(f.search("hit", ctx=ctx)) == 200
    assert any("stopped after 200 matches" in w for w in ctx._warnings)


@pytest.mark.parametrize("pattern", [r"(\w|\w)+\($", r"(a|aa)+$", r"(\w+)+\($"])
def test_search_with_a_backtracking_pattern_is_fast(tmp_path: Path, pattern: str) -> None:
    # RE2 matches in linear time: the patterns that backtrack for ages in `re` finish at once
    (tmp_path / "a.py").write_text(
        "return self._validate_token_signature_for_user_session(token)\n" + "a" * 60 + "!\n"
    )
    ctx = RunContext({"workspace": str(tmp_path)}, [], Limits(call_timeout=0.3))
    started = time.monotonic()
    f.search(pattern, ctx=ctx)
    assert time.monotonic() - started < 20  # a bound against hangs, not a timing window
    assert f.search(pattern, regex=False, ctx=ctx) == []


@pytest.mark.parametrize(
    "pattern",
    [
        "(?:(?:(?:a{100}){100}){100}){100}",  # gigabytes to compile in a backtracking engine
        "(" * 5000 + "a" + ")" * 5000,  # a RecursionError in `re`
        "x" * 5000,  # longer than MAX_PATTERN
        "(?=lookahead)",  # not RE2 syntax
    ],
)
def test_search_refuses_patterns_beyond_the_budget(make_ctx: Ctx, pattern: str) -> None:
    with pytest.raises(Failure) as info:
        f.search(pattern, ctx=make_ctx())
    assert info.value.code == "invalid_pattern"
    assert len(info.value.message) < 500


def test_search_time_budget() -> None:
    assert text.time_budget(None) == text.SEARCH_SECONDS
    assert text.time_budget(Limits()) == text.SEARCH_SECONDS
    assert text.time_budget(Limits(call_timeout=1)) == pytest.approx(0.9)


def test_lines(make_ctx: Ctx) -> None:
    assert f.lines("auth.py", 6, 7, ctx=make_ctx()) == (
        "def validate_token(token: str) -> bool:\n"
        '    """Check that a token has the expected prefix."""'
    )
    assert f.lines("pkg/utils.py", 10, ctx=make_ctx()) == "def helper() -> int:\n    return 1"
    with pytest.raises(Failure, match="has 19 lines; there is no line 40"):
        f.lines("auth.py", 40, ctx=make_ctx())


def test_lines_is_bounded(make_ctx: Ctx, tmp_path: Path) -> None:
    (tmp_path / "long.py").write_text("".join(f"x{i} = {i}\n" for i in range(1, 1001)))
    ctx = make_ctx(workspace=str(tmp_path))
    text = f.lines("long.py", ctx=ctx)
    assert text.count("\n") == 499 and text.endswith("x500 = 500")
    assert any("start 501" in w for w in ctx._warnings)


# -- the workspace boundary ------------------------------------------------------------------


@pytest.mark.parametrize("path", ["../secret.txt", "pkg/../../secret.txt", "/etc/passwd"])
def test_paths_outside_the_workspace_are_refused(
    make_ctx: Ctx, workspace_copy: Path, path: str
) -> None:
    ctx = make_ctx(workspace=str(workspace_copy))
    with pytest.raises(Failure) as info:
        f.lines(path, ctx=ctx)
    assert info.value.code == "outside_workspace"
    assert "outside the workspace" in info.value.message
    with pytest.raises(Failure, match="outside the workspace"):
        f.search("x", path=path, ctx=ctx)
    with pytest.raises(Failure, match="outside the workspace"):
        f.get_current_selection(ctx=make_ctx(workspace=str(workspace_copy), selection=f"{path}:1"))


def test_symlinks_out_of_the_workspace_are_refused(make_ctx: Ctx, workspace_copy: Path) -> None:
    os.symlink(workspace_copy.parent / "secret.txt", workspace_copy / "escape.txt")
    os.symlink(workspace_copy.parent, workspace_copy / "up")
    ctx = make_ctx(workspace=str(workspace_copy))
    for path in ("escape.txt", "up/secret.txt"):
        with pytest.raises(Failure, match="outside the workspace"):
            f.lines(path, ctx=ctx)
    # a whole-workspace search does not follow them either
    assert all(loc.file != "escape.txt" for loc in f.search("SECRET", ctx=ctx))
    assert f.search("SECRET", ctx=ctx) == []


def test_absolute_path_inside_the_workspace_is_fine(make_ctx: Ctx, fixture_dir: Path) -> None:
    assert f.lines(str(fixture_dir / "pkg" / "utils.py"), 10, 10, ctx=make_ctx()) == (
        "def helper() -> int:"
    )


def test_missing_file_suggests_a_match(make_ctx: Ctx) -> None:
    with pytest.raises(Failure) as info:
        f.lines("utils.py", ctx=make_ctx())
    assert info.value.hint == "Did you mean `pkg/utils.py`?"


def test_bad_workspace(make_ctx: Ctx, fixture_dir: Path) -> None:
    with pytest.raises(Failure, match="is not a folder"):
        f.lines("auth.py", ctx=make_ctx(workspace=str(fixture_dir / "nope")))


# -- the selection ---------------------------------------------------------------------------


def test_get_current_selection_text_form(make_ctx: Ctx) -> None:
    sel = f.get_current_selection(ctx=make_ctx(selection="app.py:8:8-8:22"))
    assert sel == Selection("app.py", 8, 8, 8, 22, "validate_token")


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("app.py:8:8-22", Selection("app.py", 8, 8, 8, 22, "validate_token")),
        ("app.py:8:10", Selection("app.py", 8, 10, 8, 10, "")),
        ("app.py:4", Selection("app.py", 4, 1, 4, 22, "from pkg import utils")),
        (
            {"file": "app.py", "line": 8, "column": 8, "endLine": 8, "endColumn": 22},
            Selection("app.py", 8, 8, 8, 22, "validate_token"),
        ),
        (
            {"path": "app.py", "start_line": "8", "start_column": 8, "end_column": 22},
            Selection("app.py", 8, 8, 8, 22, "validate_token"),
        ),
        (
            "auth.py:6:1-7:4",
            Selection("auth.py", 6, 1, 7, 4, "def validate_token(token: str) -> bool:\n   "),
        ),
    ],
)
def test_get_current_selection_forms(make_ctx: Ctx, given: object, expected: Selection) -> None:
    assert f.get_current_selection(ctx=make_ctx(selection=given)) == expected


def test_no_selection_says_how_to_pass_one(make_ctx: Ctx) -> None:
    with pytest.raises(Failure) as info:
        f.get_current_selection(ctx=make_ctx())
    assert info.value.message == "No selection was given for this run."
    assert "--selection" in (info.value.hint or "")


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("app.py", "is not of the form"),
        ("app.py:99:1", "starts at line 99"),
        ("app.py:8:80", "column 80 of line 8"),
        ("app.py:8:9-8:3", "ends (8:3) before it starts (8:9)"),
        ({"file": "app.py"}, "has no `line`"),
        ({"file": "app.py", "line": -2}, "positive integer"),
        (42, "must be text or an object"),
    ],
)
def test_bad_selections(make_ctx: Ctx, given: object, message: str) -> None:
    with pytest.raises(Failure, match=message.replace("(", r"\(").replace(")", r"\)")):
        f.get_current_selection(ctx=make_ctx(selection=given))


# -- conversions -----------------------------------------------------------------------------


def test_selection_to_symbol_resolves_the_definition(make_ctx: Ctx) -> None:
    sel = Selection("app.py", 8, 8, 8, 22, "validate_token")
    assert f.selection_to_symbol(sel, ctx=make_ctx()) == AUTH_VALIDATE
    cursor = Selection("app.py", 11, 24, 11, 24)  # inside utils.validate_token
    assert f.selection_to_symbol(cursor, ctx=make_ctx()) == UTILS_VALIDATE


def test_selection_over_a_dotted_name_means_the_last(make_ctx: Ctx) -> None:
    sel = Selection("app.py", 11, 11, 11, 31, "utils.validate_token")
    assert f.selection_to_symbol(sel, ctx=make_ctx()) == UTILS_VALIDATE


def test_selection_over_several_names_is_ambiguous(make_ctx: Ctx) -> None:
    sel = Selection("app.py", 8, 8, 8, 29, "validate_token(token)")
    with pytest.raises(Ambiguous) as info:
        f.selection_to_symbol(sel, ctx=make_ctx())
    assert [c.program for c in info.value.candidates] == [
        {"symbol": {"name": "validate_token", "file": "app.py", "line": 8, "column": 8}},
        {"symbol": {"name": "token", "file": "app.py", "line": 8, "column": 23}},
    ]


def test_selection_without_a_name_fails(make_ctx: Ctx) -> None:
    with pytest.raises(Failure, match="no name under the selection"):
        f.selection_to_symbol(Selection("app.py", 2, 1, 2, 1), ctx=make_ctx())


def test_selection_on_a_library_name_keeps_the_occurrence(make_ctx: Ctx) -> None:
    sym = f.selection_to_symbol(Selection("app.py", 11, 5, 11, 5), ctx=make_ctx())
    assert sym == Symbol("print", "app.py", 11, 5, "function")


def test_location_and_string_to_symbol(make_ctx: Ctx) -> None:
    loc = Location("app.py", 9, 19)
    assert f.location_to_symbol(loc, ctx=make_ctx()).file == "auth.py"
    assert f.string_to_symbol("helper", ctx=make_ctx()).file == "pkg/utils.py"
    with pytest.raises(Ambiguous):
        f.string_to_symbol("validate_token", ctx=make_ctx())


def test_a_stale_column_falls_back_to_the_name_on_the_line(make_ctx: Ctx) -> None:
    refs = f.find_references(Symbol("Session", "auth.py", 11, 1), ctx=make_ctx())
    assert [(r.file, r.line) for r in refs] == [("app.py", 3), ("app.py", 9), ("auth.py", 11)]


def test_modules_are_symbols_but_their_references_are_searched(make_ctx: Ctx) -> None:
    module = f.find_symbol("pkg.utils", ctx=make_ctx())
    assert module == Symbol("utils", "pkg/utils.py", 1, 1, "module")
    with pytest.raises(Failure) as info:
        f.find_references(module, ctx=make_ctx())
    assert "is a module" in info.value.message and '"search"' in (info.value.hint or "")
