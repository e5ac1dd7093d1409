"""The parser's fast paths (`Parser.expr`: one-token expressions, calls of a plain function name
with literal arguments) make exactly what its general path (`general_expr`) makes: the same
tree, problems, warnings and spans, at every depth limit."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dialectic.frontends.plan.lexer import _precise, lex, tokenize
from dialectic.frontends.plan.parser import Parser
from dialectic.frontends.plan.spans import LineIndex, build_spans

ALPHABET = [*"ax0_$ \n(){}[],;:.=+-'\"`\\!?", "${", "//", "/*", "return ", "this", "undefined"]


class GeneralParser(Parser):
    """The parser with its fast paths turned off."""

    def expr(self, depth: int) -> Any:
        return self.general_expr(depth)

    def _plain_call(self, fn: str, pos: int, depth: int) -> Any:
        self.pos = pos
        return self.general_expr(depth)

    def _plain_get(self, name: str, pos: int) -> Any:
        return None


def _parse(cls: type[Parser], text: str, strict: bool, max_depth: int, record: bool) -> Any:
    index = LineIndex(text)
    tokens = lex(text)
    parser = cls(text, tokens, index, strict=strict, max_depth=max_depth, record=record)
    try:
        tree = parser.program()
    except RecursionError:
        return "nested too deeply"
    spans = None
    if record and not parser.problems:
        assert parser.rec is not None
        starts, ends = tokens.offsets()
        root = (starts[0], ends[-2]) if len(starts) > 1 else (0, 0)
        spans = build_spans(tree, parser.rec, root, index, parser.extra)
    return tree, parser.problems, parser.warnings, spans, parser.pos


def _same(text: str, max_depths: tuple[int, ...] = (100,)) -> None:
    for max_depth in max_depths:
        for strict in (False, True):
            for record in (False, True):
                fast = _parse(Parser, text, strict, max_depth, record)
                general = _parse(GeneralParser, text, strict, max_depth, record)
                assert fast == general, (text, max_depth, strict, record)


CASES = [
    "return f(1, 'a', \"b\", `c`, x, 0, 007, 1.5, 1e3, -1, 'a\\n', 12345678901234567890);",
    "return [lookup(0),\nlookup(1), lookup(2)];",
    "return f(x).y;",
    "return f(x)?.y;",
    "return f(x)[0].g(1)(2);",
    "return f(x) + g(y) * 2 ? h() : k;",
    "return f(...xs, 1, ...[2]);",
    "return f(a,);",
    "return f(,);",
    "return f(1 2);",
    "return f(1;",
    "return f(",
    "return f(1",
    "return f('a'",
    "return f(x",
    "return x",
    "return [1",
    "return f(1,",
    "return f('a' 'b');",
    "return f(x\ny = 2;",
    "return f(undefined, null, true, this, async, use);",
    "return true(1);",
    "return undefined(1);",
    "return $f(1);",
    "return Math.max(1, 2) + max(1, 2) + Number(3) + String('x');",
    "return await(1);",
    "return typeof(x);",
    "return f(x => x, (a) => a);",
    "a = f(1)\nreturn a",
    "a = 1; b = 'two'; c = x; d = `t`; return [a, b, c, d];",
    "return {k: f(1), j: 2, l: 'x', m};",
    "return `a${f(1)}b${2}c${'s'}`;",
    "return f(g(h(k(1))));",
    "return [[[[[[f(1)]]]]]];",
    "return f(1).g(2).h(3).k(4);",
    "return f(1, 2)\n.g();",
    "return f(1) = 2;",
    "return f(1) =>;",
    "return [1, 2, 3, 'x', y, `z`, 0x10, 1_000];",
    "return f(1)?.(2);",
    "return (f(1)).y;",
    "use f(1);",
    "return a.b + x.y.z;",
    "return [a.b, a.b.c, a.if.new, a.b.c(1), a.b[0], a.b?.c, a.b.];",
    "return {k: a.b, j: this.x, l: undefined.x, m: null.y, n: async.z};",
    "return `${user.profile.first} ${upper(user.profile.last)}!`;",
    "x = a.b\nreturn x.y",
    "return a.b.c.d.e.f.g.h;",
    "return a.\nb;",
    "return a.b.c",
    "return a.b.",
    "return f(1); return g(2);",
]


@pytest.mark.parametrize("text", CASES)
def test_the_same_as_the_general_path(text: str) -> None:
    _same(text, (1, 2, 3, 4, 5, 6, 8, 100))


def test_the_same_on_generated_programs(plan_corpus: list[str]) -> None:
    for text in plan_corpus[:200]:
        _same(text)


def test_the_same_on_mutated_programs(plan_corpus: list[str]) -> None:
    r = random.Random(7)
    for source in plan_corpus[:120]:
        for _ in range(3):
            chars = list(source)
            for _ in range(r.randrange(1, 4)):
                i = r.randrange(len(chars) + 1)
                if r.random() < 0.5 and i < len(chars):
                    del chars[i]
                else:
                    chars.insert(i, r.choice(ALPHABET))
            _same("".join(chars), (4, 100))


LEXER_CASES = [
    "// one\nreturn [f(0),\nf(1)];",
    "/* a */ /* b */ // c\nreturn 1; // end",
    "return 1; // end",
    "return 1; /* end */",
    "a = 1; // x\n" * 12 + "return a;",
    "a = 1; /* x */ b = 2; /* y */ /* z */\n" * 5 + "return [a, b];",
    "return 'a/b' + \"c//d\";",
    "return 'a`b' + \"`\";",
    "return [1.5.3, 1e, 12abc, 1..2, 1.e5, 0.5e-3, 5., 07];",
    "return a.b.c(1).d;",
    "return\t[\r\n1 ,\n2\t];",
]


@pytest.mark.parametrize("text", LEXER_CASES)
def test_the_fast_lexer_agrees_with_the_precise_one(text: str) -> None:
    out: Any = ([], [], [], [])
    _precise(text, 0, out)
    assert tokenize(text) == list(zip(*out, strict=True))
    _same(text)
