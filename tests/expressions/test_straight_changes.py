"""Change statements outside a loop read as straight-line versions (SPEC 10, "Changes outside
loops"; :mod:`dialectic.frontends.plan.straight`, :mod:`dialectic.frontends.plan.straightread`):
``total += 5;``, ``xs.push(v);``, ``if (c) v = w;``, ``s += 'b';`` each make the name's next
version, not a loop over one item. Every program gives Node's value (reads before and after the
change, in arrows, functions, `try`, after `await`, in templates), the refusals stay (an array
held elsewhere), the tree is about the size of the same values written as consts, and a call's
result passed through such changes does not make independent calls wait."""

from __future__ import annotations

import anyio
import pytest

from dialectic import FunctionDescription, Limits, Runtime
from dialectic.frontends import to_tree
from dialectic.tree.measure import size

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

CHANGES = """let total = 0;
total += 5; total += 6; total += 7;
const xs = []; xs.push(total); xs.push(1); xs.push(2);
if (total > 3) total = 7;
if (total > 30) total = 8;
let str1 = 'a'; str1 += 'b';
return [total, xs, str1];"""

CONSTS = """const total1 = 0;
const total2 = total1 + 5; const total3 = total2 + 6; const total4 = total3 + 7;
const xs = [total4, 1, 2];
const total5 = total4 > 3 ? 7 : total4;
const total = total5 > 30 ? 8 : total5;
const str1 = 'a' + 'b';
return [total, xs, str1];"""

PROGRAMS = [
    CHANGES,
    CONSTS,
    "let x = 1; x += 1; x++; ++x; x--; x *= 3; x -= 2; x /= 2; x %= 4; return x;",
    "let x = 1; const a = x + 1; x = 5; const b = x + 1; return [a, b, x];",
    "let x = 1; x = x + 2; x = x * x; x = x - 1; return x;",
    "let x = 1; x += x; x = x; return x;",
    "let c = 'a'; c += 1; c += [1, 2]; c += true; return c;",
    "let str1; str1 = 'a'; str1 += 'b'; return str1;",
    "let str1; if (1 > 0) str1 = 'a'; else str1 = 'b'; return str1;",
    "let c = 0; if (c === 0) { c = 10; c += 1; } else { c = -1; } return c;",
    "let best = null; let bestScore = -1;\n"
    "if (3 > bestScore) { best = 'a'; bestScore = 3; }\n"
    "if (2 > bestScore) { best = 'b'; bestScore = 2; }\nreturn [best, bestScore];",
    "let x = 5; if (x > 3) x = 7; if (x > 30) x = 8; return x;",
    "let x = 5; if (x > 3) { x = 7; } else if (x > 1) { x = 2; } else x = 0; return x;",
    "let m = 0; if (m < 1) m = 1; else m = 2; m += 1; return m;",
    "let x = null; x ??= 5; x ||= 6; x &&= 7; return x;",
    "let x = 0; x ||= await echo(3); return x;",
    "let t = 0; t += 0.1; t += 0.2; return t;",
    "let x = 2; x = Math.max(x, 5); x = Math.round(x / 2); return x;",
    "let x = 1; x = x > 0 ? 'pos' : 'neg'; return x;",
    "let cnt = 0; cnt++; cnt++; const c = cnt; cnt--; return [c, cnt];",
    "let x = 1; let y = 2; x += y; y += x; return [x, y];",
    "let x = 1; x = 2; let y = x; y += 1; return [x, y];",
    "var v = 1; v += 1; return v;",
    # arrays: pushes, a read of the length before, spreads, values made by a call
    "const xs = []; xs.push(1); xs.push(2, 3); xs.push(...[4, 5]); return xs;",
    "const xs = [1]; const k = xs.length; xs.push(2); return [k, xs.length, xs];",
    "const xs = []; xs.push(xs.length); xs.push(xs.length); return xs;",
    "const xs = [1, 2]; xs.push(3); const ys = xs.map(v => v * 2); xs.push(4); return [xs, ys];",
    "const xs = []; xs.push(1); const a = xs; return a;",
    "const xs = []; if (1 > 0) xs.push(1); if (1 < 0) xs.push(2); return xs;",
    "const xs = []; xs.push({k: 1}); xs.push([2]); return xs;",
    "const xs = []; xs.push(1); xs.pop(); xs.push(2); return xs;",
    "const xs = [3, 1, 2]; xs.push(0); xs.sort((a, b) => a - b); return xs;",
    "const out = []; const r = await echo([1, 2]); out.push(...r); out.push(r.length); return out;",
    "const out = []; out.push(await echo(1)); out.push(await echo(2)); return out;",
    "const xs = []; for (const v of [1, 2]) xs.push(v); xs.push(3); return xs;",
    "let acc = ''; for (const w of ['a', 'b']) { acc += w; } acc += '!'; return acc;",
    # reads in arrows, functions and templates; `try`; after `await`
    "let x = 1; const f = () => x; x = 2; return f();",
    "let x = 1; function f() { return x; } x = 2; return f();",
    "let x = 1; const ys = [1, 2].map(v => v + x); x = 5; return ys;",
    "let x = 1; x += 2; const ys = [1, 2].map(v => v + x); return ys;",
    "let x = 1; x = 2; return [1, 2].map(v => v * x);",
    "let x = 1; x += 1; return [x, (() => x)()];",
    "let x = 1; const t = `${x}`; x += 1; return `${t}-${x}`;",
    "let label = 'lo'; const v = 9; if (v > 5) label = 'hi'; return `${label}:${v}`;",
    "let x = 0; try { x = 5; } catch (e) { x = 1; } return x;",
    "let x = 0; x += 1; try { x += 2; } finally { x += 3; } return x;",
    "let x = 1; x += 1;\ntry { const y = JSON.parse('{'); x = y; }\n"
    "catch (e) { x = -x; }\nreturn x;",
    "let r = await echo(1); r += await echo(2); return r;",
    "let x = 0; x += await echo(1); x += await echo(2); x += await echo(3); return x;",
    "let x = 1; x = await echo(x + 1); x = await echo(x * 10); return x;",
    "let x = 1; const p = echo(x); x = 2; return [await p, x];",
    "let x = 1; if (x > 0) x = await echo(7); return x;",
    "let total = 0; const r = await echo(5); total += r; const q = await echo(total); return q;",
    "let x = 1; x += 1; const o = {x}; return o;",
    "let a = 1; const keep = a; a += 1; return [keep, a];",
    "let x = 1; const arr = [x]; x = 2; return [arr, x];",
    # a statement whose value nothing reads: Node's value (a text with null in it is no
    # failure when nothing reads it)
    "let t = 'a'; t += null; return 1;",
]


def test_the_changes_give_nodes_values() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize(
    ("text", "message"),
    [  # JavaScript's array is shared: refused, as the one-item loop refused it
        ("const xs = []; const a = xs; xs.push(1); return a;", "`xs` is read before"),
        ("const a = []; const xs = a; xs.push(1); return a;", "must start as an array literal"),
        (
            "const xs = []; const inner = []; xs.push(inner); inner.push(1); return xs;",
            "`inner` is read before",
        ),
        ("const xs = []; xs.push(xs); return xs;", "reads `xs` whole"),
        ("const t = 0; t += 1; return t;", "`t` is declared with `const` and set again"),
        ("let x = 1; x **= 2; return x;", "`**=`"),
        ("let o = {a: 1}; o = {...o, b: 2}; o.c = 3; return o;", "changed in place"),
    ],
)
def test_what_the_loop_refused_stays_refused(text: str, message: str) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure", out.value
    assert message in (out.message or ""), out.message
    assert "Traceback" not in (out.message or "")


@pytest.mark.parametrize(
    "text",
    [  # Node throws: so do we, though nothing reads the name
        "let n = 0; const d = {}; n += d.nope.length; return 1;",
        "let t = 0; t += await fail('no'); return 1;",
        "const xs = []; xs.push(...(await echo(5))); return 1;",
    ],
)
def test_a_change_that_throws_fails_though_nothing_reads_it(text: str) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure", out.value


def test_the_changes_make_about_the_trees_of_consts() -> None:
    changes, consts = (to_tree(t, "plan").tree for t in (CHANGES, CONSTS))
    assert "$do" not in changes  # (no expression statement: none of them can throw)
    assert '"map"' not in str(changes).replace("'", '"')  # (no loop over one item)
    assert size(changes) <= 1.5 * size(consts), (size(changes), size(consts))


def test_a_call_through_straight_changes_does_not_wait_for_another() -> None:
    # each call waits for the other to have started: only concurrent calls finish
    events: dict[str, anyio.Event] = {}

    async def meet(me: str, other: str) -> str:
        events.setdefault(me, anyio.Event()).set()
        with anyio.fail_after(10):
            await events.setdefault(other, anyio.Event()).wait()
        return me

    rt = Runtime(load_entry_points=False)
    rt.register(
        FunctionDescription("meet", "rendezvous", meet, {"me": "string", "other": "string"})
    )
    text = (
        "let t = '<'; t += await meet('a', 'b'); t += '>';\n"
        "const out = []; out.push(await meet('b', 'a')); out.push('!');\n"
        "return [t, out];"
    )
    out = rt.run(text, lang="plan")
    assert out.status == "success", out.message
    assert out.value == ["<a>", ["b", "!"]]


def test_thousands_of_conditional_changes_run_without_deep_recursion() -> None:
    # each version reads the one before: the chain is run every few dozen versions
    n = 3_000
    text = (
        "const x = 5; let r = 0; let t = 0;\n"
        + "".join(f"if (x === {i}) r = {i};\nt += r;\n" for i in range(n))
        + "return [r, t];"
    )
    big = Runtime(load_entry_points=False, limits=Limits(max_nodes=400_000))
    out = big.run(text, lang="plan")
    assert out.status == "success", out.message
    assert out.value == [5, 5 * (n - 5)]
