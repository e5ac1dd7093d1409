"""The lexer as the parser uses it (:func:`lex`: the fast paths, falling back to the precise
loop) gives exactly the tokens of the precise lexer (the reference): kinds, values, offsets and
the text between tokens, on the generated corpus and on hostile texts; huge and pathological
texts are lexed in time linear in their size (a quadratic cost would not finish)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dialectic.frontends.plan.lexer import _precise, lex


def _agree(text: str) -> None:
    out: Any = ([], [], [], [])
    _precise(text, 0, out)
    lexed = lex(text)
    assert lexed.kinds == out[0], text[:200]
    assert lexed.values == out[1], text[:200]
    assert lexed.offsets() == (out[2], out[3]), text[:200]
    for i in range(1, len(out[0])):
        assert lexed.gap(i) == text[out[3][i - 1] : out[2][i]], (text[:200], i)


HOSTILE = [
    "",
    " \n\t",
    "return 'unterminated;",
    'return "unterminated\nx;',
    "return `unterminated${a}",
    "return `a${b",
    "return `a${`b${c}`}",
    "return /* unterminated",
    "return a; /* a */ /* unterminated",
    "return a; //",
    "return 'é ☃ \U0001f600' + `\u2028\u2029` + \"\\u{1F600}\";",
    "return é + ☃;",
    "x = 1;\r\ny = 2;\rreturn [x,\u2028y,\u2029z];",
    "return\u00a0a\ufeff+\u3000b;",
    "return 'a\\\r\nb' + `c\\\r\nd` + 'e\\\u2028f';",
    "return `a\r\nb\rc`;",
    "return [0x1F, 0o17, 0b101, 1_000, .5, 5., 1e+5, 1e, 0x, 1n];",
    "return a ?. b ?? c ... d => e ** f;",
    "return a === b !== c >>> d;",
    "return @ # ~ ^;",
    "return '\\x0' + '\\u{110000}' + `\\u{D800}`;",
    "return \\u0061;",
    "return `${'}'}${\"`\"}${`${'`'}`}`;",
    "return {a: `x${ {b: 1}.b }y`};",
    "return a\0b;",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_the_lexer_agrees_with_the_precise_one_on_hostile_texts(text: str) -> None:
    _agree(text)


def test_the_lexer_agrees_with_the_precise_one_on_generated_programs(
    plan_corpus: list[str],
) -> None:
    for text in plan_corpus:
        _agree(text)


ALPHABET = [
    *"ax0_$ \n\t(){}[],;:.=+-*<>!?'\"`\\/é\u2028\r",
    *["${", "}", "${a}", "f(b)", "1.5", "12", "..", "\r\n", "/*", "*/", "//", "return "],
]


def test_the_lexer_agrees_with_the_precise_one_on_random_texts() -> None:
    r = random.Random(5)
    for _ in range(3000):
        _agree("".join(r.choice(ALPHABET) for _ in range(r.randrange(1, 40))))


PATHOLOGICAL = [
    "(" * 100_000,
    "1" * 100_000,
    "a1" * 50_000 + "'",
    "1" * 100_000 + "a",
    "'" * 100_001,
    '"' * 100_000,
    "`" * 100_001,
    "`${" * 50_000,
    "${" * 50_000,
    "}" * 100_000,
    "/" * 100_000,
    "/*" * 50_000,
    "*/" * 50_000,
    "\\'" * 50_000,
    "\n" * 100_000,
    " " * 100_000,
    "+" * 100_000,
    ". " * 100_000,
]


@pytest.mark.parametrize("text", PATHOLOGICAL, ids=lambda t: f"{t[:4]!r}x{len(t)}")
def test_pathological_texts_stay_linear(text: str) -> None:
    _agree(text)


def test_a_megabyte_program() -> None:
    body = "x = f(a.b, [1, 2], {c: 'd'}, `e${g.h}i`); // note\n" * 22_000
    text = body + "return x;"
    assert len(text) > 1_000_000
    lexed = lex(text)
    assert len(lexed.kinds) == 22_000 * 27 + 4
    _agree(text)
