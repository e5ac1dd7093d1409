"""Cells of an array of rows set in loops (SPEC 10, "Loops", "Cells of an array of rows"):
``g[i][j] = v``, ``counts[a][b]++``, ``m[i][j] += v``, ``table[i].push(x)`` give Node's
answer, linear in the cells (each row changes in place: :mod:`dialectic.resolve.matrixinner`);
rows JavaScript would share (``Array(n).fill(row)``, ``[row, row]``, a row read whole in the
loop) and writes Node makes holes or properties with are refused at their place."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dialectic import Limits, Runtime

from .program_generator import CONTEXT
from .program_oracle import check, runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    # the dynamic program models write
    "const R = 3, C = 4;\nconst dp = Array.from({length: R + 1}, () => Array(C + 1).fill(0));\n"
    "for (let i = 1; i <= R; i++) {\n  for (let j = 1; j <= C; j++) {\n"
    "    dp[i][j] = Math.max(dp[i - 1][j], dp[i][j - 1]) + i * j;\n  }\n}\n"
    "return [dp[R][C], dp];",
    # the longest common subsequence
    "const a = 'banana', b = 'ananas';\n"
    "const dp = Array.from({length: a.length + 1}, () => new Array(b.length + 1).fill(0));\n"
    "for (let i = 1; i <= a.length; i++) {\n  for (let j = 1; j <= b.length; j++) {\n"
    "    if (a[i - 1] === b[j - 1]) dp[i][j] = dp[i - 1][j - 1] + 1;\n"
    "    else dp[i][j] = Math.max(dp[i - 1][j], dp[i][j - 1]);\n  }\n}\n"
    "return dp[a.length][b.length];",
    # a table filled by both counters, the bound a row's length
    "const g = [[0, 0, 0], [0, 0, 0]];\nfor (let i = 0; i < g.length; i++) {\n"
    "  for (let j = 0; j < g[i].length; j++) {\n    g[i][j] = i * 3 + j;\n  }\n}\nreturn g;",
    "const rows = [[1, 2], [3, 4]];\n"
    "for (let i = 0; i < rows.length; i++) { rows[i][0] = i * 10; }\nreturn rows;",
    # a grid marked, then joined after the loop
    "const grid = Array.from({length: 3}, () => Array(3).fill('.'));\n"
    "for (const p of [[0, 1], [2, 2], [1, 0]]) { grid[p[0]][p[1]] = '#'; }\n"
    "return grid.map(r => r.join(''));",
    # counts, sums and other compound sets; keys computed once
    "const counts = [[0, 0], [0, 0]];\n"
    "for (const x of nums) { counts[x > 0 ? 1 : 0][x > 2 ? 1 : 0]++; }\nreturn counts;",
    "const m = [[1, 2], [3, 4]];\n"
    "for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) m[i][j] += i;\nreturn m;",
    "const g = [[1, 2], [3, 4]];\nfor (let i = 0; i < 2; i++) {\n  for (let j = 0; j < 2; j++) {\n"
    "    g[i][j] *= g[1 - i][1 - j];\n  }\n}\nreturn g;",
    "const g = [[0, 0], [0, 0]];\nlet k = 0;\nfor (let i = 0; i < 2; i++) {\n"
    "  for (let j = 0; j < 2; j++) { g[i][j] = k++; }\n}\nreturn [g, k];",
    "const g = [[0, 0], [0, 0]];\nfor (const x of nums) { g[0][0] += x; g[1][1] = g[0][0] * 2; }\n"
    "return g;",
    "const g = [[0, 0], [0, 0]];\nnums.forEach((x, i) => { g[i % 2][x > 2 ? 1 : 0] += 1; });\n"
    "return g;",
    "const g = [[5, 5], [5, 5]];\nfor (const x of [0, 1, 1]) { g[x][x] -= 2; g[x][1 - x] **= 2; }\n"
    "return g;",
    # the logical sets
    "const g = [[null, 0], [1, 0]];\nfor (let i = 0; i < 2; i++) {\n"
    "  g[i][0] ??= 5;\n  g[i][1] ||= 6;\n  g[i][1] &&= 8;\n}\nreturn g;",
    # pushes onto rows, a cell at the end (an item added)
    "const table = [[], [], []];\n"
    "for (const x of nums) { table[Math.abs(Math.trunc(x)) % 3].push(x); }\nreturn table;",
    "const g = [[0], [0]];\n"
    "for (let i = 0; i < 2; i++) { g[i].push(i, i * 2); g[i][0] = g[i].length; }\nreturn g;",
    "const g = [[0, 0], [0, 0]];\nfor (let i = 0; i < 2; i++) { g[i][2] = 9; }\nreturn g;",
    # reads of cells before and after the set, in branches
    "const g = [[0, 0], [0, 0]];\nconst out = [];\nfor (let i = 0; i < 2; i++) {\n"
    "  const before = g[i][0];\n  g[i][0] = i + 1;\n  out.push(before, g[i][0]);\n}\n"
    "return [g, out];",
    "const g = [[0, 0], [0, 0]];\n"
    "for (const x of [0, 1]) { if (x > 0) g[x][0] = 9; else g[x][1] = 8; }\nreturn g;",
    "const g = [[0, 0], [0, 0]];\nfor (const x of [0, 1]) {\n  if (g[x][0] > 0) continue;\n"
    "  g[x][0] = x + 1;\n  if (x) break;\n}\nreturn g;",
    # a tool's reply as the table (new data)
    "const g = await echo([[1, 2], [3, 4]]);\n"
    "for (let i = 0; i < 2; i++) { g[i][1] = g[i][0] * 10; }\nreturn g;",
    # a set outside any loop, and an array of rows as one fill makes (shared: refused below)
    "const grid = [['.', '.'], ['.', '.']];\ngrid[1][0] = '#';\nreturn grid;",
]


def test_cells_set_in_loops_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


REFUSED = [
    # rows JavaScript shares
    (
        "const row = [0, 0];\nconst g = [row, row];\n"
        "for (let i = 0; i < 2; i++) { g[i][0] = i + 1; }\nreturn g;",
        "a row may be held elsewhere",
    ),
    (
        "const g = Array(2).fill([0, 0]);\nfor (let i = 0; i < 2; i++) { g[i][0] = i + 1; }\n"
        "return g;",
        "a row may be held elsewhere",
    ),
    ("const g = Array(2).fill([0, 0]);\ng[0][0] = 7;\nreturn g;", "may be held elsewhere"),
    ("const g = new Array(2).fill({});\ng[0].a = 7;\nreturn g;", "may be held elsewhere"),
    (
        "const g = [[0, 0], [0, 0]];\nconst keep = [];\n"
        "for (let i = 0; i < 2; i++) { const r = g[i]; g[i][0] = i + 1; keep.push(r); }\n"
        "return keep;",
        "read whole",
    ),
    (
        "const g = [[0, 0], [0, 0]];\nconst first = g[0];\n"
        "for (let i = 0; i < 2; i++) { g[i][0] = i + 1; }\nreturn first;",
        "read whole",
    ),
    (
        "const g = [[0, 0], [0, 0]];\nfor (const x of [0, 1]) { g[x][x] = x + 1; g.push([x]); }\n"
        "return g;",
        "read whole",
    ),
    ("const g = [[0, 0], [0, 0]];\nfor (const x of [0, 1]) { g[x][0] = g; }\nreturn 1;", "whole"),
    (
        "const g = [[0, 0], [0, 0]];\nfor (const row of g) { g[0][0] += 1; }\nreturn g;",
        "read whole",
    ),
    (
        "const g = [[0, 0], [0, 0]];\nfor (const x of [0, 1]) { g[x][0] = 1; g[x].sort(); }\n"
        "return g;",
        "read whole",
    ),
    (
        "function f(r) { r.push(1); }\nconst g = [[0], [0]];\n"
        "for (const x of [0, 1]) { g[x][0] = 1; }\nreturn g;",
        "defines functions",
    ),
    # past the end (holes in Node), no item's index, a row missing (a TypeError in Node)
    *(
        (f"const g = [[0, 0], [0, 0]];\nfor (let i = 0; i < {n}; i++) {{ {s} }}\nreturn g;", says)
        for n, s, says in [
            (2, "g[i][5] = 1;", "past"),
            (2, "g[i][-1] = 1;", "-1"),
            (2, "g[i][0.5] = 1;", "0.5"),
            (3, "g[i][0] = 1;", "2"),
        ]
    ),
    ("const g = [[0, 0]];\nfor (const k of ['a', '__proto__']) { g[0][k] = 1; }\nreturn g;", "'a'"),
    ("const g = ['..', '..'];\nfor (let i = 0; i < 2; i++) { g[i][0] = '#'; }\nreturn g;", "text"),
    # a row's bound the loop may change (a cell not at the loop's own counter; Node loops on)
    (
        "const g = [[0, 0], [0, 0]];\nfor (let i = 0; i < 2; i++) {\n"
        "  for (let j = 0; j < g[i].length; j++) { g[i][j + 1] = 1; }\n}\nreturn g;",
        "reads `g`",
    ),
    (
        "const g = [[0], [1]];\nfor (let i = 0; i < 2; i++) {\n"
        "  for (let j = 0; j < g[i].length; j++) { g[i].push(j); }\n}\nreturn g;",
        "reads `g`",
    ),
]
#: the refusals Node answers (the last two never end there)
ANSWERED = [text for text, _ in REFUSED[:-2]]


@pytest.mark.parametrize(("text", "says"), REFUSED)
def test_what_javascript_shares_or_throws_on_is_refused(text: str, says: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, (text, out.value)
    assert out.error.code != "internal_error", out.message
    assert says in (out.message or ""), out.message


def test_no_program_here_is_answered_otherwise_than_node() -> None:
    verdicts = check(PROGRAMS + ANSWERED, RT)
    assert not [v for v in verdicts if v.kind in ("wrong", "crash")], verdicts
    assert sum(v.kind == "same" for v in verdicts) == len(PROGRAMS)


def _dp(n: int) -> str:
    return (
        f"const N = {n};\nconst dp = Array.from({{length: N + 1}}, () => Array(N + 1).fill(0));\n"
        "for (let i = 1; i <= N; i++) {\n  for (let j = 1; j <= N; j++) {\n"
        "    dp[i][j] = Math.max(dp[i - 1][j], dp[i][j - 1]) + 1;\n  }\n}\nreturn dp[N][N];"
    )


@pytest.mark.parametrize("n", [30, 100, 300])
def test_a_table_fills_in_steps_linear_in_its_cells(n: int) -> None:
    """Each cell's set changes its row in place: about 4 steps a cell at 30 by 30 and at 300
    by 300 (90,000 sets); a copy of the row per set would visit its n items each time."""
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=8 * n * n, deadline=600.0))
    out = rt.run(_dp(n), lang="plan")
    assert out.status == "success", out.message
    assert out.value == 2 * n - 1


def test_pushes_onto_rows_stay_within_the_budget() -> None:
    n = 20_000
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=8 * n, deadline=600.0))
    text = (
        "const t = [[], [], []];\nfor (const x of xs) { t[x % 3].push(x); }\n"
        "return t[0].length + t[1].length + t[2].length;"
    )
    out = rt.run(text, lang="plan", context={"xs": list(range(n))})
    assert out.status == "success", out.message
    assert out.value == n


#: the parts of the random programs (tables, loops, sets, reads)
_TABLES = [
    "[[0, 1], [2, 3]]",
    "[[1, 2, 3], [4, 5, 6], [7, 8, 9]]",
    "Array.from({length: 3}, () => Array(2).fill(0))",
    "Array.from({length: 2}, (_, i) => [i, i * 2, 0])",
    "[[], [1]]",
    "[['a', 'b'], ['c', 'd']]",
    "[[null, 1], [0, '']]",
    "Array(2).fill([0, 0])",
]
_LOOPS = [
    ("for (let i = 0; i < g.length; i++) {\n  for (let j = 0; j < g[i].length; j++) {\n", "}\n}"),
    ("for (let i = 0; i < 2; i++) {\n  for (let j = 0; j < 2; j++) {\n", "}\n}"),
    ("for (const x of nums) {\n  const i = Math.abs(Math.trunc(x)) % 2, j = x > 2 ? 1 : 0;\n", "}"),
    ("nums.forEach((x, i0) => {\n  const i = i0 % 2, j = 0;\n", "});"),
    ("for (let i = 0; i < 2; i++) {\n  const j = i;\n", "}"),
]
_SETS = [
    "g[i][j] = i + j;", "g[i][j] += 1;", "g[i][j]++;", "g[i][j] = g[1 - i][j] ?? 7;",
    "g[i][j] *= 2;", "g[i][j] ??= 5;", "g[i][j] ||= 'x';", "g[j][i] = 'v';", "g[i][-1] = 0;",
    "g[i + 1][j] = 1;", "if (g[i][j]) g[i][j] = 0;", "g[i][j] = g[i].length;",
    "out.push(g[i][j]);", "const r = g[i]; out.push(r);", "if (i > 0) continue;",
    "g[i][j] -= g[j][i];", "g[i][j] = [i];", "out.push(g[i].length);",
]  # fmt: skip
#: sets that add an item to a row (not under a loop whose bound is the row's length: Node would
#: go on for ever)
_GROWING = ["g[i].push(i);", "g[i][j + 1] = 0;", "g[i][g[i].length] = 1;", "g[i].push(j, 0);"]
_RESULTS = ["g", "[g, out]", "g.map(r => r.join('|'))", "g[1][0]", "g.flat().length"]


def _program(seed: int) -> str:
    rng = random.Random(seed)
    head, tail = rng.choice(_LOOPS)
    sets = _SETS if "g[i].length" in head else _SETS + _GROWING
    body = "\n".join("    " + rng.choice(sets) for _ in range(rng.randint(1, 3)))
    return (
        f"const g = {rng.choice(_TABLES)};\nconst out = [];\n{head}{body}\n{tail}\n"
        f"return {rng.choice(_RESULTS)};"
    )


def test_random_tables_give_nodes_answer_or_fail() -> None:
    verdicts = check([_program(seed) for seed in range(300)], RT)
    bad = [v for v in verdicts if v.kind in ("wrong", "crash")]
    assert not bad, bad[:3]
    assert sum(v.kind == "same" for v in verdicts) >= 60, Counter(v.kind for v in verdicts)


#: a `reduce` whose step makes a record's computed field (`{...(acc[k] ?? {}), [j]: v}`):
#: the record changes in place when this reduce made it
REDUCED = [
    "return people.reduce((acc, p) => ({...acc, [p.city]: {...(acc[p.city] ?? {}), "
    "[p.name]: p.age}}), {});",
    "return people.reduce((acc, p) => {\n  acc[p.city] = {...(acc[p.city] ?? {}), [p.name]: p.age};"
    "\n  return acc;\n}, {});",
    "return words.reduce((acc, w) => ({...acc, [w.length % 2]: {...(acc[w.length % 2] || {}), "
    "[w]: w.length}}), {});",
    # a record of the initial value, and one a name holds: copied, never changed
    "const base = {x: 1};\nconst r = words.reduce((acc, w) => ({...acc, [w.length % 2]: "
    "{...(acc[w.length % 2] ?? base), [w]: 1}}), {});\nreturn [r, base];",
    "const init = {0: {a: 1}};\nconst r = words.reduce((acc, w) => ({...acc, [w.length % 2]: "
    "{...(acc[w.length % 2] ?? {}), [w]: 1}}), init);\nreturn [r, init];",
    # the record read whole in the step (as it was before the change)
    "const r = words.reduce((acc, w) => {\n  const k = w.length % 2;\n  const old = acc[k];\n"
    "  return {...acc, [k]: {...(acc[k] ?? {}), [w]: Object.keys(old ?? {}).length}};\n}, {});\n"
    "return r;",
    "const r = nums.reduce((acc, x) => ({...acc, [x > 2 ? 'big' : 'small']: "
    "{...(acc[x > 2 ? 'big' : 'small'] ?? {}), [String(x)]: "
    "((acc[x > 2 ? 'big' : 'small'] ?? {})[String(x)] ?? 0) + 1}}), {});\nreturn r;",
    # the statement forms a loop's body and a step write (SPEC 10, "Aggregating into records")
    "return people.reduce((acc, p) => {\n  acc[p.city] ??= {};\n  acc[p.city][p.name] = p.age;\n"
    "  return acc;\n}, {});",
    "return people.reduce((acc, p) => {\n  const k = p.city;\n  acc[k] ??= {n: 0, items: []};\n"
    "  acc[k].items.push(p.name);\n  acc[k].n += 1;\n  return acc;\n}, {});",
]


def test_records_a_reduce_makes_give_what_node_gives() -> None:
    runs_as_in_node(REDUCED, RT)


@pytest.mark.parametrize("n", [1_000, 10_000, 100_000])
def test_a_reduce_of_records_grows_linearly(n: int) -> None:
    """One record of n keys, made by `{...(acc[k] ?? {}), [j]: v}` per item: changed in place
    (a copy per step would cost n squared: 100,000 items took about 2 minutes)."""
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=10 * n, deadline=600.0))
    text = (
        "const r = ps.reduce((acc, p) => ({...acc, [p.city]: {...(acc[p.city] ?? {}), "
        "[p.name]: p.age}}), {});\nreturn Object.keys(r.c).length;"
    )
    ps = [{"city": "c", "name": f"n{i}", "age": i} for i in range(n)]
    out = rt.run(text, lang="plan", context={"ps": ps})
    assert out.status == "success", out.message
    assert out.value == n


def test_a_list_set_beside_its_pushes_says_to_make_it_with_the_record() -> None:
    text = (
        "const t = {};\nfor (const p of people) {\n  const k = p.city;\n  t[k] ??= {n: 0};\n"
        "  t[k].items ??= [];\n  t[k].items.push(p.name);\n  t[k].n += 1;\n}\nreturn t;"
    )
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure", out.value
    assert "pushed onto and set" in (out.message or "")
    assert "t[k] ??= {n: 0, items: []};" in (out.message or ""), out.message
