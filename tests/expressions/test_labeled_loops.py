"""Labeled loops (``outer: for (...) { ... break outer; }``) read as the flags their jumps
stand for (frontends/plan/labelloops.py, SPEC 10 "Loops"): generated nests of loops with
labeled and plain jumps give Node's value; what is not read so keeps its refusal at the label,
with what to write."""

from __future__ import annotations

import random

import pytest

from .program_oracle import check, runtime

RT = runtime()


def _cond(rng: random.Random, names: list[str]) -> str:
    a = rng.choice(names)
    k = rng.randint(0, 3)
    return rng.choice(
        [f"{a} > {k}", f"{a} === {k}", f"({a} + {names[0]}) % 3 === {k % 3}", f"{a} < {k}"]
    )


def _loop(rng: random.Random, level: int, labels: list[str], names: list[str]) -> str:
    """A loop at ``level`` (0: the outermost) over a small array, its body pushing what runs
    and jumping on tests: to its own or an enclosing label, or plainly."""
    name = "abc"[level]
    names = [*names, name]
    label = f"L{level}" if rng.random() < 0.7 else None
    pad = "  " * (level + 1)
    lines = []
    for _ in range(rng.randint(1, 2)):
        jump = rng.choice(["break", "continue"])
        target = rng.choice([*labels, label, None]) if labels or label else None
        where = f" {target}" if target else ""
        roll = rng.random()
        if roll < 0.4:
            lines.append(f"{pad}if ({_cond(rng, names)}) {jump}{where};")
        elif roll < 0.6:
            lines.append(
                f"{pad}if ({_cond(rng, names)}) {{ out.push('t'); }} else {{ {jump}{where}; }}"
            )
        else:
            lines.append(
                f"{pad}if ({_cond(rng, names)}) {{ out.push('j{level}'); {jump}{where}; }}"
            )
    if level < 2 and rng.random() < 0.8:
        inner_labels = [*labels, label] if label else labels
        lines.append(_loop(rng, level + 1, [x for x in inner_labels if x], names))
    lines.insert(rng.randint(0, len(lines)), f"{pad}out.push(`{name}${{{name}}}`);")
    head = "  " * level + (f"{label}: " if label else "")
    items = ", ".join(str(rng.randint(0, 3)) for _ in range(rng.randint(2, 4)))
    loop = (
        f"for (const {name} of [{items}])"
        if rng.random() < 0.6
        else f"for (let {name} = 0; {name} < {rng.randint(1, 4)}; {name}++)"
    )
    return f"{head}{loop} {{\n" + "\n".join(lines) + "\n" + "  " * level + "}"


def _programs(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        body = _loop(rng, 0, [], [])
        out.append("const out = [];\n" + body + "\nreturn out;")
    return out


def test_generated_labeled_loops_give_nodes_value() -> None:
    programs = [p for p in _programs(7, 160) if ": for" in p]
    verdicts = check(programs, RT)
    bad = [v for v in verdicts if v.kind in ("wrong", "crash")]
    assert not bad, [(v.program, v.detail) for v in bad[:3]]
    same = sum(v.kind == "same" for v in verdicts)
    assert same >= 0.9 * len(verdicts), [
        (v.program, v.detail) for v in verdicts if v.kind != "same"
    ][:3]


def test_the_forms_models_write_give_nodes_value() -> None:
    texts = [
        # the first item found in a nest: leave both loops
        "const grid = [[1, 2], [3, 4], [5, 6]];\nlet found = null;\n"
        "search: for (const row of grid) {\n  for (const x of row) {\n"
        "    if (x % 3 === 0) {\n      found = x;\n      break search;\n    }\n  }\n}\n"
        "return found;",
        # skip the rest of the outer body from the inner loop
        "const out = [];\nouter: for (const w of ['ab', 'cd', 'xe']) {\n"
        "  for (const ch of w) {\n    if (ch === 'x') continue outer;\n  }\n  out.push(w);\n}\n"
        "return out;",
        # a label on a while loop, and a jump directly in it
        "let k = 0;\nloop: while (k < 10) {\n  k++;\n  if (k % 2) continue loop;\n"
        "  if (k > 6) break loop;\n}\nreturn k;",
        # a `break LABEL` in a switch's case
        "const out = [];\nrows: for (const r of [[1, 2], [3], [5, 6]]) {\n"
        "  switch (r.length) {\n    case 1:\n      out.push('one');\n      break rows;\n"
        "    case 2:\n      out.push('two');\n      break;\n  }\n  out.push('|');\n}\nreturn out;",
    ]
    assert [v.kind for v in check(texts, RT)] == ["same"] * len(texts)


@pytest.mark.parametrize(
    "text",
    [
        # an inner loop without braces: its `break` would be another loop's
        "const out = [];\nouter: for (const x of [1, 2]) {\n  for (const y of [5]) out.push(y);\n"
        "  if (x) break outer;\n}\nreturn out;",
        # `continue LABEL` from a switch's case: a flag of the loop's body set in a case
        "const out = [];\nrows: for (const r of [[1], [2, 3]]) {\n  switch (r.length) {\n"
        "    case 1:\n      continue rows;\n    default:\n      out.push(r[0]);\n  }\n}\n"
        "return out;",
    ],
)
def test_other_labels_keep_their_refusal(text: str) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure" and out.error is not None, out.value
    assert "Plan has no labels" in (out.message or ""), out.message
    assert out.error.line == 2 and out.error.column == 1, out.message
