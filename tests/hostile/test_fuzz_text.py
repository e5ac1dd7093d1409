"""Property tests for the text notations: random Plan and Plan2 text, and random mutations of
valid programs, always end in a clean outcome; syntax errors carry line, column and a caret."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dialectic import Outcome

Clean = Callable[..., Outcome]

SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

PLAN_SEEDS = [
    "return add(1, 2);",
    "const out = {};\nawait Promise.all([1, 2].map(async (x, i) => {\n  const r = await "
    "sleepEcho(x, 0);\n  out[r] = i;\n}));\nreturn out;",
    "return sleepEcho(2, 0).then(v => v + 1).then(w => [w]);",
    "a = echo({x: 1, y: [1, 2, 'z']});\nreturn `${a.x} and ${a.y[2]}`;",
    "p = point(1, 2);\nreturn [p.x, p.norm, origin, `${p}`];",
    "x = find('validateToken');\nreturn x;",
    "use greet(user.name, '?');",
    "a = sleepEcho(1, 0);\nb = asyncAdd(a, 2);\nreturn {a, b, c: answer};",
    "return norm('3,4');",
    "return markText(tag('t'));",
    '// comment\nreturn /* c */ concat(`a${1.5}`, "b\\n");',
    "const a = 1\nlet b = [a, a]\nreturn b",
    "```js\nreturn echo(undefined);\n```",
    "return keys({__x: 1, 'a b': 2, 3: 4});",
    "return this(1);",
    # shapes of the hostile reproducers (issue 10) and of the expressions (SPEC 1.7, 1.8)
    "return \u0663;",
    "return 1\u0663;",
    "/**//**//**/return 1;",
    "return 'a'.upper().upper().upper().upper();",
    "return [1, 2].map(x => x * 2).filter(x => x > 2).toSorted((a, b) => b - a)[0];",
    "const [a, b] = await Promise.all([add(1, 2), add(3, 4)]);\nreturn a + b > 5 ? a : b;",
    "return {...{k: 1}, j: user?.name ?? 'none', m: Math.max(...[1, 2])};",
    "return xs.map(x => { const y = x + 1; return y * 2; });",
]
PLAN_TOKENS = [
    "return ",
    "use ",
    "a",
    "b",
    " = ",
    ";",
    "\n",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ".",
    ":",
    "'s'",
    '"t"',
    "`",
    "${",
    "1",
    "-2",
    "1.5e3",
    "0x1F",
    "1e999",
    "true",
    "null",
    "undefined",
    "this",
    "echo",
    "add",
    "point",
    "__proto__",
    "constructor",
    "x",
    "user",
    "?.",
    "=>",
    "...",
    "+",
    "new ",
    "await ",
    "function",
    "if",
    "//",
    "/*",
    "*/",
    "\\u{D800}",
    "\\",
    "'",
    '"',
    "\u2028",
    "\u00a0",
    "\t",
    "\r\n",
    "\x00",
    "é",
    "😀",
    "$",
    "$ref",
    "async",
    "let ",
    "const ",
    "\u0663",
    "?",
    ":",
    "??",
    "&&",
    "||",
    "===",
    "**",
    "!",
    ".map(x => x)",
    ".toSorted((a, b) => a - b)",
    "Math.max(",
]
YAML_SEEDS = [
    "result:\n  add:\n    a: 1\n    b: 2\n",
    "a:\n  echo:\n    value: ${user.name}\nresult: hello ${a}!\n",
    "a:\n  find:\n    name: validateToken\nresult: ${a}\n",
    "x:\n  sleepEcho:\n    value: [1, 2]\n  asyncAdd:\n    a: 1\n    b: 2\nresult: ${x}\n",
    "result: '${{a: 1, b: [2]}}'\n",
    "result:\n  greet:\n    name: ${`x${answer}`}\n",
    "```yaml\nresult: ${answer}\n```\n",
    "result:\n  concat:\n    -a\n    -b\n",
    "result:\n  echo: ${origin.norm}\n",
]
YAML_TOKENS = [
    "result",
    "a",
    "echo",
    "add",
    ":",
    " ",
    "  ",
    "\n",
    "- ",
    "-",
    "[",
    "]",
    "{",
    "}",
    ",",
    "'",
    '"',
    "${",
    "}",
    "$${",
    "&a ",
    "*a",
    "<<: ",
    "!!python/object ",
    "!x ",
    "---\n",
    "...\n",
    "? ",
    "|\n",
    ">\n",
    "#",
    "%YAML 1.2\n",
    "\t",
    "value",
    "name",
    "1",
    "1e999",
    "-.inf",
    "null",
    "~",
    "true",
    "yes",
    "0x1F",
    "__class__",
    "$ref",
    "\\ud800",
    "\x00",
    "\ufeff",
    "\r\n",
]


def _seed_files(*suffixes: str) -> list[str]:
    out: list[str] = []
    for path in sorted(EXAMPLES.rglob("*")):
        if path.suffix in suffixes and path.is_file():
            out.append(path.read_text(encoding="utf-8"))
    return out


def mutate(text: str, data: st.DataObject, tokens: list[str]) -> str:
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["insert", "delete", "replace", "duplicate", "swap"]))
        if op == "insert":
            text = text[:pos] + data.draw(st.sampled_from(tokens)) + text[pos:]
        elif op == "delete":
            end = data.draw(st.integers(pos, min(len(text), pos + 8)))
            text = text[:pos] + text[end:]
        elif op == "replace" and pos < len(text):
            text = text[:pos] + data.draw(st.sampled_from(tokens)) + text[pos + 1 :]
        elif op == "duplicate":
            end = data.draw(st.integers(pos, min(len(text), pos + 30)))
            text = text[:end] + text[pos:end] + text[end:]
        elif op == "swap" and len(text) > 1:
            other = data.draw(st.integers(0, len(text) - 1))
            chars = list(text)
            chars[min(pos, len(text) - 1)], chars[other] = (
                chars[other],
                chars[min(pos, len(text) - 1)],
            )
            text = "".join(chars)
    return text


CONTEXT: dict[str, Any] = {"user": {"name": "Ada"}, "x": [1, {"a": 2}]}


def check_located(out: Outcome, source: str) -> None:
    """A syntax error names line and column; a caret marks it when that line has text."""
    if out.status == "failure" and out.error is not None and out.error.code == "syntax_error":
        line, column = out.error.line, out.error.column
        assert line is not None and column is not None, out.message
        lines = source.replace("\r\n", "\n").split("\n")
        if 1 <= line <= len(lines) and lines[line - 1].strip():
            assert "^" in (out.message or ""), out.message


@SETTINGS
@given(data=st.data())
def test_mutated_plans(clean: Clean, data: st.DataObject) -> None:
    seed = data.draw(st.sampled_from(PLAN_SEEDS + _seed_files(".js")))
    text = mutate(seed, data, PLAN_TOKENS)
    out = clean(text, lang="plan", context=CONTEXT)
    check_located(out, text)
    clean(text, lang="plan", context=CONTEXT)  # the prepared-program cache path, too


@SETTINGS
@given(text=st.lists(st.sampled_from(PLAN_TOKENS), max_size=30).map("".join))
def test_random_plan_token_soup(clean: Clean, text: str) -> None:
    check_located(clean(text, lang="plan", context=CONTEXT), text)
    clean(text, context=CONTEXT)  # notation detection


@SETTINGS
@given(text=st.text(max_size=60))
def test_random_plan_text(clean: Clean, text: str) -> None:
    clean(text, lang="plan", context=CONTEXT)
    clean("return " + text + ";", lang="plan", context=CONTEXT)
    clean("return `" + text + "`;", lang="plan", context=CONTEXT)


@SETTINGS
@given(data=st.data())
def test_mutated_plan2(clean: Clean, data: st.DataObject) -> None:
    seed = data.draw(st.sampled_from(YAML_SEEDS + _seed_files(".yaml")))
    text = mutate(seed, data, YAML_TOKENS)
    out = clean(text, lang="plan2", context=CONTEXT)
    check_located(out, text)


@SETTINGS
@given(text=st.lists(st.sampled_from(YAML_TOKENS), max_size=30).map("".join))
def test_random_yaml_token_soup(clean: Clean, text: str) -> None:
    clean(text, lang="plan2", context=CONTEXT)
    clean(text, context=CONTEXT)


@SETTINGS
@given(text=st.text(max_size=60))
def test_random_yaml_text(clean: Clean, text: str) -> None:
    clean(text, lang="plan2", context=CONTEXT)
    clean("result: " + text + "\n", lang="plan2", context=CONTEXT)
    clean("result: ${" + text + "}\n", lang="plan2", context=CONTEXT)


@SETTINGS
@given(data=st.data())
def test_mutated_json(clean: Clean, data: st.DataObject) -> None:
    seed = data.draw(st.sampled_from(_seed_files(".json") or ['{"add": [1, 2]}']))
    text = mutate(
        seed,
        data,
        [
            "{",
            "}",
            "[",
            "]",
            '"',
            ":",
            ",",
            "1e999",
            "NaN",
            '"$ref"',
            '"__proto__"',
            "\\ud800",
            "\\u0000",
            "\x00",
            "\ufeff",
            "-",
            ".",
        ],
    )
    clean(text, lang="json", context=CONTEXT)
    clean(text, context=CONTEXT)


@pytest.mark.parametrize(
    ("source", "lang"),
    [
        ("return add(1 2);", "plan"),
        ("a = 1;\nreturn a @\n b;", "plan"),
        ("return f(", "plan"),
        ("return 'unterminated;", "plan"),
        ("return `${", "plan"),
        ("return {a: 1, a: 2};", "plan"),
        ("a = 1;\na = 2;\nreturn a;", "plan"),
        ("result:\n  add:\n    a: ${1 +}\n", "plan2"),
        ("result: [\n", "plan2"),
        ("reslt: 1\n", "plan2"),
        ('{"add": [1, 2}', "json"),
    ],
)
def test_syntax_errors_say_where_and_what_to_do(clean: Clean, source: str, lang: str) -> None:
    out = clean(source, lang=lang)
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "syntax_error", out.message
    check_located(out, source)


SLOT_TEXT = st.sampled_from(
    [
        "SFO",
        "${x}",
        "${user.name}",
        "${answer}",
        "a ${x[1].a} b",
        "${find('parse')}",
        "$${x}",
        "${x.__class__}",
        "${",
        "}",
        "${echo(",
        "${'${'}",
        "${`${x}`}",
        "5117",
        "",
        "${{a: 1}}",
    ]
)
yaml_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), SLOT_TEXT, st.text(max_size=8)),
    lambda kids: st.one_of(
        st.lists(kids, max_size=3),
        st.dictionaries(
            st.sampled_from(["echo", "add", "a", "b", "value", "name", "$x", "k"]), kids, max_size=3
        ),
    ),
    max_leaves=12,
)
yaml_programs = st.dictionaries(
    st.sampled_from(["a", "b", "result", "return", "x", "__proto__"]), yaml_values, max_size=4
)


@SETTINGS
@given(document=yaml_programs, flow=st.booleans())
def test_random_yaml_documents(clean: Clean, document: dict[str, Any], flow: bool) -> None:
    import yaml

    text = yaml.safe_dump(document, default_flow_style=flow, allow_unicode=True)
    out = clean(text, lang="plan2", context=CONTEXT)
    check_located(out, text)
