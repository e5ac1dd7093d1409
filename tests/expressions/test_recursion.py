"""Recursive functions of Plan programs (SPEC 10, "Recursive functions"; SPEC 1.2 ``$letrec``
and ``$apply``): tree walks, recursion over arrays and texts, mutual recursion, async walks
with awaited calls, throws caught and uncaught give Node's answer; the depth
(``max_recursion``), the steps, the deadline and the output bound them, and Python's own
stack never overflows."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from dialectic import FunctionDescription, Runtime
from dialectic.limits import Limits

from .program_oracle import check, runtime

RT: Runtime = runtime()

TREE = (
    "const tree = {name: 'root', size: 1, children: [{name: 'a', size: 2, children: []}, "
    "{name: 'b', size: 3, children: [{name: 'c', size: 4, children: []}, "
    "{name: 'd', size: 5, children: [{name: 'e', size: 6, children: []}]}]}]};\n"
)
FS = (
    "const FS = {'/': [{path: '/a', isDir: true}, {path: '/b.txt', isDir: false}, "
    "{path: '/c', isDir: true}], '/a': [{path: '/a/x.txt', isDir: false}, "
    "{path: '/a/y', isDir: true}], '/a/y': [{path: '/a/y/z.md', isDir: false}], '/c': []};\n"
)
PROGRAMS = [
    TREE
    + (
        "function total(node) { return node.size + node.children.reduce((s, c) => s + "
        "total(c), 0); }\nreturn total(tree);"
    ),
    TREE
    + (
        "function names(node) { return [node.name, ...node.children.flatMap(names)]; }\n"
        "return names(tree);"
    ),
    TREE
    + (
        "function names(node) { return [node.name, ...node.children.flatMap(c => "
        "names(c))]; }\nreturn names(tree).join('/');"
    ),
    TREE
    + (
        "function height(node) { return 1 + Math.max(0, ...node.children.map(height)); }\n"
        "return height(tree);"
    ),
    TREE
    + (
        "function count(node) { let n = 1; for (const c of node.children) { n += count(c); "
        "} return n; }\nreturn count(tree);"
    ),
    TREE
    + (
        "function find(node, name) { if (node.name === name) return node.size; for (const "
        "c of node.children) { const r = find(c, name); if (r !== undefined) return r; } "
        "return undefined; }\nreturn [find(tree, 'e'), find(tree, 'zz') ?? 'none'];"
    ),
    TREE
    + (
        "function paths(node, prefix) { const here = prefix + '/' + node.name; return "
        "[here, ...node.children.flatMap(c => paths(c, here))]; }\nreturn paths(tree, '');"
    ),
    TREE
    + (
        "const show = (n, depth = 0) => '  '.repeat(depth) + n.name + '\\n' + "
        "n.children.map(c => show(c, depth + 1)).join('');\nreturn show(tree);"
    ),
    TREE
    + (
        "function leaves(node) { return node.children.length === 0 ? [node.name] : "
        "node.children.flatMap(leaves); }\nreturn leaves(tree);"
    ),
    TREE
    + (
        "function mapTree(node) { return {name: node.name.toUpperCase(), kids: "
        "node.children.map(mapTree)}; }\nreturn mapTree(tree);"
    ),
    (
        "function flatten(items) { return items.flatMap(x => Array.isArray(x) ? flatten(x) "
        ": [x]); }\nreturn flatten([1, [2, [3, [4]]], 5]);"
    ),
    (
        "function flatten(xs) { return xs.reduce((acc, x) => Array.isArray(x) ? "
        "acc.concat(flatten(x)) : acc.concat([x]), []); }\nreturn flatten([[1, 2], [3, [4, "
        "[5, 6]]], 7]);"
    ),
    ("const fib = (n) => n < 2 ? n : fib(n - 1) + fib(n - 2);\nreturn fib(15);"),
    ("const fib = n => n < 2 ? n : fib(n - 1) + fib(n - 2);\nreturn [0, 1, 2, 3, 10].map(fib);"),
    (
        "function depth(o) { return typeof o === 'object' && o !== null ? 1 + Math.max(0, "
        "...Object.values(o).map(depth)) : 0; }\nreturn depth(data);"
    ),
    (
        "function depth(o) { return typeof o === 'object' && o !== null ? 1 + Math.max(0, "
        "...Object.values(o).map(v => depth(v))) : 0; }\nreturn [depth(people), depth(1), "
        "depth([])];"
    ),
    (
        "function sum(xs, i) { if (i >= xs.length) return 0; return xs[i] + sum(xs, i + "
        "1); }\nreturn sum(nums, 0);"
    ),
    (
        "function sum(xs, i = 0) { return i >= xs.length ? 0 : xs[i] + sum(xs, i + 1); }\n"
        "return sum(nums);"
    ),
    ("function rev(s) { return s === '' ? '' : rev(s.slice(1)) + s[0]; }\nreturn rev(s);"),
    (
        "function pal(s) { if (s.length < 2) return true; if (s[0] !== s[s.length - 1]) "
        "return false; return pal(s.slice(1, -1)); }\nreturn ['racecar', 'abba', 'abc', "
        "''].map(w => pal(w));"
    ),
    (
        "function isEven(n) { return n === 0 ? true : isOdd(n - 1); }\nfunction isOdd(n) { "
        "return n === 0 ? false : isEven(n - 1); }\nreturn [isEven(10), isOdd(7), "
        "isEven(3)];"
    ),
    (
        "function fact(n) { if (n <= 1) return 1; return n * fact(n - 1); }\nreturn [1, 2, "
        "3, 10].map(fact);"
    ),
    (
        "function gcd(a, b) { return b === 0 ? a : gcd(b, a % b); }\nreturn [gcd(48, 18), "
        "gcd(17, 5), gcd(0, 9)];"
    ),
    (
        "function pow(b, e) { if (e === 0) return 1; const half = pow(b, Math.floor(e / "
        "2)); return e % 2 ? half * half * b : half * half; }\nreturn pow(3, 13);"
    ),
    (
        "function binary(n) { return n < 2 ? String(n) : binary(Math.floor(n / 2)) + (n % "
        "2); }\nreturn [binary(10), binary(255), binary(0)];"
    ),
    ("function range(a, b) { return a >= b ? [] : [a, ...range(a + 1, b)]; }\nreturn range(2, 9);"),
    (
        "function perms(xs) { if (xs.length <= 1) return [xs]; return xs.flatMap((x, i) => "
        "perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map(p => [x, ...p])); }\nreturn "
        "perms([1, 2, 3]);"
    ),
    (
        "function subsets(xs) { if (xs.length === 0) return [[]]; const rest = "
        "subsets(xs.slice(1)); return [...rest, ...rest.map(r => [xs[0], ...r])]; }\n"
        "return subsets(['a', 'b', 'c']).length;"
    ),
    (
        "function hanoi(n, a, b, c) { if (n === 0) return []; return [...hanoi(n - 1, a, "
        "c, b), a + '->' + c, ...hanoi(n - 1, b, a, c)]; }\nreturn hanoi(3, 'A', 'B', 'C');"
    ),
    (
        "function collatz(n, steps = 0) { if (n === 1) return steps; return collatz(n % 2 "
        "? 3 * n + 1 : n / 2, steps + 1); }\nreturn collatz(27);"
    ),
    (
        "function keys(o, prefix) { return Object.entries(o).flatMap(([k, v]) => typeof v "
        "=== 'object' && v !== null && !Array.isArray(v) ? keys(v, prefix + k + '.') : "
        "[prefix + k]); }\nreturn keys(data, '');"
    ),
    (
        "function clean(v) { if (Array.isArray(v)) return v.map(clean); if (v && typeof v "
        "=== 'object') return Object.fromEntries(Object.entries(v).filter(([k, x]) => x "
        "!== null).map(([k, x]) => [k, clean(x)])); return v; }\nreturn clean(data);"
    ),
    (
        "function check(n) { if (n < 0) throw new Error('negative: ' + n); return n === 0 "
        "? 'done' : check(n - 2); }\ntry { return check(7); } catch (e) { return 'caught ' "
        "+ e.message; }"
    ),
    (
        "function check(n) { if (n < 0) throw new Error('negative: ' + n); return n === 0 "
        "? 'done' : check(n - 2); }\ntry { return check(8); } catch (e) { return 'caught ' "
        "+ e.message; }"
    ),
    (
        "function down(n) { if (n === 0) throw new Error('bottom'); try { return down(n - "
        "1); } catch (e) { return n + ':' + e.message; } }\nreturn down(3);"
    ),
    (
        "function first(xs, pred) { return xs.length === 0 ? null : xs[0] > pred ? xs[0] : "
        "first(xs.slice(1), pred); }\nreturn [first(nums, 4), first(nums, 100)];"
    ),
    (
        "function countdown(n) { const out = []; if (n < 0) return out; out.push(n); "
        "return out.concat(countdown(n - 1)); }\nreturn countdown(5);"
    ),
    (
        "function ack(m, n) { return m === 0 ? n + 1 : n === 0 ? ack(m - 1, 1) : ack(m - "
        "1, ack(m, n - 1)); }\nreturn ack(2, 3);"
    ),
    (
        "const total = people.length;\nfunction share(i) { return i >= people.length ? [] "
        ": [people[i].name + ':' + (people[i].age / total).toFixed(2), ...share(i + 1)]; "
        "}\nreturn share(0);"
    ),
    (
        "function join(xs) { return xs.length === 0 ? '' : xs.length === 1 ? String(xs[0]) "
        ": xs[0] + ', ' + join(xs.slice(1)); }\nreturn join(words);"
    ),
    (
        "function merge(a, b) { if (!a.length) return b; if (!b.length) return a; return "
        "a[0] <= b[0] ? [a[0], ...merge(a.slice(1), b)] : [b[0], ...merge(a, b.slice(1))]; "
        "}\nfunction msort(xs) { if (xs.length < 2) return xs; const m = "
        "Math.floor(xs.length / 2); return merge(msort(xs.slice(0, m)), "
        "msort(xs.slice(m))); }\nreturn msort(nums);"
    ),
    (
        "async function walk(n) { const v = await later(n); if (n <= 0) return [v]; return "
        "[v, ...(await walk(n - 1))]; }\nreturn await walk(4);"
    ),
    FS
    + (
        "async function walk(dir) {\n  const entries = await later(FS[dir]);\n  const "
        "files = [];\n  for (const e of entries) {\n    if (e.isDir) files.push(...(await "
        "walk(e.path)));\n    else files.push(e.path);\n  }\n  return files;\n}\nreturn "
        "await walk('/');"
    ),
    FS
    + (
        "async function size(dir) { const entries = await later(FS[dir]); const subs = "
        "await Promise.all(entries.filter(e => e.isDir).map(e => size(e.path))); return "
        "entries.length + subs.reduce((a, b) => a + b, 0); }\nreturn await size('/');"
    ),
    FS
    + (
        "async function walk(dir) { const entries = await slow(FS[dir]); const nested = "
        "await Promise.all(entries.map(e => e.isDir ? walk(e.path) : [e.path])); return "
        "nested.flat(); }\nreturn await walk('/');"
    ),
    (
        "async function risky(n) { if (n === 0) return await failLater('bottom'); return "
        "await risky(n - 1); }\ntry { return await risky(3); } catch (e) { return 'caught: "
        "' + e.message; }"
    ),
    (
        "function count(v) { return Array.isArray(v) ? v.reduce((a, x) => a + count(x), 0) "
        ": 1; }\nconst nested = [1, [2, 3], [[4], [5, [6, 7]]]];\nconst c = "
        "count(nested);\nreturn {c, twice: count([nested, nested])};"
    ),
]


def test_recursive_functions_give_what_node_gives() -> None:
    verdicts = check(PROGRAMS, RT)
    assert len(verdicts) >= 40
    for v in verdicts:
        assert v.kind == "same", (v.program, v.kind, v.detail)


def _down(body_nesting: int, awaited: bool = False) -> str:
    """``down(n)`` that recurses ``n`` deep, its call nested in arrays and parentheses."""
    call = "(await down(n - 1))" if awaited else "down(n - 1)"
    deep = "(" * body_nesting + "1 + " + call + ")" * body_nesting
    head = "async function" if awaited else "function"
    base = "await later(0)" if awaited else "0"
    return (
        f"{head} down(n) {{ if (n === 0) return {base}; "
        f"const a = [[[[[[[[{{v: {deep}}}]]]]]]]]; return a[0][0][0][0][0][0][0][0].v; }}\n"
    )


@pytest.mark.parametrize("awaited", [False, True])
def test_recursion_at_the_depth_limit_runs_without_overflowing_the_stack(awaited: bool) -> None:
    call = "await down(999)" if awaited else "down(999)"
    inside = f"[[[[[[[[[[[[[[[[[[[[{call}]]]]]]]]]]]]]]]]]]]]"  # (a deep use site too)
    text = _down(40, awaited) + (
        f"return await Promise.all(nums.map(async x => {inside}));"
        if awaited
        else f"return nums.map(x => {inside});"
    )
    out = RT.run(text, lang="plan", context={"nums": [1, 2]})
    assert out.status == "success", out.message
    value: Any = out.value
    for _ in range(21):
        value = value[0]
    assert value == 999


@pytest.mark.parametrize("awaited", [False, True])
def test_recursion_past_the_depth_limit_is_limit_exceeded(awaited: bool) -> None:
    call = "await down(1000)" if awaited else "down(1000)"
    out = RT.run(_down(2, awaited) + f"return {call};", lang="plan")
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "limit_exceeded", out.message
    assert out.error.details.get("limit") == "max_recursion" or "max_recursion" in (
        out.message or ""
    )
    assert "the function `down` was applied more than 1000 deep" in (out.message or "")
    assert "line 1, column" in (out.message or "")


def test_the_depth_limit_is_a_limit() -> None:
    rt = runtime()
    rt.limits = Limits(max_recursion=10)
    text = "function down(n) { return n === 0 ? 0 : 1 + down(n - 1); }\nreturn [down(9), down(10)];"
    out = rt.run(text, lang="plan")
    assert out.status == "failure"
    assert "applied more than 10 deep" in (out.message or "")
    out = rt.run(text.replace(", down(10)", ""), lang="plan")
    assert out.status == "success" and out.value == [9]


def test_a_recursion_that_never_ends_stops_at_the_depth_limit() -> None:
    for text in (
        "function loop(n) { return loop(n + 1); }\nreturn loop(0);",
        "async function loop(n) { const x = await later(n); return await loop(x + 1); }\n"
        "return await loop(0);",
        "function ping(n) { return pong(n); }\nfunction pong(n) { return ping(n + 1); }\n"
        "return ping(0);",
    ):
        out = RT.run(text, lang="plan")
        assert out.status == "failure", text
        assert out.error is not None and out.error.code == "limit_exceeded"
        assert "more than 1000 deep" in (out.message or ""), out.message


def test_exponential_recursion_stops_at_max_steps() -> None:
    rt = runtime()
    rt.limits = Limits(max_steps=20_000)
    out = rt.run(
        "const fib = n => n < 2 ? n : fib(n - 1) + fib(n - 2);\nreturn fib(40);", lang="plan"
    )
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "limit_exceeded"
    assert "more than 20000 method steps" in (out.message or ""), out.message


def test_exponential_recursion_stops_at_the_deadline() -> None:
    rt = runtime()
    rt.limits = Limits(max_steps=10**9, deadline=0.5)
    start = time.monotonic()
    out = rt.run(
        "const fib = n => n < 2 ? n : fib(n - 1) + fib(n - 2);\nreturn fib(40);", lang="plan"
    )
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "limit_exceeded"
    assert "deadline" in (out.message or ""), out.message
    assert time.monotonic() - start < 60  # (stopped, not run to its end)


def test_a_recursion_building_a_huge_output_stops_at_a_limit() -> None:
    rt = runtime()
    rt.limits = Limits(max_steps=50_000, max_output_bytes=100_000)
    for text in (
        "function wide(n) { return n === 0 ? [1] : [wide(n - 1), wide(n - 1)]; }\nreturn wide(30);",
        "function grow(s, n) { return n === 0 ? s : grow(s + s, n - 1); }\nreturn grow('ab', 60);",
        "function grow(xs, n) { return n === 0 ? xs : grow([...xs, ...xs], n - 1); }\n"
        "return grow([1], 60);",
        "function big(n) { return n === 0 ? [] : [...big(n - 1), 'x'.repeat(1000)]; }\n"
        "return big(150);",
    ):
        out = rt.run(text, lang="plan")
        assert out.status == "failure", text
        assert out.error is not None and out.error.code == "limit_exceeded", out.message


def test_an_async_walk_calls_the_tool_as_node_would() -> None:
    fs = {
        "/": [{"path": "/a", "isDir": True}, {"path": "/b.txt", "isDir": False}],
        "/a": [{"path": "/a/x.txt", "isDir": False}, {"path": "/a/y", "isDir": True}],
        "/a/y": [{"path": "/a/y/z.md", "isDir": False}],
    }
    seen: list[str] = []

    async def list_dir(path: str) -> Any:
        seen.append(path)
        return fs[path]

    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("listDir", "listDir", list_dir, {"path": "string"}, "any"))
    text = (
        "async function walk(dir) {\n"
        "  const entries = await listDir({path: dir});\n"
        "  const files = [];\n"
        "  for (const e of entries) {\n"
        "    if (e.isDir) files.push(...(await walk(e.path)));\n"
        "    else files.push(e.path);\n"
        "  }\n"
        "  return files;\n"
        "}\n"
        "return await walk('/');"
    )
    out = rt.run(text, lang="plan")
    assert out.status == "success", out.message
    assert out.value == ["/a/x.txt", "/a/y/z.md", "/b.txt"]
    assert seen == ["/", "/a", "/a/y"]  # in Node's order, each once


def test_promise_all_of_recursive_calls_runs_them_concurrently() -> None:
    running = {"now": 0, "most": 0}

    async def visit(n: int) -> int:
        import asyncio

        running["now"] += 1
        running["most"] = max(running["most"], running["now"])
        await asyncio.sleep(0.01)
        running["now"] -= 1
        return n

    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("visit", "visit", visit, {"n": "integer"}, "any"))
    text = (
        "async function count(n) { await visit(n); if (n === 0) return 1;\n"
        "  const parts = await Promise.all([count(n - 1), count(n - 1)]);\n"
        "  return 1 + parts[0] + parts[1]; }\n"
        "return await count(4);"
    )
    out = rt.run(text, lang="plan")
    assert out.status == "success", out.message
    assert out.value == 31
    assert running["most"] > 1


REFUSED = [
    # (text, the message)
    (
        "function walk(x, f) { return f(x) + walk(x - 1, f); }\nreturn walk(1, v => v);",
        "the recursive function `walk` (line 1, column 10) calls its parameter `f`",
    ),
    (
        "function sum(...xs) { return xs.length ? xs[0] + sum(...xs.slice(1)) : 0; }\n"
        "return nums.map(sum);",
        "has a rest parameter",
    ),
]


@pytest.mark.parametrize(("text", "message"), REFUSED)
def test_what_recursion_cannot_do_is_refused(text: str, message: str) -> None:
    out = RT.run(text, lang="plan", context={"nums": [1, 2]})
    assert out.status == "failure", out.value
    assert out.error is not None and out.error.code == "syntax_error", out.message
    assert message in (out.message or ""), out.message
    assert out.error.hint


def _fact(body: Any) -> dict[str, Any]:
    return {"$letrec": [["fact", {"$fn": [["n"], body]}], {"$apply": ["fact", 5]}]}


FACT_BODY = {
    "$if": [
        {"$op": ["<=", {"$ref": "n"}, 1]},
        1,
        {"$op": ["*", {"$ref": "n"}, {"$apply": ["fact", {"$op": ["-", {"$ref": "n"}, 1]}]}]},
    ]
}


def test_the_json_tree_spells_recursion_directly() -> None:
    out = RT.run(_fact(FACT_BODY))
    assert out.status == "success" and out.value == 120
    plan = "function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); }\nreturn fact(5);"
    tree = RT.compile(plan, lang="plan")
    assert "$letrec" in str(tree)
    again = RT.run(tree)
    assert again.status == "success" and again.value == 120


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ({"$apply": ["fact", 5]}, "no enclosing $letrec defines"),
        (_fact({"$apply": ["fact", 1, 2]}), "`fact` takes 1 argument, given 2"),
        (  # a closure over an arrow's parameter: no frame keeps it
            {
                "$method": [
                    [1, 2],
                    "map",
                    {"$fn": [["k"], _fact({"$op": ["+", {"$ref": "k"}, {"$ref": "n"}]})]},
                ]
            },
            "reads `k`, a parameter or a local",
        ),
        ({"$letrec": [["f", 1], 2]}, "$letrec takes"),
        ({"$letrec": [["__proto__", {"$fn": [[], 1]}], 2]}, "invalid or repeated function name"),
        ({"$apply": [{"$ref": "x"}]}, "$apply takes"),
        (_fact({"$apply": ["fact", {"$spread": [1]}]}), "a spread argument of `fact`"),
    ],
)
def test_hostile_json_recursion_is_refused(program: Any, message: str) -> None:
    out = RT.run(program)
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "invalid_program", out.message
    assert message in (out.message or ""), out.message


def _run_time(size: int) -> float:
    text = (
        "function total(node) { return node.v + node.kids.reduce((s, c) => s + total(c), 0); }\n"
        "return total(tree);"
    )
    tree = {"v": 1, "kids": [{"v": i, "kids": [{"v": 1, "kids": []}]} for i in range(size)]}
    start = time.process_time()  # CPU time: the machine's load does not count
    out = RT.run(text, lang="plan", context={"tree": tree})
    took = time.process_time() - start
    assert out.status == "success", out.message
    assert out.value == 1 + sum(range(size)) + size
    return took


def test_a_walk_costs_linear_time_in_the_tree() -> None:
    _run_time(1_000)
    small = min(_run_time(10_000) for _ in range(2))
    large = min(_run_time(100_000) for _ in range(2))
    assert large < 40 * small, (small, large)  # linear: ~10x (quadratic would be ~100x)


@pytest.mark.parametrize("awaited", [False, True])
def test_recursion_at_the_default_limit_leaves_no_thread_behind(awaited: bool) -> None:
    """``max_recursion`` (1000) deep, with a body nested 20 levels (a fresh stack every few
    applications): Node's answer, and every thread a deep application started is joined."""
    assert Limits().max_recursion == 1000
    head = "async function" if awaited else "function"
    base = "await later(0)" if awaited else "0"
    call = "(await down(n - 1))" if awaited else "down(n - 1)"
    text = (
        f"{head} down(n) {{ if (n === 0) return {base}; "
        f"return [[[[[[[[[[[[[[[[[[[[{call}]]]]]]]]]]]]]]]]]]]][0][0][0][0][0][0][0][0][0][0]"
        "[0][0][0][0][0][0][0][0][0][0] + 1; }\n"
        + ("return await down(999);" if awaited else "return down(999);")
    )
    before = {t.ident for t in threading.enumerate()}
    out = RT.run(text, lang="plan")
    assert out.status == "success", out.message
    assert out.value == 999
    left = [t for t in threading.enumerate() if t.ident not in before]
    assert not [t for t in left if t.name == "dialectic-recursion"], left
    over = RT.run(text.replace("down(999)", "down(1000)"), lang="plan")
    assert over.status == "failure" and "more than 1000 deep" in (over.message or "")
    assert not [t for t in threading.enumerate() if t.name == "dialectic-recursion"]
