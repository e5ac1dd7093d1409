"""Random loops that keep state as models write it (SPEC 10, "Loops"): a ``let`` array pushed
onto and started again (chunks, runs, batches; :mod:`dialectic.frontends.plan.letpush`), a
``reduce`` into an object of arrays and counters (:mod:`dialectic.frontends.plan.reduceloop`),
the same as a ``for`` loop, and pushes or counts whose target a conditional chooses
(:mod:`dialectic.frontends.plan.choices`), with the aliasing hazards among them (a pushed array
pushed onto again, a reset in a branch only, ``continue`` and ``break`` between). Each program
runs in Node.js and in dialectic: the same value, or a clear refusal; never another value."""

from __future__ import annotations

import random
from collections import Counter

from .program_oracle import check

_LISTS = ["nums", "words", "[1, 2, 3, 4, 5, 6, 7]", "people.map(p => p.age)", "[]"]
_CONDS = [
    "x > 2",
    "typeof x === 'number'",
    "String(x).length > 1",
    "cur.length === 2",
    "cur.length >= 3",
    "!x",
]
_WHOLE = ["cur", "cur", "cur", "{items: cur, n: cur.length}", "[...cur]", "cur.slice()"]
_NEW = ["[]", "[]", "[x]", "cur.slice(1)", "[...cur]"]


class _Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def pick(self, options: list[str]) -> str:
        return self.r.choice(options)

    def chunk_statement(self) -> str:
        r = self.r.random()
        cond = self.pick(_CONDS)
        if r < 0.3:
            return "cur.push(x);"
        if r < 0.55:
            guard = self.pick(["", "if (cur.length) "])
            reset = f"cur = {self.pick(_NEW)};"
            return f"if ({cond}) {{ {guard}groups.push({self.pick(_WHOLE)}); {reset} }}"
        if r < 0.65:
            return f"if ({cond}) groups.push({self.pick(_WHOLE)});"
        if r < 0.72:
            return f"if ({cond}) cur = {self.pick(_NEW)};"
        if r < 0.78:
            return f"if ({cond}) {{ groups.push(cur); {self.pick(['continue;', 'break;'])} }}"
        if r < 0.84:
            return f"if ({cond}) {{ groups.push(cur); cur = []; }} else cur.push(x);"
        if r < 0.9:
            return f"if ({cond}) {self.pick(['continue;', 'break;'])}"
        return "cur.push(x, cur.length);"

    def chunks(self) -> str:
        body = [self.chunk_statement() for _ in range(self.r.randrange(1, 4))]
        if "cur.push" not in " ".join(body):
            body.insert(0, "cur.push(x);")
        tail = self.pick(
            [
                "if (cur.length) groups.push(cur);",
                "groups.push(cur);",
                "",
                "groups.push(cur); cur.push(9);",
                "const last = cur; cur = [];",
            ]
        )
        items = self.pick(_LISTS)
        jumps = any("continue" in b or "break" in b for b in body)
        loop = self.pick(["for", "for", "while"] + ([] if jumps else ["forEach"]))
        if loop == "for":
            head, foot = [f"for (const x of {items}) {{"], "}"
        elif loop == "while":
            head = [f"const all = {items};", "let j = 0;", "while (j < all.length) {"]
            head += ["const x = all[j];", "j++;"]
            foot = "}"
        else:
            head, foot = [f"{items}.forEach(x => {{"], "});"
        lines = [
            "const groups = [];",
            f"let cur = {self.pick(['[]', '[]', '[0]'])};",
            *head,
            *body,
            foot,
            tail,
            "return [groups, cur];",
        ]
        return "\n".join(lines)

    def value(self) -> str:
        return self.pick(["x", "x", "acc.n", "String(x).length", "1"])

    def cond(self) -> str:
        return self.pick(["x > 2", "typeof x === 'number'", "acc.n % 2 === 0", "!x", "i % 2"])

    def acc_statement(self, loop: bool) -> str:
        c, v = self.cond(), self.value()
        options = [
            f"if ({c}) acc.pos.push({v}); else acc.neg.push({v});",
            f"({c} ? acc.pos : acc.neg).push({v});",
            f"acc[{c} ? 'pos' : 'neg'].push({v});",
            "acc.n++;",
            f"acc.t += {v};",
            f"{c} ? acc.n++ : acc.t++;",
            f"if ({c}) {'continue' if loop else 'return acc'};",
            f"const k{self.r.randrange(1000)} = 1; acc.pos.push({v});",
            f"acc.last = {v};",
            f"acc.g[{self.pick(['i % 2', 'String(x).length'])}] = {v};",
        ]
        return self.pick(options)

    def objects(self) -> str:
        loop = self.r.random() < 0.4
        body = [self.acc_statement(loop) for _ in range(self.r.randrange(1, 4))]
        init = self.pick(
            ["{pos: [], neg: [], n: 0, t: 0}", "{pos: [], neg: [], n: 0, t: 0, g: {}}", "{n: 0}"]
        )
        items = self.pick(_LISTS)
        if loop:
            lines = [
                f"const acc = {init};",
                "let i = 0;",
                f"for (const x of {items}) {{",
                "i++;",
                *body,
                "}",
                "return acc;",
            ]
        else:
            lines = [
                f"const r = {items}.reduce((acc, x, i) => {{",
                *body,
                "return acc;",
                f"}}, {init});",
                "return r;",
            ]
        return "\n".join(lines)

    def program(self) -> str:
        return self.chunks() if self.r.random() < 0.5 else self.objects()


def test_random_loop_states_give_nodes_answer_or_are_refused() -> None:
    programs = [_Gen(seed).program() for seed in range(240)]
    verdicts = check(programs)
    tally = Counter(v.kind for v in verdicts)
    bad = [v for v in verdicts if v.kind in ("wrong", "crash", "lazy")]
    assert not bad, [(v.program, v.detail) for v in bad[:3]]
    assert tally["same"] >= len(programs) // 2, tally
