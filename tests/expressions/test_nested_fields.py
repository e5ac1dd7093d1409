"""Computed fields of the records of an object a loop fills (SPEC 10, "Loops", "Aggregating
into records"): ``table[a][b] = v``, ``table[a][b] = (table[a][b] ?? 0) + x`` and
``t[a][b] ??= []; t[a][b].push(x)`` give Node's answer, linear in the rows (the record and
its lists change in place: :mod:`dialectic.resolve.recordinner`,
:func:`dialectic.compiler.accumulate.merge_owned`); a record JavaScript would share, a key that
calls a function, a member JavaScript inherits and ``__proto__`` are refused at their place."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dialectic import Limits, Runtime

from .program_generator import CONTEXT
from .program_oracle import check, runs_as_in_node, runtime

RT: Runtime = runtime()


def _loop(make: str, body: str, key: str = "w.length % 2", over: str = "words") -> str:
    return (
        f"const t = {{}};\nfor (const w of {over}) {{\n  const k = {key};\n  {make}\n"
        f"  {body}\n}}\nreturn t;"
    )


PROGRAMS = [
    # the group-by of sums as models write it
    "const table = {};\nfor (const p of people) {\n  const r = p.city || 'U';\n"
    "  table[r] ??= {};\n  table[r][p.name] = (table[r][p.name] ?? 0) + p.age;\n}\n"
    "return table;",
    "const table = {};\nfor (const p of people) {\n  table[p.city] ??= {};\n"
    "  table[p.city][p.name] = (table[p.city][p.name] ?? 0) + p.age;\n}\nreturn table;",
    # each way of making the record
    _loop("if (!t[k]) t[k] = {};", "t[k][w] = w.length;"),
    _loop("if (!t[k]) { t[k] = {}; }", "t[k][w] = w.length;"),
    _loop("t[k] ||= {};", "t[k][w.length] = (t[k][w.length] || 0) + 1;"),
    _loop("t[k] = t[k] || {};", "t[k][w] ??= 0;\n  t[k][w] += 1;"),
    _loop("t[k] = t[k] ?? {};", "t[k][w] = (t[k][w] || 0) + 1;\n  t[k][w] *= 3;"),
    _loop("if (!(k in t)) t[k] = {};", "t[k][w] = k;"),
    _loop("if (t[k]) t[k][w] = 1;", "else t[k] = {first: w};"),
    # keys: numbers (integer-like ones first in Object.keys), a text and its number alike
    _loop("t[k] ??= {};", "t[k][w] = w * 2;", "w > 2 ? 'big' : 'small'", "nums"),
    _loop("t[k] ??= {};", "t[k][w] = 1;\n  t[k][w + ''] ??= 2;", "w > 2", "nums"),
    _loop("t[k] ??= {};", "t[k][w] = 1;", "w.length % 3"),
    "const t = {};\nfor (const w of words) {\n  const k = w.length % 2;\n  t[k] ??= {};\n"
    "  t[k][w] = 1;\n}\nreturn Object.entries(t).map(([k, v]) => [k, Object.keys(v)]);",
    # named fields beside computed ones, in the literal and changed
    _loop("t[k] ??= {n: 0};", "t[k].n++;\n  t[k][w] = t[k].n;"),
    _loop("t[k] ??= {};", "t[k][w] = 1;\n  t[k].count = (t[k].count || 0) + 1;"),
    _loop("t[k] ??= {};", "t[k]['x'] = w;\n  t[k][w + '!'] = (t[k].x || '').length;"),
    # reads of fields of the record changed and of another record
    _loop(
        "if (!t[k]) t[k] = {};",
        "const before = t[k][w] ?? 'none';\n  t[k][w] = 1;\n  t[k][w + '!'] = before;",
    ),
    _loop("t[k] ??= {};", "if (t[1 - k]) t[k][w] = (t[1 - k][w] ?? 0) + 1;\n  else t[k][w] = -1;"),
    "const t = {};\nconst out = [];\nfor (const w of words) {\n  const k = w.length % 2;\n"
    "  if (!t[k]) t[k] = {};\n  const seen = t[k][w];\n  t[k][w] = w.length;\n"
    "  out.push(seen ?? null);\n}\nreturn [t, out];",
    # a field read before a change and used after it (read when the loop's aliases run)
    "const t = {};\nconst out = [];\nfor (const w of words) {\n  const k = w.length % 2;\n"
    "  t[k] ??= {n: 0};\n  const before = t[k].n;\n  t[k].n++;\n  t[k][w] = before;\n"
    "  out.push(before, t[k].n);\n}\nreturn [t, out];",
    "const t = {};\nconst out = [];\nfor (const w of words) {\n  const k = w.length % 2;\n"
    "  t[k] ??= {};\n  const had = t[k]['a'] ?? 0;\n  t[k]['a'] = had + 1;\n  t[k][w] = had;\n"
    "  if (had > 1) out.push(t[k].a);\n}\nreturn [t, out];",
    "const t = {};\nlet last = null;\nfor (const w of words) {\n  const k = w.length % 2;\n"
    "  t[k] ??= {n: 0};\n  last = t[k].n;\n  t[k][w] = 1;\n  t[k].n += 2;\n}\n"
    "return [t, last];",
    # forEach, a loop inside a loop, entries, while, continue and break
    "const t = {};\nnums.forEach((x, i) => {\n  const k = i % 2 ? 'odd' : 'even';\n"
    "  t[k] ??= {};\n  t[k][i] = x;\n});\nreturn t;",
    "const t = {};\nfor (const p of people) {\n  for (const tag of p.tags) {\n"
    "    t[tag] ??= {};\n    t[tag][p.name] = p.age;\n  }\n}\nreturn t;",
    "const t = {};\nfor (const [k, v] of Object.entries(data)) {\n  const ty = typeof v;\n"
    "  if (!t[ty]) t[ty] = {};\n  t[ty][k] = v;\n}\nreturn t;",
    "const t = {};\nlet i = 0;\nwhile (i < 6) {\n  const k = i % 2;\n  if (!t[k]) t[k] = {};\n"
    "  t[k][i * 10] = i;\n  i++;\n}\nreturn t;",
    _loop("t[k] ??= {};", "if (w === '') continue;\n  t[k][w] = k;", "w.length % 3"),
    _loop("t[k] ??= {};", "if (w === '') break;\n  t[k][w] = k;", "w.length % 3"),
    # `constructor` set (an own member, as JavaScript makes it), the same key twice
    _loop("t[k] ??= {};", "t[k][w] = 1;", "'x'", "['a', 'constructor', 'a']"),
    _loop("t[k] ??= {};", "t[k][w] = (t[k][w] ?? 0) + 1;", "'x'", "['a', 'b', 'a']"),
    # a record's computed fields as lists, pushed onto
    "const t = {};\nfor (const p of people) {\n  for (const tag of p.tags) {\n"
    "    t[tag] ??= {};\n    t[tag][p.name] ??= [];\n    t[tag][p.name].push(p.age);\n  }\n}\n"
    "return t;",
    _loop("t[k] ??= {};", "t[k][w.length] ||= [];\n  t[k][w.length].push(w, k);"),
    _loop(
        "t[k] ??= {};",
        "t[k][w.length] ??= [];\n  t[k][w.length + 1] ??= [];\n  t[k][w.length].push(w);\n"
        "  t[k][w.length + 1].push(k);",
    ),
    _loop("t[k] ??= {};", "t[k][w] ??= [];\n  t[k][w].push(...w);", "'all'"),
    # the record made in parentheses, `(g[a] ??= {})[b] = v;` (two statements)
    "const g = {};\nfor (const w of words) {\n  (g[w.length] ??= {})[w] = 1;\n}\nreturn g;",
    "const g = {};\nfor (const p of people) {\n  const r = p.city || 'U';\n"
    "  (g[r] ||= {})[p.name] = (g[r][p.name] ?? 0) + p.age;\n}\nreturn g;",
    "const g = {};\nfor (const p of people) {\n  (g[p.city] ??= {}).n = p.age;\n}\nreturn g;",
    "const g = {};\nconst k = 'a';\n(g[k] ??= {}).x = 1;\n(g[k] ??= {}).y = 2;\nreturn g;",
    # an unshift onto a member whose name no variable has (before: a Python IndexError)
    "const g = {};\ng.a ||= [];\ng.a.unshift(1);\ng.a.unshift(0);\nreturn g;",
    # the result read after the loop
    "const m = {};\nfor (const p of people) {\n  const k = p.city || 'U';\n  m[k] ??= {};\n"
    "  m[k][p.name] = (m[k][p.name] ?? 0) + 1;\n}\n"
    "const total = Object.values(m).reduce((s, o) => s + Object.keys(o).length, 0);\n"
    "return {m, total};",
    # outside loops: a field's field of an object the program made
    "const t = {a: {}};\nt.a.b = 1;\nt.a['c'] = 2;\nconst k = 'd';\nt.a[k] = 3;\nreturn t;",
]


def test_computed_fields_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


REFUSED = [
    # a record JavaScript would share
    (_loop("if (!t[k]) t[k] = {};", "const r = t[k];\n  t[k][w] = 1;\n  r.z = 2;"), "read whole"),
    (
        "const t = {};\nconst all = [];\nfor (const w of words) {\n  const k = w.length % 2;\n"
        "  if (!t[k]) t[k] = {};\n  all.push(t[k]);\n  t[k][w] = 1;\n}\nreturn all;",
        "read whole",
    ),
    (
        "const t = {};\nconst shared = {};\nfor (const w of words) {\n  const k = w.length % 2;\n"
        "  t[k] ??= shared;\n  t[k][w] = 1;\n}\nreturn [t, shared];",
        "read whole",
    ),
    (_loop("if (!t[k]) t[k] = {};", "t[k][w] = t[1 - k];"), "read whole"),
    (_loop("if (!t[k]) t[k] = {};", "t[k][w] = Object.keys(t[1 - k] ?? {}).length;"), "whole"),
    (
        "const base = {};\nconst t = {a: base};\nfor (const w of words) t.a[w] = 1;\nreturn base;",
        "new",
    ),
    # a key computed twice, a field's key that calls a function
    (_loop("t[w.length % 2] ??= {};", "t[w.length % 2][w] = 1;", "0"), "computed twice"),
    (_loop("if (!t[k]) t[k] = {};", "t[k][w.toUpperCase()] = 1;"), "calls a function"),
    (_loop("t[k] ??= {};", "t[k][w] = 1;\n  t[k][String(w)] ??= 2;", "w > 2", "nums"), "calls"),
    # a computed field beside a pushed list; a record not made yet (Node throws)
    (_loop("if (!t[k]) t[k] = {xs: []};", "t[k].xs.push(w);\n  t[k][w] = 1;"), "pushed list"),
    (_loop("", "t[k][w] = 1;"), ""),
    # a computed field pushed onto: made by `??= []` only, read only after the loop
    (_loop("t[k] ??= {};", "t[k][w.length].push(w);"), ""),
    (_loop("t[k] ??= {n: 0};", "t[k][w.length] ??= [];\n  t[k][w.length].push(w);"), "whole"),
    (_loop("t[k] ??= {};", "t[k][w] = 'x';\n  t[k][w].push(w);"), "made only by"),
    (_loop("t[k] ??= {};", "t[k][w] ??= [];\n  t[k][w].push(w);\n  t[k].x = 1;"), "no named"),
    (
        "const t = {};\nconst out = [];\nfor (const w of words) {\n  const k = w.length % 2;\n"
        "  t[k] ??= {};\n  t[k][w] ??= [];\n  out.push(t[k][w]);\n  t[k][w].push(w);\n}\n"
        "return out;",
        "read it after the loop",
    ),
    (
        _loop(
            "t[k] ??= {};",
            "t[k][w] ??= [];\n  t[k][w].push(w);\n  if (t[k][w].length > 1) t[k][w].push(1);",
        ),
        "read it after the loop",
    ),
    # the record made in parentheses as the statement of an `if` or with a comma: as written
    (
        "const g = {};\nfor (const w of words) {\n  if (w) (g[w.length] ??= {})[w] = 1;\n}\n"
        "return g;",
        "??=",
    ),
    (
        "const g = {};\nfor (const w of words) {\n  (g[w.length] ??= {})[w] = 1, g.z = 2;\n}\n"
        "return g;",
        "??=",
    ),
    # `__proto__` and the members JavaScript inherits (Node reads them as functions)
    (_loop("t[k] ??= {};", "t[k][w] = 1;", "'x'", "['a', '__proto__']"), "__proto__"),
    (_loop("t[k] ??= {};", "t[k][w] = (t[k][w] ?? 0) + 1;", "'x'", "['constructor']"), ""),
    (_loop("t[k] ??= {};", "t[k][w] = (t[k][w] || 0) + 1;", "'x'", "['toString']"), ""),
    (_loop("t[k] ??= {};", "t[k][w] ??= 5;", "'x'", "['a', 'toString']"), ""),
    # a missing field counted (Node makes NaN)
    (_loop("t[k] ??= {};", "t[k][w]++;"), ""),
]


@pytest.mark.parametrize(("text", "says"), REFUSED)
def test_what_javascript_reads_otherwise_is_refused(text: str, says: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, (text, out.value)
    assert out.error.code != "internal_error", out.message
    assert says in (out.message or ""), out.message


def test_no_program_here_is_answered_otherwise_than_node() -> None:
    verdicts = check(PROGRAMS + [text for text, _ in REFUSED], RT)
    assert not [v for v in verdicts if v.kind in ("wrong", "crash")], verdicts
    assert sum(v.kind == "same" for v in verdicts) == len(PROGRAMS)


@pytest.mark.parametrize("n", [1_000, 10_000, 100_000])
def test_a_record_of_computed_fields_grows_linearly(n: int) -> None:
    """Two records of n/2 keys each: each set changes its record in place, so the steps stay
    within 10 a row (a copy per set would cost the record's size: n squared in all)."""
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=10 * n, deadline=600.0))
    text = (
        "const t = {};\nfor (const x of xs) {\n  const r = x % 2;\n  t[r] ??= {};\n"
        "  t[r]['k' + x] = (t[r]['k' + x] ?? 0) + x;\n}\n"
        "return Object.keys(t[0]).length + Object.keys(t[1]).length + t[1]['k' + (xs.length - 1)];"
    )
    out = rt.run(text, lang="plan", context={"xs": list(range(n))})
    assert out.status == "success", out.message
    assert out.value == n + n - 1


@pytest.mark.parametrize("n", [1_000, 10_000, 100_000])
def test_a_record_of_pushed_lists_grows_linearly(n: int) -> None:
    """Six lists of n/6 items in two records: each push grows its list in place."""
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=12 * n, deadline=600.0))
    text = (
        "const t = {};\nfor (const x of xs) {\n  const r = x % 2;\n  t[r] ??= {};\n"
        "  t[r][x % 3] ??= [];\n  t[r][x % 3].push(x);\n}\n"
        "return t[0][0].length + t[0][1].length + t[0][2].length + t[1][0].length;"
    )
    out = rt.run(text, lang="plan", context={"xs": list(range(n))})
    assert out.status == "success", out.message
    assert out.value == len(range(0, n, 2)) + len(range(3, n, 6))


def test_copying_would_not_be_linear() -> None:
    """The same budget stops a form that copies the record per row (the test above is one:
    the new key first, so the record is no change of the old one)."""
    n = 10_000
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=10 * n, deadline=600.0))
    text = (
        "const t = {};\nfor (const x of xs) {\n  t.all = {['k' + x]: x, ...(t.all ?? {})};\n}\n"
        "return Object.keys(t.all).length;"
    )
    out = rt.run(text, lang="plan", context={"xs": list(range(n))})
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "limit_exceeded", out.message


#: the parts of the random aggregations by a computed field (keys, fields, changes, pushes,
#: statements JavaScript reads otherwise once a record or list is shared, makes)
_KEYS = ["p.city || 'U'", "p.age > 5 ? 'old' : 'young'", "p.name.length % 2", "'all'"]
_FIELDS = ["p.name", "p.age", "p.name.length", "p.city", "t", "p.age % 3", "'n'", "0"]
_CHANGES = [
    "R[F] = p.age;", "R[F] = (R[F] ?? 0) + 1;", "R[F] ??= p.name;", "R[F] ||= 1;", "R[F] += 1;",
    "R[F]++;", "R[F] = (R[F] || 0) + p.age;", "R.n = (R.n ?? 0) + 1;", "R[F] = R[G] ?? null;",
    "if (p.age > 5) R[F] = 2;", "R[F] = [p.name];", "R[F] = {a: 1};",
]  # fmt: skip
_PUSHES = ["R[F] ??= [];\n  R[F].push(p.name);", "R[F] ||= [];\n  R[F].push(p.age, 1);"]
_ODD = [
    "const r = R; r.z = 1;", "all.push(R);", "all.push(R[F]);", "if (p.age > 30) break;",
    "if (p.age < 1) continue;", "const v = R[F] ?? 0; all.push(v);", "R = {};", "R[F].x = 1;",
]  # fmt: skip
_MAKES = [
    "if (!R) R = {};", "R ??= {};", "R ||= {};", "R = R || {};", "R = R ?? {};",
    "if (!(k in st)) R = {};", "if (!R) R = {n: 0};",
]  # fmt: skip


def _program(seed: int) -> str:
    r = random.Random(seed)
    push = r.random() < 0.3
    body = ["const k = " + r.choice(_KEYS) + ";"]
    if r.random() < 0.95:
        body.append(r.choice(_MAKES).replace("R", "st[k]"))
    for _ in range(r.randrange(1, 4)):
        change = r.choice(_PUSHES if push else _CHANGES).replace("R", "st[k]")
        body.append(change.replace("F", r.choice(_FIELDS)).replace("G", r.choice(_FIELDS)))
    if r.random() < 0.25:
        odd = r.choice(_ODD).replace("R", "st[k]").replace("F", r.choice(_FIELDS))
        body.insert(r.randrange(1, len(body) + 1), odd)
    inner = "\n  ".join(["const t = p.tags[0] ?? 'none';", *body])
    loop = r.choice(
        [
            "for (const p of people) {\n  BODY\n}",
            "people.forEach(p => {\n  BODY\n});",
            "for (const q of [...people, ...people]) {\n  const p = q;\n  BODY\n}",
        ]
    )
    if "forEach" in loop:
        inner = inner.replace("continue;", "return;").replace("break;", "return;")
    end = r.choice(
        [
            "return st;",
            "return [st, all];",
            "return Object.entries(st).map(([c, v]) => [c, Object.keys(v)]);",
        ]
    )
    return "\n".join(["const st = {};", "const all = [];", loop.replace("BODY", inner), end])


def test_random_aggregations_by_a_computed_field_give_nodes_answer_or_fail() -> None:
    verdicts = check([_program(seed) for seed in range(300)], RT)
    bad = [v for v in verdicts if v.kind in ("wrong", "crash")]
    assert not bad, bad[:3]
    assert sum(v.kind == "same" for v in verdicts) >= 120, Counter(v.kind for v in verdicts)
