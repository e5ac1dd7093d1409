"""Programs models write that were refused with a misleading message: a `reduce` whose step
holds statements inside a larger expression, a change to a cell of data the run was given, a
text given to `Object.assign`, `async function*`, a conditional `splice`, a reviver or replacer
function of JSON, a class. Each now runs to Node's value (checked against Node) or is refused
with what is wrong, where (line, column and caret) and what to write; and what the hints say
runs to Node's value."""

from __future__ import annotations

import re

import pytest

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()


def _refused(text: str, context: dict[str, object] | None = None) -> str:
    out = RT.run(text, lang="plan", context=CONTEXT if context is None else context)
    assert out.status == "failure" and out.error is not None, (text, out.value)
    assert out.error.code != "internal_error", out.message
    message = out.message or ""
    assert "Traceback" not in message and "unexpectedly" not in message, message
    return message


def _at(message: str, line: int, column: int) -> None:
    assert re.search(rf"\bline {line}, column {column}\b", message), message
    assert "^" in message and re.search(r"(?i)hint", message), message


def test_a_reduce_statement_with_any_tail_runs_as_in_node() -> None:
    """`const NAME = R.reduce((acc, x) => { ...statements; return acc; }, {...})TAIL;` takes
    any rest of the expression after the call (it was member reads and calls only)."""
    texts = [
        "const r = people.reduce((acc, p) => { if (p.age > 5) { acc.big += 1; } else "
        "{ acc.small += 1; } return acc; }, {big: 0, small: 0}).big * 2;\nreturn r;",
        "const avg = people.reduce((acc, p) => { acc.s += p.age; acc.c++; return acc; }, "
        "{s: 0, c: 0}).s / people.length;\nreturn avg;",
        "const r = nums.reduce((acc, x) => { acc.push(x * 2); return acc; }, [])"
        ".map(v => v + 1).join('-') + '!';\nreturn r;",
        "const acc = 5;\nconst r = nums.reduce((acc, x) => { acc.push(x); return acc; }, [])"
        ".length + acc;\nreturn r;",
        "return people.reduce((acc, p) => { acc.s += p.age; return acc; }, {s: 0}).s > 20 "
        "? 'big' : 'small';",
        "const t = people.reduce((acc, p) => { for (const t of p.tags) acc[t] = (acc[t] || 0)"
        " + 1; return acc; }, {}), u = 3;\nreturn [t, u];",
        "let cnt = nums.reduce((acc, x) => { if (x > 0) acc.push(x); return acc; }, [])"
        ".length || -1;\nreturn cnt;",
        "const k = Object.keys(people.reduce((acc, p) => { acc[p.name] = p.age; return acc; }, "
        "{})).length * 10;\nreturn k;",
        "const r = nums.reduce((acc, x) => { acc.push(x); return acc; }, [])"
        ".concat(nums.reduce((acc, x) => { acc.push(-x); return acc; }, []));\nreturn r;",
        # without semicolons
        "const avg = people.reduce((acc, p) => { acc.s += p.age; acc.c++; return acc; }, "
        "{s: 0, c: 0}).s / people.length\nreturn avg",
        "const avg = people.reduce((acc, p) => { acc.s += p.age; acc.c++; return acc }, "
        "{s: 0, c: 0}).s / people.length\nreturn avg",
        "const r = nums.reduce((acc, x) => { if (x > 2) return acc; acc.push(x); return acc },"
        " [])\nreturn r",
    ]
    runs_as_in_node(texts, RT)


def test_a_reduce_inside_an_arrow_body_with_foreach_runs_as_in_node() -> None:
    """An arrow's block body that calls `forEach` reads as a function's (as with `if` or
    `for`): the `reduce` statement inside it, read as its loop, runs."""
    texts = [
        "return people.map(q => { const r = people.reduce((acc, p) => { if (p.age > q.age) "
        "acc.push(p.name); return acc; }, []); return r; });",
        "return people.map(q => { const acc = []; people.forEach(p => { if (p.age > q.age) "
        "acc.push(p.name); }); return acc; });",
        "return people.map(q => { let s = 0; nums.forEach(x => { s += x * q.age; }); return s; });",
    ]
    runs_as_in_node(texts, RT)


@pytest.mark.parametrize(
    ("text", "where", "says", "hint"),
    [
        (
            "return [people.reduce((acc, p) => { acc.s += p.age; acc.c++; return acc; }, "
            "{s: 0, c: 0})];",
            (1, 37),
            "changes a member of `acc` in place: inside an expression",
            "give the `reduce` its own line and read its name",
        ),
        (
            "return {c: people.reduce((acc, p) => { let v = p.age; acc.push(v); v += 1; "
            "return acc; }, [])};",
            (1, 68),
            "changes `v`, a name of the arrow function's body",
            "const v = test ? a : b;",
        ),
        (
            "return {ids: nums.reduce((acc, x) => { if (x > 1) acc.push(x); return acc; }, [])};",
            (1, 51),
            "`acc` is a parameter of the arrow function, which this statement changes in place",
            "give a `reduce` a statement of its own",
        ),
        (
            "return people.map(p => { if (p.age > 1) p.age++; return p; });",
            (1, 41),
            "`p` is a parameter of the arrow function",
            "return a new object: p => ({...p, key: value})",
        ),
    ],
)
def test_a_change_in_an_arrow_inside_an_expression_says_what_it_changes(
    text: str, where: tuple[int, int], says: str, hint: str
) -> None:
    """These were "an arrow function's body holds `const name = expr;` lines ..." or "`acc`
    is changed in the statement but not defined before it" (with `const acc = [];` to write)."""
    message = _refused(text)
    assert says in message and hint in message, message
    assert "holds `const name = expr;` lines" not in message, message
    assert "not defined before it" not in message, message
    _at(message, *where)


def test_what_the_reduce_hints_say_runs_as_in_node() -> None:
    texts = [
        "return {c: people.reduce((acc, p) => acc + p.age, 0)};",
        "const totals = people.reduce((acc, p) => { acc.s += p.age; acc.c++; return acc; }, "
        "{s: 0, c: 0});\nreturn [totals];",
        "return {c: people.reduce((acc, p) => { let v = p.age; if (v > 5) v = v * 10; "
        "return acc + v; }, 0)};",
        "const ids = nums.reduce((acc, x) => { if (x > 1) acc.push(x); return acc; }, []);\n"
        "return {ids};",
    ]
    runs_as_in_node(texts, RT)


GRID: dict[str, object] = {"input": {"grid": [[1, 2, 3], [4, 5, 6]], "rows": [[1], [2]]}}


@pytest.mark.parametrize(
    ("text", "where", "says", "hint"),
    [
        (
            "const g = input.grid;\nfor (let i = 0; i < g.length; i++) { for (let j = 0; "
            "j < g[i].length; j++) { if (g[i][j] % 2 === 0) g[i][j] = 0; } }\nreturn g;",
            (1, 7),
            "`g[i][j]` changes a cell of a row of `g` in place, and `g` is not a grid this "
            "program made",
            "const g = structuredClone(input.grid);",
        ),
        (
            "const rows = input.rows;\nrows[0].push(5);\nreturn rows;",
            (2, 1),
            "`rows` holds data the run was given",
            "const rows = structuredClone(input.rows);",
        ),
        (
            "const g = input.grid.map(r => r);\ng[0][1] = 9;\nreturn g;",
            (2, 1),
            "a callback's values that are not new, as `xs.map(p => p.tags)`",
            "const g = structuredClone(input.grid.map(r => r));",
        ),
        (
            "const g = input.grid.map(r => r);\nfor (let i = 0; i < g.length; i++) "
            "g[i][0] = 0;\nreturn g;",
            (2, 36),
            "a callback's row that is not a new array",
            "const g = structuredClone(input.grid.map(r => r));",
        ),
    ],
)
def test_a_change_to_data_the_run_was_given_says_to_copy_it(
    text: str, where: tuple[int, int], says: str, hint: str
) -> None:
    message = _refused(text, GRID)
    assert says in message and hint in message, message
    assert "const g = {};" not in message, message  # (the record's hint, before)
    _at(message, *where)


def test_the_copy_the_hints_write_runs_as_in_node() -> None:
    """`structuredClone` of the data, and a callback's copy of each row or record, `xs.map(r
    => [...r])`, `xs.map(p => ({...p}))`, `xs.map(r => r.slice())`: the parts a change reaches
    are new (the parts below them may be the data's own: no change reaches them)."""
    texts = [
        "const g = people.map(p => [...p.tags]);\ng[0].push('z');\nreturn [g, people];",
        "const g = people.map(p => ({...p}));\ng[0].name = 'Z';\nreturn [g, people];",
        "const g = [people].map(ps => [...ps]);\ng[0][0] = 'Q';\nreturn [g, people];",
        "const g = people.map(p => [p.age, p.tags]);\nfor (let i = 0; i < g.length; i++) "
        "g[i][0] = i;\nreturn [g, people];",
        "const base = [1, 2];\nconst g = people.map(p => [...base]);\ng[0].push(3);\n"
        "return [g, base];",
        "const rows = people.map(p => p.tags).map(r => r.slice());\nrows[1].push('n');\n"
        "rows[1].push('m');\nreturn [rows, people];",
        "const m = [[1, 2], [3]].map(r => [...r]);\nfor (let i = 0; i < m.length; i++) { for "
        "(let j = 0; j < m[i].length; j++) m[i][j] *= 2; }\nreturn m;",
        "const g = structuredClone(people.map(p => [p.age, p.tags.length]));\n"
        "for (let i = 0; i < g.length; i++) { for (let j = 0; j < g[i].length; j++) "
        "{ if (g[i][j] === 0) g[i][j] = -1; } }\nreturn g;",
        "const rows = structuredClone(people.map(p => p.tags));\nrows[0].push('z');\nreturn rows;",
        "const g = structuredClone(people.map(p => [p.age]));\ng[1][0] = 9;\nreturn g;",
    ]
    runs_as_in_node(texts, RT)


@pytest.mark.parametrize(
    ("text", "where", "says", "hint"),
    [
        (
            "const a = {x: 1};\nObject.assign(a, 'hi');\nreturn a;",
            (2, 1),
            "each source of `Object.assign`, copies an object's members; this is a string",
            "Object.fromEntries([...xs].map((x, i) => [i, x]))",
        ),
        (
            "return {...data, ...[1, 2]};",
            (1, 8),
            "this is an array (JavaScript would copy its items",
            "Spread objects only",
        ),
        (
            "async function* gen() { yield 1; }\nreturn 1;",
            (1, 15),
            "Plan has no generator functions (`function*`, `async function*`)",
            "push into one in a loop and return it",
        ),
        (
            "const g = async function* () { yield 1; };\nreturn 1;",
            (1, 25),
            "Plan has no generator functions",
            "push into one in a loop",
        ),
        (
            "const m = {xs: nums.map(x => x * 2)};\nconst i = m.xs.indexOf(4);\n"
            "if (i !== -1) m.xs.splice(i, 1);\nreturn m;",
            (3, 15),
            "on a name holding an array the program made",
            "if (test) xs = xs.toSpliced(start, count, ...items);",
        ),
        (
            "const m = {xs: nums.map(x => x * 2)};\nif (m.xs.length) m.xs.shift();\nreturn m;",
            (2, 18),
            "shift() changes the array in place here",
            "if (test) xs = xs.slice(1);",
        ),
        (
            "return JSON.parse('{\"a\": 1}', (k, v) => v);",
            (1, 31),  # (at the reviver)
            "JSON.parse takes no reviver function in Plan",
            "parse first, then change the value",
        ),
        (
            "return JSON.stringify(data, (k, v) => v);",
            (1, 29),  # (at the replacer)
            "JSON.stringify takes no replacer function in Plan",
            "build the value to write first",
        ),
        (
            "const text = JSON.stringify({a: [1, (2)]},\n  (k, v) => (typeof v === 'number' "
            "? v * 2 : v), 2);\nreturn text;",
            (2, 3),
            "JSON.stringify takes no replacer function in Plan",
            "build the value to write first",
        ),
        (
            "return JSON.stringify(data, null, x => x);",
            (1, 35),  # (at the indentation)
            "JSON.stringify's third argument is the indentation",
            "JSON.stringify(v, null, 2)",
        ),
        (
            'return JSON.parse(`{"a": ${[1].map(x => x)}}`, function (k, v) { return v; });',
            (1, 48),
            "JSON.parse takes no reviver function in Plan",
            "parse first, then change the value",
        ),
        (
            "class A { constructor() { this.n = 1; } }\nreturn new A().n;",
            (1, 1),
            "Plan has no `class`",
            "keep the state in an object and write functions that take it",
        ),
    ],
)
def test_the_other_refusals_say_what_is_wrong_and_what_to_write(
    text: str, where: tuple[int, int], says: str, hint: str
) -> None:
    message = _refused(text)
    assert says in message and hint in message, message
    _at(message, *where)


def test_what_the_other_hints_say_runs_as_in_node() -> None:
    texts = [
        "return Object.fromEntries([...'hi'].map((x, i) => [i, x]));",
        "let xs = nums.map(x => x * 2);\nconst i = xs.indexOf(4);\n"
        "if (i !== -1) xs = xs.toSpliced(i, 1);\nreturn xs;",
        "let xs = nums.map(x => x * 2);\nif (xs.length) xs = xs.slice(1);\nreturn xs;",
        'const v = JSON.parse(\'{"a": 1, "b": 2}\');\n'
        "return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x * 10]));",
        "const counter = {n: 0};\nfunction inc(c) { return {...c, n: c.n + 1}; }\n"
        "return inc(inc(counter)).n;",
    ]
    runs_as_in_node(texts, RT)


@pytest.mark.parametrize(
    "text",
    [
        # the part changed is the data's own: JavaScript changes `people` too
        "const g = people.map(p => p.tags);\ng[0].push('z');\nreturn [g, people];",
        "const g = people.map(p => ({...p}));\ng[0].tags.push('Z');\nreturn [g, people];",
        "const g = [people].map(ps => [...ps]);\ng[0][0].name = 'Q';\nreturn [g, people];",
        "const g = people.map(p => [p.age, p.tags]);\nfor (let i = 0; i < g.length; i++) "
        "g[i][1].push(i);\nreturn [g, people];",
        "const base = [1, 2];\nconst g = people.map(p => base);\ng[0].push(3);\nreturn [g, base];",
        "const g = people.map(p => ({...p, tags: [...p.tags]}));\ng[0].tags.push('Z');\n"
        "return [g, people];",
    ],
)
def test_a_change_reaching_a_part_the_copy_shares_stays_refused(text: str) -> None:
    message = _refused(text)
    assert "held elsewhere" in message or "other values hold" in message, message


def test_a_part_sorted_or_reversed_in_place_runs_as_in_node() -> None:
    """`rows[1].sort(f);` at the top of a block is `rows[1]` set to its `toSorted(f)`, as a
    push is its `toSpliced` (it was "`sort()` reorders an array inside `rows` itself")."""
    texts = [
        "const rows = [[3, 1], [2, 1]];\nrows[1].sort();\nreturn rows;",
        "const rows = people.map(p => [...p.tags, 'a']);\nrows[0].sort();\nrows[2].reverse();"
        "\nreturn [rows, people];",
        "const o = {a: {xs: [3, 1, 2]}};\no.a.xs.sort((x, y) => y - x);\nreturn o;",
        "const m = [[1, 2], [3, 4]];\nm[1].reverse();\nm[0].sort((a, b) => b - a);\nreturn m;",
    ]
    runs_as_in_node(texts, RT)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("const t = {list: [10, 9, 1]};\nconst s = t.list;\nt.list.sort();\nreturn s;",
         "`t` is read before `t.list` changes a part of it"),
        ("const g = people.map(p => ({...p}));\ng[0].tags.sort();\nreturn g;",
         "that part may be held elsewhere"),
        ("const t = {list: 'ab'};\ntry { t.list.sort(); return 'no'; } catch (e) "
         "{ return e.message; }", "may not change a name outside it"),
    ],
)  # fmt: skip
def test_a_part_sorted_where_javascript_would_show_it_elsewhere_is_refused(
    text: str, says: str
) -> None:
    assert says in _refused(text)
