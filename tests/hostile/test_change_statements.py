"""Statements that change a value in place (`o.k = v;`, `m.set(k, v);`, `xs.sort();`) each look
at the block's other definitions (is the value read whole there? which reads are of the version
before?). Many of them in one block is work that grows with their number times the block's
size: it is bounded (:data:`dialectic.frontends.plan.blockreads.BUDGET`), so a program of
thousands of them is refused as a limit at once, never minutes of parsing (20,000 member sets
took minutes before the bound; 1,000 took 20 s)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from dialectic import Runtime
from dialectic.frontends.plan.blockreads import BUDGET

RT = Runtime(load_entry_points=False)
#: generous: the point is "not minutes" (the bound makes it about a second on this machine)
SECONDS = 30.0

MAKERS: dict[str, Callable[[int], str]] = {
    "member sets": lambda n: (
        "".join(f"const o{i} = {{a: {i}}}; o{i}.b = 1;\n" for i in range(n)) + "return o0;"
    ),
    "sort statements": lambda n: (
        "".join(f"const a{i} = [{i}, 1]; a{i}.sort();\n" for i in range(n)) + "return a0;"
    ),
    "Map changes": lambda n: (
        "const m = new Map();\n"
        + "".join(f"m.set('k{i}', {i});\n" for i in range(n))
        + "return m.size;"
    ),
    "sorts of one array": lambda n: "const a = [2, 1];\n" + "a.sort();\n" * n + "return a;",
}


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_thousands_of_changes_are_refused_as_a_limit_at_once(kind: str) -> None:
    started = time.monotonic()
    out = RT.run(MAKERS[kind](20_000), lang="plan")
    assert time.monotonic() - started < SECONDS
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "limit_exceeded", out.message
    assert "changes values in place too many times" in (out.message or "")


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_hundreds_of_changes_still_run(kind: str) -> None:
    assert BUDGET >= 1_000_000
    out = RT.run(MAKERS[kind](300), lang="plan")
    assert out.status == "success", out.message
