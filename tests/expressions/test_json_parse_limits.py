"""``JSON.parse`` where the JSON reader stops and JavaScript does not throw (SPEC 1.8): a number
beyond the largest double reads as Infinity, as Node reads it; a text nested past the reader's
1,024 levels and a lone surrogate escape are refused, each saying what is wrong and what to do
(never "not JSON" for a text that is JSON); a text that is not JSON still throws a catchable
``SyntaxError``."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

#: texts with numbers past a double, each answered as Node answers it
OVERFLOWS = [
    "const xs = JSON.parse('[1e400, -1e400, 5e999, 2e308]');\n"
    "return xs.map(x => [x > 0, String(x), Number.isFinite(x)]);",
    "const huge = JSON.parse('1' + '0'.repeat(400));\nreturn [huge === Infinity, `${huge}`];",
    "const low = JSON.parse('-1' + '0'.repeat(5000));\nreturn [low === -Infinity, low < 0];",
    "const o = JSON.parse("
    '\'{"a": 1e999, "b": [1, 2.5, 12345678901234567890123], "c": "x"}\');\n'
    "return [o.a === Infinity, o.b, o.c, JSON.stringify(o)];",
    "const xs = JSON.parse('[1e999, 18446744073709551615, -9007199254740991, 0.1]');\n"
    "return [xs[1] > 1e19, xs[2], xs[3], xs.length];",
    "const xs = JSON.parse('[1e999,' + '['.repeat(900) + ']'.repeat(900) + ']');\n"
    "return xs.length;",
    "const m = JSON.parse('{\"max\": 1e500}').max;\nreturn Math.min(m, 7);",
]


def test_numbers_past_a_double_read_as_infinity_as_in_node() -> None:
    runs_as_in_node(OVERFLOWS, RT)


@pytest.mark.parametrize(
    ("program", "says", "hint"),
    [
        (
            "return JSON.parse('['.repeat(2000) + ']'.repeat(2000)).length;",
            "nested deeper than 1,024 levels (at line 1 column 1026",
            "nest it less",
        ),
        (
            "return JSON.parse('[1e999,' + '['.repeat(1100) + ']'.repeat(1100) + ']').length;",
            "nested deeper than 1,024 levels",
            "nest it less",
        ),
        (
            "return JSON.parse('[1e999,' + '['.repeat(50000) + ']'.repeat(50000) + ']').length;",
            "nested deeper than 1,024 levels",
            "nest it less",
        ),
        (
            "return JSON.parse('[\"\\\\ud800\"]');",
            "lone UTF-16 surrogate escape (at line 1 column 3",
            "a high surrogate then a low one",
        ),
        (
            "return JSON.parse('[1e999, \"\\\\udc00 x\"]');",
            "lone UTF-16 surrogate escape",
            "a high surrogate then a low one",
        ),
    ],
)
def test_json_that_javascript_reads_and_values_cannot_hold_is_refused_clearly(
    program: str, says: str, hint: str
) -> None:
    out = RT.run(program, lang="plan")
    assert out.status == "failure", out.value
    assert out.error is not None and out.error.code == "expression_error", out.message
    assert says in (out.message or "") and "not JSON" not in (out.message or "")
    assert out.error.hint is not None and hint in out.error.hint


def test_refusals_are_not_caught_as_javascript_errors() -> None:
    """Node reads these texts: a ``catch`` answering its fallback would be a wrong answer."""
    program = "try { return JSON.parse('[\"\\\\ud800\"]').length; } catch (e) { return 'bad'; }"
    out = RT.run(program, lang="plan")
    assert out.status == "failure" and "surrogate" in (out.message or "")


@pytest.mark.parametrize(
    "text",
    ["[1e999, NaN]", "[1e999, Infinity]", "[1e999,]", "[1e999] x", '{"a": 1e999, b: 1}'],
)
def test_not_json_after_an_overflowing_number_throws_as_in_javascript(text: str) -> None:
    program = f"try {{ return JSON.parse('{text}'); }} catch (e) {{ return e.name; }}"
    out = RT.run(program, lang="plan")
    assert (out.status, out.value) == ("success", "SyntaxError"), out.message
