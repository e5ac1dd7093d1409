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
    out = rt.run("return greet('a') | 1;", lang="plan")
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "syntax_error"
    assert out.message is not None and "no bitwise operators" in out.message


def test_lenient_repairs_are_warnings(rt: Runtime) -> None:
    out = rt.run("```js\nreturn greet('b')\n```", lang="plan")
    assert out.status == "success" and out.value == "Hello b"
    assert any("code fence" in w for w in out.warnings)
    assert any("missing `;`" in w for w in out.warnings)


def test_template_stringification_matches_javascript(rt: Runtime) -> None:
    out = rt.run("return `${1.0} ${1e21} ${1e-7} ${0.1} ${undefined} ${null}`;", lang="plan")
    assert out.value == "1 1e+21 1e-7 0.1 undefined null"
