"""Thousands of member and index sets in one block (``o7.a = 1;``, ``xs3[12] = 5;``): each
looks at what the block's other definitions read (:mod:`dialectic.frontends.plan.blockreads`),
kept by the name read and brought up to date from the names set since, so reading them grows
with their number, not its square (about 1,400 were refused by a bound on that work, whose
error named `max_nodes`); the values are Node's."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import pytest

from dialectic import Runtime
from dialectic.frontends.plan import parse_plan
from dialectic.limits import Limits

from .program_oracle import runs_as_in_node

RT = Runtime(load_entry_points=False, limits=Limits(max_nodes=2_000_000))


def _objects(n: int) -> str:
    """``n`` objects, a member set each."""
    body = "".join(f"const o{i} = {{k: {i}}};\no{i}.a = o{i}.k * 2;\n" for i in range(n))
    picks = ", ".join(f"o{i}" for i in range(0, n, max(1, n // 7)))
    return body + f"return [{picks}, o{n - 1}];"


def _members(n: int) -> str:
    """``n`` member sets spread over ``n // 50`` objects (50 each), some read in between."""
    m = max(1, n // 50)
    head = "".join(f"const o{k} = {{}};\n" for k in range(m))
    sets = "".join(
        f"o{i % m}.a{i} = {i};\n" + (f"const r{i} = o{i % m}.a{i} + 1;\n" if i % 97 == 0 else "")
        for i in range(n)
    )
    reads = ", ".join(f"r{i}" for i in range(0, n, 97))
    return head + sets + f"return [Object.keys(o0).length, o{m - 1}, [{reads}]];"


def _indexes(n: int) -> str:
    """``n`` index sets spread over ``n // 50`` arrays (50 each, in order)."""
    m = max(1, n // 50)
    head = "".join(f"const x{k} = [];\n" for k in range(m))
    sets = "".join(f"x{i % m}[{i // m}] = {i};\n" for i in range(n))
    return head + sets + f"return [x0, x{m - 1}.length, x{m - 1}[49]];"


SHAPES: dict[str, Callable[[int], str]] = {
    "objects": _objects,
    "members": _members,
    "indexes": _indexes,
}


@pytest.mark.parametrize("n", [1_000, 10_000])
def test_thousands_of_sets_give_what_node_gives(n: int) -> None:
    runs_as_in_node([make(n) for make in SHAPES.values()], RT)


def _read_time(text: str) -> float:
    best = float("inf")
    for _ in range(2):
        gc.collect()
        started = time.thread_time()
        parse_plan(text)
        best = min(best, time.thread_time() - started)
    return best


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_ten_times_the_sets_read_in_about_ten_times_the_time(shape: str) -> None:
    # a pass over the block's aliases per set made 10x the sets cost about 100x the time
    small, large = _read_time(SHAPES[shape](1_000)), _read_time(SHAPES[shape](10_000))
    assert large / max(small, 1e-6) < 35, (small, large)


def test_too_many_sets_for_the_tree_name_max_nodes() -> None:
    out = Runtime(load_entry_points=False).run(_members(10_000), lang="plan")
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "limit_exceeded", out.message
    assert out.error.details.get("limit") == "max_nodes", out.error.details
    assert "nodes" in (out.message or ""), out.message
