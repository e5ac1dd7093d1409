"""Small operators and statements models write (SPEC 1.7, 1.8 and 10): ``in``, ``instanceof``,
``Object.hasOwn`` and ``o.hasOwnProperty(k)``, ``void 0``, ``delete o.k;``, chains of a Map's or
a Set's changes, ``unshift``. Each program gives what Node.js gives, or fails clearly where
Plan cannot be exact."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from dialectic import Runtime
from dialectic.frontends.plan import decompile_expression, parse_plan
from dialectic.values.jsrelations import INHERITED

from .program_generator import CONTEXT
from .program_oracle import node_answers, runs_as_in_node, runtime

RT: Runtime = runtime()

ALIKE = [
    "return 'a' in data;",
    "return 'z' in data;",
    (
        "const counts = {}; "
        "for (const w of words) { counts[w] = w in counts ? counts[w] + 1 : 1; } return counts;"
    ),
    "return people.filter(p => 'city' in p).length;",
    "return 0 in nums;",
    "return 10 in nums;",
    "return 'length' in nums;",
    "return 'toString' in data;",
    "return 'constructor' in data;",
    "return '__proto__' in data;",
    "const m = new Map([['a', 1]]); return 'a' in m;",
    "const m = new Map([['a', 1]]); return 'size' in m;",
    "return 'x' in data.d || 'e' in data.d;",
    "return !('a' in data);",
    "return 1 < 2 in data;",
    "const o = {}; for (const k in data) { o[k] = 1; } return o;",
    "return data.hasOwnProperty('a');",
    "return Object.hasOwn(data, 'b');",
    "return Object.prototype.hasOwnProperty.call(data, 'zz');",
    "return people.filter(p => p.hasOwnProperty('city')).length;",
    "return nums instanceof Array;",
    "return nums instanceof Object;",
    "return data instanceof Array;",
    "return none instanceof Object;",
    "return s instanceof Object;",
    "return new Map() instanceof Map;",
    "const o = {a: 1, b: 2}; delete o.a; return o;",
    "const o = {a: 1, b: 2}; delete o.a; o.a = 3; return o;",
    "const o = {...data}; delete o['b']; return o;",
    "const o = {}; for (const p of people) { o[p.name] = p.age; } delete o.Bo; return o;",
    "const m = new Map(); m.set('a', 1).set('b', 2); return [...m.keys()];",
    "const st = new Set(); st.add(1).add(2).add(1); return st.size;",
    "const q = []; q.unshift(1); q.unshift(2, 3); return q;",
    "const q = []; for (const x of nums) { q.unshift(x); } return q;",
    "const q = [...nums]; q.unshift(0); return q;",
    "return void 0;",
    "return [void 0, void 1];",
    "return ''.charAt(0);",
    "const e = nums.filter(x => x > 100); return e[0] ?? 'none';",
    "const e = nums.filter(x => x > 100)[0]; return e ?? 'none';",
    "const e = words[3][0]; return e ?? 'none';",
    "const w = words[3]; return w[0] ?? 'none';",
    "return words.map(w => w[0] ?? '');",
    "return words.map(w => w[0] || '');",
    "const first = nums.filter(x => x > 100)[0]; return first ? first : 'none';",
    "const c = words[3][0]; return c ? c : 'none';",
    "return words.map(w => w[0] === undefined ? '-' : w[0]);",
    "return words.map(w => w.charAt(0));",
    "return [void 0, void 'x', void null];",
    "return void 0 === undefined;",
    "return 'b' in {a: 1, b: 2};",
    "const o = {a: 1}; return ['a' in o, 'b' in o];",
    "return [1.5 in [1, 2], '1' in [1, 2], 1 in [1, 2], 2 in [1, 2], '01' in [1,2], -1 in [1,2]];",
    "return [true in {true: 1}, null in {null: 1}, undefined in {}];",
    "return nums instanceof Map;",
    "return /a/ instanceof RegExp;",
    "return /a/ instanceof Object;",
    "return new Set([1]) instanceof Set;",
    "return [new Set([1]) instanceof Map, new Map() instanceof Object];",
    "return 's' instanceof String;",
    "return 3 instanceof Number;",
    "return nums instanceof Error;",
    "return Object.hasOwn(nums, 0);",
    "return Object.hasOwn(nums, 'length');",
    "return Object.hasOwn(s, 'length');",
    "return Object.hasOwn(s, 3);",
    "return Object.hasOwn(data, 'toString');",
    "return data.hasOwnProperty('toString');",
    "return 'a' in new Set(['a']);",
    "return 'has' in new Set(['a']);",
    "return people.filter(p => p.city !== null && 'tags' in p).map(p => p.name);",
    (
        "return people.reduce((groups, x) => { const k = x.city; "
        "(groups[k] ??= []).push(x.name); return groups; }, {});"
    ),
    "return people.reduce((g, x) => ({...g, [x.city]: [...(g[x.city] ?? []), x.name]}), {});",
    (
        "const m = new Map(); "
        "for (const p of people) { m.set(p.name, p.age).set(p.name + '!', 0); } "
        "return [...m.entries()];"
    ),
    "const st = new Set(); for (const w of words) { st.add(w.length).add(w); } return [...st];",
    "const m = new Map([['x', 0]]); m.set('a', 1).set('x', 2).set('b', 3); return [...m];",
    "const m = new Map(); if (flag) m.set('a', 1).set('b', 2); return m.size;",
    "const st = new Set(); if (flag) { st.add('p').add('q'); } return [...st];",
    (
        "const m = new Map(); if (flag) m.set('a', 1).set('b', 2); "
        "else m.set('c', 3).set('d', 4); return [...m.keys()];"
    ),
    (
        "const m = new Map(); if (!flag) m.set('a', 1).set('b', 2); "
        "else m.set('c', 3).set('d', 4); return [...m.keys()];"
    ),
    (
        "const m = new Map(); "
        "for (const p of people) { if (p.age > 5) m.set(p.name, 1).set(p.city, 2); } "
        "return [...m.keys()];"
    ),
    "const o = {...data}; const k = 'c'; delete o[k]; delete o.d; return Object.keys(o);",
    "const o = {x: 1, 2: 'two', 1: 'one'}; delete o[2]; o[2] = 'again'; return o;",
    "const o = {a: 1}; delete o.zz; return o;",
    "const o = {a: 1, null: 2, 1.5: 3}; delete o[null]; delete o[1.5]; return o;",
    (
        "const q = ['end']; "
        "for (const p of people) { if (p.age > 5) { q.unshift(p.name, p.age); } } return q;"
    ),
    "const q = []; for (const w of words) { q.unshift(w); } return q.join('|');",
    "const q = [1]; q.unshift(...nums); return q;",
    "const q = []; q.unshift([1, 2]); q.unshift([]); return q;",
    "const q = []; for (const x of nums) q.unshift(x); return q;",
    "const q = []; for (const x of nums) { if (q.length < 3) { q.unshift(x); } } return q;",
    "const q = [3]; q.unshift(1); q.push(9); return q;",
    "return words.map(w => w[0] !== undefined);",
    "return people.map(p => p.tags[0] !== undefined);",
    "return words.map(w => w.at(0) ?? '-');",
    "return people.map(p => p.tags.at(0) ?? '-');",
    "const w = words[3]; const c = w[0]; return c ?? '-';",
    "const t = people[1].tags; const c = t[0]; return c ?? '-';",
    "return words.map(w => w[0] ? w[0].toUpperCase() + w.slice(1) : w);",
    "return people.map(p => p.tags[0] ? p.tags[0] : 'none');",
    "return words.map(w => w[w.length - 1] ?? '');",
    "return people.map(p => p.tags[p.tags.length - 1] ?? '');",
    "return words.map(w => typeof w[0]);",
    "return people.map(p => typeof p.tags[0]);",
    "return words.map(w => w[0] == null);",
    "return words.map(w => w.charAt(0) || '?');",
    "return words.map(w => w[5] ?? '?');",
    "return ''[0] ?? 'x';",
    "return [][0] ?? 'x';",
    "return 'a' in data === true;",
    "return !'a' in data;",
    "return 'a' in data ? 1 : 2;",
    "return words.reduce((acc, w) => { acc[w] = w in acc ? acc[w] + 1 : 1; return acc; }, {});",
    (
        "const out = []; "
        "for (const k in data) { if (k in data.d || k === 'a') { out.push(k); } } return out;"
    ),
    "return Object.keys(data).filter(k => k in {a: 1, c: 2});",
    "return ['map', 'size', 'push', 'valueOf', 'hasOwnProperty'].map(k => [k in nums, k in data]);",
    (
        "const st = new Set(); let i = 0; while (i < 3) { st.add(i).add(i * 10); i++; "
        "} return [...st];"
    ),
    "const q = []; let i = 0; while (i < 4) { q.unshift(i); i++; } return q;",
    "return people.map(p => p.tags instanceof Array && !(p.city instanceof Object));",
    (
        "const o = Object.fromEntries([[1, 'a'], [2.5, 'b'], [true, 'c'], [null, 'd']]); "
        "return [1 in o, '1' in o, 2.5 in o, 'true' in o, null in o];"
    ),
    "const o = {1: 'a'}; o[2] = 'b'; return [1 in o, 2 in o, '2' in o, 3 in o];",
    (
        "const m = new Map([[1, 'x']]); const o = Object.fromEntries(m); "
        "return [1 in o, Object.hasOwn(o, 1)];"
    ),
    (
        "const o = {}; for (const n of nums) { o[n] = true; "
        "} return [3 in o, 2.5 in o, -1 in o, '0' in o];"
    ),
    "return [{in: 1}.in, data.d.e === null];",
    (
        "const counts = nums.reduce((acc, n) => { acc[n] = (n in acc) ? acc[n] + 1 : 1; "
        "return acc; }, {}); return counts;"
    ),
    "return people.reduce((acc, p) => p.city in acc ? acc : {...acc, [p.city]: p.name}, {});",
    (
        "const o = {a: 1}; o.b = 2; delete o.a; o.c = 3; delete o['c']; "
        "return [o, 'a' in o, 'b' in o];"
    ),
    (
        'const o = JSON.parse(\'{"__proto__": 1, "x": 2}\'); '
        "return ['__proto__' in o, Object.hasOwn(o, '__proto__')];"
    ),
]


def test_the_operators_and_statements_give_what_node_gives() -> None:
    runs_as_in_node(ALIKE, RT)


#: programs refused, what the message says, and whether Node answers them (else it throws)
REFUSED = [
    ("return 'a' in s;", "`in` needs an object on its right, not a string", False),
    ("return 'a' in none;", "not null (a TypeError in JavaScript)", False),
    ("return nums in data;", "`in` takes a text or a number as the key, not an array", True),
    ("return 'x' in /a/;", "`in` on a RegExp is not answered here", True),
    ("return data instanceof Foo;", "the right side of `instanceof` must be one of", False),
    ("return data instanceof Object.x;", "the right side of `instanceof` must be one of", False),
    ("return Object.hasOwn(none, 'a');", "Object.hasOwn() of null", False),
    ("return void nums;", "`void` takes a literal here", True),
    ("delete data.a; return data;", "`delete` runs here only as the statement", True),
    ("const o = {a: 1}; const r = delete o.a; return r;", "only as the statement", True),
    (
        "const o = {a: 1, b: 2}; for (const k of ['a']) { delete o[k]; } return o;",
        "not in a loop or an `if`",
        True,
    ),
    ("const o = {a: 1, b: 2}; const c = o; delete o.a; return c;", "is read whole", True),
    ("const o = {a: {b: 1}}; delete o.a.b; return o;", "only as the statement", True),
    ("return Object.groupBy(people, p => p.city);", "not a function in Node.js 20", False),
    ("return Map.groupBy(people, p => p.city);", "group with reduce", False),
    ("const m = new Map(); m.set('a', 1).add(2); return m.size;", "expected `;`", False),
    ("const m = new Map(); const r = m.set('a', 1).set('b', 2); return r.size;", "set", True),
    ("const q = [0]; const r = q.unshift(5); return r;", "unshift() changes the array", True),
    ("return ''[0];", "index 0 is out of range for a string of length 0", True),
    ("return [][0];", "index 0 is out of range for an array of length 0", True),
]


@pytest.mark.parametrize(("text", "says", "answers"), REFUSED)
def test_what_cannot_be_exact_fails_with_what_to_write(text: str, says: str, answers: bool) -> None:
    (node,) = node_answers([text])
    assert ("ok" in node) == answers, node
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure", (text, out.value)
    assert says in str(out.message), out.message


def test_a_change_of_an_array_the_program_made_gives_node_s_answer() -> None:
    """(SPEC 10, "Changes outside loops": once refused, now the array's next version)"""
    runs_as_in_node(
        [
            "const q = []; q.unshift(q.length); return q;",
            "const q = []; q.unshift(1); const x = q.shift(); return [x, q];",
        ],
        RT,
    )


def test_a_missing_index_of_a_text_reads_as_an_array_s_does() -> None:
    # `''[0]` is undefined in JavaScript: read where the program tests it, as `[][0]` is
    pairs = [
        (
            "const c = words[3][0]; return c ?? '-';",
            "const c = people[1].tags[0]; return c ?? '-';",
        ),
        ("return [words[3][0] === undefined];", "return [people[1].tags[0] === undefined];"),
        ("return words.map(w => w[0] ?? '-');", "return people.map(p => p.tags[0] ?? '-');"),
        ("return words.map(w => w[0] ? 1 : 0);", "return people.map(p => p.tags[0] ? 1 : 0);"),
    ]
    runs_as_in_node([text for pair in pairs for text in pair], RT)
    # and where nothing tests it, both fail alike
    for text in ["return [words[3][0]];", "return [people[1].tags[0]];"]:
        out = RT.run(text, lang="plan", context=CONTEXT)
        assert out.status == "failure" and "index 0 is out of range" in str(out.message)


def test_the_prototype_tables_are_node_s() -> None:
    node = shutil.which("node")
    assert node is not None, "set-up installs Node.js"
    script = """
    const names = o => { const out = new Set();
      for (let p = o; p; p = Object.getPrototypeOf(p))
        for (const k of Object.getOwnPropertyNames(p)) out.add(k);
      return [...out].sort(); };
    console.log(JSON.stringify({object: names({}), array: names([]),
      Map: names(new Map()), Set: names(new Set())}));
    """
    done = subprocess.run([node, "-e", script], capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    for kind, names in found.items():
        assert INHERITED[kind] == set(names) - {"0"}, kind


def test_in_and_instanceof_are_core_operators() -> None:
    tree = parse_plan("return ['a' in o, xs instanceof Array];", strict=True).tree["$return"]
    assert tree == [
        {"$op": ["in", "a", {"$ref": "o"}]},
        {"$op": ["instanceof", {"$ref": "xs"}, "Array"]},
    ]
    for part in tree:
        again = decompile_expression(part)
        assert parse_plan(f"return {again};", strict=True).tree["$return"] == part, again
    # relational, as `<`: tighter than `===` and `&&`, looser than `+`
    assert parse_plan("return 'a' + 'b' in o === true;", strict=True).tree["$return"] == {
        "$op": ["===", {"$op": ["in", {"$op": ["+", "a", "b"]}, {"$ref": "o"}]}, True]
    }


def test_object_hasown_in_every_spelling_is_one_global() -> None:
    made = {"$global": ["Object.hasOwn", {"$ref": "o"}, "k"]}
    for text in [
        "return Object.hasOwn(o, 'k');",
        "return Object.prototype.hasOwnProperty.call(o, 'k');",
    ]:
        assert parse_plan(text, strict=True).tree["$return"] == made, text
    # the method stays a method: an object's own member `hasOwnProperty` would be called there
    # (a TypeError for any JSON value), where the global answers (tests/hostile/test_red_team.py)
    method = {"$method": [{"$ref": "o"}, "hasOwnProperty", "k"]}
    assert parse_plan("return o.hasOwnProperty('k');", strict=True).tree["$return"] == method


def test_a_loop_of_unshifts_pushes_chunks_once() -> None:
    # linear: each unshift is a push of its items onto a hidden array, made into the array once
    text = "const q = [0]; for (const x of xs) { q.unshift(x, -x); } return q;"
    tree = json.dumps(parse_plan(text).tree)
    assert '"unshift"' not in tree and '"toReversed"' in tree
    xs = list(range(1, 2001))
    out = RT.run(text, lang="plan", context={"xs": xs})
    assert out.status == "success", out.message
    want = [v for x in reversed(xs) for v in (x, -x)] + [0]
    assert out.value == want
