"""Whole Plan programs against Node.js (SPEC 10: Node's answer, or a clear failure): a few
hundred programs of the shapes models write, generated from fixed seeds
(`program_generator.py`, `program_shapes.py`), each run by dialectic and by Node (one node
process for all). No program may give another answer than Node's or fail with an internal
error. ``DIALECTIC_DIFF_PROGRAMS=20000`` (and ``DIALECTIC_DIFF_SEED``) runs a bigger batch;
``python -m tests.expressions.program_oracle SEED COUNT`` prints each difference."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable

import pytest

from .program_generator import programs
from .program_oracle import check
from .program_shapes import more_programs

COUNT = int(os.environ.get("DIALECTIC_DIFF_PROGRAMS", "200"))
SEED = int(os.environ.get("DIALECTIC_DIFF_SEED", "20261123"))


@pytest.mark.parametrize("make", [programs, more_programs], ids=["base", "more"])
def test_no_program_gives_another_answer_than_node(make: Callable[[int, int], list[str]]) -> None:
    sources = make(SEED, COUNT)
    verdicts = check(sources)
    bad = [v for v in verdicts if v.kind in ("wrong", "crash")]
    report = "\n\n".join(f"{v.kind}: {v.program}\n--> {v.detail}" for v in bad[:10])
    assert not bad, f"{len(bad)} of {len(sources)} programs:\n{report}"
    tally = Counter(v.kind for v in verdicts)
    # refusing everything would pass the assertion above: most programs must agree
    assert tally["same"] > len(sources) // 2, tally
