"""A loop that sets members of its items (SPEC 10, "Loops": "Changing the loop's items"):
`for (const item of items) item.total = item.price * item.qty;`, `rows.forEach(r => {...})`,
`for (let i = 0; i < xs.length; i++) xs[i].rank = i + 1;`. JavaScript changes the objects in
the array; each accepted program gives Node's answer, and each way another name could see the
change is refused with what to write."""

from __future__ import annotations

import pytest

from dialectic import FunctionDescription, Limits, Runtime
from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import parse_plan

from .program_oracle import check, runs_as_in_node, runtime

RT: Runtime = runtime()

CART = "const items = await echo([{price: 2, qty: 3}, {price: 1.5, qty: 4, total: 0}]);\n"
USERS = "const users = await echo(people);\n"

ACCEPTED = [
    # the common case: a call's result, each shape of change
    CART + "for (const item of items) { item.total = item.price * item.qty; }\nreturn items;",
    CART + "for (const item of items) item.total = item.price * item.qty;\nreturn items;",
    CART + "for (let item of items) { item.qty += 1; item.price *= 2; }\nreturn items;",
    CART + "for (const item of items) { item.total ??= 9; item.note ||= 'n'; }\nreturn items;",
    CART + "for (const item of items) { item.total &&= 5; item.qty &&= 0; }\nreturn items;",
    CART + "for (const item of items) { item.qty++; ++item.price; item.qty--; }\nreturn items;",
    CART + "for (const item of items) { item['a' + item.qty] = 1; }\nreturn items;",
    CART + "for (const item of items) { delete item.price; item.price = 1; }\nreturn items;",
    CART + "for (const item of items) { delete item['qty']; }\nreturn items;",
    CART + "for (const item of items) { item[2] = 'two'; item[10] = 'ten'; item.z = 0; }\n"
    "return items.map(i => Object.keys(i));",
    CART + "for (const item of items) { item.qty = 7; item.price = item.qty; }\nreturn items;",
    USERS + "for (const u of users) { if (u.age >= 18) u.adult = true; u.tags.push('seen'); }\n"
    "return users;",
    USERS + "for (const u of users) { u.tags.push(u.name, ...u.tags); }\nreturn users;",
    USERS + "for (const u of users) { u.tags.push(); u.n = u.tags.length; }\nreturn users;",
    USERS + "for (const u of users) { if (u.city) { u.where = u.city; } else u.where = '?'; }\n"
    "return users;",
    USERS + "for (const u of users) {\n  const a = u.age * 2;\n  u.double = a;\n"
    "  if (a > 10) u.big = true;\n}\nreturn users;",
    USERS + "for (const u of users) { u.label = `${u.name} (${u.age})`; }\n"
    "return users.map(u => u.label);",
    USERS + "for (const u of users) { u.keys = Object.keys(u).length; }\nreturn users;",
    USERS + "for (const u of users) { u.x = 1; u.has = 'x' in u; }\nreturn users;",
    USERS + "for (const u of users) { u.copy = {...u}; }\nreturn users;",
    # with accumulators
    USERS + "let total = 0;\nfor (const u of users) { u.double = u.age * 2; total += u.double; }\n"
    "return [users, total];",
    USERS + "const names = [];\nfor (const u of users) { u.seen = 1; names.push(u.name); }\n"
    "return {users, names};",
    USERS + "const seen = [];\nfor (const u of users) { u.seen = 1; seen.push(u); }\n"
    "return [seen, users];",
    USERS + "const by = {};\nfor (const u of users) { u.k = u.name[0]; by[u.k] = u.age; }\n"
    "return [by, users];",
    USERS + "let c = 0;\nfor (const u of users) { c++; u.i = c; if (c > 1) u.late = true; }\n"
    "return users;",
    # with an awaited call in the body
    USERS + "for (const u of users) { u.echoed = await echo(u.name); }\nreturn users;",
    USERS + "for (const u of users) { const r = await later(u.age); u.r = r + 1; }\nreturn users;",
    USERS + "for (const u of users) { u.x = await slow({n: u.name}); u.y = u.x.n; }\nreturn users;",
    # break and continue
    USERS + "for (const u of users) { if (u.age < 10) continue; u.old = true; }\nreturn users;",
    USERS + "for (const u of users) { u.a = 1; if (u.age < 10) break; u.b = 2; }\nreturn users;",
    USERS + "for (const u of users) { u.a = 1; if (u.name === 'Ada') { u.c = 3; continue; }"
    " u.b = 2; }\nreturn users;",
    USERS + "for (const u of users) { if (u.name === 'Cy') break; u.before = true; }\n"
    "return users;",
    USERS + "for (const u of users) { u.n = 0; const tags = u.tags; for (const t of tags) "
    "u.n += t.length; }\nreturn users;",
    USERS + "let t = 0;\nfor (const u of users) { for (const g of u.tags) t++; u.t = t; }\n"
    "return users;",
    USERS + "for (const u of users) { let c = 0; for (const g of u.tags) { if (g === 'y') "
    "break; c++; } u.c = c; }\nreturn users;",
    # forEach
    "const rows = await echo([{first: 'a', last: 'b', tmp: 1}, {first: 'c', last: 'd'}]);\n"
    "rows.forEach(r => { r.label = `${r.first} ${r.last}`; delete r.tmp; });\nreturn rows;",
    USERS + "users.forEach(u => u.n = u.name.length);\nreturn users;",
    USERS + "users.forEach((u, i) => { u.i = i; });\nreturn users;",
    USERS + "users.forEach((u) => { if (u.age > 10) return; u.young = true; });\nreturn users;",
    USERS + "users.forEach(u => { u.tags.push('a'); });\nreturn users;",
    # counting loops
    USERS + "for (let i = 0; i < users.length; i++) { users[i].rank = i + 1; }\nreturn users;",
    USERS + "for (let i = 0; i < users.length; ++i) users[i].odd = i % 2 === 1;\nreturn users;",
    USERS + "for (let i = 0; i < users.length; i += 1) { users[i] = {...users[i], k: i}; }\n"
    "return users;",
    USERS + "for (let i = 0; i < users.length; i++) { if (i === 1) continue; "
    "users[i].name += '!'; }\nreturn users;",
    # literals and `.map` results
    "const xs = [{a: 1}, {a: 2, b: [1]}];\nfor (const x of xs) { x.b = x.a * 10; }\nreturn xs;",
    "const xs = [{a: 1, t: []}, {a: 2, t: [1]}];\nfor (const x of xs) x.t.push(x.a);\nreturn xs;",
    "const xs = [];\nfor (const x of xs) { x.a = 1; }\nreturn xs;",
    "const xs = people.map(p => ({...p, k: 1}));\nfor (const x of xs) { x.k += x.age; }\n"
    "return [xs, people];",
    "const xs = nums.map((v, i) => ({v, i}));\nfor (const x of xs) { x.sq = x.v * x.v; "
    "delete x.i; }\nreturn xs;",
    # nested objects and missing members
    "const xs = await echo([{a: {b: 1}}, {a: {b: 2}}]);\nfor (const x of xs) { x.a = {...x.a, "
    "c: 3}; }\nreturn xs;",
    USERS + "for (const u of users) { u.city ??= 'none'; u.zip ??= null; }\nreturn users;",
    USERS + "for (const u of users) { u['tags'] = u.tags.length; }\nreturn users;",
    # the name read after the loop
    USERS + "for (const u of users) u.x = u.age > 5;\nconst kept = users.filter(u => u.x);\n"
    "return kept.length;",
    USERS + "for (const u of users) { u.x = 1; }\nreturn JSON.stringify(users);",
    "let xs = await echo(people);\nfor (const x of xs) { x.q = 1; }\nxs = xs.slice(1);\nreturn xs;",
    # inside a function, and the item's length read in the body
    "function tag(list) {\n  return list.length;\n}\nasync function run() {\n"
    "  const xs = await echo(people);\n  for (const x of xs) { x.n = xs.length; }\n"
    "  return xs;\n}\nreturn await run();",
    USERS + "const count = users.length;\nfor (const u of users) { u.of = count; }\nreturn users;",
]

REFUSED = [
    # a read before the loop into another name
    (
        USERS + "const first = users[0];\nfor (const u of users) u.x = 1;\nreturn first;",
        "is read before the loop",
    ),
    (
        USERS + "const all = users;\nfor (const u of users) u.x = 1;\nreturn all;",
        "is read before the loop",
    ),
    # the item stored elsewhere, then changed
    (
        USERS + "const seen = [];\nfor (const u of users) { seen.push(u); u.x = 1; }\nreturn seen;",
        "read whole before",
    ),
    # the same object twice
    (
        "const p = {a: 1};\nconst xs = [p, p];\nfor (const x of xs) x.n = 1;\nreturn xs;",
        "not an object literal",
    ),
    # Object.values of an object read later
    (
        "const o = await echo({a: {n: 1}});\nfor (const x of Object.values(o)) x.n += 1;\n"
        "return o;",
        "loop's variable",
    ),
    # data the program was given
    ("for (const p of people) p.x = 1;\nreturn people;", "not an array this block defines"),
    # a `.map` result shares its items' arrays
    (
        "const xs = people.map(p => ({...p}));\nfor (const x of xs) x.tags.push(1);\n"
        "return people;",
        "may share its arrays",
    ),
    # a `.filter` result holds the same objects
    (
        USERS + "const adults = users.filter(u => u.age > 18);\nfor (const u of adults) "
        "u.adult = true;\nreturn users;",
        "may be objects other values hold",
    ),
    # a member's member
    (USERS + "for (const u of users) u.d.e = 1;\nreturn users;", "member's member"),
    # the array read in the body
    (
        USERS + "for (const u of users) { u.n = users[0].age; }\nreturn users;",
        "reads `users` while",
    ),
    # return in the body
    (
        "async function f() {\n  const xs = await echo(people);\n  for (const x of xs) { x.a = 1; "
        "return xs; }\n}\nreturn await f();",
        "`return` inside a loop",
    ),
    # forEach: break
    (USERS + "users.forEach(u => { u.a = 1; break; });\nreturn users;", "forEach"),
    # the item assigned
    (USERS + "for (let u of users) { u = {a: 1}; u.b = 2; }\nreturn users;", "is assigned"),
    # in an expression
    (
        USERS + "for (const u of users) { const z = (u.a = 1); }\nreturn users;",
        "inside an expression",
    ),
    # a name declared before its definition may be read by a function
    (
        "function f() { return users; }\nconst users = await echo(people);\n"
        "for (const u of users) u.a = 1;\nreturn f();",
        "read before its definition",
    ),
    # a loop of an `if` without braces
    (USERS + "if (flag) for (const u of users) u.a = 1;\nreturn users;", "statement of a block"),
    # the index changed
    (
        USERS + "for (let i = 0; i < users.length; i++) { users[i].a = 1; i++; }\nreturn users;",
        "index",
    ),
    # a loop before that holds an item
    (
        USERS + "let best = null;\nfor (const u of users) { if (!best || u.age > best.age) "
        "best = u; }\nfor (const u of users) u.x = 1;\nreturn best;",
        "is read before the loop",
    ),
    # a function declaration reading the array (hoisted: it may run before the loop)
    (
        USERS + "const s = show();\nfor (const u of users) u.x = 5;\nreturn s;\n"
        "function show() { return users.length + users[0].age; }",
        "a function reads `users`",
    ),
    # a loop inside over a member of the item, changing the item (the list is read once)
    (
        USERS + "for (const u of users) { u.n = 0; for (const t of u.tags) u.n += t.length; }\n"
        "return users;",
        "goes over a member of `u`",
    ),
    (
        USERS + "for (const u of users) { u.n = 0; u.tags.forEach(t => { u.n += 1; }); }\n"
        "return users;",
        "goes over a member of `u`",
    ),
    # a sort of the item's array
    (USERS + "for (const u of users) { u.tags.sort(); }\nreturn users;", "in place"),
    # the items of a call of the program's own function, which may return what the program
    # holds (Node changes `rows`; this gave `[{"n": 1}]`, found by the differential fuzz)
    (
        "const rows = [{n: 1}];\nfunction mk() { return rows; }\nconst q = mk();\n"
        "for (const r of q) { r.n = 5; }\nreturn rows;",
        "may be objects other values hold",
    ),
]


def test_changed_items_give_what_node_gives() -> None:
    assert len(ACCEPTED) >= 50
    runs_as_in_node(ACCEPTED, RT)


@pytest.mark.parametrize(("program", "why"), REFUSED)
def test_a_change_another_name_could_see_is_refused(program: str, why: str) -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan(program)
    assert why in str(caught.value)


def test_refusals_point_at_the_place_and_say_what_to_write() -> None:
    program = USERS + "const first = users[0];\nfor (const u of users) u.x = 1;\nreturn first;"
    with pytest.raises(SourceError) as caught:
        parse_plan(program)
    text = str(caught.value)
    assert "line 2, column 15" in text
    assert ".map(" in text


def test_no_accepted_program_is_wrong_nor_refused() -> None:
    verdicts = check(ACCEPTED[:5], RT)
    assert [v.kind for v in verdicts] == ["same"] * 5


LINEAR = [
    "const xs = await echo(big);\nfor (const x of xs) { x.t = x.a * 2; x.n ??= 0; }\n"
    "return xs.length;",
    "const xs = await echo(big);\nfor (const x of xs) { x.t = x.a; if (x.a > 1e9) break; }\n"
    "return xs.length;",
    "const xs = await echo(big);\nxs.forEach((x, i) => { x.t = i; x.tags.push(i); });\n"
    "return xs.length;",
]


@pytest.mark.parametrize("program", LINEAR)
def test_steps_are_linear_in_the_items(program: str) -> None:
    """20,000 items in 200,000 steps (a copy of the array per item would take about 780,000:
    20,000 squared / 2, one step per 256 items; a push tests its member is an array, one step
    per item); 100,000 items, linear, go past them."""
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=200_000, deadline=600.0))
    rt.register(FunctionDescription("echo", "echo", lambda value: value, {"value": "any"}, "any"))
    items = [{"a": k, "tags": []} for k in range(20_000)]
    out = rt.run(program, lang="plan", context={"big": items})
    assert out.ok, out.error
    assert out.value == 20_000
    out = rt.run(program, lang="plan", context={"big": items * 5})
    assert not out.ok
    assert out.error is not None
    assert out.error.details["limit"] == "max_steps"
