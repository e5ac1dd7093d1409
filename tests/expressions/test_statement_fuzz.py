"""Random sequences of statements that change values outside and inside loops (SPEC 10,
"Changes outside loops", "Switch", "Loops"): `let` assignments, pushes, member sets, `if`
without `return`, `switch` with `break`, `for` and `while` loops, and reads of a value before a
later change. Each program gives Node's answer (found: a nested `switch`'s `break` taken for the
case's own, a member set after a loop refused as "defined by destructuring")."""

from __future__ import annotations

import random

from .program_oracle import node_answers, runtime, same

SEEDS = range(200)


def _statement(r: random.Random, reads: list[str], depth: int) -> str:
    k = r.randrange(14)
    n = r.randrange(1, 5)
    if k == 0:
        return f"a = a + {n};"
    if k == 1:
        return f"a += {n};"
    if k == 2:
        return "a++;"
    if k == 3:
        return "s9 += 'x';"
    if k == 4:
        return "s9 = s9 + a;"
    if k == 5:
        return "out.push(a);"
    if k == 6:
        return "o['k' + (a % 3)] = s9.length;"
    if k in (7, 8) and depth == 0:
        name = f"r{len(reads)}"
        reads.append(name)
        value = "a * 2 + s9.length" if k == 7 else "out.length"
        return f"const {name} = {value};"
    if k == 9 and depth < 2:
        then = _statement(r, reads, depth + 1) + " " + _statement(r, reads, depth + 1)
        return f"if (a > {n}) {{ {then} }} else {{ {_statement(r, reads, depth + 1)} }}"
    if k == 10 and depth < 2:
        cases = [_statement(r, reads, depth + 1) for _ in range(3)]
        return (
            f"switch (a % 3) {{ case 0: {cases[0]} break; case 1: {cases[1]} break; "
            f"default: {cases[2]} }}"
        )
    if k == 11 and depth < 1:
        return f"for (const x of [1, {n}]) {{ a += x; {_statement(r, reads, depth + 1)} }}"
    if k == 12 and depth < 1:
        w = f"w{len(reads)}_{r.randrange(10**6)}"
        return f"let {w} = 0; while ({w} < {n}) {{ {w}++; {_statement(r, reads, depth + 1)} }}"
    return f"if (s9.length > {n}) s9 += 'y';"


def program(seed: int) -> str:
    r = random.Random(seed)
    reads: list[str] = []
    lines = [f"let a = {r.randrange(5)};", "let s9 = 'q';", "const out = [];", "const o = {};"]
    lines += [_statement(r, reads, 0) for _ in range(r.randrange(3, 9))]
    lines.append(f"return [a, s9, out, o{''.join(', ' + x for x in reads)}];")
    return "\n".join(lines)


def test_random_statements_give_nodes_answer() -> None:
    programs = [program(seed) for seed in SEEDS]
    rt = runtime()
    wrong = []
    for text, answer in zip(programs, node_answers(programs), strict=True):
        assert "ok" in answer, (text, answer)
        out = rt.run(text, lang="plan", context={})
        if out.status != "success":
            wrong.append(f"refused: {out.message}\n{text}")
            continue
        why = same(out.value, answer["ok"])
        if why is not None:
            wrong.append(f"wrong: {why}\n{text}")
    assert not wrong, "\n\n".join(wrong[:3])
