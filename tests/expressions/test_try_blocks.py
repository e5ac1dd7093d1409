"""``try { ... } catch (e) { ... }`` (SPEC 10, "Strict and lenient modes"): the shapes models
write, where the block does not fail (the handler does not run), or fails as JavaScript throws
(the handler runs: more in ``test_try_catch.py``), give Node's answer; a failure JavaScript
does not throw is the program's failure. What cannot be read so fails clearly, at the place."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import node_answers, runs_as_in_node, runtime, same

RT: Runtime = runtime()

#: programs whose `try` blocks do not fail: Node's answer
PROGRAMS = [
    "try {\n  const a = await later(nums.length);\n  return add(a, 1);\n} catch (e) {\n"
    "  return {error: e.message};\n}",
    "const base = data.a;\ntry {\n  return [base, await echo(s)];\n} catch {\n  return null;\n}",
    "return (async () => {\n  try {\n    const r = await later(data.c);\n    return r.length;\n"
    "  } catch (err) {\n    console.error(err);\n    return -1;\n  }\n})();",
    "const xs = await Promise.all(nums.map(async x => {\n  try {\n    return await later(x * 2);\n"
    "  } catch (e) {\n    return null;\n  }\n}));\nreturn xs;",
    "try {\n  try {\n    const inner = await echo(1);\n    return inner + 1;\n  } catch (e) {\n"
    "    return 0;\n  }\n} catch ({message}) {\n  return message;\n}",
    "if (flag) {\n  try {\n    const w = words.filter(w => w.length > 3);\n    return w;\n"
    "  } catch (e) { return []; }\n}\nreturn 0;",
    "try { await echo('side'); } catch (e) { }\nconst t = await later(s);\nreturn t.length;",
    "const t = {try: 1, catch: 2};\ntry {\n  return t.try + t.catch;\n} catch (e) {\n"
    "  try { return 1; } catch (f) { return 2; }\n}",
    "try {\n  const p = people.find(p => p.age > 30);\n  return `${p.name} (${p.age})`;\n"
    "} catch (error) {\n  return `failed: ${error.message}`;\n}",
]


def test_try_blocks_that_do_not_fail_give_what_node_gives() -> None:
    for out in runs_as_in_node(PROGRAMS, RT):
        assert not any("try" in w for w in out.warnings), out.warnings


#: a failure in the block: as JavaScript throws (the handler runs), or where JavaScript gives
#: `undefined` (a member missing: the program's failure, never the handler's answer)
FAILING = [
    ("try {\n  const d = JSON.parse('{');\n  return d.x;\n} catch (e) {\n  return 'bad';\n}", 0),
    ("try {\n  return data.d.e.missing;\n} catch (e) {\n  return e.message;\n}", 2),
    (
        "const r = nums.map(x => {\n  try {\n    return JSON.parse(x === 0 ? '[' : '1');\n"
        "  } catch (e) {\n    return null;\n  }\n});\nreturn r;",
        0,
    ),
]


@pytest.mark.parametrize(("text", "line"), FAILING)
def test_a_failure_in_the_block_is_caught_only_where_javascript_throws(
    text: str, line: int
) -> None:
    (answer,) = node_answers([text])
    assert "ok" in answer, answer  # Node ran the handler
    out = RT.run(text, lang="plan", context=CONTEXT)
    if not line:
        assert out.status == "success" and same(out.value, answer["ok"]) is None, out.message
        return
    assert out.status == "failure", (text, out.value)
    assert out.error is not None and out.error.line == line, out.message


def test_positions_inside_the_block_are_the_originals() -> None:
    out = RT.run("try {\n  const a = 1;\n  return a.nope;\n} catch (e) { return 0; }", lang="plan")
    assert out.status == "failure"
    assert out.error is not None and (out.error.line, out.error.column) == (3, 10)


@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        (
            "try { const r = await echo(1); } catch (e) {}\nreturn r;",
            "`r` is declared inside the `try` block at line 1, column 1, and JavaScript does "
            "not see it after the block",
            (2, 8),
        ),
        (
            "try {\n  try { const [a, {b}] = nums; } catch {}\n  return b;\n} catch {}\n",
            "`b` is declared inside the `try` block at line 2, column 3",
            (3, 10),
        ),
        (
            "try {\n  try { const q = 1; } catch {}\n} catch {}\nreturn q;",
            "`q` is declared inside the `try` block at line 2, column 3",
            (4, 8),
        ),
        (
            "for (const x of nums) { try { if (x) break; } finally { } }",
            "Plan reads no `break` in a `try` block that has `finally`",
            (1, 38),
        ),
        (
            "try { return await echo(1); } catch (e) { return 2; } finally { await echo(3); }",
            "a `finally` block that calls a function or changes a name, after a `try` block",
            (1, 71),
        ),
        ("try { return 1; }\nreturn 2;", "a `try` block without `catch`", (1, 1)),
        ("return echo(try { a: 1 } catch {});", "Plan has no `try`", (1, 13)),
    ],
)
def test_what_cannot_be_read_fails_at_the_place(
    text: str, message: str, where: tuple[int, int]
) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "syntax_error"
    assert message in str(out.message), out.message
    assert f"line {where[0]}, column {where[1]}:" in str(out.message), out.message


def test_a_var_declared_in_the_block_is_refused() -> None:
    # (JavaScript's `var` reaches the whole function: declare it with `let` before the `try`)
    text = "try { var v = await echo(3); } catch (e) {}\nreturn v + 1;"
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None
    assert (out.error.line, out.error.column) == (1, 7), out.message
    assert "Plan reads no `var` in a `try` block" in str(out.message)


def test_strict_mode_reads_try_as_grammar() -> None:
    out = RT.run("try { return 1; } catch (e) { return 2; }", lang="plan", strict=True)
    assert out.status == "success" and out.value == 1, out.message


def test_many_try_blocks_cost_linear_time() -> None:
    # 600 blocks in a row and 30 nested: read once each (a quadratic scan would take minutes)
    flat = "".join(f"try {{ await echo({i}); }} catch (e{i}) {{ }}\n" for i in range(600))
    out = RT.run(flat + "return 1;", lang="plan", context=CONTEXT)
    assert out.status == "success" and out.value == 1, out.message
    nested = "try { " * 30 + "return 7;" + " } catch (e) { }" * 30
    out = RT.run(nested, lang="plan", context=CONTEXT)
    assert out.status == "success" and out.value == 7, out.message
    deep = "try { " * 3000 + "return 7;" + " } catch (e) { }" * 3000  # (no RecursionError)
    out = RT.run(deep, lang="plan", context=CONTEXT)
    assert out.status == "failure" and "nested too deeply" in str(out.message), out.message


def test_a_guard_nothing_reads_runs_as_in_javascript() -> None:
    # Node runs `later(n)` to see whether it throws: so does the block here
    for value in ("n", "'x'"):
        call = "fail" if value == "'x'" else "later"
        text = (
            f"try {{\n  const {{checked}} = await {call}({value});\n}} catch (e) {{\n"
            "  return 'bad';\n}\nreturn 1;"
        )
        out = RT.run(text, lang="plan", context=CONTEXT)
        assert out.status == "failure" and out.error is not None
        assert (out.error.line, out.error.column) == (2, 3), out.message
        assert "`checked` is never read: JavaScript runs it to see whether it fails" in str(
            out.message
        )
    texts = [
        "try {\n  await later(n);\n} catch (e) {\n  return 'bad';\n}\nreturn 1;",
        "try {\n  const r = await fail(n);\n} catch (e) {\n  return 'bad';\n}\nreturn 1;",
        "try {\n  await fail(n);\n} catch (e) {\n  return 'bad';\n}\nreturn 1;",
    ]
    runs_as_in_node(texts, RT)


def test_a_name_declared_without_a_value_is_set_in_the_block() -> None:
    # (SPEC 10, "Changes outside loops": `let x;` is undefined until a statement changes it)
    text = "let x;\ntry { x = await echo(1); } catch (e) { x = null; }\nreturn x;"
    (answer,) = node_answers([text])
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "success" and same(out.value, answer["ok"]) is None, out.message
    out = RT.run("const x;\nreturn 1;", lang="plan", context=CONTEXT)  # JavaScript's error
    assert out.status == "failure" and out.error is not None
    assert (out.error.line, out.error.column) == (1, 7), out.message
    assert "`x` is declared without a value" in str(out.message)


@pytest.mark.parametrize(
    "text",
    [
        "return nums.map(x => {\n  return JSON.parse(x === 0 ? '[' : '1');\n});",
        "return nums.map(x => {\n  const y = x;\n  return JSON.parse(y === 0 ? '[' : '1');\n});",
        "return [[0]].map(([x]) => {\n  return JSON.parse(x === 0 ? '[' : '1');\n});",
    ],
)
def test_an_error_in_an_arrows_block_points_at_its_expression(text: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None
    line = text.count("\n", 0, text.index("return JSON")) + 1
    assert (out.error.line, out.error.column) == (line, 10), out.message
