"""JavaScript's ``Infinity`` and ``-Infinity`` as values inside a run (SPEC 5 and 1.7): the idioms
models write give what Node.js gives; an infinity that would leave the run (the result, an
argument of a function) is refused with where it is; an operation that would make NaN is refused
with what made it."""

from __future__ import annotations

from typing import Any

import pytest

from dialectic import FunctionDescription, Runtime
from dialectic.frontends.plan import decompile, parse_plan

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

#: the idioms (loops, reduce, Math of nothing, sorting, formatting, parsing), each returning
#: JSON Node and dialectic can both give
PROGRAMS = [
    "let max = -Infinity;\nfor (const x of nums) { if (x > max) max = x; }\nreturn max;",
    "let best = Infinity;\nfor (const x of nums) { if (x < best) { best = x; } }\nreturn best;",
    "let lo = Infinity, hi = -Infinity;\nfor (const p of people) {\n  lo = "
    "Math.min(lo, p.age);\n  hi = Math.max(hi, p.age);\n}\nreturn [lo, hi];",
    "let best = null;\nlet bestAge = -Infinity;\nfor (const p of people) {\n  if "
    "(p.age > bestAge) { bestAge = p.age; best = p.name; }\n}\nreturn best;",
    "let m = -Infinity;\nfor (const x of []) { if (x > m) m = x; }\nreturn m === "
    "-Infinity ? 'empty' : m;",
    "let i = 0;\nlet m = Infinity;\nwhile (i < nums.length) { m = Math.min(m, "
    "nums[i]); i++; }\nreturn m;",
    "return people.reduce((m, p) => Math.max(m, p.age), -Infinity);",
    "return nums.reduce((m, x) => (x < m ? x : m), Infinity);",
    "const r = [].reduce((m, x) => Math.max(m, x), -Infinity);\nreturn "
    "Number.isFinite(r) ? r : null;",
    "const xs = [];\nconst m = Math.min(...xs);\nreturn m === Infinity;",
    "return [Math.max(...nums), Math.max(), Math.min()].map(x => String(x));",
    "const m = Math.max(...[]);\nreturn isFinite(m) ? m : 0;",
    "return [Number.POSITIVE_INFINITY === Infinity, Number.NEGATIVE_INFINITY === -Infinity];",
    "return [Number.MAX_VALUE * 2 === Infinity, Number.MIN_VALUE > 0, Number.EPSILON < 1e-15];",
    "return [Number.MAX_VALUE, Number.MIN_VALUE, Number.EPSILON];",
    "return -Number.MAX_VALUE - Number.MAX_VALUE === -Infinity;",
    "return [Infinity + 1, -Infinity * -1, Infinity - 1e308, 2 * Infinity].map(String);",
    "return [1 / Infinity, -1 / Infinity, 5 / -Infinity, Infinity / 1e308 === Infinity];",
    "return [1 / 0, -1 / 0, n / 0].map(x => String(x));",
    "const d = 0;\nconst r = n / d;\nreturn r === Infinity ? 'no rate' : r;",
    "return [1 / neg, -1 / neg].map(String);",
    "return [5 % Infinity, -5 % Infinity, 2.5 % -Infinity];",
    "return [2 ** Infinity, 0.5 ** Infinity, 2 ** -Infinity, Infinity ** 0, "
    "Infinity ** -1, (-Infinity) ** 3].map(String);",
    "return [10 ** 400, 10 ** -400, 0 ** -1, (-2) ** 1025].map(String);",
    "return [1e308 * 10, -1e308 * 10, 1e308 + 1e308].map(String);",
    "return [Infinity > 1e308, -Infinity < -1e308, Infinity === Infinity, Infinity "
    "=== -Infinity, Infinity >= Infinity, -Infinity <= 0];",
    "return [Infinity == 1 / 0, Infinity == Infinity, Infinity !== 1 / 0];",
    "return [Infinity, -Infinity, 0].map(x => x ? 'truthy' : 'falsy');",
    "const a = Infinity;\nreturn [a || 1, -a && 2, a ?? 3].map(String);",
    "const x = Infinity;\nreturn [-x, +x, - -x].map(String);",
    "return typeof Infinity;",
    "return [3, Infinity, -1, -Infinity, 0].sort((a, b) => a - b).map(String);",
    "const xs = people.map(p => ({name: p.name, k: p.city ? p.age : Infinity}));\n"
    "return xs.sort((a, b) => a.k - b.k).map(x => x.name);",
    "return [3, -Infinity, 7].sort((a, b) => b - a).map(String);",
    "return [Infinity, 2, -Infinity].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);",
    "return [Math.abs(-Infinity), Math.floor(Infinity), Math.ceil(-Infinity), "
    "Math.round(Infinity), Math.trunc(-Infinity), Math.sqrt(Infinity)].map(String);",
    "return [Math.sign(Infinity), Math.sign(-Infinity), Math.pow(2, Infinity) === "
    "Infinity, Math.max(1, Infinity) === Infinity, Math.min(1, -Infinity) === "
    "-Infinity];",
    "return [Number.isFinite(Infinity), Number.isFinite(1), "
    "Number.isInteger(Infinity), Number.isSafeInteger(-Infinity), "
    "Number.isNaN(Infinity)];",
    "return [isFinite(Infinity), isFinite(-Infinity), isFinite(5), isFinite('5'), "
    "isFinite('Infinity'), isFinite('abc'), isFinite(null), isFinite(true)];",
    "return [isNaN('abc'), isNaN('36'), isNaN(''), isNaN(' 1 '), isNaN(null), isNaN(undefined),"
    " isNaN(true), isNaN(5), isNaN('0x1f'), isNaN('1e3'), isNaN(Infinity), isNaN('-'), isNaN()];",
    "return words.map(w => isNaN(w) ? w : Number(w)).concat(words.filter(isNaN));",
    "return nums.map(x => 10 / x).filter(Number.isFinite).length;",
    "return [String(Infinity), String(-Infinity), `${1 / 0}`, 'x' + Infinity, -Infinity + 'y'];",
    "return [(Infinity).toFixed(2), (-Infinity).toFixed(0), (1 / 0).toFixed()];",
    "return `max is ${Math.max()} and min is ${Math.min()}`;",
    "return JSON.stringify({a: Infinity, b: [1, -Infinity], c: 1 / 0});",
    "return [JSON.stringify(Infinity), JSON.stringify([Infinity], null, 2)];",
    "return [parseFloat('Infinity'), parseFloat('-Infinity and more'), "
    "Number('Infinity'), Number(' -Infinity '), +'+Infinity', "
    "Number('1e400')].map(String);",
    "return [parseFloat('Infinityx') === Infinity, Number('1e-400')];",
    "const xs = [1, 2, 3];\nreturn [xs.at(Infinity), xs.at(-Infinity), xs.length < Infinity];",
    "return [[1, [2, [3, [4, [5]]]]].flat(Infinity), 'abc'.slice(-Infinity), "
    "'abc'.slice(1, Infinity), [1, 2, 3].slice(0, Infinity)];",
    "return ['a,b,c'.split(',', Infinity), 'a,b'.split(',', -1), "
    "'abc'.indexOf('c', -Infinity), 'abc'.substring(Infinity)];",
    "const o = {Infinity: 'inf'};\nreturn [o[Infinity], o[1 / 0], o['Infinity']];",
    "return [1, 2, 3].includes(Infinity) || [Infinity].includes(Infinity);",
    "return [Infinity, -Infinity].indexOf(-Infinity);",
    "return [...new Set([Infinity, 1 / 0, -Infinity])].length;",
    "return [1, '2', 'x', null, true].filter(isFinite);",
    "return [isFinite('9007199254740993'), isFinite(' 12 '), isFinite('1e400'), isFinite(''),"
    " isFinite(undefined), isFinite('0x1f'), isFinite('-Infinity')];",
    "const o = {};\no[1 / 0] = 'x';\nreturn [o, Object.keys({[-Infinity]: 1})];",
    "return [Object.fromEntries([[Infinity, 1]]), [1, Infinity].join('-')];",
    "return [-0 % Infinity, neg % Infinity === 0, Infinity - 1e308 === Infinity];",
    "return Object.entries({a: 1, b: 5}).reduce((best, [k, v]) => (v > best.v ? "
    "{k, v} : best), {k: null, v: -Infinity}).k;",
]


#: Infinity given to the builtins and operators merged beside it (found: two crashes)
WITH_BUILTINS = [
    "return [Math.hypot(Infinity, 1) > 1, Math.fround(-Infinity) < 0, Math.clz32(Infinity),\n"
    "  Math.imul(Infinity, 2), Math.clz32(-Infinity)];",
    "return [(Infinity).toString(), (-Infinity).toString(2), (Infinity).toPrecision(3)];",
    "return [Infinity | 0, ~Infinity, -Infinity >>> 0, Infinity << 2, 5 << Infinity];",
    "return [String.fromCharCode(Infinity, 65), String.fromCharCode(-Infinity)];",
    "return [Object.is(Infinity, Infinity), Object.is(-Infinity, Infinity)];",
    "return [[3, Infinity, -Infinity, 1].sort().map(String), 'a-b-c'.split(/-/, Infinity)];",
    "return ['abc'.substr(-Infinity, Infinity), 'abc'.codePointAt(Infinity) ?? 'none'];",
    "return [1, 2, 3].with(1, Infinity).map(x => x > 5);",
]


def test_infinity_in_builtins_gives_what_node_gives() -> None:
    runs_as_in_node(WITH_BUILTINS, RT)
    out = RT.run("return String.fromCodePoint(Infinity);", lang="plan")
    assert out.status == "failure" and out.error is not None
    assert "String.fromCodePoint(Infinity) is no code point" in out.error.message


def test_the_infinity_idioms_give_what_node_gives() -> None:
    assert len(PROGRAMS) >= 40
    runs_as_in_node(PROGRAMS, RT)


def _failure(program: Any, lang: str = "plan", rt: Runtime = RT) -> Any:
    out = rt.run(program, lang=lang, context=CONTEXT)
    assert out.status == "failure", (program, out.value)
    assert out.error is not None
    return out.error


@pytest.mark.parametrize(
    ("program", "words"),
    [
        # the result
        ("return 1 / 0;", "the result holds Infinity; JSON cannot hold it"),
        ("return Math.max(...[]);", "the result holds -Infinity;"),
        ("return [1, 2, -1 / 0];", "the result holds -Infinity at $[2];"),
        ("const m = Math.min();\nreturn {stats: {low: m}};", "holds Infinity at $.stats.low;"),
        ("return [{a: [0, Infinity]}];", "holds Infinity at $[0].a[1];"),
        ("return {'the key': [Infinity]};", 'holds Infinity at $["the key"][0];'),
        ("let m = -Infinity;\nfor (const x of []) { m = Math.max(m, x); }\nreturn {m};", "$.m"),
        # a function's argument
        ("return echo(1 / 0);", "argument `value`"),
        ("return echo({x: [1, -Infinity]});", "holds -Infinity at $.x[1]"),
        ("const xs = [1, Infinity];\nreturn echo(xs);", "holds Infinity at $[1]"),
        ("return size([Infinity]);", "argument `xs`"),
        ("return add(1, Math.max());", "holds -Infinity"),
        ("return [1, 2].map(x => echo(x / 0));", "holds Infinity"),
        # an object in a template, which it writes as JSON (SPEC 5): not `null` (an array is
        # Node's text, `1,Infinity`: tests/expressions/test_array_text.py)
        ("return `x ${{a: [Math.max()]}}`;", "holds -Infinity at $.a[0];"),
        ("return `${{a: 1 / 0}}`;", "the template's value holds Infinity at $.a;"),
    ],
)
def test_an_infinity_leaving_the_run_is_refused_with_its_path(program: str, words: str) -> None:
    error = _failure(program)
    assert error.code == "invalid_value"
    assert words in error.message and "JSON cannot hold it" in error.message
    assert error.hint is not None and "Number.isFinite(x) ? x : null" in error.hint
    if "the result" in words:
        assert error.path == "program.$return"


def test_an_infinity_refused_in_the_result_of_plan2_and_dialect_json() -> None:
    error = _failure("result: ${[1, 1 / 0]}\n", "plan2")
    assert error.code == "invalid_value" and "at $[1]" in error.message
    error = _failure('{"$return": {"a": 1, "b": {"$ref": "Infinity"}}}', "json")
    assert error.code == "invalid_value" and "at $.b" in error.message


def test_a_number_parameter_gets_no_infinity() -> None:
    rt = Runtime(load_entry_points=False)
    got: list[Any] = []

    def keep(x: Any) -> int:
        got.append(x)
        return 1

    rt.register(FunctionDescription("keep", "keep", keep, {"x": "number"}, "any"))
    rt.register(FunctionDescription("whole", "whole", keep, {"x": "integer"}, "any"))
    for program in ("return keep(1 / 0);", "return keep(-Infinity);", "return whole(1 / 0);"):
        error = _failure(program, rt=rt)
        assert error.code == "invalid_value" and "Infinity" in error.message, program
    assert got == []
    assert rt.run("return keep(Math.max(1 / 0, 0) === Infinity ? 5 : 6);", lang="plan").value == 1
    assert got == [5]


def test_a_function_that_returns_an_infinity_cannot_make_the_result() -> None:
    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("inf", "inf", lambda: [1.5] * 40 + [float("inf")], {}, "any"))
    rt.register(FunctionDescription("big", "big", lambda: {"x": float("-inf")}, {}, "any"))
    assert _failure("return inf();", rt=rt).message.startswith("the result holds Infinity at $[40]")
    assert "at $.x" in _failure("return big();", rt=rt).message
    assert rt.run("return isFinite(big().x);", lang="plan").value is False


@pytest.mark.parametrize(
    ("program", "words"),
    [
        ("return Infinity - Infinity;", "`Infinity - Infinity` is NaN"),
        ("return -Infinity + Infinity;", "`-Infinity + Infinity` is NaN"),
        ("return 0 / 0;", "`0 / 0` is NaN"),
        ("return Infinity / Infinity;", "`Infinity / Infinity` is NaN"),
        ("return Infinity * 0;", "`Infinity * 0` is NaN"),
        ("return Infinity % 2;", "`Infinity % 2` is NaN"),
        ("return 5 % 0;", "`5 % 0` is NaN"),
        ("return 1 ** Infinity;", "`1 ** Infinity` is NaN"),
        ("return [3, 1].map(x => x * Infinity - Infinity);", "is NaN"),
    ],
)
def test_an_operation_that_makes_nan_is_refused_with_what_made_it(program: str, words: str) -> None:
    error = _failure(program)
    assert error.code == "expression_error"
    assert words in error.message
    assert error.hint is not None


def test_nan_is_still_no_value() -> None:
    error = _failure("return NaN;")
    assert error.code == "unknown_identifier"


@pytest.mark.parametrize(
    ("program", "words"),
    [
        ("const xs = [1];\nreturn xs[Infinity];", "Infinity"),
        ("return Array.from({length: Infinity});", "whole number"),
        ("return 'ab'.repeat(Infinity);", "repeat"),
        ("const Infinity = 3;\nreturn Infinity;", "JavaScript's own"),
        ("return (1).toFixed(Infinity);", "0 to 100 digits"),
        (
            "let a = [1];\nfor (let i = 0; i < 120; i++) { a = [a]; }\nreturn a.flat(Infinity);",
            "more than 100 levels",
        ),
    ],
)
def test_what_javascript_throws_on_an_infinity_is_refused(program: str, words: str) -> None:
    assert words in _failure(program).message


def test_a_literal_infinity_in_dialect_json_is_refused_with_what_to_write() -> None:
    out = RT.run({"$return": float("inf")})
    assert out.error is not None and out.error.code == "invalid_program"
    assert out.error.hint is not None and '{"$ref": "Infinity"}' in out.error.hint


def test_decompile_writes_a_program_with_infinity_back() -> None:
    source = (
        "let best = Infinity;\nfor (const x of nums) { best = Math.min(best, x); }\n"
        "const hi = Number.NEGATIVE_INFINITY;\nreturn [best, hi < best, isFinite(hi), 5 / 0 > 1];"
    )
    tree = parse_plan(source).tree
    assert '{"$op": ["-", {"$ref": "Infinity"}]}' in __import__("json").dumps(tree)
    text = decompile(tree)
    assert "Infinity" in text
    for program in (source, text):
        assert RT.run(program, lang="plan", context=CONTEXT).value == [-1, True, False, True]
    canonical = RT.prepare(source, lang="plan").canonical(CONTEXT)
    again = RT.run(decompile(canonical), lang="plan", context=CONTEXT)
    assert again.value == [-1, True, False, True]
