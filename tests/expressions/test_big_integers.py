"""Integers beyond 2**53 against Node.js (SPEC 1.7, "Integers beyond 2**53"): every operation
on such a number gives Node's answer (Node holds the double nearest to it, as ``JSON.parse``
does) or fails clearly; an integer only carried (returned, put in an array) keeps its digits.

The context is the same JSON text for both: Node parses it (rounding each integer to a double),
dialectic keeps each integer exact. A refusal is allowed (never a crash); a different answer is
not. A table of expected answers checks that what both agree on is answered, not refused."""

from __future__ import annotations

import json
import shutil
import subprocess
from itertools import product
from typing import Any

import pytest

from dialectic import Runtime

from .program_oracle import NODE_SCRIPT, judge_value

S = 2**53
VALUES: list[int | float] = [
    S - 1,
    S,
    S + 1,
    -(S + 1),
    2**63 - 1,
    10**30,
    2**60,  # a double exactly, which Node writes as 1152921504606847000
    10**22,  # a double exactly, which Node writes as 1e+22
    3,
    -7,
    float(S),
    float(S + 2),
    9.223372036854776e18,
    1e30,
    0.5,
]
CONTEXT: dict[str, Any] = {
    "v": VALUES,
    "objs": [{"id": n} for n in VALUES],
    "keyed": {"9007199254740992": "a", "1e+22": "b", "3": "c"},
}
N = range(len(VALUES))

BINARY = ["===", "!==", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"]
UNARY = [
    "-{a}",
    "+{a}",
    "!{a}",
    "String({a})",
    "`${{{a}}}`",
    "'n=' + {a}",
    "{a}.toFixed(0)",
    "{a}.toFixed(2)",
    "JSON.stringify([{a}])",
    "JSON.stringify({{n: {a}}})",
    "[{a}, 1].join('-')",
    "Math.abs({a})",
    "Math.floor({a})",
    "Math.round({a})",
    "Math.sign({a})",
    "Math.sqrt(Math.abs({a}))",
    "Math.trunc({a})",
    "Number({a})",
    "Number.isSafeInteger({a})",
    "Number.isInteger({a})",
    "{a} ** 2",
    "2 ** {a}",
    "{a} % 7",
    "keyed[{a}]",
    "Object.keys(Object.fromEntries([[{a}, 1]]))",
    "[{a}]",
    "{{n: {a}}}",
    "v.indexOf({a})",
    "v.lastIndexOf({a})",
    "v.includes({a})",
    "v.filter((x, i) => v.indexOf(x) === i).length",
]
PAIRS = [
    "Math.max({a}, {b})",
    "Math.min({a}, {b})",
    "[{a}].includes({b})",
    "[{a}].indexOf({b})",
    "[{a}, {b}].sort((p, q) => p - q)",
    "[{a}, {b}].sort((p, q) => p < q ? -1 : p > q ? 1 : 0)",
    "[{a}, {b}].filter((x, i, xs) => xs.indexOf(x) === i).length",
]
LITERALS = ["9007199254740992", "9007199254740991", "3", "9007199254740992.0", "1e30"]
WITH_LITERAL = [
    "v.filter(n => n === {lit}).length",
    "v.filter(n => n !== {lit}).length",
    "v.map(n => n < {lit})",
    "v.map(n => n >= {lit})",
    "objs.filter(o => o.id === {lit}).length",
    "objs.map(o => o.id > {lit})",
    "objs.map(o => o.id <= {lit})",
    "objs.map(o => o.id - {lit})",
    "v[{i}] === {lit}",
    "v[{i}] < {lit}",
]
SOURCES = [
    "9007199254740993",
    "9007199254740992",
    "-9007199254740993",
    "1152921504606846976",
    "0x20000000000001",
    "({{9007199254740993: 1}})",
    "parseInt('9007199254740993')",
    "parseInt('1' + '0'.repeat(5000))",
    "parseInt('0'.repeat(5000) + '12')",
    "Number('9007199254740993')",
    "Number('12345678901234567890')",
    "JSON.parse('[9007199254740993]')[0] === 9007199254740992",
]


def _programs() -> list[str]:
    out: list[str] = []
    for op, (i, j) in product(BINARY, product(N, N)):
        out.append(f"return v[{i}] {op} v[{j}];")
    for shape, i in product(UNARY, N):
        out.append("return " + shape.format(a=f"v[{i}]") + ";")
    for shape, (i, j) in product(PAIRS, product(N, N)):
        out.append("return " + shape.format(a=f"v[{i}]", b=f"v[{j}]") + ";")
    for shape, lit in product(WITH_LITERAL, LITERALS):
        for i in N if "{i}" in shape else [0]:
            out.append("return " + shape.format(lit=lit, i=i) + ";")
    out.extend(f"return {s.format()};" for s in SOURCES)
    return out


def _node(sources: list[str]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    assert node is not None, "set-up installs Node.js"
    done = subprocess.run(
        [node, "-e", NODE_SCRIPT],
        input=json.dumps({"programs": sources, "context": json.dumps(CONTEXT)}),
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    answers: list[dict[str, Any]] = json.loads(done.stdout)
    return answers


def test_every_operation_on_large_integers_is_nodes_answer_or_a_clear_failure() -> None:
    rt = Runtime(load_entry_points=False)
    sources = _programs()
    answers = _node(sources)
    verdicts = [judge_value(rt, s, a, CONTEXT) for s, a in zip(sources, answers, strict=True)]
    bad = [v for v in verdicts if v.kind in ("wrong", "crash")]
    assert not bad, "\n".join(f"{v.kind}: {v.program}  {v.detail}" for v in bad[:20])
    same = sum(v.kind == "same" for v in verdicts)
    assert same > len(verdicts) // 2, f"only {same} of {len(verdicts)} answered"


ANSWERED: list[tuple[str, Any]] = [
    # distinguishable from the other number as doubles too: the answer
    ("return b === 9007199254740991;", False),
    ("return b > 9007199254740991;", True),
    ("return b !== 3;", True),
    ("return b === b;", True),
    ("return [b, 3].includes(3);", True),
    ("return b * 1 === 1;", None),  # (refused: arithmetic on b)
    ("return id.toFixed(0);", "1152921504606846976"),  # 2**60: a double exactly
    ("return `${big}`;", "1e+22"),
    ("return {b, list: [b]};", {"b": S + 1, "list": [S + 1]}),  # carried: the digits kept
    ("return objs.filter(o => o.id === b).length;", 1),
    ("return objs.map(o => o.id > 5);", [True, False]),
]


@pytest.mark.parametrize(("source", "expected"), ANSWERED)
def test_what_node_and_the_exact_integers_agree_on_is_answered(source: str, expected: Any) -> None:
    rt = Runtime(load_entry_points=False)
    ctx = {"b": S + 1, "id": 2**60, "big": 10**22, "objs": [{"id": S + 1}, {"id": 3}]}
    out = rt.run(source, lang="plan", context=ctx)
    if expected is None:
        assert out.status == "failure"
        assert out.error is not None and out.error.code == "expression_error"
        return
    assert out.status == "success", out.message
    assert out.value == expected


REFUSED: list[tuple[str, str]] = [
    ("return b === 9007199254740992;", "cannot tell 9007199254740993 from 9007199254740992"),
    ("return b >= 9007199254740992;", "cannot tell"),
    ("return objs.filter(o => o.id === 9007199254740992).length;", "cannot tell"),
    ("return objs.map(o => o.id < 9007199254740992);", "cannot tell"),
    ("return [9007199254740992].includes(b);", "cannot tell"),
    ("return `${b}`;", "holds as 9007199254740992"),
    ("return String(id);", "holds as 1152921504606847000"),
    ("return JSON.stringify(objs);", "beyond 2**53"),
    ("return b.toFixed(0);", "beyond 2**53"),
    ("return keyed[b];", "beyond 2**53"),
    ("return `${huge}`;", "about 10,001 digits"),
    ("return huge;", "too large"),
    ("return Math.sqrt(huge);", "about 10,001 digits"),
    ("return huge === 1 ? 1 : String(huge);", "about 10,001 digits"),
    ("return 9007199254740993;", "JavaScript reads it as 9007199254740992"),
    ("return parseInt('1' + '0'.repeat(5000));", "beyond 2**53"),
]


@pytest.mark.parametrize(("source", "says"), REFUSED)
def test_what_node_would_answer_about_another_number_fails_clearly(source: str, says: str) -> None:
    rt = Runtime(load_entry_points=False)
    ctx = {
        "b": S + 1,
        "id": 2**60,
        "huge": 10**10000,
        "keyed": {"9007199254740992": 1},
        "objs": [{"id": S + 1}, {"id": 3}],
    }
    out = rt.run(source, lang="plan", context=ctx)
    assert out.status == "failure"
    assert out.error is not None
    assert out.error.code != "internal_error"
    assert says in (out.message or ""), out.message


def test_an_integer_given_to_a_text_parameter_keeps_its_digits() -> None:
    from dialectic import FunctionDescription

    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("show", "show", lambda t: t, {"t": "string"}, "string"))
    out = rt.run("return show(b);", lang="plan", context={"b": S + 1})
    assert out.status == "success", out.message
    assert out.value == "9007199254740993"
    out = rt.run("return show(h);", lang="plan", context={"h": 10**400})
    assert out.status == "failure"
