"""Control flow models write (SPEC 10, "Changes outside loops" and "Loops"): an `if` (an
`else if` chain, a `switch`) of which some branches return and others go on, a loop that may
return inside such a branch, and `const`/`let` declared again in sibling blocks and in blocks
inside blocks. Each program gives Node's answer; random ones mix every form."""

from __future__ import annotations

import pytest

from dialectic import Runtime
from dialectic.frontends.plan import parse_plan
from dialectic.frontends.plan.decompile import decompile

from .branch_programs import program
from .program_oracle import node_answers, runs_as_in_node, runtime, same
from .test_loop_returns import _recording

RT: Runtime = runtime()

PROGRAMS = [
    # one branch returns, the other goes on: the statements after the `if` are its rest
    "let s2;\nif (flag) { s2 = 'a'; } else { return 'b'; }\nreturn s2;",
    "let s2;\nif (!flag) { s2 = 'a'; } else { return 'b'; }\nreturn s2;",
    "let t = 0;\nif (nums.length > 3) { t = 1; } else if (flag) { return 'x'; } else { t = 2; }\n"
    "return t;",
    "let t = 0;\nif (nums.length > 9) { return 1; } else if (flag) { t = 5; } else { return 2; }\n"
    "return t * 2;",
    "let t = 1;\nif (flag) t = 2;\nelse return 0;\nreturn t;",
    # nested: an inner `if` returns, the outer branch goes on
    "let t = 0;\nif (flag) {\n  if (n > 3) { return 'big'; }\n  t = 4;\n}\nreturn t;",
    "let z = 0;\nif (n > 3) { if (flag) { z = 1; } else { return 2; } } else { return -1; }\n"
    "return z;",
    "if (n > 30) { if (flag) return 'a'; } else { if (!flag) return 'b'; }\nreturn 'c';",
    "let m = 0;\nif (flag) { m = 1; if (n === 7) return 'x'; m = 2; }\nreturn m;",
    # a loop that may return, in a branch that may end without returning
    "if (flag) { for (const x of nums) { if (x > 5) return x; } }\nreturn -1;",
    "if (flag) { for (const x of nums) { if (x > 50) return x; } }\nreturn -1;",
    "let q = '';\nfor (const w of words) {\n  if (w.length > 5) { q = w; } else if (w === '') "
    "{ return q; }\n}\nreturn 'end';",
    "let k = 0;\nfor (const p of people) { if (p.age > 30) { return p.name; } else { k += 1; } }\n"
    "return k;",
    # in functions and arrow functions
    "function f(xs) {\n  if (!xs.length) { return 0; } else {\n    let t = 0;\n"
    "    for (const x of xs) t += x;\n    return t;\n  }\n}\nreturn f(nums);",
    "function g(v) {\n  let r = 'none';\n  if (v > 3) { r = 'hi'; } else if (v < 0) "
    "{ return 'neg'; }\n  return r;\n}\nreturn [g(5), g(-1), g(1)];",
    "function f3(v) { if (v) { return 1; } }\nreturn [f3(true), f3(false)];",
    "const h = (v) => { let r = 0; if (v) { r = 1; } else { return -1; } return r + 1; };\n"
    "return [h(true), h(false)];",
    "return nums.map(x => { let r = 0; if (x > 2) { r = 1; } else { return -1; } return r; });",
    # `switch` cases that return and cases that go on
    "let c = 0;\nswitch (n) { case 7: c = 1; break; case 8: return 'eight'; default: c = 3; }\n"
    "return c;",
    "let c = 0;\nswitch (n) { case 1: return 'one'; case 2: c = 2; break; }\nreturn c;",
    "let c = 0;\nswitch (n) {\n  case 7: if (flag) { return 'a'; } else { return 'b'; }\n"
    "  case 8: c = 8; break;\n}\nreturn c;",
    "let c = 0;\nswitch (n) { case 7: c += 1; return c; default: c = 5; return c; }",
    # `const`/`let` of sibling blocks, and of a block inside a block
    "let s3 = 0;\nfor (const x of nums) {\n  if (x % 2) { const y = x * 2; s3 += y; }\n"
    "  else { const y = x; s3 += y; }\n}\nreturn s3;",
    "let s3 = 0;\nfor (const x of nums) {\n  const y = 1;\n"
    "  if (x > 2) { const y = x * 2; s3 += y; }\n  s3 += y;\n}\nreturn s3;",
    "let s3 = 0;\nfor (const x of nums) {\n  if (x > 2) { const y = x * 2; s3 += y; }\n"
    "  const y = 100;\n  s3 += y;\n}\nreturn s3;",
    "let s3 = 0;\nfor (const x of nums) { { const x = 5; s3 += x; } s3 += x; }\nreturn s3;",
    "let t = 0;\nfor (const x of nums) {\n  let y = 1;\n  if (x > 2) { let y = 0; "
    "for (const z of [1, 2]) { y += z; } t += y; }\n  t += y;\n}\nreturn t;",
    "let t = 0;\nfor (const p of people) {\n  if (p.age > 5) { const {name, age} = p; t += age; }\n"
    "  else { const {name, age} = p; t -= age; }\n}\nreturn t;",
    "let t = 0;\nnums.forEach(x => { if (x > 2) { const y = x; t += y; } else { const y = 1; "
    "t += y; } });\nreturn t;",
    "let s4 = 0;\nif (flag) { const y = 1; s4 += y; } else { const y = 2; s4 += y; }\nreturn s4;",
    "let t = 0;\n{ const y = 2; t += y; }\n{ const y = 3; t += y; }\nreturn t;",
    "let t = 0;\n{ const y = 2; if (y > n) return 'x'; t += y; }\nreturn t;",
    "let t = 0;\n{ t += 1; { t *= 3; } }\nreturn t;",
]


#: a block that returns changes a value of the block around it: it is brought in (SPEC 10,
#: "Changes outside loops"), which `dialectic decompile` writes as a second definition (as
#: after a guard: the text does not read back)
BROUGHT = [
    "let s5 = 'q';\nif (flag) { s5 += 'x'; return s5; }\nreturn s5;",
    "let s5 = 'q';\nif (!flag) { s5 += 'x'; return s5; } else { s5 += 'y'; return s5 + s5; }",
    "const out = [];\nif (flag) { out.push(1); return out; }\nreturn out;",
    # an array returned whole from a loop, then changed by the statements after it
    "const out = [];\nif (flag) { for (const x of nums) { if (x > 5) return out; out.push(x); } }\n"
    "out.push(0);\nreturn out;",
]


def test_partial_returns_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS + BROUGHT, RT)


@pytest.mark.parametrize("text", PROGRAMS)
def test_partial_returns_decompile_and_read_back(text: str) -> None:
    tree = parse_plan(text, strict=True).tree
    assert parse_plan(decompile(tree), strict=True).tree == tree


def test_a_branch_not_taken_calls_nothing() -> None:
    rt, seen = _recording()
    source = (
        "let r = 0;\nfor (const x of [1, 2, 3]) {\n  if (x === 2) { r = await note(x); }\n"
        "  else if (x === 3) { return await note('three'); }\n}\nreturn await note(r);"
    )
    out = rt.run(source, lang="plan")
    assert out.status == "success", out.message
    assert out.value == "three"
    assert seen == [2, "three"]


@pytest.mark.parametrize(
    ("source", "message", "line", "column"),
    [
        (  # JavaScript's ReferenceError: the inner `y` is not declared yet there
            "let s = 0;\nfor (const x of nums) {\n  const y = 1;\n"
            "  if (x > 2) { s += y; const y = x; s += y; }\n}\nreturn s;",
            "`y` is read before its declaration in this block",
            4,
            21,
        ),
        (
            "let s = 0;\nfor (const x of nums) {\n  if (x > 2) { const y = x; s += y; }\n"
            "  s += y;\n  const y = 1;\n}\nreturn s;",
            "`y` is read where it is not defined",
            4,
            8,
        ),
        (  # JavaScript's SyntaxError
            "let s = 0;\nfor (const x of nums) { const y = x; const y = 2; s += y; }\nreturn s;",
            "`y` is declared twice in one block",
            2,
            44,
        ),
        (
            "let t = 0;\nif (flag) { use 1; } else { t = 2; }\nreturn t;",
            "`use` is allowed only at the top of a program",
            2,
            13,
        ),
    ],
)
def test_what_javascript_refuses_fails_at_the_place(
    source: str, message: str, line: int, column: int
) -> None:
    out = RT.run(source, lang="plan")
    assert out.status == "failure" and out.error is not None
    assert message in (out.message or ""), out.message
    assert (out.error.line, out.error.column) == (line, column), out.message
    assert out.error.hint


def test_random_branches_give_nodes_answer() -> None:
    """1,200 random programs: never a wrong answer; almost all run (each refusal is one of
    the documented ones, at its place)."""
    sources = [program(seed) for seed in range(1200)]
    answers = node_answers(sources)
    ran = 0
    for source, answer in zip(sources, answers, strict=True):
        out = RT.run(source, lang="plan")
        if out.status != "success":
            assert out.error is not None and out.error.line is not None, out.message
            continue
        assert "ok" in answer, (source, answer)
        assert same(out.value, answer["ok"]) is None, (source, out.value, answer)
        ran += 1
    assert ran >= 1150, ran
