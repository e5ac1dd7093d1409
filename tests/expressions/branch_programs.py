"""Random Plan programs of the control flow models write (SPEC 10, "Changes outside loops"): an
`if` (an `else if` chain, a `switch`) whose branches return or go on in any mix, nested, in
loops, in functions and arrow functions; `const` and `let` declared again in sibling blocks
and in blocks inside blocks. Each program is JavaScript; Node's answer is the one to give.

``python -m tests.expressions.branch_programs COUNT`` prints how many programs run, are
refused and are wrong (each wrong one with Node's answer)."""

from __future__ import annotations

import random

__all__ = ["program"]


class _Writer:
    """One program's statements; ``r`` decides every choice."""

    def __init__(self, r: random.Random) -> None:
        self.r = r
        self.tag = 0

    def tagged(self, what: str) -> str:
        self.tag += 1
        return f"'{what}{self.tag}'"

    def result(self) -> str:
        return f"[{self.tagged('r')}, a, s9, out]"

    def change(self) -> str:
        r = self.r
        n = r.randrange(1, 6)
        return r.choice([f"a += {n};", "out.push(a);", "s9 += 'x';", "a++;", f"a = a * {n} % 17;"])

    def declare(self) -> str:
        """A block's own `y` (its sibling blocks may have theirs)."""
        r = self.r
        word = r.choice(["const", "let"])
        n = r.randrange(1, 5)
        use = r.choice(["a += y;", "out.push(y);", "s9 += y;"])
        return f"{word} y = a * {n}; {use}"

    def statements(self, depth: int, in_loop: bool, ends: bool) -> tuple[str, bool]:
        """A few statements, and whether they always end the block (no statement follows
        one that does: models write no dead code); ``ends``: the last may be `return` (or
        `break`/`continue`)."""
        r = self.r
        parts: list[str] = []
        for _ in range(r.randrange(0, 3)):
            text, done = self.statement(depth, in_loop)
            parts.append(text)
            if done:
                return " ".join(parts), True
        if ends and r.random() < 0.5:
            if in_loop and r.random() < 0.3:
                parts.append(r.choice(["break;", "continue;"]))
            else:
                parts.append(f"return {self.result()};")
            return " ".join(parts), True
        return " ".join(parts), False

    def branch_if(self, depth: int, in_loop: bool) -> tuple[str, bool]:
        r = self.r
        body, always = self.statements(depth + 1, in_loop, True)
        text = f"if (a > {r.randrange(6)}) {{ {body} }}"
        for _ in range(r.randrange(0, 3)):
            test = r.choice(["a % 2 === 0", f"s9.length > {r.randrange(1, 4)}", "out.length"])
            body, done = self.statements(depth + 1, in_loop, True)
            text += f" else if ({test}) {{ {body} }}"
            always = always and done
        if r.random() < 0.6:
            body, done = self.statements(depth + 1, in_loop, True)
            return text + f" else {{ {body} }}", always and done
        return text, False

    def switch(self, depth: int, in_loop: bool) -> tuple[str, bool]:
        r = self.r
        cases = []
        always = True
        for k in range(r.randrange(1, 4)):
            body, done = self.statements(depth + 1, in_loop, False)
            if not done:
                if r.random() < 0.5:
                    body += f" return {self.result()};"
                else:
                    body += " break;"
                    always = False
            cases.append(f"case {k}: {{ {body} }}")
        if r.random() < 0.5:
            end = f"return {self.result()};" if r.random() < 0.5 else ""
            cases.append(f"default: {self.change()} {end}")
            always = always and bool(end)
        else:
            always = False
        return f"switch (a % 3) {{ {' '.join(cases)} }}", always

    def loop(self, depth: int) -> str:
        r = self.r
        n = r.randrange(1, 5)
        body, _ = self.statements(depth + 1, True, True)
        if r.random() < 0.3:
            body = f"const y = x + {n}; out.push(y); {body}"
        if r.random() < 0.25:  # (`continue` before the step would never end: step first)
            self.tag += 1
            w = f"w{self.tag}"
            return f"let {w} = 0; while ({w} < {n}) {{ {w}++; const x = {w}; {body} }}"
        return f"for (const x of [0, 1, 2, {n}]) {{ {body} }}"

    def statement(self, depth: int, in_loop: bool) -> tuple[str, bool]:
        """A statement, and whether it always ends the block."""
        r = self.r
        k = r.randrange(10)
        if depth < 3 and k < 3:
            return self.branch_if(depth, in_loop)
        if depth < 3 and k == 3:
            return self.switch(depth, in_loop)
        if depth < 2 and k == 4:
            return self.loop(depth), False
        if k == 5:
            return f"{{ {self.declare()} }}", False
        if k == 6 and depth < 3:  # a block's `y`, and one of a block inside it
            inner = self.declare() if r.random() < 0.5 else self.change()
            text = f"if (a < {r.randrange(9)}) {{ {self.declare()} if (y > 2) {{ {inner} }} }}"
            return text, False
        return self.change(), False


def program(seed: int) -> str:
    """The program of ``seed``: at the top, in a function or in an arrow function."""
    r = random.Random(seed)
    w = _Writer(r)
    body, done = w.statements(0, False, False)
    while done or not body:  # (a program whose statements always return: write it again)
        body, done = w.statements(0, False, False)
    start = f"let a = {r.randrange(5)}; let s9 = 'q'; const out = [];"
    end = f"return {w.result()};"
    shape = r.randrange(4)
    if shape == 0:
        return (
            f"function g(a0) {{ {start.replace('let a = ', 'let a = a0 + ')} {body} {end} }}\n"
            "return [g(0), g(3)];"
        )
    if shape == 1:
        guard = "if (a0 > 9) { return null; }"  # (a body with statements: SPEC 10, "Arrow")
        return (
            f"return [0, 3].map(a0 => {{ {guard} {start.replace('let a = ', 'let a = a0 + ')} "
            f"{body} {end} }});"
        )
    return f"{start}\n{body}\n{end}"


def main(count: int) -> None:
    from collections import Counter

    from .program_oracle import node_answers, runtime, same

    rt = runtime()
    sources = [program(seed) for seed in range(count)]
    answers = node_answers(sources)
    tally: Counter[str] = Counter()
    for source, answer in zip(sources, answers, strict=True):
        out = rt.run(source, lang="plan")
        if out.status != "success":
            tally["refused"] += 1
        elif "ok" not in answer or same(out.value, answer["ok"]) is not None:
            tally["wrong"] += 1
            print("WRONG", source, out.value, answer)
        else:
            tally["ran"] += 1
    print(dict(tally))


if __name__ == "__main__":
    import sys

    main(int(sys.argv[1]))
