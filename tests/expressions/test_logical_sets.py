"""``x ||= v``, ``x &&= v``, ``x ??= v`` as statements (SPEC 10): in a loop's body, on a
block's object and in a ``reduce`` step, each program runs in Node.js and in dialectic (the
harness of :mod:`.test_loops`): the value, the order of the keys and the calls are Node's; the
key JavaScript does not create is not created, and ``v`` runs only when JavaScript assigns."""

from __future__ import annotations

from typing import Any

import pytest

from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import parse_plan

from .test_loops import LOOP_CONTEXT, node_runs, runtime, same_run

PROGRAMS = [
    # in a loop: on a number or a text, on a member (a missing one is nullish, not a failure)
    "let t = null;\nlet u = 1;\nlet v = '';\n"
    "for (const x of [0, 2, 3]) { t ??= x; u &&= x; v ||= x; }\nreturn [t, u, v];",
    "const g = {b: 0};\nfor (const w of words) { g[w[0] ?? '-'] ??= w.length; }\nreturn g;",
    "const seen = {z: 1};\nfor (const w of words) { seen[w.length] ||= w; seen.z &&= w; }\n"
    "return seen;",
    "const groups = {};\nfor (const p of people) {\n  groups[p.city ?? 'none'] ??= [];\n"
    "  groups[p.city ?? 'none'] = [...groups[p.city ?? 'none'], p.name];\n}\nreturn groups;",
    # the value runs only when JavaScript assigns; the key is computed once
    "const o2 = {a: 1};\nfor (const c of cities) { o2[await note({v: c[0]})] ??= "
    "await send({to: c}); }\nreturn o2;",
    "let first = null;\nfor (const c of cities) { first ??= await send({to: c}); }\nreturn first;",
    "let i = 0;\nconst hits = {};\nwhile (i < 6) { hits[i % 4] ??= i; i++; }\nreturn hits;",
    # a block's object: keys in JavaScript's order, set only when it assigns
    "const r = {a: 1, b: null, e: 0};\nr.a ??= 5;\nr.b ??= 6;\nr.c ??= 7;\nr['d'] ||= 0;\n"
    "r.a &&= 9;\nr.e ||= 2;\nreturn r;",
    "const r = {};\nconst k = 'x';\nr[k] ||= await note({v: 1});\nr[k] ||= await send({to: 2});"
    "\nreturn r;",
    # a reduce step
    "return words.reduce((acc, w) => { acc[w.length] ??= w; return acc; }, {});",
    "return nums.reduce((acc, x) => { acc.n ||= x; return acc; }, {n: 0});",
]


@pytest.fixture(scope="module")
def answers() -> list[dict[str, Any]]:
    return node_runs(PROGRAMS)


@pytest.mark.parametrize("i", range(len(PROGRAMS)))
def test_a_logical_set_gives_nodes_value_and_calls(i: int, answers: list[dict[str, Any]]) -> None:
    log: list[Any] = []
    out = runtime(log).run(PROGRAMS[i], lang="plan", context=LOOP_CONTEXT)
    same_run(PROGRAMS[i], answers[i], out, log)


@pytest.mark.parametrize(
    ("source", "message", "hint"),
    [
        (
            "const g = {};\nfor (const w of words) { (g[w.trim()] ??= []).push(w); }\nreturn g;",
            "no operator `??=`",
            "o[k] = [...(o[k] ?? []), x];",
        ),
        (
            "const g = {};\nfor (const w of words) { g[w.trim()] ||= []; g[w.trim()].push(w); }\n"
            "return g;",
            "changes an array inside `g` in place",
            "g[w.trim()] = [...(g[w.trim()] ?? []), value];",
        ),
        ("const o = {};\no[note({v: 1})] ??= 1;\nreturn o;", "computes it once", "const k"),
        ("const t = 1;\nfor (const x of nums) t ||= x;\nreturn t;", "`const`", "let t"),
    ],
)
def test_what_is_not_supported_is_refused_with_what_runs(
    source: str, message: str, hint: str
) -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan(source)
    problem = caught.value.problems[0]
    assert message in problem.message, problem.message
    assert problem.hint is not None and hint in problem.hint, problem.hint
