"""Loops make a few dozen nodes each, the change statements outside a loop (`t += x;`,
`xs.push(x);`, `if (c) v = w;`, straight-line versions: :mod:`dialectic.frontends.plan.straight`)
a few, and reading one costs a fraction of a millisecond. A program of tens of thousands of them
can never run under `max_nodes`, so the front end stops at the statement where their nodes pass
it (it counts a lower bound per loop, :data:`~dialectic.frontends.plan.loopemit.LOOP_NODES`, and
per straight statement, :data:`~dialectic.frontends.plan.straight.STRAIGHT_NODES`), not after
reading them all (30,000
`x += 1;` took 50 s to fail before); and the reads that grew with the number of loops times the
block's size (each loop looked at every definition before it) now look only after the loop's
own value's definition. Also: a chain of thousands of conditionals and a `switch` of thousands
of cases, each refused as `max_depth` without a scan per `?` or per case."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest

from dialectic import Limits, Runtime
from dialectic.frontends import to_tree
from dialectic.frontends.plan.loopemit import LOOP_NODES
from dialectic.frontends.plan.straight import STRAIGHT_NODES
from dialectic.tree.measure import size

RT = Runtime(load_entry_points=False)
#: generous: the point is "not a minute" (a second or two on this machine, under load)
SECONDS = 30.0

MAKERS: dict[str, Callable[[int], str]] = {
    "pushes": lambda n: (
        "const xs = [];\n" + "".join(f"xs.push({i});\n" for i in range(n)) + "return xs.length;"
    ),
    "additions": lambda n: "let t = 0;\n" + "t += 1;\n" * n + "return t;",
    "conditional sets": lambda n: (
        "const x = 5; let r = 0;\n"
        + "".join(f"if (x === {i}) r = {i};\n" for i in range(n))
        + "return r;"
    ),
    "loops": lambda n: (
        "const xs = [1]; let t = 0;\n" + "for (const x of xs) { t += x; }\n" * n + "return t;"
    ),
}
#: the nodes the front end counts per statement of each program
COUNTED = {"loops": LOOP_NODES}


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_tens_of_thousands_of_loops_fail_at_the_limit_early(kind: str) -> None:
    started = time.monotonic()
    out = RT.run(MAKERS[kind](30_000), lang="plan")
    assert time.monotonic() - started < SECONDS
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "limit_exceeded", out.message
    assert out.error.details.get("limit") == "max_nodes", out.error.details
    line = int(re.search(r"line (\d+)", out.message or "").group(1))  # type: ignore[union-attr]
    counted = COUNTED.get(kind, STRAIGHT_NODES)
    assert line <= Limits().max_nodes // counted + 3, out.message  # where the bound is met


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_a_hundred_of_them_still_run(kind: str) -> None:
    out = RT.run(MAKERS[kind](100), lang="plan")
    assert out.status == "success", out.message


def test_the_bound_is_below_what_the_tree_holds() -> None:
    # (a loop makes 16 nodes or more, counted 8; a straight `t += 1;` 6, counted 3)
    limits = Limits(max_nodes=10_000)
    text = "const xs = [1]; let t = 0;\n" + "for (const x of xs) { t += x; }\n" * 200 + "return t;"
    out = Runtime(load_entry_points=False, limits=limits).run(text, lang="plan")
    assert out.status == "success" and out.value == 200, out.message
    assert 200 * LOOP_NODES < 10_000 and size(to_tree(text, "plan").tree) > 200 * LOOP_NODES


#: the fewest nodes a statement makes: consecutive pushes are one push, a node per item
#: (:mod:`dialectic.frontends.plan.pushruns`), each other statement a version
FEWEST = {"pushes": 1}


@pytest.mark.parametrize("kind", ["additions", "pushes", "conditional sets"])
def test_a_straight_statement_makes_a_few_nodes(kind: str) -> None:
    # a change statement outside a loop is straight-line versions, not a loop (46 nodes each
    # before): the tree grows by a small constant per statement, which the bound stays below
    small, big = (size(to_tree(MAKERS[kind](n), "plan").tree) for n in (100, 1_100))
    per_statement = (big - small) / 1_000
    assert FEWEST.get(kind, STRAIGHT_NODES) <= per_statement <= 12, per_statement
    out = RT.run(MAKERS[kind](1_000), lang="plan")
    assert out.status == "success", out.message


def test_a_raised_limit_raises_the_bound() -> None:
    # (additions: a version each; 7,000 pushes in a row are one push, within the default limit)
    text = MAKERS["additions"](7_000)
    assert RT.run(text, lang="plan").status == "failure"
    big = Runtime(load_entry_points=False, limits=Limits(max_nodes=200_000))
    out = big.run(text, lang="plan")
    assert out.status == "success" and out.value == 7_000, out.message


@pytest.mark.parametrize(
    "text",
    [
        "const x = 3; return " + " : ".join(f"x === {i} ? {i}" for i in range(20_000)) + " : -1;",
        "const x = 5; switch (x) {\n"
        + "".join(f"case {i} + 0: return {i};\n" for i in range(20_000))
        + "default: return -1; }",
    ],
    ids=["conditionals", "switch"],
)
def test_thousands_of_conditionals_fail_as_max_depth_at_once(text: str) -> None:
    started = time.monotonic()
    out = RT.run(text, lang="plan")
    assert time.monotonic() - started < SECONDS
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "limit_exceeded", out.message
    assert out.error.details.get("limit") == "max_depth", out.error.details


def test_a_switch_of_thousands_of_literal_cases_fails_at_max_nodes() -> None:
    # (a lookup, :mod:`dialectic.frontends.plan.caselookup`: it nests a few levels)
    text = (
        "const x = 5; switch (x) {\n"
        + "".join(f"case {i}: return {i};\n" for i in range(20_000))
        + "default: return -1; }"
    )
    started = time.monotonic()
    out = RT.run(text, lang="plan")
    assert time.monotonic() - started < SECONDS
    assert out.status == "failure" and out.error is not None
    assert out.error.details.get("limit") == "max_nodes", out.message
