"""Programs with the program's own functions, the loop forms (`forEach`, counted `for`), member
sets and Maps and Sets changed in loops, cut short, with a token inserted or some characters
dropped: every one ends in an outcome (found: an IndexError past the tokens of a counted `for`
cut short, a parse failure escaping the look for functions)."""

from __future__ import annotations

import random

from dialectic import Runtime
from tests.expressions.program_generator import CONTEXT
from tests.expressions.test_collections import SAME as COLLECTIONS
from tests.expressions.test_functions import PROGRAMS as FUNCTIONS
from tests.expressions.test_loop_forms import PROGRAMS as LOOPS
from tests.expressions.test_member_changes import PROGRAMS as MEMBERS

BITS = [
    "function", "=>", "(", ")", "{", "}", ";", ",", "return", "forEach", ".", "[", "]", "x",
    "f(", "const", "async", "await", "for (let i = 0; i < 3; i++)", "...", "=", "break",
    "continue", "\n", "new Map(", "new Set()", ".set(", ".add(", ".get(",
]  # fmt: skip


def mutated(rnd: random.Random, text: str) -> str:
    op = rnd.random()
    i = rnd.randrange(len(text))
    if op < 0.3:
        return text[:i]
    if op < 0.7:
        return text[:i] + rnd.choice(BITS) + text[i:]
    return text[:i] + text[min(len(text), i + rnd.randrange(1, 10)) :]


def test_mutated_programs_end_in_an_outcome() -> None:
    rt = Runtime(load_entry_points=False)
    rnd = random.Random(5)
    bad = []
    for base in FUNCTIONS + LOOPS + MEMBERS + COLLECTIONS[::3]:
        for _ in range(150):
            text = mutated(rnd, base)
            try:
                out = rt.run(text, lang="plan", context=CONTEXT)
            except Exception as exc:  # (the test reports any)
                bad.append(f"raised {type(exc).__name__}: {exc}: {text!r}")
                continue
            if out.error is not None and out.error.code == "internal_error":
                bad.append(f"internal error: {out.message}: {text!r}")
    assert not bad, "\n".join(bad[:5])
