"""A statement that sets a name declared with ``const`` (``const v = x; v += 1;``) throws in
JavaScript (``TypeError: Assignment to constant variable``); Plan refuses it, and the refusal
says so at the statement, whatever reading failed first (it said "Plan has no operator `+=`" or
"sets the parameter `v`"): :mod:`dialectic.frontends.plan.constsets`. Only the message
changes; where the name may be another one (a parameter, a block's own const), the reading's
own message stands."""

from __future__ import annotations

import pytest

from dialectic.frontends.plan.constsets import const_set
from dialectic.frontends.plan.lexer import tokenize

from .corpus_checks import run_both
from .model_tools import node_answers, runtime

SETS = [
    ("const v = 1;\nv += 1;\nreturn v;", 2, 1),
    ("const v = 1;\nv = v * 2;\nreturn v;", 2, 1),
    ("const n = 1;\nn++;\nreturn n;", 2, 1),
    ("const n = 1;\n--n;\nreturn n;", 2, 3),
    ("return [1, 2].map(x => { const v = x; v += 1; return v; });", 1, 39),
    ("return [1, 2].map(x => {\n  const v = x;\n  v = v + 1;\n  return v;\n});", 3, 3),
    ("const total = 0;\nfor (const x of [1, 2]) {\n  total += x;\n}\nreturn total;", 3, 3),
]


@pytest.mark.parametrize(("text", "line", "column"), SETS)
def test_the_refusal_says_the_name_is_a_const(text: str, line: int, column: int) -> None:
    out = runtime().run(text, lang="plan")
    assert out.status == "failure", out.value
    message = out.message or ""
    # (set again; or a message that named the const already: assigned again, "is a `const`")
    assert "is declared with `const` and " in message or "is a `const`" in message, message
    assert "TypeError" in message and "with `let`" in message, message
    assert f"line {line}, column {column}:" in message, message


def test_node_throws_on_each_of_them() -> None:
    for (text, _, _), answer in zip(SETS, node_answers([t for t, _, _ in SETS]), strict=True):
        assert "Assignment to constant variable" in answer.get("error", ""), (text, answer)


def test_what_the_hint_says_gives_nodes_value() -> None:
    texts = [
        "let v = 1;\nv += 1;\nreturn v;",
        "return [1, 2].map(x => { let v = x; v += 1; return v; });",
        "let total = 0;\nfor (const x of [1, 2]) {\n  total += x;\n}\nreturn total;",
        "const v = 1;\nconst v2 = v + 1;\nreturn v2;",
    ]
    assert [v.kind for v in run_both(texts)] == ["same"] * len(texts)


def test_another_name_of_the_same_spelling_keeps_the_reading_s_message() -> None:
    # a const of a block that is closed before the statement
    out = runtime().run("{ const v = 1; }\nv += 1;\nreturn 1;", lang="plan")
    assert out.status == "failure", out.value
    assert "is declared with `const`" not in (out.message or ""), out.message
    # a parameter of the name, or a let of it nearer the statement: not the const
    for text in (
        "const v = 1;\nconst f = (v) => { v += 1; };",
        "const v = 1;\n{ let v = 2; v += 1; }",
        "const v = 1;\nfunction f(a, v) { v += 1; }",
        # a function that may never run: JavaScript throws only when it does
        "const v = 1;\nfunction f() { v += 1; }",
        "const v = 1;\nconst g = () => { v += 1; };",
    ):
        assert const_set(text, tokenize(text), text.rindex("v +=")) is None, text
    text = "const v = 1;\nif (v) { v += 1; }"
    found = const_set(text, tokenize(text), text.rindex("v +="))
    assert found is not None and found[1] == text.rindex("v +=")


def test_a_program_of_many_problems_costs_no_more_than_a_few_scans() -> None:
    """Each problem looked at scans the program: only the first ones are (the cost stays
    linear in the program); the others keep the reading's message."""
    text = "const v = 1;\n" + "v += 1;\n" * 200 + "return v;"
    out = runtime().run(text, lang="plan")
    assert out.status == "failure" and out.error is not None
    assert "is declared with `const` and set again" in (out.message or "")
