"""Every JavaScript method and global on receivers and arguments of every kind (texts with
astral characters, arrays, numbers, objects, null, arrow functions where none is taken),
against Node.js: dialectic gives Node's value or fails, never another value and never an
internal error."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dialectic import Runtime
from dialectic.values.jsmethods import ALL_METHODS, GLOBALS

from .node_oracle import node_values

RECEIVERS = [
    "'a😀b'",
    "'héllo wörld'",
    "''",
    "'  x '",
    "[3, 1, 2]",
    "[]",
    "[[1, [2]], 3]",
    "['b', 'a']",
    "['😀', '\\uffff', 'a', 'b😀', 'b\\uffff']",
    "[{a: 1}, {a: 2}]",
    "[1, 'a', null]",
    "5.5",
    "-0.5",
    "1e21",
    "{a: 1}",
    "null",
    "true",
]
ARGUMENTS = [
    "",
    "0",
    "1",
    "-1",
    "'a'",
    "''",
    "'😀'",
    "1, 2",
    "-2, 10",
    "x => x",
    "(a, b) => a + b, 0",
    "'b', 'c'",
    "2, 'ab'",
    "0.5",
    "[1]",
    "null",
    "undefined",
]
#: methods that change their receiver in JavaScript (refused, SPEC 1.8) or depend on a locale
SKIP = {"pop", "push", "shift", "unshift", "splice", "copyWithin", "fill", "sort", "reverse"}
SKIP |= {"localeCompare"}


def _programs() -> list[str]:
    out = [
        f"({r}).{m}({a})" for m in sorted(ALL_METHODS - SKIP) for r in RECEIVERS for a in ARGUMENTS
    ]
    extra = ["'12px'", "'0x10'", "' 1e3 '", "[1, 2]", "{a: 1}", "'[1,2]'", "-0", "2**53", "'😀'"]
    # (`Date.now()` reads the clock: tests/expressions/test_dates.py fixes it on both sides)
    out += [f"{g}({a})" for g in sorted(GLOBALS - {"Date.now"}) for a in ARGUMENTS + extra]
    return out


PROGRAMS = _programs()
RT = Runtime(load_entry_points=False)


def _canonical(v: Any) -> str:
    return json.dumps(v, sort_keys=True)


@pytest.mark.parametrize("chunk", range(8))
def test_never_another_value_than_nodes(chunk: int) -> None:
    programs = PROGRAMS[chunk::8]
    answers = node_values(programs, None)
    wrong: list[str] = []
    for program, answer in zip(programs, answers, strict=True):
        out = RT.run(f"return {program};", lang="plan")
        if out.status != "success":
            assert out.error is not None
            assert out.error.code != "internal_error", (program, out.message)
            assert "unexpectedly" not in (out.message or ""), (program, out.message)
            continue
        if "ok" not in answer or _canonical(out.value) != _canonical(answer["ok"]):
            if "ok" in answer and out.value == answer["ok"]:
                continue  # (1.0 and 1: the same number)
            wrong.append(f"{program}: ours {_canonical(out.value)}, Node {answer}")
    assert not wrong, "\n".join(wrong[:20])


@pytest.mark.parametrize(
    ("program", "code"),
    [
        ("n = null; return n.join(', ');", "expression_error"),
        ("return (5.5).join(1);", "expression_error"),
        ("return [3, 1].join(x => x);", "invalid_program"),
        ("return [3, 1].toSorted('');", "invalid_program"),
        ("return 'ab'.split(x => x);", "invalid_program"),
    ],
)
def test_what_javascript_would_refuse_or_garble_fails(program: str, code: str) -> None:
    out = RT.run(program, lang="plan")
    assert out.status == "failure"
    assert out.error is not None and out.error.code == code, out.message
