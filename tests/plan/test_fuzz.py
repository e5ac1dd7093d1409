"""Any text gives a tree or a SourceError: never another exception (no traceback for models)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import decompile, parse_expression, parse_plan

ALPHABET = [
    *"abcxyz019_$ \t\n\r(){}[],;:.=+-*/'\"`\\${}!?<>&|@#é😀\u2028\u00a0",
    "return ",
    "use ",
    "const ",
    "${",
    "/*",
    "*/",
    "//",
    "\\u{",
    "\\x",
    "0x",
    "1e",
    "this",
    "undefined",
    "```js\n",
    "\n```",
]


def _check(source: str) -> None:
    for strict in (False, True):
        try:
            result = parse_plan(source, strict=strict)
        except SourceError as e:
            assert e.problems and str(e)
            for p in e.problems:
                assert p.line >= 1 and p.column >= 1
            continue
        assert len(result.spans) >= 2
        text = decompile(result.tree)
        assert parse_plan(text, strict=True).tree == result.tree
    try:
        parse_expression(source)
    except SourceError:
        pass


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), max_size=40).map("".join))
def test_random_text(source: str) -> None:
    _check(source)


def test_mutated_programs(plan_corpus: list[str]) -> None:
    r = random.Random(99)
    for source in plan_corpus[:150]:
        for _ in range(4):
            chars = list(source)
            for _ in range(r.randrange(1, 4)):
                i = r.randrange(len(chars) + 1)
                op = r.random()
                if op < 0.4 and i < len(chars):
                    del chars[i]
                elif op < 0.8:
                    chars.insert(i, r.choice(ALPHABET))
                elif i < len(chars):
                    chars[i] = r.choice(ALPHABET)
            _check("".join(chars))
