"""``while`` and ``do...while`` loops (SPEC 10, "Loops"): each program runs in Node.js and in
dialectic (the harness of :mod:`.test_loops`); the value and the calls made, in order, are
Node's, or dialectic refuses clearly. A loop that never ends stops at ``max_steps``, at its
place; its cost grows linearly with its iterations."""

from __future__ import annotations

import time
from typing import Any

import anyio
import pytest

import dialectic
from dialectic import FunctionDescription, Limits, Runtime
from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import DecompileError, decompile, parse_plan

from .test_loops import LOOP_CONTEXT, node_runs, runtime, same_run

_PAGES = (
    "const pages = {p1: {items: [1, 2], next: 'p2'}, p2: {items: [], next: 'p3'}, "
    "p3: {items: [3], next: null}};\n"
)

PROGRAMS = [
    # the shapes the brief names: pagination, a cursor, a count until a condition holds
    _PAGES + "let page = 'p1';\nconst all = [];\nwhile (true) {\n"
    "  const r = await note({v: pages[page]});\n  all.push(...r.items);\n"
    "  if (!r.next) break;\n  page = r.next;\n}\nreturn all;",
    _PAGES + "let cursor = 'p1';\nlet total = 0;\n"
    "do { const r = await note({v: pages[cursor]}); total += r.items.length; "
    "cursor = r.next; } while (cursor);\nreturn total;",
    "let m = 27;\nlet steps = 0;\n"
    "while (m !== 1) { m = m % 2 === 0 ? m / 2 : 3 * m + 1; steps++; }\nreturn steps;",
    # the test before each iteration; `do`: after, so the body runs once at least
    "let i = 5;\nconst out = [];\nwhile (i < 3) { out.push(i); i++; }\nreturn [i, out];",
    "let i = 5;\nconst out = [];\ndo { out.push(i); i++; } while (i < 3);\nreturn [i, out];",
    "let i = 0;\nconst out = [];\ndo { i++; if (i % 2 === 0) continue; out.push(i); } "
    "while (i < 7);\nreturn out;",
    "let i = 0;\nconst out = [];\nwhile (i < 7) { i++; if (i === 3) continue; "
    "if (i === 6) break; out.push(i); }\nreturn [i, out];",
    "let i = 0;\ndo { i += 2; if (i > 4) break; } while (true);\nreturn i;",
    # JavaScript's truthiness in the test; texts, objects and members as state
    "let u = 'abc';\nlet t = '';\nwhile (u) { t = u + '|' + t; u = u.slice(1); }\nreturn t;",
    "const seen = {};\nlet k = 0;\nwhile (!seen[k % 3]) { seen[k % 3] = k; k++; }\n"
    "return [k, seen];",
    "const ws = words.filter(w => w);\nconst counts = {};\nlet i = 0;\n"
    "while (i < ws.length) { const w = ws[i]; counts[w[0]] = (counts[w[0]] || 0) + 1; "
    "i++; }\nreturn counts;",
    # calls in the test run before each iteration, in order
    "let i = 0;\nwhile (await note({v: i < 3})) { await send({to: i}); i++; }\nreturn i;",
    "let i = 0;\ndo { await send({to: i}); i++; } while (await note({v: i < 2}));\nreturn i;",
    # loops inside loops: while in for, for in while, while in while
    "const out = [];\nfor (const c of cities) {\n  let n = c.length;\n"
    "  while (n > 4) { out.push(c + n); n--; }\n}\nreturn out;",
    "let i = 0;\nconst out = [];\nwhile (i < 2) {\n  for (const w of words) { "
    "if (w.length > 3) break; out.push(await note({v: w + i})); }\n  i++;\n}\nreturn out;",
    "let i = 0;\nlet total = 0;\nwhile (i < 3) {\n  let j = 0;\n"
    "  while (j < i) { total += 10 * i + j; j++; }\n  i++;\n}\nreturn total;",
    "let i = 0;\nconst out = [];\nwhile (i < 3) { i++; for (const c of cities) { "
    "if (c.length === 4) out.push(c + i); } }\nreturn out;",
    # a test that short-circuits, one-statement bodies, a nested break
    "let i = 0;\nwhile (i < 3 && await note({v: i})) i++;\nreturn i;",
    "const out = [];\nwhile (out.length < 3) out.push(out.length * 2);\nreturn out;",
    "let i = 0;\ndo i += 3; while (i < 10);\nreturn i;",
    "let i = 0;\nconst out = [];\nwhile (i < 4) {\n  i++;\n  let j = 0;\n"
    "  while (true) { j++; if (j >= i) break; }\n  if (i === 3) { continue; }\n"
    "  out.push([i, j]);\n}\nreturn out;",
    "let _t1 = 0;\nlet _s1 = 1;\nwhile (_t1 < 3) { _t1++; _s1 *= 2; }\nreturn [_t1, _s1];",
    # nothing runs when the test fails at once; a failing member in the body fails
    "let i = 0;\nwhile (i > 0) { await fail({x: i}); }\nreturn i;",
    "let p = people[0];\nlet k = 0;\nwhile (k < 9) { k += p.missing.deep; }\nreturn k;",
]


@pytest.fixture(scope="module")
def answers() -> list[dict[str, Any]]:
    return node_runs(PROGRAMS)


@pytest.mark.parametrize("i", range(len(PROGRAMS)))
def test_a_while_loop_gives_nodes_value_and_calls(i: int, answers: list[dict[str, Any]]) -> None:
    log: list[Any] = []
    out = runtime(log).run(PROGRAMS[i], lang="plan", context=LOOP_CONTEXT)
    same_run(PROGRAMS[i], answers[i], out, log)


@pytest.mark.parametrize("i", range(len(PROGRAMS)))
def test_asynchronous_calls_run_in_nodes_order(i: int, answers: list[dict[str, Any]]) -> None:
    log: list[Any] = []
    rt = runtime(log, use_async=True)

    async def main() -> Any:
        return await rt.run_async(PROGRAMS[i], lang="plan", context=LOOP_CONTEXT)

    same_run(PROGRAMS[i], answers[i], anyio.run(main), log)


#: a `while` inside another loop is inside an arrow function's body: Plan has no spelling
NESTED = frozenset([13, 15, 20])


@pytest.mark.parametrize("i", range(len(PROGRAMS)))
def test_decompiled_it_runs_to_the_same_value(i: int) -> None:
    tree = dialectic.compile(PROGRAMS[i], lang="plan")
    if i in NESTED:
        with pytest.raises(DecompileError, match="a `\\$while` loop is a statement"):
            decompile(tree)
        return
    text = decompile(tree)
    first: list[Any] = []
    again: list[Any] = []
    a = runtime(first).run(PROGRAMS[i], lang="plan", context=LOOP_CONTEXT)
    b = runtime(again).run(text, lang="plan", context=LOOP_CONTEXT)
    assert (a.status, a.value, first) == (b.status, b.value, again), text


def test_pagination_calls_a_registered_function_page_after_page() -> None:
    calls: list[Any] = []

    def list_orders(page: int) -> dict[str, Any]:
        calls.append(page)
        return {"items": [f"o{page}a", f"o{page}b"], "next_page": page + 1 if page < 3 else None}

    rt = Runtime(load_entry_points=False)
    rt.register(
        FunctionDescription(
            "listOrders", "a page of orders", list_orders, {"page": "integer"}, "any"
        )
    )
    out = rt.run(
        "let page = 1;\nconst all = [];\nwhile (true) {\n"
        "  const r = await listOrders({page});\n  all.push(...r.items);\n"
        "  if (!r.next_page) break;\n  page = r.next_page;\n}\nreturn all;",
        lang="plan",
    )
    assert out.status == "success", out.message
    assert out.value == ["o1a", "o1b", "o2a", "o2b", "o3a", "o3b"]
    assert calls == [1, 2, 3]


def test_a_loop_that_never_ends_stops_at_max_steps_naming_its_place() -> None:
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=5000))
    for source, column in [
        ("let i = 0;\nwhile (i < 10) { }\nreturn i;", 1),
        ("let i = 0;\n  do { i = i - 1; } while (i < 10);\nreturn i;", 3),
        ("let i = 0;\nwhile (i >= 0) { i++; if (i < 0) break; }\nreturn i;", 1),
    ]:
        out = rt.run(source, lang="plan")
        assert out.status == "failure", source
        assert out.error is not None and out.error.code == "limit_exceeded", out.message
        assert (out.error.line, out.error.column) == (2, column), out.message
        assert out.error.details.get("limit") == "max_steps", out.error.details


WHILE_ERRORS = [
    ("let i = 0;\nwhile (true) { i++; }\nreturn i;", "never ends", 2, 1),
    ("let i = 0;\ndo { i++; } while (1);\nreturn i;", "never ends", 2, 1),
    ("const i = 0;\nwhile (i < 3) { i++; }\nreturn i;", "`const`", 2, 17),
    ("let i = 0;\ndo { const r = i; i++; } while (r < 3);\nreturn i;", "not defined", 2, 33),
    ("let i = 0;\ndo { i++; } until (i < 3);\nreturn i;", "`while (test);`", 2, 13),
    ("let i = 0;\nwhile i < 3 { i++; }\nreturn i;", "`(` after `while`", 2, 7),
]


@pytest.mark.parametrize(("source", "message", "line", "column"), WHILE_ERRORS)
def test_what_while_loops_do_not_have_fails_at_the_place(
    source: str, message: str, line: int, column: int
) -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan(source)
    problem = caught.value.problems[0]
    assert message in problem.message, problem.message
    assert (problem.line, problem.column) == (line, column), problem.message


def _cpu(source: str, rt: Runtime) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        out = rt.run(source, lang="plan")
        best = min(best, time.process_time() - start)
        assert out.status == "success", out.message
    return best


def test_the_cost_grows_linearly_with_the_iterations() -> None:
    rt = Runtime(load_entry_points=False)
    loop = "let i = 0;\nlet t = '';\nwhile (i < {n}) {{ t += 'x'; i++; }}\nreturn t.length;"
    small = _cpu(loop.format(n=2000), rt)
    big = _cpu(loop.format(n=16000), rt)
    assert big < 8 * small * 3, (small, big)  # 8 times the iterations: not 64 times the time


_STEP = {"$fn": [["s"], {"$op": ["+", {"$ref": "s"}, 2]}]}
_BELOW_5 = {"$fn": [["s"], {"$op": ["<", {"$ref": "s"}, 5]}]}


def test_the_core_form_runs_its_steps_until_the_test_fails() -> None:
    rt = Runtime(load_entry_points=False)
    loop = {"$while": [0, _BELOW_5, _STEP]}
    assert rt.run(loop).value == 6
    assert rt.compile(loop) == loop  # (its canonical form)
    # the test's last key may be missing (a test, SPEC 1.2): undefined is falsy
    missing = {"$fn": [["s"], {"$get": [{"$ref": "s"}, "more"]}]}
    assert rt.run({"$while": [{"a": 1, "b": 2}, missing, _STEP]}).value == {"a": 1, "b": 2}


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ([0, _BELOW_5], "$while takes [state"),
        ([0, 1, _STEP], "arrow functions of one parameter"),
        ([0, {"$fn": [["a", "b"], True]}, _STEP], "arrow functions of one parameter"),
        ([0, _BELOW_5, {"$fn": [["s"], {"$ref": "t"}]}], "t"),
    ],
)
def test_a_malformed_core_form_is_refused_at_its_path(form: list[Any], message: str) -> None:
    out = Runtime(load_entry_points=False).run({"$while": form})
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code in ("invalid_program", "unknown_identifier"), out.error.code
    assert message in (out.message or ""), out.message
    assert str(out.error.path).startswith("program.$while"), out.error.path


def test_an_asynchronous_step_runs_one_iteration_after_the_other() -> None:
    log: list[Any] = []

    async def fetch(page: int) -> Any:
        log.append(("start", page))
        await anyio.sleep(0)
        log.append(("end", page))
        return {"next": page + 1 if page < 3 else None}

    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("fetch", "a page", fetch, {"page": "integer"}, "any"))
    out = rt.run(
        "let page = 1;\nlet seen = 0;\nwhile (page) {\n  const r = await fetch({page});\n"
        "  seen++;\n  page = r.next;\n}\nreturn seen;",
        lang="plan",
    )
    assert out.status == "success", out.message
    assert out.value == 3
    assert log == [(e, p) for p in (1, 2, 3) for e in ("start", "end")]
