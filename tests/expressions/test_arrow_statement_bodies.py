"""An arrow function's block body with statements, as models write callbacks (SPEC 10, "Arrow
functions"): ``if`` with early returns, loops, destructuring, a `try` — read as a function's
body is, and giving Node's answer."""

from __future__ import annotations

import pytest

from dialectic import Runtime
from dialectic.frontends.plan import parse_plan
from dialectic.frontends.plan.decompile import decompile

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "return nums.map(x => { if (x > 2) return 'big'; const y = x * 2; return y; });",
    "return people.map(p => {\n  if (p.age >= 18) { return `${p.name}: adult`; }\n"
    "  if (p.age > 5) return `${p.name}: child`;\n  return `${p.name}: baby`;\n});",
    "return people.filter(p => { if (!p.city) return false; return p.city.length > 3; });",
    "return people.map(p => { let t = 0; for (const tag of p.tags) { t += tag.length; } "
    "return t; });",
    "return people.map(p => {\n  const out = [];\n  for (const t of p.tags) {\n"
    "    if (t === 'y') continue;\n    out.push(t.toUpperCase());\n  }\n  return out;\n});",
    "return nums.map((x, i) => { const {a, h} = data; if (i === 0) return a; return x * h; });",
    "return people.map(p => { if (p.tags.length === 0) { const msg = 'none'; return msg; } "
    "else { return p.tags.join('|'); } });",
    # statements that hold an object literal's key named like a statement word
    "return nums.map(x => { const o = {if: x, for: 1}; if (o.if > 2) return o.for; return 0; });",
    # an arrow inside an arrow, each with statements
    "return people.map(p => p.tags.map(t => { if (t === 'x') return 1; return 2; }));",
    "return nums.reduce((acc, x) => { if (x > 2) return acc + x; return acc; }, 0);",
    "return await Promise.all(nums.map(async x => {\n  const r = await echo(x);\n"
    "  if (r > 2) return r;\n  return -r;\n}));",
    # an awaited call run for its effect, its value dropped
    "return await Promise.all([1, 2, 3].map(async (i) => { await later(i); return i * 2; }));",
    "return await Promise.all(people.map(async (p) => {\n  await echo(p.name);\n"
    "  await later(1);\n  return p.age;\n}));",
    # nothing after the `if`: the body's value is `undefined` when it does not return
    "return nums.map(x => { if (x) return 1; });",
    # a block statement in the body: a body with statements
    "return nums.map(x => { let t = 0; { const y = x * 2; t += y; } { const y = 1; t += y; } "
    "return t; });",
]


def test_statement_bodies_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize("text", PROGRAMS)
def test_statement_bodies_decompile_and_read_back(text: str) -> None:
    tree = parse_plan(text, strict=True).tree
    assert parse_plan(decompile(tree), strict=True).tree == tree


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        (
            "return nums.map(x => { if (x) { return 1; } return 2; const z = 1; });",
            "statements after `return`",
            55,
        ),
    ],
)
def test_statement_bodies_refused(text: str, message: str, column: int) -> None:
    out = RT.run(text, lang="plan", context={"nums": [1]})
    assert out.status == "failure"
    assert message in (out.message or ""), out.message
    assert f"line 1, column {column}" in (out.message or ""), out.message
