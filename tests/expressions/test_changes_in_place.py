"""A method that changes an array in place (push, pop, shift, unshift, splice, fill,
copyWithin) is refused before anything runs (SPEC 1.8): refused only when run, a change in
an alias nothing reads, or in an arrow whose map nothing reads, went unnoticed and the program
answered the unchanged array where Node answers the changed one."""

from __future__ import annotations

import pytest

from dialectic import FunctionDescription, Runtime

RT = Runtime(load_entry_points=False)


@pytest.mark.parametrize(
    ("text", "method", "line", "column"),
    [
        ("const out = [1, 2];\nconst r = [1].map(p => out.push(p));\nreturn out;", "push", 2, 24),
        (
            "const out = [1, 2];\nconst r = [1].map(p => { out.splice(0, 1); return 1; });\n"
            "return out;",
            "splice",
            2,
            26,
        ),
        ('{"$let": {"r": {"$method": [[1], "fill", 0]}}, "$return": 1}', "fill", None, None),
    ],
)
def test_a_change_in_place_is_refused_before_anything_runs(
    text: str, method: str, line: int | None, column: int | None
) -> None:
    out = RT.run(text, lang="plan" if line is not None else "json")
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "expression_error"
    assert f"{method}() changes the array in place" in out.error.message
    assert (out.error.line, out.error.column) == (line, column), out.message
    assert out.error.hint and "Build a new array instead" in out.error.hint


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        (
            "const out = [1, 2];\nconst keep = out;\nconst r = out.pop();\nreturn keep;",
            "`out` is read before the statement changes it",
            11,
        ),
        (
            "const out = [1, 2];\nconst keep = out;\nout.shift();\nreturn keep;",
            "`out` is read whole before `out.shift()` changes it",
            1,
        ),
    ],
)
def test_an_array_held_under_another_name_is_refused_at_the_change(
    text: str, message: str, column: int
) -> None:
    """(SPEC 10, "Changes outside loops": a change as a statement, refused where JavaScript's
    other name would see it)"""
    out = RT.run(text, lang="plan")
    assert out.status == "failure" and out.error is not None, out.value
    assert message in out.error.message
    assert (out.error.line, out.error.column) == (3, column), out.message


def test_a_registered_function_of_that_name_is_still_called() -> None:
    rt = Runtime(load_entry_points=False)
    top = FunctionDescription(
        "pop", "the top of a stack", lambda stack: stack["items"][-1], {"stack": "object"}, "any"
    )
    rt.register(top)
    out = rt.run("return s.pop();", lang="plan", context={"s": {"items": [1, 2]}})
    assert out.status == "success" and out.value == 2, out.message
