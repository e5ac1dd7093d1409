"""``xs.sort()`` and ``xs.reverse()`` (SPEC 1.8): dialectic returns a reordered copy, so a
receiver anything else can hold is refused; a fresh one gives Node's answer. Each program
here gave another answer than Node's before (the check looked only for a name read twice)."""

from __future__ import annotations

import json

import pytest

import dialectic

from .program_oracle import check, runtime

#: JavaScript reorders an array the program reads again: refused (or Node's value)
SHARED = [
    "const t = people[0].tags; const r = t.reverse(); return [r, people[0].tags];",
    "const r = people.map(p => p.tags.reverse()); return [r, people[0].tags];",
    "const r = people.find(p => p.age > 1).tags.reverse(); return [r, people[0].tags];",
    "const r = (flag ? people[0].tags : []).reverse(); return [r, people[0].tags];",
    "const r = (none ?? people[0].tags).reverse(); return [r, people[0].tags];",
    "const r = people.at(0).tags.reverse(); return [r, people[0].tags];",
    "const r = [people[0].tags][0].reverse(); return [r, people[0].tags];",
    "const r = Object.values(data)[2].reverse(); return [r, data.c];",
    "const r = [...people][0].tags.reverse(); return [r, people[0].tags];",
    "const r = people.slice()[0].tags.reverse(); return [r, people[0].tags];",
    "const a = people[0]; const r = a.tags.reverse(); return [r, people];",
    "return nums.slice(0, 2).map(x => data.c.reverse());",
    "const r = people.map(p => p.tags)[0].sort(); return [r, people];",
    "const r = [...new Set(people.map(p => p.tags))][0].sort(); return [r, people];",
    "const r = Array.from(people)[0].tags.reverse(); return [r, people];",
]
#: nothing else holds the receiver: Node's value
FRESH = [
    "return [3, 1, 2].sort((a, b) => a - b);",
    "return nums.map(x => x * 2).sort((a, b) => a - b);",
    "return data.c.reverse();",
    "const xs = nums.filter(x => x > 0); return xs.sort((a, b) => a - b);",
    "const t = people[0].tags; return t.reverse();",
    "return people.map(p => [...p.tags].reverse());",
    "return nums.map(x => [1, 2].reverse());",
    "return JSON.parse('[[2, 1]]')[0].reverse();",
    "return Object.keys(data).reverse();",
    "return s.split(', ').reverse();",
    "const a = [3, 1, 2]; const b = a.sort((x, y) => x - y); return b;",
    "return people.map(p => p.tags).flat().sort();",
    "const r = echo(people[0].tags).reverse(); return [r, people[0].tags];",
    # a new array of the same items: `[...new Set(xs)]`, `Array.from(xs)`
    "const w = [...new Set(words)].sort(); return [w, words];",
    "return [...new Set(people.flatMap(p => p.tags))].sort();",
    "const a = Array.from(nums).sort((x, y) => x - y); return [a, nums];",
]


def test_a_receiver_something_else_holds_is_refused() -> None:
    verdicts = check(SHARED)
    assert [v.kind for v in verdicts] == ["refused"] * len(SHARED), verdicts
    for v in verdicts:
        assert v.detail.startswith("expression_error") and "reorders" in v.detail, v


@pytest.mark.parametrize("program", FRESH)
def test_a_fresh_receiver_gives_nodes_answer(program: str) -> None:
    [verdict] = check([program], runtime())
    assert verdict.kind == "same", verdict


def test_a_long_chain_of_reordering_aliases_costs_linear_time_and_runs() -> None:
    """Each receiver's check walks back through the aliases it reads once for the whole
    program (it walked each chain again per site, recursing: 500 aliases failed "nested too
    deeply to compile", as issue 9 had it for any alias chain)."""
    from dialectic import Runtime

    rt = Runtime(load_entry_points=False)
    n = 1000  # (within the default max_nodes of 20,000)
    lines = ["a0 = [3, 1, 2];"]
    lines += [f"a{i} = a{i - 1}.sort((p, q) => p - q);" for i in range(1, n)]
    out = rt.run("\n".join([*lines, f"return a{n - 1};"]), lang="plan")
    assert (out.status, out.value) == ("success", [1, 2, 3])
    # written last to first (Dialect JSON: Plan reads a name after its definition), the first
    # check walks the chain: past 100 aliases it is taken as shared (a clear refusal, never a
    # crash)
    chain = dialectic.compile("\n".join([*lines, f"return a{n - 1};"]), lang="plan")
    backwards = {"$let": dict(reversed(chain["$let"].items())), "$return": chain["$return"]}
    out = rt.run(json.dumps(backwards), lang="json")
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "expression_error" and "toSorted" in (out.error.hint or "")
