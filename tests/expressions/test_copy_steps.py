"""Copies a spread or a merge makes count against ``max_steps`` (SPEC 7): one step per 256 items
or keys. A loop or a ``reduce`` that copies a growing array inside its accumulator, where no
change is made in place, so stops at the limit (``limit_exceeded``, at the copy's place)
instead of running on, quadratic, until the deadline; a program of 1,000 items is unaffected."""

from __future__ import annotations

import pytest

from dialectic import Runtime

RT = Runtime(load_entry_points=False)

#: programs copying an array or object that grows with each item (n items: n*n/2 copied)
COPYING = [
    "return xs.reduce((acc, x) => ({...acc, k: [...acc.k, x]}), {k: []}).k.length;",
    "return xs.reduce((acc, x) => ({list: [...acc.list, x]}), {list: []}).list.length;",
    "return xs.reduce(([a, b], x) => [[...a, x], b + 1], [[], 0])[0].length;",
    "let o = {items: []}; for (const x of xs) { o = {...o, items: [...o.items, x]}; } "
    "return o.items.length;",
    "let acc = []; let i = 0; while (i < xs.length) { const snap = [...acc]; acc = [...acc, i]; "
    "i++; } return acc.length;",
    "return xs.reduce((acc, x) => { const r = [...acc, x]; return r; }, []).length;",
    "const seen = {}; let all = {}; for (const x of xs) { const c = {...all}; "
    "all = {...c, [x]: 1}; if (seen[x]) break; } return Object.keys(all).length;",
]


@pytest.mark.parametrize("program", COPYING)
def test_a_thousand_items_run(program: str) -> None:
    out = RT.run(program, lang="plan", context={"xs": list(range(1_000))})
    assert out.status == "success", out.message
    assert out.value == 1_000


@pytest.mark.parametrize("program", COPYING)
def test_growing_copies_meet_max_steps(program: str) -> None:
    out = RT.run(program, lang="plan", context={"xs": list(range(40_000))})
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "limit_exceeded", out.message
    assert out.error.details["limit"] == "max_steps"
    assert out.message is not None and out.message.startswith("line 1, column ")


def test_a_copy_is_counted_once() -> None:
    # a reduce's new accumulator (`[...acc, x]` given as the step's result, directly or by an
    # alias) counts as before, once: 20,000 items copy 200 million, 781,250 steps
    xs = list(range(20_000))
    for program in (
        "return xs.reduce((acc, x) => { const r = [...acc, x]; return r; }, []).length;",
        "return xs.reduce((acc, x) => { const a = acc; return [...a, x]; }, []).length;",
    ):
        assert RT.run(program, lang="plan", context={"xs": xs}).value == 20_000


def test_copies_outside_loops_are_counted_too() -> None:
    small = Runtime(load_entry_points=False, limits={"max_steps": 100})
    xs = list(range(100_000))
    out = small.run("const a = [...xs, ...xs]; return a.map(x => x).length;", context={"xs": xs})
    assert out.status == "failure" and out.error is not None
    assert out.error.details["limit"] == "max_steps"
    assert out.message is not None  # (at the spread, not at the map)
    assert out.message.startswith("line 1, column 11: the run took more than 100 method steps")
    ok = small.run("return [...xs, 1].length;", context={"xs": xs[:1_000]})
    assert ok.value == 1_001
