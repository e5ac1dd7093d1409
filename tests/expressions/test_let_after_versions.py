"""A `let` assigned again after a statement that made its next version (SPEC 10, "Changes
outside loops"): ``xs.sort();``, ``o.k = v;``, ``delete o.k;``, ``m.set(k, v);`` change the
name in place, and a later ``xs = ...;`` is one more version of it, as in JavaScript. What is
still refused says what JavaScript does (a `const` assigned again is its TypeError, a name
declared twice its SyntaxError) or what Plan does not follow, with what to write."""

from __future__ import annotations

import random

import pytest

from dialectic import Runtime
from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import parse_plan

from .program_oracle import check, node_answers, runs_as_in_node, runtime

RT: Runtime = runtime()

RUNS = [
    "let xs = [3, 1, 2]; xs.sort(); xs = xs.filter(x => x > 1); return xs;",
    "let xs = [3, 1, 2]; xs.sort(); xs.reverse(); xs = xs.map(x => x * 2); return xs;",
    "var xs = [3, 1, 2]; xs.sort(); xs = xs.filter(x => x > 1); return xs;",
    "let xs = [3, 1, 2]; const first = xs[0]; xs.sort(); xs = xs.filter(x => x > first); "
    "return [first, xs];",
    "let xs = [3, 1, 2]; xs.sort(); let ys = xs; xs = xs.filter(x => x > 1); return [xs, ys];",
    "let xs = [3, 1, 2]; xs.sort(); for (const n of nums) { xs = xs.concat([n]); } return xs;",
    "let xs = [3, 1, 2]; xs.sort((a, b) => b - a); if (xs.length > 2) xs = xs.slice(1); return xs;",
    "let o = {}; o.a = 1; o = {...o, b: 2}; return o;",
    "let o = {}; o.a = 1; o = {b: 2}; return o;",
    "let o = {}; o.a = 1; o.b = 2; o = Object.keys(o); return o;",
    "let o = {a: 1}; o.b = 2; o = {...o, c: 3}; o = {...o, d: 4}; return o;",
    "let o = {a: 1, b: 2}; delete o.a; o = {...o, c: 3}; return o;",
    "let o = {}; o.a = 1; if (nums.length > 2) { o = {...o, big: true}; } return o;",
    "let m = new Map(); m.set('a', 1); m = new Map([...m, ['b', 2]]); return [...m];",
    "let m = new Map(); m.set('a', 1); m = new Map([...m, ['b', 2]]); m.set('c', 3); "
    "return [...m];",
    # as a model writes it
    "let results = await echo([{n: 'b', v: 2}, {n: 'a', v: 1}, {n: 'c', v: 0}]);\n"
    "results.sort((a, b) => a.n.localeCompare(b.n));\n"
    "results = results.filter(r => r.v > 0);\n"
    "return results.map(r => r.n);",
]


def test_a_let_assigned_after_a_version_gives_nodes_answer() -> None:
    runs_as_in_node(RUNS, RT)


#: refused, with (part of) the message, its column and (part of) the hint; Node's answer
#: (None: it throws)
REFUSED = [
    (
        "const o = {}; o.a = 1; o = {b: 2}; return o;",
        "`o` is declared with `const` and assigned again (line 1, column 7 and line 1, "
        "column 24): a TypeError in JavaScript",
        24,
        "declare it with `let`",
    ),
    (
        "const xs = [3, 1, 2]; xs.sort(); xs = xs.filter(x => x > 1); return xs;",
        "`xs` is declared with `const` and assigned again",
        34,
        "let xs = ...;",
    ),
    (
        "const [a, b] = [1, 2]; a = 3; return a;",
        "`a` is declared with `const` and assigned again",
        24,
        "declare it with `let`",
    ),
    (
        "let x = 1; let x = 2; return x;",  # (read as `x = 2` before: 2, a wrong answer)
        "`x` is declared twice (line 1, column 5 and line 1, column 16): a SyntaxError",
        16,
        "declare it once with `let`, then assign it without `let`: x = ...;",
    ),
    (
        "let o = {}; o.a = 1; let o = {}; return o;",
        "`o` is declared twice",
        26,
        "assign it without `let`",
    ),
    (
        "let xs = [3, 1, 2]; xs = xs.filter(x => x > 1); xs.sort(); return xs;",
        "`sort()` reorders `xs` itself in JavaScript, and `xs` holds the value a statement "
        "assigned it, which may be an array held elsewhere",
        49,
        "assign the reordered copy instead: xs = xs.toSorted(...);",
    ),
    (
        "let o = {a: 1}; o.b = 2; o = {...o, c: 3}; o.d = 4; return o;",
        "`o` is changed in place, and it holds the value a statement assigned it",
        44,
        "assign a new object instead: o = {...o, key: value};",
    ),
    (
        "let o; o = {}; o.a = 1; o = {...o, b: 2}; return o;",
        "`o` is changed in place, and it holds the value a statement assigned it",
        16,
        "o = {...o, key: value};",
    ),
    (
        "x = 1; x = 2; return x;",
        "the alias `x` is defined twice",
        8,
        "a name declared with `let` can be",
    ),
]


@pytest.mark.parametrize(("text", "message", "column", "hint"), REFUSED)
def test_what_is_refused_says_why(text: str, message: str, column: int, hint: str) -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan(text)
    problem = caught.value.problems[0]
    assert message in problem.message
    assert problem.line == 1 and problem.column == column, problem
    assert problem.hint is not None and hint in problem.hint, problem.hint


def test_the_refusals_are_refusals_or_nodes_errors() -> None:
    """Node throws for the `const` and the second declaration; the rest are Plan's limits, and
    the hint's program gives Node's answer."""
    texts = [text for text, *_ in REFUSED]
    answers = node_answers(texts)
    for (text, message, *_), answer in zip(REFUSED, answers, strict=True):
        if "declared with `const`" in message:
            assert answer["error"].startswith("TypeError: Assignment to constant"), answer
        elif "declared twice" in message:
            assert answer["error"].startswith("SyntaxError: Identifier"), answer
        elif text.startswith("x = 1;"):  # (an undeclared name: Node's ReferenceError)
            assert "ReferenceError" in answer["error"], answer
        else:
            assert "ok" in answer, (text, answer)
    runs_as_in_node(
        [
            "let xs = [3, 1, 2]; xs = xs.filter(x => x > 1); xs = xs.toSorted(); return xs;",
            "let o = {a: 1}; o.b = 2; o = {...o, c: 3}; o = {...o, d: 4}; return o;",
            "let o; o = {}; o = {...o, a: 1}; return o;",
            "const pair = [1, 2]; let a = pair[0]; const b = pair[1]; a = a + b; return a;",
        ],
        RT,
    )


def _program(seed: int) -> str:
    r = random.Random(seed)
    lines = ["let xs = [3, 1, 2];", "let o = {a: 1};"]
    reads: list[str] = []
    for _ in range(r.randrange(3, 9)):
        n = r.randrange(4)
        k = r.randrange(11)
        if k == 0:
            lines.append("xs.sort();")
        elif k == 1:
            lines.append("xs.sort((a, b) => b - a);")
        elif k == 2:
            lines.append("xs.reverse();")
        elif k == 3:
            lines.append(f"xs = xs.filter(x => x > {n});")
        elif k == 4:
            lines.append(f"xs = xs.concat([{n}, {n + 5}]);")
        elif k == 5:
            lines.append(f"o.k{n} = xs.length;")
        elif k == 6:
            lines.append(f"o = {{...o, k{n}: {n}}};")
        elif k == 7:
            lines.append(f"delete o.k{n};")
        elif k == 8:
            lines.append(f"if (xs.length > {n}) xs = xs.map(x => x + 1);")
        else:
            name = f"r{len(reads)}"
            reads.append(name)
            lines.append(f"const {name} = [xs.join('-'), Object.keys(o).length];")
    lines.append(f"return [xs, o{''.join(', ' + x for x in reads)}];")
    return "\n".join(lines)


def test_random_versions_and_assignments_give_nodes_answer_or_a_refusal() -> None:
    programs = [_program(seed) for seed in range(200)]
    verdicts = check(programs, RT)
    bad = [v for v in verdicts if v.kind not in ("same", "refused")]
    assert not bad, bad[:3]
    for v in verdicts:
        if v.kind == "refused":  # (a change in place after an assignment; never "twice")
            message = RT.run(v.program, lang="plan", context={}).message or ""
            assert "holds the value a statement assigned it" in message, message
            assert "twice" not in message and "destructuring" not in message, message
    assert sum(v.kind == "same" for v in verdicts) >= 70
