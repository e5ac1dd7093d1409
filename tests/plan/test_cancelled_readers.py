"""A fan-out stopped by a failure cancels the evaluations it began; another reader of such an
alias (a sibling of the fan-out that reads it too) ends with that failure, the run's, not with
"a call was cancelled unexpectedly" (which came first in time and was the run's failure)."""

from __future__ import annotations

import asyncio

import pytest

from dialectic import Outcome
from dialectic.compiler import dagplan
from tests.core.test_static_graph import runtime

PROGRAMS = [
    "a = slow(1, 0.1); b = boom('y', 0.02); return [[a, b], slow(a, 0)];",
    "a = slow(1, 0.1); b = boom('y', 0.02); return (a + b) * slow(a, 0);",
    "a = slow(1, 0.1); b = boom('y', 0.02); return [slow(a, 0), [b, a]];",
    "a = slow(1, 0.1); b = boom('y', 0.02); c = slow(a, 0); return {x: [a, b], c};",
]


def run(program: str, static: bool) -> Outcome:
    dagplan.STATIC_DAGS = static
    try:
        prepared = runtime().prepare(program, lang="plan")
        assert not prepared.errors, prepared.errors

        async def main() -> Outcome:
            out = await prepared.run_async({})
            assert asyncio.all_tasks() == {asyncio.current_task()}  # (none left running)
            return out

        return asyncio.run(main())
    finally:
        dagplan.STATIC_DAGS = True


@pytest.mark.parametrize("static", [False, True], ids=["lazy", "graph"])
@pytest.mark.parametrize("program", PROGRAMS)
def test_a_reader_of_a_cancelled_alias_fails_with_the_runs_failure(
    program: str, static: bool
) -> None:
    out = run(program, static)
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "failure", out.message
    assert "`boom` failed: y" in (out.message or ""), out.message
    assert "cancelled" not in (out.message or "")


def test_a_caught_failure_is_caught_and_the_run_goes_on() -> None:
    program = (
        "let r;\n"
        "try { const a = slow(1, 0.1); const b = boom('y', 0.02); r = [[a, b], slow(a, 0)]; }\n"
        "catch { r = 'caught'; }\n"
        "return [r, await slow(2, 0)];"
    )
    for static in (False, True):
        out = run(program, static)
        assert out.status == "success", out.message
        assert out.value == ["caught", 2]
