"""A Date's setters as statements of a loop's body, an arrow function's body or a branch
(SPEC 10, "Changes outside loops"; :mod:`dialectic.frontends.plan.dateversions`): each gives
Node's value; a Date held elsewhere (pushed, named again) stays refused at the setter."""

from __future__ import annotations

import pytest

from .model_tools import judge, node_answers, runtime

SAME = [
    # a Date the loop's body makes, changed there
    "const days = [];\nfor (let i = 0; i < 3; i++) {\n"
    "  const d = new Date('2024-05-06T00:00:00Z');\n  d.setUTCDate(d.getUTCDate() + i);\n"
    "  days.push(d.toISOString().slice(0, 10));\n}\nreturn days;",
    "const out = [];\nfor (const e of await list_events()) {\n  const d = new Date(e.start);\n"
    "  const before = d.getUTCHours();\n  d.setUTCHours(0, 0, 0, 0);\n"
    "  d.setUTCDate(d.getUTCDate() + 1);\n  out.push({before, next: d.toISOString()});\n}\n"
    "return out;",
    "const out = [];\nfor (const e of await list_events()) {\n  const d = new Date(e.start);\n"
    "  const copy = new Date(d);\n  d.setUTCFullYear(2030);\n"
    "  out.push([copy.toISOString(), d.toISOString()]);\n}\nreturn out;",
    "const weeks = [];\nfor (let w = 0; w < 3; w++) {\n"
    "  const start = new Date(Date.UTC(2024, 0, 1));\n"
    "  start.setUTCDate(start.getUTCDate() + 7 * w);\n  const end = new Date(start);\n"
    "  end.setUTCDate(end.getUTCDate() + 6);\n"
    "  weeks.push(`${start.toISOString().slice(0, 10)}..${end.toISOString().slice(0, 10)}`);\n"
    "}\nreturn weeks;",
    "const out = [];\nfor (const e of await list_events()) {\n  let d = new Date(e.start);\n"
    "  d.setUTCSeconds(d.getUTCSeconds() + d.getUTCMinutes());\n  out.push(d.getTime());\n}\n"
    "return out;",
    # an arrow's body
    "const events = await list_events();\nreturn events.map(e => {\n"
    "  const end = new Date(e.start);\n  end.setUTCHours(end.getUTCHours() + 1);\n"
    "  return end.toISOString();\n});",
    "const start = new Date('2024-01-31T00:00:00Z');\nconst months = [1, 2, 3].map(n => {\n"
    "  const d = new Date(start);\n  d.setUTCMonth(d.getUTCMonth() + n);\n"
    "  return d.toISOString().slice(0, 10);\n});\nreturn months;",
    "return (await list_events()).map(e => {\n  const d = new Date(e.end);\n"
    "  d.setUTCMinutes(d.getUTCMinutes() + 30);\n"
    "  return `${e.title} ends ${d.toISOString().slice(11, 16)}`;\n});",
    # a branch inside, and a Date the loop changes from one item to the next
    "const events = await list_events();\nreturn events.map(e => {\n"
    "  const d = new Date(e.start);\n  if (d.getUTCDay() === 1) {\n"
    "    d.setUTCDate(d.getUTCDate() + 7);\n  }\n  return d.toISOString().slice(0, 10);\n});",
    "const d = new Date('2024-05-06T00:00:00Z');\nconst out = [];\n"
    "for (let i = 0; i < 3; i++) {\n  d.setUTCDate(d.getUTCDate() + 1);\n"
    "  out.push(d.toISOString().slice(0, 10));\n}\nreturn out;",
    "let due = new Date('2024-01-01T00:00:00Z');\nfor (const o of await get_orders(1)) {\n"
    "  if (o.status === 'pending') due.setUTCDate(due.getUTCDate() + 3);\n}\n"
    "return due.toISOString();",
]


def test_setters_in_blocks_give_nodes_value() -> None:
    rt = runtime()
    verdicts = [
        judge(rt, str(i), text, answer)
        for i, (text, answer) in enumerate(zip(SAME, node_answers(SAME), strict=True))
    ]
    assert [v.kind for v in verdicts] == ["same"] * len(SAME), [
        (v.name, v.detail) for v in verdicts if v.kind != "same"
    ]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        # pushed, then changed: JavaScript's array holds the changed Date
        (
            "const out = [];\nfor (const e of await list_events()) {\n"
            "  const d = new Date(e.start);\n  out.push(d);\n  d.setUTCHours(0);\n}\n"
            "return out.map(x => x.toISOString());",
            (5, 3),
        ),
        (
            "const out = [];\nfor (const e of await list_events()) {\n"
            "  const d = new Date(e.start);\n  const same = d;\n  d.setUTCHours(0);\n"
            "  out.push(same.toISOString());\n}\nreturn out;",
            (5, 3),
        ),
        (
            "const d = new Date('2024-01-01T00:00:00Z');\nconst out = [];\n"
            "for (let i = 0; i < 3; i++) {\n  out.push(d);\n  d.setUTCDate(d.getUTCDate() + 1);\n"
            "}\nreturn out.map(x => x.toISOString());",
            (5, 3),
        ),
    ],
)
def test_a_date_held_elsewhere_stays_refused(text: str, where: tuple[int, int]) -> None:
    out = runtime().run(text, lang="plan")
    assert out.status == "failure" and out.error is not None, out.value
    assert "changes a Date in place" in (out.message or ""), out.message
    assert (out.error.line, out.error.column) == where, out.message


def test_many_setters_cost_linear_time() -> None:
    body = "".join(f"  d.setUTCMinutes(d.getUTCMinutes() + {i % 7});\n" for i in range(60))
    text = (
        "const out = [];\nfor (let i = 0; i < 2; i++) {\n"
        f"  const d = new Date('2024-01-01T00:00:00Z');\n{body}"
        "  out.push(d.getTime());\n}\nreturn out;"
    )
    out = runtime().run(text, lang="plan")
    assert out.status == "success", out.message
    minutes = sum(i % 7 for i in range(60))
    assert out.value == [1704067200000 + minutes * 60000] * 2
