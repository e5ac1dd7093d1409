"""A `switch` that sets a `let` of a loop's body (`let label; switch (t.status) { case 'open':
label = 'o'; break; ... }`), read as the `if` chain it is (`frontends/plan/letswitch.py`,
SPEC 10): Node's value; a case that falls into the next one's statements or does anything
else stays refused at the `let`, saying what is read."""

from __future__ import annotations

import pytest

from .corpus_checks import run_both
from .model_tools import runtime

_LOOP = "const { tickets } = await list_tickets({ limit: 10 });\nconst out = [];\n"

SAME = [
    # what models write: a label per item, braced cases, cases sharing statements
    _LOOP + "for (const t of tickets) {\n  let label;\n  switch (t.status) {\n"
    "    case 'open': {\n      label = t.assignee ? 'assigned' : 'triage';\n      break;\n    }\n"
    "    case 'in_progress':\n      label = 'working';\n      break;\n"
    "    default:\n      label = 'done';\n  }\n  out.push(`${t.id}:${label}`);\n}\nreturn out;",
    "const users = await list_users();\nconst out = [];\nfor (const u of users) {\n"
    "  let tier = 'none';\n  switch (true) {\n    case u.age >= 40: tier = 'senior'; break;\n"
    "    case u.age >= 30: tier = 'mid'; break;\n  }\n  out.push(tier);\n}\nreturn out;",
    # `default` first (tested last), `+=`/`-=`, shared cases
    "const users = await list_users();\nconst out = [];\nfor (const u of users) {\n"
    "  let score = 0;\n  switch (u.name[0]) {\n    default: score += 1; break;\n"
    "    case 'A': case 'B': score += 10; break;\n    case 'C': score -= 5; break;\n  }\n"
    "  out.push(score);\n}\nreturn out;",
    # the name read in the value and the cases (its value before the switch)
    _LOOP + "for (const t of tickets) {\n  let label = t.status;\n  switch (label) {\n"
    "    case 'open': label = label + '!'; break;\n"
    "    case label.slice(0, 6): label = label.toUpperCase(); break;\n"
    "  }\n  out.push(label);\n}\nreturn out;",
    # `++`, `--`, then an `if` setting it again; no case taken (undefined)
    _LOOP + "for (const t of tickets) {\n  let n = 0;\n  switch (t.status) {\n"
    "    case 'open': n++; break;\n    case 'closed': n--; break;\n    default: n = 5;\n  }\n"
    "  if (t.assignee) n += 100;\n  out.push(n);\n}\nreturn out;",
    _LOOP + "for (const t of tickets) {\n  let label;\n  switch (t.status) {\n"
    "    case 'open': label = 'o'; break;\n  }\n  out.push(label ?? 'none');\n}\nreturn out;",
    # a `while` loop's body, a call in the switch's value (read once)
    _LOOP + "let i = 0;\nwhile (i < tickets.length) {\n  const t = tickets[i];\n  i++;\n"
    "  let kind;\n  switch ((await get_user(1)).name.length % 3) {\n"
    "    case 0: kind = 'a'; break;\n    case 1: kind = 'b'; break;\n    default: kind = 'c';\n"
    "  }\n  out.push(kind + t.id);\n}\nreturn out;",
    "const ws = await Promise.all(['Paris', 'London', 'Tokyo'].map(c => get_weather(c)));\n"
    "const out = [];\nfor (const w of ws) {\n  let icon;\n  switch (w.conditions) {\n"
    "    case 'sunny': icon = 'S'; break;\n    case 'rain':\n    case 'rainy': icon = 'R'; break;\n"
    "    default: icon = '?';\n  }\n  out.push(`${w.city} ${icon}`);\n}\nreturn out;",
]


def test_a_switch_setting_a_let_gives_nodes_value() -> None:
    verdicts = run_both(SAME)
    assert [v.kind for v in verdicts] == ["same"] * len(SAME), [
        (v.name, v.detail) for v in verdicts if v.kind != "same"
    ]


@pytest.mark.parametrize(
    "body",
    [
        # falls into the next case's statements
        "  switch (t.status) {\n    case 'open':\n      label = 'o';\n    case 'closed':\n"
        "      label = 'c';\n      break;\n    default:\n      label = 'd';\n  }\n",
        # does something else too
        "  switch (t.status) {\n    case 'open':\n      label = 'o';\n      out.push(1);\n"
        "      break;\n    default:\n      label = 'd';\n  }\n",
        # a case before `default` with no statements of its own
        "  switch (t.status) {\n    case 'open':\n    default:\n      label = 'd';\n  }\n",
    ],
)
def test_another_switch_stays_refused_at_the_let(body: str) -> None:
    text = (
        _LOOP + "for (const t of tickets) {\n  let label;\n" + body + "  out.push(label);\n}\n"
        "return out;"
    )
    out = runtime().run(text, lang="plan")
    assert out.status == "failure", out.value
    message = out.message or ""
    assert "line 4, column 12" in message and "^" in message, message
    assert "a `switch` whose cases only set it and `break`" in message, message


def test_a_change_after_the_switch_stays_refused() -> None:
    text = (
        _LOOP + "for (const t of tickets) {\n  let label;\n  switch (t.status) {\n"
        "    case 'open': label = 'o'; break;\n    default: label = 'd';\n  }\n"
        "  label = label + '?';\n  out.push(label);\n}\nreturn out;"
    )
    out = runtime().run(text, lang="plan")
    assert out.status == "failure", out.value
    assert "line 4, column 12" in (out.message or ""), out.message
