"""Statements that change a value in place (`o.k = v;`, `m.set(k, v);`, `xs.sort();`) each look
at the block's other definitions (is the value read whole there? which reads are of the version
before?). That is kept by the name read and brought up to date from the names the block set
since (:mod:`dialectic.frontends.plan.blockreads`), so thousands of them read in time that grows
with their number (20,000 member sets took minutes, then were refused past about 1,400 by a
bound on the work that named `max_nodes` wrongly); a program of 20,000 is refused at once by
the real limit, the tree's `max_nodes`, and parses with that limit raised.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from dialectic import Runtime
from dialectic.limits import Limits

RT = Runtime(load_entry_points=False)
#: generous: the point is "not minutes" (about a second on this machine)
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
def test_thousands_of_changes_are_refused_by_the_real_limit_at_once(kind: str) -> None:
    started = time.monotonic()
    out = RT.run(MAKERS[kind](20_000), lang="plan")
    assert time.monotonic() - started < SECONDS
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "limit_exceeded", out.message
    assert out.error.details.get("limit") == "max_nodes", out.error.details
    assert "more than 20000 nodes" in (out.message or ""), out.message


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_thousands_of_changes_run_with_the_limit_raised(kind: str) -> None:
    rt = Runtime(load_entry_points=False, limits=Limits(max_nodes=1_000_000))
    started = time.monotonic()
    out = rt.run(MAKERS[kind](10_000), lang="plan")
    assert time.monotonic() - started < SECONDS
    assert out.status == "success", out.message


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_hundreds_of_changes_still_run(kind: str) -> None:
    out = RT.run(MAKERS[kind](300), lang="plan")
    assert out.status == "success", out.message
