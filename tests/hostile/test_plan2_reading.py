"""Reading a hostile Plan2 (YAML) document is bounded (SPEC 7 and 11, "YAML restrictions"):
its size is checked before YAML reads it, anchors and aliases are refused at the first one (a
"billion laughs" document never expands), nesting stops at ``max_depth``, and a reading that
takes longer than the run's deadline ends as ``limit_exceeded`` (``deadline``) where it stands,
never a hang."""

from __future__ import annotations

import pytest

from dialectic import Limits, Runtime
from dialectic.frontends.base import SourceError
from dialectic.frontends.budget import Clock
from dialectic.frontends.plan2 import parse_plan2
from dialectic.frontends.plan2.yamlnodes import YamlProblems, compose

MB = 1_000_000


def _keys(size: int) -> str:
    return "result: ${k0}\n" + "".join(f"k{i}: {i}\n" for i in range(size // 12))


def _laughs(size: int) -> str:
    head = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
    return head + "".join(f"c{i}: &c{i} [*b, *b, *b, *b]\n" for i in range(size // 40))


def test_a_document_past_the_size_limit_is_refused_before_reading() -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan2("result: '" + "x" * MB + "'\n")
    assert "too large" in str(caught.value)
    out = Runtime(load_entry_points=False).run(_keys(2 * MB), lang="plan2")
    assert out.error is not None and out.error.details["limit"] == "max_program_bytes"


def test_anchors_and_aliases_are_refused_at_the_first_one() -> None:
    with pytest.raises(YamlProblems) as caught:
        compose(_laughs(MB - 1000))
    (problem,) = caught.value.problems
    assert "anchors" in problem.message and problem.line == 1
    with pytest.raises(YamlProblems) as caught:
        compose("result: [1, 2]\nb: *a\n")
    assert "aliases" in caught.value.problems[0].message


def test_nesting_stops_at_max_depth() -> None:
    half = MB // 2 - 10
    with pytest.raises(YamlProblems) as caught:
        compose("result: " + "[" * half + "]" * half, max_depth=100)
    assert caught.value.problems[0].limit == "max_depth"


def test_composing_past_the_deadline_stops_where_it_stands() -> None:
    clock = Clock(0.0)  # (already past)
    with pytest.raises(YamlProblems) as caught:
        compose(_keys(MB // 2), clock=clock)
    (problem,) = caught.value.problems
    assert problem.limit == "deadline"
    assert "deadline" in problem.message
    assert problem.line <= 1024  # (looked at after the first 1,024 events, not at the end)
    assert compose(_keys(MB // 2)) is not None  # (no clock: read whole)


def test_a_reading_past_the_deadline_is_reported_as_such() -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan2(_keys(MB // 2), deadline=0.0)
    assert caught.value.problems[0].limit == "deadline"
    rt = Runtime(load_entry_points=False, limits=Limits(deadline=0.000001))
    out = rt.run(_keys(MB // 2), lang="plan2")
    assert out.status == "failure"
    assert out.error is not None and out.error.details["limit"] == "deadline"
