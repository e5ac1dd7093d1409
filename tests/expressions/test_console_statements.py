"""``console.log(...);`` statements (SPEC 10, "Strict and lenient modes"): read as a statement
evaluating the arguments, nothing shown, a warning each; the answer is Node's (its console shows
nothing in the oracle either). Elsewhere `console` stays what it was: an unknown function."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "const r = await later(data.c);\nconsole.log('r is', r, r.length);\nreturn r;",
    "console.log(nums)\nreturn nums.length",
    "const p = people.filter(p => p.age > 5);\nconsole.table(p);\nconsole.info(`${p.length}`);"
    "\nreturn p.map(p => p.name);",
    "if (flag) {\n  console.debug('yes');\n  return 1;\n}\nreturn 2;",
    "try {\n  const x = await echo(s);\n  console.log(x); // shown\n  return x;\n} catch (e) {\n"
    "  console.error('failed', e);\n  return null;\n}",
    "console.log();\nconsole.warn(...words);\nreturn 0;",
    "const o = {log: 1};\nconsole.log({o});\nreturn o.log;",
    # in an arrow's block body: a statement run in its place (SPEC 1.8)
    "const names = people.map(p => { console.log(p.name); return p.name.toUpperCase(); });\n"
    "return names;",
    "return people.map(p => { const n = p.name; console.log('n', n, p.age); echo(n); "
    "return n + '!'; });",
    "return nums.filter(x => { console.log(x); return x > 1; });",
]


def test_console_statements_show_nothing_and_give_nodes_answer() -> None:
    for text, out in zip(PROGRAMS, runs_as_in_node(PROGRAMS, RT), strict=True):
        shown = [w for w in out.warnings if "shows nothing here" in w]
        assert len(shown) == text.count("console."), out.warnings


def test_the_arguments_are_evaluated() -> None:
    out = RT.run(
        "const r = await echo(s);\nconsole.log(r.nope);\nreturn r;", lang="plan", context=CONTEXT
    )
    assert out.status == "failure" and out.error is not None
    assert (out.error.line, out.error.column) == (2, 13), out.message


def test_the_warning_names_the_method_and_the_place() -> None:
    out = RT.run("\n  console.warn(1);\nreturn 2;", lang="plan")
    assert out.value == 2
    assert out.warnings == [
        "line 2, column 3: `console.warn` shows nothing here (a program has no console): its "
        "arguments are evaluated and dropped; return what you want to see"
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("const x = console.log(1);\nreturn x;", "`console.log` is not one of Plan's"),
        ("return echo(console.log(1));", "`console.log` is not one of Plan's"),
        ("console.log(1);\nreturn 1;", "`console.log` is not one of Plan's"),  # strict
        ("const console = {log: 1};\nreturn console.log;", "`console` is JavaScript's own"),
    ],
)
def test_console_elsewhere_fails_as_before(text: str, message: str) -> None:
    strict = text.startswith("console.log(1);")
    out = RT.run(text, lang="plan", context=CONTEXT, strict=strict)
    assert out.status == "failure", out.value
    assert message in str(out.message), out.message
    if "console.log" in message:  # what to write instead: where it is read, and the result
        assert out.error is not None and out.error.hint is not None
        assert "only as a statement of its own and only in lenient mode" in out.error.hint
        assert "return what you want to see" in out.error.hint


def test_many_unclosed_console_statements_cost_linear_time() -> None:
    # each `console.log(` left open: a scan to the end per statement would be quadratic
    text = "console.log(;" * 40_000 + "\nreturn 1;"
    out = RT.run(text, lang="plan")
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "syntax_error"


def test_the_arguments_are_evaluated_in_an_arrow_body() -> None:
    # Node: a TypeError reading `deep` of undefined
    text = "return people.map(p => { console.log(p.missing.deep); return 1; });"
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None
    assert (out.error.line, out.error.column) == (1, 38), out.message
