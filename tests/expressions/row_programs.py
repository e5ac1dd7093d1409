"""Random programs that build a row per item with member sets (:mod:`dialectic.frontends.plan.
looplocals`): in a ``for...of`` loop, a ``forEach`` callback, a ``map`` callback and a
``reduce`` step, with plain sets, ``??=``/``||=``, computed keys and ``if``/``else`` of sets,
over the tools of :mod:`.model_tools`; each is run by Node and dialectic."""

from __future__ import annotations

import random

__all__ = ["row_programs"]

_VALUES = [
    "u.age", "u.name.length", "u.tags.length", "'x'", "u.id * 2", "row.a ?? 0",
    "u.manager?.name ?? null", "i", "row.id + 1", "u.tags.map(t => t.toUpperCase())",
]  # fmt: skip
_TESTS = ["u.active", "u.age > 40", "!u.manager", "i % 2", "row.a"]


def _set(r: random.Random, nested: bool) -> str:
    key = r.choice(["a", "b", "c", "id"])
    op = r.choice(["=", "=", "??=", "||="])
    value = r.choice(_VALUES)
    if r.random() < 0.7:
        made = f"row.{key} {op} {value};"
    else:
        made = f"row[{r.choice(['u.role', repr(key)])}] = {value};"
    if nested or r.random() >= 0.35:
        return made
    test = r.choice(_TESTS)
    if r.random() < 0.5:
        other = f" else {_set(r, True)}" if r.random() < 0.4 else ""
        return f"if ({test}) {made}{other}"
    return f"if ({test}) {{ {made} {_set(r, True)} }}"


def row_programs(seed: int, count: int) -> list[str]:
    r = random.Random(seed)
    out = []
    for _ in range(count):
        sets = "\n  ".join(_set(r, False) for _ in range(r.randint(1, 4)))
        decl = r.choice(["const", "let"])
        row = f"{decl} row = {{id: u.id}};\n  {sets}"
        form = r.randrange(4)
        if form == 0:
            body = f"let i = 0;\nfor (const u of users) {{\n  {row}\n  out.push(row);\n  i++;\n}}"
        elif form == 1:
            body = f"users.forEach((u, i) => {{\n  {row}\n  out.push(row);\n}});"
        elif form == 2:
            body = f"out.push(...users.map((u, i) => {{\n  {row}\n  return row;\n}}));"
        else:
            body = (
                f"out.push(...users.reduce((acc, u, i) => {{\n  {row}\n  acc.push(row);\n"
                "  return acc;\n}, []));"
            )
        out.append(f"const users = await list_users();\nconst out = [];\n{body}\nreturn out;")
    return out
