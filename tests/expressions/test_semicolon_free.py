"""Programs without semicolons (SPEC 10, "Strict and lenient modes": JavaScript's automatic
semicolon insertion, :mod:`dialectic.frontends.plan.asi`): the model corpus with every `;` at a
line's end removed gives the verdicts it gives with them, and the forms the token passes read by
their `;` (the group-by, `(g[k] ??= []).push(x)`, a `try`, a `console` statement) give Node's
value; a line that begins with `(`, `[` or `.` goes on as JavaScript reads it."""

from __future__ import annotations

import re
from pathlib import Path

from .model_tools import corpus, judge, node_answers, runtime

CORPUS = Path(__file__).with_name("model_programs.js")

SAME = [
    "const rows = await list_users()\nconst groups = {}\nfor (const r of rows) {\n"
    "  (groups[r.role] ??= []).push(r.name)\n}\nreturn groups",
    "const users = await list_users()\nconst byRole = {}\nfor (const user of users) {\n"
    "  if (!byRole[user.role]) byRole[user.role] = []\n  byRole[user.role].push(user.name)\n}\n"
    "return byRole",
    "const users = await list_users()\nconst byCity = {}\nfor (const u of users) {\n"
    "  const k = u.city\n  if (!byCity[k]) {\n    byCity[k] = []\n  }\n  byCity[k].push(u.id)\n}\n"
    "return byCity",
    "const users = await list_users()\nconst groups = new Map()\nfor (const u of users) {\n"
    "  if (!groups.has(u.role)) groups.set(u.role, [])\n  groups.get(u.role).push(u.name)\n}\n"
    "return Object.fromEntries(groups)",
    "const users = await list_users()\nconst g = {}\nusers.forEach(u => {\n"
    "  (g[u.role] ||= []).push(u.name)\n})\nreturn g",
    # lines that go on the statement before
    "const users = await list_users()\nconst names = users\n  .filter(u => u.active)\n"
    "  .map(u => u.name)\nreturn names",
    "const xs = [3, 1, 2]\nconst total = xs\n  .reduce((a, b) => a + b, 0)\nreturn [total, xs\n"
    "  .length]",
    # a `try`, a loop, a `console` statement
    "let user\ntry {\n  user = await get_user(9)\n} catch (e) {\n  user = null\n}\nreturn user",
    "let i = 0\nconst out = []\ndo {\n  out.push(i * 2)\n  i++\n} while (i < 3)\nreturn out",
    "const users = await list_users()\nconsole.log(users.length)\nconst n = users.length\n"
    "console.log(`n = ${n}`)\nreturn n",
    "const xs = [1, 2, 3]\nconsole.log(0)\nreturn xs",
    # a `case`'s block: no `;` after it (`}` then `default:`)
    "function kind(x) {\n  switch (typeof x) {\n    case 'string': { const u = x.toUpperCase()\n"
    "      return u\n    }\n    default: return '?'\n  }\n}\nreturn [kind('a'), kind(1)]",
    "for (let i = 0; i < 3; i++) {\n  try {\n    return await get_user(9)\n  } catch (e) {\n"
    "    if (i === 2) throw e\n  }\n}",
]


def test_the_corpus_without_semicolons_gives_the_same_verdicts() -> None:
    programs = corpus(CORPUS)
    bare = [re.sub(r";[ \t]*$", "", text, flags=re.M) for _, text in programs]
    rt = runtime()
    with_semicolons = node_answers([text for _, text in programs])
    without = node_answers(bare)
    differ = []
    for (name, text), plain, a, b in zip(programs, bare, with_semicolons, without, strict=True):
        before, after = judge(rt, name, text, a), judge(rt, name, plain, b)
        if before.kind != after.kind:
            differ.append((name, before.kind, after.kind, after.detail[:200]))
    assert not differ, differ


def test_semicolon_free_forms_give_nodes_value() -> None:
    rt = runtime()
    verdicts = [
        judge(rt, str(i), text, answer)
        for i, (text, answer) in enumerate(zip(SAME, node_answers(SAME), strict=True))
    ]
    assert [v.kind for v in verdicts] == ["same"] * len(SAME), [
        (v.name, v.detail) for v in verdicts if v.kind != "same"
    ]


def test_each_inserted_semicolon_is_a_warning_and_strict_mode_refuses() -> None:
    text = SAME[0]
    out = runtime().run(text, lang="plan")
    assert out.status == "success", out.message
    assert any("added the missing `;`" in w for w in out.warnings), out.warnings
    strict = runtime().run(text, lang="plan", strict=True)
    assert strict.status == "failure"
