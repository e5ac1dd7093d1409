"""A Date's setters (SPEC 1.8, "Dates"; SPEC 10, "Changes outside loops";
:mod:`dialectic.frontends.plan.datesetters`): ``d.setDate(x);`` as a statement makes a new
version of ``d`` with JavaScript's overflow rules, the reads before it read the Date before;
a setter of a new Date (``new Date(d).setMonth(1)``) gives the new time; a Date someone else
may hold, a setter's value of a Date the program holds, a setter in a loop or a branch:
refused with what to write. Node runs with ``TZ=UTC`` semantics (a run's local time is UTC)."""

from __future__ import annotations

import random

import pytest

from dialectic import Runtime
from dialectic.frontends.plan import parse_plan
from dialectic.frontends.plan.decompile import decompile

from .program_oracle import node_answers, runs_as_in_node, runtime, same

RT: Runtime = runtime()

PROGRAMS = [
    "const d = new Date('2024-01-31T10:00:00Z'); d.setDate(d.getDate() + 7); "
    "return d.toISOString().slice(0, 10);",
    "const d = new Date('2024-01-31T10:00:00Z'); const before = d.toISOString(); "
    "d.setMonth(d.getMonth() + 1); return [before, d.toISOString()];",
    "const d = new Date('2023-01-31T10:00:00Z'); d.setMonth(1); return d.toISOString();",
    "const d = new Date('2024-03-10T10:30:00Z'); d.setHours(0, 0, 0, 0); return d.toISOString();",
    "const d = new Date('2024-03-10T10:30:00Z'); d.setUTCHours(23, 59, 59, 999); "
    "return d.getTime();",
    "const d = new Date('2024-03-10T10:30:00Z'); d.setDate(0); return d.toISOString();",
    "const d = new Date('2024-03-10T10:30:00Z'); d.setDate(-40); return d.toISOString();",
    "const d = new Date('2024-02-29T10:30:00Z'); d.setFullYear(2025); return d.toISOString();",
    "const d = new Date('2024-02-29T10:30:00Z'); d.setFullYear(2025, 0, 1); d.setMinutes(90); "
    "return d.toISOString();",
    "const d = new Date(0); d.setTime(86400000 * 3.7); return d.toISOString();",
    "const d = new Date(0); d.setSeconds(-1); d.setMilliseconds(1500); return d.toISOString();",
    "const d = new Date(0); d.setUTCDate(15); d.setUTCMonth(13); d.setUTCFullYear(50); "
    "return d.toISOString();",
    "const start = new Date('2024-05-01'); const end = new Date(start); "
    "end.setDate(end.getDate() + 30); return [start.toISOString(), end.toISOString()];",
    "const start = new Date('2024-05-01'); const end = new Date(start); start.setDate(10); "
    "end.setDate(end.getDate() + 30); return [start.toISOString(), end.toISOString()];",
    "const d = new Date('2024-05-01'); const f = () => d.getDate(); d.setDate(10); return f();",
    "const d = new Date('2024-05-01'); function f() { return d.getDate(); } d.setDate(10); "
    "return f();",
    "let d = new Date('2024-05-01'); d.setDate(10); return d.toISOString();",
    "const d = new Date('2024-05-01'); d.setDate(d.getDate() + 7); d.setDate(d.getDate() + 7); "
    "return d.getDate();",
    "const today = new Date('2024-05-01T12:00:00Z'); today.setHours(0, 0, 0, 0); "
    "return Math.round((new Date('2024-05-09T00:00:00Z') - today) / 86400000);",
    "function addDays(s, n) { const d = new Date(s); d.setDate(d.getDate() + n); "
    "return d.toISOString().slice(0, 10); } return [addDays('2024-02-27', 3), "
    "addDays('2024-12-30', 5)];",
    "return new Date('2024-05-01').setDate(3);",
    "const d = new Date('x'); d.setFullYear(2020); return d.toISOString();",
    "const dates = []; let cur = new Date('2024-01-30'); "
    "while (cur.getTime() < new Date('2024-02-03').getTime()) { "
    "dates.push(cur.toISOString().slice(0, 10)); "
    "cur = new Date(new Date(cur).setDate(cur.getDate() + 1)); } return dates;",
    # as models write it
    "const now = new Date('2024-03-15T14:22:00Z');\nconst weekAgo = new Date(now);\n"
    "weekAgo.setDate(weekAgo.getDate() - 7);\nweekAgo.setHours(0, 0, 0, 0);\n"
    "const events = await echo([{at: '2024-03-07T23:00:00Z'}, {at: '2024-03-09T10:00:00Z'}]);\n"
    "return events.filter(e => new Date(e.at) >= weekAgo).length;",
]


def test_setter_statements_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize("text", [PROGRAMS[1], PROGRAMS[13], PROGRAMS[17]])
def test_they_decompile_and_read_back(text: str) -> None:
    tree = parse_plan(text, strict=True).tree
    back = decompile(tree)
    assert parse_plan(back, strict=True).tree == tree
    assert RT.run(back, lang="plan").value == RT.run(text, lang="plan").value


def test_random_setters_as_node() -> None:
    """Random Dates, setters and parts (negative, past their range) against Node."""
    rng = random.Random(7)
    setters = [
        ("FullYear", 3, (-3000, 3000)),
        ("Month", 2, (-30, 30)),
        ("Date", 1, (-400, 400)),
        ("Hours", 4, (-100, 100)),
        ("Minutes", 3, (-5000, 5000)),
        ("Seconds", 2, (-100000, 100000)),
        ("Milliseconds", 1, (-(10**8), 10**8)),
    ]
    texts = []
    for _ in range(300):
        t = rng.randint(-(10**13), 10**13)
        lines = [f"const d = new Date({t});"]
        for _ in range(rng.randint(1, 3)):
            part, count, (low, high) = rng.choice(setters)
            args = [str(rng.randint(low, high)) for _ in range(rng.randint(1, count))]
            utc = rng.choice(["", "UTC"])
            lines.append(f"d.set{utc}{part}({', '.join(args)});")
        lines.append("return [d.getTime(), new Date(d).setDate(1), d.toISOString()];")
        texts.append(" ".join(lines))
    for text, answer in zip(texts, node_answers(texts), strict=True):
        out = RT.run(text, lang="plan")
        if "error" in answer:  # (a year past ±275,760: an Invalid Date, toISOString throws)
            assert out.status == "failure", (text, out.value)
            continue
        assert out.status == "success", (text, out.message)
        assert same(out.value, answer["ok"]) is None, (text, out.value, answer)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        (
            "const d = new Date('2024-05-01'); const e = d; d.setDate(10); return e.getDate();",
            "`d` is held whole before `setDate()` changes it",
            48,
        ),
        (
            "const d = new Date('2024-05-01'); const xs = [d]; d.setDate(10); return xs;",
            "`d` is held whole before `setDate()` changes it",
            51,
        ),
        (
            "const ds = [new Date(0)]; const d = ds[0]; d.setDate(10); return ds;",
            "`d` is not a Date the program made here",
            44,
        ),
        (
            "const d = new Date('2024-05-01'); const t = d.setDate(10); return [t, d];",
            "setDate() changes a Date in place",
            45,
        ),
        (  # (a setter in a branch changes a `let`: test_date_setters_in_blocks.py) read whole
            "const d = new Date('2024-05-01'); const all = [d]; if (d.getDay() === 3) { "
            "d.setDate(10); } return all;",
            "setDate() changes a Date in place",
            76,
        ),
        (
            "const d = new Date('2024-05-01'); d.setDate(NaN); return d.getDate();",
            "NaN",
            45,
        ),
        (
            "const d = new Date('2024-05-01'); d.setDate(d.getDate() + 1e20); return d.getDate();",
            "",
            0,
        ),
        ("return new Date(0).setYear(5);", "setYear() changes a Date", 8),
    ],
)
def test_refused_where_javascript_would_differ(text: str, message: str, column: int) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure", out.value
    assert message in (out.message or ""), out.message
    if column:
        assert f"line 1, column {column}:" in (out.message or ""), out.message
    assert "Traceback" not in (out.message or "")


def test_a_setter_in_a_loop_changes_the_date_from_one_step_to_the_next() -> None:
    text = (
        "const dates = []; const cur = new Date('2024-01-01'); "
        "while (cur.getTime() < new Date('2024-01-05').getTime()) { "
        "dates.push(cur.toISOString()); cur.setDate(cur.getDate() + 1); } return dates;"
    )
    out = RT.run(text, lang="plan")
    assert out.status == "success", out.message
    assert out.value == [f"2024-01-0{d}T00:00:00.000Z" for d in range(1, 5)]


def test_a_setter_in_a_loop_of_a_date_held_whole_says_what_to_write() -> None:
    text = (
        "const dates = []; const cur = new Date('2024-01-01'); "
        "while (cur.getTime() < new Date('2024-01-05').getTime()) { "
        "dates.push(cur); cur.setDate(cur.getDate() + 1); } return dates;"
    )
    out = RT.run(text, lang="plan")
    assert out.status == "failure"
    assert "d = new Date(new Date(d).setDate(" in (out.message or ""), out.message
