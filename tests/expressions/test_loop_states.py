"""Loops that keep state as models write it (SPEC 10, "Loops"): a ``let`` array pushed onto and
started again (chunks, runs, the current group), a ``reduce`` into an object of arrays and
counters, a conditional choosing what to push onto or count. Each gives Node's answer; where
JavaScript would share an array the loop goes on changing, the program is refused; and the
loops stay linear (a copy per item would count against ``max_steps``)."""

from __future__ import annotations

import pytest

from dialectic import Limits, Runtime

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

CHUNKS = [
    # manual chunking, the rest pushed after the loop
    "const chunks = []; let cur = [];\nfor (const x of nums) {\n  cur.push(x);\n"
    "  if (cur.length === 4) { chunks.push(cur); cur = []; }\n}\n"
    "if (cur.length) chunks.push(cur);\nreturn chunks;",
    "const chunks = []; let batch = [];\nfor (const w of words) {\n"
    "  if (batch.length === 2) { chunks.push(batch); batch = []; }\n  batch.push(w);\n}\n"
    "if (batch.length > 0) { chunks.push(batch); }\nreturn chunks.map(c => c.join('+'));",
    # the slice form, and a count loop
    "const size2 = 2; const chunks = [];\n"
    "for (let i = 0; i < nums.length; i += size2) chunks.push(nums.slice(i, i + size2));\n"
    "return chunks;",
    # runs: a new group where the order breaks
    "const runs = []; let cur = []; let prev = null;\nfor (const x of nums) {\n"
    "  if (prev !== null && x < prev) { runs.push(cur); cur = []; }\n  cur.push(x); prev = x;\n"
    "}\nruns.push(cur);\nreturn runs;",
    # the current group: a new one when the key changes
    "const groups = []; let cur = []; let curLen = null;\nfor (const w of words) {\n"
    "  if (w.length !== curLen) { if (cur.length) groups.push(cur); cur = [w]; curLen = w.length; }"
    "\n  else cur.push(w);\n}\nif (cur.length) groups.push(cur);\nreturn groups;",
    # batches by size, pushed as objects, and by `forEach`
    "const pages = []; let page = [];\nfor (const p of people) {\n  page.push(p.name);\n"
    "  if (page.length === 2) { pages.push({n: pages.length + 1, items: page}); page = []; }\n}\n"
    "if (page.length > 0) pages.push({n: pages.length + 1, items: page});\nreturn pages;",
    "let cur = []; const out = [];\nnums.forEach(x => {\n  cur.push(x, cur.length);\n"
    "  if (cur.length >= 4) { out.push(cur); cur = cur.slice(2); }\n});\nreturn [out, cur];",
    # a window started again from a slice, a call with each chunk
    "const res = []; let win = [];\nfor (const x of nums) {\n  win.push(x);\n"
    "  if (win.length > 3) win = win.slice(1);\n  res.push(win.reduce((a, b) => a + b, 0));\n}\n"
    "return res;",
    "const results = []; let cur = [];\nfor (const x of nums) {\n  cur.push(x);\n"
    "  if (cur.length === 2) { results.push(await echo(cur)); cur = []; }\n}\n"
    "if (cur.length) results.push(await echo(cur));\nreturn results;",
]

OBJECTS = [
    "return nums.reduce((acc, x) => { (x > 0 ? acc.pos : acc.neg).push(x); return acc; },"
    " {pos: [], neg: []});",
    "return nums.reduce((acc, x) => {\n  if (x > 0) acc.pos.push(x); else acc.neg.push(x);\n"
    "  return acc;\n}, {pos: [], neg: []});",
    "const r = nums.reduce((acc, x) => { acc.sum += x; acc.count++; return acc; },"
    " {sum: 0, count: 0});\nreturn r.sum / r.count;",
    "return nums.reduce((acc, x) => { acc[x % 2 === 0 ? 'even' : 'odd'].push(x); return acc; },"
    " {even: [], odd: []});",
    "return people.reduce((acc, p) => { acc.names.push(p.name); acc.total += p.age; return acc; },"
    " {names: [], total: 0});",
    "return nums.reduce((acc, x) => {\n  acc.min = Math.min(acc.min, x);\n"
    "  acc.max = Math.max(acc.max, x);\n  return acc;\n}, {min: Infinity, max: -Infinity});",
    "return [1, 2, 3, 4, 5].reduce((acc, x) => { x % 2 ? acc.odds++ : acc.evens++; return acc; },"
    " {odds: 0, evens: 0});",
    "return [1, 2, 3, 4, 5].reduce((acc, x) => { acc[x % 2 ? 'odds' : 'evens'] += x; return acc; },"
    " {odds: 0, evens: 0});",
    "return nums.reduce((acc, x, i) => {\n  if (i % 2) { acc.odd.push(x); return acc; }\n"
    "  acc.even.push(x);\n  return acc;\n}, {odd: [], even: []});",
    "return Object.entries(data).reduce((acc, [k, v]) => {\n"
    "  if (typeof v === 'number') acc.nums.push(k); else acc.other.push(k);\n  return acc;\n"
    "}, {nums: [], other: []});",
    "const a = nums.reduce((acc, x) => { acc.t += x; return acc; }, {t: 0});\n"
    "const b = words.reduce((acc, w) => { acc.t += w.length; return acc; }, {t: 0});\n"
    "return [a, b];",
    "return words.reduce((acc, w) => {\n  if (!w) return acc;\n"
    "  acc.words.push(w.toUpperCase()); acc.chars += w.length;\n  return acc;\n"
    "}, {words: [], chars: 0});",
    "return nums.reduce((a, x) => { a[x] = 1; a[-x] = a[x]; return a; }, {});",
    "return nums.reduce((a, x) => { a[x] = 1; const z = 2; return a; }, {});",
    # the same in loops
    "const out = {pos: [], neg: [], n: 0};\nfor (const x of nums) {\n"
    "  (x > 0 ? out.pos : out.neg).push(x, out.n);\n  out.n++;\n}\nreturn out;",
    "const out = {small: [], large: []};\n"
    "nums.forEach(x => { out[x < 5 ? 'small' : 'large'].push(x); });\nreturn out;",
    "const g = {};\nfor (const p of people) {\n  g[p.age > 10 ? 'old' : 'young'] ??= [];\n"
    "  g[p.age > 10 ? 'old' : 'young'].push(p.name);\n}\nreturn g;",
    "const c = {big: 0, small: 0, seen: {}};\n"
    "for (const x of nums) { x > 2 ? c.big++ : c.small++; }\nreturn c;",
    "let t = 0;\nfor (const x of nums) { x > 2 ? t += x : t -= x; }\nreturn t;",
]


@pytest.mark.parametrize("text", CHUNKS)
def test_a_let_array_pushed_and_started_again_runs_as_node(text: str) -> None:
    runs_as_in_node([text], RT)


@pytest.mark.parametrize("text", OBJECTS)
def test_an_object_of_arrays_and_counters_runs_as_node(text: str) -> None:
    runs_as_in_node([text], RT)


@pytest.mark.parametrize(
    "text",
    [
        # the pushed array pushed onto again: JavaScript's chunks all change
        "const chunks = []; let cur = [];\nfor (const x of nums) { chunks.push(cur); cur.push(x); }"
        "\nreturn chunks;",
        # started again in one branch only
        "const chunks = []; let cur = [];\nfor (const x of nums) {\n  cur.push(x);\n"
        "  if (x > 2) { chunks.push(cur); }\n  if (x > 5) cur = [];\n}\nreturn chunks;",
        # `continue` before the new array
        "const chunks = []; let cur = [];\nfor (const x of nums) {\n  cur.push(x);\n"
        "  if (x > 2) { chunks.push(cur); if (x > 5) continue; cur = []; }\n}\nreturn chunks;",
        # a loop around the read that pushes again
        "const out = []; let cur = [];\nfor (const x of nums) {\n"
        "  for (const y of [1, 2]) { cur.push(x * y); out.push(cur); }\n  cur = [];\n}\n"
        "return out;",
        # pushed onto after the loop
        "let cur = [];\nfor (const x of nums) { cur.push(x); }\nconst keep = cur; cur.push(99);\n"
        "return keep;",
        # held by another name that is compared later
        "let cur = []; let best = [];\nfor (const x of nums) {\n"
        "  if (x > 0) { cur.push(x); if (cur.length > best.length) best = cur; } else cur = [];\n"
        "}\nreturn best;",
    ],
)
def test_an_array_javascript_would_share_is_refused(text: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert "cur" in out.error.message, out.error.message


def test_a_step_that_changes_the_accumulator_itself_keeps_its_refusal() -> None:
    out = RT.run(
        "return [1].reduce((acc, x) => { acc.set(x, 1); return acc; }, {});",
        lang="plan",
        context=CONTEXT,
    )
    assert out.status == "failure" and out.error is not None
    assert "new Map" in out.error.message, out.error.message


@pytest.mark.parametrize(
    "text",
    [
        # one chunk of every item: each push grows the chunk the fold made
        "const chunks = []; let cur = [];\nfor (const x of xs) {\n  cur.push(x);\n"
        "  if (cur.length === 1000000) { chunks.push([...cur]); cur = []; }\n}\n"
        "if (cur.length) chunks.push(cur);\nreturn chunks[0].length;",
        # an object of arrays and a counter, from `reduce` and in a loop
        "const r = xs.reduce((acc, x) => {\n  if (x % 2) acc.odd.push(x); else acc.even.push(x);\n"
        "  acc.n++;\n  return acc;\n}, {odd: [], even: [], n: 0});\nreturn r.odd.length + r.n;",
        "const out = {odd: [], even: []};\nfor (const x of xs) {\n"
        "  (x % 2 ? out.odd : out.even).push(x);\n}\nreturn out.odd.length;",
    ],
)
def test_the_states_grow_in_place(text: str) -> None:
    # 16,000 items within 100,000 steps: a few per item (a copy per push would count 1 step
    # per 256 items copied, 500,000 and more)
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=100_000))
    out = rt.run(text, lang="plan", context={"xs": list(range(16_000))})
    assert out.status == "success", out.message
