"""Statements that change a value outside a loop (SPEC 10, "Changes outside loops"): an `if`
without `return` that assigns, pushes or calls; a `let` assigned again (`x = ...`, `x += 1`,
`x++`); `let x;` set later; a push to an array literal. Each is read as a loop over one item,
and gives Node's answer."""

from __future__ import annotations

import time

import pytest

from dialectic import Runtime
from dialectic.frontends.plan import parse_plan

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "let status = 'low';\nif (n > 5) { status = 'high'; }\nreturn status;",
    "let status;\nif (n > 5) { status = 'high'; } else { status = 'low'; }\nreturn status;",
    "let x = 0;\nx = x + 1;\nx += 2;\nx++;\n++x;\nx *= 3;\nreturn x;",
    "const out = [];\nif (flag) { out.push(1); }\nout.push(2);\nreturn out;",
    "let total = 0;\nfor (const v of nums) total += v;\ntotal = Math.round(total);\nreturn total;",
    "const o = {};\nif (flag) o.a = 1;\nreturn o;",
    "let msg = '';\nif (n > 5) msg += 'big';\nelse msg += 'small';\nreturn msg;",
    "let count = 0;\nif (flag) { count++; if (n > 3) { count += 10; } } else count--;\n"
    "return count;",
    "let r;\nif (n > 100) r = 'a';\nelse if (n > 5) r = 'b';\nelse r = 'c';\nreturn r;",
    "let x = 1;\nif (flag) { const y = x * 2; x = y + 1; }\nreturn x;",
    "let x = 1;\nif (flag) { x = await echo(5); }\nreturn x;",
    "let label = 'none';\nif (people.length > 2) label = `${people.length} people`;\nreturn label;",
    "let best = null;\nfor (const p of people) { if (!best || p.age > best.age) best = p; }\n"
    "return best.name;",
    "let x;\nreturn x;",
    "let s2 = '';\nfor (const w of words) { s2 += w; }\ns2 = s2.toUpperCase();\nreturn s2;",
    # in a function's body and in an `if` statement's branch
    "function grade(p) {\n  let g = 'C';\n  if (p.age > 30) g = 'A';\n"
    "  else if (p.age > 5) g = 'B';\n  return g;\n}\nreturn people.map(grade);",
    "if (flag) {\n  let t = 1;\n  if (n > 2) t = 2;\n  return t;\n}\nreturn 0;",
    # a read before the change reads the value before (held whole, an array is refused)
    "let a = 1;\na = a + 1;\nconst b = a * 10;\na = 100;\nreturn [a, b];",
    "let total = 0;\nconst before = total;\nfor (const x of nums) total += x;\n"
    "return [before, total];",
    "let t = 0;\nfor (const c of words) t += 1;\nconst u = t;\nfor (const c of words) t += 1;\n"
    "return [u, t];",
    "let o = {k: 1};\nconst keep = o;\no = {k: 2};\nreturn [keep, o];",
    "let x = 1;\nconst arr = [1, 2].map(v => v + x);\nx = 50;\nreturn [arr, x];",
    "const out = [1];\nconst n0 = out.length;\nout.push(2);\nreturn [out, n0];",
    "const m = {};\nconst before = {...m};\nfor (const w of ['a', 'b']) m[w] = 1;\n"
    "return [before, m];",
    # several declarators in one statement
    "let n2 = 27, steps = 0;\nwhile (n2 !== 1) {\n  n2 = n2 % 2 === 0 ? n2 / 2 : 3 * n2 + 1;\n"
    "  steps++;\n}\nreturn steps;",
    "const a = 1, b = a + 1, c = [a, b];\nreturn c;",
    "let best, bestScore = -1;\nfor (const p of people) {\n"
    "  if (p.age > bestScore) { bestScore = p.age; best = p.name; }\n}\nreturn [best, bestScore];",
    "let x, y;\nx = 1;\ny = x + 1;\nreturn [x, y];",
    # an arrow's body with statements
    "return people.map(p => {\n  let tags = p.tags.length;\n  if (p.city) tags += 1;\n"
    "  return tags;\n});",
]


def test_changes_outside_loops_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def test_a_call_in_an_if_without_return_runs_only_when_its_test_holds() -> None:
    text = (
        "const sent = [];\nif (flag) { sent.push(await echo('a')); }\n"
        "if (!flag) { sent.push(await echo('b')); }\nreturn sent;"
    )
    out = RT.run(text, lang="plan", context={"flag": True})
    assert out.status == "success" and out.value == ["a"], out.message
    done = [c for c in out.calls if c["status"] == "done"]
    assert len(done) == 1 and "'a'" in repr(done[0]), out.calls


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ("let x = 0;\nif (flag) { break; }\nreturn x;", "`break` outside a loop", 2, 13),
        (
            "const out = [1];\nconst keep = out;\nout.push(2);\nreturn [keep, out];",
            "`out` is read before the statement changes it",
            2,
            14,
        ),
        (
            "const t = 0;\nt = 5;\nreturn t;",
            "`t` is declared with `const` and assigned again",
            2,
            1,
        ),
        ("const q = 1, r = 2;\nr = 3;\nreturn r;", "declared with `const` and assigned", 2, 1),
        # (a declaration per name, `const r;`: JavaScript requires a value)
        ("const q = 1, r;\nreturn q;", "`r` is declared without a value", 1, 14),
    ],
)
def test_changes_outside_loops_refused(text: str, message: str, line: int, column: int) -> None:
    out = RT.run(text, lang="plan", context={"flag": True})
    assert out.status == "failure" and out.error is not None
    assert message in (out.message or ""), out.message
    assert (out.error.line, out.error.column) == (line, column), out.message


def _nested_ifs(depth: int) -> str:
    text = "return 0;"
    for i in range(depth):
        text = f"if (n > {i}) {{ const v{i} = {i}; {text} }} return {i};"
    return text


def _parse_cost(text: str) -> float:
    """CPU seconds per character of parsing ``text``, best of 3."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(5):
            parse_plan(text)
        best = min(best, time.process_time() - start)
    return best / len(text)


def test_nested_if_statements_are_read_in_linear_time() -> None:
    # each `if` asks whether it holds a `return`: a bracket table read once, not a walk of its
    # text per `if` (which made 80 nested ones cost 4x per character what 10 did)
    small, big = _parse_cost(_nested_ifs(10)), _parse_cost(_nested_ifs(80))
    assert big < 2.5 * small, (small, big)
