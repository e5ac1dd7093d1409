"""Random ``for...of``, ``while`` and ``do...while`` programs (SPEC 10, "Loops"): loops inside
loops, accumulators read and changed in their loops (folds, ``??=``, ``||=``), branches,
``continue``, ``break``, locals and calls, run in Node.js and in dialectic. Never a wrong
success: dialectic gives Node's value and calls in Node's order, or fails; and most programs
succeed (the generator writes what models write)."""

from __future__ import annotations

import json
import random
from typing import Any

from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import parse_plan

from .program_oracle import same
from .test_loops import LOOP_CONTEXT, _encoded, node_runs, runtime

_LISTS = ["nums", "words", "[1, 2, 3, 2]", "['x', 'y', 'x']", "cities", "matrix"]


class _Gen:
    """One program: the accumulators ``out`` (array), ``seen`` (object), ``t`` (number) and
    ``txt`` (text), a loop nest up to three deep."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.n = 0

    def pick(self, options: list[str]) -> str:
        return self.r.choice(options)

    def value(self, names: list[str]) -> str:
        return self.pick(
            [
                *names,
                *names,
                "t",
                "out.length",
                "txt.length",
                "Object.keys(seen).length",
                "(seen[" + self.key(names) + "] ?? 0)",
                str(self.r.randrange(5)),
                "'q'",
            ]
        )

    def key(self, names: list[str]) -> str:
        return self.pick(["String(" + self.pick(names) + ")", "'k' + (t % 3)", self.pick(names)])

    def cond(self, names: list[str]) -> str:
        return self.pick(
            [
                "!seen[" + self.key(names) + "]",
                "out.length < 3",
                "t % 2 === 0",
                self.value(names) + " > " + self.value(names),
                "txt.length > 4",
                "typeof " + self.pick(names) + " === 'number'",
            ]
        )

    def block(self, names: list[str], depth: int, size: int) -> list[str]:
        out: list[str] = []
        names = list(names)
        for _ in range(size):
            out.extend(self.statement(names, depth))
        return out

    def statement(self, names: list[str], depth: int) -> list[str]:
        r = self.r.random()
        if r < 0.15:
            return ["out.push(" + self.value(names) + ");"]
        if r < 0.27:
            assign = self.pick(["=", "=", "??=", "||="])
            return ["seen[" + self.key(names) + f"] {assign} " + self.value(names) + ";"]
        if r < 0.37:
            return [self.pick(["t += 1;", "t++;", "t = (t * 3 + 1) % 17;", "t -= 2;", "t ||= 5;"])]
        if r < 0.45:
            return ["txt += " + self.value(names) + ";"]
        if r < 0.52:
            self.n += 1
            name = f"v{self.n}"
            line = f"const {name} = " + self.value(names) + ";"
            names.append(name)
            return [line]
        if r < 0.55:
            return ["if (" + self.cond(names) + ") continue;"]
        if r < 0.57:
            return ["if (" + self.cond(names) + ") break;"]
        if r < 0.63:
            return ["await note({v: " + self.value(names) + "});"]
        if r < 0.67:
            return ["await send({to: " + self.value(names) + "});"]
        if r < 0.82 and depth < 3 and self.r.random() < 0.3:
            return self.while_loop(names, depth)
        if r < 0.82 and depth < 3:
            self.n += 1
            var = f"i{self.n}"
            inner = self.pick([*_LISTS, "[" + self.pick(names) + ", 1]"])
            body = self.block([*names, var], depth + 1, self.r.randrange(1, 4))
            return [f"for (const {var} of {inner}) {{", *body, "}"]
        then = self.block(names, depth, self.r.randrange(1, 3))
        other = self.block(names, depth, self.r.randrange(0, 2))
        lines = ["if (" + self.cond(names) + ") {", *then]
        return [*lines, "} else {", *other, "}"] if other else [*lines, "}"]

    def while_loop(self, names: list[str], depth: int) -> list[str]:
        """``while`` or ``do...while`` counting to a bound (its counter changed first)."""
        self.n += 1
        w = f"w{self.n}"
        bound = f"{w} < {self.r.randrange(4)}"
        body = [f"{w}++;", *self.block(names, depth + 1, self.r.randrange(1, 3))]
        if self.r.random() < 0.5:
            return [f"let {w} = 0;", f"while ({bound}) {{", *body, "}"]
        return [f"let {w} = 0;", "do {", *body, f"}} while ({bound});"]

    def program(self) -> str:
        body = self.block(["x"], 1, self.r.randrange(2, 5))
        lines = [
            "const out = [];",
            "const seen = {};",
            "let t = 0;",
            "let txt = '';",
            "for (const x of " + self.pick(_LISTS) + ") {",
            *body,
            "}",
            "return [out, seen, t, txt];",
        ]
        return "\n".join(lines)


def test_random_loops_give_nodes_answer_or_fail() -> None:
    programs = [_Gen(seed).program() for seed in range(160)]
    answers = node_runs(programs)
    succeeded = 0
    for program, answer in zip(programs, answers, strict=True):
        try:
            parse_plan(program)
        except SourceError:
            continue  # refused at its place (the refusal tests check the messages)
        log: list[Any] = []
        out = runtime(log).run(program, lang="plan", context=LOOP_CONTEXT)
        if out.status != "success":
            continue  # a clear failure is allowed; a wrong success is not
        assert "error" not in answer, (program, out.value, answer)
        why = same(out.value, _encoded(answer["ok"], answer.get("keys")))
        assert why is None, (program, out.value, answer["ok"], why)
        assert log == answer["log"], (program, json.dumps(log), json.dumps(answer["log"]))
        succeeded += 1
    assert succeeded >= len(programs) // 2, succeeded
