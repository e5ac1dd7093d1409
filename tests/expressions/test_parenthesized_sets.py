"""An assignment in parentheses as a statement (SPEC 10, "Changes outside loops"):
``(g[k] ||= []).push(x);``, ``(g[k] ??= []).push(x);``, ``(g[k] = g[k] || []).push(x);`` and
``(c[k] = (c[k] || 0) + 1);`` in loops, blocks, ``forEach`` and ``reduce`` steps give Node's
answer, in time linear in the items; where the pushed array could be held elsewhere, or the key
computed, they are refused at their place with what to write instead."""

from __future__ import annotations

import pytest

from dialectic import Limits, Runtime

from .program_oracle import runs_as_in_node, runtime
from .test_fold_in_place import _per_item

RT: Runtime = runtime()

PROGRAMS = [
    "const g = {};\nfor (const p of people) { (g[p.name[0]] ||= []).push(p.age); }\nreturn g;",
    "const g = {};\nfor (const w of words) { (g[w.length] ??= []).push(w); }\nreturn g;",
    "const g = {};\nfor (const w of words) {\n  const k = w.length % 3;\n"
    "  (g[k] = g[k] || []).push(w);\n}\nreturn g;",
    "const g = {};\nfor (const w of words) {\n  const k = `n${w.length}`;\n"
    "  (g[k] = g[k] ?? []).push(w.length);\n}\n"
    "return Object.entries(g).map(([k, v]) => `${k}:${v.length}`);",
    "return people.reduce((acc, p) => {\n  const k = p.age > 5 ? 'old' : 'young';\n"
    "  (acc[k] ||= []).push(p.name);\n"
    "  return acc;\n}, {});",
    "return words.reduce((acc, w) => {\n  (acc[w.length] ??= []).push(w);\n  return acc;\n}, {});",
    "return words.reduce((acc, w) => { (acc[w.length] = acc[w.length] || []).push(w); "
    "return acc; }, {});",
    "const c = {};\nfor (const w of [...words, ...words]) { (c[w] = (c[w] || 0) + 1); }\nreturn c;",
    "return words.reduce((acc, w) => { (acc[w.length] = (acc[w.length] || 0) + 1); "
    "return acc; }, {});",
    "const g = {};\n(g.a ??= []).push(1);\n(g.a ??= []).push(2, 3);\n(g.b ||= []).push(n);\n"
    "return g;",
    "const g = {};\n"
    "people.forEach(p => { const k = p.age > 5 ? 'old' : 'young'; (g[k] ??= []); });\n"
    "return g;",
    "const byCity = {};\npeople.forEach(p => { const c = p.city ?? 'none'; "
    "(byCity[c] ||= []).push(p.name); });\nreturn byCity;",
    "const g = {};\nfor (const w of words) if (w) (g[w.length] ||= []).push(w);\nreturn g;",
    "function groupBy(xs, keyFn) {\n  const out = {};\n  for (const x of xs) {\n"
    "    const k = keyFn(x);\n    (out[k] = out[k] || []).push(x);\n  }\n  return out;\n}\n"
    "return groupBy(nums, v => v > 2 ? 'big' : 'small');",
    "const byTag = {};\nfor (const p of people) {\n  for (const t of p.tags) {\n"
    "    (byTag[t] ||= []).push(p.name);\n  }\n}\nreturn byTag;",
    "const g = {};\n"
    "for (const p of people) { const k = `${p.age > 5}`; (g[k] ||= []).push(...p.tags); }\n"
    "return g;",
    "const g = {};\nfor (const w of words) {\n  if (!w) continue;\n  (g[w[0]] ??= []).push(w);\n}\n"
    "return Object.keys(g).length;",
    "let total = 0;\nfor (const x of nums) { (total += x); }\nreturn total;",
    "const seen = {};\nfor (const w of words) { (seen[w] ||= 0); (seen[w] += 1); }\nreturn seen;",
]


def test_parenthesized_sets_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        # the array pushed is held elsewhere too: JavaScript's `all` would see later pushes
        (
            "const g = {}; const all = [];\n"
            "for (const w of words) { (g[w.length] ||= []).push(w); all.push(g[w.length]); }\n"
            "return all;",
            2,
            39,
        ),
        # the key is computed (a call): read twice it could differ
        (
            "const g = {};\nfor (const w of words) { (g[w.slice(0, 1)] ||= []).push(w); }\n"
            "return g;",
            2,
            44,
        ),
        # the object is not made empty by the program: its arrays may be held elsewhere
        (
            "const base = [];\nconst g = {a: base};\n(g.a ||= []).push(1);\nreturn base;",
            3,
            6,
        ),
        (
            "const g = {};\nconst h = g;\n(g.a ||= []).push(1);\nreturn h;",
            3,
            6,
        ),
        # a reduce from another object than `{}`
        (
            "const start = {};\n"
            "return words.reduce((acc, w) => { (acc[w.length] ||= []).push(w); return acc; }, "
            "start);",
            2,
            50,
        ),
        # another method than push
        ("const g = {};\n(g.a ||= []).unshift(1);\nreturn g;", 2, 6),
    ],
)
def test_parenthesized_sets_refused(text: str, line: int, column: int) -> None:
    out = RT.run(text, lang="plan", context={"words": ["a", "bb"]})
    assert out.status == "failure", out.value
    assert out.error is not None and out.error.code == "syntax_error", out.message
    assert f"line {line}, column {column}" in (out.message or ""), out.message
    assert out.error.hint and "(o[k] ??= []).push(x);" in out.error.hint


GROWTH = {
    "loop": "const g = {};\n"
    "for (const x of xs) { const k = x.slice(0, 2); (g[k] ||= []).push(x); }\n"
    "return Object.keys(g).length;",
    "reduce": "return Object.keys(xs.reduce((acc, x) => { const k = x.slice(0, 2); "
    "(acc[k] ??= []).push(x); return acc; }, {})).length;",
}


@pytest.mark.parametrize("form", list(GROWTH))
def test_parenthesized_pushes_cost_time_linear_in_the_items(form: str) -> None:
    # per item at 64,000 within 3 times 1,000's (copying each array: far more)
    rt = Runtime(load_entry_points=False, limits=Limits(deadline=600.0))
    text = GROWTH[form]
    _per_item(rt, text, 200)
    small = _per_item(rt, text, 1_000)
    large = _per_item(rt, text, 64_000)
    assert large < 3 * small, (form, small, large)
