"""NaN that the program tests for (SPEC 1.7; :mod:`dialectic.resolve.maynan`): ``parseInt``,
``parseFloat``, ``Number`` and unary ``+`` give NaN where only a test for it reads their value
(``isNaN(v)``, ``v || 0``, ``!v``, ``v ? a : b``, the branch a test showed it is no NaN), as
Node does; everywhere else a NaN stays refused. Programs compared with Node, and random
validation idioms over random texts (wrong: none)."""

from __future__ import annotations

import json
import random
from collections import Counter

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import check, node_answers, runs_as_in_node, runtime

RT: Runtime = runtime()

#: each answers as Node does (the texts: `s` is 'Hello, World', `words` has '10' and '9')
ANSWERED = [
    "const v = parseInt(s, 10); if (isNaN(v)) return 0; return v * 2;",
    "const v = parseInt('21', 10); if (isNaN(v)) return 0; return v * 2;",
    "const n2 = parseFloat(s); return isNaN(n2) ? 'not a number' : n2;",
    "const x = Number(s); return Number.isNaN(x) ? -1 : x;",
    "const x = Number(' 12 '); return Number.isNaN(x) ? -1 : x;",
    "return isNaN(parseFloat('abc'));",
    "return Number.isNaN(Number('w'));",
    "return [Number.isNaN(Number('4')), isNaN(parseInt('4px')), isFinite(+'x')];",
    "const m = parseFloat('w') || 0; return m;",
    "return parseInt(s) || null;",
    "return parseInt('0') || 'zero';",
    "if (isNaN(Number('id'))) return {error: 'bad id'}; return {id: Number('id')};",
    "const v = +'abc'; return isNaN(v) ? 'bad' : v;",
    "return [!+'x', !+'1', !parseInt('0'), +'q' ? 1 : 2];",
    "const v = parseInt('12px', 10); return isNaN(v) ? -1 : v + 1;",
    "const v = parseFloat(' 3.5 '); if (Number.isNaN(v)) { return null; } return v * 2;",
    "const v = Number('abc'); return !Number.isNaN(v) && v > 3;",
    "const v = Number('7'); return !Number.isNaN(v) && v > 3;",
    "const v = parseInt('x'); return [v !== v, v === v, v != v];",
    "const v = parseInt('x'); return v === v ? v : 'nan';",
    "const v = parseFloat('abc'); return v || 0;",
    "const v = parseFloat('q'); return v ? v * 2 : 'none';",
    "const v = parseFloat('2.5'); return v ? v * 2 : 'none';",
    "const v = Number('zz'); return [isFinite(v), Number.isFinite(v), Number.isInteger(v)];",
    "const v = Number('Infinity'); return Number.isFinite(v) ? v : 'infinite';",
    "const v = parseInt('x', 16); return isNaN(v) ? 'x' : v;",
    "const v = parseInt('1f', 16); return isNaN(v) ? 'x' : v;",
    "const v = Number({}); return isNaN(v);",
    "const v = Number(undefined); return isNaN(v) ? 'undefined' : v;",
    "let v = parseInt('x'); return isNaN(v) ? 0 : v;",
    "const v = parseInt('x'); const w = isNaN(v) ? 0 : v; return w + 1;",
    "const v = parseInt('x'); if (isNaN(v) || v < 0) return 'bad'; return v;",
    "const v = parseInt('8'); if (isNaN(v) || v < 0) return 'bad'; return v;",
    "const v = parseInt('x'); if (!isNaN(v)) { return v + 1; } return 'bad';",
    "const v = parseInt('x'); return isNaN(v) || v;",
    "return words.map(w => { const k = parseInt(w, 10); return isNaN(k) ? 0 : k; });",
    "return words.filter(w => !isNaN(Number(w)));",
    "return words.map(w => Number(w) || -1);",
    "return words.map(w => +w || 0);",
    "return words.filter(w => +w);",
    "return isNaN(flag ? parseInt('x') : 3);",
    "return none || parseInt('x') || 7;",
    "const v = parseInt('x'); return (flag ? v : 1) || 5;",
    "return people.map(p => parseInt(p.city ?? '', 10) || p.age);",
    "let total = 0;\nfor (const w of words) {\n  const k = parseInt(w, 10);\n"
    "  if (isNaN(k)) continue;\n  total += k;\n}\nreturn total;",
    "const out = [];\nfor (const w of words) {\n  const k = parseFloat(w);\n"
    "  if (isNaN(k)) { out.push(w); } else { out.push(k * 2); }\n}\nreturn out;",
    "const v = parseInt('x'); let r = 1; if (!isNaN(v)) { r = v; } return r;",
    "const v = parseInt('x'); const ok = !isNaN(v); return ok ? v : 0;",
    "function toNum(t) { const k = parseFloat(t); if (Number.isNaN(k)) return null; return k; }\n"
    "return [toNum('4'), toNum('z')];",
    "return words.reduce((acc, w) => {\n  const k = parseInt(w);\n"
    "  return isNaN(k) ? acc : acc + k;\n}, 0);",
    "const v = parseInt('x'); const w = parseInt('4'); return isNaN(v) || isNaN(w) ? null : v + w;",
]

#: each refused: a NaN would reach arithmetic, `??`, the result, an argument, an array, a
#: comparison, text, or a read no test covers (Node answers all of them)
REFUSED = [
    "const v = parseInt('x'); return v;",
    "const v = parseInt('x'); return v + 1;",
    "const v = parseInt('x'); return v ?? 0;",
    "return parseInt('x') ?? 0;",
    "const v = parseInt('x'); return [v];",
    "return [parseInt('x')].length;",
    "const v = parseInt('x'); return {a: v};",
    "const v = parseInt('x'); return echo(v);",
    "const v = parseInt('x'); return v > 0 ? 1 : 2;",
    "const v = parseInt('x'); return v && 1;",
    "const v = parseInt('x'); return isNaN(v) ? v : 0;",
    "const v = parseInt('x'); if (isNaN(v)) { return v; } return 0;",
    "const v = parseInt('x'); return `${v}`;",
    "const v = parseInt('x'); return String(v);",
    "const v = parseInt('x'); return Math.abs(v) || 0;",
    "const v = parseInt('x'); const w = v; return isNaN(w);",
    "const v = parseInt('x'); return isNaN(v + 1);",
    "return parseInt('x') === parseInt('x');",
    "const v = parseInt('x'); return nums.map(x => v);",
    "const v = parseInt('x'); return typeof v;",
    "const v = parseInt('x'); return (flag ? v : 1) ?? 5;",
    "const v = parseInt('3'); const w = parseInt('q'); return isNaN(v) ? null : v + w;",
    "const v = parseInt('x'); let r = 1; if (isNaN(v)) { r = 2; } return r + v;",
]


def test_tested_nan_answers_as_in_node() -> None:
    runs_as_in_node(ANSWERED, RT)


def test_nan_anywhere_else_is_refused() -> None:
    for text, answer in zip(REFUSED, node_answers(REFUSED), strict=True):
        assert "ok" in answer, (text, answer)  # (Node answers: dialectic refuses)
        out = RT.run(text, lang="plan", context=CONTEXT)
        assert out.status == "failure", (text, out.value)
        assert out.error is not None and out.error.code == "expression_error", text
        assert "NaN" in (out.message or ""), (text, out.message)


def test_dialect_json_and_plan2_take_the_same_rule() -> None:
    tree = {
        "$let": {"v": {"$global": ["parseInt", {"$ref": "s"}, 10]}},
        "$return": {
            "$if": [{"$global": ["isNaN", {"$ref": "v"}]}, 0, {"$op": ["*", {"$ref": "v"}, 2]}]
        },
    }
    out = RT.run(json.dumps(tree), lang="json", context=CONTEXT)
    assert (out.status, out.value) == ("success", 0)
    out = RT.run(
        "v: ${parseInt(s)}\nresult: ${isNaN(v) ? 0 : v * 2}\n", lang="plan2", context=CONTEXT
    )
    assert (out.status, out.value) == ("success", 0)
    out = RT.run("v: ${parseInt(s)}\nresult: ${v * 2}\n", lang="plan2", context=CONTEXT)
    assert out.status == "failure" and "parseInt gives NaN" in (out.message or "")


TEXTS = [
    "12", " 3.5 ", "abc", "", "0x1f", "1e3", "Infinity", "-", "12px", "-7", "0", ".5", "1_000",
    "0b11", "  ", "-Infinity", "+4", "3.", "0x", "NaN", "1e", "-0", "\\t8\\n", "0o17", "5e-3",
]  # fmt: skip
PIECES = ["1", "2", "0", ".", "e", "x", "-", "+", " ", "a", "0x", "Infinity", "f"]

IDIOMS = [
    "const v = parseInt(T, 10); if (isNaN(v)) return 0; return v * 2;",
    "const v = parseFloat(T); return isNaN(v) ? 'not a number' : v;",
    "const v = Number(T); return Number.isNaN(v) ? -1 : v;",
    "return isNaN(parseFloat(T));",
    "return [Number.isNaN(Number(T)), isNaN(T), isFinite(+T)];",
    "const v = parseFloat(T) || 0; return v;",
    "return parseInt(T) || null;",
    "if (isNaN(Number(T))) return {error: 'bad id'}; return {id: Number(T)};",
    "const v = +T; return Number.isFinite(v) ? v : null;",
    "const v = parseInt(T, 16); return isNaN(v) ? 'x' : v;",
    "const v = Number(T); return !Number.isNaN(v) && v > 3;",
    "const v = parseFloat(T); return v ? v + 1 : 'falsy';",
    "const v = parseInt(T); return v !== v ? 'nan' : v;",
    "return [T, T + '1'].map(t => Number(t) || 0);",
    "return [T].filter(t => !isNaN(parseFloat(t)));",
    "return !parseFloat(T);",
    "const v = parseInt(T); return v + 1;",
    "return parseFloat(T) ?? 0;",
    "const v = Number(T); if (isNaN(v) || v < 0) return 'bad'; const w = v * 2; return w;",
    "let total = 0; for (const t of [T, '2']) { const k = parseInt(t, 10);"
    " if (isNaN(k)) continue; total += k; } return total;",
    "const v = parseFloat(T); const ok = !Number.isNaN(v); return ok ? v : 'nan';",
]


def _text(rnd: random.Random) -> str:
    if rnd.random() < 0.6:
        return rnd.choice(TEXTS)
    return "".join(rnd.choice(PIECES) for _ in range(rnd.randint(1, 4)))


def random_idioms(seed: int, count: int) -> list[str]:
    rnd = random.Random(seed)
    return [
        rnd.choice(IDIOMS).replace("T", "'" + _text(rnd) + "'")
        for _ in range(count)  # (no text holds a `'` or a `T`)
    ]


def test_random_validation_idioms_are_never_wrong() -> None:
    verdicts = check(random_idioms(11, 400), RT)
    tally = Counter(v.kind for v in verdicts)
    bad = [v for v in verdicts if v.kind not in ("same", "refused")]
    assert not bad, bad[:5]
    # (refused: a NaN that reaches `+`, `??` or the result; an integer beyond 2**53)
    assert tally["same"] >= 300, tally
