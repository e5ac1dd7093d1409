"""``throw`` and ``try``/``catch`` whose handler runs (SPEC 10, "Strict and lenient modes";
SPEC 1.2, ``$try`` and ``$throw``), compared with Node.js: the programs models write to guard
their calls give Node's answer; a failure where JavaScript computes a value (one of dialectic's
deliberate differences) is never caught; what cannot be read exactly is refused at the place.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from dialectic import FunctionDescription, Limits, Runtime

from .program_generator import CONTEXT
from .program_oracle import node_answers, runs_as_in_node, runtime, same

RT: Runtime = runtime()

#: programs whose answer is Node's (`fail(m)` and `failLater(m)` throw `new Error(m)` in Node,
#: fail in dialectic; no answer depends on the text of a failing call's error)
SAME = [
    # at the top level, `return` in the block and the handler
    "try { const r = await fail('x'); return r; } catch (e) { return 'caught'; }",
    "try { const r = await echo(5); return r * 2; } catch (e) { return -1; }",
    "try { return await failLater('x'); } catch (e) { return e.name; }",
    "try { return JSON.parse('{\"a\": 1}').a; } catch { return 0; }",
    "try { return JSON.parse(s); } catch (e) { return e.name; }",
    "try { throw new Error('boom'); } catch (e) { return e.message; }",
    "try { throw new TypeError(`bad ${n}`); } catch (e) { return [e.name, e.message]; }",
    "try { throw Error('plain'); } catch ({message}) { return message; }",
    "try { const x = await fail('no'); return x; } catch (e) { console.error(e); }\n"
    "return 'after';",
    "try { return await echo(1); } catch (e) {}\nreturn 2;",
    "try { return await fail('a'); } catch (e) {}\nconst t = await echo(3);\nreturn t + 1;",
    # a guard that throws, caught or not reached
    "try { const r = await echo(n); if (r > 5) throw new Error(`too big: ${r}`); return r; }"
    " catch (e) { return e.message; }",
    "if (n < 3) throw new Error('small'); return n;",
    "for (const x of nums) { if (x > 100) throw new Error('huge'); }\nreturn 'fine';",
    # in a loop: changes of outer arrays, objects and lets
    "const results = [];\nfor (const w of words) {\n  try {\n    const r = await echo(w);\n"
    "    results.push(r.length);\n  } catch (e) {\n    results.push(-1);\n  }\n}\nreturn results;",
    "const results = [];\nfor (const id of [1, 2, 3]) {\n  try {\n"
    "    const r = id === 2 ? await fail('x') : await echo({id, total: id * 10});\n"
    "    results.push({id, total: r.total});\n  } catch (e) {\n"
    "    results.push({id, error: true});\n  }\n}\nreturn results;",
    "let count = 0;\nconst out = [];\nfor (const x of nums) {\n  try {\n"
    "    const r = x > 2 ? await fail('big') : x;\n    out.push(r);\n  } catch (e) {\n"
    "    count++;\n  }\n}\nreturn [out, count];",
    "let total = 0;\nfor (const x of nums) {\n  try {\n    if (x < 0) throw new Error('neg');\n"
    "    total += x;\n  } catch (e) {\n    total -= 100;\n  }\n}\nreturn total;",
    "const bad = [];\nfor (let i = 0; i < 4; i++) {\n  try {\n"
    "    const v = JSON.parse(i % 2 ? '[' + i + ']' : '{');\n  } catch (e) {\n"
    "    bad.push(i);\n  }\n}\nreturn bad;",
    "const ok = [];\nconst failed = [];\nwords.forEach(w => {\n  try {\n"
    "    if (w.length === 0) throw new Error('empty');\n    ok.push(w.toUpperCase());\n"
    "  } catch (e) {\n    failed.push(e.message);\n  }\n});\nreturn {ok, failed};",
    "const labels = [];\nfor (const p of people) {\n  try {\n"
    "    const age = p.age > 10 ? await echo(p.age) : await fail('young');\n"
    "    labels.push(`${p.name}: ${age}`);\n  } catch (e) {\n"
    "    labels.push(`${p.name}: ?`);\n  }\n}\nreturn labels;",
    "const byWord = {};\nfor (const w of ['a', 'bb']) {\n  try {\n"
    "    const r = w.length > 1 ? await fail('x') : w;\n    byWord[w] = r;\n"
    "  } catch (e) {\n    byWord[w] = null;\n  }\n}\nreturn byWord;",
    "const stats = {ok: 0};\nfor (const x of nums) {\n  try {\n"
    "    const r = x > 2 ? await fail('x') : x;\n    stats.last = r;\n  } catch (e) {\n"
    "    stats.bad = true;\n  }\n}\nreturn stats;",
    # `let v; try { v = ...; } catch { v = fallback; }`, then reads of `v`
    "let parsed;\ntry { parsed = JSON.parse(s); } catch { parsed = null; }\nreturn parsed;",
    "let parsed;\ntry { parsed = JSON.parse('[1, 2]'); } catch { parsed = []; }\n"
    "return parsed.length;",
    "let value = 'none';\ntry { value = await fail('x'); } catch (e) { value = e.name; }\n"
    "return value;",
    "let v = 0;\ntry { v = await echo(41); } catch { v = -1; }\nreturn v + 1;",
    # a call for its effect only
    "try { await fail('x'); } catch (e) { }\nreturn 'done';",
    "let failures = 0;\nfor (const x of [1, 2]) { try { await fail(x); } catch { failures++; } }\n"
    "return failures;",
    # a `try` in an arrow function's body and in a branch
    "const xs = await Promise.all(nums.map(async x => {\n  try {\n"
    "    return x > 2 ? await failLater('x') : x;\n  } catch (e) {\n    return null;\n  }\n}));\n"
    "return xs;",
    "if (flag) {\n  try { return await fail('x'); } catch (e) { return 'branch'; }\n}\nreturn 0;",
    # nested: the inner handler runs, the outer's does not
    "try {\n  try { return await fail('in'); } catch (e) { return 'inner'; }\n"
    "} catch (e) { return 'outer'; }",
    "try {\n  try { return await fail('in'); } catch (e) { throw new Error('again'); }\n"
    "} catch (e) { return e.message; }",
]


def test_try_catch_gives_what_node_gives() -> None:
    runs_as_in_node(SAME, RT)


#: a failure where JavaScript gives a value (dialectic's deliberate differences): the handler
#: must not run, as its answer is not Node's: the program fails as it does without `try`
NOT_CAUGHT = [
    ("try { return [1, 2][5]; } catch (e) { return 'caught'; }", "index_out_of_range"),
    ("try { return data.nope; } catch (e) { return 'caught'; }", "member_not_found"),
    (
        "const out = [];\nfor (const x of nums) {\n  try { out.push(data.c[x]); }"
        " catch (e) { out.push(-1); }\n}\nreturn out;",
        "index_out_of_range",
    ),
    ("let v;\ntry { v = Math.atan2(0, -n); } catch { v = 0; }\nreturn v;", None),
    ("try { return 'a' - 1; } catch (e) { return 'caught'; }", None),
]


@pytest.mark.parametrize(("text", "code"), NOT_CAUGHT)
def test_a_refusal_where_javascript_computes_a_value_is_not_caught(
    text: str, code: str | None
) -> None:
    (answer,) = node_answers([text])
    assert "ok" in answer, answer
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure", (text, out.value)
    assert out.error is not None, out.message
    if code is not None:
        assert out.error.code == code, out.message
    assert same(out.value, answer["ok"]) is not None or out.value is None


def test_limits_are_never_caught() -> None:
    text = "try { return nums.map(x => words.map(w => w + x)); } catch (e) { return 'caught'; }"
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=5))
    out = rt.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "limit_exceeded", out.message


@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        (
            "if (n > 3) throw new Error(`too big: ${n}`);\nreturn n;",
            "too big: 7",
            (1, 12),
        ),
        ("const x = await echo(1);\nthrow 'plain text';", "plain text", (2, 1)),
        (
            "for (const x of nums) {\n  if (x === 0) throw new RangeError('zero');\n}\nreturn 1;",
            "zero",
            (2, 16),
        ),
    ],
)
def test_an_uncaught_throw_fails_with_its_message_at_its_place(
    text: str, message: str, where: tuple[int, int]
) -> None:
    (answer,) = node_answers([text])
    assert "error" in answer, answer
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "thrown"
    assert out.message is not None and out.message.startswith(
        f"line {where[0]}, column {where[1]}: {message}"
    ), out.message


def test_the_error_of_a_failing_call_is_the_functions_own_message() -> None:
    # (as Node's `e.message` is the text the tool threw)
    text = "try { return await fail('not found'); } catch (e) { return e.message; }"
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "success" and out.value == "not found", out.message


@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        (  # a change before a statement that may fail: JavaScript keeps it
            "const out = [];\nfor (const x of nums) {\n  try {\n    out.push(x);\n"
            "    await fail('x');\n  } catch (e) { }\n}\nreturn out;",
            "Plan reads this `try` block or handler only as declarations, calls and guards",
            (4, 5),
        ),
        (
            "let a = 0;\nlet b = 0;\ntry { a = 1; b = await fail('x'); } catch { }\nreturn [a, b];",
            "only as declarations, calls and guards, then one change",
            (3, 7),
        ),
        (  # the error whole: `{}` in JavaScript (an Error's fields are its own, not shown)
            "try { return await fail('x'); } catch (e) { return JSON.stringify(e); }",
            "`e` is the error: Plan reads it as `e.message`, `e.name` or as text",
            (1, 33),
        ),
        (  # two calls that may fail at once, and the handler reads which one did
            "try {\n  const a = await fail('a');\n  const b = await fail('b');\n  return [a, b];\n"
            "} catch (e) { return e.message; }",
            "the handler reads the error, and the `try` block has another call that may fail "
            "(at line 2, column 19)",
            (3, 19),
        ),
        (
            # (a `break;` ending the block or the handler is its branch's; one inside is not)
            "for (const x of nums) {\n  try { await fail(x); } catch { if (x) break; }\n}\n"
            "return 1;",
            "Plan reads no `break` in a `try` block or its handler",
            (2, 41),
        ),
        (
            "try { return 1; } catch (e) { return 2; } finally { return 3; }",
            "Plan reads no `return` in a `finally` block",
            (1, 53),
        ),
        # promises' handlers, `Promise.allSettled`, `finally` (test_failure_handling.py)
        (  # the error whole: no JavaScript Error here
            "return await failLater('a').catch(e => e);",
            "`e` is the error: Plan reads it as `e.message`, `e.name` or as text",
            (1, 29),
        ),
        (
            "return await failLater('a').then(v => v, e => e.stack);",
            "`e.stack`: a program has no stack trace",
            (1, 29),
        ),
        (  # which of two calls running at once failed first
            "return await Promise.all([slow(1), failLater('x')]).catch(e => e.message);",
            "the handler reads the error, and the promise holds several calls that may fail",
            (1, 53),
        ),
        (
            "const rs = await Promise.allSettled([failLater('x')]);\n"
            "return rs.map(r => JSON.stringify(r.reason));",
            "a rejected entry's `reason` is the error",
            (2, 37),
        ),
        (
            "const rs = await Promise.allSettled([failLater('x')]);\nreturn rs[0].reason;",
            "a rejected entry's `reason` is the error",
            (2, 14),
        ),
        ("return await slow(1).finally(() => 1);", "Plan has no `finally` on a promise", (1, 22)),
        (
            "try { return 1; } finally { return 2; }",
            "Plan reads no `return` in a `finally` block",
            (1, 29),
        ),
        (
            "try { await slow(1); } finally { throw new Error('x'); }\nreturn 1;",
            "Plan reads no `throw` in a `finally` block",
            (1, 34),
        ),
        (
            "for (const x of nums) {\n  try { await slow(x); } finally { continue; }\n}\nreturn 1;",
            "Plan reads no `continue` in a `finally` block",
            (2, 36),
        ),
        (
            "try { try { await slow(1); } finally { } } finally { }\nreturn 1;",
            "Plan reads no `try` with `finally` inside another",
            (1, 7),
        ),
        ("return Promise.reject();", "`Promise.reject` needs a value", (1, 22)),
    ],
)
def test_what_cannot_be_read_exactly_is_refused_at_the_place(
    text: str, message: str, where: tuple[int, int]
) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "syntax_error", out.message
    assert message in str(out.message), out.message
    assert f"line {where[0]}, column {where[1]}:" in str(out.message), out.message


def test_strict_mode_reads_try_and_throw_as_grammar() -> None:
    texts = [t for t in SAME if "console" not in t]  # (`console` statements are lenient)
    for text, answer in zip(texts, node_answers(texts), strict=True):
        out = RT.run(text, lang="plan", context=CONTEXT, strict=True)
        assert out.status == "success", (text, out.message)
        assert same(out.value, answer["ok"]) is None, (text, out.value, answer)


def test_a_caught_failure_leaves_no_call_running() -> None:
    # the block's other call is cancelled and has ended when the handler's answer is given
    rt = runtime()
    calls = {"started": 0, "ended": 0}

    async def slowly(v: Any) -> Any:
        calls["started"] += 1
        try:
            await asyncio.sleep(30)
        finally:
            calls["ended"] += 1
        return v

    rt.register(FunctionDescription("slowly", "its argument, slowly", slowly, {"v": "any"}))
    text = (
        "try {\n  const a = await failLater('x');\n  const b = await slowly(1);\n"
        "  return [a, b];\n} catch { return 'caught'; }"
    )
    out = rt.run(text, lang="plan", context=CONTEXT)
    assert out.status == "success" and out.value == "caught", out.message
    assert calls == {"started": 1, "ended": 1}


# -- a random generator of try/catch bodies in loops ------------------------------------------
_BLOCK_VALUES = [
    "await echo(x)",
    "await fail('f')",
    "await failLater('g')",
    "x > 2 ? await fail('big') : x",
    "JSON.parse(x > 0 ? '[' + x + ']' : '{')",
    "await later(x * 2)",
    "x",
]
_CHANGES = [
    ("out.push({v})", "out"),
    ("total += {v}", "total"),
    ("last = {v}", "last"),
    ("count++", "count"),
    ("byX[x] = {v}", "byX"),
]


def _program(rng: random.Random) -> str:
    value = rng.choice(_BLOCK_VALUES)
    guard = rng.choice(["", "if (x < 0) throw new Error('neg');\n    "])
    change = rng.choice(_CHANGES)[0].replace("{v}", "r")
    handler = rng.choice(
        [
            "",
            "out.push(-1);",
            "total -= 1;",
            "last = e.name;",
            "count++;",
            "errors.push(e.name);",
        ]
    )
    loop = rng.choice(["for (const x of nums) {", "for (const x of [1, 0, 3]) {"])
    return (
        "const out = [];\nconst errors = [];\nconst byX = {};\nlet total = 0;\nlet count = 0;\n"
        "let last = null;\n"
        f"{loop}\n  try {{\n    {guard}const r = {value};\n    {change};\n"
        f"  }} catch (e) {{\n    {handler}\n  }}\n}}\n"
        "return {out, errors, byX, total, count, last};"
    )


def test_random_try_bodies_in_loops_run_as_node_or_are_refused() -> None:
    rng = random.Random(20261124)
    texts = [_program(rng) for _ in range(80)]
    tally = {"same": 0, "refused": 0}
    for text, answer in zip(texts, node_answers(texts), strict=True):
        out = RT.run(text, lang="plan", context=CONTEXT)
        if out.status != "success":
            assert out.error is not None and out.error.code != "internal_error", out.message
            tally["refused"] += 1
            continue
        assert "ok" in answer, (text, out.value, answer)
        assert same(out.value, answer["ok"]) is None, (text, out.value, answer)
        tally["same"] += 1
    assert tally["same"] >= 60, tally
