"""Retry loops as models write them (SPEC 10, the `try` bullet): a `try` whose block returns,
in a loop's body, is the block's value returned after the `try`, the rest of the loop the
handler's branch; a `break;` or `continue;` ending the block or the handler is its branch's.
Each program gives Node's value; what Plan cannot read exactly stays refused at its place."""

from __future__ import annotations

import pytest

from .model_tools import judge, node_answers, runtime

SAME = [
    # the retry of a call: a failure is retried, the last one thrown again
    "for (let i = 0; i < 3; i++) {\n  try {\n    return await get_user(2);\n"
    "  } catch (e) {\n    if (i === 2) throw e;\n  }\n}",
    "for (let i = 0; i < 3; i++) {\n  try {\n    return await get_user(9);\n"
    "  } catch (e) {\n    if (i === 2) throw e;\n  }\n}",
    "async function fetchUser(id) {\n  for (let i = 0; i < 3; i++) {\n    try {\n"
    "      return await get_user(id);\n    } catch (e) {\n      if (i === 2) throw e;\n"
    "    }\n  }\n}\nreturn (await fetchUser(1)).name;",
    "async function withRetry(fn, tries) {\n  for (let i = 0; i < tries; i++) {\n    try {\n"
    "      return await fn();\n    } catch (e) {\n      if (i === tries - 1) throw e;\n"
    "    }\n  }\n}\nreturn (await withRetry(() => get_user(3), 3)).name;",
    # `while (attempts < 3)`, the handler counting; the program going on after the loop
    "let attempts = 0;\nwhile (attempts < 3) {\n  try {\n    return await get_weather('Paris');\n"
    "  } catch (e) {\n    attempts++;\n  }\n}\nreturn null;",
    "let attempts = 0;\nwhile (attempts < 3) {\n  try {\n"
    "    const w = await get_weather('Atlantis');\n    return w.tempC;\n  } catch (e) {\n"
    "    attempts++;\n  }\n}\nreturn `failed after ${attempts}`;",
    # the loop ends without `return` (undefined); the handler logs
    "for (let i = 0; i < 3; i++) {\n  try {\n    return await get_user(9);\n"
    "  } catch (e) {\n  }\n}",
    "for (let i = 0; i < 3; i++) {\n  try {\n    return await get_user(9);\n  } catch (e) {\n"
    "    console.log(`attempt ${i} failed: ${e.message}`);\n  }\n}\nreturn 'none';",
    "async function getUserRetry(id) {\n  let lastErr;\n  for (let i = 0; i < 3; i++) {\n"
    "    try {\n      return await get_user(id);\n    } catch (e) {\n"
    "      lastErr = e.message;\n    }\n  }\n  return {error: lastErr};\n}\n"
    "return [await getUserRetry(1), await getUserRetry(9)];",
    # a change before the `try`, and the handler's after it
    "let n = 0;\nfor (let i = 0; i < 3; i++) {\n  n += 1;\n  try {\n"
    "    return [n, (await get_user(9)).name];\n  } catch (e) {\n    n += 10;\n  }\n}\n"
    "return n;",
    # the guard before the change (the hint of a change then a guard)
    "let attempts = 0;\nwhile (attempts < 3) {\n  try {\n    return await get_weather('X');\n"
    "  } catch (e) {\n    if (attempts + 1 >= 3) throw e;\n    attempts++;\n  }\n}",
    # `break;` and `continue;` ending the block or the handler
    "let result;\nfor (let i = 0; i < 3; i++) {\n  try {\n    result = await get_user(1);\n"
    "    break;\n  } catch (e) {\n    if (i === 2) throw e;\n  }\n}\nreturn result.name;",
    "const out = [];\nfor (const c of ['Paris', 'Atlantis', 'Tokyo']) {\n  try {\n"
    "    const w = await get_weather(c);\n    out.push(w.tempC);\n  } catch (e) {\n"
    "    continue;\n  }\n}\nreturn out;",
    "const out = [];\nfor (const c of ['Paris', 'Atlantis', 'Tokyo']) {\n  try {\n"
    "    const w = await get_weather(c);\n    out.push(w.tempC);\n  } catch (e) {\n"
    "    out.push(e.message);\n    break;\n  }\n}\nreturn out;",
    "let found = null;\nfor (const id of [9, 8, 3, 1]) {\n  try {\n"
    "    found = await get_user(id);\n    break;\n  } catch {\n    continue;\n  }\n}\n"
    "return found && found.name;",
    "let n = 0;\nfor (const id of [9, 2, 3]) {\n  try {\n    await get_user(id);\n"
    "    n += id;\n    continue;\n  } catch {\n    n -= 1;\n  }\n  n *= 100;\n}\nreturn n;",
    "let i = 0;\nlet got;\nwhile (i < 5) {\n  i++;\n  try {\n"
    "    got = (await get_user(i + 5)).name;\n    break;\n  } catch (e) {\n  }\n}\n"
    "return [i, got ?? null];",
    "const names = [];\nfor (const id of [1, 9, 2]) {\n  try {\n"
    "    names.push((await get_user(id)).name);\n  } catch (e) {\n    break;\n  }\n}\n"
    "return names;",
]


def test_retry_loops_give_nodes_value() -> None:
    rt = runtime()
    verdicts = [
        judge(rt, str(i), text, answer)
        for i, (text, answer) in enumerate(zip(SAME, node_answers(SAME), strict=True))
    ]
    assert [v.kind for v in verdicts] == ["same"] * len(SAME), [
        (v.name, v.detail) for v in verdicts if v.kind != "same"
    ]


@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        # a change, then a guard: JavaScript keeps the change when the guard throws
        (
            "let attempts = 0;\nwhile (attempts < 3) {\n  try {\n"
            "    return await get_weather('X');\n  } catch (e) {\n    attempts++;\n"
            "    if (attempts >= 3) throw e;\n  }\n}",
            "only as declarations, calls and guards, then one change",
            (6, 5),
        ),
        # the error held in a name: no JavaScript `Error`
        (
            "let last = null;\nfor (let i = 0; i < 3; i++) {\n  try {\n"
            "    return (await get_user(7)).name;\n  } catch (err) {\n    last = err;\n  }\n}\n"
            "return last.message;",
            "`err` is the error",
            (5, 5),
        ),
        # a `break` that is not the block's last statement
        (
            "for (let i = 0; i < 3; i++) {\n  try {\n    return await get_user(9);\n"
            "  } catch (e) {\n    if (i === 1) break;\n  }\n}\nreturn 0;",
            "Plan reads no `break` in a `try` block or its handler",
            (5, 18),
        ),
    ],
)
def test_other_retries_are_refused_at_the_place(
    text: str, message: str, where: tuple[int, int]
) -> None:
    out = runtime().run(text, lang="plan")
    assert out.status == "failure" and out.error is not None, out.value
    assert message in (out.message or ""), out.message
    assert (out.error.line, out.error.column) == where, out.message


def test_a_change_then_a_guard_says_to_guard_first() -> None:
    out = runtime().run(
        "let attempts = 0;\nwhile (attempts < 3) {\n  try {\n    return await get_weather('X');\n"
        "  } catch (e) {\n    attempts++;\n    if (attempts >= 3) throw e;\n  }\n}",
        lang="plan",
    )
    assert out.status == "failure" and out.error is not None
    assert "if (attempts + 1 >= 3) throw e; attempts++;" in (out.error.hint or ""), out.message
