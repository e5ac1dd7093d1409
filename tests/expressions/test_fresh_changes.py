"""Changes in place Plan once refused where Node runs them, now Node's value, checked against
Node; and their neighbours, which could differ from Node's value, still refused with the reason:

- a call of the program's function whose every result is new at its top (`function mk() {
  return [1]; }`, then `a.push(5)`, `a.sort()`, `a[k] = v`, loop pushes): new data, as a
  tool's reply is (SPEC 10, "Changes outside loops"); `return base` anywhere in it, a
  parameter, a part of the result (`return [base]`, then `a[0].push(x)`) stay refused;
- `shift()`, `unshift(...)`, `splice(...)` as statements under an `if` and in loops, as `pop()`
  and `push(...)` run there (SPEC 10, "Loops");
- `let v = x; v += 1;` (`v++`, `v = v * 2`) in an arrow function's block body: a `let`;
- a sort (no comparator, or one that cannot throw) or reverse of what a `try` block declares,
  in a `try` block that returns (SPEC 10, the `try` bullet)."""

from __future__ import annotations

import pytest

from .corpus_checks import run_both

OWN_RESULTS = [
    "function mk() { return [1]; }\nconst a = mk();\na.push(5);\nreturn a;",
    "function mk() { return {a: 1}; }\nconst o = mk();\no.b = 2;\no['c'] = 3;\nreturn o;",
    "function mk(x) { return {...x}; }\nconst base = {t: [1]};\nconst o = mk(base);\n"
    "o.b = 2;\nreturn [o, base];",
    "const base = [1];\nfunction mk() { return [base]; }\nconst a = mk();\na.push(5);\n"
    "return [a, base];",
    "function mk(xs) { return xs.filter(x => x > 1); }\nconst a = mk([1, 2, 3]);\na.push(9);\n"
    "a.sort((x, y) => y - x);\na.reverse();\na.splice(0, 1);\nreturn a;",
    "async function load() {\n  const u = await get_user(1);\n  return [...u.tags];\n}\n"
    "const t = await load();\nt.push('x');\nreturn t;",
    "function mk(c) {\n  if (c) {\n    return [1];\n  }\n  return JSON.parse('[2]');\n}\n"
    "const a = mk(false);\na.push(3);\nreturn a;",
    "function mk() { return Object.entries({a: 1}); }\nconst a = mk();\n"
    "for (const x of [1, 2]) {\n  a.push([x, x]);\n}\nreturn a;",
    "function mk() { return {}; }\nconst g = mk();\nfor (const u of await list_users()) {\n"
    "  g[u.role] = (g[u.role] || 0) + 1;\n}\nreturn g;",
    "const base = [1];\nfunction mk() {\n  try {\n    return structuredClone(base);\n"
    "  } catch (e) {\n    return [];\n  }\n}\nconst a = mk();\na.push(5);\nreturn [a, base];",
    "function mk() { const r = [0]; r.push(1); return r; }\nconst a = mk();\na.push(2);\nreturn a;",
    "function mk() { return [3, 1, 2]; }\nconst a = mk();\na.sort();\na[0] = 7;\na.length = 2;\n"
    "return a;",
    "function mk() { return [1, 2]; }\nconst a = mk();\nfor (const x of [0]) {\n  a[x] = 9;\n}\n"
    "return a;",
    "const f = (v) => [v, v];\nconst a = f(3);\nconst b = f(4);\na.push(1);\nreturn [a, b];",
    "function mk() { return [1, 2, 3]; }\nconst a = mk();\na.splice(1, 1);\na.shift();\n"
    "a.unshift(0);\nreturn a;",
]

#: a program, and what its refusal says
OWN_REFUSED = [
    (
        "const base = [1];\nfunction mk() { return base; }\nconst a = mk();\na.push(5);\n"
        "return base;",
        "a result of the program's function `mk` may be a value the program holds elsewhere",
    ),
    (
        "function mk(c) { const r = [0]; if (c) { return r; } return c; }\nconst a = mk(true);\n"
        "a.push(3);\nreturn a;",
        "not every value it returns is a new one",
    ),
    (
        "function mk(xs) { return xs; }\nconst b = [3, 1];\nconst a = mk(b);\na.sort();\nreturn b;",
        "`a` is not an array the program made",
    ),
    (
        "const base = [1];\nfunction mk() { return [base]; }\nconst a = mk();\na[0].push(5);\n"
        "return [a, base];",
        "the program defines functions, which may hold that part",
    ),
    (
        "function mk(x) { return {...x}; }\nconst base = {t: [1]};\nconst o = mk(base);\n"
        "o.t.push(2);\nreturn [o, base];",
        "the program defines functions, which may hold that part",
    ),
    (
        "const a = mk();\na.push(5);\nfunction mk() { return [1]; }\nreturn a;",
        "may be a value the program holds elsewhere",
    ),
    (
        "function mk(f) { const a = f(); a.push(1); return a; }\nreturn mk(() => [2]);",
        "a result of the program's function `f`",
    ),
    (
        "function mk() { return {a: 1}; }\nconst a = mk();\na.pop();\nreturn a;",
        "cannot call `.slice()` on an object",  # (Node: a TypeError, `a.pop is not a function`)
    ),
    (
        "const base = [1];\nfunction mk() {\n  try {\n    return structuredClone(base);\n"
        "  } catch (e) {\n    return base;\n  }\n}\nconst a = mk();\na.push(5);\nreturn base;",
        "may be a value the program holds elsewhere",
    ),
]

RESHAPES = [
    "const xs = [1, 2, 3];\nconst c = true;\nif (c) xs.shift();\nreturn [xs, 1];",
    "function f(c) {\n  const xs = [1, 2, 3];\n  if (c) xs.shift();\n  return xs;\n}\n"
    "return [f(true), f(false)];",
    "const xs = [1, 2, 3];\nconst c = xs.length > 2;\nif (c) xs.splice(1, 1);\nreturn xs;",
    "const xs = [1, 2, 3];\nconst c = xs.length > 2;\nif (c) {\n  xs.unshift(9);\n} else {\n"
    "  xs.push(1);\n}\nreturn xs;",
    "const xs = [3, 4];\nconst i = xs.indexOf(4);\nif (i !== -1) xs.splice(i, 1);\nreturn xs;",
    "const xs = [1, 2, 3];\nconst ys = [...xs];\nfor (const x of ys) {\n"
    "  if (x > 1) xs.shift();\n}\n"
    "return {xs, ys};",
    "const xs = [1, 2, 3];\nfor (const x of [1, 2]) {\n  if (x > 1) xs.splice(0, 1, 5);\n}\n"
    "return {xs};",
    "const r = [1, 2, 3].map(x => {\n  const xs = [1, 2, 3];\n  if (x > 1) xs.shift();\n"
    "  return xs;\n});\nreturn r;",
    "const xs = [5, 6, 7];\nlet n = 0;\nwhile (xs.length > 0 && n < 5) {\n  n++;\n"
    "  if (n % 2) xs.shift();\n  else xs.pop();\n}\nreturn [xs, n];",
    "const q = [3, 1, 2];\nconst out = [];\nfor (const r of [1, 2, 3, 4]) {\n  if (q.length) {\n"
    "    out.push(q[0]);\n    q.shift();\n  } else {\n    q.unshift(r * 10);\n  }\n}\n"
    "return {q, out};",
    "const xs = [1, 2, 3, 4, 5];\nfor (const x of [1, 2]) {\n  xs.splice();\n  xs.splice(-2);\n"
    "  xs.splice(0, undefined, 'a');\n  xs.splice(1, 1.5);\n  xs.splice(-9, -1, 'b');\n}\n"
    "return xs;",
    "const xs = [1, 2, 3];\nfor (const x of [1, 2]) {\n"
    "  xs.splice(xs.indexOf(2), 1, x, ...xs);\n}\n"
    "return xs;",
    "const xs = [];\nfor (const x of [1, 2, 3]) {\n  if (x === 2) continue;\n"
    "  xs.unshift(x, x * 2);\n"
    "  if (x > 2) break;\n}\nreturn xs;",
    "const users = await list_users();\nconst names = users.map(u => u.name);\n"
    "for (const u of users) {\n  if (!u.active) names.splice(names.indexOf(u.name), 1);\n}\n"
    "return names;",
    "const xs = [1, 2, 3];\ntry {\n  if (xs.length) xs.splice(0, 1);\n} catch (e) {\n"
    "  return 'no';\n}\nreturn xs;",
]

RESHAPES_REFUSED = [
    (
        "const xs = [1, 2, 3];\nconst ys = xs;\nconst c = true;\nif (c) xs.shift();\nreturn ys;",
        "`xs` is read before the statement changes it",
    ),
    (
        "const xs = [1, 2, 3];\nconst ys = xs;\nfor (const x of [1]) {\n"
        "  if (x) xs.splice(0, 1);\n}\n"
        "return ys;",
        "`xs` is read before the loop changes it",
    ),
    (
        "const c = true;\nconst xs = (await list_users()).length ? input_list : [];\n"
        "if (c) xs.unshift(0);\nreturn xs;",
        "which must start as an array literal",
    ),
    (
        "const grid = [[1, 2], [3, 4]];\nfor (const row of grid) {\n"
        "  if (row[0] > 1) row.shift();\n}\n"
        "return grid;",
        "`row` is the loop's variable",
    ),
    (
        "const m = {xs: [1, 2]};\nif (m.xs.length) m.xs.shift();\nreturn m;",
        "shift() changes the array in place here",
    ),
    (
        "const users = await list_users();\nfor (const u of users) {\n"
        "  if (!u.active) users.splice(users.indexOf(u), 1);\n}\nreturn users.length;",
        "the loop's list reads `users`, which the loop changes",
    ),
]

ARROW_LETS = [
    "const xs = [1, 2, 3];\nreturn xs.map(x => { let v = x; v += 1; return v; });",
    "const xs = [1, 2, 3];\nconst r = xs.map(x => { let v = 0; v++; v = v * 2; return v + x; });\n"
    "return r;",
    "const xs = [1, 2, 3];\n"
    "return xs.map(x => { let v = x; let w = v; w += v; v++; return [v, w]; });",
    "const xs = [1, 2, 3];\nreturn xs.map(x => { let v = x, w = 1; w += v; return w; });",
    "const xs = ['a', 'b'];\n"
    "return xs.map((x, i) => { let s = x; s += '-'; s = s.toUpperCase(); return s + i; });",
    "const xs = [1, 2, 3];\nreturn xs.reduce((acc, x) => { let v = acc; v += x; return v; }, 0);",
    "return [1, 2].reduce((acc, x) => { acc += x; return acc; });",
    "const users = await list_users();\n"
    "return {c: users.reduce((acc, p) => { acc += p.age; return acc; }, 0)};",
    "const users = await list_users();\n"
    "const total = users.reduce((acc, p) => { acc += p.age; return acc; }, 0) / 3;\nreturn total;",
    "const users = await list_users();\n"
    "return {c: users.reduce((acc, p) => { let v = p.age; v += 1; return acc + v; }, 0)};",
    "const xs = [1, 2, 3];\nreturn xs.filter(x => { let k = x; --k; return k > 0; });",
    "const r = await Promise.all([1].map(async (id) => {\n  const t = await get_user(id);\n"
    "  t.tags.sort();\n  return t.tags;\n}));\nreturn r;",
]

ARROW_LETS_REFUSED = [
    (
        "const xs = [1, 2, 3];\nconst r = xs.reduce((acc, x) => { let v = x * 2; acc.push(v); "
        "v += 1; acc.push(v); return acc; }, []);\nreturn r;",
        "`let` reads as `const`",
    ),
]

TRY_SORTS = [
    "try {\n  const t = await get_user(1);\n  t.tags.sort();\n  return t.tags;\n} catch (e) {\n"
    "  return 'err';\n}",
    "try {\n  const t = await get_user(1);\n  t.tags.sort((a, b) => a < b ? 1 : a > b ? -1 : 0);\n"
    "  return t.tags;\n} catch (e) {\n  return 'err';\n}",
    "try {\n  const t = await get_user(1);\n  t.tags.reverse();\n  return t;\n} catch (e) {\n"
    "  return 'err';\n}",
    "try {\n  const t = await get_user(1);\n  t.name.sort();\n  return t.name;\n} catch (e) {\n"
    "  return e.message;\n}",
    "try {\n  const t = (await list_users()).map(u => u.age);\n  t.sort((a, b) => b - a);\n"
    "  return t;\n} catch (e) {\n  return 'err';\n}",
    "async function main() {\n  try {\n    const t = await list_users();\n    t.reverse();\n"
    "    return t.map(u => u.id);\n  } catch (e) {\n    return [];\n  }\n}\nreturn await main();",
]

TRY_SORTS_REFUSED = [
    (
        "try {\n  const t = await get_user(1);\n  t.tags.sort((a, b) => a.localeCompare(b));\n"
        "  return t.tags;\n} catch (e) {\n  return 'err';\n}",
        "a `try` block that returns may not change a name outside it here",
    ),
    (
        "const base = [3, 1, 2];\ntry {\n  const u = await get_user(1);\n  base.sort();\n"
        "  return [base, u.name];\n} catch (e) {\n  return base;\n}",
        "a `try` block that returns may not change a name outside it here",
    ),
    (
        "const base = [3, 1, 2];\ntry {\n  const t = base;\n  t.sort();\n  return t;\n"
        "} catch (e) {\n  return 'err';\n}",
        "`t` is not an array the program made",
    ),
]


@pytest.mark.parametrize(
    "programs",
    [OWN_RESULTS, RESHAPES, ARROW_LETS, TRY_SORTS],
    ids=["own-results", "reshapes", "arrow-lets", "try-sorts"],
)
def test_the_changes_give_node_s_value(programs: list[str]) -> None:
    verdicts = run_both(programs)
    assert [v.kind for v in verdicts] == ["same"] * len(programs), [
        (programs[int(v.name)], v.kind, v.detail) for v in verdicts if v.kind != "same"
    ]


@pytest.mark.parametrize(
    "cases",
    [OWN_REFUSED, RESHAPES_REFUSED, ARROW_LETS_REFUSED, TRY_SORTS_REFUSED],
    ids=["own-results", "reshapes", "arrow-lets", "try-sorts"],
)
def test_the_neighbours_stay_refused_with_the_reason(cases: list[tuple[str, str]]) -> None:
    verdicts = run_both([text for text, _ in cases])
    for (text, says), v in zip(cases, verdicts, strict=True):
        assert v.kind == "refused", (text, v.kind, v.detail)
        assert says in v.detail, (text, v.detail)
