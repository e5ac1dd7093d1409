"""An arrow function of no parameters called where it stands, ``(() => { ...; return e; })()``
(SPEC 10): its body is a block in expression position, so it gives Node's answer; and the
decompiler writes every block that is not a whole program this way, so a program using its
own functions reads back to the same tree and converts to Plan2."""

from __future__ import annotations

import pytest

from dialectic import Runtime
from dialectic.frontends.plan import parse_plan
from dialectic.frontends.plan.decompile import decompile
from dialectic.tools.convert import convert

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "const x = (() => { const y = n * 2; return y + 1; })();\nreturn x;",
    "const x = await (async () => { const r = await echo(n); return r + 1; })();\nreturn x;",
    "const r = (function () { const a = nums.length; return a * 2; })();\nreturn r;",
    "return [(() => 5)(), (() => ({a: 1}))(), await (async () => n)()];",
    # an arrow called at once as a statement: it runs, its value dropped
    "(async () => { return 1; })();\nreturn 2;",
    # a local of the body hides a name of the top, as in JavaScript
    "const y = 1;\nconst z = (() => { const y = 10; return y + 1; })();\nreturn [y, z];",
    # inside an arrow: reads its parameter
    "return nums.map(v => (() => { const d = v * 2; return d + n; })());",
    # a body with an `if` and early returns
    "const grade = (() => {\n  if (n > 10) { return 'big'; }\n  if (n > 2) return 'mid';\n"
    "  return 'small';\n})();\nreturn grade;",
    # a loop in the body
    "const total = (() => { let t = 0; for (const v of nums) { t += v; } return t; })();\n"
    "return total;",
]


def test_called_arrows_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("return ((x) => x + 1)(2);", "an arrow function with parameters called", 22),
        ("return (() => 1)(2);", "arguments in a call of an arrow function of no parameters", 18),
    ],
)
def test_called_arrows_refused(text: str, message: str, column: int) -> None:
    out = RT.run(text, lang="plan", context={})
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "syntax_error"
    assert message in (out.message or "")
    assert f"line 1, column {column}" in (out.message or "")
    assert out.error.hint


FUNCTION_PROGRAMS = [
    "function label(p) {\n  const n = p.name.toUpperCase();\n"
    "  if (p.age > 60) { return `${n} (senior)`; }\n  return n;\n}\n"
    "const first = label(people[0]);\nreturn {first, all: people.map(p => label(p))};",
    "function add2(a, b) { return a + b; }\nreturn add2(1, 2) + add2(n, 3);",
    "function total(xs) {\n  let t = 0;\n  for (const x of xs) { t += x; }\n  return t;\n}\n"
    "return total(nums);",
    "const y = (() => { const a = n; return a * 3; })();\nreturn [y, (() => y)()];",
]


@pytest.mark.parametrize("text", FUNCTION_PROGRAMS)
def test_blocks_in_expressions_decompile_and_convert(text: str) -> None:
    # a function's call is a block in expression position: written as an arrow called at once
    tree = parse_plan(text).tree
    written = decompile(tree)
    assert "(() => {" in written
    # (lenient mode reads `return (() => {...})();` as a wrapped program: the same values)
    assert parse_plan(written, strict=True).tree == tree, written
    want = RT.run(text, lang="plan", context=_context())
    assert want.status == "success", want.message
    again = RT.run(written, lang="plan", context=_context())
    assert again.status == "success" and again.value == want.value
    yaml_text = convert(text, "plan", "plan2")
    from_yaml = RT.run(yaml_text, lang="plan2", context=_context())
    assert from_yaml.status == "success", (yaml_text, from_yaml.message)
    assert from_yaml.value == want.value


def test_an_async_arrow_called_at_once_is_its_value() -> None:
    # Node would hold a promise without `await` (SPEC 10's table: every call is awaited where
    # its value is used)
    out = RT.run("return [(async () => n)()];", lang="plan", context={"n": 7})
    assert out.status == "success" and out.value == [7]


def _context() -> dict[str, object]:
    from .program_generator import CONTEXT

    return dict(CONTEXT)
