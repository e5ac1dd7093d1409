"""Every text a program makes obeys the run's ``max_string_length`` (SPEC 1.8 "Limits", SPEC 7):
operators, methods, globals and templates alike fail with ``limit_exceeded`` (``details.limit``
``max_string_length``) at the expression that made the text, with a hint; one character less
succeeds. Sizes known in advance are measured before the text is built, so doubling a text
alias after alias costs O(limit)."""

from __future__ import annotations

import time
from typing import Any

import pytest

import dialectic.testing
from dialectic import Limits, Outcome, Runtime

from .node_oracle import node_values

LIMIT = 20
SMALL = Runtime(load_entry_points=False, limits=Limits(max_string_length=LIMIT))
ASYNC = Runtime(
    plugins=[dialectic.testing],
    load_entry_points=False,
    limits=Limits(max_string_length=LIMIT),
)
DEFAULT = Runtime(load_entry_points=False)

CONTEXT: dict[str, Any] = {
    "s": "abcdefghij",  # 10 characters
    "rows": [{"n": "a" * 19}, {"n": "b" * 20}],
    "eszett": "ß" * 11,  # 'SS' in upper case: twice as long
    "doc": " " + "x" * 25,  # texts in the context longer than the limit
    "padded": " " + "x" * 20,
}

#: (what makes the text, a program whose text is one character too long, one that just fits);
#: the expression is on line 2, after an alias (a text from an alias is not a literal)
CASES = [
    ("+", "return t + t + 'x';", "return t + t;"),
    ("+ of a number", "return t + t + 1;", "return t + t.slice(1) + 1;"),
    ("+ literal first", "return 'x' + t + t;", "return 'x' + t + t.slice(1);"),
    ("+ literal last", "return (t + t) + 'x';", "return (t + t.slice(1)) + 'x';"),
    (
        "+ chain",
        "return t.slice(3) + 'x' + t.slice(6) + 'y' + t.slice(2);",
        "return t.slice(4) + 'x' + t.slice(6) + 'y' + t.slice(2);",
    ),
    (
        "+ in reduce",
        "return [t, t, 'x'].reduce((a, b) => a + b, '');",
        "return [t, t].reduce((a, b) => a + b, '');",
    ),
    ("+ in an arrow", "return [t].map(v => v + v + 'x');", "return [t].map(v => v + v);"),
    (
        "+ a column at a time",
        "return rows.map(r => r.n + '!');",
        "return rows.slice(0, 1).map(r => r.n + '!');",
    ),
    ("concat", "return t.concat(t, 'x');", "return t.concat(t);"),
    ("concat of a number", "return t.concat(t, 1);", "return t.concat(t.slice(1), 1);"),
    ("repeat", "return t.repeat(3);", "return t.repeat(2);"),
    ("padStart", "return t.padStart(21);", "return t.padStart(20, '-');"),
    ("padEnd", "return t.padEnd(21, '-');", "return t.padEnd(20);"),
    (
        "replaceAll",
        "return (t + t).replaceAll('a', 'aa');",
        "return (t + t.slice(1)).replaceAll('a', 'aa');",
    ),
    ("replace", "return (t + t).replace('j', 'jj');", "return (t + t).replace('j', 'J');"),
    ("join method", "return [t, t, 'x'].join('');", "return [t, t].join('');"),
    ("join separator", "return [t, t].join('-');", "return [t, t.slice(1)].join('-');"),
    (
        "JSON.stringify",
        "return JSON.stringify(t + t.slice(1));",
        "return JSON.stringify(t + t.slice(2));",
    ),
    (
        "JSON.stringify escapes",  # (a newline is written `\n`: measured once written)
        "return JSON.stringify(t + '\\n' + t.slice(3));",
        "return JSON.stringify(t + '\\n' + t.slice(4));",
    ),
    ("String()", "return String(t + t) + 'x';", "return String(t + t);"),
    ("template", "return `${t}${t}x`;", "return `${t}${t}`;"),
    ("toUpperCase", "return eszett.toUpperCase();", "return eszett.slice(1).toUpperCase();"),
    ("toFixed", "return (1.5).toFixed(20);", "return (1.5).toFixed(18);"),
    ("trim", "return doc.trim();", "return padded.trim();"),
]


def _run(rt: Runtime, line: str) -> Outcome:
    return rt.run("t = s;\n" + line, lang="plan", context=CONTEXT)


@pytest.mark.parametrize(("what", "too_long", "fits"), CASES, ids=[c[0] for c in CASES])
def test_a_small_max_string_length_is_honoured(what: str, too_long: str, fits: str) -> None:
    ok = _run(SMALL, fits)
    assert ok.status == "success", ok.message
    made = ok.value if isinstance(ok.value, str) else ok.value[-1]
    assert isinstance(made, str) and len(made) == LIMIT, (what, made)
    out = _run(SMALL, too_long)
    assert out.status == "failure", (what, out.value)
    assert out.error is not None
    assert out.error.code == "limit_exceeded", out.message
    assert out.error.details["limit"] == "max_string_length"
    message = out.message or ""
    assert message.startswith("line 2, column "), message  # where the text was made
    assert "max_string_length" in message and "Hint: " in message, message
    assert out.error.hint, message


def test_the_failure_names_the_expression_and_says_what_to_write() -> None:
    out = _run(SMALL, "return [1, 2].map(n => t + t + n);")
    assert out.error is not None and out.error.code == "limit_exceeded"
    assert out.error.details == {"limit": "max_string_length", "operator": "+"}
    assert out.message == (
        "line 2, column 24: the text would be 21 characters, longer than the limit of 20 "
        "(max_string_length)\n"
        "    return [1, 2].map(n => t + t + n);\n"
        "                           ^\n"
        "Hint: Build a smaller text (slice it, or filter the data first), or return the "
        "parts as a list."
    )
    method = _run(SMALL, "return t.repeat(3);")
    assert method.error is not None and method.error.details["method"] == "repeat"


def test_the_path_locates_it_in_dialect_json() -> None:
    tree = {
        "$let": {"a": {"$method": ["abcdefghijk", "repeat", 1]}},
        "$return": [1, {"$op": ["+", {"$ref": "a"}, {"$ref": "a"}]}],
    }
    out = SMALL.run(tree)
    assert out.error is not None and out.error.code == "limit_exceeded"
    assert out.error.path == "program.$return[1]"
    assert "22 characters" in (out.message or "")


def test_plus_of_an_asynchronous_operand() -> None:
    out = ASYNC.run("return sleep_echo({value: s}) + s + 'x';", lang="plan", context=CONTEXT)
    assert out.error is not None and out.error.code == "limit_exceeded", out.message
    ok = ASYNC.run("return sleep_echo({value: s}) + s;", lang="plan", context=CONTEXT)
    assert ok.value == CONTEXT["s"] * 2


def _default(program: str) -> Outcome:
    return DEFAULT.run(program, lang="plan")


@pytest.mark.parametrize(
    ("made", "fits", "too_long"),
    [
        (
            "+",
            "a = 'x'.repeat(500000); return (a + a).length;",
            "a = 'x'.repeat(500000); return a + a + 'x';",
        ),
        ("repeat", "return 'x'.repeat(1000000).length;", "return 'x'.repeat(1000001);"),
        ("padEnd", "return 'x'.padEnd(1000000).length;", "return 'x'.padEnd(1000001);"),
        (
            "join",
            "a = 'x'.repeat(500000); return [a, a].join('').length;",
            "a = 'x'.repeat(500000); return [a, a, ''].join('-');",
        ),
        (
            "concat",
            "a = 'x'.repeat(500000); return a.concat(a).length;",
            "a = 'x'.repeat(500000); return a.concat(a, 'y');",
        ),
        (
            "template",
            "a = 'x'.repeat(500000); return `${a}${a}`.length;",
            "a = 'x'.repeat(500000); return `${a}${a}.`;",
        ),
    ],
)
def test_the_default_allows_a_million_characters_and_not_one_more(
    made: str, fits: str, too_long: str
) -> None:
    ok = _default(fits)
    assert ok.status == "success" and ok.value == 1_000_000, (made, ok.message)
    out = _default(too_long)
    assert out.error is not None and out.error.code == "limit_exceeded", (made, out.message)
    assert out.error.details["limit"] == "max_string_length"


DOUBLINGS = [
    "{p} + {p}",
    "{p}.concat({p})",
    "[{p}, {p}].join('')",
    "{p}.repeat(2)",
    "{p}.padEnd({p}.length * 2)",
    "{p}.replaceAll('x', 'xx')",
    "JSON.stringify([{p}, {p}])",
    "`${{{p}}}${{{p}}}`",
]


@pytest.mark.parametrize("step", DOUBLINGS)
def test_doubling_a_text_alias_after_alias_stops_at_the_limit(step: str) -> None:
    """60 aliases, each twice the one before: the run stops at the first one over the limit
    (2**20 > 1,000,000: the 21st), before building it, in well under a second of CPU."""
    lines = ["a0 = 'x';", *(f"a{i} = {step.format(p=f'a{i - 1}')};" for i in range(1, 60))]
    program = "\n".join([*lines, "return a59.length;"])
    started = time.process_time()
    out = _default(program)
    spent = time.process_time() - started
    assert out.error is not None and out.error.code == "limit_exceeded", out.message
    assert out.error.details["limit"] == "max_string_length"
    line = int((out.message or "").split(",")[0].removeprefix("line "))
    assert line <= 22, out.message  # (JSON.stringify's quotes and brackets: a little sooner)
    assert spent < 5.0, spent  # generous: the work is a few million characters in all


def test_a_host_limit_above_the_default_is_honoured_too() -> None:
    big = Runtime(load_entry_points=False, limits=Limits(max_string_length=3_000_000))
    out = big.run("a = 'x'.repeat(1500000); return (a + a).length;", lang="plan")
    assert out.value == 3_000_000, out.message
    out = big.run("a = 'x'.repeat(1500000); return a + a + 'x';", lang="plan")
    assert out.error is not None and out.error.details["limit"] == "max_string_length"


def test_a_failed_text_is_never_built() -> None:
    """`repeat` of a huge count fails at once (the text is measured before it exists)."""
    started = time.process_time()
    for program in (
        "return 'x'.repeat(1e15);",
        "return 'x'.padStart(1e15);",
        "return 'abc'.repeat(2 ** 40).length;",
    ):
        out = _default(program)
        assert out.error is not None and out.error.code == "limit_exceeded", out.message
    assert time.process_time() - started < 2.0


def test_results_are_unchanged_within_the_limit() -> None:
    values: dict[str, Any] = {
        "return 'ab'.repeat(3) + '!';": "ababab!",
        "return ['a', 1, true].join('-');": "a-1-true",
        "return 'x'.padStart(3, 'ab');": "abx",
        "return 'a-b-a'.replaceAll('a', 'cc');": "cc-b-cc",
        "return 'a'.concat(1, null);": "a1null",
        "return JSON.stringify({a: [1, 'x']});": '{"a":[1,"x"]}',
    }
    for program, value in values.items():
        assert SMALL.run(program, lang="plan").value == value, program


#: (one character too long, one that fits): expressions over `x`, for Node and for dialectic
NODE_PAIRS = [
    ("x.s + x.s + '!'", "x.s + x.s"),
    ("x.s.repeat(3)", "x.s.repeat(2)"),
    ("x.s.padStart(21, '-')", "x.s.padStart(20, '-')"),
    ("[x.s, x.s, '!'].join('')", "[x.s, x.s].join('')"),
    ("x.s.concat(x.s, 1)", "x.s.concat(x.s.slice(1), 1)"),
    ("(x.s + x.s).replaceAll('a', 'aa')", "(x.s + x.s.slice(1)).replaceAll('a', 'aa')"),
    ("JSON.stringify(x.s + x.s.slice(1))", "JSON.stringify(x.s + x.s.slice(2))"),
    ("`${x.s}${x.s}!`", "`${x.s}${x.s}`"),
]


def test_a_text_over_the_limit_is_a_deliberate_difference_from_node() -> None:
    """Node makes the longer text; dialectic gives Node's value up to the limit and
    `limit_exceeded` beyond it (SPEC 10, the table of deliberate differences)."""
    x = {"s": "abcdefghij"}
    programs = [p for pair in NODE_PAIRS for p in pair]
    answers = dict(zip(programs, node_values(programs, x), strict=True))
    for too_long, fits in NODE_PAIRS:
        ok = SMALL.run(f"return {fits};", lang="plan", context={"x": x}, strict=True)
        assert ok.status == "success" and ok.value == answers[fits]["ok"], (fits, ok.message)
        assert len(ok.value) == LIMIT
        node = answers[too_long]["ok"]  # Node makes it ...
        assert isinstance(node, str) and len(node) > LIMIT, (too_long, node)
        out = SMALL.run(f"return {too_long};", lang="plan", context={"x": x}, strict=True)
        assert out.error is not None and out.error.code == "limit_exceeded", out.message


def test_the_text_of_a_registered_value_is_measured_too() -> None:
    """`String(p)` and `'' + p` write a registered value's text (here `(30, 40)`, 8 characters):
    measured against the limit as it is made."""
    rt = Runtime(
        plugins=[dialectic.testing], load_entry_points=False, limits=Limits(max_string_length=6)
    )
    assert rt.run("p = point(3, 4);\nreturn String(p);", lang="plan").value == "(3, 4)"
    for made, program in (("method", "String(p)"), ("operator", "'' + p"), ("operator", "p + ''")):
        out = rt.run(f"p = point(30, 40);\nreturn {program};", lang="plan")
        assert out.error is not None and out.error.code == "limit_exceeded", out.message
        assert out.error.details[made] in ("String", "+"), out.error.details
        assert "8 characters" in (out.message or "")
