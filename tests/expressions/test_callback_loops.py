"""A ``filter`` or ``map`` whose callback changes names outside it runs as the ``forEach``
loop it is (SPEC 10, "Loops"; :mod:`dialectic.frontends.plan.callbackloop`): Node's answer, or
a refusal, never another answer."""

from __future__ import annotations

import random

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import judge, node_answers, runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    # the de-duplication models write: a Set of what the callback has seen
    "const seen = new Set();\nreturn people.filter(p => {\n  const k = p.tags.length;\n"
    "  if (seen.has(k)) return false;\n  seen.add(k);\n  return true;\n});",
    "const seen = new Set();\nconst out = words.filter((w, i) => {\n"
    "  if (seen.has(w.length)) return false;\n  seen.add(w.length);\n  return i > 0;\n})"
    ".map(w => w.toUpperCase());\nreturn out;",
    "const seen = new Set();\nconst n1 = nums.filter(x => {\n  if (seen.has(Math.sign(x))) "
    "return false;\n  seen.add(Math.sign(x));\n  return true;\n}).length;\nreturn n1;",
    # counters and side lists in map
    "let count = 0;\nconst doubled = nums.map(x => { count++; return x * 2; });\n"
    "return [doubled, count];",
    "let total = 0;\nconst out = nums.map((x, i) => { total += x; if (x > 2) return total; });\n"
    "return [out, total];",
    "const ids = [];\nconst names = people.map(p => { ids.push(p.age); return p.name; });\n"
    "return {ids, names};",
    "const counts = {};\nconst r = words.filter(w => {\n"
    "  counts[w.length] = (counts[w.length] || 0) + 1;\n  return counts[w.length] === 1;\n});\n"
    "return [r, counts];",
    "let c = 0;\nconst r = nums.filter(x => { c++; return x; });\nreturn [r, c];",
    "let c = 0;\nconst r = people.map(p => {\n  c++;\n  let found = null;\n"
    "  for (const t of p.tags) { if (t === 'y') { found = t; break; } }\n  return found;\n});\n"
    "return [r, c];",
    "let c = 0;\nconst r = people.map(p => { c++; return p.tags.map(t => { return t + c; }); });\n"
    "return [r, c];",
    "let c = 0;\nconst r = nums.filter(x => { c++; if (c > 3) return false; return true; })"
    ".map(x => x * 10);\nreturn r;",
    "const out = [];\nconst r = nums.map(x => { out.push(x); return out.length; });\n"
    "return [r, out];",
    "let c = 0;\nreturn nums.map(x => { c++; return c; }).join('-');",
    "let c = 0;\nconst r = nums.map(x => { c++; return c; })[2];\nreturn r;",
    "let last = null;\nconst r = nums.map(x => { const prev = last; last = x; return prev; });\n"
    "return r;",
    "let c = 0;\nconst r = nums.map(x => {\n  if (x > 2) { c++; return 'big'; }\n"
    "  else return 'small';\n});\nreturn [r, c];",
    "let c = 0;\nconst r = nums.map(x => { c++; if (x > 2) return; return x; });\nreturn [r, c];",
    "let i2 = 0;\nconst r = nums.map(x => { i2 += 1; });\nreturn [r, i2];",
    "const m = new Map();\nconst r = words.map(w => {\n"
    "  m.set(w.length, (m.get(w.length) || 0) + 1);\n  return m.get(w.length);\n});\nreturn r;",
    "const acc = [];\nconst r = people.map(p => { for (const t of p.tags) acc.push(t); "
    "return p.tags.length; });\nreturn [r, acc];",
    # a `switch` that always returns (a `default`, no `break`), and ones that may not
    "let c = 0;\nconst r = nums.map(x => {\n  c += x;\n"
    "  switch (x) { case 3: return 'three'; default: return c; }\n});\nreturn r;",
    "let c = 0;\nconst r = nums.map(x => { c += x; switch (x) { case 3: return 1; } });\n"
    "return [r, c];",
    "let c = 0;\nconst r = nums.map(x => {\n  c += x;\n"
    "  switch (x) { case 3: break; default: return 2; }\n});\nreturn [r, c];",
    "const seen = new Set();\nreturn [1, 1, 2].filter(p => {\n  if (seen.has(p)) return false;"
    "\n  seen.add(p);\n  return true;\n});",
]


def test_callbacks_that_change_names_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def test_a_failure_in_a_callback_read_as_the_loop_points_into_the_callback() -> None:
    out = RT.run(
        "let c = 0;\nconst r = nums.map(x => {\n  c++;\n  return parseInt(x);\n});\nreturn r;",
        lang="plan",
        context=CONTEXT,
    )
    assert out.status == "failure" and out.error is not None, out.value
    assert (out.error.line, out.error.column) == (4, 10), out.message


def test_a_callback_that_cannot_be_the_loop_is_refused() -> None:
    for text in [
        # a `return` inside a loop of the callback: the loop has no `return`
        "let c = 0;\nconst r = people.map(p => {\n  c++;\n  for (const t of p.tags) "
        "{ if (t === 'y') return t; }\n  return null;\n});\nreturn r;",
        # an `async` callback: left as it is, refused as before
        "let c = 0;\nconst r = nums.map(async x => { c++; return x; });\nreturn c;",
    ]:
        out = RT.run(text, lang="plan", context=CONTEXT)
        assert out.status == "failure", (text, out.value)
        assert out.error is not None and out.error.line is not None, text


_STATEMENTS = [
    "c++;",
    "c += x;",
    "seen.add(x % 3);",
    "out.push(x);",
    "if (seen.has(x % 3)) return {v};",
    "if (x > {t}) return {v};",
    "if (x > {t}) {{ c++; return {v}; }}",
    "if (c > {t}) {{ return {v}; }} else {{ c--; }}",
    "last = x;",
    "const y = x * 2; c += y;",
    "if (x < {t}) return;",
]
_VALUES = ["x", "c", "true", "false", "null", "x > 2", "c % 2 === 0", "out.length", "last", "0"]


def _program(rng: random.Random) -> str:
    method = rng.choice(["filter", "map"])
    body = []
    for _ in range(rng.randint(1, 4)):
        form = rng.choice(_STATEMENTS)
        body.append(form.format(t=rng.choice([0, 1, 2, 3]), v=rng.choice(_VALUES)))
    if rng.random() < 0.7:
        body.append(f"return {rng.choice(_VALUES)};")
    tail = rng.choice(["", ".length", ".slice(1)", "[0]"])
    return (
        "let c = 0;\nlet last = null;\nconst seen = new Set();\nconst out = [];\n"
        f"const r = nums.{method}(x => {{ {' '.join(body)} }}){tail};\n"
        "return [r, c, last, [...seen], out];"
    )


def test_random_callbacks_give_what_node_gives_or_are_refused() -> None:
    rng = random.Random(11)
    programs = [_program(rng) for _ in range(200)]
    answers = node_answers(programs)
    kinds = {"same": 0, "refused": 0}
    for text, answer in zip(programs, answers, strict=True):
        if "ok" not in answer:  # (Node threw: a failure is what is due)
            out = RT.run(text, lang="plan", context=CONTEXT)
            assert out.status == "failure", (text, answer, out.value)
            continue
        verdict = judge(RT, text, answer)
        assert verdict.kind in kinds, (text, verdict.detail)
        kinds[verdict.kind] += 1
    assert kinds["same"] > 0.6 * sum(kinds.values()), kinds
