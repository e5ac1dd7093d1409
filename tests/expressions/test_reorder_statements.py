"""``xs.sort(c);`` and ``xs.reverse();`` as statements (SPEC 10, "Changes outside loops";
:mod:`dialectic.frontends.plan.reorder`): the array from then on is its reordered copy, the
reads before it read the array before, as in JavaScript; an array someone else may hold, one
read whole before, a comparator reading the array: refused at the statement."""

from __future__ import annotations

import pytest

from dialectic import Runtime
from dialectic.frontends.plan import parse_plan
from dialectic.frontends.plan.decompile import decompile

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "const out = [3, 1, 2]; out.sort((a, b) => a - b); return out;",
    "const out = nums.filter(x => x > 0); out.sort((a, b) => b - a); return out;",
    "const out = []; for (const x of nums) out.push(x * 2); out.sort((a, b) => a - b); "
    "return out.slice(0, 2);",
    "const out = []; for (const x of nums) out.push(x); out.reverse(); return out;",
    "const r = people.map(p => p.name); r.sort(); r.reverse(); return r;",
    "const r = people.map(p => p.name); const n0 = r[0]; r.sort(); return [n0, r];",
    "let r = [2, 1]; r.sort(); return r;",
    "const r = []; r.push(2); r.push(1); r.sort(); return r;",
    "const r = [3, 1, 2]; const first = r[0]; const n1 = r.length; r.sort(); "
    "return {first, n1, r};",
    "const r = [3, 1, 2]; const m = r.map(x => x * 2); r.sort(); return [m, r];",
    "const r = await echo([3, 1, 2]); r.sort(); return r;",
    "function f() { const r = [2, 1, 3]; r.sort(); return r; } return f();",
    "const r = Object.keys(data); r.reverse(); return r.join('');",
    "const r = [2, 1]; r.sort(); r.push(0); r.sort(); return r;",
    "const out = nums.filter(x => x > 0); for (const w of words) out.push(w.length); return out;",
    # a whole program as models write it
    "const enriched = [];\nfor (const p of people) {\n  const info = await echo(p);\n"
    "  if (info.city) enriched.push({ name: info.name, city: info.city });\n}\n"
    "enriched.sort((a, b) => a.city.localeCompare(b.city));\nreturn enriched;",
]


def test_reorder_statements_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize("text", PROGRAMS[:6])
def test_they_decompile_and_read_back(text: str) -> None:
    tree = parse_plan(text, strict=True).tree
    assert parse_plan(decompile(tree), strict=True).tree == tree


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        (
            "const r = people.map(p => p.name); const keep = r; r.sort(); return keep;",
            "`r` is read whole before `sort()` reorders it",
            52,
        ),
        (
            "const o = {xs: [2, 1]}; const r = o.xs; r.sort(); return o;",
            "`r` is not an array the program made",
            41,
        ),
        (
            "const r = [3, 1, 2]; r.sort((a, b) => a - r.length); return r;",
            "the comparator reads `r`",
            29,
        ),
    ],
)
def test_refused_where_javascript_would_differ(text: str, message: str, column: int) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure", out.value
    assert message in (out.message or ""), out.message
    assert f"line 1, column {column}:" in (out.message or ""), out.message
