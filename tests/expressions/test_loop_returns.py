"""``return`` inside a loop (SPEC 10, "Loops"): the loop stops there and the block gives the
value, as in JavaScript; nothing of a later iteration runs. Each program gives Node's answer;
a random generator mixes returns with `break`, `continue`, `switch`, nested and `while` loops."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dialectic import Runtime
from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import parse_plan
from dialectic.registry.decorators import function

from .program_oracle import node_answers, runs_as_in_node, runtime, same

RT: Runtime = runtime()

PROGRAMS = [
    "for (const p of people) {\n  if (p.age > 10) return p.name;\n}\nreturn 'none';",
    "for (const p of people) { if (p.age > 100) return p.name; }\nreturn 'none';",
    "for (const p of people) if (p.city === 'Rome') return p.name;\nreturn null;",
    "for (const [k, v] of Object.entries(data)) {\n  if (typeof v === 'string') return k;\n}\n"
    "return null;",
    "let i = 0;\nwhile (i < 10) {\n  if (nums[i] > 5) return i;\n  i++;\n}\nreturn -1;",
    "for (const a of nums) {\n  for (const b of nums) {\n    if (a + b === 17) return [a, b];\n"
    "  }\n}\nreturn null;",
    "for (const a of nums) for (const b of nums) if (a * b === 20) return [a, b];\nreturn null;",
    "let total = 0;\nfor (const x of nums) {\n  total += x;\n  if (total > 10) return total;\n}\n"
    "return -total;",
    "const out = [];\nfor (const w of words) {\n  if (w === '') return {out, n: out.length};\n"
    "  out.push(w.toUpperCase());\n}\nreturn out;",
    "for (const p of people) {\n  const r = await echo(p.age);\n  if (r > 5) return p.name + r;\n"
    "}\nreturn 0;",
    "for (const x of nums) {\n  switch (typeof x) {\n"
    "    case 'number': if (x > 9) return x; break;\n    default: break;\n  }\n}\nreturn 0;",
    "for (const x of nums) {\n  switch (true) {\n    case x > 5: return 'big ' + x;\n"
    "    case x < 0: return 'neg ' + x;\n    default: break;\n  }\n}\nreturn 'none';",
    "for (const x of nums) {\n  switch (x) {\n    case 10: { return 'ten'; }\n"
    "    default: break;\n  }\n}\nreturn 'no';",
    "function find(xs, t) {\n  for (const x of xs) {\n    if (x === t) return true;\n  }\n"
    "  return false;\n}\nreturn [find(nums, 10), find(nums, 11)];",
    "const f = (xs) => {\n  for (const x of xs) if (x < 0) return x;\n};\n"
    "return [f(nums), f([1])];",
    "return people.map(p => {\n  for (const t of p.tags) {\n    if (t === 'y') return p.name;\n"
    "  }\n  return '-';\n});",
    "let k = 0;\ndo {\n  k++;\n  if (k * k > 50) return k;\n} while (k < 100);\nreturn -1;",
    "for (const x of nums) {\n  if (x > 5) {\n    const y = x * 2;\n    return y;\n  } else {\n"
    "    continue;\n  }\n}\nreturn 0;",
    "for (const x of nums) { if (x === 2.5) return; }\nreturn 1;",
    "for (const p of people) {\n  for (const t of p.tags) {\n"
    "    if (t === 'x') return `${p.name}:${t}`;\n  }\n  if (p.age < 1) return 'young ' + p.name;\n"
    "}\nreturn '?';",
    "const seen = new Set();\nfor (const w of words) {\n  const k = w.toLowerCase();\n"
    "  if (seen.has(k)) return k;\n  seen.add(k);\n}\nreturn null;",
    "for (const x of nums) { if (x > 100) return x; }\nconst y = 5;\nreturn y * 2;",
    "for (let i = 0; i < nums.length; i++) {\n  if (nums[i] === 0) return i;\n}\nreturn -1;",
    "for (const k in data) {\n  if (data[k] === true) return k;\n"
    "  if (data[k] === null) return 'null:' + k;\n}\nreturn '';",
    "let page = 0;\nwhile (true) {\n  page++;\n  if (page >= 3) return page;\n}",
    "for (const x of nums) {\n  if (x > 1) {\n    if (x > 5) return 'big';\n"
    "    else return 'small';\n  }\n}\nreturn 'none';",
    "for (const x of nums) return x;\nreturn 0;",
    "if (flag) {\n  for (const x of nums) { if (x > 5) return x; }\n  return -1;\n}\nreturn 0;",
    "if (!flag) { return 1; }\nfor (const x of nums) { if (x > 5) return x; }\nreturn 0;",
    "for (const x of nums) {\n  try {\n    if (x > 5) return x;\n  } catch (e) {}\n}\nreturn 0;",
    "for (const x of nums) { if (x > 5) return x; }",
    # a branch whose loop may end without `return` goes on after the `if` (SPEC 10)
    "if (flag) {\n  for (const x of nums) { if (x > 100) return x; }\n}\nreturn 0;",
]


def test_loops_that_return_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def _recording() -> tuple[Runtime, list[Any]]:
    seen: list[Any] = []

    @function
    def note(x: object) -> object:
        seen.append(x)
        return x

    rt = Runtime(load_entry_points=False)
    rt.register(note)
    return rt, seen


@pytest.mark.parametrize(
    ("source", "value", "calls"),
    [
        (
            "for (const x of [3, -1, 2.5, 0, 10]) { await note(x); if (x === 2.5) return x; }\n"
            "return null;",
            2.5,
            [3, -1, 2.5],
        ),
        (
            "for (const x of [3, -1, 2.5, 0, 10]) { if (x === 2.5) return x; await note(x); }\n"
            "return null;",
            2.5,
            [3, -1],
        ),
        (
            "for (const a of [1, 2, 3]) {\n  for (const b of [1, 2, 3]) {\n"
            "    await note(a * 10 + b);\n    if (a + b === 4) return [a, b];\n  }\n"
            "  await note(-a);\n}\nreturn null;",
            [1, 3],
            [11, 12, 13],
        ),
        (
            "let i = 0;\nwhile (i < 10) { i++; await note(i); if (i === 3) return i; }\nreturn -1;",
            3,
            [1, 2, 3],
        ),
        (
            "for (const x of [1, 2, 3]) {\n  switch (x) {\n    case 2: return await note('two');\n"
            "    default: await note(x);\n  }\n}\nreturn 0;",
            "two",
            [1, "two"],
        ),
    ],
)
def test_nothing_runs_after_the_return(source: str, value: Any, calls: list[Any]) -> None:
    rt, seen = _recording()
    out = rt.run(source, lang="plan")
    assert out.status == "success", out.message
    assert out.value == value
    assert seen == calls


@pytest.mark.parametrize(
    ("source", "message", "line", "column"),
    [
        (
            "switch (n) {\n  case 7: for (const x of nums) { if (x > 5) return x; }\n"
            "  default: return 0;\n}",
            "a case of `switch` falls into the next case's statements",
            3,
            3,
        ),
        (
            "for (const x of nums) { return x; x++; }\nreturn 0;",
            "statements after `continue`, `break` or `return` never run",
            1,
            35,
        ),
    ],
)
def test_what_cannot_be_read_fails_at_the_place(
    source: str, message: str, line: int, column: int
) -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan(source)
    problem = caught.value.problems[0]
    assert message in problem.message, problem.message
    assert (problem.line, problem.column) == (line, column), problem.message
    assert problem.hint


def _statement(r: random.Random, depth: int, in_loop: bool) -> str:
    k = r.randrange(12)
    n = r.randrange(1, 6)
    if k == 3 and in_loop:
        return f"if (a > {n + 3}) return ['early{n}', a, s9, out];"
    if k == 4 and in_loop:
        return f"if (x === {n % 3}) continue;"
    if k == 5 and in_loop:
        return f"if (a % {n + 1} === 0) break;"
    if k == 6 and depth < 2:
        inner = _statement(r, depth + 1, True) + " " + _statement(r, depth + 1, True)
        return f"for (const x of [0, 1, 2, {n}]) {{ {inner} }}"
    if k == 7 and depth < 2:
        w = f"w{r.randrange(10**6)}"
        inner = _statement(r, depth + 1, True) + " " + _statement(r, depth + 1, True)
        return f"let {w} = 0; while ({w} < {n}) {{ {w}++; {inner} }}"
    if k == 8 and depth < 2:
        return (
            f"if (a > {n}) {{ {_statement(r, depth + 1, in_loop)} }} "
            f"else {{ {_statement(r, depth + 1, in_loop)} }}"
        )
    if k == 9 and in_loop and depth < 3:
        return (
            "switch (a % 3) { case 0: a += 1; break; case 1: return ['sw', a]; "
            "default: s9 += 'd'; }"
        )
    if k == 10 and in_loop:
        return f"if (out.length > {n}) {{ const t = out.length; return {{t, a}}; }}"
    if k == 0 and depth == 0:  # a C-style loop that is not a count: a `while`
        q = f"q{r.randrange(10**6)}"
        inner = _statement(r, depth + 1, True) + " " + _statement(r, depth + 1, True)
        return f"for (let {q} = 1; {q} < {n * 3}; {q} *= 2) {{ {inner} }}"
    if k == 11 and depth == 0:  # a guard: the statements after it are a block of their own
        return f"if (a > {n + 2}) return ['guard', a, s9, out.length];"
    return ("a += 2;", "out.push(a);", "s9 += 'x';", "a++;")[k % 4]


def _program(seed: int) -> str:
    r = random.Random(seed)
    lines = [f"let a = {r.randrange(5)};", "let s9 = 'q';", "const out = [];"]
    lines += [_statement(r, 0, False) for _ in range(r.randrange(1, 5))]
    lines.append("return [a, s9, out];")
    return "\n".join(lines)


def test_random_loops_that_return_give_nodes_answer() -> None:
    sources = [_program(seed) for seed in range(160)]
    answers = node_answers(sources)
    ran = 0
    for source, answer in zip(sources, answers, strict=True):
        out = RT.run(source, lang="plan")
        if out.status != "success":  # refused (with its place): never a wrong answer
            assert out.error is not None and out.error.line is not None, out.message
            continue
        assert "ok" in answer, (source, answer)
        assert same(out.value, answer["ok"]) is None, (source, out.value, answer)
        ran += 1
    assert ran >= 80, ran
