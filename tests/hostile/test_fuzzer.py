"""The seeded fuzzer (fuzzer.py) as a test: a few hundred mutated programs of every front end,
and a few families of growing inputs, end in clean outcomes at linear cost. Longer runs:
``DIALECTIC_FUZZ=N`` multiplies the counts (and ``python tests/hostile/fuzzer.py SEED COUNT
[SIZE]``, SIZE 0 for the growth families, prints each problem with its input)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import fuzzer

SCALE = int(os.environ.get("DIALECTIC_FUZZ", "1"))


def _shown(found: list[tuple[fuzzer.Case, str]]) -> str:
    return "\n\n".join(f"{problem}\n{case.describe()}" for case, problem in found[:5])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mutated_programs_end_cleanly(seed: int) -> None:
    found = fuzzer.fuzz(seed, 150 * SCALE, budget=5.0 * SCALE)
    assert not found, _shown(found)


def test_mutated_programs_ten_times_larger_end_cleanly() -> None:
    found = fuzzer.fuzz(7, 40 * SCALE, size=10, budget=10.0)
    assert not found, _shown(found)


def test_growing_inputs_cost_linear_time() -> None:
    found = fuzzer.fuzz_growth(11, 25 * SCALE, n=300)
    assert not found, _shown(found)


def test_the_seeds_cover_every_front_end() -> None:
    pool = fuzzer.seeds()
    labels = {case.label.split(":")[0] for case in pool}
    assert {"spec", "ex", "envelope", "yaml", "member"} <= labels
    assert {case.lang for case in pool} >= {"json", "plan", "plan2", None}
    if fuzzer.CORPORA.is_dir():
        assert {"nestful", "bfcl"} <= labels
