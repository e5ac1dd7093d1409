"""Plan programs through the Runtime: the front end's tree, spans and warnings in use."""

from __future__ import annotations

import pytest

from dialectic import FunctionDescription, Runtime


@pytest.fixture(scope="module")
def rt() -> Runtime:
    runtime = Runtime(load_entry_points=False)
    runtime.register(
        FunctionDescription(
            "greet", "Greet someone", lambda name: f"Hello {name}", {"name": "string"}, "string"
        )
    )
    return runtime


def test_plan_runs(rt: Runtime) -> None:
    out = rt.run("x = greet('Ann');\nreturn `${x}!`;", lang="plan")
    assert out.status == "success"
    assert out.value == "Hello Ann!"
    assert out.warnings == []


def test_runtime_errors_point_at_the_plan_source(rt: Runtime) -> None:
    out = rt.run("x = 1;\nreturn greet(nobody);", lang="plan")
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "unknown_identifier"
    assert out.message is not None and "line 2, column 14" in out.message


def test_syntax_errors_reach_the_outcome(rt: Runtime) -> None:
    out = rt.run("return greet('a') @ 1;", lang="plan")
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "syntax_error"
    assert out.message is not None and "Plan has the operators" in out.message


def test_lenient_repairs_are_warnings(rt: Runtime) -> None:
    out = rt.run("```js\nreturn greet('b')\n```", lang="plan")
    assert out.status == "success" and out.value == "Hello b"
    assert any("code fence" in w for w in out.warnings)
    assert any("missing `;`" in w for w in out.warnings)


def test_template_stringification_matches_javascript(rt: Runtime) -> None:
    out = rt.run("return `${1.0} ${1e21} ${1e-7} ${0.1} ${undefined} ${null}`;", lang="plan")
    assert out.value == "1 1e+21 1e-7 0.1 undefined null"


@pytest.mark.parametrize(
    ("program", "column"),
    [
        ("return await grete({name: 'a'});", 14),
        ("const x = [await  await grete({name: 'a'})]; return x;", 25),
        ("const x = await (grete({name: 'a'})); return x;", 17),
        ("const awaited = 1; return awaitx;", 27),
    ],
)
def test_an_error_points_past_await_at_what_is_awaited(
    rt: Runtime, program: str, column: int
) -> None:
    """`await` changes nothing in a Plan: the caret stands at the call it awaits (it stood at
    `await`)."""
    out = rt.run(program, lang="plan")
    assert out.status == "failure" and out.message is not None
    assert f"line 1, column {column}:" in out.message, out.message
