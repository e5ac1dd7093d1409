"""Programs that lean on JavaScript's corners (coercions, sort orders, number formatting, regex
replacements, destructuring defaults, Map and Set, labels, bit operators, dates), as a review
wrote them to hunt for wrong answers (``trap_programs.js``): each must give Node's value or be
refused; none may give another value or crash. The floor keeps what runs from shrinking
unnoticed."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from .program_oracle import check

#: how many of them give Node's value today
SAME_AT_LEAST = 122
PROGRAMS = [
    p.strip()
    for p in (Path(__file__).parent / "trap_programs.js").read_text().split("\n// ---\n")[1:]
]


def test_none_gives_another_value_than_node() -> None:
    assert len(PROGRAMS) >= 150
    verdicts = check(PROGRAMS)
    bad = [v for v in verdicts if v.kind in ("wrong", "crash")]
    assert not bad, "\n".join(f"{v.kind}: {v.program}\n  {v.detail}" for v in bad)
    kinds = Counter(v.kind for v in verdicts)
    assert kinds["same"] >= SAME_AT_LEAST, kinds
