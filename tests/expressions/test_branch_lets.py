"""A ``let`` a loop's body sets by a test (``let label = 'a'; if (t) label = 'b'; ...``), read
as the ``const`` the statements leave (SPEC 10, "Loops";
:mod:`dialectic.frontends.plan.letbranch`): Node's answer, generated bodies included; other
changes of such a local stay refused."""

from __future__ import annotations

import random
from collections import Counter

from dialectic import Runtime

from .program_oracle import check, runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "const out = [];\nfor (const x of nums) {\n  let label = 'small';\n"
    "  if (x > 5) { label = 'big'; } else if (x < 0) { label = 'neg'; }\n"
    "  out.push(label);\n}\nreturn out;",
    "const out = [];\nfor (const p of people) {\n  let s2 = p.name;\n  if (p.age > 10) s2 += '!';\n"
    "  if (p.city) s2 += ' of ' + p.city;\n  out.push(s2);\n}\nreturn out;",
    "const out = [];\nfor (const x of nums) {\n  let k = x;\n  if (k > 2) k = k * 10;\n"
    "  else k = -k;\n  out.push(k);\n}\nreturn out;",
    "const out = [];\nlet i = 0;\nwhile (i < 3) {\n  let t = 'a';\n  if (i === 1) t = 'b';\n"
    "  out.push(t);\n  i++;\n}\nreturn out;",
    "const out = [];\nfor (const x of nums) {\n  let v = await echo(x);\n  if (v < 0) v = 0;\n"
    "  out.push(v);\n}\nreturn out;",
    "const out = {};\nfor (const p of people) {\n  let key = p.city;\n"
    "  if (!key) key = 'unknown';\n  out[key] = (out[key] || 0) + 1;\n}\nreturn out;",
    "const out = [];\ndo {\n  let m = 'x';\n  if (out.length) { m = 'y'; }\n  out.push(m);\n"
    "} while (out.length < 3);\nreturn out;",
    "const out = [];\nfor (const x of nums) {\n  let k;\n  if (x > 2) k = 'big';\n"
    "  else if (x < 0) k = 'neg';\n  out.push(k ?? 'none');\n}\nreturn out;",
    "const out = [];\nfor (const x of nums) {\n  let score = 0;\n  if (x > 1) score++;\n"
    "  if (x > 5) score += 2;\n  if (x < 0) { score--; } else score -= 0.5;\n"
    "  out.push(score);\n}\nreturn out;",
    # `for await` over an array: the same items (JavaScript awaits each in turn)
    "const out = [];\nfor await (const x of nums) out.push(x);\nreturn out;",
    "const out = [];\nfor await (const r of words.map(w => slow(w))) {\n"
    "  let n = r.length;\n  if (n > 5) n = 'long';\n  out.push(n);\n}\nreturn out;",
    # the hidden names (`_k1`, `_k2`...) are none the program writes, in a template too, and
    # the same name in two loops takes new ones each time
    "const _k1 = 'a', _k3 = 'b';\nconst out = [];\nfor (const x of nums) {\n  let k = x;\n"
    "  if (k > 2) k = 0;\n  else if (k < 0) k = `${_k1}`;\n  out.push(k);\n}\n"
    "for (const x of nums) {\n  let k = _k3;\n  if (x > 2) k = x;\n  out.push(k);\n}\n"
    "return [out, _k1, _k3];",
]


def test_a_let_set_by_a_test_gives_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def test_other_changes_of_the_local_stay_refused() -> None:
    for text in [
        "const out = [];\nfor (const x of nums) { let k = 1; if (x > 2) k = 2; k++; "
        "out.push(k); }\nreturn out;",
        "const out = [];\nfor (const x of nums) { let k = 1; if (x > 2) { k = 2; out.push(0); } "
        "out.push(k); }\nreturn out;",
    ]:
        out = RT.run(text, lang="plan", strict=True)
        assert out.status == "failure" and "a local of the loop" in (out.message or ""), text


def test_an_error_in_a_branch_points_at_it() -> None:
    text = "const out = [];\nfor (const x of nums) {\n  let k = 1;\n  if (x > 2) k = x.a.b;\n"
    text += "  out.push(k);\n}\nreturn out;"
    out = RT.run(text, lang="plan", strict=True, context={"nums": [1, 5]})
    assert out.status == "failure" and out.error is not None
    assert (out.error.line, out.error.column) == (4, 18), out.message


_TESTS = ["x > 2", "x < 0", "!x", "x % 2 === 0", "String(s2).length > 2", "typeof x === 'number'"]
_VALUES = ["'big'", "x * 2", "s2 + '!'", "String(x)", "-1", "String(s2).length"]


def _generated(seed: int) -> str:
    rng = random.Random(seed)
    lines = [f"  let s2 = {rng.choice(['String(x)', 'x', 'x > 0', 'null'])};"]
    for _ in range(rng.randint(1, 3)):
        arms = [
            f"if ({rng.choice(_TESTS)}) {{ s2 {rng.choice(['=', '+='])} {rng.choice(_VALUES)}; }}"
        ]
        for _ in range(rng.randint(0, 2)):
            arms.append(f"else if ({rng.choice(_TESTS)}) s2 = {rng.choice(_VALUES)};")
        if rng.random() < 0.4:
            arms.append(f"else s2 {rng.choice(['=', '+='])} {rng.choice(_VALUES)};")
        lines.append("  " + " ".join(arms))
    if rng.random() < 0.3:
        lines.append(f"  if ({rng.choice(_TESTS)}) s2{rng.choice(['++', '--', ' -= 2'])};")
    if rng.random() < 0.2:
        lines.append("  s2 = 0;")  # (another change: refused)
    lines.append("  out.push(s2);")
    return "const out = [];\nfor (const x of nums) {\n" + "\n".join(lines) + "\n}\nreturn out;"


def test_generated_bodies_never_answer_otherwise_than_node() -> None:
    verdicts = check([_generated(seed) for seed in range(300)], RT)
    tally = Counter(v.kind for v in verdicts)
    assert not [v for v in verdicts if v.kind in ("wrong", "crash")], tally
    assert tally["same"] >= 120, tally  # (the rest: `+` of a boolean, `++` of a text, ...)
