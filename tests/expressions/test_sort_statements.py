"""Statements that reorder or collect an array where the program owns it, and the right fold:

- ``xs.sort(c);`` / ``xs.reverse();`` after an ``if`` that returns (:mod:`.restblock` brings
  ``xs`` into the statements after it, :mod:`.reorder` checks it as its enclosing block would),
  on a loop's item taken from an array literal, on a function's parameter when every call
  passes an array literal (:mod:`dialectic.frontends.plan.sortowned`);
- ``files = files.concat(x);`` beside ``files.push(y);`` in one loop, as recursive walks collect
  (:mod:`dialectic.frontends.plan.concatpush`);
- ``reduceRight``, sharing ``reduce``'s checks and closures.

Each runs as in Node, or is refused with what to write where JavaScript's answer would differ
(another name holds the array) or cannot be shown the same."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_oracle import check, runtime

RT: Runtime = runtime()

#: a directory tree the walks list through `later` (a tool's reply)
TREE = (
    "const T = {root: [{dir: true, path: 'a', name: 'a'}, {dir: false, name: 'x'}, "
    "{dir: true, path: 'b', name: 'b'}], a: [{dir: false, name: 'a1'}, {dir: true, path: 'c', "
    "name: 'c'}], b: [], c: [{dir: false, name: 'c1'}, {dir: false, name: 'c2'}]};\n"
)

SORTS = [
    # after an `if` that returns
    "const xs = await later([3, 1, 2]); if (xs.length < 2) return xs; xs.sort((a, b) => a - b);"
    " return xs;",
    "const xs = await later([3]); if (xs.length < 2) return xs; xs.sort((a, b) => a - b); "
    "return xs;",
    "const xs = [3, 1, 2]; if (!xs.length) { return []; } xs.reverse(); return xs.map(x => x * 2);",
    "const xs = await later([3, 1, 2]); if (xs.includes(9)) return 'nine'; xs.sort(); "
    "const top = xs[0]; return [top, xs];",
    "const xs = await later([3, 1, 2]); const len = xs.length; if (len === 0) return null; "
    "xs.sort((a, b) => b - a); return {len, xs};",
    "const out = []; for (const x of [3, 1, 2]) out.push(x); if (out.length > 5) return 'many';"
    " out.sort(); return out;",
    "const xs = [3, 1, 2]; xs.sort(); if (xs[0] === 1) return xs; return [];",
    "const xs = [3, 1]; if (xs.length > 5) return 1; return xs.sort();",
    "const r = await later([3, 1]); if (!r) return null; return r.sort((a, b) => a - b).map(x => "
    "x * 2);",
    "const r = await later([3, 1]); if (!r) return null; const t = r.sort(); return t;",
    "const rows = (await later([{k: 2}, {k: 1}])).map(r => r.k); if (rows.length === 0) "
    "return []; rows.sort((a, b) => a - b); return rows.join(',');",
    # the body of an `if` without `else` (the test read once, before)
    "const xs = await later([1, 3, 2]); if (xs.length > 2) xs.sort(); return xs;",
    "const xs = await later([1, 3, 2]); if (xs[0] > 2) xs.sort(); return xs;",
    "const xs = await later([1, 3, 2]); const first = xs[0]; if (first === 1) { xs.reverse(); } "
    "return [first, xs];",
    "function f(desc) { const xs = [1, 3, 2]; if (desc) xs.reverse(); return xs; } "
    "return [f(true), f(false)];",
    "const f = (desc) => { const out = []; for (const x of [1, 3, 2]) out.push(x * 2); "
    "if (desc) out.sort((a, b) => b - a); return out; }; return [f(true), f(false)];",
    "const xs = await later('abc'); if (xs.length > 5) xs.sort(); return xs;",
    "let xs = await later([1, 3, 2]); if (xs.length) xs.sort(); xs = xs.map(x => x * 2); "
    "return xs;",
    # a function's parameter, every call passing an array literal
    "const f = (xs) => { xs.sort(); return xs[0]; }; return f([3, 1, 2]);",
    "const f = (xs) => { xs.sort(); return xs[0]; }; return [f([3, 1, 2]), f(['b', 'a'])];",
    "function first(xs, k) { xs.sort((a, b) => a - b); return xs.slice(0, k); } "
    "return first([5, 3, 9, 1], 2);",
    "function f(sep, xs) { xs.reverse(); return xs.join(sep); } return f('-', [1, 2, 3]);",
    "const f = async (xs) => { xs.sort(); const y = await later(xs[0]); return [y, xs]; }; "
    "return await f([3, 1, 2]);",
    "const f = (xs) => { xs.sort(); return xs[0]; }; return [3, 1].map(x => f([x, 0]));",
    "function f(xs) { const before = xs[0]; xs.sort(); return [before, xs[0]]; } "
    "return f([3, 1, 2]);",
    "function f(xs) { xs.sort(); xs = xs.filter(x => x > 1); return xs; } return f([3, 1, 2]);",
    "const f = (xs) => { xs.sort(); return xs[0]; }; return [f(await later([3, 1, 2])), "
    "f([5, 4])];",
    "async function top(xs, k) { xs.sort((a, b) => b - a); return xs.slice(0, k); } "
    "return await top(await later([3, 9, 1]), 2);",
    # the array is the function's own
    "async function top(k) { const r = await later([3, 1, 2]); r.sort((a, b) => b - a); "
    "return r.slice(0, k); } return top(2);",
    # a loop's item taken from an array literal
    "const out = []; for (const g of [[3, 1], [2, 0]]) { g.sort((a, b) => a - b); "
    "out.push(g[0]); } return out;",
    "const out = []; for (const g of [[3, 1], [2, 0]]) { g.reverse(); out.push(g); } return out;",
    "const out = []; for (let g of [[3, 1], [2, 0]]) { g.sort(); out.push(g.join('')); } "
    "return out;",
    "let total = 0; for (const g of [['b', 'a'], ['d', 'c', 'e']]) { g.sort(); "
    "total += g.length; } return total;",
    # a loop's item of an array the program made: the array holds the reordered items
    "const gs = [[3, 1], [2, 0]]; const out = []; for (const g of gs) { g.sort(); "
    "out.push(g[0]); } return [out, gs];",
    "const gs = await later([[3, 1], [2, 0]]); for (const g of gs) g.sort((a, b) => a - b); "
    "return gs;",
    "const gs = await later([[3, 1], [2, 0]]); gs.forEach(g => g.reverse()); return gs;",
    "const gs = await later([[3, 1], [2, 0]]); for (const g of gs) { if (g[0] > 2) g.sort(); } "
    "return gs;",
    "const gs = await later([[3, 1], [2, 0]]); for (const g of gs) { g.sort(); g.reverse(); } "
    "return gs;",
    "const gs = await later([[3, 1], [2, 0]]); const out = []; for (const g of gs) { g.sort(); "
    "out.push(g); } return [out, gs];",
    "const gs = await later([[3, 1], [2, 0]]); for (let i = 0; i < gs.length; i++) { "
    "gs[i].sort(); } return gs;",
]

REDUCE_RIGHT = [
    "return [1, 2, 3].reduceRight((a, x) => a + x, '');",
    "return [1, 2, 3].reduceRight((a, x) => a + x);",
    "return [].reduceRight((a, x) => a + x, 5);",
    "return [1].reduceRight((a, x) => a + x);",
    "return [1, 2, 10].reduceRight((a, x) => a - x);",
    "return ['a', 'b', 'c'].reduceRight((a, x, i, arr) => a + x + i + arr.length, '');",
    "return [[1, 2], [3], [4, 5]].reduceRight((a, x) => a.concat(x), []);",
    "return [1, 2, 3].reduceRight((acc, x) => { acc.push(x * 2); return acc; }, []);",
    "return [1, 2, 3, 4].reduceRight((acc, x) => ({...acc, [x]: acc.last + x, last: x}), "
    "{last: 0});",
    "return [1, 2, 3].reduceRight((a, x, i) => [...a, i], []);",
    "return 'abc'.split('').reduceRight((a, c) => a + c, '');",
    "const xs = await later([1, 2, 3]); return xs.reduceRight((a, x) => a + later(x), 0);",
    "return [1, 2, 3].reduceRight((a, x) => a * x, 1) + [1, 2, 3].reduce((a, x) => a * x, 1);",
    "const ws = ['x', 'y', 'z']; return ws.reduceRight((acc, w) => `${acc}${w},`, '');",
    "return [{k: 'a', v: 1}, {k: 'b', v: 2}, {k: 'a', v: 3}].reduceRight((m, e) => "
    "({...m, [e.k]: e.v}), {});",
]

CONCATS = [
    TREE + "async function walk(d) { let files = []; for (const e of await later(T[d])) { "
    "if (e.dir) { files = files.concat(await walk(e.path)); } else { files.push(e.name); } } "
    "return files; }\nreturn walk('root');",
    TREE + "async function walk(d) { let files = []; for (const e of await later(T[d])) { "
    "if (e.dir) files = files.concat(await walk(e.path)); else files.push(e.name); } "
    "return files; }\nreturn await walk('root');",
    TREE + "function walk(d) { let acc = []; for (const e of T[d]) { if (e.dir) "
    "acc = acc.concat(walk(e.path)); else acc.push(e.name); } return acc; }\n"
    "return walk('root');",
    TREE + "async function walk(d, depth) { let acc = []; for (const e of await later(T[d])) "
    "{ if (e.dir) { acc = acc.concat((await walk(e.path, depth + 1)).map(p => depth + p)); } "
    "else { acc.push(`${depth}:${e.name}`); } } return acc; }\nreturn walk('root', 0);",
    TREE + "async function walk(d) { let files = []; const es = await later(T[d]); "
    "for (const e of es) { if (e.dir) { files = files.concat([e.name + '/'], await "
    "walk(e.path)); } else { files.push(e.name); } } return files; }\nreturn walk('root');",
    "let out = []; for (const x of [1, [2, 3], 4]) { if (Array.isArray(x)) { out = "
    "out.concat(x); } else { out.push(x); } } return out;",
    "let out = []; for (const x of [1, [2, [3]], 'ab']) { if (typeof x === 'number') "
    "out.push(x); else out = out.concat(x, [x]); } return out;",
    "let out = []; const parts = [[1], [2, 3]]; for (const p of parts) { out = "
    "out.concat(...[p, p]); out.push(0); } return out;",
    "let out = []; let i = 0; while (i < 3) { if (i % 2) out.push(i); else out = "
    "out.concat([i, i]); i++; } return out;",
    "let out = []; for (const g of [[1, 2], [3]]) { for (const x of g) { if (x > 1) out = "
    "out.concat([x * 10]); else out.push(x); } } return out;",
    "let out = []; for (const x of [1, 2]) { out = out.concat([x]); out.push(out.length); } "
    "return out;",
    "var out = []; for (const x of [[1], 2]) { if (Array.isArray(x)) out = out.concat(x); "
    "else out.push(x); } return out;",
    "let out = [0]; for (const x of [[1], 2]) { if (Array.isArray(x)) out = out.concat(x); "
    "else out.push(x); } return out.length;",
    "const f = (xs) => { let out = []; for (const x of xs) { if (Array.isArray(x)) out = "
    "out.concat(x); else out.push(x); } return out; }; return f([[1], 2, [3, [4]]]);",
]


@pytest.mark.parametrize(
    "programs", [SORTS, REDUCE_RIGHT, CONCATS], ids=["sorts", "right", "concat"]
)
def test_they_give_what_node_gives(programs: list[str]) -> None:
    for v in check(programs, RT):
        assert v.kind == "same", (v.program, v.kind, v.detail)


def test_there_are_enough_programs() -> None:
    assert len(SORTS) + len(REDUCE_RIGHT) + len(CONCATS) >= 40


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # another name holds the array before the `if` that returns: `keep` sees the new order
        (
            "const xs = [3, 1, 2]; const keep = xs; if (xs.length < 2) return xs; xs.sort(); "
            "return keep;",
            "`xs` is read whole before the `if` that returns, and `sort()` reorders it after it",
        ),
        # the body of an `if`: the same checks
        (
            "const xs = await later([1, 3, 2]); const keep = xs; if (true) xs.sort(); return keep;",
            "`xs` is read whole before `sort()` reorders it",
        ),
        (
            "const r = await later({a: [3, 1]}); const xs = r.a; if (xs) xs.sort(); return r;",
            "`xs` is not an array the program made",
        ),
        (
            "const xs = await later([1, 3, 2]); if (xs.length > 1) xs.sort((a, b) => xs.length);"
            " return xs;",
            "the comparator reads `xs`",
        ),
        # a member of a tool's reply: `r` holds it too
        (
            "const r = await later({a: [3, 1]}); const xs = r.a; if (!xs) return []; xs.sort(); "
            "return [xs, r];",
            "`xs` is not an array the program made",
        ),
        # the caller's array: JavaScript reorders `a` too
        (
            "const f = (xs) => { xs.sort(); return xs[0]; }; const a = [3, 1, 2]; "
            "return [f(a), a];",
            "`sort()` reorders `xs` itself in JavaScript",
        ),
        # passed by name to map: each item of the literal is reordered in JavaScript
        (
            "const f = (xs) => { xs.sort(); return xs; }; return [[2, 1], [4, 3]].map(f);",
            "`sort()` reorders its array itself in JavaScript",
        ),
        # the program's own function gives the argument: it may hold it (`held`)
        (
            "const held = [3, 1]; const g = () => held; const f = (xs) => { xs.sort(); return "
            "xs; }; return [f(g()), held];",
            "`sort()` reorders `xs` itself in JavaScript",
        ),
        (
            "function f(xs) { const keep = xs; xs.sort(); return keep; } return f([3, 1, 2]);",
            "`xs` is read whole before `sort()` reorders it",
        ),
        # the loop's array holds an array another name holds: JavaScript reorders `a` too
        (
            "const a = [3, 1]; const gs = [a, [2, 0]]; for (const g of gs) g.sort(); "
            "return [a, gs];",
            "an item of the array literal is not an object literal",
        ),
        # read before the loop that reorders its items: `first` is reordered in JavaScript
        (
            "const gs = await later([[3, 1], [2, 0]]); const first = gs[0]; for (const g of gs) "
            "g.sort(); return [first, gs];",
            "`gs` is read before the loop that changes its items",
        ),
        # the item held whole before its sort
        (
            "const gs = await later([[3, 1], [2, 0]]); const out = []; for (const g of gs) { "
            "out.push(g); g.sort(); } return out;",
            "`g` is read whole before the loop's body changes it",
        ),
        (
            "const gs = await later([[3, 1], [2, 0]]); for (const g of gs) g.sort((a, b) => "
            "g.length); return gs;",
            "the comparator reads `g`, which JavaScript is reordering as it runs",
        ),
        # members of an item, and an item both reordered and given members
        (
            "const gs = await later([{xs: [3, 1]}]); for (const g of gs) g.xs.sort(); return gs;",
            "`.sort(...)` changes an array inside `g` in place",
        ),
        (
            "const gs = await later([[3, 1], [2, 0]]); for (const g of gs) { g.sort(); g.k = 1; "
            "} return gs;",
            "the body both reorders `g` and changes its members",
        ),
        # an item read before its sort: not the body's first statement
        (
            "const out = []; for (const g of [[3, 1], [2, 0]]) { const k = g.length; g.sort(); "
            "out.push([k, g]); } return out;",
            "`sort()` reorders its array itself in JavaScript",
        ),
        # the comparator reads the array being sorted
        (
            "const out = []; for (const g of [[3, 1], [2, 0]]) { g.sort((a, b) => g.length); "
            "out.push(g[0]); } return out;",
            "`sort()` reorders its array itself in JavaScript",
        ),
        # an array inside an object: the hint builds the new object
        (
            "const groups = await later({a: [3, 1], b: [2, 0]}); for (const k of "
            "Object.keys(groups)) groups[k].sort(); return groups;",
            "`sort()` reorders an array inside `groups` itself in JavaScript",
        ),
        # a text item: JavaScript's TypeError
        (
            "const out = []; for (const g of [[3, 1], 'ab']) { g.sort(); out.push(g[0]); } "
            "return out;",
            "`sort()` reorders its array itself in JavaScript",
        ),
        (
            "const gs = await later([[3, 1], 'ab']); for (const g of gs) g.sort(); return gs;",
            "`toSorted` is an array method; the value is a string",
        ),
        # reduceRight of nothing without an initial value: Node's TypeError
        (
            "return [].reduceRight((a, x) => a + x);",
            "reduceRight() of an empty array with no initial value is a TypeError",
        ),
        # a `const` assigned: JavaScript's TypeError
        (
            "const files = []; for (const x of [1, [2, 3]]) { if (Array.isArray(x)) { files = "
            "files.concat(x); } else { files.push(x); } } return files;",
            "`files` is a `const`",
        ),
        # another name holds the array: JavaScript's `keep` sees the first push only
        (
            "let out = []; const keep = out; for (const x of [1, [2, 3]]) { if (Array.isArray(x))"
            " { out = out.concat(x); } else { out.push(x); } } return [keep, out];",
            "the loop changes `out` in two different ways",
        ),
        # a parameter: the caller's array
        (
            "function f(out) { for (const x of [1, [2, 3]]) { if (Array.isArray(x)) { out = "
            "out.concat(x); } else { out.push(x); } } return out; } return f([]);",
            "`out` is changed in the loop but not defined before it",
        ),
        # a text: push fails in JavaScript
        (
            "let s = 'a'; for (const x of ['b', 'c']) { if (x === 'z') s.push(x); else "
            "s = s.concat(x); } return s;",
            "the loop changes `s`, which must start as an array literal",
        ),
    ],
)
def test_refused_where_javascript_would_differ(text: str, message: str) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure", (text, out.value)
    assert out.error is not None and out.error.code != "internal_error", out.message
    assert message in (out.message or ""), out.message
    assert "line 1, column" in (out.message or ""), out.message
    for v in check([text], RT):  # never an answer Node would not give
        assert v.kind in ("refused", "same"), (v.program, v.kind, v.detail)


def test_a_right_fold_appending_to_a_text_is_linear() -> None:
    """``reduceRight`` appending to a text is built as ``reduce``'s is (one join): 100,000
    items run well inside the step limit."""
    items = [str(i % 10) for i in range(100_000)]
    out = RT.run("return xs.reduceRight((a, x) => a + x, '').length;", lang="plan",
                 context={"xs": items})  # fmt: skip
    assert out.status == "success" and out.value == 100_000, out.message
