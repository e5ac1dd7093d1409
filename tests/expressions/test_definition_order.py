"""A name read before its definition (SPEC 10, "Semantics"): Node throws a ReferenceError (the
`const`'s temporal dead zone), even when the context has a value of that name; Plan refuses the
program at the read. A parameter or an inner `const` of the same name is another variable."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import node_answers, runs_as_in_node, runtime

RT: Runtime = runtime()

REFUSED = [
    ("const a = w + 1;\nconst w = 2;\nreturn a;", "w", (1, 11), (2, 7)),
    ("const a = await echo(s);\nconst b = [a, c];\nconst c = 1;\nreturn b;", "c", (2, 15), (3, 7)),
    ("await echo(later2);\nconst later2 = 1;\nreturn later2;", "later2", (1, 12), (2, 7)),
    ("const t = `${u}`;\nconst u = 'x';\nreturn t;", "u", (1, 14), (2, 7)),
    ("const m = nums.map(x => x + k);\nconst k = 1;\nreturn m;", "k", (1, 29), (2, 7)),
    (
        "if (flag) {\n  const x = y;\n  const y = 1;\n  return x;\n}\nreturn 0;",
        "y",
        (2, 13),
        (3, 9),
    ),
    ("const {p = q} = data;\nconst q = 1;\nreturn p;", "q", None, (2, 7)),
]


@pytest.mark.parametrize(("text", "name", "read", "defined"), REFUSED)
def test_a_read_before_the_definition_is_refused_where_node_throws(
    text: str, name: str, read: tuple[int, int] | None, defined: tuple[int, int]
) -> None:
    (answer,) = node_answers([text])
    assert "ok" not in answer and "ReferenceError" in str(answer), answer
    out = RT.run(text, lang="plan", context={**CONTEXT, name: 5})  # (a context value too)
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "syntax_error"
    assert (
        f"`{name}` is read before its definition (line {defined[0]}, column {defined[1]})"
        in str(out.message)
    ), out.message
    if read is not None:
        assert (out.error.line, out.error.column) == read, out.message


def test_other_variables_of_the_name_are_not_reads_of_the_later_alias() -> None:
    texts = [
        "const a = nums.map(b => b + 1);\nconst b = 2;\nreturn [a, b];",
        "const a = nums.map(x => { const b = x * 2; return b; });\nconst b = 2;\nreturn [a, b];",
        "const a = data.b;\nconst b = 1;\nreturn [a, b];",
        "const a = {b: 1};\nconst b = a.b;\nreturn b;",
        "const x = 1;\nconst y = x + 1;\nreturn y;",
    ]
    runs_as_in_node(texts, RT)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("if (flag) { return w; }\nconst w = 1;\nreturn w;", (1, 20)),
        ("if (w > 0) { return 1; }\nconst w = 1;\nreturn w;", (1, 5)),
        ("if (!flag) { return 1; } else if (flag) { return v; }\nconst v = 2;\nreturn v;", (1, 50)),
    ],
)
def test_a_branch_reading_what_the_statements_after_the_if_define_is_refused(
    text: str, read: tuple[int, int]
) -> None:
    # JavaScript declares the `const` after the `if` for the whole block: read in the branch or
    # the condition, it throws (a context value of the name is hidden), where Plan read the context
    (answer,) = node_answers([text])
    assert "ok" not in answer and "ReferenceError" in str(answer), answer
    out = RT.run(text, lang="plan", context={**CONTEXT, "w": 5, "v": 5})
    assert out.status == "failure" and out.error is not None, out.value
    assert "is read before its definition (after this `if`)" in str(out.message), out.message
    assert (out.error.line, out.error.column) == read, out.message


def test_a_branch_with_its_own_const_of_the_name_reads_its_own() -> None:
    runs_as_in_node(["if (flag) { const w = 3; return w; }\nconst w = 1;\nreturn w;"], RT)
