"""One-shot cost of change statements outside loops, beside the same values written as consts.

A model's program changes values as it goes (``total += 5;``, ``xs.push(v);``, ``if (c) v =
w;``, ``s += 'b';``); each program is new, so what users pay is its one-shot cost: parse,
prepare and one run of a text never seen. This times ``rt.run(text, lang='plan')`` of the
"changes" program below and of its twin computing the same values with ``const`` (a comment
with a counter is appended to each text: no cache helps), checks both give the same value, and
counts the nodes of each program's call tree (SPEC 10, "Changes outside loops": such a
statement is a few versions of the name, not a loop). Target: "changes" within 2x of "consts".

Figures are medians, over ``--rounds`` rounds, of the mean of ``--programs`` new texts per round,
in CPU time of this process (µs). Run from the repository's root:
``.venv/bin/python benchmarks/oneshot_changes.py [--rounds N] [--programs N] [--quick]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from dialectic import Runtime
from dialectic.frontends import to_tree
from dialectic.tree.measure import size

CHANGES = """\
let total = 0;
total += 5; total += 6; total += 7;
const xs = []; xs.push(total); xs.push(1); xs.push(2);
if (total > 3) total = 7;
if (total > 30) total = 8;
let s = 'a'; s += 'b';
return [total, xs, s];"""

CONSTS = """\
const total1 = 0;
const total2 = total1 + 5; const total3 = total2 + 6; const total4 = total3 + 7;
const xs = [total4, 1, 2];
const total5 = total4 > 3 ? 7 : total4;
const total = total5 > 30 ? 8 : total5;
const s = 'a' + 'b';
return [total, xs, s];"""

EXPECTED = [7, [18, 1, 2], "ab"]
TARGET = 2.0


def per_program(rt: Runtime, source: str, rounds: int, programs: int) -> float:
    """The median over ``rounds`` of the mean CPU time (µs) of one run of a new text."""
    counter = [0]
    means = []
    for _ in range(rounds):
        texts = []
        for _ in range(programs):
            counter[0] += 1
            texts.append(f"{source}\n// {counter[0]}")
        start = time.process_time_ns()
        for text in texts:
            out = rt.run(text, lang="plan")
            if out.status != "success" or out.value != EXPECTED:
                raise SystemExit(f"wrong: {out.status} {out.value!r} {out.message}")
        means.append((time.process_time_ns() - start) / programs / 1000)
    return statistics.median(means)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--programs", type=int, default=40)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds, programs = (3, 10) if args.quick else (args.rounds, args.programs)
    rt = Runtime(load_entry_points=False)
    figures: dict[str, list[float]] = {}
    for source in (CHANGES, CONSTS):
        per_program(rt, source, 1, 5)  # (warm: imports, first compilations)
    for _ in range(2):  # alternating, so that a change of the machine's load hits both
        for name, source in (("changes", CHANGES), ("consts", CONSTS)):
            figures.setdefault(name, []).append(per_program(rt, source, rounds, programs))
    print(f"{'program':<10}{'µs one-shot':>14}{'nodes':>8}")
    for name, source in (("changes", CHANGES), ("consts", CONSTS)):
        count = size(to_tree(source, "plan").tree)
        print(f"{name:<10}{min(figures[name]):>14.1f}{count:>8}")
    ratio = min(figures["changes"]) / min(figures["consts"])
    print(f"changes / consts: {ratio:.2f}x (target {TARGET:.0f}x)")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
