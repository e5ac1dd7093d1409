"""One-shot cost of whole programs as code-mode prompts make models write them.

``expression.py`` and ``oneshot_phases.py`` measure one short expression; a model's program is
usually longer: loops, arrows, comparisons, ``try``/``catch``, ``console.log``. This takes the
programs of ``tests/expressions/test_code_mode_programs.py`` (with the runtime of the Node
differential tests, which registers their functions), each made a new text every time (a
comment with a counter is appended: no cache helps), and reports per program, in µs:

- ``lex`` (the Plan lexer alone, once), ``front`` (text -> call tree: every lexing and parse
  the front end does), ``prepare`` (``Runtime.prepare``: all the passes), ``oneshot``
  (``prepare(text).run(context)``, the collector on).

Each figure is the best of ``--rounds`` rounds of ``--programs`` texts per program, in CPU time
of this process. Run from the repository's root (the programs are imported from ``tests``):
``.venv/bin/python benchmarks/oneshot_programs.py [--rounds N] [--programs N]``.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
import time
from collections.abc import Callable
from typing import Any

from dialectic.frontends import to_tree
from dialectic.frontends.plan.lexer import lex


def best_of(rounds: int, texts: Callable[[], list[str]], fn: Callable[[str], Any]) -> float:
    """The best of ``rounds`` rounds of ``fn`` over new texts, in µs per text (CPU time)."""
    best = float("inf")
    for _ in range(rounds):
        batch = texts()
        start = time.process_time_ns()
        for text in batch:
            fn(text)
        best = min(best, (time.process_time_ns() - start) / len(batch) / 1000)
    return best


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--programs", type=int, default=40)
    args = parser.parse_args()
    sys.path.insert(0, ".")
    programs: list[str] = importlib.import_module(
        "tests.expressions.test_code_mode_programs"
    ).PROGRAMS
    oracle = importlib.import_module("tests.expressions.program_oracle")
    rt = oracle.runtime()
    context = oracle.CONTEXT
    limits, functions = rt.limits, rt.registry.functions
    counter = [0]

    def front(text: str) -> Any:
        return to_tree(text, "plan", limits=limits, functions=functions)

    def oneshot(text: str) -> Any:
        return rt.prepare(text, lang="plan").run(context).value

    names = ("lex", "front", "prepare", "oneshot")
    print(f"{'µs per program':<16}" + "".join(f"{n:>9}" for n in names))
    totals = dict.fromkeys(names, 0.0)
    for i, program in enumerate(programs, 1):
        assert not rt.prepare(program, lang="plan").errors, program

        def texts(program: str = program) -> list[str]:
            out = []
            for _ in range(args.programs):
                counter[0] += 1
                out.append(f"{program}\n// {counter[0]}")
            return out

        gc.disable()
        row = {
            "lex": best_of(args.rounds, texts, lex),
            "front": best_of(args.rounds, texts, front),
            "prepare": best_of(args.rounds, texts, lambda t: rt.prepare(t, lang="plan")),
        }
        gc.enable()
        row["oneshot"] = best_of(args.rounds, texts, oneshot)
        for name in names:
            totals[name] += row[name]
        print(f"{'program ' + str(i):<16}" + "".join(f"{row[n]:>9.1f}" for n in names))
    print(f"{'mean':<16}" + "".join(f"{totals[n] / len(programs):>9.1f}" for n in names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
