"""Builtins models reach for (SPEC 1.8): ``x.toString(radix)``, ``toPrecision``,
``charCodeAt``, ``codePointAt``, ``String.fromCharCode``, ``String.fromCodePoint``,
``substr``, ``Math.hypot``/``fround``/``clz32``/``imul``, ``Object.is``, ``with``, ``sort()``
without a comparator, and ``Array(n).fill(v)``: each gives Node's value, checked on written
programs and on thousands of generated inputs in one Node process; what cannot be Node's
fails clearly, at its line and column."""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
from typing import Any

import pytest

from dialectic import Outcome, Runtime

from .program_oracle import runs_as_in_node, runtime, same

RT: Runtime = runtime()

PROGRAMS = [
    # toString, with and without a radix
    "return [n.toString(), (255).toString(16), (255).toString(2), (-255).toString(36)];",
    "return [(0.1).toString(3), (0.5).toString(2), (1e21).toString(), (1e21).toString(7)];",
    "return [(-0).toString(2), (2 ** 53).toString(2), (123.456).toString(16), neg.toString()];",
    "return [s.toString(), flag.toString(), 'x'.toString(16), big.toString(36)];",
    "return [(3).toString().padStart(2, '0'), `${(7).toString().padStart(2, '0')}:05`];",
    "const h = 9;\nconst m = 5;\nreturn `${h.toString().padStart(2, '0')}:"
    "${m.toString().padStart(2, '0')}`;",
    "return people.map(p => p.age.toString(2));",
    "return nums.map(x => x.toString(16));",
    # toPrecision
    "return [(123.456).toPrecision(4), (0.000123).toPrecision(2), (123456).toPrecision(2)];",
    "return [(1.5).toPrecision(1), (2.5).toPrecision(1), (0.125).toPrecision(2), "
    "(1e-7).toPrecision(3), (1e21).toPrecision(3), (0).toPrecision(3), n.toPrecision()];",
    "return [(-1.005).toPrecision(3), (99.99).toPrecision(3), (9.5).toPrecision(1), "
    "(1).toPrecision(100)];",
    # character codes
    "return [s.charCodeAt(0), s.charCodeAt(), s.charCodeAt(4.7), 'é😀'.charCodeAt(1)];",
    "return ['a😀b'.codePointAt(1), 'a😀b'.codePointAt(2), 'a😀b'.codePointAt(3), "
    "'ab'.codePointAt(5)];",
    "return [String.fromCharCode(72, 105), String.fromCharCode(), String.fromCharCode(65.9), "
    "String.fromCharCode(65 + 65536), String.fromCharCode(0xD83D, 0xDE00)];",
    "return [String.fromCodePoint(0x1F600, 65), String.fromCodePoint(), "
    "String.fromCodePoint(...[104, 105])];",
    "return [...s].map(c => c.charCodeAt(0)).reduce((a, b) => a + b, 0);",
    "return s.split('').map(c => String.fromCharCode(c.charCodeAt(0) + 1)).join('');",
    # substr
    "return [s.substr(1, 3), s.substr(-5), s.substr(-5, 2), s.substr(20), s.substr(2, -1), "
    "s.substr(), s.substr(0, 100)];",
    # Math
    "return [Math.hypot(3, 4), Math.hypot(), Math.hypot(-5), Math.hypot(1, 1), "
    "Math.hypot(0.1, 0.2, 0.3)];",
    "return [Math.fround(5.5), Math.fround(0.1), Math.fround(-0), Math.fround(1e-50)];",
    "return [Math.clz32(1), Math.clz32(0), Math.clz32(-1), Math.clz32(0.5), Math.clz32(2 ** 32)];",
    "return [Math.imul(3, 4), Math.imul(0xffffffff, 5), Math.imul(2 ** 31, 2), "
    "Math.imul(-5.9, 3.9)];",
    # Object.is, with
    "return [Object.is(1, 1), Object.is(n, 7), Object.is(n, '7'), Object.is('a', 'a'), "
    "Object.is(null, undefined), Object.is(data, 1), Object.is(0, 1), Object.is(none, null)];",
    "return [nums.with(0, 99), nums.with(-1, 'x'), nums];",
    "const i = nums.indexOf(2.5);\nreturn nums.with(i, 25);",
    # sort() and toSorted() without a comparator
    "return [10, 9, 1, 100].sort();",
    "return words.toSorted();",
    "return [...words].sort();",
    "return nums.toSorted();",
    "return [true, null, 'nul', undefined, 1e21, 5, -0, 'a', 0.5, 'null', 1e-7, false].sort();",
    "return ['b', undefined, 'a', undefined].sort();",
    "return ['😀', 'ﬀ', 'z', 'é', 'A'].sort();",
    "return [3, '3', 2, '10'].toSorted();",
    "return [-1, -2, -10, 2].sort();",
    "return Object.keys(data).sort().reverse();",
    # Array(n)
    "return new Array(3).fill(0);",
    "return Array(n).fill('-').join('');",
    "return Array(3).fill().map((_, i) => i * i);",
    "return [...Array(4).keys()];",
    "return Array.from(Array(3).keys()).map(i => i + 1);",
    "return Array(2).fill(null);",
    "return Array(0).fill(7);",
    "const row = 0;\nreturn Array(3).fill(row).map((v, i) => v + i);",
    "return Array(2).fill({a: 1, b: [n]});",
    "const grid = Array(2).fill().map(() => Array(3).fill(0));\nreturn grid;",
    "return new Array(5).fill(false).map((_, i) => i % 2 === 0);",
]


def test_the_builtins_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def _node_map(function: str, items: list[Any]) -> list[dict[str, Any]]:
    """``items.map(function)`` in one Node process: for each item ``{"ok": value}`` or
    ``{"error": ...}``."""
    node = shutil.which("node")
    assert node is not None, "set-up installs Node.js"
    script = (
        "const {f, items} = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const fn = new Function('return ' + f)();"
        "process.stdout.write(JSON.stringify(items.map(x => {"
        "  try { const v = fn(x); return {ok: v === undefined ? null : v}; }"
        "  catch (e) { return {error: String(e)}; } })));"
    )
    given = json.dumps({"f": function, "items": items})
    done = subprocess.run([node, "-e", script], input=given, text=True, capture_output=True)
    assert done.returncode == 0, done.stderr
    out: list[dict[str, Any]] = json.loads(done.stdout)
    return out


def _numbers(rng: random.Random, count: int) -> list[float | int]:
    """Numbers of every size and shape: small and fractional, whole, tiny and huge doubles."""
    out: list[float | int] = []
    for _ in range(count):
        r = rng.random()
        if r < 0.2:
            out.append(rng.uniform(-10, 10))
        elif r < 0.3:
            out.append(round(rng.uniform(-100, 100), rng.randint(0, 4)))
        elif r < 0.45:
            out.append(rng.randint(-(10**6), 10**6))
        elif r < 0.65:
            out.append(math.ldexp(rng.random(), rng.randint(-1074, 1023)) * rng.choice([1, -1]))
        elif r < 0.75:
            out.append(rng.randint(0, 2**53))
        elif r < 0.85:
            out.append(rng.choice([0.1, 0.5, 0.125, 1 / 3, 2.5, 1e21, 1e-7, 5e-324, 99.99, 9.5]))
        else:
            out.append(rng.uniform(0, 1e25))
    return out


def _all_as_in_node(function: str, items: list[Any]) -> None:
    """``items.map(function)`` run by dialectic (one run) gives Node's value for each item."""
    answers = _node_map(function, items)
    assert all("ok" in a for a in answers), [a for a in answers if "ok" not in a][:3]
    out = RT.run(f"return x.map({function});", lang="plan", context={"x": items}, strict=True)
    assert out.status == "success", out.message
    wrong = [
        (item, ours, a["ok"])
        for item, ours, a in zip(items, out.value, answers, strict=True)
        if same(ours, a["ok"]) is not None
    ]
    assert not wrong, wrong[:5]


def test_to_string_radix_and_to_precision_on_generated_numbers() -> None:
    rng = random.Random(7)
    cases = [[x, rng.randint(2, 36), rng.randint(1, 21)] for x in _numbers(rng, 3000)]
    cases += [[x, rng.randint(2, 36), rng.randint(22, 100)] for x in _numbers(rng, 300)]
    _all_as_in_node("c => [c[0].toString(c[1]), c[0].toPrecision(c[2])]", cases)


def test_math_functions_on_generated_numbers() -> None:
    rng = random.Random(8)
    xs = _numbers(rng, 2000)
    cases = [[x, rng.choice(xs), rng.uniform(-1e3, 1e3)] for x in xs]
    _all_as_in_node(
        "c => [Math.hypot(c[0], c[1]), Math.hypot(c[0], c[1], c[2]), Math.hypot(c[2]), "
        "Math.clz32(c[0]), Math.imul(c[0], c[1]), c[0] > 3.4e38 || c[0] < -3.4e38 ? 0 : "
        "Math.fround(c[0])]",
        cases,
    )


def test_character_codes_and_default_sort_on_generated_texts() -> None:
    rng = random.Random(9)
    alphabet = "aZ09 ~é€😀ﬀ\u00a0\ue000"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))) for _ in range(1500)]
    _all_as_in_node(
        "t => [t.length ? t.charCodeAt(t.length - 1) : -1, t.codePointAt(0), "
        "t.codePointAt(1), String.fromCodePoint(...[...t].map(c => c.codePointAt(0))), "
        "t.includes('😀') ? '' : t.substr(1, 2), t.includes('😀') ? '' : t.substr(-3)]",
        texts,
    )
    lists: list[list[Any]] = []
    for _ in range(400):
        pool = [*rng.sample(texts, 3), *_numbers(rng, 3), True, None, -1, 10, 9, 100]
        lists.append(rng.sample(pool, rng.randint(0, len(pool))))
    _all_as_in_node("xs => xs.toSorted()", lists)


@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        ("return n.toString;", "the member `toString` is not allowed", "1:10"),
        ("const f = x => x;\nreturn data.toString();", "`[object Object]`", "2:8"),
        ("return data.toString();", "[object Object]", "1:8"),
        ("return none.toString();", "`.toString()` on null", "1:8"),
        ("return n.toString(37);", "radix from 2 to 36", "1:8"),
        ("return n.toPrecision(0);", "1 to 100 digits", "1:8"),
        ("return s.charCodeAt(99);", "past the text's end", "1:8"),
        ("return String.fromCharCode(0xD83D);", "lone surrogate", "1:8"),
        ("return String.fromCodePoint(1.5);", "no code point", "1:8"),
        ("return '😀'.substr(1);", "split a character", "1:8"),
        ("const a = 1;\nreturn Math.acosh(a - 2);", "Math.acosh() of -1 is NaN", "2:8"),
        ("return Object.is(nums, nums);", "identity", "1:8"),
        ("return Object.is(n - 7, -0);", "tells 0 from -0", "1:8"),
        ("return nums.with(6, 0);", "outside the array", "1:8"),
        ("return people.sort();", "[object Object]", "1:8"),
        ("return [[2], [1]].toSorted();", "joined by commas", "1:8"),
        ("return Array(3);", "n holes", "1:8"),
        ("return Array(3).map(x => 1);", "n holes", "1:8"),
        ("return Array(1, 2);", "one count", "1:8"),
        ("return Array(2).fill(n + 1);", "a literal or a name", "1:17"),
        ("return Array(2).fill(0, 1);", "a part of the array", "1:17"),
        ("return Array(2.5).fill(0);", "whole number", "1:8"),
        ("return nums.fill(0);", "changes the array in place", "1:8"),
    ],
)
def test_what_cannot_be_nodes_fails_where_it_is_written(
    text: str, message: str, where: str
) -> None:
    context = {"nums": [1, 2], "n": 7, "s": "ab", "none": None, "data": {"a": 1}}
    fails_at(RT.run(text, lang="plan", context={**context, "people": [{"a": 1}]}), message, where)


def fails_at(out: Outcome, message: str, where: str) -> None:
    """``out`` failed with ``message`` at ``where`` (``line:column``), with a hint."""
    assert out.status == "failure" and out.error is not None, out.value
    assert message in (out.message or ""), out.message
    line, column = where.split(":")
    assert f"line {line}, column {column}:" in (out.message or ""), out.message
    assert out.error.hint, out.message


def test_a_huge_array_is_a_limit() -> None:
    out = RT.run("return Array(n).fill(0).length;", lang="plan", context={"n": 20_000_000})
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "limit_exceeded", out.message
    assert "10,000,000 items" in (out.message or "")
