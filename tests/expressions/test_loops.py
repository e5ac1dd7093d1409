"""``for...of`` loops (SPEC 10, "Loops"): each program runs in Node.js (the program an async
function's body, the functions synchronous JavaScript functions that log their calls) and in
dialectic; the value and the calls made, in order, are Node's, or dialectic refuses clearly.
What Plan's loops do not have fails at the place, saying what to write."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import anyio
import pytest

import dialectic
from dialectic import Failure, FunctionDescription, Runtime
from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import decompile, parse_plan

from .program_generator import CONTEXT
from .program_oracle import same

LOOP_CONTEXT: dict[str, Any] = {
    **CONTEXT,
    "cities": ["Oslo", "Rome", "Lima", "Ulaanbaatar"],
    "items": [{"id": "a", "n": 2}, {"id": "b", "n": 5}, {"id": "a", "n": 1}],
    "matrix": [[1, 2], [3, 4]],
    "o": {"k": 1, "j": 2},
}

_NODE = r"""
"use strict";
const AsyncFunction = (async () => {}).constructor;
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
(async () => {
  const out = [];
  for (const src of input.programs) {
    const ctx = JSON.parse(input.context);
    const log = [];
    const fresh = v => v === undefined ? null : JSON.parse(JSON.stringify(v));
    const funcs = {
      weather: ({city}) => { log.push(['weather', city]); return {city, temp: city.length}; },
      note: ({v}) => { log.push(['note', fresh(v)]); return v; },
      send: ({to}) => { log.push(['send', fresh(to)]); return log.length; },
      fail: ({x}) => { throw new Error('fail ' + x); },
    };
    const names = [...Object.keys(ctx), ...Object.keys(funcs)];
    try {
      const f = new AsyncFunction(...names, '"use strict";\n' + src);
      const v = await f(...Object.values(ctx), ...Object.values(funcs));
      out.push({ok: v === undefined ? null : v, keys: v && typeof v === 'object' ?
                Object.keys(v) : null, log});
    } catch (e) { out.push({error: String(e).slice(0, 200), log}); }
  }
  process.stdout.write(JSON.stringify(out));
})();
"""


def node_runs(programs: list[str]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    assert node is not None, "set-up installs Node.js"
    done = subprocess.run(
        [node, "-e", _NODE],
        input=json.dumps({"programs": programs, "context": json.dumps(LOOP_CONTEXT)}),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    out: list[dict[str, Any]] = json.loads(done.stdout)
    return out


def runtime(log: list[Any], use_async: bool = False) -> Runtime:
    """The functions of the Node side; ``send`` changes the world (``effects="write"``)."""
    rt = Runtime(load_entry_points=False)

    def weather(city: Any) -> Any:
        log.append(["weather", city])
        return {"city": city, "temp": len(city)}

    def note(v: Any) -> Any:
        log.append(["note", v])
        return v

    def send(to: Any) -> Any:
        log.append(["send", to])
        return len(log)

    def fail(x: Any) -> Any:
        raise Failure(f"fail {x}")

    def wrap(fn: Any) -> Any:
        if not use_async:
            return fn

        async def run(**kw: Any) -> Any:
            await anyio.sleep(0)
            return fn(**kw)

        return run

    for name, fn, param, effects in [
        ("weather", weather, "city", "read"),
        ("note", note, "v", "read"),
        ("send", send, "to", "write"),
        ("fail", fail, "x", "read"),
    ]:
        rt.register(
            FunctionDescription(name, name, wrap(fn), {param: "any"}, "any", effects=effects)
        )
    return rt


PROGRAMS = [
    # the shape models write most: a call per item, collected
    "const out = [];\nfor (const c of cities) { out.push(await weather({city: c})); }\nreturn out;",
    "const temps = [];\nfor (const c of cities) {\n  const w = await weather({city: c});\n"
    "  if (w.temp > 4) temps.push(w.temp);\n}\nreturn temps;",
    # texts and numbers: JavaScript's `+`, left to right
    "let acc = '';\nfor (const n of nums) acc += n + ';';\nreturn acc;",
    "let total = 0;\nfor (const n of nums) { total += n; }\nreturn total;",
    "let total = 0.1;\nfor (const n of [0.2, 0.3, 1e21, -1e21]) total = total + n;\nreturn total;",
    "let t = '';\nfor (const w of words) { if (w.length > 2) t += w; else t += '_'; }\nreturn t;",
    "let t = 1;\nfor (const w of words) t += w;\nreturn t;",
    "let k = '5';\nfor (const x of [1, 2]) k++;\nreturn k;",
    "let k = 10;\nfor (const x of nums) { if (x > 2) k--; else k -= x; }\nreturn k;",
    "let last = null;\nfor (const p of people) { if (p.age > 1) last = p.name; }\nreturn last;",
    # objects: keys in order, a later value wins in the first key's place
    "const byCity = {};\nfor (const p of people) byCity[p.city ?? 'none'] = p.name;\n"
    "return byCity;",
    "const seen = {start: 0};\nfor (const it of items) { seen[it.id] = it.n; seen.start = it.n; }\n"
    "return seen;",
    "const o2 = {};\nfor (const n of [3, 1, 2, 1.5, 1]) o2[n] = n * 2;\nreturn o2;",
    "const m = {...o, x: 1};\nfor (const [k, v] of Object.entries(o)) m[k + k] = v;\nreturn m;",
    # destructuring, texts by code point, empty lists
    "const pairs = [];\nfor (const [k, v] of Object.entries(o)) pairs.push(k + '=' + v);\n"
    "return pairs;",
    "const out = [];\nfor (const {name, tags: [first]} of people.filter(p => p.tags.length)) "
    "out.push(name + first);\nreturn out;",
    "const out = [];\nfor (const [a, ...rest] of matrix) out.push(a, rest);\nreturn out;",
    "const chars = [];\nfor (const ch of 'h😀é') chars.push(ch, ch.length);\nreturn chars;",
    "const out = [];\nfor (const x of []) out.push(await fail({x}));\nreturn out;",
    "let t = 5;\nfor (const x of []) t += x;\nreturn t;",
    "const out = ['keep'];\nfor (const w of words) out.push(...w);\nreturn out;",
    # for...in: the keys, as Object.keys (an array's indexes as texts)
    "const ks = [];\nfor (const k in o) ks.push(k);\nfor (const i in ['a', 'b']) ks.push(i);\n"
    "return ks;",
    "const ks = [];\nfor (const k in data) { if (k !== 'c') ks.push(k + '!'); }\nreturn ks;",
    # calls in branches not taken do not run; a member missing there does not fail
    "const out = [];\nfor (const c of cities) {\n"
    "  if (c.length > 10) out.push(await fail({x: c}));\n"
    "  else out.push(c);\n}\nreturn out;",
    "const out = [];\nfor (const p of people) { if (p.city !== null) out.push(p.city.length); }\n"
    "return out;",
    "let cnt = 0;\nfor (const p of people) { if (p.age > 100) cnt += p.missing.deep; }\n"
    "return cnt;",
    # a local that calls nothing and that nothing reads is not computed (as an alias)
    "const out = [];\nfor (const p of people) { const o = {v: p.missing}; out.push(p.name); }\n"
    "return out;",
    # continue, else-if chains, nested blocks
    "const out = [];\nfor (const n of nums) {\n  if (n < 0) continue;\n"
    "  if (n === 0) { out.push('zero'); "
    "continue; }\n  out.push(n * 2);\n}\nreturn out;",
    "const out = [];\nfor (const n of nums) {\n  if (n > 5) { if (n > 8) continue; "
    "out.push('mid'); }\n"
    "  else if (n > 1) out.push('low');\n  else { out.push('tiny'); continue; }\n  out.push(n);\n"
    "}\n"
    "return out;",
    "let acc = '';\nfor (const w of words) { { const u = w.toUpperCase(); acc += u; } }\n"
    "return acc;",
    # effects: every call runs, in the order of the iterations
    "for (const c of cities) { await send({to: c}); await note({v: c.length}); }\nreturn 1;",
    "const ids = [];\nfor (const c of cities) {\n  const r = await send({to: c});\n  if (r > 2) "
    "ids.push(r);\n  await note({v: r});\n}\nreturn ids;",
    "for (const c of cities) { const unused = await note({v: c}); }\nreturn 0;",
    "const out = [];\nfor (const c of cities) { if (c.startsWith('L')) continue; "
    "await send({to: c}); "
    "out.push(c); }\nreturn out;",
    # several loops, a loop in a branch, an accumulator read after the loop
    "const out = [];\nfor (const c of cities) out.push(c);\nfor (const n of [1, 2]) out.push(n);\n"
    "return out;",
    "let cnt = 0;\nfor (const c of cities) cnt += c.length;\n"
    "for (const w of words) cnt += w.length;\nconst twice = cnt * 2;\nreturn [twice, cnt];",
    "if (flag) {\n  const out = [];\n  for (const c of cities) out.push(c[0]);\n"
    "  return out.join('');\n}"
    "\nreturn 'no';",
    "const xs = [];\nfor (const p of people) xs.push(p.age);\nconst total = xs.reduce((a, "
    "b) => a + b, 0);"
    "\nreturn {xs, total, n: xs.length};",
    # loops inside loops: the inner one reads the outer one's names; calls in Node's order
    "const rows = [];\nfor (const c of cities) {\n  const up = c.toUpperCase();\n"
    "  for (const ch of c.slice(0, 2)) rows.push({c, ch, up: up + ch});\n}\nreturn rows;",
    "const out = [];\nfor (const row of matrix) {\n  for (const x of row) {\n"
    "    if (x === 2) continue;\n    out.push(await note({v: x * 10}));\n  }\n"
    "  out.push(await note({v: row.length}));\n}\nreturn out;",
    "for (const c of cities.slice(0, 2)) {\n  await send({to: c});\n"
    "  for (const w of words) { await note({v: c + w}); await send({to: w}); }\n"
    "  await note({v: 'end ' + c});\n}\nreturn 1;",
    "let acc = '';\nlet k = 0;\nfor (const w of words) {\n  acc += '[';\n"
    "  for (const ch of w) { if (ch === 'a') continue; acc += ch; k++; }\n  acc += ']';\n"
    "  k += 10;\n}\nreturn [acc, k];",
    "const by = {};\nfor (const it of items) {\n  for (const c of cities) {\n"
    "    if (c.length > 4) continue;\n    by[it.id + c] = it.n;\n  }\n  by.last = it.id;\n}\n"
    "return by;",
    # an accumulator of the outer loop's body: the inner loop's result there, in turn
    "const out = [];\nfor (const w of words) {\n  const chars = [];\n  let n = 0;\n"
    "  for (const ch of w) { chars.push(ch.toUpperCase()); n += 1; }\n"
    "  for (const x of [1, 2]) chars.push(x);\n  const seen = {};\n"
    "  for (const ch of w) seen[ch] = n;\n  out.push({w, chars, n, seen});\n}\nreturn out;",
    "const out = [];\nfor (const p of people) {\n  if (p.age > 30) {\n    let t = '';\n"
    "    for (const tag of p.tags) t += tag + '/';\n    out.push(t);\n  } else out.push('-');\n}\n"
    "return out;",
    # three deep, and for...in inside for...of
    "let total = 0;\nconst trail = [];\nfor (const a of [1, 2]) {\n  for (const b of [10, 20]) {\n"
    "    for (const c of [100, 200]) { total += a * b * c; trail.push(a + b + c); }\n"
    "    total -= 1;\n  }\n}\nreturn [total, trail];",
    "const ks = [];\nfor (const it of items) {\n  for (const k in it) ks.push(it.id + k);\n}\n"
    "return ks;",
    "const out = [];\nfor (const c of cities) {\n  for (const w of words) {\n"
    "    if (w.length > 3) out.push(await weather({city: c + w}));\n  }\n}\n"
    "return out.map(r => r.temp);",
    # a loop that reads what it changes: a fold, each iteration sees the one before
    "let total = 0;\nconst large = [];\nfor (const it of items) {\n  total += it.n;\n"
    "  if (total > 3) large.push(it.id + total);\n}\nreturn [total, large];",
    "const seen = {};\nconst uniq = [];\nfor (const it of items) {\n"
    "  if (!seen[it.id]) { seen[it.id] = true; uniq.push(it); }\n}\nreturn [uniq, seen];",
    "const out = [];\nfor (const c of cities) {\n"
    "  if (out.length < 2) out.push(await weather({city: c}));\n}\nreturn out;",
    "const counts = {};\nfor (const w of words) counts[w.length] = (counts[w.length] || 0) + 1;\n"
    "return counts;",
    "let best = null;\nfor (const p of people) { if (best === null || p.age > best.age) best = p; }"
    "\nreturn best;",
    "let t = 1;\nfor (const k of [1, 2, 3]) { t *= k + 1; t = t - 1; t = Math.max(t, 2 * t - 5); "
    "t /= 2; t %= 7; }\nreturn t;",
    "let sent = 0;\nfor (const c of cities) {\n  if (sent >= 2) continue;\n  await send({to: c});\n"
    "  sent++;\n}\nreturn sent;",
    "let acc = '';\nfor (const w of words) { if (acc.length > 8) continue; acc += w + ','; }\n"
    "return acc;",
    "const out = [];\nconst snaps = [];\nfor (const k of [1, 2, 3]) { out.push(k); "
    "snaps.push([...out], out.slice(-1)); }\nreturn snaps;",
    "const seen = {};\nconst sizes = [];\nfor (const w of words) {\n  seen[w[0] ?? '-'] = 1;\n"
    "  sizes.push(Object.keys(seen).length, JSON.stringify({...seen}).length);\n}\nreturn sizes;",
    "const got = [];\nfor (const c of cities) {\n  const w = await weather({city: c});\n"
    "  if (got.length && got[got.length - 1].temp === w.temp) continue;\n"
    "  await send({to: c});\n  got.push(w);\n}\nreturn got;",
    "const byLen = {};\nfor (const w of words) {\n  const k = 'n' + w.length;\n"
    "  byLen[k] = [...(byLen[k] ?? []), w];\n}\nreturn byLen;",
    "const c = {a: 0, b: 10};\nfor (const w of ['a', 'b', 'a']) {\n  c[w] += 1;\n"
    "  c.n = (c.n ?? 0) + 1;\n  c.b--;\n  c[w] *= 3;\n  c[w + 'x'] = c[w] % 4;\n}\nreturn c;",
    "const hits = {x: 0};\nfor (const p of people) {\n  hits[(await note({v: 'x'}))]++;\n"
    "  hits.x /= 2;\n}\nreturn hits;",
    # folds and loops inside loops
    "const tags = [];\nconst seen = {};\nfor (const p of people) {\n  for (const t of p.tags) {\n"
    "    if (seen[t]) continue;\n    seen[t] = p.name;\n    tags.push(t);\n  }\n}\n"
    "return [tags, seen];",
    "const out = [];\nfor (const p of people) {\n  const got = [];\n"
    "  for (const t of [...p.tags, ...p.tags]) { if (!got.includes(t)) got.push(t); }\n"
    "  out.push(got.join('+'));\n}\nreturn out;",
    "let total = 0;\nconst run = [];\nfor (const it of items) {\n  total += it.n;\n"
    "  for (const c of cities.slice(0, 2)) run.push(c + total);\n}\nreturn run;",
    "let k = 0;\nconst marks = [];\nfor (const row of matrix) {\n  for (const x of row) k += x;\n"
    "  marks.push(k);\n}\nreturn marks;",
    "const out = [];\nfor (const row of matrix) {\n  let m = 0;\n"
    "  for (const x of row) { if (x > m) m = x; }\n  out.push(m);\n}\nreturn out;",
    "const out = [];\nfor (const c of cities) {\n  for (const w of words) {\n"
    "    if (out.length >= 3) continue;\n    if (w.length > 4) out.push(await note({v: c + w}));\n"
    "  }\n  await send({to: c});\n}\nreturn out;",
    "let sum = 0;\nfor (const row of matrix) {\n  if (sum > 2) continue;\n"
    "  for (const x of row) { if (sum < 5) sum += x; }\n}\nreturn sum;",
    # break: the loop stops there; the later items make no calls
    "const out = [];\nfor (const c of cities) {\n  const w = await weather({city: c});\n"
    "  if (w.temp > 4) break;\n  out.push(w.city);\n}\nreturn out;",
    "let found = null;\nfor (const p of people) {\n  if (p.age < 10) { found = p.name; break; }\n"
    "}\nreturn found;",
    "for (const c of cities) {\n  await send({to: c});\n  if (c === 'Rome') break;\n"
    "  await note({v: c});\n}\nreturn 1;",
    "let t = 0;\nfor (const n of nums) {\n  if (n < 0) continue;\n  t += n;\n"
    "  if (t > 4) break;\n}\nreturn t;",
    "const out = [];\nfor (const n of nums) {\n  if (n === 0) { out.push('zero'); break; }\n"
    "  else if (n > 5) break;\n  out.push(n);\n}\nreturn out;",
    "const rows = [];\nfor (const row of [...matrix, [5, 6, 7]]) {\n  for (const x of row) {\n"
    "    if (x % 2 === 0) break;\n    rows.push(await note({v: x}));\n  }\n  rows.push('|');\n"
    "}\nreturn rows;",
    "const ks = [];\nfor (const k in data) {\n  if (k === 'd') break;\n  ks.push(k);\n}\n"
    "return ks;",
    "const seen = {};\nlet dup = null;\nfor (const w of [...words, 'Apple']) {\n"
    "  if (seen[w]) { dup = w; break; }\n  seen[w] = 1;\n}\nreturn [dup, seen];",
    "const out = [];\nfor (const c of cities) {\n  for (const w of words) {\n"
    "    if (out.length >= 4) break;\n    out.push(c[0] + w);\n  }\n"
    "  if (out.length >= 4) break;\n}\nreturn out;",
    # Node throws: so does dialectic
    "const out = [];\nfor (const c of cities) {\n  for (const x of c.missing) out.push(x);\n}\n"
    "return out;",
    "const out = [];\nfor (const x of data) out.push(x);\nreturn out;",
    "const out = [];\nfor (const x of none) out.push(x);\nreturn out;",
    "const out = [];\nfor (const x of n) out.push(x);\nreturn out;",
    "const ks = [];\nfor (const k of o) ks.push(k);\nreturn ks;",
    "const out = [];\nfor (const c of cities) out.push(await fail({x: c}));\nreturn out;",
]


def same_run(program: str, answer: dict[str, Any], out: Any, log: list[Any]) -> None:
    if "error" in answer:
        assert out.status == "failure", (program, out.value, answer)
        return
    assert out.status == "success", (program, out.message)
    why = same(out.value, _encoded(answer["ok"], answer.get("keys")))
    assert why is None, (program, out.value, answer["ok"], why)
    assert log == answer["log"], (program, log, answer["log"])


def _encoded(value: Any, keys: list[str] | None) -> Any:
    """Node's value as :func:`same` reads it (objects with their key order)."""
    if isinstance(value, dict):
        return {"$object": value, "$keys": keys or list(value)}
    return value


@pytest.fixture(scope="module")
def answers() -> list[dict[str, Any]]:
    return node_runs(PROGRAMS)


@pytest.mark.parametrize("i", range(len(PROGRAMS)))
def test_a_loop_gives_nodes_value_and_calls(i: int, answers: list[dict[str, Any]]) -> None:
    program = PROGRAMS[i]
    log: list[Any] = []
    out = runtime(log).run(program, lang="plan", context=LOOP_CONTEXT)
    same_run(program, answers[i], out, log)


@pytest.mark.parametrize("i", range(len(PROGRAMS)))
def test_asynchronous_calls_give_the_same_value_and_writes_in_order(
    i: int, answers: list[dict[str, Any]]
) -> None:
    program = PROGRAMS[i]
    log: list[Any] = []
    rt = runtime(log, use_async=True)

    async def main() -> Any:
        return await rt.run_async(program, lang="plan", context=LOOP_CONTEXT)

    out = anyio.run(main)
    answer = answers[i]
    if "error" in answer:
        assert out.status == "failure", (program, out.value)
        return
    assert out.status == "success", (program, out.message)
    assert same(out.value, _encoded(answer["ok"], answer.get("keys"))) is None
    # reads of independent iterations may run concurrently; writes keep Node's order
    assert sorted(map(json.dumps, log)) == sorted(map(json.dumps, answer["log"]))
    writes = [entry for entry in log if entry[0] == "send"]
    assert writes == [entry for entry in answer["log"] if entry[0] == "send"]


def test_a_code_mode_program_with_a_loop_runs_its_body() -> None:
    program = (
        "async () => {\n  const out = [];\n  for (const c of cities) {\n"
        "    out.push(await weather({city: c}));\n  }\n  return out;\n}"
    )
    log: list[Any] = []
    out = runtime(log).run(program, lang="plan", context=LOOP_CONTEXT)
    assert out.status == "success", out.message
    assert [w["city"] for w in out.value] == LOOP_CONTEXT["cities"]
    assert any("ran the body of the function" in w for w in out.warnings)


@pytest.mark.parametrize("program", PROGRAMS[:-4])
def test_decompiled_and_read_again_it_is_the_same_tree(program: str) -> None:
    tree = dialectic.compile(program, lang="plan")
    text = decompile(tree)
    assert dialectic.compile(text, lang="plan") == tree
    assert decompile(dialectic.compile(text, lang="plan")) == text


def test_the_tree_is_a_map_and_an_alias_per_accumulator() -> None:
    tree = dialectic.compile(
        "const out = [];\nfor (const c of cities) out.push(c);\nreturn out;", lang="plan"
    )
    assert tree == {
        "$do": [
            {
                "$let": {
                    "_out1": [],
                    "_loop1": {
                        "$method": [
                            [{"$spread": {"$ref": "cities"}}],
                            "map",
                            {
                                "$fn": [
                                    ["c"],
                                    {
                                        "$let": {"_push1": [{"$ref": "c"}]},
                                        "$return": {"$object": {"a0": {"$ref": "_push1"}}},
                                    },
                                ]
                            },
                        ]
                    },
                }
            },
            {"$ref": "_loop1"},
            {
                "$let": {
                    "out": [
                        {"$spread": {"$ref": "_out1"}},
                        {
                            "$spread": {
                                "$method": [
                                    {"$ref": "_loop1"},
                                    "flatMap",
                                    {"$fn": [["_r1"], {"$get": [{"$ref": "_r1"}, "a0"]}]},
                                ]
                            }
                        },
                    ]
                }
            },
        ],
        "$return": {"$ref": "out"},
    }


def test_hidden_names_never_take_a_name_of_the_program() -> None:
    tree = dialectic.compile(
        "const _loop1 = 1;\nconst out = [];\nfor (const c of cities) out.push(c + _loop1);\n"
        "return out;",
        lang="plan",
    )
    assert "_loop2" in json.dumps(tree)


ERRORS = [
    ("const out = [];\nfor (const c of cities) { break; out.push(c); }", "never run", 2, 34),
    ("for (const c of cities) { while (true) {} }", "never ends", 1, 27),
    ("for (const c of cities) { do {} while (1); }", "never ends", 1, 27),
    ("for await (const c of cities) { c = 1; }", "is the loop's variable", 1, 33),
    ("for (let i = 0; i < 3) {}", "only `for...of` loops", 1, 1),
    ("for (c of cities) {}", "only `for...of` loops", 1, 1),
    # (a `var` that means what `let` means is read so: test_loop_vars.py)
    ("for (var c of cities) {}\nreturn c;", "`const` or `let`, not `var`", 1, 6),
    ("for (const c of cities) { var d; d = c; }", "not `var`", 1, 27),
    ("for (const c of cities) { c = 1; }", "is the loop's variable", 1, 27),
    ("for (const c of cities) { const d = c; d += 1; }", "`d` is declared with `const`", 1, 40),
    ("for (const c of cities) { out.push(c); }", "not defined before it", 1, 27),
    ("const out = xs;\nfor (const c of cities) { out.push(c); }", "must start as an array", 2, 27),
    ("const out = {};\nfor (const c of cities) { out.push(c); }", "must start as an array", 2, 27),
    ("const t = 0;\nfor (const c of cities) { t += 1; }", "is a `const`", 2, 27),
    (
        "const out = [];\nconst n = out;\nfor (const c of cities) { out.push(c); }",
        "read before",
        2,
        11,
    ),
    ("const out = [];\nfor (const c of out) { out.push(c); }", "list reads `out`", 2, 17),
    ("for (const c of c) {}", "list reads `c`", 1, 17),
    (
        "const out = [];\nfor (const c of cities) { if (c) { const w = 1; } out.push(w); }",
        "`w` is read where it is not defined",
        2,
        60,
    ),
    (
        "const out = [];\nfor (const c of cities) { out.push(w); const w = 1; }",
        "not defined",
        2,
        36,
    ),
    (
        "const out = [];\nfor (const c of cities) { if (c) { const w = 1; const w = 2; } }",
        "declared twice",
        2,
        55,
    ),
    ("for (const c of cities) { continue; f(c); }", "`break` or `return` never", 1, 37),
    ("for (const c of cities) { if (c) const d = 1; }", "needs braces", 1, 34),
    ("for (const c of cities) { top: f(c); }", "no labels", 1, 27),
    ("let t = 0;\nfor (const c of cities) { t **= 2; }", "only with `=`, `+=`", 2, 29),
    # a fold's array or object read whole: JavaScript would share it
    (
        "const out = [];\nfor (const c of cities) { out.push(c); note({v: out}); }",
        "reads `out` whole",
        2,
        49,
    ),
    (
        "const seen = {};\nconst all = [];\n"
        "for (const c of cities) { all.push(seen); seen[c] = 1; }",
        "reads `seen` whole",
        3,
        36,
    ),
    (
        "const out = [];\nfor (const c of cities) {\n  for (const d of c) out.push(out);\n}",
        "reads `out` whole",
        3,
        31,
    ),
    (
        "const out = [];\nfor (const c of cities) { const o = out; out.push(c); }",
        "reads `out` whole",
        2,
        37,
    ),
    # loops inside loops
    (
        "const out = [];\nfor (const c of cities) { const xs = []; out.push(xs);\n"
        "  for (const d of c) xs.push(d); }",
        "`xs` is read before the loop changes it",
        2,
        51,
    ),
    ("for (const c of cities) {\n  for (const d of c) c = d;\n}", "outer loop's variable", 2, 22),
    (
        "for (const c of cities) {\n  const n = 0;\n  for (const d of c) n += 1;\n}",
        "is a `const`",
        3,
        22,
    ),
    (
        "for (const c of cities) {\n  if (c) { const xs = []; }\n"
        "  for (const d of c) xs.push(d);\n}",
        "changed where it is not defined (it is declared at line 2, column 18)",
        3,
        22,
    ),
    (
        "for (const c of cities) {\n  const xs = c;\n  for (const d of c) xs.push(d);\n}",
        "must start as an array",
        3,
        22,
    ),
    (
        "for (const c of cities) {\n  const [xs] = [[]];\n  for (const d of c) xs.push(d);\n}",
        "defined by destructuring",
        3,
        22,
    ),
    (
        "for (const c of cities) {\n  const xs = [];\n  for (const d of xs) xs.push(d);\n}",
        "list reads `xs`",
        3,
        19,
    ),
    (
        "for (const c of cities) {\n  let n = 0;\n  for (const d of c) n += 1;\n"
        "  for (const d of c) n.push(d);\n}",
        "changed in another way by an earlier loop",
        4,
        22,
    ),
    (
        "const out = [];\n" + "for (const c of cities) {\n" * 9 + "out.push(c);" + "}" * 9,
        "loops nested more than 8 deep",
        10,
        1,
    ),
    ("const out = [];\nlet n = 0;\nfor (const c of cities) { out.push(c); n[c] = 1; }", "", 3, 40),
    (
        "let t = 0;\nfor (const c of cities) { t += c; }\nfor (const c of cities) { t.push(c); }",
        "",
        3,
        27,
    ),
]


@pytest.mark.parametrize(("body", "message", "line", "column"), ERRORS)
def test_what_loops_do_not_have_fails_at_the_place(
    body: str, message: str, line: int, column: int
) -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan(body + "\nreturn 1;")
    problem = caught.value.problems[0]
    assert message in problem.message, problem.message
    assert (problem.line, problem.column) == (line, column), problem.message
    assert (
        problem.hint or "two different ways" in problem.message or "another way" in problem.message
    )


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        (
            "for (const c of cities) {\n  const a = 1;\n  while (true) {}\n  const b = 2;\n}\n"
            "return 1 +;",
            [3, 6],
        ),
        (  # in a loop inside a loop
            "for (const c of cities) {\n  for (const d of c) {\n    do {} while (true);\n  }\n"
            "  const b = 2;\n}\nreturn 1 +;",
            [3, 7],
        ),
    ],
)
def test_an_error_in_the_body_is_reported_once_and_the_rest_is_read(
    text: str, lines: list[int]
) -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan(text)
    problems = caught.value.problems
    assert [p.line for p in problems] == lines, [p.message for p in problems]


def test_a_later_assignment_of_an_accumulator_changes_it_again() -> None:
    # (SPEC 10, "Changes outside loops": a `let` assigned after the loop)
    out = runtime([]).run(
        "let t = 0;\nfor (const c of cities) t += 1;\nt = t * 10;\nreturn t;",
        lang="plan",
        context=LOOP_CONTEXT,
    )
    assert out.status == "success" and out.value == 10 * len(LOOP_CONTEXT["cities"])
    with pytest.raises(SourceError) as caught:  # a `const` is defined once
        parse_plan("const t = 0;\nt = 5;\nreturn t;")
    message = caught.value.problems[0].message
    assert "declared with `const` and assigned again" in message and "TypeError" in message


def test_runtime_errors_in_the_body_point_at_the_statement() -> None:
    log: list[Any] = []
    rt = runtime(log)
    out = rt.run(
        "let t = '';\nfor (const c of cities) {\n  t += null;\n}\nreturn t;",
        lang="plan",
        context=LOOP_CONTEXT,
    )
    assert out.status == "failure" and out.error is not None
    assert (out.error.line, out.error.column) == (3, 3), out.message
    out = rt.run(
        "const out = [];\nfor (const c of cities) {\n  const w = await weather({city: c});\n"
        "  out.push(w.missing);\n}\nreturn out;",
        lang="plan",
        context=LOOP_CONTEXT,
    )
    assert out.status == "failure" and out.error is not None
    assert (out.error.line, out.error.column) == (4, 12), out.message
    out = rt.run(
        "const out = [];\nfor (const x of data) out.push(x);\nreturn out;",
        lang="plan",
        context=LOOP_CONTEXT,
    )
    assert out.status == "failure" and out.error is not None
    assert (out.error.line, out.error.column) == (2, 17), out.message


def test_a_loop_runs_even_when_nothing_reads_it() -> None:
    log: list[Any] = []
    out = runtime(log).run(
        "const out = [];\nfor (const c of cities) out.push(await weather({city: c}));\nreturn 1;",
        lang="plan",
        context=LOOP_CONTEXT,
    )
    assert out.status == "success" and out.value == 1
    assert [entry[1] for entry in log] == LOOP_CONTEXT["cities"]


def test_a_big_loop_body_is_read_in_linear_time() -> None:
    body = "".join(
        f"  if (c === 'x{i}') {{ const v{i} = c + {i}; out.push(v{i}); }}\n" for i in range(2000)
    )
    program = f"const out = [];\nfor (const c of cities) {{\n{body}}}\nreturn out;"
    tree = dialectic.compile(program, lang="plan")
    assert len(json.dumps(tree)) < 200 * len(program)


@pytest.mark.parametrize(
    "text",
    ["for (const c of cities) out[", "for (const c of cities) { out[1", "for (", "for (const"],
)
def test_a_loop_cut_short_is_a_syntax_error(text: str) -> None:
    for strict in (False, True):
        with pytest.raises(SourceError):
            parse_plan(text, strict=strict)
