"""Odd values a hostile program (or its context) can carry: huge numbers, NaN, lone surrogates,
NUL bytes, invalid UTF-8, BOMs, CRLF, keys that look like numbers. Every run ends cleanly."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from dialectic import Outcome, Runtime

Clean = Callable[..., Outcome]

BIG = 10**400  # 401 digits: a valid JSON integer, beyond any float
HUGE = 10**5000  # beyond Python's default int <-> str digit limit (4300)


@pytest.mark.parametrize(
    "program",
    [
        BIG,
        -BIG,
        [BIG, 1],
        {"echo": BIG},
        {"double": BIG},
        {"add": [BIG, 1]},
        {"count": BIG},
        {"keys": {"$object": {"a": BIG}}},
        {"$get": [[1], BIG]},
        {"$get": [[1], -BIG]},
        {"$get": [{"a": 1, "b": 2}, BIG]},
        {"sqrt": BIG},
        {"convert": {"value": BIG, "type": "string"}},
        {"convert": {"value": BIG, "type": "boolean"}},
        float("nan"),
        float("inf"),
        [float("-inf"), float("nan")],
        {"add": [1e308, 1e308]},
        {"asyncAdd": [1e308, 1e308]},
        {"negate": float("nan")},
        {"double": float("inf")},
        {"$template": [float("nan"), float("inf")]},
        {"str": float("nan")},
        {"$get": [[1, 2], float("nan")]},
        {"$get": [[1, 2], float("inf")]},
        {"$get": [[1, 2], 1e300]},
        {"$get": [[1, 2], -0.0]},
        {"$get": ["abc", "-1"]},
        {"$get": ["abc", " 1"]},
        {"$get": ["abc", "1.0"]},
        {"$get": ["abc", "\u0661"]},  # ARABIC-INDIC DIGIT ONE
    ],
    ids=repr,
)
def test_big_and_non_finite_numbers(clean: Clean, program: Any) -> None:
    clean(program)


@pytest.mark.parametrize(
    "program",
    [
        {"$template": [BIG]},
        {"$template": ["n=", {"$ref": "x"}]},
        {"greet": BIG},
        {"str": BIG},
        {"join": [[BIG, -BIG], ","]},
    ],
    ids=repr,
)
def test_big_int_stringification_fails_clearly(clean: Clean, program: Any) -> None:
    """Beyond the double range JavaScript writes `Infinity`, not the data's number: a clear
    failure that shows the integer by its size (SPEC 1.7, "Integers beyond 2**53")."""
    out = clean(program, context={"x": BIG})
    assert out.status == "failure", out.value
    assert out.error is not None and out.error.code in ("expression_error", "type_mismatch")
    assert "an integer of about 401 digits" in (out.message or "")


@pytest.mark.parametrize("value", [BIG, 2**64], ids=["10**400", "2**64"])
def test_big_int_to_boolean(clean: Clean, value: int) -> None:
    clean({"negate": value})


@pytest.mark.parametrize("key", ["\u00b2", "--1", "9" * 5000, "-" + "9" * 5000], ids=repr)
def test_digit_like_string_keys(clean: Clean, key: str) -> None:
    clean({"$get": [[1, 2], key]})
    clean({"$get": ["abc", {"concat": ["", key]}]})


def test_huge_integer_key(clean: Clean) -> None:
    clean({"$get": [[1], HUGE]})


@pytest.mark.parametrize(
    "program", [HUGE, {"$ref": "x"}, {"echo": HUGE}], ids=["lit", "ctx", "echo"]
)
def test_huge_integer_result(clean: Clean, program: Any) -> None:
    clean(program, context={"x": HUGE})


def test_huge_integer_in_a_list_is_invalid_value(clean: Clean) -> None:
    out = clean([HUGE])
    assert out.status == "failure"


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1e309, "b": 2}',
        "[1e309]",
        "[-1e309]",
        "[" + "9" * 400 + "]",
        "[" + "9" * 5000 + "]",
        "[NaN]",
        "[Infinity]",
        "[-Infinity]",
        '["\\ud800"]',
        '["\\udc00\\ud800"]',
        '{"greet": "\\u0000"}',
        '{"a": 1, "a": 2}',
        "[1,]",
        "[01]",
        "{'a': 1}",
        "\ufeff[1]",
        "[1,\r\n2]\r\n",
        "[1]\x00",
        "\x00",
        "",
        " \t\r\n",
        "```json\n[1]\n```",
        "```json\n[1]",
        "[" * 1000,
        "]" * 1000,
        '"' + "a" * 10000,
    ],
    ids=lambda t: repr(t[:40]),
)
def test_odd_json_text(clean: Clean, text: str) -> None:
    clean(text)
    clean(text, lang="json")
    clean(text.encode("utf-8", "surrogatepass"), lang="json")


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xfe[\x001\x00]\x00",
        b'["\xff"]',
        b'["\xc3"]',
        b'["\xed\xa0\x80"]',  # an encoded surrogate
        b"\xef\xbb\xbf[1, 2]",
        b"\xef\xbb\xbfreturn 1;",
        b"\xef\xbb\xbfresult: 1\n",
        b"return '\xff';",
        b"result: \xff\n",
        b"\x00\x00\x00",
    ],
    ids=repr,
)
@pytest.mark.parametrize("lang", [None, "json", "plan", "plan2"])
def test_odd_bytes(clean: Clean, data: bytes, lang: str | None) -> None:
    clean(data, lang=lang)


@pytest.mark.parametrize(
    ("source", "lang"),
    [
        ("return '\\uD800';", "plan"),
        ("return '\\u{D800}';", "plan"),
        ("return '\\uDE00\\uD83D';", "plan"),
        ("return `\\uD83D${''}\\uDE00`;", "plan"),
        ("return `\\uD83D${answer}`;", "plan"),
        ("return concat('\\uD83D', '\\uDE00');", "plan"),
        ("return 'a\\0b';", "plan"),
        ("return 'a\u0000b';", "plan"),
        ("return 'a';\r\n", "plan"),
        ("x = 1;\r\nreturn `${x}\r\n`;\r\n", "plan"),
        ("\ufeffreturn 1;", "plan"),
        ('result: "\\ud800"\n', "plan2"),
        ('result: "\\uDE00\\uD83D"\n', "plan2"),
        ("result: \"${concat('\\uD83D', 'x')}\"\n", "plan2"),
        ('result: "a\\0b"\n', "plan2"),
        ("result: a\u0000b\n", "plan2"),
        ("result: 1\r\n", "plan2"),
        ("\ufeffresult: 1\n", "plan2"),
        ("result: \x85\n", "plan2"),
    ],
    ids=repr,
)
def test_surrogates_nul_crlf_bom_in_text(clean: Clean, source: str, lang: str) -> None:
    clean(source, lang=lang)


@pytest.mark.parametrize(
    ("source", "lang"),
    [
        ("return '\ud800';", "plan"),
        ("return '\ud800';", None),
        ("result: '\ud800'\n", "plan2"),
        ('["\ud800"]', "json"),
        ('["\ud800"]', None),
        ("\ud800", None),
        ("return 1; // \udc00", "plan"),
    ],
    ids=repr,
)
def test_raw_lone_surrogate_in_program_text(clean: Clean, source: str, lang: str | None) -> None:
    clean(source, lang=lang)


@pytest.mark.parametrize(
    "program",
    [
        ["\ud800", 1],
        {"$get": [{"$quote": {"\ud800": 1, "b": 2}}, "\ud800"]},
        {"count": ["\ud800"]},
    ],
    ids=repr,
)
def test_lone_surrogates_in_parsed_programs(clean: Clean, program: Any) -> None:
    clean(program)


@pytest.mark.parametrize(
    "program",
    ["\ud800" * 30, {"concat": ["\ud800" * 20, "a" * 20]}, {"$ref": "x"}],
    ids=["literal", "concat", "context"],
)
def test_lone_surrogate_result_with_small_output_limit(
    make_rt: Callable[..., Runtime], clean: Clean, program: Any
) -> None:
    clean(program, runtime=make_rt(max_output_bytes=100), context={"x": "\ud800" * 30})


@pytest.mark.parametrize(
    "program",
    [{"concat": ["\ud800", "a"]}, {"$template": ["\udc00", 1]}, {"greet": "\ud800"}],
    ids=repr,
)
def test_lone_surrogate_string_result_is_not_success(clean: Clean, program: Any) -> None:
    clean(program)


@pytest.mark.parametrize(
    "program",
    [{"$ref": "x"}, {"echo": {"$ref": "x"}}, [{"$ref": "x"}], {"$template": [{"$ref": "x"}]}],
    ids=str,
)
@pytest.mark.parametrize("value", [{1: 2}, {"a": {None: 1}, "b": 2}], ids=repr)
def test_context_dict_with_non_string_keys(clean: Clean, program: Any, value: Any) -> None:
    clean(program, context={"x": value})


@pytest.mark.parametrize(
    "context",
    [
        {"x": {(1,): 2}},
        {"x": float("nan")},
        {"x": [float("inf")]},
        {"x": "a" * 6_000_000},
        {"x": b"\xff"},
    ],
    ids=repr,
)
@pytest.mark.parametrize(
    "program",
    [{"$ref": "x"}, {"$template": [{"$ref": "x"}]}, {"echo": {"$ref": "x"}}, [{"$ref": "x"}]],
    ids=str,
)
def test_odd_context_values(clean: Clean, context: dict[str, Any], program: Any) -> None:
    clean(program, context=context)


def test_cyclic_context_value(clean: Clean) -> None:
    loop: list[Any] = []
    loop.append(loop)
    for program in (
        {"$ref": "x"},
        {"$template": [{"$ref": "x"}]},
        {"str": {"$ref": "x"}},
        {"count": {"$ref": "x"}},
        {"$get": [{"$ref": "x"}, 0, 0, 0]},
    ):
        clean(program, context={"x": loop})


@pytest.mark.parametrize(
    "program",
    [
        None,
        object(),
        (1, 2),
        {1, 2},
        {1: 2},
        {"a": 1, 2: 3},
        [b"x"],
        {"$quote": object()},
        {"$quote": {1: 2}},
        bytearray(b"[1]"),
        memoryview(b"[1]"),
        1j,
        ...,
    ],
    ids=lambda v: re.sub(" at 0x[0-9a-f]+", "", repr(v)),
)
def test_non_json_python_programs(clean: Clean, program: Any) -> None:
    clean(program)


@pytest.mark.parametrize(
    ("source", "lang"),
    [
        ("return 1" + "0" * 400 + ";", "plan"),
        ("return 1" + "0" * 5000 + ";", "plan"),
        ("return 0x" + "F" * 300 + ";", "plan"),
        ("return 0b" + "1" * 2000 + ";", "plan"),
        ("return 0o" + "7" * 2000 + ";", "plan"),
        ("return {0x" + "F" * 300 + ": 1, b: 2};", "plan"),
        ("return x[1" + "0" * 5000 + "];", "plan"),
        ("result: ${1" + "0" * 5000 + "}\n", "plan2"),
        ("result: 1" + "0" * 5000 + "\n", "plan2"),
    ],
    ids=lambda v: repr(v)[:24],
)
def test_huge_integer_literals_in_text(clean: Clean, source: str, lang: str) -> None:
    out = clean(source, lang=lang, context={"x": [1]})
    assert out.status == "failure"


@pytest.mark.parametrize(
    ("source", "lang"),
    [
        ("return 1e" + "9" * 5000 + ";", "plan"),
        ("return 1" + "0" * 5000 + ".5;", "plan"),
        ("return 0." + "0" * 5000 + "1;", "plan"),
        ("return '\\u{" + "0" * 5000 + "41}';", "plan"),
        ("return '\\u{FFFFFFFFFFFFFFFFFFFFFFF}';", "plan"),
        ("result: 1" + "0" * 400 + "\n", "plan2"),
        ("result: .nan\n", "plan2"),
    ],
    ids=lambda v: repr(v)[:24],
)
def test_number_edge_cases_in_text(clean: Clean, source: str, lang: str) -> None:
    clean(source, lang=lang)


@pytest.mark.parametrize("scalar", ["1e999", "-1e999"])
def test_plan2_overflowing_number(clean: Clean, scalar: str) -> None:
    out = clean(f"result: {scalar}\n", lang="plan2")
    assert out.status == "failure"


@pytest.mark.parametrize("type_name", ["python:object", "python:Secretive", 5])
def test_convert_to_internal_type_name(clean: Clean, type_name: Any) -> None:
    out = clean({"convert": {"value": 1, "type": type_name}})
    assert out.error is not None and out.error.code != "function_error", out.message


@pytest.mark.parametrize(
    ("program", "lang"),
    [
        ({"$undefined": None}, None),
        ({"$unwrap": {"$undefined": None}}, None),
        ("return undefined;", "plan"),
    ],
    ids=["json", "unwrap", "plan"],
)
def test_undefined_result_is_none(clean: Clean, program: Any, lang: str | None) -> None:
    out = clean(program, lang=lang)
    assert out.status == "success" and out.value is None, repr(out.value)


def test_the_output_limit_counts_bytes_of_json_not_a_guess() -> None:
    """A result is measured as the JSON it is (one walk, then the text's length): 400 small
    integers are 801 bytes of JSON, within a 1,000-byte limit (the walk once counted 20 bytes
    an integer and refused them); 600 are 1,201 bytes, and refused."""
    rt = Runtime(load_entry_points=False, limits={"max_output_bytes": 1000})
    fits = rt.run({"$return": {"$quote": [7] * 400}})
    assert fits.status == "success" and fits.value == [7] * 400
    over = rt.run({"$return": {"$quote": [7] * 600}})
    assert over.error is not None and over.error.code == "limit_exceeded"
    assert "max_output_bytes" in (over.message or "")
