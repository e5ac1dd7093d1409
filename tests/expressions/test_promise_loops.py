"""``await Promise.all(xs.map(async (x) => { ... }));`` as a statement is the loop over ``xs``
(SPEC 10, "Loops"; :mod:`dialectic.frontends.plan.promiseloop`): Node's answer where the loop's
order of changes is JavaScript's (nothing the body changes is read before its last ``await``,
every ``await`` unconditional), else refused at its place with what to write. A generator of
random callback bodies checks that no program gives another answer than Node."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dialectic import Runtime

from .program_oracle import check, runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "const out = [];\nawait Promise.all(nums.map(async x => {\n  out.push(await echo(x));\n}));"
    "\nreturn out;",
    "const results = {};\nawait Promise.all(words.map(async (w) => {\n"
    "  results[w] = await echo(w.length);\n}));\nreturn results;",
    "const results = {};\nawait Promise.all(people.map(async (p, i) => {\n"
    "  const r = await echo(p.age);\n  results[p.name] = r + i;\n}));\nreturn results;",
    "const out = [];\nawait Promise.all(nums.map(async x => out.push(await later(x))));\n"
    "return out;",
    "let total = 0;\nawait Promise.all(nums.map(async x => {\n  const v = await echo(x);\n"
    "  total += v;\n}));\nreturn total;",
    "const out = [];\nawait Promise.all(nums.map(async x => {\n  const a = await echo(x);\n"
    "  const b = await later(a * 2);\n  if (b > 0) out.push(b);\n}));\nreturn out;",
    "const seen = new Set();\nawait Promise.all(words.map(async w => {\n"
    "  const v = await echo(w);\n  seen.add(v.length);\n}));\nreturn [...seen];",
    "const m = new Map();\nawait Promise.all(words.map(async w => {\n"
    "  m.set(w, await echo(w.length));\n}));\nreturn Object.fromEntries(m);",
    "const counts = {};\nawait Promise.all(people.map(async p => {\n"
    "  const tags = await echo(p.tags);\n"
    "  for (const t of tags) counts[t] = (counts[t] || 0) + 1;\n}));\nreturn counts;",
    "const out = [];\nawait Promise.all(nums.map(async x => {\n  const v = await echo(x);\n"
    "  if (v < 0) return;\n  out.push(v);\n}));\nreturn out;",
    "const out = [];\nfor (const ws of [words, ['a']]) {\n"
    "  await Promise.all(ws.map(async w => { out.push(await echo(w)); }));\n}\nreturn out;",
    "const byId = {};\nawait Promise.all((await echo([3, 1, 2])).map(async id => {\n"
    "  const r = await echo({id, name: 'n' + id});\n  byId[r.id] = r.name;\n}));\n"
    "return Object.keys(byId);",
]


def test_promise_all_loops_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # JavaScript reads `total` for every item before any adds to it: Node gives 7
        (
            "let total = 0;\nawait Promise.all(nums.map(async x => { total += await echo(x); }));"
            "\nreturn total;",
            "`total` is read before the callback's last `await`",
        ),
        (
            "const log = [];\nawait Promise.all(nums.map(async x => {\n  log.push(x);\n"
            "  await echo(x);\n  log.push(-x);\n}));\nreturn log;",
            "`log` is read before the callback's last `await`",
        ),
        # an `await` some items run: Node's order is [0, 0, 3, 2.5, 10, 7]
        (
            "const out = [];\nawait Promise.all(nums.map(async x => {\n"
            "  const v = x > 2 ? await echo(x) : 0;\n  out.push(v);\n}));\nreturn out;",
            "an `await` that runs for some items only",
        ),
        (
            "const out = [];\nawait Promise.all(nums.map(async x => {\n"
            "  if (x > 2) { out.push(await echo(x)); }\n}));\nreturn out;",
            "an `await` that runs for some items only",
        ),
        (
            "const out = [];\nawait Promise.all(nums.map(async x => {\n"
            "  out.push(await Promise.all([x].map(async y => echo(y))));\n}));\nreturn out;",
            "a function inside",
        ),
        (
            "const out = [];\nawait Promise.all(data.map(async x => { out.push(await echo(x)); }));"
            "\nreturn out;",
            "`map` is an array method",
        ),
    ],
)
def test_other_orders_are_refused_at_their_place(text: str, message: str) -> None:
    out = RT.run(
        text, lang="plan", strict=True, context={"nums": [3, -1, 2.5, 0, 10, 7], "data": {"a": 1}}
    )
    assert out.status == "failure", out.to_json()
    assert message in (out.message or ""), out.message
    assert out.error is not None and out.error.line is not None


#: statements a generated callback body is made of (`x` the item, `k` a number)
_PIECES = [
    "const a{n} = await echo(x + {k});",
    "const a{n} = await later(x * {k});",
    "out.push(await echo(x + {k}));",
    "out.push(x * {k});",
    "acc[x] = await echo({k});",
    "acc['k' + {k}] = x;",
    "total += x;",
    "total = total + await echo({k});",
    "count++;",
    "if (x > {k}) out.push(-x);",
    "if (x > {k}) {{ out.push(await echo(x)); }}",
    "const b{n} = out.length;",
    "const b{n} = total + count;",
    "await echo(x);",
    "if (x < 0) return;",
    "const c{n} = x > {k} ? await echo(x) : {k};",
    "seen.add(await echo(x % {k}));",
]


def _generated(seed: int) -> str:
    rng = random.Random(seed)
    body = []
    for n in range(rng.randint(1, 5)):
        body.append(rng.choice(_PIECES).format(n=n, k=rng.randint(0, 4)))
    items = rng.choice(["nums", "[1, 2, 3]", "[4, 0, -2, 4]", "[]"])
    return (
        "const out = [];\nconst acc = {};\nconst seen = new Set();\nlet total = 0;\n"
        "let count = 0;\n"
        f"await Promise.all({items}.map(async (x) => {{\n  " + "\n  ".join(body) + "\n}));\n"
        "return [out, acc, [...seen], total, count];"
    )


def test_generated_callbacks_never_answer_otherwise_than_node() -> None:
    verdicts = check([_generated(seed) for seed in range(400)], RT)
    tally = Counter(v.kind for v in verdicts)
    bad = [v for v in verdicts if v.kind in ("wrong", "crash")]
    assert not bad, bad[:3]
    assert tally["same"] >= 120, tally  # (most bodies run)
