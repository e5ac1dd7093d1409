"""`var` where it means what `let` means (`frontends/plan/loopvars.py`, SPEC 10): a loop's
`var` read only inside its loop, a block's `var` with a value read only after it in its
block, with no arrow or function written there, gives Node's value; a `var` read after its
loop, nested in another of its name, read by an arrow, or without a value in a loop's body
(which keeps the last turn's value) stays refused at its place with what to write."""

from __future__ import annotations

import pytest

from .corpus_checks import run_both
from .model_tools import runtime

SAME = [
    # the classic loop models still write
    "var users = await list_users();\nvar out = [];\n"
    "for (var i = 0; i < users.length; i++) {\n  var u = users[i];\n"
    "  if (u.active) {\n    out.push(u.name);\n  }\n}\nreturn out;",
    # two loops of one name, one after the other; an unbraced body
    "const users = await list_users();\nlet total = 0;\n"
    "for (var i = 0; i < users.length; i++) total += users[i].age;\n"
    "for (var i = 0; i < 2; i++) total += i;\nreturn total;",
    "const users = await list_users();\nconst names = [];\n"
    "for (var u of users) names.push(u.name.split(' ')[0]);\nreturn names;",
    "const cfg = JSON.parse(await read_file('/data/config.json'));\nconst out = [];\n"
    "for (var k in cfg.endpoints) out.push(`${k}=${cfg.endpoints[k]}`);\nreturn out;",
    "const out = [];\nfor (var i = 0, n = 3; i < n; i++) out.push(i * n);\nreturn out;",
    # a function's `var` and a block's
    "function sum(xs) {\n  var t = 0;\n  for (var j = 0; j < xs.length; j++) t += xs[j];\n"
    "  return t;\n}\nconst users = await list_users();\nreturn sum(users.map(u => u.age));",
    "const users = await list_users();\nconst out = [];\nfor (const u of users) {\n"
    "  if (u.manager) {\n    var boss = u.manager.name;\n    out.push(`${u.name} <- ${boss}`);\n"
    "  }\n}\nreturn out;",
]


def test_a_var_read_as_let_gives_nodes_value() -> None:
    verdicts = run_both(SAME)
    assert [v.kind for v in verdicts] == ["same"] * len(SAME), [
        (v.name, v.detail) for v in verdicts if v.kind != "same"
    ]


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        # read after the loop: JavaScript's `var` holds the last value
        (
            "const users = await list_users();\n"
            "for (var i = 0; i < users.length; i++) { if (users[i].age > 50) break; }\n"
            "return i;",
            "line 2, column 6",
            "nothing after the loop reads it",
        ),
        # a loop of the same name inside: one binding in JavaScript (here, an endless loop)
        (
            "const out = [];\nfor (var i = 0; i < 3; i++) {\n"
            "  for (var i = 0; i < 1; i++) out.push(i);\n}\nreturn out;",
            "line 2, column 6",
            "write `let`",
        ),
        # an arrow in the loop reads the binding every turn shares
        (
            "const users = await list_users();\nconst out = [];\n"
            "for (var i = 0; i < users.length; i++) {\n  out.push(users.map(x => x.id + i));\n}\n"
            "return out;",
            "line 3, column 6",
            "no arrow or function is written in the loop",
        ),
        # no value: the binding keeps the last turn's
        (
            "const users = await list_users();\nconst out = [];\nfor (const u of users) {\n"
            "  var label;\n  if (u.active) label = 'on';\n  out.push(label);\n}\nreturn out;",
            "line 4, column 3",
            "keeps the last turn's value",
        ),
    ],
)
def test_another_var_stays_refused(text: str, where: str, says: str) -> None:
    out = runtime().run(text, lang="plan")
    assert out.status == "failure", out.value
    message = out.message or ""
    assert where in message and "^" in message and says in message, message
