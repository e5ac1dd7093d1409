"""Name resolution forgives a constant's case and underscores, as it does a function's."""

from __future__ import annotations

import pytest

import dialectic.testing
from dialectic import Constant, Runtime


@pytest.fixture
def rt() -> Runtime:
    runtime = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    runtime.register(
        Constant("endofday", "the end of the day", "23:59"),
        Constant("Mode", "one of two", "a"),
        Constant("mode", "the other", "b"),
    )
    return runtime


@pytest.mark.parametrize(
    ("program", "lang"),
    [
        ("return END_OF_DAY;", "plan"),
        ({"$ref": "End_Of_Day"}, None),
        ("result: ${EndOfDay}\n", "plan2"),
    ],
)
def test_a_constant_is_read_up_to_case_and_underscores(
    rt: Runtime, program: object, lang: str | None
) -> None:
    out = rt.run(program, lang=lang)
    assert out.status == "success", out.message
    assert out.value == "23:59"
    assert len(out.warnings) == 1
    assert "read the constant `endofday`" in out.warnings[0]


def test_the_warning_names_each_place(rt: Runtime) -> None:
    out = rt.run("return [END_OF_DAY, END_OF_DAY];", lang="plan")
    assert out.value == ["23:59", "23:59"]
    assert [w.split(":")[0] for w in out.warnings] == [
        "unknown name `END_OF_DAY` at program.$return[0]",
        "unknown name `END_OF_DAY` at program.$return[1]",
    ]


def test_a_factory_constant_is_forgiven_too(rt: Runtime) -> None:
    out = rt.run("return ORIGIN;", lang="plan")
    assert out.status == "success", out.message
    assert out.warnings and "`origin`" in out.warnings[0]


def test_a_context_value_of_that_exact_name_wins(rt: Runtime) -> None:
    out = rt.run("return END_OF_DAY;", lang="plan", context={"END_OF_DAY": "17:00"})
    assert out.value == "17:00"
    assert out.warnings == []


def test_two_candidates_are_not_guessed(rt: Runtime) -> None:
    out = rt.run("return MODE;", lang="plan")
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "unknown_identifier"
    # exact names still work
    assert rt.run("return [Mode, mode];", lang="plan").value == ["a", "b"]


def test_a_constant_registered_later_is_found_up_to_case(rt: Runtime) -> None:
    assert rt.run("return END_OF_DAY;", lang="plan").value == "23:59"  # (the index is made)
    rt.register(Constant("start_of_day", "the start of the day", "00:00"))
    out = rt.run("return StartOfDay;", lang="plan")
    assert out.status == "success" and out.value == "00:00", out.message
    rt.register(Constant("startofday", "a second one, alike", "00:01"))
    again = rt.run("return StartOfDay;", lang="plan")
    assert again.status == "failure"  # two candidates now: no guess
