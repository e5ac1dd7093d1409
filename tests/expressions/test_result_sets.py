"""Element and member sets that models write on values whose type the reading does not know, in
switch cases and branches, and their text (SPEC 10, "Changes outside loops" and "Loops"):

- a set on a tool's result, ``xs[0] = v;``, ``rows[i] = {...rows[i], b};``, ``xs[k] += 1;``,
  ``r.n -= 1;``, ``xs.length = n;`` (:mod:`dialectic.frontends.plan.arraychanges`,
  :mod:`dialectic.frontends.plan.arrayloops`): ``[]=``, an array's item or an object's member;
- an array method on a member that is no array, ``m.a.push(1);`` of a text: Node's TypeError
  (:mod:`dialectic.frontends.plan.typeerrors`);
- sets in a ``switch`` case and a braceless ``if``/``else`` of an item loop
  (:mod:`dialectic.frontends.plan.itemloops`), ``break`` at a line end in strict mode;
- a ``let`` changed in a branch, a counting loop setting whole items, ``o.n += 2;``;
- ``dialectic decompile`` of ``[]=`` and ``length=`` (:mod:`dialectic.frontends.plan.setforms`).

Each program gives Node's answer (a differential test) or is refused with its message."""

from __future__ import annotations

import json
import re

import pytest

from dialectic import Limits, Runtime
from dialectic.frontends.plan import decompile, parse_plan
from dialectic.tools.convert import tree_to_plan2

from .program_oracle import check, runs_as_in_node, runtime

RT: Runtime = runtime()

#: sets on a tool's result (the reading does not know whether it is an array or an object)
RESULTS = [
    "const xs = await later([{a:1},{a:2}]); xs[0] = 1; return xs;",
    "const rows = await later([{a:1},{a:2}]); rows[1] = {...rows[1], b: 2}; return rows;",
    "const xs = await later([3,1,2]); xs[xs.length - 1] += 10; return xs;",
    "const r = await later({items: [1, 2]}); r.items[0] = 9; return r;",
    "const xs = await later([1, 2, 3]); xs.length = 1; return xs;",
    "const r = await later({a: 1}); r.length = 2; return r;",
    "const r = await later({a: 1}); r[0] = 2; return r;",
    "const r = await later({a: 1}); const k = 'b'; r[k] = 2; return r;",
    "const r = await later({a: 1}); r['b'] = 2; return r;",
    "const r = await later({a: 1}); const k = 'a'; r[k] += 5; return r;",
    "const r = await later({a: 1}); const k = 'b'; r[k] = 2; r.c = 3; return r;",
    "const xs = await later([1, 2]); xs[xs.length] = 3; xs[0]++; xs[1] ??= 7; return xs;",
    "const xs = await later([null, 0]); xs[0] ??= 4; xs[1] ||= 5; return xs;",
    "const xs = await later([1, 2]); const first = xs[0]; xs[0] = 9; return [first, xs];",
    "const xs = await later([1, 2]); xs[0] = 9; xs.push(3); return xs;",
    "const xs = await later([1, 2]); xs[0] = 9; xs.pop(); return xs;",
    "const xs = await later([1, 2]); if (xs.length > 1) { xs[0] = 9; } return xs;",
    "const xs = await later([1, 2]); if (xs.length > 1) xs[1] = 0; else xs[0] = 0; return xs;",
    "const xs = await later([1, 2]); for (const k of [0, 1]) xs[k] += 1; return xs;",
    "const rows = await later([{a:1},{a:2}]); rows[0].b = 5; return rows;",
    "let xs = await later([1, 2]); xs[0] = 3; xs = xs.concat([4]); return xs;",
    "const xs = await later([]); xs[0] = 'first'; return xs;",
    "const res = await later({total: 2, items: [{id: 1}]}); res.items[0].seen = true; "
    "res.total -= 1; return res;",
    "const o = await later({n: 1}); o.n++; o.n += 2; return o;",
    "const r = await later({a: 1, b: 2}); r.c = 3; delete r.a; return r;",
    "const r = await later({a: 1, b: 2}); const k = 'b'; delete r[k]; r.c = 3; return r;",
    "const o = await later({n: 0}); for (const w of ['ab', 'c', 'ab']) o[w] = (o[w] ?? 0) + "
    "w.length; return o;",
]

#: an array method on a member that is an array; the written conditional of a set
MEMBERS = [
    "const m = {a: [1]}; m.a.push(2); m.a.unshift(0); m.a.splice(1, 1); m.a.pop(); return m;",
    "const r = await later({items: [1]}); r.items.push(2); return r;",
    "const m = {b: [[1], 't']}; const j = 0; m.b[j].push(2); m.b[j + 0].push(3); return m;",
    "const rows = await later([{t: [1]}, {t: []}]); for (const r of rows) "
    "{ r.t.push(r.t.length, 9); } return rows;",
    "const xs = [1, 2]; return Array.isArray(xs) ? xs.toSpliced(0, 1, 9) : {...xs, [0]: 9};",
    "const o = {a: 1}; const k = 'b'; "
    "return Array.isArray(o) ? o.toSpliced(k, 1, 9) : {...o, [k]: 9};",
    "const xs = [1, 2, 3]; return Array.isArray(xs) ? xs.slice(0, 2) : {...xs, length: 2};",
]

#: sets in a switch case, a braceless if/else of an item loop; break at a line end
BODIES = [
    "const items = await later([{k:'a'},{k:'b'}]);\nfor (const item of items) { switch (item.k) "
    "{ case 'a': item.v = 1; break; default: item.v = 2; } }\nreturn items;",
    "const items = await later([{k:'a'},{k:'b'}]);\nfor (const item of items) if (item.k === "
    "'a') item.v = 1; else item.v = 2;\nreturn items;",
    "const items = await later([{k: 'a'}, {k: 'b'}]);\nfor (const item of items) if (item.k "
    "=== 'a') item.v = 1; else if (item.k === 'b') item.v = 2; else item.v = 3;\nreturn items;",
    "const items = await later([{k: 'a', n: 1}, {k: 'b', n: 2}]);\nitems.forEach(item => { "
    "if (item.n > 1) item.big = true; else item.big = false; });\nreturn items;",
    "const items = await later([{k: 'a'}, {k: 'b'}]);\nfor (let i = 0; i < items.length; i++) "
    "{ switch (items[i].k) { case 'a': items[i].v = 1; break; default: items[i].v = 0; } }\n"
    "return items;",
    "const items = await later([{k: 'a'}, {k: 'b'}]);\nfor (const item of items) { switch "
    "(item.k) { case 'a': { item.v = 1; break; } default: { item.v = 2; } } }\nreturn items;",
    "const items = await later([{k: 'a', n: 2}]);\nfor (const item of items) {\n  switch "
    "(item.n > 1 ? 'many' : 'one') {\n    case 'many':\n      item.v = 'm';\n      break;\n"
    "    default:\n      item.v = 'o';\n  }\n}\nreturn items;",
    "const xs = [1, 2, 3]; const y = [];\nfor (const x of xs) { if (x > 1) break\n y.push(x) }\n"
    "return y;",
    "const xs = [1, 2, 3]; const y = [];\nfor (const x of xs) { if (x == 2) continue\n "
    "y.push(x) }\nreturn y;",
    "const xs = [1, 2, 3]; const y = [];\nfor (const x of xs) {\n if (x == 2) {\n  break\n }\n"
    " y.push(x)\n}\nreturn y;",
]

#: a let changed in a branch; a counting loop setting whole items; an object's member steps
LETS = [
    "let label = 'small'; const cnt = await later(3); if (cnt > 2) { label = 'big'; } "
    "return label;",
    "let list = []; if (await later(true)) { list = [1]; } else { list.push(2); } return list;",
    "let list = []; if (await later(false)) { list = [1]; } else { list.push(2); } return list;",
    "let out = await later([1]); if (out.length) { out.push(2); } return out;",
    "let out = await later([]); if (out.length) { out.push(2); } else { out = ['none']; } "
    "return out;",
    "let res = await later({a: 1}); if (res.a) { res.b = 2; } return res;",
    "const xs = [1, 2, 3]; for (let i = 0; i < xs.length; i++) { xs[i] = xs[i] * 2; } return xs;",
    "const xs = await later([1, 2, 3]); for (let i = 0; i < xs.length; i++) "
    "{ xs[i] = xs[i] * 2; } return xs;",
    "const xs = [1, 2, 3]; for (let i = 0; i < xs.length; i++) { xs[i] *= 2; xs[i]++; } return xs;",
    "const xs = [1, 2, 3]; for (let i = 0; i < xs.length; i++) xs[i] = i; return xs;",
    "const xs = nums.map(x => x); for (let i = 0; i < xs.length; i++) "
    "{ xs[i] = xs[i] > 2 ? 'big' : 'small'; } return xs;",
    "const xs = [1, 2, 3]; for (let i = 0; i < xs.length; i++) { if (xs[i] > 1) xs[i] = 0; } "
    "return xs;",
    "const grid = [[1, 2], [3, 4]]; for (let i = 0; i < grid.length; i++) "
    "{ grid[i] = grid[i].map(v => v * 2); } return grid;",
    "const xs = [1, 2, 3]; for (let i = 0; i < xs.length; ++i) { if (xs[i] === 2) continue; "
    "xs[i] = -xs[i]; } return xs;",
    "const xs = [1, 2, 3]; for (let i = 0; i < xs.length; i += 1) { xs[i] = xs[i] + "
    "xs.length; } return xs;",
    "const o = {n: 1}; o.n++; o.n--; o.n++; return o;",
    "const o = {n: '5'}; o.n++; return o;",
    "const o = {n: 1}; o.n += 2; o.n *= 3; return o;",
    "const o = {a: 1}; const k = 'a'; o[k] *= 10; o.b = o.a; return o;",
    "const o = {a: 1}; const before = o.a; o.a += 1; return [before, o];",
    "const stats = {count: 0, sum: 0}; stats.count++; stats.sum += 5; "
    "stats.avg = stats.sum / stats.count; return stats;",
]


def test_sets_on_results_give_what_node_gives() -> None:
    runs_as_in_node(RESULTS, RT)


def test_member_methods_and_written_sets_give_what_node_gives() -> None:
    runs_as_in_node(MEMBERS, RT)


def test_switch_cases_and_braceless_branches_give_what_node_gives() -> None:
    runs_as_in_node(BODIES, RT)


def test_lets_counting_loops_and_member_steps_give_what_node_gives() -> None:
    runs_as_in_node(LETS, RT)


def test_at_least_forty_programs() -> None:
    assert len(RESULTS) + len(MEMBERS) + len(BODIES) + len(LETS) >= 40


#: refused where Node gives another value or throws, with the message (and its column)
REFUSED = [
    ("const xs = await later([1, 2]); xs[5] = 1; return xs;", "past the end", 33),
    ("const xs = await later([1, 2]); xs[-1] = 1; return xs;", "is no item's", 33),
    ("const xs = await later([1, 2]); xs['a'] = 1; return xs;", "is not a number", 33),
    ("const xs = await later('ab'); xs[0] = 'c'; return xs;", "a member set on a text", 31),
    ("const xs = await later(null); xs[0] = 1; return xs;", "a member set on null", 31),
    (
        "const xs = await later([1, 2]); const ys = xs; xs[0] = 9; return ys;",
        "read whole before",
        48,
    ),
    ("const xs = await later([1, 2]); xs[0] = xs; return xs;", "holds `xs` itself", 41),
    (
        "function f(x) { return x; }\nconst xs = await later([1, 2]); xs[0] = 5; return f(xs);",
        "not one the program made here",
        33,
    ),
    ("const m = {a: 'ab'}; m.a.push(1); return m;", "m.a.push is not a function", 22),
    ("const m = {a: 'ab'}; m.a.pop(); return m;", "m.a.pop is not a function", 22),
    ("const m = {a: 'ab'}; m.a.shift(); return m;", "m.a.shift is not a function", 22),
    ("const m = {a: 'ab'}; m.a.unshift(1); return m;", "m.a.unshift is not a function", 22),
    ("const m = {a: 'ab'}; m.a.splice(0, 1); return m;", "m.a.splice is not a function", 22),
    (
        "const r = await later({items: 'x'}); r.items.push(2); return r;",
        "r.items.push is not a function",
        38,
    ),
    (
        "const m = {b: ['s']}; m['b'][0].push(1); return m;",
        "m.b[0].push is not a function",
        23,
    ),
    (
        "const rows = await later([{t: 'ab'}]); for (const r of rows) { r.t.push(1); } "
        "return rows;",
        "r.t.push is not a function",
        64,
    ),
    (
        "const rows = await later([{t: null}]); for (const r of rows) { r.t.push(1); } "
        "return rows;",
        "Cannot read properties of null (reading 'push')",
        64,
    ),
    (
        "const rows = await later([{t: 5}]); for (let i = 0; i < rows.length; i++) "
        "{ rows[i].t.push(1); } return rows;",
        "rows[i].t.push is not a function",
        77,
    ),
    (
        "const xs = [{a: 1}]; for (let i = 0; i < xs.length; i++) { xs[i] = 5; xs[i].a = 1; } "
        "return xs;",
        "its members are changed in the same loop",
        60,
    ),
    (
        "const xs = [1, 2, 3]; for (let i = 0; i < xs.length; i++) { xs[i + 1] = 0; } return xs;",
        "the loop's bound reads `xs`, which the loop changes",
        43,
    ),
    (
        "const xs = [1, 2, 3]; for (let i = 0; i <= xs.length; i++) { xs[i] = 0; } return xs;",
        "the loop's bound reads `xs`, which the loop changes",
        44,
    ),
    (
        "const xs = [1, 2, 3]; for (let i = 0; i < xs.length; i++) { xs[i] = 0; xs.push(1); "
        "if (xs.length > 5) break; } return xs;",
        "the loop's bound reads `xs`, which the loop changes",
        43,
    ),
    (
        "const xs = [1, 2, 3]; for (let i = 0; i < xs.length; i++) { for (const i of [3]) "
        "{ xs[i] = 0; } } return xs;",
        "the loop's bound reads `xs`, which the loop changes",
        43,
    ),
    ("const r = await later([1, 2]); delete r.a; return r;", "delete on an array", 32),
    ("const r = await later([1, 2]); r[0] = 5; delete r[0]; return r;", "delete on an array", 42),
    (
        "const o = {a: 1}; const copy = o; o.a += 1; return copy;",
        "is read whole before this change",
        35,
    ),
    (
        "const xs = [1, 2]; return Array.isArray(xs) ? xs.toSpliced(5, 1, 9) : {...xs, [5]: 9};",
        "past the end",
        27,
    ),
]


@pytest.mark.parametrize(("text", "message", "column"), REFUSED)
def test_what_would_differ_is_refused_with_its_message(
    text: str, message: str, column: int
) -> None:
    out = RT.run(text, lang="plan", strict=True)
    assert out.status == "failure" and out.error is not None, out.value
    assert message in out.error.message, out.error.message
    assert out.error.column == column, out.message


def test_refused_programs_are_no_wrong_answer() -> None:
    """Node answers most of the refused programs (or throws): dialectic never answers another
    value (the loops Node runs forever are left out)."""
    texts = [t for t, _, _ in REFUSED if "xs[i + 1]" not in t and "<=" not in t]
    verdicts = check(texts, RT)
    assert [v.kind for v in verdicts] == ["refused"] * len(texts), [
        (v.program, v.detail) for v in verdicts if v.kind != "refused"
    ]


def test_a_caught_type_error_is_never_another_answer() -> None:
    """The TypeError is thrown as Node throws it (a `try` that kept its handler would read
    Node's message); where Plan does not read the `try` so, it is refused, never answered."""
    texts = [
        "let got = null;\ntry { const r = await later({a: 'x'}); const n = await later(1); "
        "r.a.push(n); got = r; } catch (e) { got = [e.name, e.message, String(e)]; }\n"
        "return got;",
        "let got = null;\ntry { const r = await later([{t: 'x'}]); for (const x of r) "
        "{ x.t.push(1); } got = r; } catch (e) { got = e.message; }\nreturn got;",
    ]
    verdicts = check(texts, RT)
    assert all(v.kind in ("same", "refused") for v in verdicts), [v.detail for v in verdicts]


def test_sets_on_a_result_are_linear() -> None:
    """A counting loop setting 100,000 items of a result (and of a program's array) runs in
    steps linear in the items (a copy per set would take 100,000 squared / 2 / 256)."""
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=2_000_000, deadline=600.0))
    for program in (
        "const xs = big.map(x => x); for (let i = 0; i < xs.length; i++) "
        "{ xs[i] = xs[i] * 2; } return xs.length;",
        "const xs = big.map(x => x); for (const k of big) { xs[k] += 1; } return xs.length;",
    ):
        out = rt.run(program, lang="plan", context={"big": list(range(100_000))})
        assert out.ok, out.error
        assert out.value == 100_000


#: programs whose trees hold `[]=` and `length=`
WRITTEN = [
    "const xs = [1, 2, 3]; xs[1] = 9; xs.length = 2; return xs;",
    "const xs = [1, 2]; xs[xs.length] = 7; xs[0] += 10; xs[1]++; return xs;",
    "const xs = [null, 1]; xs[0] ??= 4; return xs;",
    "const m = {a: {b: 1}}; m.a.b = 2; m.a.c = [1]; m.a.c.push(5); return m;",
    "const xs = await later([1, 2]); xs[0] = 'a'; return xs;",
    "const r = await later({n: 1, items: [1]}); r.items[0] = 9; r.n -= 1; return r;",
]


@pytest.mark.parametrize("text", WRITTEN)
def test_sets_decompile_to_text_that_reads_back_to_the_same_tree(text: str) -> None:
    tree = parse_plan(text).tree
    written = decompile(tree)
    assert "[]=" not in written and "length=" not in written
    assert json.dumps(parse_plan(written).tree) == json.dumps(tree), written
    want = RT.run(text, lang="plan", strict=True)
    assert want.ok, want.message
    again = RT.run(written, lang="plan", strict=True)
    assert again.ok and again.value == want.value, again.message
    plan2 = RT.run(tree_to_plan2(tree), lang="plan2", strict=True)
    assert plan2.ok and plan2.value == want.value, plan2.message


def test_written_sets_give_what_node_gives() -> None:
    """The text decompile writes is JavaScript: Node computes the same values."""
    texts = []
    for text in WRITTEN:
        lines = decompile(parse_plan(text).tree).splitlines()
        texts.append(" ".join("const " + s if re.match(r"[\w$]+ = ", s) else s for s in lines))
    runs_as_in_node(texts, RT)
