"""Arrays and texts built in loops cost what they cost in Node (SPEC 7, ``max_steps``, and 10,
"Loops": "Cost"): the append idioms models write (``out = out.concat([x])``, ``out = [...out,
x]``, ``out.push(...ys)``, under a test, in ``for...of``, C-style ``for``, ``while``,
``forEach`` and ``reduce`` callbacks, a list inside an object, a template append) give Node's
answers, take time and steps linear in the items, and never change an array another name
still holds; a program that really copies, quadratic, still stops at ``max_steps``."""

from __future__ import annotations

import time

import pytest

from dialectic import Limits, Runtime

from .program_oracle import check, runs_as_in_node, runtime

RT: Runtime = runtime()

#: small programs (the context's nums, words, people): Node's answers, the tricky orders too
SMALL = [
    # an alias of the old array keeps it: concat and a spread make new arrays
    "let out = [1]; const snap = out; out = out.concat([2]); return [snap, out];",
    "let out = []; const snaps = []; for (const r of [1, 2, 3]) { const snap = out; "
    "out = out.concat([r]); snaps.push(snap.length); } return [out, snaps];",
    "let out = []; let prev = []; for (const r of [1, 2, 3]) { prev = out; "
    "out = out.concat([r]); } return [prev, out];",
    "let out = []; let prev = []; for (const r of [1, 2, 3]) { prev = out; out = [...out, r]; } "
    "return [prev, out];",
    "let a = []; let b = []; for (const r of [1, 2, 3]) { b = a; a = a.concat([r]); } "
    "return [a, b];",
    "let a = []; let b = []; for (const r of [1, 2, 3]) { a = a.concat([r]); "
    "b = a.concat([0]); } return [a, b];",
    "const init = [9]; let out = init; for (const r of [1, 2]) { out = out.concat([r]); } "
    "return [init, out];",
    "const init = [9]; return [[1, 2].reduce((a, x) => a.concat([x]), init), init];",
    "const init = [9]; return [[1, 2].reduce((a, x) => a.concat(x, [x]), init), init];",
    "const xs = [[1], [2]]; const r = xs.reduce((a, x) => a.concat(x), []); return [r, xs];",
    # the array itself among the arguments, its length, nested arrays
    "let out = []; for (const r of [1, 2, 3]) { out = out.concat(out); "
    "out = out.concat([r]); } return out;",
    "let out = []; for (const r of [1, 2, 3]) { out = out.concat([out.length]); } return out;",
    "let out = []; for (const r of [1, 2, 3]) { out = out.concat([out]); } return out.length;",
    # concat's arguments: an array's items, any other value as one item, a spread
    "let out = []; for (const r of [[1], [2, 3], 4, 'ab']) { out = out.concat(r); } return out;",
    "let out = []; for (const r of [[1], [2, [3]]]) { out = out.concat(r, [r], 5); } return out;",
    "let out = []; for (const r of [1, 2]) { out = out.concat(...[[r], [r + 1]]); } return out;",
    "let out = ''; for (const r of ['a', 'b']) { out = out.concat(r); } return out;",
    # under a test, with break and continue, both forms in one loop, while and do...while
    "let out = []; for (const r of [1, 2, 3, 4]) { if (r % 2) out = [...out, r]; "
    "else out = out.concat([r * 10]); } return out;",
    "let out = []; for (const r of [1, 2, 3, 4]) { if (r > 2) break; out = out.concat([r]); } "
    "return out;",
    "let out = []; for (const r of [1, 2, 3, 4]) { if (r === 2) continue; "
    "out = [...out, r]; } return out;",
    "let out = []; const seen = []; for (const r of [1, 2, 3, 4]) { if (r % 2) { "
    "seen.push(out.length); out = [...out, r]; } } return [out, seen];",
    "let out = []; const lens = []; for (const r of [1, 2, 3]) { const before = out; "
    "if (r > 1) out = out.concat([r]); lens.push(before.length); } return [out, lens];",
    "let out = []; let i = 0; while (i < 3) { if (i % 2 === 0) { out = out.concat([i]); } "
    "else { out = [...out, -i]; } i++; } return out;",
    "let out = []; let i = 0; while (out.length < 5) { out = out.concat([i, i]); i++; } "
    "return out;",
    "let out = []; do { out = out.concat([out.length]); } while (out.length < 4); return out;",
    "let out = []; [1, 2].forEach(r => { out = out.concat([r, r]); }); return out;",
    "let out = []; [1, 2].forEach(r => { out = [...out, ...[r, r]]; }); return out;",
    "let out = []; for (const r of [1, 2]) { const ys = [r, r + 1]; out.push(...ys); } return out;",
    "let out = [0]; for (const r of [1, 2]) { out = [r, ...out]; } return out;",
    # a list inside an object (a field, a group, a record's field)
    "const acc = {items: [], n: 0}; for (const r of nums) { acc.items = acc.items.concat([r]); "
    "acc.n++; } return acc;",
    "const acc = {items: []}; const snaps = []; for (const r of nums) { const s = acc.items; "
    "acc.items = acc.items.concat([r]); snaps.push(s); } return [acc, snaps];",
    "const g = {a: [1]}; const orig = g.a; for (const x of nums) { g.a = g.a.concat([x]); } "
    "return [g, orig];",
    "const start = [7]; const g = {}; for (const x of nums) { g.k = (g.k || start).concat([x]); "
    "} return [g, start];",
    "const g = {}; for (const w of words) { const k = w.length; g[k] = (g[k] || [])"
    ".concat([w]); } return g;",
    "const g = {}; for (const w of words) { g[w.length] = (g[w.length] || []).concat([w]); "
    "g.last = g[w.length]; } return g;",
    "return words.reduce((acc, w) => { acc[w.length] = (acc[w.length] || []).concat([w]); "
    "return acc; }, {});",
    "return words.reduce((acc, w) => ({...acc, [w.length]: (acc[w.length] ?? []).concat(w)}), {});",
    "return nums.reduce((acc, x) => { acc.all = acc.all.concat([x]); acc.ref = acc.all; "
    "return acc; }, {all: []});",
    "const stats = {}; for (const p of people) { const k = p.city ?? 'none'; "
    "if (!stats[k]) stats[k] = {names: [], n: 0}; "
    "stats[k].names = stats[k].names.concat([p.name]); } return stats;",
    # template appends: a text, or any other first value (the template as written)
    "let out = ''; for (const r of nums) { out = `${out}${r},`; } return out;",
    "let out; for (const r of nums) { out = `${out}${r},`; } return out;",
    "let out = 0; for (const r of nums) { out = `${out}|${r}`; } return out;",
    "let out = [1, 2]; for (const r of words) { out = `${out}-${r}`; } return out;",
    "let out = ''; for (const r of nums) { out = `${out}${out.length},`; } return out;",
    "let out = ''; for (const r of nums) { if (out.length > 6) break; out = `${out}${r};`; } "
    "return out;",
    "let out = ''; let i = 0; while (i < nums.length) { out = `${out}${nums[i]},`; i++; } "
    "return out;",
    "let out = ''; const seen = []; for (const r of nums) { const before = out; "
    "out = `${out}${r}`; seen.push(before); } return [out, seen];",
    "let out = ''; for (const r of words) { out = `${out}${r}`; "
    "if (out.endsWith('a')) out = `${out}!`; } return out;",
    # text prepends, and prepends and appends of one text in turn
    "let out = ''; for (const r of nums) { out = r + ',' + out; } return out;",
    "let out = 0; for (const r of nums) { out = r + out; } return out;",
    "let out = 'x'; for (const r of nums) { out = r + out; out += '|'; } return out;",
    "let out = ''; for (const r of words) { out = r + out; if (out.startsWith('b')) "
    "out = '>' + out; } return out;",
    "let out = ''; const seen = []; for (const r of nums) { const before = out; "
    "out = r + ';' + out; seen.push(before); } return [out, seen];",
    "let out = ''; const ends = []; for (const r of words) { out = r + out; "
    "ends.push(out.slice(-2), out.at(-1), out === 'ab', !out, out.length); } return [out, ends];",
    "let out = ''; for (const r of nums) { out = out.length + out; } return out;",
    "let a = ''; let b = ''; for (const r of words) { b = r + a; a = r + a; } return [a, b];",
    "let a = 'q'; for (const r of words) { const old = a; a = a + r; a = r + old; } return a;",
    "let a = ''; let i = 0; while (a.length < 30) { a = i + a; a = a + i; i++; } return a;",
    "let a = ''; for (const r of words) { if (r.length > 2) a = r + a; else a = a + r; } return a;",
    "let a = ''; for (const r of words) { a = `${a}${r}`; a = r + a; } return a;",
    "return nums.reduce((acc, r) => `${acc}${r},`, '');",
    "return nums.reduce((acc, r) => `${acc}${r},`);",
    "return words.reduce((acc, w, i) => `${acc}${i}=${w};`, 'start:');",
    "return nums.reduce((acc, r) => `${acc}${r}`, 0);",
]

#: the same receivers JavaScript cannot concat: a clear refusal, as before
REFUSED = [
    "let out = null; for (const r of [1, 2]) { out = out.concat([r]); } return out;",
    "let out = {}; for (const r of [1, 2]) { out = out.concat([r]); } return out;",
]


def test_the_idioms_give_nodes_answers() -> None:
    verdicts = check(SMALL, RT)
    assert [v for v in verdicts if v.kind != "same"] == []


def test_what_javascript_cannot_concat_is_refused() -> None:
    for text in REFUSED:
        out = RT.run(text, lang="plan", context={})
        assert out.status == "failure" and out.error is not None
        assert out.error.code == "expression_error", out.message
        assert "concat" in (out.message or "")


def _rows(n: int) -> str:
    return f"const rows = Array.from({{length: {n}}}, (_, i) => i);\n"


#: the idioms, each building an array (or a text) of the rows' items
LINEAR = {
    "concat for...of": "let out = []; for (const r of rows) { out = out.concat([r * 2]); }",
    "concat of an array": "let out = []; for (const r of rows) { out = out.concat([r, -r]); }",
    "concat of an item": "let out = []; for (const r of rows) { out = out.concat(r); }",
    "spread for...of": "let out = []; for (const r of rows) { out = [...out, r * 2]; }",
    "spreads": "let out = []; for (const r of rows) { const ys = [r, r + 1]; "
    "out = [...out, ...ys]; }",
    "push spread": "let out = []; for (const r of rows) { const ys = [r, r + 1]; "
    "out.push(...ys); }",
    "concat C-style for": "let out = []; for (let i = 0; i < rows.length; i++) { "
    "out = out.concat([rows[i]]); }",
    "spread C-style for": "let out = []; for (let i = 0; i < rows.length; i++) { "
    "out = [...out, rows[i]]; }",
    "concat while": "let out = []; let i = 0; while (i < rows.length) { "
    "out = out.concat([rows[i]]); i++; }",
    "spread while": "let out = []; let i = 0; while (i < rows.length) { "
    "out = [...out, rows[i]]; i += 1; }",
    "concat under a test": "let out = []; for (const r of rows) { if (r % 3) "
    "out = out.concat([r]); }",
    "spread under a test": "let out = []; for (const r of rows) { if (r % 2 === 0) "
    "out = [...out, r]; }",
    "pages": "let out = []; let page = 0; while (page * 100 < rows.length) { "
    "const batch = rows.slice(page * 100, page * 100 + 100); out = out.concat(batch); page++; }",
    "reduce spread": "const out = rows.reduce((acc, x) => [...acc, x * 2], []);",
    "reduce concat": "const out = rows.reduce((acc, x) => acc.concat(x), []);",
    "reduce concat of an array": "const out = rows.reduce((acc, x) => acc.concat([x, x]), []);",
    "forEach concat": "let out = []; rows.forEach(r => { out = out.concat([r]); });",
    "forEach spread": "let out = []; rows.forEach(r => { out = [...out, r]; });",
    "a field's concat": "const acc = {items: []}; for (const r of rows) { "
    "acc.items = acc.items.concat([r]); } const out = acc.items;",
    "a group's concat": "const g = {}; for (const r of rows) { g[r % 7] = (g[r % 7] || [])"
    ".concat([r]); } const out = Object.values(g);",
    "template append": "let out = ''; for (const r of rows) { out = `${out}${r},`; }",
    "template while": "let out = ''; let i = 0; while (i < rows.length) { "
    "out = `${out}${rows[i]};`; i++; }",
    "reduce template": "const out = rows.reduce((acc, r) => `${acc}${r},`, '');",
    "text prepend": "let out = ''; for (const r of rows) { out = r + ',' + out; }",
    "text prepend while": "let out = ''; let i = 0; while (i < rows.length) { "
    "out = rows[i] + ';' + out; i++; }",
}


def test_ten_thousand_items_give_nodes_answers() -> None:
    texts = [_rows(10_000) + body + "\nreturn out;" for body in LINEAR.values()]
    runs_as_in_node(texts, RT)


@pytest.mark.parametrize("name", list(LINEAR))
def test_steps_are_linear_in_the_items(name: str) -> None:
    # 20,000 items in 150,000 steps: copying them (20,000 squared / 2 items, one step per 256)
    # would take 780,000
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=150_000, deadline=600.0))
    out = rt.run(_rows(20_000) + LINEAR[name] + "\nreturn out.length;", lang="plan")
    assert out.status == "success", (name, out.message)


def _per_item(rt: Runtime, text: str, n: int) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        out = rt.run(_rows(n) + text + "\nreturn out.length;", lang="plan")
        best = min(best, time.process_time() - started)
        assert out.status == "success", out.message
    return best / n


@pytest.mark.parametrize(
    "name",
    ["concat for...of", "spread while", "concat under a test", "reduce concat",
     "a field's concat", "template append", "text prepend"],
)  # fmt: skip
def test_time_per_item_is_flat(name: str) -> None:
    # per item at 32,000 within 4 times 1,000's (copying: about 32 times, and more)
    rt = Runtime(load_entry_points=False, limits=Limits(deadline=600.0))
    _per_item(rt, LINEAR[name], 200)  # (first-run caches: not measured)
    small = _per_item(rt, LINEAR[name], 1_000)
    large = _per_item(rt, LINEAR[name], 32_000)
    assert large < 4 * small, (name, small, large)


#: programs that copy a growing array or object per item in Node too (a snapshot taken each
#: time, a copy into a new object each time): quadratic, they stop at max_steps
QUADRATIC = [
    "let out = []; let n = 0; for (const r of rows) { const c = [...out]; out = [...out, r]; "
    "n += c.length; }",
    "let all = {}; let n = 0; for (const r of rows) { const c = {...all}; "
    "all = {...all, ['k' + r]: r}; n += c.k0 ?? 1; } const out = Object.keys(all);",
    "let out = []; let i = 0; while (i < rows.length) { const snap = out.slice(); "
    "out = snap.concat([i]); i++; }",
    "let out = []; for (const r of rows) { out = [r, ...out]; }",
]


@pytest.mark.parametrize("text", QUADRATIC)
def test_quadratic_copies_still_stop_at_max_steps(text: str) -> None:
    out = RT.run(_rows(60_000) + text + "\nreturn out.length;", lang="plan")
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "limit_exceeded", out.message
    assert out.error.details["limit"] == "max_steps"


def test_a_prepend_runs_where_node_is_quick() -> None:
    # `out = [x, ...out]` copies in Node too (5,000 items: about 0.2 s there); it runs here
    # until about 22,000 items, where its copies reach max_steps
    for text in QUADRATIC[-1:]:
        out = RT.run(_rows(5_000) + text + "\nreturn out.length;", lang="plan")
        assert out.status == "success" and out.value == 5_000, out.message
