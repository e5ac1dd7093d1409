"""``parseInt(t, radix)`` for every radix JavaScript reads (2..36, ``0``/``undefined`` as base
10 with a ``0x`` prefix, a fraction truncated): programs and random texts against Node. A NaN
is refused unless a test reads it (SPEC 1.7), a value beyond 2**53 is refused; wrong: none."""

from __future__ import annotations

import json
import random
from collections import Counter

from dialectic import Runtime

from .program_oracle import check, runs_as_in_node, runtime

RT: Runtime = runtime()

ANSWERED = [
    "return parseInt('0x1f', 16) + parseInt('101', 2);",
    "return [parseInt('ff', 16), parseInt('FF', 16), parseInt('-0x10', 16), parseInt('z', 36)];",
    "return [parseInt('Zz', 36), parseInt('777', 8), parseInt('12', 3), parseInt('0b11', 2)];",
    "return [parseInt('0x10'), parseInt('0x10', 0), parseInt('10', 10.7), parseInt('0x10', 10)];",
    "return [parseInt('  -12abc', 16), parseInt('+1010', 2), parseInt('102', 2)];",
    "return [parseInt('11', -4294967294), parseInt('11', null), parseInt('0x1g', 16)];",
    "const v = parseInt('9', 8); return isNaN(v) ? 'not octal' : v;",
    "const v = parseInt('10', 37); return Number.isNaN(v);",
    "return ['ff', 'zz', '10'].map(t => parseInt(t, 36));",
]

REFUSED = {
    # NaN nobody tests for, beyond 2**53, a radix that is not a number
    "return parseInt('9', 8);": "base-8 digit",
    "return parseInt('10', 1);": "not in 2..36",
    "return parseInt('zzzzzzzzzzzzzzzz', 36);": "beyond 2**53",
    "return parseInt('10', '16');": "radix must be a number",
    "return parseInt('\\u212a', 36);": "base-36 digit",
}


def test_programs_answer_as_node() -> None:
    runs_as_in_node(ANSWERED, RT)


def test_refusals_say_why() -> None:
    for text, words in REFUSED.items():
        out = RT.run(text, lang="plan")
        assert out.status == "failure", (text, out.value)
        assert words in (out.message or ""), (text, out.message)


def test_random_texts_and_radixes() -> None:
    """Random texts of digits, letters, signs, prefixes and spaces, random radixes: what
    dialectic answers is Node's answer (each program tests for NaN, so both answer)."""
    rng = random.Random(7)
    alphabet = "0123456789abcdefxyzABCDEFXYZ +-\u212a\u0131"
    programs = []
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 7)))
        if rng.random() < 0.2:
            text = rng.choice(["0x", "-0x", " 0X", "+"]) + text
        radix = rng.choice([2, 8, 10, 16, 36, 0, 3, 7, 12.9, 37, 1, -1, "undefined"])
        arg = json.dumps(text)
        call = f"parseInt({arg})" if radix == "undefined" else f"parseInt({arg}, {radix})"
        programs.append(f"const v = {call}; return isNaN(v) ? 'NaN' : v;")
    tally = Counter(v.kind for v in check(programs, RT))
    assert tally["wrong"] == 0 and tally["crash"] == 0, tally
    assert tally["same"] >= 380, tally
