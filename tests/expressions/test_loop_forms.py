"""`xs.forEach(...)` statements and counted `for (let i = 0; i < n; i++)` loops, read as
`for...of` loops (SPEC 10, "Loops"): Node's answer, or a refusal at the place."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "const out = {};\npeople.forEach(p => { out[p.name] = p.age; });\nreturn out;",
    "const names = [];\npeople.forEach(p => names.push(p.name));\nreturn names;",
    "let total = 0;\nnums.forEach((n, i) => { total += n * i; });\nreturn total;",
    "const out = [];\npeople.forEach(({name, age}) => { if (age < 1) return; out.push(name); });"
    "\nreturn out;",
    "const rows = [];\npeople.forEach(p => {\n  p.tags.forEach(t => rows.push(p.name + t));\n});"
    "\nreturn rows;",
    "let acc = '';\nwords.forEach(w => { acc += w; });\nreturn acc;",
    "const seen = {};\nconst first = [];\n"
    "words.forEach(w => { if (seen[w.length]) return; seen[w.length] = true; first.push(w); });"
    "\nreturn first;",
    "const out = [];\nfor (const p of people) { p.tags.forEach(t => out.push(t)); }\nreturn out;",
    "const got = [];\npeople.forEach(p => got.push(echo(p.name)));\nreturn got;",
    # a receiver that is not a name, and two loops changing one accumulator in turn
    "const out = [];\n[1, 2].forEach(x => out.push(x));\nfor (const i of [5]) out.push(i);\n"
    "nums.slice(0, 2).forEach(x => out.push(x));\nreturn out;",
    "const out = [];\nfor (let i = 0; i < nums.length; i++) { out.push(nums[i] * 2); }\n"
    "return out;",
    "const out = [];\nfor (let i = 0; i <= 3; i++) { out.push(i); }\nreturn out;",
    "const out = [];\nfor (let i = nums.length - 1; i >= 0; i--) { out.push(nums[i]); }\n"
    "return out;",
    "const out = [];\nfor (let i = 2; i < 2.5; i += 1) { out.push(i); }\n"
    "for (let j = 5; j > 1; --j) out.push(j);\nreturn out;",
    "const out = [];\nfor (let i = 0; i < 0; i++) { out.push(i); }\nreturn out;",
    "const chunks = [];\nfor (let i = 0; i < words.length; i += 3) {\n"
    "  chunks.push(words.slice(i, i + 3));\n}\nreturn chunks;",
    "const o = [];\nfor (let i = 10; i >= 1; i -= 4) o.push(i);\n"
    "for (let i = 0; i <= 6; i += 3) o.push(i);\nreturn o;",
    "let text = '';\nfor (const [i, p] of people.entries()) {\n"
    "  text += `${i + 1}. ${p.name}\\n`;\n}\nreturn text.trim();",
    "const o = [];\nfor (const i of words.keys()) o.push(i);\n"
    "for (const v of nums.values()) o.push(v);\nreturn o;",
    "return Object.entries(data).filter(([, v]) => typeof v === 'number')\n"
    "  .sort(([, a], [, b]) => a - b).map(([k, , ]) => k);",
    "let best = 0;\nfor (let i = 1; i < nums.length; i++) {\n"
    "  if (nums[i] > nums[best]) best = i;\n}\nreturn best;",
    # C-style loops that are not a count: read as `while` (SPEC 10, "Loops")
    "const out = [];\nfor (let i = 0; i < 10; i += 0.5) { if (i > 1) break; out.push(i); }\n"
    "return out;",
    "const out = [];\nfor (let i = 0; i > 10; i++) out.push(i);\nreturn out;",
    "const out = [];\nfor (let i = echo(0); i < 3; i++) out.push(i);\nreturn out;",
    # the test is `(i < 2) ? 3 : 2` and `(i < n) && flag`, not a bound (was a wrong answer)
    "const out = [];\nfor (let i = 0; i < 2 ? 3 : 2; i++) { if (i > 5) break; out.push(i); }\n"
    "return out;",
    "const out = [];\nfor (let i = 0; i < n && flag; i++) out.push(i);\nreturn out;",
    "const out = [];\nfor (let i = 1; i < 100; i *= 2) out.push(i);\nreturn out;",
    "const out = [];\nfor (let i = 0, j = 5; i < j; i++, j--) out.push([i, j]);\nreturn out;",
    "let s2 = 0;\nfor (let i = 0; i < nums.length && nums[i] !== 0; i++) s2 += nums[i];\n"
    "return s2;",
    "let k = 0;\nfor (; k < 5; k++) {}\nreturn k;",
    "function isPrime(k) {\n  if (k < 2) return false;\n"
    "  for (let i = 2; i * i <= k; i++) { if (k % i === 0) return false; }\n  return true;\n}\n"
    "return [2, 3, 4, 9, 11, 15, 17].filter(isPrime);",
    "const out = [];\nfor (let i = 0; i < 10; i = i + 3) { if (i === 3) continue; out.push(i); }\n"
    "return out;",
    "let total = 0;\nfor (let i = 1; i <= 10 && total < 20; i++) { total += i; }\nreturn total;",
    "const out = [];\nfor (let i = 0; ; i++) { if (i >= 3) break; out.push(i); }\nreturn out;",
    "const out = [];\nfor (let i = 1; i < 100; i *= 3) out.push(i);\n"
    "for (let i = 0; i < 2; i++) out.push(-i);\nfor (let i = 5; i > 0; i -= 2) out.push(i * 10);\n"
    "return out;",
    "let n3 = 27, steps = 0;\nfor (; n3 !== 1; steps++) { n3 = n3 % 2 ? 3 * n3 + 1 : n3 / 2; }\n"
    "return steps;",
    "const res = [];\nfor (let i = 0; i < words.length; i += 2) {\n"
    "  const w = await echo(words[i]);\n  res.push(w);\n}\nreturn res;",
    "for (let i = 1; i < 50; i *= 2) { if (i > 10) return i; }\nreturn 0;",
    "let a2 = 0;\nfor (let a = 0, b = 1; a < 50; a = b, b = a + b) a2 = a;\nreturn a2;",
]


def test_for_each_and_counted_loops_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        (
            "people.forEach(async p => { await echo(p); });\nreturn 1;",
            "`forEach` does not wait for an `async` callback",
            16,
        ),
        ("people.forEach(p => { return p; });\nreturn 1;", "drops the value", 23),
        ("people.forEach(p => { break; });\nreturn 1;", "has no `break`", 23),
        ("people.forEach(p => { continue; });\nreturn 1;", "has no `continue`", 23),
        ("people.forEach((p, i, all) => 1);\nreturn 1;", "not the array", 16),
        # not a count: read as `while` (:mod:`.loopfor`), whose steps are bounded
        ("for (let i = 0; i < 10; i += 0) {}\nreturn 1;", "method steps", 1),
        ("for (let i = 0; ; i++) {}\nreturn 1;", "loop has no `break`: it never ends", 1),
        ("let i = 5;\nfor (let i = 1; i < 3; i *= 2) {}\nreturn i;", "defines before it", 10),
        (
            "const o = [];\nfor (const x of nums) { for (let j = 1; j < 9; j *= 3) o.push(j); }\n"
            "return o;",
            "inside a loop or a callback's body, a C-style loop is only a count",
            25,
        ),
        ("for (var i = 0; i < 3; i *= 2) {}\nreturn i;", "not `var`", 6),
        (
            "const out = [];\nfor (let i = 0; i < out.length + 3; i++) { out.push(i); }\n"
            "return out;",
            "the loop's bound reads `out`, which the loop changes",
            21,
        ),
        ("for (let i = 0; i < 3; i++) { i += 1; }\nreturn 1;", "", 1),
        (  # a group-by whose arrays are held elsewhere: the hint is the new value to set
            "const g = {};\nconst all = [];\nfor (const p of people) {\n"
            "  if (!g[p.name]) { g[p.name] = []; all.push(g[p.name]); }\n"
            "  g[p.name].push(p.age);\n}\nreturn all;",
            "`g[p.name].push(...)` changes an array inside `g` in place",
            3,
        ),
    ],
)
def test_what_javascript_would_answer_otherwise_is_refused(
    text: str, message: str, column: int
) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert message in out.error.message, out.error.message
    assert out.message is not None and "2 syntax errors" not in out.message, out.message
    if message:
        assert out.error.column == column, out.message


def test_for_each_of_a_text_or_an_object_fails_as_node_throws() -> None:
    for name in ("s", "data"):
        out = RT.run(f"{name}.forEach(c => c);\nreturn 1;", lang="plan", context=CONTEXT)
        assert out.status == "failure", out.value
        text = f"const o = [];\nfor (const [k, v] of {name}.entries()) o.push(k);\nreturn o;"
        out = RT.run(text, lang="plan", context=CONTEXT)
        assert out.status == "failure", out.value
