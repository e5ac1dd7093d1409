"""A model's reply with several fenced blocks (SPEC 9, 10, 11): when two of them hold different
programs of the notation, which one is meant cannot be known, so none runs and the failure has
each as a program (``details.readings``) that runs as it is; one program and other blocks (its
output, a shell command, the same program again) runs with a warning."""

from __future__ import annotations

from typing import Any

import pytest

from dialectic import Runtime

RT = Runtime(load_entry_points=False)

#: (notation, a program giving "A", one giving "B", a block of another language)
CASES = [
    ("plan", "return upper('a');", "const b = upper('b');\nreturn b;", "```sh\nnode plan.js\n```"),
    ("json", '{"upper": ["a"]}', '{"upper": ["b"]}', "```text\nA\n```"),
    ("plan2", "result:\n  upper: [a]", "result:\n  upper: [b]", '```json\n"A"\n```'),
]
TAGS = {"plan": "javascript", "json": "json", "plan2": "yaml"}


def _reply(lang: str, first: str, second: str, tag2: str | None = None) -> str:
    tag = TAGS[lang]
    return (
        f"Here is the program:\n```{tag}\n{first}\n```\n\nOr, another way:\n"
        f"```{tag2 if tag2 is not None else tag}\n{second}\n```\nDone.\n"
    )


@pytest.mark.parametrize(("lang", "a", "b", "other"), CASES)
def test_two_different_programs_run_neither(lang: str, a: str, b: str, other: str) -> None:
    out = RT.run(_reply(lang, a, b), lang=lang)
    assert out.status == "failure" and out.error is not None, out.value
    assert "each a different program" in (out.message or "")
    readings: list[dict[str, Any]] = out.error.details["readings"]
    assert readings[0]["description"].startswith("the fenced block on line")
    values = [RT.run(r["program"], lang=lang).value for r in readings]
    assert values == ["A", "B"]


@pytest.mark.parametrize(("lang", "a", "b", "other"), CASES)
def test_an_untagged_second_program_counts_too(lang: str, a: str, b: str, other: str) -> None:
    out = RT.run(_reply(lang, a, b, tag2=""), lang=lang)
    assert out.status == "failure"


@pytest.mark.parametrize(("lang", "a", "b", "other"), CASES)
def test_the_same_program_twice_runs(lang: str, a: str, b: str, other: str) -> None:
    out = RT.run(_reply(lang, a, a), lang=lang)
    assert out.status == "success" and out.value == "A", out.message


@pytest.mark.parametrize(("lang", "a", "b", "other"), CASES)
def test_a_block_of_another_language_does_not_count(lang: str, a: str, b: str, other: str) -> None:
    reply = f"Run:\n```{TAGS[lang]}\n{a}\n```\nThen:\n{other}\n"
    out = RT.run(reply, lang=lang)
    assert out.status == "success" and out.value == "A", out.message
    assert out.warnings


def test_a_block_that_is_no_program_does_not_count() -> None:
    # an untagged block of the program's output: not a Plan program, so only the first runs
    reply = "```js\nreturn upper('a');\n```\nOutput:\n```\nA (a capital letter)\n```\n"
    out = RT.run(reply, lang="plan")
    assert out.status == "success" and out.value == "A"


def test_where_the_failure_points() -> None:
    out = RT.run(_reply("plan", "return upper('a');", "return upper('b');"), lang="plan")
    assert out.error is not None
    assert (out.error.line, out.error.column) == (7, 1)
    readings = out.error.details["readings"]
    assert [r["description"] for r in readings] == [
        "the fenced block on line 3",
        "the fenced block on line 8",
    ]


def test_many_blocks_stay_linear() -> None:
    # 2,000 fenced blocks, every one the same program: read once each, no quadratic rescans
    reply = "intro\n" + "```js\nreturn upper('a');\n```\ntext\n" * 2000
    out = RT.run(reply, lang="plan")
    assert out.status == "success" and out.value == "A"
