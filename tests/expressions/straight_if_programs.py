"""Plan programs whose `if` statements outside loops only change names (SPEC 10, "Changes
outside loops"; :mod:`dialectic.frontends.plan.straightif`), run against Node by
:mod:`.test_straight_ifs`: numbers, texts, arrays through `push`, the truthiness of `0`, `''`,
`null`, `NaN`, nested `if`s, `else if` chains, a branch changing two names, a branch reading
what another changed, conditions calling a function; and random ones
(:func:`random_if_programs`)."""

from __future__ import annotations

import random

__all__ = ["IF_PROGRAMS", "random_if_programs"]

IF_PROGRAMS = [
    # one change, no `else`
    "let x = 1; if (x > 0) x = 5; return x;",
    "let x = 1; if (x < 0) x = 5; return x;",
    "let x = 1; if (x) x += 2; return x;",
    "let x = 1; if (x) x -= 2; return x;",
    "let x = 3; if (x) x *= 4; return x;",
    "let x = 7; if (x) x /= 2; return x;",
    "let x = 7; if (x) x %= 4; return x;",
    "let x = 1; if (true) x++; return x;",
    "let x = 1; if (true) x--; return x;",
    "let x = 1; if (true) ++x; return x;",
    "let x = '5'; if (x) x++; return x;",
    "let x = null; if (true) x ??= 3; return x;",
    "let x = 0; if (true) x ||= 3; return x;",
    "let x = 2; if (true) x &&= 3; return x;",
    "let x = 6; if (x) x |= 1; return x;",
    "let x = 6; if (x) x <<= 2; return x;",
    # truthiness of the condition
    "let r = 'no'; if (0) r = 'yes'; return r;",
    "let r = 'no'; if (-0) r = 'yes'; return r;",
    "let r = 'no'; if ('') r = 'yes'; return r;",
    "let r = 'no'; if (null) r = 'yes'; return r;",
    "let r = 'no'; if ('0') r = 'yes'; return r;",
    "let r = 'no'; if ([]) r = 'yes'; return r;",
    "let r = 'no'; if ({}) r = 'yes'; return r;",
    "let r = 'no'; if (undefined) r = 'yes'; else r = 'else'; return r;",
    "let r = 'no'; const q = [1].indexOf(5) + 1; if (q) r = 'yes'; else r = 'zero'; return r;",
    "let r = 0; if (r) r = 5; else r = ''; return r;",
    # texts
    "let str1 = 'a'; if (str1.length) str1 += 'b'; return str1;",
    "let str1 = 'a'; if (str1 === 'b') str1 += 'x'; else str1 += 'y'; return str1;",
    "let str1 = ''; if (!str1) str1 = 'empty'; return str1;",
    "let str1 = 'n:'; if (str1) str1 += 1; if (str1) str1 += true; return str1;",
    "let str1 = 'x'; if (str1) str1 = str1 + str1;\n"
    "if (str1.length > 1) str1 = str1.toUpperCase(); return str1;",
    # arrays through push
    "const xs = []; if (xs.length === 0) xs.push(1); return xs;",
    "const xs = [1]; if (xs.length > 5) xs.push(2); return xs;",
    "const xs = []; if (true) xs.push(1, 2); else xs.push(3); return xs;",
    "const xs = []; if (false) xs.push(1); else xs.push(...[2, 3]); return xs;",
    "const xs = []; const k = xs.length; if (k === 0) xs.push('first'); return [k, xs];",
    "const xs = [0]; if (xs[0] === 0) { xs.push(1); xs.push(xs.length); } return xs;",
    "const xs = []; let num = 0;\n"
    "if (true) { xs.push(num); num += 1; xs.push(num); } return [xs, num];",
    # else, else-if chains
    "let g = ''; const num = 75; if (num >= 90) g = 'A'; else if (num >= 80) g = 'B'; "
    "else if (num >= 70) g = 'C'; else g = 'F'; return g;",
    "let g = ''; const num = 95;\n"
    "if (num >= 90) g = 'A'; else if (num >= 80) g = 'B'; else g = 'F'; return g;",
    "let g = ''; const num = 5;\n"
    "if (num >= 90) g = 'A'; else if (num >= 80) g = 'B'; else g = 'F'; return g;",
    "let g = 'none'; const num = 5; if (num > 9) g = 'big'; else if (num > 7) g = 'mid'; return g;",
    "let a = 1; if (a > 0) { a = 10; } else { a = -10; } return a;",
    "let a = -1; if (a > 0) { a = 10; } else { a = -10; } return a;",
    # a branch changing two names, reading what it changed, what another branch changed
    "let a = 0; let b = 0; if (true) { a = 5; b = a * 2; } return [a, b];",
    "let a = 1; let b = 2; if (a < b) { a = b; b = a + 1; } else { b = a; } return [a, b];",
    "let a = 1; let b = 2; if (a > b) { a = b; } else { b = a; a += b; } return [a, b];",
    "let a = 0; let b = 1; if (a > 3) { a = 7; b += a; } else if (b) a = 2; else b = 'x'; "
    "return [a, b];",
    "let a = 0; let b = 0; if (a === 0) a = 1; else b = 1; if (a === 1) b = 2; return [a, b];",
    "let lo = 5; let hi = 1; if (lo > hi) { const t0 = 0; } return [lo, hi];",
    "let t = 0; let c = 0; if (t === 0) { t += 2; c++; t += c; } return [t, c];",
    # the condition reads a name the branch changes (evaluated once, before the branch)
    "let x = 1; if (x === 1) { x = 2; x = x === 1 ? 'again' : x + 1; } return x;",
    "let x = 1; if (x === 1) x = 2; else if (x === 2) x = 3; return x;",
    "let x = 1; if (x === 1) { x = 2; } if (x === 2) { x = 3; } return x;",
    # nested ifs
    "let x = 0; const a = 1; const b = 2; if (a) if (b) x = 1; return x;",
    "let x = 0; const a = 1; const b = 0; if (a) if (b) x = 1; else x = 2; return x;",
    "let x = 0; const a = 0; if (a) { if (a > 1) x = 1; } else { if (!a) x = 2; else x = 3; } "
    "return x;",
    "let x = 0; let y = 0; const a = 3; if (a > 1) { x = 1; if (a > 2) { y = 2; x += y; } } "
    "return [x, y];",
    # reads before and after; reads in arrows
    "let x = 1; const before = x; if (before) x = 2; const after = x; return [before, after];",
    "let x = 1; const f = () => x; if (x) x = 2; return f();",
    "let x = 1; if (x) x = [1, 2].map(v => v + x)[1]; return x;",
    "let best = null; let score = -1; const items = [3, 8, 5];\n"
    "if (items[0] > score) { best = 0; score = items[0]; }\n"
    "if (items[1] > score) { best = 1; score = items[1]; }\n"
    "if (items[2] > score) { best = 2; score = items[2]; }\nreturn [best, score];",
    # calls: in the condition (once), in a branch
    "let x = 0; if (await echo(1)) x = 1; return x;",
    "let x = 0; if (await echo(0)) x = 1; else x = 2; return x;",
    "let x = 0; if ((await echo([1, 2])).length === 2) { x = await echo(5); x += 1; } return x;",
    "let x = 'a'; if (x) x += await echo('b'); else x += await echo('c'); return x;",
    "const out = []; if (await echo(true)) out.push(await echo('v')); return out;",
    # a branch ended by a line break (JavaScript's `;`)
    "let x = 0; if (x === 0) x = 1\nreturn x;",
    "let x = 0\nif (x === 0) {\n  x = 1\n  x += 1\n}\nreturn x",
    # numbers that are not plain
    "let x = 0.1; if (x) x += 0.2; return x;",
    "let x = 1; if (x) x /= 0; return x > 1e308;",
    "let x = 1; if (x) x = -0; return x;",
    "let x = 1; if (x) x = x / 8; else x = 0; return x;",
]


_VALUES = ["0", "1", "-2", "''", "'a'", "null", "true", "false", "3.5", "'0'"]


def _test(r: random.Random, names: list[str]) -> str:
    """A condition: a value, its negation, or a comparison (of numbers for `<`, `>`, `>=`)."""
    kind = r.randrange(5)
    a = r.choice(names + _VALUES)
    if kind == 0:
        return a
    if kind == 1:
        return f"!{a}"
    op = r.choice(["===", "!==", ">", "<", ">="])
    if op in ("===", "!=="):
        return f"{a} {op} {r.choice(names + _VALUES)}"
    numeric = [x for x in names if x.startswith("n") or x.endswith("length")]
    return f"{r.choice([*numeric, '0', '1', '-2'])} {op} {r.choice([*numeric, '0', '1', '3.5'])}"


def _change(r: random.Random, nums: list[str], texts: list[str], arrays: list[str]) -> str:
    kind = r.randrange(6)
    if kind == 0 and arrays:
        return f"{r.choice(arrays)}.push({r.choice(nums + texts + _VALUES)});"
    if kind == 1 and texts:
        return f"{r.choice(texts)} += {r.choice(_VALUES[:5] + nums + texts)};"
    n = r.choice(nums)
    op = r.choice(["=", "+=", "-=", "*=", "++", "--", "||=", "&&="])
    if op in ("++", "--"):
        return f"{n}{op};"
    return (
        f"{n} {op} {r.choice([*nums, '1', '2', '0', '-1', f'{n} + 1', f'{r.choice(nums)} * 2'])};"
    )


def _branch(
    r: random.Random, depth: int, names: list[str], changed: tuple[list[str], list[str], list[str]]
) -> str:
    if r.randrange(4) == 0:
        return _change(r, *changed)
    statements = [
        _if(r, depth + 1, names, changed)
        if depth < 2 and r.random() < 0.2
        else _change(r, *changed)
        for _ in range(r.randrange(1, 4))
    ]
    return "{ " + " ".join(statements) + " }"


def _if(
    r: random.Random, depth: int, names: list[str], changed: tuple[list[str], list[str], list[str]]
) -> str:
    text = f"if ({_test(r, names)}) {_branch(r, depth, names, changed)}"
    while r.random() < 0.5:
        if r.random() < 0.5:
            text += f" else if ({_test(r, names)}) {_branch(r, depth, names, changed)}"
        else:
            return text + f" else {_branch(r, depth, names, changed)}"
    return text


def random_if_programs(seed: int, count: int) -> list[str]:
    """``count`` programs of `let`s (numbers, texts, an array) changed by random `if`/`else if`
    /`else` statements (nested two deep at most) and a few plain changes between them."""
    r = random.Random(seed)
    out = []
    for _ in range(count):
        nums = ["n1", "n2"][: r.randrange(1, 3)]
        texts = ["t1"] if r.random() < 0.6 else []
        arrays = ["a1"] if r.random() < 0.5 else []
        lines = [f"let {n} = {r.choice(['0', '1', '5', '-3'])};" for n in nums]
        lines += ["let " + t + " = " + r.choice(["''", "'x'"]) + ";" for t in texts]
        lines += [f"const {a} = [];" for a in arrays]
        names = nums + texts + [f"{a}.length" for a in arrays]
        for _ in range(r.randrange(1, 4)):
            lines.append(_if(r, 0, names, (nums, texts, arrays)))
            if r.random() < 0.3:
                lines.append(_change(r, nums, texts, arrays))
        lines.append(f"return [{', '.join(nums + texts + arrays)}];")
        out.append("\n".join(lines))
    return out
