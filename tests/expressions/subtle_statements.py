"""The statement shapes of `subtle_programs.py`: statements that change names in place (`i++`
inside a statement, the value of `pop()`, `sort()`, `Object.assign`, member sets, Map sets),
standing in loops, branches, a `switch`, a callback, a function or alone, and helper functions
of the program (their results, their parameters and the names of the program they read or
change). Where the fuzz found wrong answers: `x += x++;`, `xs[i++] = i;` in a loop, a
function assigning a `let` of the program, a function's result changed in place."""

from __future__ import annotations

import random

#: statements holding a step (`T`: `i++`, `++i`, `i--` or `--i`), as an index walked by hand
STEP_STATEMENTS = [
    "x = T;", "x += T;", "x = x + T;", "i = T + 1;", "i += T;", "i = T;", "xs.push(T);",
    "xs[i] = T;", "o[T] = i;", "x = xs[T] ?? 0;", "x = `${i}:${T}`;", "x = [i, T];",
    "x = T * i;", "i -= T;", "const v = xs[T];", "x = xs.at(T) + i;", "xs.push(i, T);",
    "o.k = T;", "x = -T;", "i *= T + 1;", "x ||= T;", "xs.push(`${T}`);", "i = i + T;",
]  # fmt: skip


#: statements changing an array `xs`, an object `o`, a Map `m` and numbers `i`, `x` in place,
#: some reading the value of the change (`pop()`, `shift()`, `splice()`) or the name again
CHANGE_STATEMENTS = [
    "x += xs.pop() ?? 0;", "xs.push(xs.length);", "const v = xs.shift(); x = v ?? x;",
    "o.k = xs.pop();", "o[x] = xs.length;", "xs.sort();", "xs.sort((a, b) => b - a);",
    "xs.reverse();", "Object.assign(o, {a: o.a ?? 0, b: x});", "o.a ??= x;", "o.a ||= i;",
    "o.n = (o.n ?? 0) + 1;", "delete o.k;", "m.set(x, xs.length);",
    "m.set('k', (m.get('k') ?? 0) + 1);",
    "i++;", "--i;", "x = i++;", "xs.push(i++);", "const r = xs.splice(0, 1); x += r.length;",
    "xs.unshift(x);", "xs[0] = i;", "o[i] = x;", "x = [...xs].pop() ?? -1;", "xs.splice(1, 0, i);",
    "i = xs.indexOf(x);", "x = xs.at(-1) ?? 0;", "o.list = [...(o.list ?? []), i];",
    "xs.push(...[i, x]);", "x *= 2;", "i -= x;", "o.a &&= o.a + 1;",
    "xs.length = Math.min(xs.length, 3);", "xs.shift();", "if (x > 1) xs.shift();",
    "if (i % 2) xs.splice(0, 1);", "xs.splice(-1, 1, x);", "if (xs.length) xs.unshift(i);",
    "if (x) { xs.shift(); } else { xs.pop(); }",
]  # fmt: skip


#: where the statements above stand (`BODY`)
CONTAINERS = [
    "for (const w of ['a', 'b']) {\n  BODY\n}",
    "if (xs.length > 1) {\n  BODY\n} else {\n  x = -1;\n}",
    "let k = 0;\nwhile (k < 3 && xs.length < 9) {\n  k++;\n  BODY\n}",
    "switch (xs.length) {\n  case 3:\n  BODY\n  break;\n  default:\n  x = 'd';\n}",
    "[1, 2].forEach(w => {\n  BODY\n});",
    "function run() {\n  BODY\n}\nrun();\nrun();",
    "for (let k = 0; k < 3; k++) {\n  if (k === 1) continue;\n  BODY\n}",
    "outer: for (const w of [1, 2]) {\n  for (const u of [1]) {\n  BODY\n  if (w > 1) break outer;"
    "\n  }\n}",
    "let k = 0;\ndo {\n  k++;\n  BODY\n} while (k < 2);",
    "x = [1, 2].map(w => {\n  let v = w;\n  v += i;\n  BODY\n  v++;\n  return v;\n}).join();",
]


#: functions of the program: results the program holds elsewhere, copies, changes of the
#: program's names
HELPERS = [
    "function f(v) { return base; }", "function f(v) { return [...base, v]; }",
    "function f(v) { return cfg; }", "function f(v) { return {...cfg, v}; }",
    "function f(v) { return v; }", "function f(v) { const r = [v]; r.push(t); return r; }",
    "function f(v) { t = v; return [t]; }", "function f(v) { base.push(v); return base; }",
    "function f(v) { cfg.n = v; return cfg; }", "const f = (v) => base.concat(v);",
    "const f = (v) => cfg;", "function f(v) { if (v > 3) return base; return [v]; }",
    "function f(v = base) { return v; }", "const f = (v) => base;",
    "function f(v) { const c = cfg; return c; }", "function f(v) { return base.slice(); }",
    "function f(v) { return rows; }", "const f = (v) => rows.filter(r => r.n > 0);",
    "function f(v) { return [v, ...base]; }", "function f(v) { const r = {n: v}; return r; }",
    "function f(v) { if (v > 3) return [v]; return JSON.parse('[1]'); }",
    "function f(v) { try { return structuredClone(rows); } catch (e) { return rows; } }",
    "const f = (v) => ({...cfg, rows});", "function f(v) { return v > 3 ? [v] : base; }",
]  # fmt: skip
#: the uses of `f`: its results changed in place, read, passed
HELPER_USES = [
    "const @A = f(3);\n@A.push(9);", "const @A = f(3);\n@A.n = 7;", "const @A = f(4);\n@A.sort();",
    "const @A = f(3);\nfor (const v of [5, 6]) @A.push(v);", "const @A = f(3);\nconst @B = f(4);",
    "const @A = [1, 2].map(f);", "t = f(5);", "const @A = f(3);\nObject.assign(@A, {z: 1});",
    "const @A = f(3);\ndelete @A.n;", "const @A = f(3);\n@A[0] = 'x';", "const @A = f(base);",
    "const @A = f(cfg);\n@A.k = 1;", "const @A = f(3);\nconst @B = @A;\n@B.push(1);",
    "const @A = f();\n@A.reverse();", "const @B = f(4);\n@B.length = 1;",
    "const @A = f(2);\nconst @B = @A.pop();", "const @A = f(base);\n@A.push(t);",
    "const @A = f(3);\nfor (const r of @A) { r.n = 5; }", "const @A = f(rows);\n@A[0].n = 2;",
    "const @A = f(3);\n@A.splice(0, 1);", "const @A = f(5);\nif (t === 0) @A.shift();",
    "const @A = f(3);\n@A.rows.push(1);", "const @A = f(4);\n@A.unshift(t);",
]  # fmt: skip


class StatementShapes:
    """Programs of statements, from a `random.Random`."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, options: list[str]) -> str:
        return options[self.rng.randrange(len(options))]

    def steps(self) -> str:
        """`let` names changed by statements holding `i++` and the like, maybe in a loop."""
        first = self.pick(["0", "1", "2", "'1'"])
        start = self.pick(["0", "''", "1"])
        lines = [f"let i = {first};", f"let x = {start};"]
        lines.append("const xs = [5, 6, 7];\nconst o = {};")
        body = []
        for _ in range(self.rng.randrange(1, 4)):
            step = self.pick(["i++", "++i", "i--", "--i", "i++"])
            body.append(self.pick(STEP_STATEMENTS).replace("T", step))
        lines.append(self.container(body))
        lines.append("return [i, x, xs, o];")
        return "\n".join(lines)

    def container(self, body: list[str]) -> str:
        """The statements in a loop, a branch, a `switch`, a callback, a function, or alone."""
        inner = "\n  ".join(body)
        form = self.rng.randrange(12)
        if form >= len(CONTAINERS):
            return "\n".join(body)
        return CONTAINERS[form].replace("BODY", inner)

    def changes(self) -> str:
        """Statements changing names in place, maybe in a loop, an `if` or a `while`."""
        lines = [
            f"let i = {self.pick(['0', '1', '2'])};",
            f"let x = {self.pick(['0', '1', '5'])};",
            f"const xs = {self.pick(['[5, 6, 7]', '[]', '[3, 1, 2, 3]', '[10, 9, 1]'])};",
            f"const o = {self.pick(['{}', '{a: 0}', '{k: 1, a: 2}'])};",
            "const m = new Map();",
        ]
        body = [self.pick(CHANGE_STATEMENTS) for _ in range(self.rng.randrange(1, 5))]
        lines.append(self.container(body))
        lines.append("return [i, x, xs, o, [...m]];")
        return "\n".join(lines)

    def helpers(self) -> str:
        """A function of the program and uses of its results."""
        lines = ["const base = [1, 2];", "const cfg = {n: 1};", "const rows = [{n: 1}];"]
        lines += ["let t = 0;", self.pick(HELPERS)]
        names = []
        for k in range(self.rng.randrange(1, 3)):
            use = self.pick(HELPER_USES)
            names += [f"{n}{k}" for n in "ab" if f"@{n.upper()}" in use]
            lines.append(use.replace("@A", f"a{k}").replace("@B", f"b{k}"))
        lines.append(f"return [base, cfg, rows, t{''.join(', ' + n for n in names)}];")
        return "\n".join(lines)
