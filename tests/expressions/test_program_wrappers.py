"""A program wrapped in a function of no parameters (SPEC 10, "Wrapped programs"): the body runs
as the program, as Node.js runs the same text inside an async function; what is not such a
wrapper fails clearly, at the right place."""

from __future__ import annotations

import pytest

from dialectic import Runtime
from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import parse_plan

from .program_generator import CONTEXT
from .program_oracle import node_answers, runtime, same

BODIES = [
    "const a = await later(nums.length);\n  return add(a, 1);",
    "const [x, y] = await Promise.all([echo(1), later(2)]);\n  return {x, y};",
    "const names = people.filter(p => p.age > 5).map(p => p.name);\n  return names.join(', ');",
    "if (data.a > 0) {\n    return 'positive';\n  }\n  return 'other';",
    "return `${data.b}: ${(await later(data.c)).length}`;",
]
#: each wrapper, with `BODY` for the body; every one returns the body's value in Node
WRAPPERS = [
    "return (async () => {\n  BODY\n})();",
    "return (async function () {\n  BODY\n})();",
    "return (function () {\n  BODY\n}());",
    "async function main() {\n  BODY\n}\nreturn main();",
    "async function main() {\n  BODY\n}\nreturn await main();",
    "const main = async () => {\n  BODY\n};\nreturn main();",
    "let run = async function () {\n  BODY\n};\n\nreturn await run();",
]
#: the same without `return` (a final expression, as a script's completion value) or uncalled
WITHOUT_RETURN = [
    "async () => {\n  BODY\n}",
    "() => {\n  BODY\n}",
    "(async () => {\n  BODY\n})();",
    "async function main() {\n  BODY\n}\nmain();",
    "async function main() {\n  BODY\n}\n\nawait main();\n",
    "// the plan\nconst go = async () => {\n  BODY\n}\ngo()",
    "```javascript\nasync () => {\n  BODY\n}\n```",
]

RT: Runtime = runtime()


def _run(text: str) -> object:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "success", (text, out.message)
    assert any("ran the body of the function" in w for w in out.warnings), out.warnings
    return out.value


def test_wrapped_programs_give_what_node_gives() -> None:
    # (JavaScript has no `await` in a function that is not async: Plan reads it as if it were)
    texts = [
        w.replace("BODY", b) for w in WRAPPERS for b in BODIES if "async" in w or "await" not in b
    ]
    answers = node_answers(texts)
    for text, answer in zip(texts, answers, strict=True):
        assert "ok" in answer, (text, answer)
        ours = _run(text)
        assert same(ours, answer["ok"]) is None, (text, ours, answer)


@pytest.mark.parametrize("wrapper", WITHOUT_RETURN)
def test_a_final_call_or_a_bare_function_runs_its_body(wrapper: str) -> None:
    for body in BODIES:
        bare = _run_body(body)
        assert _run(wrapper.replace("BODY", body)) == bare


def _run_body(body: str) -> object:
    out = RT.run(body, lang="plan", context=CONTEXT)
    assert out.status == "success", out.message
    return out.value


def test_the_warning_names_the_wrapper_where_it_starts() -> None:
    out = RT.run("\n\n  const main = async function () { return 1; };\nmain();", lang="plan")
    assert out.value == 1
    assert out.warnings == [
        "line 3, column 3: ran the body of the function `main = async function() {...}` "
        "as the program"
    ]


def test_an_error_in_the_body_points_at_the_original_text() -> None:
    text = "async () => {\n  const a = await later('x');\n  return a.nope;\n}"
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure"
    assert "line 3, column 10" in (out.message or "")
    assert "return a.nope;\n             ^" in (out.message or "")


def test_a_syntax_error_in_the_body_points_at_the_original_text() -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan("(async () => {\r\n  const a = ;\r\n  return a;\r\n})()")
    problem = caught.value.problems[0]
    assert (problem.line, problem.column) == (2, 13)


FAILURES = [
    # (text, the message, line, column)
    (
        "async function main() { return 1; }",
        "the function `main` is declared but never called",
        1,
        1,
    ),
    (
        "async function main() { return 1; }\nmain().catch(console.error);",
        "`main()` is followed by `.catch(...)`: a program has no promises to chain",
        2,
        1,
    ),
    (
        "async (city, day) => { return city; }",
        "the program is a function of parameters (city, day), but nothing passes them",
        1,
        8,
    ),
]


@pytest.mark.parametrize(("text", "message", "line", "column"), FAILURES)
def test_what_is_not_a_wrapper_fails_clearly(
    text: str, message: str, line: int, column: int
) -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan(text)
    problem = caught.value.problems[0]
    assert message in problem.message
    assert (problem.line, problem.column) == (line, column)
    assert problem.hint


def test_strict_mode_refuses_a_wrapper() -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan("(async () => {\n  return 1;\n})();", strict=True)
    problem = caught.value.problems[0]
    assert problem.message == "the program is wrapped in a function (`async () => {...}`)"
    assert "send only the function's body" in (problem.hint or "")


@pytest.mark.parametrize(
    "text",
    [
        # not wrappers: the parser reads them as they are
        "(async () => { return 1; });",
        "(async () => { return 1; })",  # (the end of the text: an IndexError, found by fuzzing)
        "((x) => { return x; })(1);",
        "async function main() { return 1; ",
    ],
)
def test_other_functions_are_not_taken_for_wrappers(text: str) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure"
    assert "wrapped" not in (out.message or "")
    assert not any("ran the body" in w for w in out.warnings)


def test_an_ordinary_program_in_parentheses_is_not_unwrapped() -> None:
    out = RT.run("(data.a + 2)", lang="plan", context=CONTEXT)
    assert out.value == 3
    assert not any("ran the body" in w for w in out.warnings)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a function called by the program, not a wrapper (SPEC 10, "Functions")
        ("const f = (x) => { return x; };\nreturn f(1);", 1),
        ("async function main() { return 1; }\nmain();\nreturn 2;", 2),
        (
            "async function main() { return h(1); }\n"
            "function h(x) { return x + 1; }\nreturn main();",
            2,
        ),
    ],
)
def test_a_function_the_program_calls_is_not_a_wrapper(text: str, value: object) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "success", out.message
    assert out.value == value
    assert not any("ran the body" in w for w in out.warnings)
