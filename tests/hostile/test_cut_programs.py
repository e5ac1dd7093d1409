"""Programs with the program's own functions, the loop forms (`forEach`, counted `for`,
`while`), member sets and `??=`, arrows with statement bodies or called at once, changes
outside loops, switches, Maps and Sets changed in loops, regular expressions, cut short, with
a token inserted or some characters dropped: every one ends in an outcome (found: an
IndexError past the tokens of a counted `for` cut short, a parse failure escaping the look for
functions, an IndexError skipping a `while` whose test's parentheses do not close, an
IndexError on `(async () => {...})` ending the text)."""

from __future__ import annotations

import random

from dialectic import Limits, Runtime
from tests.expressions.program_generator import CONTEXT
from tests.expressions.test_arrow_statement_bodies import PROGRAMS as ARROW_BODIES
from tests.expressions.test_called_arrows import PROGRAMS as CALLED
from tests.expressions.test_changes_outside_loops import PROGRAMS as CHANGES
from tests.expressions.test_collections import SAME as COLLECTIONS
from tests.expressions.test_functions import PROGRAMS as FUNCTIONS
from tests.expressions.test_logical_sets import PROGRAMS as SETS
from tests.expressions.test_loop_forms import PROGRAMS as LOOPS
from tests.expressions.test_member_changes import PROGRAMS as MEMBERS
from tests.expressions.test_regex import SAME as REGEXES
from tests.expressions.test_switch import PROGRAMS as SWITCHES
from tests.expressions.test_while_loops import PROGRAMS as WHILES

BITS = [
    "function", "=>", "(", ")", "{", "}", ";", ",", "return", "forEach", ".", "[", "]", "x",
    "f(", "const", "async", "await", "for (let i = 0; i < 3; i++)", "...", "=", "break",
    "continue", "\n", "if (x)", "})()", "(() => {", "new Map(", "new Set()", ".set(", ".add(",
    ".get(",
]  # fmt: skip


def mutated(rnd: random.Random, text: str) -> str:
    op = rnd.random()
    i = rnd.randrange(len(text))
    if op < 0.3:
        return text[:i]
    if op < 0.7:
        return text[:i] + rnd.choice(BITS) + text[i:]
    return text[:i] + text[min(len(text), i + rnd.randrange(1, 10)) :]


def _problems(rt: Runtime, texts: list[str]) -> list[str]:
    """What went wrong for the texts that did not end in an outcome (or ended in an internal
    error)."""
    bad = []
    for text in texts:
        try:
            out = rt.run(text, lang="plan", context=CONTEXT)
        except Exception as exc:  # (the test reports any)
            bad.append(f"raised {type(exc).__name__}: {exc}: {text!r}")
            continue
        if out.error is not None and out.error.code == "internal_error":
            bad.append(f"internal error: {out.message}: {text!r}")
    return bad


def test_mutated_programs_end_in_an_outcome() -> None:
    rnd = random.Random(5)
    bases = FUNCTIONS + LOOPS + MEMBERS + ARROW_BODIES + CALLED + CHANGES + SWITCHES
    bases += COLLECTIONS[::3]
    texts = [mutated(rnd, base) for base in bases for _ in range(150)]
    # (a mutated C-style loop may never end: it stops at `max_steps`, kept small here)
    bad = _problems(Runtime(load_entry_points=False, limits=Limits(max_steps=20_000)), texts)
    assert not bad, "\n".join(bad[:5])


def test_mutated_while_loops_and_logical_sets_end_in_an_outcome() -> None:
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=20_000))
    rnd = random.Random(7)
    bits = [*BITS, "while (", "do", "while (true)", "??=", "||=", "&&="]
    texts: list[str] = []
    for base in WHILES + SETS:
        for _ in range(100):
            i = rnd.randrange(len(base))
            inserted = base[:i] + rnd.choice(bits) + base[i:]
            texts.append(inserted if rnd.random() < 0.5 else mutated(rnd, base))
    bad = _problems(rt, texts)
    assert not bad, "\n".join(bad[:5])


def test_mutated_regular_expressions_end_in_an_outcome() -> None:
    """Regex literals and `new RegExp` cut at every place, and with their syntax characters
    inserted or dropped: a clear failure or an answer, never a traceback."""
    rnd = random.Random(9)
    bits = ["/", "\\", "[", "]", "(", ")", "(?", "(?<a>", "{2,", "}", "*", "+?", "/g", "|", "^"]
    texts: list[str] = []
    for base in REGEXES:
        texts.extend(base[:i] for i in range(len(base)))  # cut at every place
        for _ in range(40):
            i = rnd.randrange(len(base))
            texts.append(base[:i] + rnd.choice(bits) + base[i:])
            texts.append(mutated(rnd, base))
    bad = _problems(Runtime(load_entry_points=False), texts)
    assert not bad, "\n".join(bad[:5])
