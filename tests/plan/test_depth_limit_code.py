"""Nesting beyond ``max_depth`` is ``limit_exceeded`` (``details.limit == "max_depth"``), located
by line:column with the parser's hint, whichever check finds it first: the Plan or Plan2
parser, or the check of the tree. (The parsers' own check used to say ``syntax_error`` for the
same message.)"""

from __future__ import annotations

import pytest

from dialectic import Runtime

RT = Runtime(load_entry_points=False)


def _arrow_blocks(n: int) -> str:
    inner = "1"
    for i in range(n):
        inner = f"[1].map(a{i} => {{ const b{i} = {inner}; return b{i}; }})"
    return f"x = {inner};\nreturn x;"


@pytest.mark.parametrize(
    ("program", "lang"),
    [
        (_arrow_blocks(20), "plan"),  # found on the tree
        (_arrow_blocks(40), "plan"),  # found by the parser
        ("return " + "[" * 150 + "1" + "]" * 150 + ";", "plan"),
        ("return " + "x" + ".f()" * 150 + ";", "plan"),  # a method chain
        ("result: ${" + "[" * 150 + "1" + "]" * 150 + "}\n", "plan2"),  # inside ${...}
        ("result: " + "[" * 150 + "1" + "]" * 150 + "\n", "plan2"),  # the YAML itself
        ("[" * 150 + "1" + "]" * 150, "json"),
    ],
)
def test_too_deep_is_a_located_limit(program: str, lang: str) -> None:
    out = RT.run(program, lang=lang, context={"x": "s"})
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "limit_exceeded", out.message
    assert out.error.details["limit"] == "max_depth"
    assert "nested more than 100 levels deep" in str(out.message)
    if lang != "json":
        assert "line " in str(out.message) and "column " in str(out.message)


def test_an_earlier_syntax_error_stays_a_syntax_error() -> None:
    program = "return f(;\nreturn " + "[" * 150 + "1" + "]" * 150 + ";"
    out = RT.run(program, lang="plan")
    assert out.error is not None and out.error.code == "syntax_error"
    assert "limit" not in out.error.details
