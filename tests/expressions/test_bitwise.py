"""The bitwise operators ``|`` ``&`` ``^`` ``~`` ``<<`` ``>>`` ``>>>`` (SPEC 1.7) and their
compound assignments: Node's values with JavaScript's precedence, on written programs and on
thousands of generated operands in one Node process; a text, a boolean or null as an operand
fails at its line and column; decompiling and Plan2 keep them."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from dialectic import Runtime
from dialectic.frontends.plan import parse_plan
from dialectic.frontends.plan.decompile import decompile
from dialectic.tools.convert import convert

from .program_oracle import runs_as_in_node, runtime
from .test_more_builtins import _all_as_in_node, fails_at

RT: Runtime = runtime()

PROGRAMS = [
    "return [n | 0, 2.7 | 0, -2.7 | 0, ~~-9.99, ~n, ~0, ~-1];",
    "return [n & 1, 6 & 3, -1 & 255, n ^ 5, -8 ^ 3, 0 ^ 0];",
    "return [1 << 31, 1 << 32, 1 << 33, 5 << -1, -1 >> 28, -1 >>> 28, -7 >>> 0, 7 >>> 0];",
    "return [(n + 4) >> 1, (2 ** 31) | 0, (2 ** 32 + 5) | 0, (2 ** 53) | 0, -(2 ** 53) >>> 0];",
    "return [1e21 | 0, 1e21 >>> 0, 4294967296.5 | 0, 0.5 >>> 0, -0.5 | 0, neg | 0];",
    # precedence: | below ^ below & below equality; shifts between comparison and addition
    "return [1 | 2 && 4, 1 | 2 ^ 3 & 6, 1 << 2 + 1, 3 > 2 << 1, 8 >> 1 + 1, "
    "(n & 1) === 1 ? 'odd' : 'even'];",
    "return [1 | 0 ?? 5, (none ?? 3) | 0, (~n) ** 2, 2 ** 3 | 1, -n >>> 28];",
    "return [5 & 3 | 4 ^ 1, 12 >> 2 << 1, 100 >>> 2 >> 1, ~5 & 0xff, ~(5 & 3)];",
    "return [`${n | 8}`, `${-1 >>> 0}`, String(n << 28), (n >>> 0).toString(2)];",
    # idioms
    "let h = 0;\nfor (const c of s) {\n  h = ((h << 5) - h) + c.charCodeAt(0);\n  h |= 0;\n}\n"
    "return h;",
    "let h = 0;\nfor (let i = 0; i < s.length; i++) {\n"
    "  h = (h * 31 + s.charCodeAt(i)) >>> 0;\n}\nreturn h.toString(16);",
    "const hash = [...s].reduce((h, c) => ((h << 5) - h + c.charCodeAt(0)) | 0, 0);\nreturn hash;",
    "return nums.map(x => x | 0);",
    "return nums.filter(x => (x & 1) === 1);",
    "return nums.map(x => [x >> 1, x << 1, ~x, x >>> 1]);",
    "let mask = 0;\nfor (const w of words) {\n  mask |= 1 << w.length;\n}\nreturn mask;",
    "let x = 12345;\nx ^= x << 13;\nx ^= x >> 17;\nx ^= x << 5;\nreturn x >>> 0;",
    "let a = 255;\na &= 15;\na <<= 4;\na >>= 1;\na >>>= 1;\nreturn a;",
    "const counts = {a: 0};\nfor (const v of nums) {\n  counts.a ^= v | 0;\n}\nreturn counts;",
    "const mid = (lo, hi) => (lo + hi) >> 1;\nreturn [mid(0, 10), mid(3, 4), mid(-5, 0)];",
    "function isPow2(v) { return v > 0 && (v & (v - 1)) === 0; }\n"
    "return [1, 2, 3, 64, 100].map(isPow2);",
]


def test_bitwise_operators_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def _operand(rng: random.Random) -> float | int:
    r = rng.random()
    if r < 0.3:
        return rng.randint(-300, 300)
    if r < 0.5:
        return rng.uniform(-1e4, 1e4)
    if r < 0.7:
        return rng.randint(-(2**53), 2**53)
    if r < 0.8:
        return rng.choice([2**31, 2**31 - 1, -(2**31), 2**32, 2**32 - 1, -(2**32), 0, -1, 0.5])
    if r < 0.9:
        return math.ldexp(rng.random(), rng.randint(-20, 80)) * rng.choice([1, -1])
    return rng.uniform(-1e25, 1e25)


def test_every_operator_on_generated_operands() -> None:
    rng = random.Random(11)
    pairs = [
        [_operand(rng), rng.choice([_operand(rng), rng.randint(-40, 40)])] for _ in range(4000)
    ]
    _all_as_in_node(
        "p => [p[0] | p[1], p[0] & p[1], p[0] ^ p[1], ~p[0], p[0] << p[1], p[0] >> p[1], "
        "p[0] >>> p[1], p[0] | 0, p[0] >>> 0]",
        pairs,
    )


@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        ("return '5' | 0;", "`|` needs numbers; the left operand is a string", "1:8"),
        ("const a = 1;\nreturn a & true;", "the right operand is a boolean", "2:8"),
        ("return ~none;", "`~` needs numbers", "1:8"),
        ("return n & 1 === 1 ? 'odd' : 'even';", "the right operand is a boolean", "1:8"),
        ("return ~n ** 2;", "a unary operator before `**` needs parentheses", "1:8"),
        ("return nums << 1;", "an array", "1:8"),
        ("return big >>> 0;", "beyond 2**53", "1:8"),
    ],
)
def test_an_operand_that_is_no_number_fails_where_it_is_written(
    text: str, message: str, where: str
) -> None:
    context = {"none": None, "nums": [1], "big": 2**60 + 1, "n": 7}
    out = RT.run(text, lang="plan", context=context)
    fails_at(out, message, where)
    assert out.error is not None and out.error.code in ("expression_error", "syntax_error")


def test_decompiled_and_plan2_programs_keep_them() -> None:
    source = "const h = n | 3;\nreturn [~h, h >>> 1, `${h << 2}`, 1 | 2 ^ 3 & 6, -h >> 1];"
    tree = parse_plan(source).tree
    assert parse_plan(decompile(tree)).tree == tree
    plan2 = convert(source, "plan", "plan2")
    for text, lang in [(source, "plan"), (plan2, "plan2")]:
        out = RT.run(text, lang=lang, context={"n": 8})
        assert out.status == "success", out.message
        assert out.value == [-12, 5, "44", 1, -6]


def test_a_compound_assignment_is_the_operator_then_the_name() -> None:
    tree: Any = parse_plan("let h = 3;\nh >>>= 1;\nreturn h;").tree
    assert ">>>" in repr(tree) and ">>>=" not in repr(tree)
