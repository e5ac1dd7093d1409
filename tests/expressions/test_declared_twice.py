"""A name declared twice (JavaScript's SyntaxError; SPEC 10, "Changes outside loops"): the
problem points at the first declaration again, names the first one (before any statement
that made a version of the name: `xs.sort();`, `o.a = 1;`, `d.setDate(1);`), also in an
arrow function's body and a destructuring pattern, and is the only problem of the program
(no statement of the arrow read again as the program's)."""

from __future__ import annotations

import pytest

from .model_tools import node_answers, runtime


@pytest.mark.parametrize(
    ("text", "where", "first"),
    [
        ("const xs = [1];\nxs.sort();\nconst xs = [2];\nreturn xs;", (3, 7), "line 1, column 7"),
        ("const o = {};\no.a = 1;\nconst o = 2;\nreturn o;", (3, 7), "line 1, column 7"),
        (
            "const d = new Date(0);\nd.setDate(3);\nconst d = 1;\nreturn d;",
            (3, 7),
            "line 1, column 7",
        ),
        (
            "return [1].map(u => {\n  const a = u;\n  const a = 2;\n  return a;\n});",
            (3, 9),
            "line 2, column 9",
        ),
        (
            "const {a, b} = {a: 1, b: 2};\nconst {a} = {a: 3};\nreturn a;",
            (2, 8),
            "line 1, column 8",
        ),
        ("const [a, a] = [1, 2];\nreturn a;", (1, 11), "line 1, column 8"),
        (
            "try {\n  const r = await get_user(1);\n  const r = 2;\n  return r;\n} catch (e) {\n"
            "  return 0;\n}",
            (3, 9),
            "line 2, column 9",
        ),
    ],
)
def test_the_second_declaration_is_the_place_and_the_first_is_named(
    text: str, where: tuple[int, int], first: str
) -> None:
    out = runtime().run(text, lang="plan")
    assert out.status == "failure" and out.error is not None, out.value
    assert "is declared twice" in (out.message or ""), out.message
    assert f"({first} and line {where[0]}, column {where[1]})" in (out.message or "")
    assert (out.error.line, out.error.column) == where, out.message
    assert "syntax errors" not in (out.message or ""), out.message  # (one problem)


def test_node_refuses_each_too() -> None:
    texts = [
        "const xs = [1];\nxs.sort();\nconst xs = [2];\nreturn xs;",
        "return [1].map(u => {\n  const a = u;\n  const a = 2;\n  return a;\n});",
        "const [a, a] = [1, 2];\nreturn a;",
    ]
    for answer in node_answers(texts):
        assert answer.get("error", "").startswith("SyntaxError"), answer
