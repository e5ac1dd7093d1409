"""An array's change in place, and a change to a part of a value the program wrote (SPEC 10,
"Changes outside loops" and "Loops"): ``xs[i] = v;``, ``xs[i]++;``, ``xs.length = n;``,
``xs.pop();`` and its kin as statements (:mod:`dialectic.frontends.plan.arraychanges`), their
values inside a statement (:mod:`dialectic.frontends.plan.arrayvalues`), item sets in loops
(:mod:`dialectic.frontends.plan.arrayloops`, in place: linear), ``m.a.b = v;`` and
``mat[i][j] = v;`` (:mod:`dialectic.frontends.plan.nestedchanges`). Each gives Node's answer
or is refused at its place with what to write."""

from __future__ import annotations

import pytest

from dialectic import Limits, Runtime

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

#: statements at the top of a block
STATEMENTS = [
    "const xs = [1, 2, 3]; xs[1] = 9; return xs;",
    "const grid = new Array(3).fill(0); grid[0] = 1; return grid;",
    "const xs = [1, 2, 3, 4]; xs.splice(1, 2); return xs;",
    "const xs = [5, 1]; xs[xs.length] = 7; xs.length = 1; return xs;",
    "const xs = [5, 1]; xs[xs.length] = 7; return xs;",
    "const xs = [5, 1]; const len0 = xs.length; xs[0] += 10; xs[1]++; xs[1] **= 2; "
    "return [len0, xs];",
    "const xs = [null, 1]; xs[0] ??= 4; xs[1] ??= 5; xs[1] ||= 6; xs[0] &&= 8; return xs;",
    "const q = [3, 1, 2]; q.shift(); q.unshift(0, 7); q.pop(); return q;",
    "const q = []; q.pop(); q.shift(); return q;",
    "const q = [1, 2, 3]; q.fill(0); return q;",
    "const q = nums.map(x => x * 2); q[0] = 5; q.pop(); return q;",
    "const q = [...nums]; q[0] = 5; return q;",
    "const q = nums.slice(); q.reverse(); q[0] = 1; return q;",
    "const q = [1, 2, 3]; if (q.length > 2) q.pop(); return q;",
    "const out = []; for (const n of nums) out.push(n); out[0] = 100; out.shift(); return out;",
    "const xs = [1, 2, 3]; const first = xs[0]; xs[0] = 9; return [first, xs];",
    "const xs = [1, 2, 3]; const m = xs.map(x => x + 1); xs.splice(0, 1, 'a', 'b'); "
    "return [m, xs];",
    "const xs = [1, 2, 3]; xs.splice(-1); return xs;",
    "const xs = [1, 2, 3]; xs.splice(1, 0, 9, 8); return xs;",
    "const xs = ['a']; xs[0] += 'b'; xs[0] = xs[0].toUpperCase(); return xs;",
    "const xs = Array.from({length: 3}, (_, i) => i); xs[2] = -1; return xs;",
    "const xs = [0, 0]; const k = 1; xs[k]--; xs[k - 1] -= 3; return xs;",
    "const xs = [1, 2, 3, 4]; xs.splice(xs.length - 1, 1); xs.unshift(xs.length); return xs;",
    "let xs = [3, 1, 2]; xs.sort(); xs[0] = 10; xs.length = 2; return xs;",
    "const xs = words.map(w => w.length); xs.length = 0; xs.push(1); return xs;",
    "function f() { const r = [1, 2]; r[1] = 3; r.unshift(0); return r; }\nreturn f();",
    "const q = [1, 2, 3]; if (q.length > 2) { q[0] = 7; } return q;",
    "const q = [1, 2, 3]; if (q.length > 2) q[0]++; else q[1] = 0; return q;",
]

#: the value of pop(), shift(), splice() inside a statement
VALUES = [
    "const stack = [1, 2, 3]; const out = []; while (stack.length) out.push(stack.pop()); "
    "return out;",
    "const q = [3, 1, 2]; const first = q.shift(); q.unshift(0); const last = q.pop(); "
    "return [first, last, q];",
    "const xs = [1, 2, 3, 4]; const removed = xs.splice(1, 2); return [removed, xs];",
    "const xs = [1, 2, 3, 4]; const removed = xs.splice(-1); return [removed, xs];",
    "const xs = [1, 2, 3, 4]; const removed = xs.splice(xs.length - 2, 1, 'a'); "
    "return [removed, xs];",
    "const xs = []; const a = xs.pop(); const b = xs.shift(); "
    "return [a === undefined, b === undefined, xs];",
    "const q = [1, 2]; const out = []; out.push(q.shift()); out.push(q.shift()); "
    "out.push(q.shift()); return [out, q];",
    "const xs = [5, 6]; const total = xs.pop() + 10; return [total, xs];",
    "const xs = [1, 2, 3]; let sum = 0; while (xs.length) sum += xs.pop(); return sum;",
    "const xs = [1, 2, 3]; for (const k of [0, 1]) xs.pop(); return xs;",
    "const todo = [{id: 1}, {id: 2}]; const done = []; "
    "while (todo.length > 0) { const t = todo.shift(); done.push(t.id); } return done;",
    "const xs = [4, 5, 6];\nconst last = xs.pop()\nconst first = xs.shift()\n"
    "return [first, last, xs];",
]

#: item sets in loops
LOOPS = [
    "const xs = [1, 2, 3]; for (const k of [0, 1]) xs[k] = 0; return xs;",
    "const counts = [0, 0, 0]; for (const n of [0, 2, 2]) counts[n]++; return counts;",
    "const counts = new Array(5).fill(0); for (const n of [1, 3, 3, 4]) counts[n] += 1; "
    "return counts;",
    "const hist = [0, 0, 0]; for (const w of words) { if (w.length < 3) hist[w.length]++; } "
    "return hist;",
    "const out = []; for (const n of nums) { out.push(n); out[0] = n; } return out;",
    "const grid = [[0, 0], [0, 0]]; for (const p of [[0, 1], [1, 0]]) grid[p[0]] = [9, 9]; "
    "return grid;",
    "const acc = [0, 0]; for (const x of nums) { acc[0] += x; acc[1]++; } return acc;",
    "const xs = [1, 2, 3]; let i = 0; while (i < 3) { xs[i] = i * i; i++; } return xs;",
    "const memo = [0, 1]; for (let i = 2; i <= 10; i++) memo[i] = memo[i - 1] + memo[i - 2]; "
    "return memo;",
    "const dp = new Array(4).fill(0); dp[0] = 1; for (const c of [1, 2]) { "
    "for (let i = c; i < 4; i++) dp[i] += dp[i - c]; } return dp;",
    "const xs = [1, 2, 3]; const out = []; for (const k of [0, 1, 2]) { const snap = [...xs]; "
    "xs[k] = 9; out.push(snap); } return [out, xs];",
    "const xs = [1, 2, 3]; const out = []; for (const k of [0, 1, 2]) { const v = xs[k]; "
    "xs[k] = v * 10; out.push(xs[k]); } return [out, xs];",
    "const xs = [1, 2, 3]; const out = []; for (const k of [0, 1, 2]) { xs[k] = 0; "
    "out.push(xs.slice()); } return out;",
    "const xs = [0, 0]; let t = 0; for (const k of [0, 1, 0]) { xs[k] += 1; t += xs[k]; } "
    "return [t, xs];",
    "const xs = [0, 0]; for (const k of [0, 1, 0]) { if (k > 0) { xs[k] = 5; } else { "
    "xs[k] = xs[k] - 1; } } return xs;",
    "const seen = new Array(5).fill(false); const order = []; for (const x of [3, 1, 3, 4, 1]) "
    "{ if (!seen[x]) { seen[x] = true; order.push(x); } } return [order, seen];",
    "const xs = [1, 2, 3]; for (const k of [0, 1]) { xs[k] = xs[k + 1]; xs.push(k); } return xs;",
    "const xs = [5]; for (const k of [1, 2]) xs[xs.length] = k; return xs;",
]

#: parts of a value the program wrote
NESTED = [
    "const m = {a: {b: 1}}; m.a.b = 2; m.a.c = [1]; m.a.c.push(2); return m;",
    "const mat = [[0, 0], [0, 0]]; mat[1][0] = 5; return mat;",
    "const o = {list: [{k: 1}, {k: 2}]}; const i = 1; o.list[i].k = 7; o.list[0].k += 1; return o;",
    "const grid = Array.from({length: 3}, () => [0, 0, 0]); grid[1][2] = 1; grid[0][0]++; "
    "return grid;",
    "const m = {a: {b: [1, 2, 3]}}; m.a.b.pop(); m.a.b.unshift(0); m.a.b.shift(); "
    "m.a.b.splice(1, 0, 'x'); return m;",
    "const m = {a: {n: null}}; m.a.n ??= 5; m.a.n ||= 6; return m;",
    "const m = {a: {}}; m.a.list = []; m.a.list.push(1, 2); m.a.list[2] = 3; return m;",
    "const u = await echo({profile: {name: 'a'}}); u.profile.name = 'b'; return u;",
    "const m = {a: [1]}; m.a.push(2); return m;",
    "const m = {a: [1]}; m.a.pop(); return m;",
    "const xs = [{n: 1}, {n: 2}]; xs[0].n = 5; return xs;",
    "const state = {stats: {count: 0, names: []}}; for (const w of ['x']) {} "
    "state.stats.count += 2; state.stats.names.push('a'); return state;",
]


def test_statements_give_what_node_gives() -> None:
    runs_as_in_node(STATEMENTS, RT)


def test_values_give_what_node_gives() -> None:
    runs_as_in_node(VALUES, RT)


def test_item_sets_in_loops_give_what_node_gives() -> None:
    runs_as_in_node(LOOPS, RT)


def test_parts_give_what_node_gives() -> None:
    runs_as_in_node(NESTED, RT)


def test_at_least_sixty_programs() -> None:
    assert len(STATEMENTS + VALUES + LOOPS + NESTED) >= 60


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        # past the end: JavaScript leaves holes
        ("const q = [1, 2, 3]; q[5] = 5; return q;", "index 5 is past the end", 22),
        # a property, not an item
        ("const q = [1, 2, 3]; q[-1] = 5; return q;", "the index -1 is no item's", 22),
        ("const q = [1, 2, 3]; q[1.5] = 5; return q;", "the index 1.5 is no item's", 22),
        ("const q = [1, 2, 3]; q['1'] = 5; return q;", "is not a number", 22),
        ("const q = [1, 2]; q.length = 5; return q;", "past the 2 items", 19),
        ("const q = [1, 2]; for (const k of [0, 5]) q[k] = 1; return q;", "index 5 is past", 43),
        # held elsewhere
        ("const q = [1, 2, 3]; const keep = q; q[0] = 5; return keep;", "read whole before", 38),
        ("const q = data.items; q[0] = 5; return q;", "is not one the program made here", 23),
        ("const q = data.items; q.pop(); return q;", "must start as an array literal", 23),
        ("const xs = [1, 2]; const ys = xs; ys[0] = 5; return xs;", "is not one the program", 35),
        ("const xs = [1, 2, 3]; xs[0] = xs; return xs;", "holds `xs` itself", 31),
        ("const xs = [1, 2, 3]; xs.splice(0, 0, xs); return xs;", "holds `xs` itself", 33),
        ("const xs = [1, 2]; xs.fill(0, 1); return xs;", "takes one value", 20),
        # a part held elsewhere
        (
            "const m = {a: {b: 1}}; const inner = m.a; m.a.b = 2; return inner;",
            "`m` is read before `m.a.b` changes a part of it",
            43,
        ),
        (
            "const inner = {b: 1}; const m = {a: inner}; m.a.b = 2; return inner;",
            "that part may be held elsewhere",
            45,
        ),
        ("const d = data; d.a.b = 1; return data;", "that part may be held elsewhere", 17),
        (
            "const m = {a: {b: 1}}; m.x = m.a; m.a.b = 5; return m;",
            "that part may be held elsewhere",
            35,
        ),
        (
            "const m = {a: {b: 1}};\nfunction f() { return m.a; }\nm.a.b = 2;\nreturn f();",
            "the program defines functions",
            1,
        ),
        # JavaScript's TypeError
        ("const m = {a: 'text'}; m.a.b = 1; return m;", "a member set on a text", 24),
        ("const m = {a: {}}; m.a[[1]] = 2; return m;", "is not a plain name here", 20),
    ],
)
def test_what_would_differ_is_refused_at_its_place(text: str, message: str, column: int) -> None:
    out = RT.run(text, lang="plan", context={"data": {"items": [1, 2], "a": {"b": 0}}})
    assert out.status == "failure" and out.error is not None, out.value
    assert message in out.error.message, out.error.message
    assert out.error.column == column, out.message
    assert out.error.hint, out.message


@pytest.mark.parametrize(
    "text",
    [
        "const xs = [5, 6]; const n = xs.length + xs.pop(); return [n, xs];",  # reads it too
        "const xs = [1, 2, 3]; const ys = [10]; ys.push(xs.pop(), xs.pop()); return [xs, ys];",
        "const xs = [1, 2]; const r = nums.map(x => xs.pop()); return r;",  # in an arrow
    ],
)
def test_a_value_plan_cannot_split_is_refused_with_what_to_write(text: str) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure" and out.error is not None, out.value
    assert "changes the array in place here" in out.error.message, out.message
    assert out.error.hint and "Build a new array instead" in out.error.hint


def test_the_stale_messages_are_gone() -> None:
    """A change Plan does not follow says so, and what to write: not 'values never change'."""
    for text in (
        "const xs = [1, 2]; const r = nums.map(x => xs.pop()); return r;",
        "const q = data.items; q[0] = 5; return q;",
        "a = b = 1;\nreturn a;",
    ):
        out = RT.run(text, lang="plan", context={"data": {"items": [1]}})
        assert out.status == "failure"
        message = (out.message or "").lower()
        assert "never change" not in message and "do not change values" not in message
        assert "not an object the program wrote" not in message


@pytest.mark.parametrize("n", [1_000, 10_000, 100_000])
def test_item_sets_in_a_loop_are_linear(n: int) -> None:
    """The fold owns the array: each set is made in place (no copy of the array per set), so
    the steps stay within a budget linear in the items (copying would cost 2n per set: n
    squared in all)."""
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=40 * n, deadline=600.0))
    text = (
        f"const c = new Array({n}).fill(0); "
        f"for (let i = 0; i < {n}; i++) c[i] = i * 2; "
        f"for (const k of [1, 2, 1]) c[k]++; return c[{n} - 1] + c[1];"
    )
    out = rt.run(text, lang="plan")
    assert out.status == "success", out.message
    assert out.value == 2 * (n - 1) + 4


def test_copies_are_counted_where_nothing_owns_the_array() -> None:
    """Sets outside a loop copy the array each (at most 64 per array): the copies count
    against max_steps, which stops a program whose copies would be too many."""
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=50_000))
    sets = "".join(f"xs[{i}] = {i}; " for i in range(60))
    out = rt.run(f"const xs = new Array(2000).fill(0); {sets}return xs[59];", lang="plan")
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "limit_exceeded", out.message


def test_changes_are_bounded() -> None:
    sets = "".join(f"xs[0] = {i};\n" for i in range(70))
    out = RT.run(f"const xs = [0];\n{sets}return xs;", lang="plan")
    assert out.status == "failure" and out.error is not None
    assert "changed more than 64 times" in out.error.message
