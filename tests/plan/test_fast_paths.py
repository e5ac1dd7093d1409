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

    fast_paths = False

    def expr(self, depth: int) -> Any:
        return self.general_expr(depth)

    def _plain_call(self, fn: str, pos: int, depth: int) -> Any:
        self.pos = pos
        return self.general_expr(depth)

    def _plain_get(self, name: str, pos: int, operand: bool = False) -> Any:
        return None

    def operand(self, depth: int) -> Any:
        return self.unary(depth)


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
    # operands of binary operators (`operand`)
    "return a + b.c * f(1).d - g(x)[0] ** 2;",
    "return 'x' + a.b + f(1) + g(h(2)).k + m.n(1) + p?.q + r.s?.t;",
    "return a + typeof b + await f(1) + -1 + - x + !y + void 0;",
    "return a + true + null + undefined + this + async + use + of + delete;",
    "return a + x => 1;",
    "return a ** -b + 2 ** f(1).x ** 3 - (-a) ** 2;",
    "return a + b.c.d(1).e + f(1)(2) + g(1)[0] + h(1)?.x + k(1)?.(2);",
    "return a + 'x\\n' + 007 + 1.5 + 0x1F + `t` + `u${v}w` + $f(1) + Math.max(1, 2) + 1n;",
    "return a || b ?? c;",
    "return a + b && c.d ?? e;",
    "return (a || b) ?? c.d;",
    "return a.b ?? c.d || e.f;",
    "return a < b.c === d(1) > e.f.g;",
    "return a + b.;",
    "return a + b.c(;",
    "return a + f(1, ;",
    "return a + + b;",
    "return a.b.c + ;",
    "return x + f(1).g(2).h(3);",
    "return 1 + 2 * 3 - 4 / 5 % 6 ** 7 ** 8;",
    "return a + b ? c.d : e.f + g;",
    "return a + Number(b) + Boolean.x + Promise.all([f(1)]);",
    # templates (the `expr` path without `primary`)
    "return `${a}`.length + `x${f(1)}y`[0] + `${b}`?.c;",
    "return `${c}`(1);",
    "return `a${b}` + c;",
    "return `a${b}` ? 1 : 2;",
    "return [`a${b}`, {k: `${c}`}, f(`${d}`)];",
    "return `a${b}`.x.y(1);",
    "return `${`${a}`}`;",
    "return `a${}`;",
    "return `a${b c}`;",
    "return `a${b}",
    "return `${a.if.x}${this.x}${Math.max(1, 2)}${f(1) + 2}${$f(1)}${null}${a.b(1)}${a.b[0]}`;",
    "return `${f(1)?.x}${f(1)(2)}${f(1).y ?? 'z'}${a.b ? 1 : 2}${undefined.x}${a.}`;",
    "return `${f(1}`;",
    "return `${a.b c}`;",
    # member chains as arguments (`_call_of`)
    "return f(a.b, a.b.c, a.if, this.x, a.b(1), a.b[0], a.b + 1, a.b ? 1 : 2, a.b?.c);",
    "return f(a.b.c.d.e.f.g, undefined.x, null.y, true.z, async.w, typeof.v);",
    "return f(a.b\n, c.d);",
    "return f(a.b c);",
    "return f(a.b.);",
    "return " + " + ".join(f"a{i}.b" for i in range(30)) + ";",
    "return " + " + ".join(f"f{i}(x.y)" for i in range(30)) + ";",
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
    # templates: few (spliced into the token lists) and many (copied once)
    "return `Hi ${user.profile.first} ${upper(user.profile.last)}! ${str(max(user.age, 18))}`;",
    "return [" + ", ".join(f"`t{i} ${{x{i}}} ${{ f(y, 'a}}') }}`" for i in range(8)) + "];",
    "return [" + ", ".join(f"`t{i} ${{x{i}}} ${{ f(y, 'a}}') }}`" for i in range(9)) + "];",
    "return [" + ", ".join(f"`t{i}`, `${{x}}${{y}}`" for i in range(12)) + "];",
    "// c\nreturn /* d */ `a\\n${ b /* e */ }c\\u{41}${d}\r\n`;",
    "return `${a}` + `b` + `${c}d${e}` + `\\``;",
    "return `a${'`'}b${\"}\"}c`;",
    "return `a\\xZZ${b}`;",
    "return `a${b}\\u{110000}`;",
    "x = `a${b}`;\ny = `${c}`;\nreturn [x, y];",
    # the one pass: a `}` that closes an object before a template, braces and `;` in parts
    "x = f({a: 1}, `q`);\nreturn x;",
    "x = f({a: 1}, `q${r}s`);\nreturn x;",
    "if (c) { return a; }\nreturn `x${y}`;",
    "return [{a: 1}, `x ${y} z`, {b: `${c}`}];",
    "return {a: `x${b}`, c: {d: 1}, e: `f${g}h`};",
    "x = ${a: 1}; return `b${c}`;",
    "return `${ {a: 1}.a }`;",
    "return a}, `x`;",
    "return a}, `x${y}`;",
    "return `a${b}c;d${e}`;",
    "return `a${b}{c}${d}`;",
    "return `a${b}\\{${c}\\}`;",
    "return `a${b}$${c}$`;",
    "return `a${b}` + `c${d}\\`e`;",
    "return f(`a${b}`, {x: 1}) + `${c}`;",
    "return [" + ", ".join(f"`a{i}${{b}}`" for i in range(60)) + "];",
    "x = f({a: 1});\n" * 80 + "return [`a${b}c`, f({d: 2}, `e${g}`)];",  # long: two passes
    # the look-behinds after a token's first character: a quote, backtick or digit that
    # follows a backslash or a name character
    "return [a1, a12, $1, _9.5, x1e5, 1, 12];",
    "return f(\\'a', \\\"b\", \\`c`, \\1, '\\'', \"\\\"\");",
    "return [`a${\\`b`}`, `c${'\\''}`, `x${y}`];",
    "x = `a${b}`;\nreturn [\\`c`, \\'d', \\1];",
]


@pytest.mark.parametrize("text", LEXER_CASES)
def test_the_fast_lexer_agrees_with_the_precise_one(text: str) -> None:
    out: Any = ([], [], [], [])
    _precise(text, 0, out)
    assert tokenize(text) == list(zip(*out, strict=True))
    _same(text)


TEMPLATE_ALPHABET = [
    *"ax0 \n(){}[],;:.'\"`\\$/*",
    *["${", "}", "`", "${a}", "f(b)", "//", "\r\n", "{a: 1}", "}, `", "\\n", "\\{"],
]


def test_the_fast_lexer_agrees_on_random_templates() -> None:
    r = random.Random(11)
    for _ in range(1500):
        text = "".join(r.choice(TEMPLATE_ALPHABET) for _ in range(r.randrange(1, 30)))
        out: Any = ([], [], [], [])
        _precise(text, 0, out)
        assert tokenize(text) == list(zip(*out, strict=True)), text
        lexed = lex(text)
        for i in range(1, len(lexed.kinds)):  # the text between tokens, as the parser reads it
            assert lexed.gap(i) == text[out[3][i - 1] : out[2][i]], (text, i)


def test_the_one_pass_takes_the_common_templates() -> None:
    """The one-pass lexing is used where it can be (and declines where it must)."""
    from dialectic.frontends.plan.fastlex import _ONE_PASS, _lex

    text = "return `Hi ${user.first} ${upper(user.last)}! ${str(max(user.age, 18))}`;"
    assert _lex(text, _ONE_PASS) is not None
    assert _lex("return {a: `x${b}`, c: {d: 1}};", _ONE_PASS) is not None
    doubts = [
        "x = f({a: 1}, `q`);",
        "return [{d: 1}, `f${g}h`];",
        "return `a${b}{c}`;",
        "return `${ {a: 1}.a }`;",
    ]
    for doubt in doubts:
        assert _lex(doubt, _ONE_PASS) is None, doubt
        assert lex(doubt).kinds == tokenize_kinds(doubt)


def tokenize_kinds(text: str) -> list[str]:
    return list(_precise_lists(text)[0])


def _precise_lists(text: str) -> Any:
    """The precise lexer's tokens of ``text``: ``(kinds, values, starts, ends)``."""
    out: Any = ([], [], [], [])
    _precise(text, 0, out)
    return out


def test_the_fast_lexer_takes_operators() -> None:
    """A program with operators (most programs a model writes: arrows, comparisons) is lexed
    by the fast path, into the precise lexer's tokens."""
    from dialectic.frontends.plan.fastlex import fast_lex

    for text in (
        "const xs = items.filter(x => x.price > 10 && !x.gone).map(x => x.name);\nreturn xs;",
        "let n = 0;\nfor (const o of orders) { n += o.qty * o.price / 2 - 1; }\nreturn n;",
        "return a === b ? [...c, d?.e ?? f] : g !== h || i <= j % 3;",
        "return `${a >= b ? 'x' : 'y'} / ${c.length === 0}`; // a comment / with slashes",
        "x = a / b /* a comment */ / c;\nreturn x++ + --y;",
    ):
        lexed = fast_lex(text)
        assert lexed is not None, text
        precise = _precise_lists(text)
        assert "op" in precise[0]
        assert lexed.lists() == precise, text
        _same(text)
