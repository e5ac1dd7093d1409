"""The statements after an `if` that returns (a guard) change the values of the block before
it (SPEC 10, "Changes outside loops"): `let total = 0; if (!flag) return -1; for (...) total +=
x;`. Each program gives Node's answer; a value read whole before the guard and changed after it
is refused, as JavaScript would show the change through that read."""

from __future__ import annotations

import pytest

from dialectic import Runtime
from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import parse_plan

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "let a = 1;\nif (n > 100) return 0;\na++;\nreturn a;",
    "const out = [];\nif (n > 100) return 0;\nfor (const x of nums) out.push(x);\nreturn out;",
    "let a = 1;\nif (n > 100) return 0;\nfor (const x of nums) a += x;\nreturn a;",
    "let total = 0;\nif (!flag) return -1;\nfor (const p of people) total += p.age;\nreturn total;",
    "const o = {};\nif (n < 0) return null;\no.x = n;\no.y = n * 2;\nreturn o;",
    "let a = 1;\nconst b = a;\nif (n > 100) return 0;\na = 5;\nreturn [a, b];",
    "let a = 1;\nif (n > 100) return 0;\nif (n > 50) return 1;\na += 2;\n"
    "for (const x of nums) {\n  if (x > 5) return a;\n  a++;\n}\nreturn -a;",
    "const out = [];\nfor (const x of nums) {\n  if (x < 0) return out;\n  out.push(x);\n}\n"
    "out.push('end');\nreturn out;",
    "let s2 = '';\nif (!s) return '';\nfor (const c of s) s2 = c + s2;\nreturn s2;",
    "const m = new Map();\nif (!words.length) return [];\n"
    "for (const w of words) m.set(w.length, w);\nreturn [...m.keys()];",
    "const counts = {};\nif (none) return counts;\nfor (const w of words) {\n"
    "  const k = w[0] ?? '-';\n  counts[k] = (counts[k] || 0) + 1;\n}\nreturn counts;",
    "let best = null;\nif (people.length === 0) return null;\nfor (const p of people) {\n"
    "  if (!best || p.age > best.age) best = p;\n}\nreturn best.name;",
    "function stats(xs) {\n  let sum = 0;\n  if (xs.length === 0) return {sum, avg: null};\n"
    "  for (const x of xs) sum += x;\n  return {sum, avg: sum / xs.length};\n}\n"
    "return [stats(nums), stats([])];",
    "const names = [];\nif (n < 0) { return []; }\nfor (const p of people) {\n"
    "  const r = await echo(p.name);\n  names.push(r);\n}\nreturn names;",
    "let label = 'none';\nif (none !== null) return 'x';\nif (n > 5) { label = 'big'; }\n"
    "return label;",
]


def test_changes_after_a_guard_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize(
    "source",
    [
        "const out = [];\nconst keep = out;\nif (n > 100) return 0;\nout.push(1);\nreturn keep;",
        "const o = {};\nconst keep = o;\nif (n > 100) return 0;\no.x = 1;\nreturn keep;",
    ],
)
def test_a_value_held_before_the_guard_is_not_changed_after_it(source: str) -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan(source)
    problem = caught.value.problems[0]
    assert "is read whole before the `if` that returns" in problem.message, problem.message
    assert problem.line == 4 and problem.hint


def test_a_const_stays_a_const_after_a_guard() -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan("const a = 1;\nif (n > 100) return 0;\nfor (const x of nums) a += x;\nreturn a;")
    assert "`a` is a `const`" in caught.value.problems[0].message
