"""Where a new program's one-shot cost goes: each pass of the pipeline, per notation.

The expression of ``expression.py`` (the Plan template, Dialect JSON, the Plan chain of ``+``),
a new text for every program (its literal is ``100000 + i``: no cache helps), through each pass
alone, in the order ``Runtime.prepare`` runs them:

- ``lex`` (Plan only: the lexer alone, also part of ``front``), ``front`` (text -> call tree:
  ``to_tree``), ``tree`` (call tree -> syntax nodes: ``parse_tree``), ``resolve``, ``compile``
  (the closures);
- ``prepare`` (``Runtime.prepare``: all the passes and what is around them), ``run1`` (the
  first run of a prepared program), ``oneshot`` (``prepare(text).run(context)``, each program
  freed before the next, the collector on: what ``expression.py`` measures).

The passes run with the cyclic collector paused, as ``prepare`` runs them. Each figure is the
best of the rounds of ``--programs`` programs, in CPU time of this process (µs per program).
Run: ``.venv/bin/python benchmarks/oneshot_phases.py [--rounds N] [--programs N]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from expression import CONTEXT, PLAN, PLAN_PLUS, text_of, tree

from dialectic import Runtime
from dialectic.compiler.closures import Compiler
from dialectic.frontends import to_tree
from dialectic.frontends.plan.lexer import lex
from dialectic.resolve.resolver import resolve
from dialectic.tree.parse import parse_tree

NOTATIONS = (
    ("Plan", PLAN, "plan"),
    ("JSON", json.dumps(tree(12345)).replace("12345", "@N@"), "json"),
    ("Plan, +", PLAN_PLUS, "plan"),
)


def measure(rt: Runtime, source: str, lang: str, rounds: int, count: int) -> dict[str, float]:
    limits, registry = rt.limits, rt.registry
    best: dict[str, float] = {}
    counter = [100_000]

    def texts() -> list[str]:
        out = []
        for _ in range(count):
            counter[0] += 1
            out.append(text_of(source, counter[0]))
        return out

    def timed(name: str, fn: Callable[[Any], Any], items: list[Any]) -> list[Any]:
        start = time.process_time_ns()
        out = [fn(x) for x in items]
        us = (time.process_time_ns() - start) / count / 1000
        best[name] = min(best.get(name, us), us)
        return out

    def front(text: str) -> Any:
        return to_tree(text, lang, limits=limits, functions=registry.functions)

    def compile_(pair: tuple[Any, Any]) -> Any:
        return Compiler(registry, rt.types, rt.serializer, limits, pair[0].tree, pair[1])

    for _ in range(rounds):
        gc.disable()
        batch = texts()
        if lang == "plan":
            timed("lex", lex, batch)
        fronts = timed("front", front, batch)
        nodes = timed("tree", lambda f: parse_tree(f.tree, limits), fronts)
        done = timed("resolve", lambda n: resolve(registry, limits, n), nodes)
        timed(
            "compile",
            lambda pair: compile_(pair).compile_root(),
            list(zip(fronts, done, strict=True)),
        )
        prepared = timed("prepare", lambda t: rt.prepare(t, lang=lang), texts())
        timed("run1", lambda p: p.run(CONTEXT), prepared)
        fronts = nodes = done = prepared = []
        gc.enable()
        timed("oneshot", lambda t: rt.prepare(t, lang=lang).run(CONTEXT).value, texts())
    return best


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--programs", type=int, default=400)
    args = parser.parse_args()
    rt = Runtime(load_entry_points=False)
    names = ("lex", "front", "tree", "resolve", "compile", "prepare", "run1", "oneshot")
    print(f"{'µs per program':<10}" + "".join(f"{n:>9}" for n in names))
    for label, source, lang in NOTATIONS:
        measure(rt, source, lang, 1, 100)  # warm up
        best = measure(rt, source, lang, args.rounds, args.programs)
        print(
            f"{label:<10}"
            + "".join(f"{best[n]:>9.1f}" if n in best else f"{'-':>9}" for n in names)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
