"""A key written twice in one object of a Dialect JSON program is refused (SPEC 9), as Plan
refuses it in an object literal and Plan2 in a mapping: a JSON reader keeps the last value, and
the first (an alias, an argument) would be dropped without a word."""

from __future__ import annotations

import orjson
import pytest

from dialectic import Runtime
from dialectic.frontends.base import SourceError
from dialectic.frontends.dialect_json import parse_json
from dialectic.frontends.duplicates import duplicate_key


@pytest.fixture(scope="module")
def rt() -> Runtime:
    return Runtime(load_entry_points=False)


@pytest.mark.parametrize(
    ("text", "key", "line", "column"),
    [
        ('{"$let": {"a": 1, "a": 2}, "$return": {"$ref": "a"}}', "a", 1, 19),
        ('{"upper": {"text": "x", "text": "y"}}', "text", 1, 25),
        # a value with colons dropped with the duplicate (more colons than the tree keeps)
        ('{"$let": {"u": "http://a:b", "a": {"upper": "x:y"},\n "a": 2}, "$return": 1}', "a", 2, 2),
        # the same key in other objects is no duplicate; the one object's second writing is
        ('[{"k": 1}, {"k": 2, "j": {"k": 3, "k": 4}}]', "k", 1, 35),
        # a colon written as an escape in the dropped value and the kept one
        ('{"a": "\\u003a", "a": ":"}', "a", 1, 17),
        ('{"k\\\\": 1, "k\\\\": 2}', "k\\", 1, 12),
        ('{"é": 1, "é": 2}', "é", 1, 10),
    ],
)
def test_a_key_written_twice_is_found_where_it_is_written_again(
    text: str, key: str, line: int, column: int
) -> None:
    problem = duplicate_key(text, orjson.loads(text))
    assert problem is not None
    assert f"duplicate key `{key}` in one object" in problem.message
    assert (problem.line, problem.column) == (line, column)
    assert problem.hint is not None and "write each key once" in problem.hint


@pytest.mark.parametrize(
    "text",
    [
        '{"$let": {"u": "http://x:80/a", "t": "10:30"}, "$return": {"$ref": "u"}}',
        '{"a": "\\u003a\\u003A", "b": {"c": ":::"}}',
        '{"k\\\\": 1, "k\\"": 2, "\\":": 3}',
        '[":", {"a": ":"}, {"a": ":"}]',
        "[1, 2, 3]",
        '"a:b"',
        "{}",
    ],
)
def test_colons_in_strings_and_repeated_keys_in_other_objects_are_no_duplicates(
    text: str,
) -> None:
    assert duplicate_key(text, orjson.loads(text)) is None


def test_the_run_fails_in_both_modes_and_never_runs_either_value(rt: Runtime) -> None:
    text = '{"$let": {"r": {"upper": "first"}, "r": {"upper": "second"}}, "$return": {"$ref": "r"}}'
    for strict in (True, False):
        out = rt.run(text, strict=strict)
        assert out.status == "failure" and out.error is not None
        assert out.error.code == "syntax_error", out.message
        assert "duplicate key `r`" in (out.message or "") and "line 1, column 36" in (
            out.message or ""
        )


def test_a_fenced_program_reports_the_reply_s_line() -> None:
    source = 'Here it is:\n\n```json\n{"upper":\n  {"text": "a", "text": "b"}}\n```\n'
    with pytest.raises(SourceError) as info:
        parse_json(source)
    problem = info.value.problems[0]
    assert "duplicate key `text`" in problem.message and problem.line == 5


def test_the_check_is_linear_in_the_program() -> None:
    """10,000 keys with colons in their values (the slow path) and without: each read once."""
    plain = "{" + ", ".join(f'"k{i}": {i}' for i in range(10_000)) + "}"
    assert duplicate_key(plain, orjson.loads(plain)) is None
    timed = "{" + ", ".join(f'"k{i}": "{i}:00"' for i in range(10_000)) + ', "k5": 1}'
    problem = duplicate_key(timed, orjson.loads(timed))
    assert problem is not None and "`k5`" in problem.message and problem.line == 1


def test_an_openai_arguments_string_with_a_key_twice_is_refused(rt: Runtime) -> None:
    call = {
        "type": "function",
        "function": {"name": "upper", "arguments": '{"text": "a", "text": "b"}'},
    }
    out = rt.run(call)
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "invalid_program"
    assert "`arguments` is a JSON string with duplicate key `text`" in (out.message or "")
    assert "line 1, column 15 of the string" in (out.message or "")
    fine = {"type": "function", "function": {"name": "upper", "arguments": '{"text": "a:b"}'}}
    assert rt.run(fine).value == "A:B"


@pytest.mark.parametrize(
    ("text", "key", "line", "column"),
    [
        # a comment: the text is read by the repairs, whose scan checks each object's keys
        ('{"$let": {"a": {"upper": "x"}, // first\n "a": 2}, "$return": {"$ref": "a"}}', "a", 2, 2),
        # unquoted and single-quoted keys are the same keys as double-quoted ones
        ("{upper: {text: 'x', text: 'y'}}", "text", 1, 21),
        ("{'upper': {'text': 'x', \"text\": 'y'}} // c", "text", 1, 25),
        ("{upper: {'t\\'': 1, \"t'\": 2}}", "t'", 1, 20),
        # the second writing comes before the first repair: still refused, there
        ('{"$let": {"a": 1, "a": 2}, "$return": 1, /* c */ }', "a", 1, 19),
        # in a fenced reply, the reply's line
        ('Here:\n```json\n{upper: {text: "a",\n  text: "b"}} // c\n```\n', "text", 4, 3),
    ],
)
def test_a_key_twice_in_a_repaired_text_is_refused_in_both_modes(
    rt: Runtime, text: str, key: str, line: int, column: int
) -> None:
    for strict in (False, True) if "```" not in text else (False,):  # (strict: no fences)
        with pytest.raises(SourceError) as info:
            parse_json(text, strict=strict)
        found = [p for p in info.value.problems if "duplicate key" in p.message]
        assert len(found) == 1, info.value.problems
        problem = found[0]
        assert problem.message.startswith(f"duplicate key `{key}` in one object")
        assert (problem.line, problem.column) == (line, column)
        assert problem.hint is not None and "write each key once" in problem.hint
    out = rt.run(text)
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "syntax_error" and "invalid JSON" not in (out.message or "")


@pytest.mark.parametrize(
    "text",
    [
        "[{k: 1}, {k: 2, j: {k: 3}}] // the same key in other objects",
        "{a: {b: 1}, c: {b: 2, a: 3}} /* nested objects have keys of their own */",
    ],
)
def test_repaired_texts_with_repeated_keys_in_other_objects_are_read(text: str) -> None:
    assert parse_json(text).tree is not None


def test_a_repaired_openai_arguments_string_with_a_key_twice_is_refused(rt: Runtime) -> None:
    arguments = "{text: 'a', // first\n text: 'b'}"
    call = {"type": "function", "function": {"name": "upper", "arguments": arguments}}
    out = rt.run(call)
    assert out.status == "failure" and out.error is not None
    assert "`arguments` is a JSON string with line 2, column 2 of the string: duplicate key" in (
        out.message or ""
    )
    fine = {"type": "function", "function": {"name": "upper", "arguments": "{text: 'a:b'} // c"}}
    assert rt.run(fine).value == "A:B"


def test_the_repairs_check_is_linear_in_the_program() -> None:
    """10,000 unquoted keys, the last written twice: found, each key read once."""
    text = "{" + ", ".join(f"k{i}: {i}" for i in range(10_000)) + ", k9999: 0}"
    with pytest.raises(SourceError) as info:
        parse_json(text)
    assert "duplicate key `k9999`" in info.value.problems[0].message
