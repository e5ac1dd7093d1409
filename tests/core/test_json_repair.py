"""JSON as models write it: comments, trailing commas, single quotes, unquoted keys and Python's
True/False/None are repaired in lenient mode (one warning per kind, with line:column) and refused
in strict mode with what to write instead; nothing else is repaired, and nothing is completed
(SPEC 9, "Envelopes and repairs")."""

from __future__ import annotations

import gc
import re
import time

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dialectic.testing
from dialectic import Runtime
from dialectic.frontends import to_tree
from dialectic.frontends.base import SourceError
from dialectic.frontends.dialect_json import parse_json
from dialectic.frontends.repair import scan


@pytest.fixture(scope="module")
def rt() -> Runtime:
    return Runtime(plugins=[dialectic.testing], load_entry_points=False)


# a program as a model writes it: every repair kind, some more than once
MODEL_JSON = """{
  // add the two numbers
  'add': {a: 1, /* the first */ b: 2,},
}"""


def test_a_model_written_program_runs_with_one_warning_per_repair_kind(rt: Runtime) -> None:
    out = rt.run(MODEL_JSON)
    assert (out.status, out.value) == ("success", 3)
    assert out.warnings == [
        "line 2, column 3: removed 2 comments (JSON has no comments), the first here",
        "line 3, column 3: read 1 single-quoted string (JSON strings are double-quoted), the first "
        "here",
        "line 3, column 11: read 2 unquoted object keys (JSON keys are quoted strings), the first "
        "here (`a`)",
        "line 3, column 37: removed 2 trailing commas before } or ] (JSON allows none), the "
        "first here",
    ]


@pytest.mark.parametrize(
    ("text", "value", "warning"),
    [
        ('{"echo": 1} // done', 1, "line 1, column 13: removed 1 comment"),
        ('{"echo": /* x */ 1}', 1, "line 1, column 10: removed 1 comment"),
        ('{"count": {"items": [[1, 2,],]}}', 1, "line 1, column 27: removed 2 trailing commas"),
        ("{'echo': 'it\\'s'}", "it's", "line 1, column 2: read 2 single-quoted strings"),
        ('{"echo": \'say "hi"\'}', 'say "hi"', "line 1, column 10: read 1 single-quoted string"),
        ('{echo: "x"}', "x", "line 1, column 2: read 1 unquoted object key (JSON keys"),
        (
            '{"echo": {"value": [True, False, None]}}',
            [True, False, None],
            "line 1, column 21: read 3 Python",
        ),
        (
            '{"echo": {"value": {"$quote": {True: None}}}}',
            {"True": None},
            "line 1, column 32: read 1 unquoted object key",
        ),
        ('{"echo": "http://x.org/*y*/"}', None, None),  # inside strings: nothing to repair
    ],
)
def test_each_repair_kind(rt: Runtime, text: str, value: object, warning: str | None) -> None:
    out = rt.run(text)
    assert out.status == "success", out.message
    if warning is None:
        assert out.value == "http://x.org/*y*/" and out.warnings == []
        return
    assert out.value == value
    assert any(w.startswith(warning) for w in out.warnings), out.warnings


def test_the_value_is_what_the_text_says(rt: Runtime) -> None:
    text = "{'echo': {'k': 'v', n: 1.5e2, neg: -0, s: '\\u00e9\\n', l: [None,],}}"
    assert rt.run(text).value == {"k": "v", "n": 150.0, "neg": 0, "s": "é\n", "l": [None]}


@pytest.mark.parametrize(
    ("text", "line", "column", "message", "instead"),
    [
        ('{"echo": 1} // done', 1, 13, "a comment; JSON has no comments", "Remove the comment"),
        ('{"echo": [1,]}', 1, 12, "a trailing comma before `]`", "Remove the comma"),
        ("{'echo': 1}", 1, 2, "a single-quoted string 'echo'", "double quotes"),
        (
            "{echo: 1}",
            1,
            2,
            "the object key `echo` is not quoted",
            'Write the key as a string: "echo"',
        ),
        ('{"echo":\n  None}', 2, 3, "`None` is Python, not JSON", "Write `null`"),
    ],
)
def test_strict_mode_refuses_each_repair_saying_what_to_write(
    rt: Runtime, text: str, line: int, column: int, message: str, instead: str
) -> None:
    out = rt.run(text, strict=True)
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "syntax_error"
    assert (out.error.line, out.error.column) == (line, column)
    assert message in out.error.message
    assert out.error.hint is not None and instead in out.error.hint
    with pytest.raises(SourceError):
        parse_json(text, strict=True)


def test_strict_mode_lists_every_site() -> None:
    with pytest.raises(SourceError) as info:
        parse_json(MODEL_JSON, strict=True)
    assert info.value.count == 7
    assert [(p.line, p.column) for p in info.value.problems][:3] == [(2, 3), (3, 3), (3, 11)]


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        # truncated: never completed
        ("{'add': {a: 1, b: 2}", 1, 1, "this `{` is never closed"),
        ("[True, 1", 1, 1, "this `[` is never closed"),
        ("{'echo': 'unterminated", 1, 10, "this string is never closed"),
        ("{'echo': 1} /* open", 1, 13, "this comment is never closed"),
        # not one of the five repairs
        ("{echo: NaN}", 1, 8, "`NaN` is not a JSON value"),
        ("{echo: Infinity}", 1, 8, "`Infinity` is not a JSON value"),
        ("{echo: undefined}", 1, 8, "`undefined` is not a JSON value"),
        ("{echo: 0x10}", 1, 8, "`0x10` is not a JSON number"),
        ("{echo: +1}", 1, 8, "`+1` is not a JSON number"),
        ("{echo: .5}", 1, 8, "`.5` is not a JSON number"),
        ("{echo: 1.}", 1, 8, "`1.` is not a JSON number"),
        ("{echo: 01}", 1, 8, "`01` is not a JSON number"),
        ('{echo: "it\\\'s"}', 1, 11, "`\\'` is not a JSON escape"),
        ("{echo: 'a\tb'}", 1, 10, "must be escaped"),
        ("{echo: 1 add: 2}", 1, 10, "expected `,` or `}`"),
        ("{echo 1}", 1, 7, "expected `:` after the object key"),
        ("{echo: 1,,}", 1, 10, "unexpected `,`"),
        ("{echo: [1, 2}]}", 1, 13, "unexpected `}`"),
        ("{echo: 1} {echo: 2}", 1, 11, "after the end of the JSON value"),
        ("{echo: 1e400}", 1, 8, "`1e400` is too large a number"),
        ('{echo: "\\udc00"}', 1, 8, "half of a surrogate pair"),
        ('{echo: ["x\\ud800"]}', 1, 16, "half of a surrogate pair"),
    ],
)
def test_anything_else_fails_at_its_position(
    rt: Runtime, text: str, line: int, column: int, message: str
) -> None:
    out = rt.run(text)
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "syntax_error"
    assert (out.error.line, out.error.column) == (line, column), out.message
    assert message in out.error.message
    assert out.error.hint  # what to write instead
    assert "Traceback" not in (out.message or "")


def test_an_error_lists_the_repairs_the_text_also_needs(rt: Runtime) -> None:
    out = rt.run("{'echo': [1,], x}")
    assert out.error is not None and out.error.hint is not None
    assert (out.error.line, out.error.column) == (1, 17)
    assert "single-quoted strings, trailing commas, unquoted object keys" in out.error.hint


def test_text_needing_no_repair_keeps_the_json_parsers_error(rt: Runtime) -> None:
    out = rt.run('{"echo": 1 "add": 2}')
    assert out.error is not None and out.error.message.startswith("invalid JSON: ")
    assert (out.error.line, out.error.column) == (1, 12)


def test_json_as_written_takes_no_detour(rt: Runtime) -> None:
    out = rt.run('{"echo": "// not a comment, \'not single\'"}')
    assert out.warnings == [] and out.value == "// not a comment, 'not single'"


def test_repairs_in_a_fenced_reply_keep_the_replys_lines(rt: Runtime) -> None:
    out = rt.run("Here you go:\n```json\n{'echo': 1,}\n```\nAnything else?")
    assert (out.status, out.value) == ("success", 1)
    assert any(w.startswith("line 3, column 2: read 1 single-quoted") for w in out.warnings)
    assert any(w.startswith("line 3, column 11: removed 1 trailing comma") for w in out.warnings)
    out = rt.run("```json\n{'echo': 1,}\n```")
    assert any(w.startswith("line 2, column 11: removed 1 trailing comma") for w in out.warnings)
    out = rt.run("```json\n{'echo': 1,}\n```", strict=True)  # strict: the fence first
    assert out.error is not None and (out.error.line, out.error.column) == (1, 1)
    assert "fence" in out.error.message
    out = rt.run("{'echo': 1,}", strict=True)
    assert out.error is not None and (out.error.line, out.error.column) == (1, 2)


def test_repairs_apply_to_bytes_and_detected_text(rt: Runtime) -> None:
    assert rt.run(b"{'echo': True}").value is True
    assert to_tree("[1, 2,]").tree == [1, 2]


def test_cost_is_linear_in_the_text() -> None:
    item = "{a: 'x', /* c */ b: [1, 2,], c: True},\n"

    def timed(n: int) -> float:
        text = "[" + item * n + "]"
        gc.disable()  # (a collection during one measurement is noise, not cost)
        try:
            start = time.thread_time()  # CPU time: immune to the machine's load
            front = parse_json(text)
            elapsed = time.thread_time() - start
        finally:
            gc.enable()
        assert len(front.tree) == n
        return elapsed

    timed(1000)  # warm up
    small = min(timed(2_000) for _ in range(2))
    large = min(timed(16_000) for _ in range(2))  # 8x the text (640 KB)
    assert large < 8 * small * 3  # linear (quadratic would be 64x), with room for noise


def test_deep_nesting_is_refused_not_a_crash(rt: Runtime) -> None:
    text = "[" * 2000 + "True" + "]" * 2000
    found = scan(text)
    assert found.error is not None and "nested too deeply" in found.error.message
    out = rt.run(text)
    assert out.status == "failure" and out.error is not None


def test_repaired_values_equal_orjson_on_json(rt: Runtime) -> None:
    # the same document with and without a repair reads to the same value
    doc = {"s": 'é \\ " \n \u2028', "n": [0, -1, 1.25, 1e-3, 12345678901234567890], "o": {}}
    text = orjson.dumps(doc).decode()
    repaired = parse_json(text[:-1] + ", // end\n}")
    assert repaired.tree == orjson.loads(text)
    assert repaired.warnings[0].startswith("line 1, column")


# -- properties ---------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,5}|[ -~]{0,6}", fullmatch=True),
            inner,
            max_size=4,
        )
    ),
    max_leaves=20,
)


def render(value: object, data: st.DataObject) -> str:
    """``value`` written as a model might: each repair chosen at random."""
    comment = data.draw(st.sampled_from(["", "", " /* c */", " // c\n"]))
    if value is None or isinstance(value, bool):
        python = data.draw(st.booleans())
        text = (
            {None: "None", True: "True", False: "False"}[value]
            if python
            else orjson.dumps(value).decode()
        )
    elif isinstance(value, str):
        if data.draw(st.booleans()):
            body = orjson.dumps(value).decode()[1:-1].replace('\\"', '"').replace("'", "\\'")
            text = f"'{body}'"
        else:
            text = orjson.dumps(value).decode()
    elif isinstance(value, list):
        items = [render(v, data) for v in value]
        trailing = "," if data.draw(st.booleans()) and items else ""
        text = "[" + ", ".join(items) + trailing + "]"
    elif isinstance(value, dict):
        members = []
        for k, v in value.items():
            bare = bool(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", k)) and data.draw(st.booleans())
            key = k if bare else orjson.dumps(k).decode()
            members.append(f"{key}: {render(v, data)}")
        trailing = "," if data.draw(st.booleans()) and members else ""
        text = "{" + ", ".join(members) + trailing + "}"
    else:
        text = orjson.dumps(value).decode()
    return text + comment


@settings(max_examples=300, deadline=None)
@given(st.data(), JSON_VALUES)
def test_repaired_text_reads_as_the_value_it_was_written_from(
    data: st.DataObject, value: object
) -> None:
    text = render(value, data) + "\n"
    front = parse_json(text)
    assert front.tree == orjson.loads(orjson.dumps(value))
    kinds = {w.split(": ", 1)[1].split(" ")[0] for w in front.warnings}
    assert len(front.warnings) == len(kinds) or len(front.warnings) <= 5  # one per kind


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="{}[],:'\"/*\\ \nabTrueNoFls01.-+x\t", max_size=40))
def test_any_text_is_a_value_or_a_located_error(text: str) -> None:
    for strict in (False, True):
        try:
            parse_json(text, strict=strict)
        except SourceError as exc:
            assert exc.problems and all(p.line >= 1 and p.column >= 1 for p in exc.problems)
