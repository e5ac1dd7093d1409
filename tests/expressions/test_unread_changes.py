"""Change statements nothing reads still run when they may throw (SPEC 10, "Semantics", and the
table of deliberate differences): ``const m = {a: 5}; m.a.push(1); return 'ok';`` is a
TypeError in Node, so a failure here, never ``'ok'``. Each program is run by Node.js and by
dialectic (``program_oracle``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import dialectic
from dialectic import FunctionDescription, Runtime
from dialectic.frontends.plan.decompile import decompile
from dialectic.frontends.plan.runchanges import run_changes

from .program_generator import CONTEXT
from .program_oracle import check, node_answers, runs_as_in_node, runtime

#: programs Node makes throw at a change statement (or in a function called at once) whose
#: new version nothing reads: dialectic fails too, where the statement stands
THROWS = [
    "const m = {a: 5}; m.a.push(1); return 'ok';",
    "const o = {}; o.a.b = 1; return 'ok';",
    "const o = {a: 1}; o.b.c++; return 2;",
    "const m = {}; m.b = none.x; return 1;",
    "const o = {a: 1}; o.b = o.c.d; return 1;",
    "const o = {a: 1}; o.a += o.z.y; return 1;",
    "const o = {a: {}}; o.a.b.c = 1; return 1;",
    "const xs = [1, 2]; xs[0] = xs[5].q; return 1;",
    "const o = {a: 1}; o.b = fail('boom'); return 1;",
    "const xs = [1, 2, 3]; xs[1] = fail('no'); return 'after';",
    "const xs = [1, 2, 3]; xs.splice(0, 1, fail('splice')); return 'x';",
    "const xs = [1]; xs.unshift(fail('un')); return 1;",
    "const xs = [3, 1, 2]; xs.sort((a, b) => a.x.y - b); return 'sorted';",
    "const o = {a: 1}; delete o[none.x]; return 1;",
    "const o = {}; o.k ??= fail('nullish'); return 1;",
    "const o = {}; o['k' + fail('key')] = 1; return 1;",
    "const m = new Map(); m.set('a', fail('mapset')); return 1;",
    "const s = new Set([1]); s.delete(fail('sd')); return 1;",
    "const d = new Date(0); d.setDate(fail('date')); return 1;",
    "const o = {list: 5}; o.list.push(1); return 1;",
    "const o = {a: {b: {c: 1}}}; o.a.b.c = fail('deep'); return 1;",
    "const rows = [{n: 1}]; rows[0].n = fail('row'); return 1;",
    "const o = {a: 1}; o.a = 2; o.a = fail('second'); return o.a === 2 ? 'two' : 'other';",
    # a change before a `return` in a branch, and after a branch that does not return
    "const o = {n: 1}; o.m = fail('first'); if (o.n > 0) { return 'early'; } return o.m;",
    "const o = {n: 1}; if (o.n > 5) { return 'early'; } o.m = fail('late'); return 'end';",
    # in a function's body, a function called at once, an arrow's block body
    "function f(x) { const o = {}; o.a.b = x; return 1; } return f(2);",
    "function g(x) { if (x) { return 0; } const r = {}; r.v = fail('gx'); return 1; }\n"
    "return g(1) + g(0);",
    "function g(x) { const r = {}; r.v = fail(x); return 1; } g('u'); return 2;",
    "const r = (() => { const o = {}; o.v = fail('iife'); return 1; })(); return 2;",
    "const r = (() => { fail('iife2'); return 1; })(); return 2;",
    "return [1, 2].map(x => { const o = {}; o.v = fail('in map'); return x; });",
    "return [1, 2].map(x => { const o = {}; o.v = o.q.r; return x; });",
    "return [1, 2].filter(x => { const o = {}; o.v = fail('f'); return true; });",
    "const r = [1, 2].reduce((acc, x) => { const o = {}; o.v = fail('red'); return acc + x; }, 0);"
    "\nreturn r;",
    # in a loop's body, in a `try` whose handler JavaScript would not reach
    "const rs = [];\nfor (const x of [1, 2]) { const r = {v: x}; r.w = fail('lw'); rs.push(r.v); }"
    "\nreturn rs;",
]

#: programs Node answers that fail here, as the change runs: a read dialectic refuses where
#: JavaScript gives `undefined` or NaN (SPEC 1.2), not caught by `try` (SPEC 10)
REFUSED = [
    "const o = {a: 1}; try { o.b = o.c.d; } catch (e) { return 'caught'; } return 1;",
    "const o = {a: 1}; o.b = o.missing; return 'fine';",
    "const o = {a: 'x'}; o.a++; return 'ok';",
]

#: programs Node answers: dialectic gives the same value (a change in a `try` caught, changes
#: that cannot throw, a branch not taken, a return before the change)
SAME = [
    "const o = {a: 1}; o.b = 2; return 1;",
    "const o = {a: 1}; o.b = 2; o.c = o.b + 1; return 'fine';",
    "const o = {}; o.count = (o.count || 0) + 1; return 'ok';",
    "const o = {a: 1}; try { o.b = fail('x'); } catch (e) { return 'caught'; } return 1;",
    "const o = {a: 1}; try { o.b = fail('x'); } catch (e) { o.b = 3; } return o.b;",
    "function f(x) { const o = {}; o.a = fail(x); return 1; }\n"
    "try { return f('z'); } catch (e) { return 'c:' + e.message; }",
    "async function g(x) { const r = {}; r.v = await fail(x); return 1; }\n"
    "try { await g('q'); return 'no'; } catch (e) { return e.message; }",
    "function f(x) { const o = {k: 1}; o.k = x * 2; return o.k; } return f(2) + f(3);",
    "const o = {}; o.a = echo(1); o.b = echo(2); return 'done';",
    "const xs = [1, 2, 3]; xs[1] = echo(9); return xs;",
    "const o = {n: 1}; if (o.n > 0) { return 'early'; } o.m = fail('late'); return 'end';",
    "const o = {}; o.v = echo(1); if (o.v === 1) { return 'one'; } o.w = fail('never');\n"
    "return 'two';",
    "function g(x) { if (x) { return 0; } const r = {}; r.v = fail('gx'); return 1; }\n"
    "return g(1);",
    "const o = {a: 1}; if (o.a === 1) { o.b = echo(5); } else { o.b = fail('else'); }\nreturn o.a;",
    "return [1, 2].map(x => { const o = {}; o.v = x * 2; return o.v; });",
    "const m = new Map(); m.set('a', 1); m.set('b', 2); return m.size;",
    "const xs = [3, 1, 2]; xs.sort((a, b) => a - b); return 'ok';",
    "const o = {a: 1}; delete o.a; return Object.keys(o);",
    "const xs = [1, 2, 3]; xs.pop(); xs.shift(); return xs;",
    "const o = {a: {b: 1}}; o.a.b = 2; return 'x';",
    "const o = {k: 1}; o.k ??= fail('nullish'); return o;",
    "const o = {k: 1}; o.k ||= fail('or'); return 'ok';",
    "const o = {}; o.x = 1; o.x++; o.x += 2; return o;",
    "const o = {a: [3, 1]}; o.a.sort(); return 1;",
    "const d = new Date(0); d.setFullYear(2020); return d.getFullYear();",
]


@pytest.fixture(scope="module")
def rt() -> Runtime:
    return runtime()


def test_enough_programs() -> None:
    assert len(THROWS) + len(SAME) >= 30


def test_a_change_that_throws_in_node_fails_here(rt: Runtime) -> None:
    answers = node_answers(THROWS)
    for text, answer in zip(THROWS, answers, strict=True):
        assert "error" in answer, (text, answer)
    for verdict in check(THROWS, rt):
        assert verdict.kind == "refused", (verdict.program, verdict.kind, verdict.detail)
        assert "line " in verdict.detail, verdict.detail


def test_a_change_dialectic_refuses_fails_clearly(rt: Runtime) -> None:
    for text, answer in zip(REFUSED, node_answers(REFUSED), strict=True):
        assert "ok" in answer, (text, answer)
    for verdict in check(REFUSED, rt):
        assert verdict.kind == "refused", (verdict.program, verdict.kind, verdict.detail)


def test_programs_node_answers_give_its_value(rt: Runtime) -> None:
    runs_as_in_node(SAME, rt)


def test_the_first_failure_in_program_order_is_reported(rt: Runtime) -> None:
    texts = [
        "const o = {}; o.a = fail('first'); return fail('second');",
        "const o = {}; o.a = await failLater('first'); return await failLater('second');",
        "const o = {}; o.a = 1; o.b = fail('first'); o.c = fail('second'); return 1;",
        "const o = {}; o.a = await failLater('first');\n"
        "try { return fail('x'); } catch (e) { return 'caught ' + e.message; }",
    ]
    for text, answer in zip(texts, node_answers(texts), strict=True):
        assert answer == {"error": "Error: first"}, (text, answer)
        out = rt.run(text, lang="plan", context=CONTEXT)
        assert out.status == "failure", (text, out.value)
        assert "failed: first" in (out.message or ""), (text, out.message)


def test_a_call_statement_still_runs_once() -> None:
    calls: list[Any] = []

    def note(value: Any) -> Any:
        calls.append(value)
        return value

    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("note", "note", note, {"value": "any"}, "any"))
    text = "note(1);\nconst o = {};\no.a = note(2);\no.b = o.a + note(3);\nreturn 4;"
    out = rt.run(text, lang="plan")
    assert out.status == "success", out.message
    assert out.value == 4
    assert sorted(calls) == [1, 2, 3]


def test_a_change_that_cannot_throw_stays_lazy() -> None:
    # (no expression statement: the block is the plain `$let` it was)
    text = "const o = {a: 1}; o.b = 2; o.c = [1, 'x' + 2]; return 1;"
    tree = dialectic.compile(text, lang="plan")
    assert tree == {
        "$let": {
            "_o1": {"$object": {"a": 1}},
            "_o2": {"$merge": [{"$ref": "_o1"}, {"$object": {"b": 2}}]},
            "o": {"$merge": [{"$ref": "_o2"}, {"$object": {"c": [1, {"$op": ["+", "x", 2]}]}}]},
        },
        "$return": 1,
    }


def test_a_change_that_may_throw_runs_right_after_its_statement() -> None:
    tree = dialectic.compile("const o = {a: 1}; o.b = fail('x'); o.c = 3; return 1;", lang="plan")
    assert tree["$do"][1] == {"$ref": "_o2"}
    assert tree["$do"][0] == {
        "$let": {
            "_o1": {"$object": {"a": 1}},
            "_o2": {"$merge": [{"$ref": "_o1"}, {"$object": {"b": {"fail": ["x"]}}}]},
        }
    }


def _nodes(tree: Any) -> int:
    if isinstance(tree, dict):
        return 1 + sum(_nodes(v) for v in tree.values())
    if isinstance(tree, list):
        return 1 + sum(_nodes(v) for v in tree)
    return 1


def test_each_statement_run_adds_a_constant_to_the_tree() -> None:
    def size(n: int) -> int:
        lines = [f"const o{i} = {{a: {i}}}; o{i}.b = echo(o{i}.a);" for i in range(n)]
        return _nodes(dialectic.compile("\n".join([*lines, "return 1;"]), lang="plan"))

    small, medium, large = size(10), size(20), size(40)
    assert large - medium == 2 * (medium - small)


def test_the_walk_is_linear_in_the_block() -> None:
    # (100,000 change records, every other one may throw: one pass, each run after its own)
    n = 100_000
    aliases: dict[str, Any] = {}
    rec: list[tuple[str, int, int, int, int]] = []
    for i in range(n):
        aliases[f"v{i}"] = {"fail": [i]} if i % 2 else {"$object": {"k": i}}
        rec.append((f"v{i}", 3 * i, 3 * i, 3 * i + 1, 3 * i + 2))
    run_changes(aliases, rec, {3 * i for i in range(n)})
    assert len(rec) == n + n // 2
    assert rec[1][0] == "v1" and rec[2] == ("#run3", 3, 3, 4, 5)
    assert aliases["#run3"] == {"$ref": "v1"}


@pytest.mark.parametrize(
    "text",
    [
        "const o = {a: 1}; o.b = fail('x'); return 1;",
        "const r = (() => { fail('iife2'); return 1; })(); return 2;",
        "return [1, 2].map(x => { const o = {}; o.v = fail('in map'); return x; });",
    ],
)
def test_decompiled_text_compiles_to_the_same_tree(text: str) -> None:
    tree = dialectic.compile(text, lang="plan")
    again = dialectic.compile(decompile(tree), lang="plan")
    assert json.dumps(again) == json.dumps(tree)
