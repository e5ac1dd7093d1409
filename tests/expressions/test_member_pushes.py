"""A push onto an array held in an object the program wrote, the group-by as models write it in
a loop (SPEC 10, "Loops"; :mod:`dialectic.frontends.plan.memberpush`): Node's answer, linear in
the items; any other use of the object leaves the push refused with what to write instead."""

from __future__ import annotations

import time

import pytest

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "const byCity = {};\nfor (const p of people) {\n  const c = p.city ?? 'unknown';\n"
    "  if (!byCity[c]) byCity[c] = [];\n  byCity[c].push(p.name);\n}\nreturn byCity;",
    "const g = {};\nfor (const w of words) {\n  g[w.length] = g[w.length] || [];\n"
    "  g[w.length].push(w);\n}\nreturn g;",
    "const g = {};\nfor (const w of words) {\n  g[w.length] ??= [];\n"
    "  g[w.length].push(w.toUpperCase());\n}\nreturn g;",
    "const g = {};\npeople.forEach(p => {\n  const k = p.city || 'none';\n"
    "  if (!g[k]) g[k] = [];\n  g[k].push(p.name);\n});\nreturn g;",
    "const g = {};\nfor (const w of words) { if (!g.all) g.all = []; g.all.push(w); }\nreturn g;",
    # `k in g` tests membership: it holds no array
    "const g = {};\nfor (const w of words) {\n  const key = w.length;\n"
    "  if (!(key in g)) g[key] = [];\n  g[key].push(w);\n}\nreturn g;",
    "const g = {};\nfor (const w of words) {\n  const key = w.length;\n"
    "  if (key in g) g[key].push(w);\n  else g[key] = [w];\n}\nreturn g;",
    # the keys in JavaScript's order: array indexes first, ascending
    "const g = {};\nfor (const w of words) {\n  if (!g[w.length]) g[w.length] = [];\n"
    "  g[w.length].push(w);\n}\nreturn Object.keys(g).map(k => [k, g[k].length]);",
    "const g = {};\nfor (const p of people) {\n  for (const t of p.tags) {\n"
    "    if (!g[t]) { g[t] = []; }\n    g[t].push(p.name);\n  }\n}\nreturn g;",
    "const g = {};\nfor (const p of people) {\n  const r = await echo(p.age);\n"
    "  if (!g[p.name]) g[p.name] = [];\n  g[p.name].push(r, r * 2);\n}\n"
    "return Object.entries(g);",
    # in a `reduce` step: the statement making the member an array and the push, one change
    "return people.reduce((acc, p) => {\n  const k = p.age > 5 ? 'old' : 'young';\n"
    "  acc[k] ??= [];\n  acc[k].push(p.name);\n  return acc;\n}, {});",
    "return people.reduce((acc, p) => {\n  const k = p.age > 5 ? 'old' : 'young';\n"
    "  if (!acc[k]) acc[k] = [];\n  acc[k].push(p.name);\n  return acc;\n}, {});",
    "return people.reduce((acc, p) => {\n  if (!acc[p.name]) { acc[p.name] = []; }\n"
    "  acc[p.name].push(p.age);\n  return acc;\n}, {});",
    "return words.reduce((acc, w) => {\n  acc[w.length] = acc[w.length] || [];\n"
    "  acc[w.length].push(w);\n  return acc;\n}, {});",
    "return [JSON.stringify({b: 1, 2: [1, {z: 1, 1: 2}], a: null}),\n"
    "  JSON.stringify({b: 1, 2: 2, a: {x: 1, 0: 0}}, null, 2),\n"
    "  JSON.stringify({'01': 1, '1': 2, '-1': 3, '4294967295': 4})];",
    "return [Object.keys({b: 1, a: 2, 1: 3, 0: 4}), Object.values({x: 1, 3: 2, 1: 3}),\n"
    "  Object.entries({b: 1, '01': 2, 10: 3, 2: 4, '-1': 5, '4294967295': 6, '4294967294': 7})];",
]


def test_group_by_pushes_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


#: an object written with its arrays (and literals beside them) from the start: the result
#: object models build, `{ok: [], failed: []}`, and counters beside the pushes
OBJECT_OF_ARRAYS = [
    "const result = {adults: [], minors: []};\nfor (const p of people) {\n"
    "  if (p.age >= 18) result.adults.push(p.name);\n  else result.minors.push(p.name);\n}\n"
    "return result;",
    "const r = {'ok': [], bad: [], n: 0, s: 'x', t: null, u: true};\n"
    "for (const x of nums) { if (x > 0) r.ok.push(x * 2); else r.bad.push(x); }\nreturn r;",
    "const r = {ok: [], n: 0, sum: 0};\nfor (const x of nums) {\n  r.ok.push(x);\n  r.n++;\n"
    "  r.sum += x;\n}\nreturn r;",
    "const r = {ok: [], last: null};\n"
    "nums.forEach(x => { if (x > 2) { r.ok.push(x); r.last = x; } });\nreturn [r.last, r.ok];",
    "const r = {ok: [], 'a b': []};\nfor (const p of people) {\n  for (const t of p.tags) "
    "r['a b'].push(t);\n  r.ok.push(p.name);\n}\nreturn r;",
    "const r = {ok: []};\nfor (const p of people) {\n  const e = await echo(p.name);\n"
    "  r.ok.push(e);\n}\nr.ok.push('end');\nreturn r.ok.join();",
    "const r = {ok: [], bad: []};\nfor (const x of nums) { r.ok.push(x); r.ok.push(-x); }\n"
    "return [r.ok.length, r.bad];",
]


def test_an_object_of_new_arrays_takes_pushes_as_node_does() -> None:
    runs_as_in_node(OBJECT_OF_ARRAYS, RT)
    # a push onto a member the object does not have: Node's TypeError, a failure here
    out = RT.run(
        "const r = {ok: []};\nfor (const x of nums) { r.none.push(x); }\nreturn r;",
        lang="plan",
        context=CONTEXT,
    )
    assert out.status == "failure", out.value


@pytest.mark.parametrize(
    "text",
    [
        # an array of the object held elsewhere, or a member holding another array
        "const r = {ok: []};\nconst alias = r.ok;\nfor (const x of nums) r.ok.push(x);\n"
        "return alias;",
        "const r = {ok: [], n: words};\nfor (const x of nums) r.n.push(x);\nreturn r.n;",
        # a change reading the object (`r.first` would hold the array)
        "const r = {ok: [], first: null};\nfor (const x of nums) { r.ok.push(x); r.first = r.ok; }"
        "\nreturn r.first;",
        # a member change beside a push by a computed key (the key may be that member)
        "const r = {ok: [], n: 0};\nfor (const x of nums) { r[x > 0 ? 'ok' : 'n'].push(x); r.n++; }"
        "\nreturn r;",
    ],
)
def test_an_object_of_arrays_javascript_would_share_is_refused(text: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert "changes an array inside" in out.error.message, out.error.message


@pytest.mark.parametrize(
    "text",
    [
        # the array is held elsewhere: JavaScript's `keep` sees the pushes
        "const g = {};\nconst keep = [];\nfor (const w of words) {\n"
        "  if (!g[w.length]) { g[w.length] = []; keep.push(g[w.length]); }\n"
        "  g[w.length].push(w);\n}\nreturn keep;",
        # a key that a call computes (read twice, it might differ)
        "const g = {};\nfor (const w of words) {\n  g[echo(w)] ??= [];\n  g[echo(w)].push(w);\n}\n"
        "return g;",
        # an object the program did not write
        "const g = data;\nfor (const w of words) { g.c.push(w); }\nreturn g;",
    ],
)
def test_a_push_javascript_would_share_is_refused(text: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert "changes an array inside" in out.error.message, out.error.message
    assert out.error.hint


def test_a_push_onto_a_missing_member_fails_as_node_throws() -> None:
    out = RT.run(
        "const g = {};\nfor (const w of words) { g[w.length].push(w); }\nreturn g;",
        lang="plan",
        context=CONTEXT,
    )
    assert out.status == "failure" and out.error is not None
    assert out.error.line == 2


@pytest.mark.parametrize(
    "text",
    [
        "const m = {a: 'ab'};\nm.a.push(1);\nreturn m;",
        "const m = {a: `ab`};\nm.a.push(1);\nreturn m;",
        "const m = {a: 'ab'};\nconst k = 'a';\nm[k].push(1);\nreturn m;",
        "const o = {name: 'x', items: []};\no.name.push(1);\nreturn o;",
        "const g = {a: 'ab'};\nfor (const k of ['a']) { if (!g[k]) g[k] = []; g[k].push(1); }\n"
        "return g;",
        "const g = {a: 'ab'};\nfor (const k of ['a']) { g[k] = g[k] || []; g[k].push(1); }\n"
        "return g;",
    ],
)
def test_a_push_onto_a_text_member_fails_as_node_throws(text: str) -> None:
    # (Node: `m.a.push is not a function`; `[...'ab', 1]` would be ['a', 'b', 1])
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, (text, out.value)
    assert out.error.line is not None and out.error.line >= 2


def test_pushes_beside_a_text_member_give_what_node_gives() -> None:
    runs_as_in_node(
        [
            "const o = {name: 'x', items: []};\nfor (const p of people) o.items.push(p.name);\n"
            "return o;",
            "const o = {label: 'ages', ok: [], no: []};\n"
            "for (const p of people) { if (p.age > 10) o.ok.push(p.age); else o.no.push(p.age); }\n"
            "return o;",
        ],
        RT,
    )


def _per_item(text: str, n: int) -> float:
    """The best of 3 runs' CPU time per item of ``text`` over ``n`` items (16 groups)."""
    prepared = Runtime(load_entry_points=False).prepare(text, lang="plan")
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        out = prepared.run({"xs": list(range(n))})
        best = min(best, (time.process_time() - start) / n)
        assert out.status == "success" and out.value == 16, out.message
    return best


@pytest.mark.parametrize(
    "text",
    [
        "const g = {};\nfor (const x of xs) {\n  const k = x % 16;\n  if (!g[k]) g[k] = [];\n"
        "  g[k].push(x);\n}\nreturn Object.keys(g).length;",
        "const g = xs.reduce((acc, x) => {\n  const k = x % 16;\n  if (!acc[k]) acc[k] = [];\n"
        "  acc[k].push(x);\n  return acc;\n}, {});\nreturn Object.keys(g).length;",
    ],
)
def test_a_group_by_grows_linearly(text: str) -> None:
    small, large = _per_item(text, 1_000), _per_item(text, 64_000)
    assert large < 4 * small, (small, large)  # (quadratic would be ~64x)
