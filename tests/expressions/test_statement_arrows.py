"""A ``forEach`` arrow whose body is an assignment (``xs.forEach(q => (o[q.k] = q.v))``,
``xs.forEach(x => n += x)``) is the block of that statement (SPEC 10, "Loops";
frontends/plan/assignarrows.py), and a callback of no parameters is a loop whose item nothing
reads (it crashed); against Node."""

from __future__ import annotations

import pytest

from .corpus_checks import run_both
from .model_tools import runtime

PROGRAMS = [
    "const qs = await Promise.all(['AAPL', 'SAP'].map(s => get_stock_price(s)));\n"
    "const prices = {};\nqs.forEach(q => (prices[q.symbol] = q.price));\nreturn prices;",
    "const users = await list_users();\nconst counts = {};\n"
    "users.forEach(u => counts[u.role] = (counts[u.role] || 0) + 1);\nreturn counts;",
    "const users = await list_users();\nlet total = 0;\nusers.forEach(u => total += u.age);\n"
    "return total;",
    "const users = await list_users();\nlet n = 0;\nusers.forEach(() => n++);\nreturn n;",
    "const byId = {};\n(await list_users()).forEach(({ id, name }) => (byId[id] = name));\n"
    "return byId;",
    "const out = {};\nObject.entries({ a: 1, b: 2 }).forEach(([k, v]) => "
    "(out[k.toUpperCase()] = v * 10));\nreturn out;",
    "const seen = {};\n[1, 2, 1].forEach((x, i) => (seen[x] ??= i));\nreturn seen;",
    "const r = [];\n(await list_users()).forEach(u => (r[r.length] = u.id));\nreturn r;",
    "const m = {};\nfor (const w of ['a', 'b']) {\n  [1, 2].forEach(x => (m[w + x] = x));\n}\n"
    "return m;",
    # a callback of no parameters (a crash before)
    "const users = await list_users();\nlet n = 0;\nusers.forEach(() => { n++; });\nreturn n;",
    "const m = new Map([[1, 2], [3, 4]]);\nlet n = 0;\nm.forEach(() => { n++; });\nreturn n;",
    "let n = 0;\n[1, 2, 3].forEach(() => { if (n < 2) n++; });\nreturn n;",
]


def test_an_assignment_a_for_each_arrow_returns_is_its_statement() -> None:
    assert [v.kind for v in run_both(PROGRAMS)] == ["same"] * len(PROGRAMS)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # a sequence of assignments: left as written, refused with what to write
        ("let a = 0, b = 0;\n[1, 2].forEach(x => (a += x, b += 1));\nreturn [a, b];", "+="),
        # `map` reads what its callback returns: an assignment there stays refused
        ("const o = {};\nconst r = [1, 2].map(x => (o[x] = x));\nreturn [o, r];", "="),
        # an async callback: forEach does not wait for it
        (
            "const o = {};\n[1, 2].forEach(async x => (o[x] = await get_user(x)));\nreturn o;",
            "does not wait",
        ),
        # part of the body is an assignment, not all of it
        ("const o = {};\n[1].forEach(x => (o.a = x) && (o.b = x));\nreturn o;", "="),
    ],
)
def test_other_assignments_in_arrows_stay_refused(text: str, message: str) -> None:
    out = runtime().run(text, lang="plan")
    assert out.status == "failure" and out.error is not None, out.value
    assert message in (out.message or ""), out.message
    assert out.error.line is not None and out.error.hint, out.error


def test_value_of_a_date_says_to_write_get_time() -> None:
    out = runtime().run(
        "const u = await get_user(4);\nreturn new Date(u.signup).valueOf();", lang="plan"
    )
    assert out.status == "failure" and out.error is not None, out.value
    assert (out.error.line, out.error.column) == (2, 8), out.message
    assert "d.getTime()" in (out.error.hint or ""), out.error.hint
