"""Destructuring statements (SPEC 10): nested patterns and holes read the parts Node reads;
what Plan does not have (defaults, a nested rest) fails at the place, saying what to write."""

from __future__ import annotations

import pytest

from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import parse_plan

from .program_generator import CONTEXT
from .program_oracle import node_answers, runtime, same

RT = runtime()
PROGRAMS = [
    "const {a, c: [first, , third], d: {f}} = data;\nreturn [a, first, third, f];",
    "const [{name}, , {tags: [t]}] = people;\nreturn name + t;",
    "const [, second] = nums;\nreturn second;",
    "const [[x, y], [z]] = [[1, 2], [3]];\nreturn x + y + z;",
    "const {d: {e, f: fv}} = await later(data);\nreturn [e, fv];",
    "const [head, ...tail] = words;\nconst {length} = tail;\nreturn [head, length];",
    "const [{age: a1}, {age: a2}] = people.toSorted((p, q) => p.age - q.age);\nreturn a1 + a2;",
]


def test_nested_patterns_read_what_node_reads() -> None:
    answers = node_answers(PROGRAMS)
    for program, answer in zip(PROGRAMS, answers, strict=True):
        assert "ok" in answer, (program, answer)
        out = RT.run(program, lang="plan", context=CONTEXT)
        assert out.status == "success", (program, out.message)
        assert same(out.value, answer["ok"]) is None, (program, out.value, answer)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("const {a = 1} = o;\nreturn a;", "a pattern has no defaults", 10),
        ("const [a, [b, ...c]] = o;\nreturn c;", "only the outer array pattern", 15),
        ("const {a, ...others} = o;\nreturn a;", "an object pattern cannot gather", 11),
        ("const {[k]: v} = o;\nreturn v;", "only names and patterns", 8),
    ],
)
def test_what_patterns_do_not_have_fails_at_the_place(text: str, message: str, column: int) -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan(text)
    problem = caught.value.problems[0]
    assert message in problem.message
    assert (problem.line, problem.column) == (1, column)
    assert problem.hint


def test_an_error_in_a_nested_part_points_at_its_name() -> None:
    out = RT.run("const {d: {missing}} = data;\nreturn missing;", lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None
    assert (out.error.line, out.error.column) == (1, 12), out.message


def test_a_very_deep_pattern_is_refused_at_the_depth_limit() -> None:
    text = "const " + "{a: " * 150 + "b" + "}" * 150 + " = o;\nreturn b;"
    with pytest.raises(SourceError) as caught:
        parse_plan(text)
    assert "nested more than 100 levels" in caught.value.problems[0].message
