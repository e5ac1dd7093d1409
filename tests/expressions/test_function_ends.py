"""A function of the program whose body ends without `return` gives `undefined`, and `return;`
is `return undefined;`, as in JavaScript: the helpers models write for their effects
(`async function notify(u) { await send_email(...); }`, `function validate(o) { if (!o.name)
throw new Error(...); }`, `if (!x) return;`) run as Node runs them, checked against Node (they
were refused: "the function `notify` has no `return`", "expected an expression, found `;`")."""

from __future__ import annotations

from .corpus_checks import run_both

PROGRAMS = [
    "async function notify(u) {\n  await send_email(u.email, 'hi', 'x');\n}\n"
    "const users = await list_users();\nfor (const u of users) await notify(u);\n"
    "return users.length;",
    "async function main() {\n  const u = await get_user(1);\n  console.log(u.name);\n}\n"
    "await main();\nreturn 'done';",
    "function log(x) {\n  console.log(x);\n}\nlog(1);\nreturn 2;",
    "function log(x) {\n  console.log(x);\n}\nreturn [log(1)];",
    "function noop() {}\nnoop();\nreturn [noop()];",
    "const f = (x) => { console.log(x); };\nf(1);\nreturn 3;",
    "const f = function (x) { console.log(x); };\nf(1);\nreturn 4;",
    "function f(x) {\n  const y = x * 2;\n  return;\n}\nreturn [f(1)];",
    "function f(x) {\n  if (x > 1) return;\n  return x;\n}\nreturn [f(1), f(2)];",
    "function f(x) {\n  if (x > 1) {\n    return;\n  }\n  return x;\n}\nreturn [f(1), f(2)];",
    "function f(x) {\n  if (x > 1) return\n  return x\n}\nreturn [f(1), f(2)];",
    "function validate(o) {\n  if (!o.name) throw new Error('no name');\n}\n"
    "validate({name: 'x'});\nreturn 'ok';",
    "function validate(o) {\n  if (!o.name) throw new Error('no name');\n}\n"
    "try {\n  validate({});\n  return 'ok';\n} catch (e) {\n  return e.message;\n}",
    "async function audit(users) {\n  for (const u of users) {\n"
    "    if (u.role === 'admin') await send_email(u.email, 'audit', 'ok');\n  }\n}\n"
    "const users = await list_users();\nawait audit(users);\n"
    "return users.filter(u => u.role === 'admin').length;",
    "if (true) return;\nreturn 1;",
    "const xs = [1, 2, 3];\nconst out = [];\nxs.forEach(x => {\n  if (x === 2) return;\n"
    "  out.push(x * 10);\n});\nreturn out;",
    "return [1, 2].map(x => { if (x > 1) return; return x; });",
]


def test_a_body_that_ends_gives_undefined_as_in_node() -> None:
    verdicts = run_both(PROGRAMS)
    assert [v.kind for v in verdicts] == ["same"] * len(PROGRAMS), [
        (PROGRAMS[int(v.name)], v.detail) for v in verdicts if v.kind != "same"
    ]


def test_a_value_read_from_such_a_function_is_undefined() -> None:
    """Its `undefined` is read as JavaScript reads it: a missing value, a failure where an
    operation needs a value (`undefined + 1` is NaN, no value of a run)."""
    texts = [
        "function f(x) { const y = x; }\nconst v = f(1);\nreturn [v ?? 'none', typeof v];",
        "function f(x) { const y = x; }\nreturn `${f(1)}`;",
    ]
    assert [v.kind for v in run_both(texts)] == ["same", "same"]
    verdict = run_both(["function f(x) { const y = x; }\nreturn f(1) + 1;"])[0]
    assert verdict.kind == "refused" and "undefined" in verdict.detail, verdict.detail
