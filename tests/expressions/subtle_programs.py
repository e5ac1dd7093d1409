"""Random Plan programs where JavaScript's semantics are subtle, for the differential test
against Node.js (`test_subtle_differential.py`, `program_oracle.py --subtle`): numbers as text
(`String`, templates, `toFixed`, `toPrecision`, `toExponential`, `toString(radix)`),
`parseInt`/`parseFloat`/`Number` of odd texts, loose and strict equality and comparisons
across types, `+` between texts, numbers, arrays, `null` and `undefined`, the default `sort`
order (numbers as texts), comparator sorts with ties, `includes`/`indexOf` with `-0`, `null`
and `undefined`, negative and fractional indexes (`at`, `slice`, `toSpliced`, `with`, a
`splice` statement), texts with surrogate pairs, `JSON.stringify` of `undefined` and with
indentation, `Object.keys` with integer-like keys, `Math.round` of ties, `%` of negatives,
integers beyond 2**53 and bitwise operators, dates, regular expressions, destructuring
defaults with `null` and `undefined`, `??` against `||`, optional chains through `null`, and
spreads of texts. Each program comes from a seed, so a difference names the seed."""

from __future__ import annotations

import random
from collections.abc import Callable

from .subtle_statements import StatementShapes

#: numbers written as literals or computed: ties, tiny and huge ones, -0, sums that round
NUMBERS = [
    "0", "-0", "1", "-1", "0.5", "-0.5", "1.5", "-1.5", "2.5", "-2.5", "0.1", "0.2", "0.3",
    "(0.1 + 0.2)", "(1 / 3)", "(2 / 3)", "1e21", "-1e21", "1e-7", "1.5e-7", "123e-20", "5e-324",
    "1.7976931348623157e308", "(2 ** 53)", "(2 ** 53 + 1)", "(2 ** 53 + 2)", "9007199254740991",
    "(2 ** 64)", "(2 ** 31)", "(-(2 ** 31))", "(2 ** 32)", "1.005", "1.255", "8.345", "4.35",
    "(4.35 * 100)", "(1.005 * 1000)", "0.000001", "0.0000001", "123456789.123", "1e16",
    "(1e16 + 1)", "999999999999999999999", "0.49999999999999994", "(-0.49999999999999994)",
    "4503599627370495.5", "(-4503599627370495.5)", "100", "255", "(-7)", "7", "(-7.5)", "5.5",
    "12.345", "(123456789 * 987654321)", "(1e21 + 1)", "(0.1 * 3)", "(1 - 0.9)", "(10 ** 21)",
    "(10 ** -7)", "1e300", "(-1e-7)", "0.125", "0.375", "2.675", "1.45", "(-1.45)", "35.855",
]  # fmt: skip

#: texts for `parseInt`, `parseFloat`, `Number` and unary `+`
NUMBER_TEXTS = [
    "''", "' '", "'\\n42\\t'", "'0x1F'", "'0X1f'", "'-0x10'", "'1e3'", "'1E3'", "'.5'", "'5.'",
    "'+3'", "'-'", "'+'", "'1_000'", "'12px'", "'px12'", "'Infinity'", "'-Infinity'",
    "'infinity'", "'08'", "'0b101'", "'0o17'", "'1e1000'", "'1e-400'", "'  -0 '", "'0.0000001'",
    "'123456789012345678901234567890'", "'9007199254740993'", "'\\u00a012'", "'\\ufeff5'",
    "'12e'", "'1.2.3'", "'3 4'", "'-.5e-3'", "'0.1e1'", "'00012'", "'1,000'", "'$5'", "'5%'",
    "'\\u2003 7 \\u3000'", "'0x'", "'-0'", "'1e21'", "'4294967296'", "'0.000001e-3'",
]  # fmt: skip
RADIXES = ["0", "1", "2", "8", "10", "16", "36", "37", "16.9", "-1", "undefined", "'16'"]

#: values of every kind, for equality, comparisons and `+`
MIXED = [
    "0", "-0", "1", "''", "'0'", "'1'", "' 1 '", "null", "undefined", "false", "true", "[]",
    "[0]", "[1]", "['1']", "[1, 2]", "'1,2'", "'true'", "'null'", "'1e0'", "0.3", "(0.1 + 0.2)",
    "'abc'", "'B'", "'a'", "'10'", "'9'", "10", "9", "[null]", "[[]]", "'\\t'", "Infinity",
    "(-Infinity)", "'Infinity'", "{}", "{a: 1}", "[undefined]", "2", "'2'",
]  # fmt: skip
COMPARE = ["==", "!=", "===", "!==", "<", ">", "<=", ">="]
ARITH = ["+", "+", "+", "-", "*", "/", "%"]

#: arrays for the default sort and the search methods
SORTABLE = [
    "[10, 9, 1, 100, -1, 2.5, -10, 0]", "[1e21, 2, 1e-7, 30, -0, 0]",
    "['b', 'a', 'B', 'é', '10', '9', '', 'A', 'z']", "['😀', 'é', 'e', 'Z', '\\u00e9', 'ß']",
    "[true, false, true]", "[null, 'null', 'nulk', 'num']", "[3, '3', 20, '100', 1]",
    "[[2, 1], [10], [1, 5], [], [1]]", "['a😀', 'a\\uffff', 'ab', 'a']",
    "[undefined, 3, null, 1, undefined]", "[-1, -2, -10, -0.5]",
]  # fmt: skip
COMPARATORS = [
    "(a, b) => a - b", "(a, b) => b - a", "(a, b) => 0", "(a, b) => (a % 2) - (b % 2)",
    "(a, b) => Math.abs(a) - Math.abs(b)", "(a, b) => Math.sign(b - a)",
    "(a, b) => String(a).length - String(b).length", "(a, b) => (a < 0) - (b < 0)",
]  # fmt: skip
NUMBER_ARRAYS = [
    "[5, -3, 3, 0, -0, 10, -5, 5, 3]", "[1.5, -1.5, 2, -2, 0.5, 1, -1]",
    "[20, 3, 100, -7, 0, 3, 20]", "[2, 1, 2, 1, 0, 0]",
]  # fmt: skip
SEARCHED = [
    "[0, 1, '1', null, undefined, -0, [], '', false]", "[1, 2, 3, 2, 1]",
    "['a', 'b', 'a', 'A']", "[null, null]", "[undefined]", "[0.3, 0.1 + 0.2, 1e21]",
]  # fmt: skip
ITEMS = ["0", "-0", "1", "'1'", "null", "undefined", "''", "false", "2", "'a'", "0.3", "1e21"]
INDEXES = [
    "0", "1", "-1", "-2", "2", "5", "-5", "-10", "10", "1.5", "-1.5", "'1'", "undefined",
    "null", "true", "'-1'", "0.9", "-0.9", "Infinity", "(-Infinity)", "3",
]  # fmt: skip

#: texts with surrogate pairs, combining marks and letters whose case changes their length
UNICODE = [
    "'😀a'", "'a😀b'", "'é'", "'e\\u0301'", "'𝒳y'", "'ß'", "'İ'", "'ﬀ'", "'\\u00a0x'", "'Ǆ'",
    "'ŉ'", "'ΐ'", "'👍🏽!'", "'a\\u200db'", "'\\u2003x\\u3000'", "'ΣΑΣ'", "'héllo😀'", "''",
    "'x'", "'🇫🇷'", "'\\ud83d\\ude00'",
]  # fmt: skip
UNICODE_FORMS = [
    "@.length", "[...@]", "[...@].length", "Array.from(@)", "@.split('')",
    "@.toUpperCase()", "@.toLowerCase()", "@.at(-1)", "@.at(0)", "@.charAt(1)",
    "@.slice(1)", "@.slice(0, 1)", "@.slice(-2)", "@.substring(2, 0)", "@.codePointAt(0)",
    "@.codePointAt(1)", "@.charCodeAt(0)", "@.padStart(6, '😀')", "@.padEnd(4, 'é')",
    "@.indexOf('a')", "@.lastIndexOf('')", "@.normalize('NFC')", "@.normalize('NFD')",
    "@.normalize('NFKC').length", "@.trim()", "@.repeat(2)", "@.split('').length",
    "@.includes('\\ud83d')", "[...@].reverse().join('')", "@.substr(-2, 1)",
    "@[1]", "@[0]", "@.concat(@)", "@.startsWith('a', 1)", "@.endsWith('a', 2)",
    "JSON.stringify(@)", "@.localeCompare('a')", "@.match(/./gu)", "@.match(/./g)",
    "@.replace(/./u, '_')", "@.split(/(?:)/u)", "encodeURIComponent(@)",
]  # fmt: skip

#: values for `JSON.stringify`, and its third argument
JSONABLE = [
    "undefined", "null", "{a: undefined, b: 1}", "[undefined, null, 1]", "-0", "1e21", "'é'",
    "'\\u2028'", "'\"q\" \\\\ /'", "'\\u0007'", "'😀'", "{b: 1, 2: 2, a: [], 1: {}}",
    "{a: {b: {c: [1, {d: null}]}}}", "[[], {}, [[]], [{}]]", "''", "0.1 + 0.2", "[1e-7, -1e21]",
    "{a: [1, 2], b: {}}", "true", "'x'", "[]", "{}", "data", "people", "{k: undefined}",
    "[{a: undefined}]", "{'a b': 1, '': 2, '-1': 3, '01': 4, 10: 5, 9: 6}",
]  # fmt: skip
SPACES = [
    "", ", null, 2", ", null, '\\t'", ", null, 20", ", null, 0", ", null, -1",
    ", null, 'abcdefghijkl'", ", null, '--'", ", null, ''", ", undefined, 1", ", null, 2.7",
    ", null, '\\n'",
]  # fmt: skip

#: object literals whose keys JavaScript orders: array indexes first, ascending
KEYED = [
    "{b: 1, 2: 2, a: 3, 1: 4}", "{'-1': 1, '01': 2, 1: 3, '1.5': 4, 0: 5}",
    "{4294967295: 1, 4294967294: 2, z: 3, 10: 4, 9: 5}", "{x: 1, ...{2: 2, y: 3}, 1: 4}",
    "JSON.parse('{\"b\":1,\"1\":2,\"a\":3,\"0\":4}')", "{[String(10)]: 1, [9]: 2, a: 3}",
    "{'9007199254740993': 1, '9007199254740992': 2, 5: 3}", "{' 1': 1, '1 ': 2, 1: 3}",
    "Object.fromEntries([['b', 1], ['3', 2], ['a', 3], ['2', 4]])", "{...['x', 'y'], a: 1}",
    "{...'ab', 0: 'z'}", "{1e3: 1, 1.5: 2, 0x10: 3, '1e3': 4}",
]  # fmt: skip
KEY_FORMS = [
    "Object.keys(@)", "Object.values(@)", "Object.entries(@)", "JSON.stringify(@)",
    "Object.keys(@).join()", "Object.entries(@).map(([k, v]) => k + v).join(';')",
    "Object.keys({...@, c: 0})", "Object.keys(structuredClone(@))",
]  # fmt: skip

#: the `%`, `**`, bitwise and rounding operators, on the numbers above
ROUNDING = ["Math.round", "Math.floor", "Math.ceil", "Math.trunc", "Math.sign", "Math.abs"]
BITWISE = ["|", "&", "^", "<<", ">>", ">>>"]

DATES = [
    "new Date(0).toISOString()", "new Date(Date.UTC(2024, 1, 30)).toISOString()",
    "new Date('2024-02-29T12:00:00Z').getDay()", "new Date('2024-01-15').getTime()",
    "Date.UTC(2024, 12, 1)", "Date.UTC(99, 0)", "new Date(Date.UTC(-1, 0)).toISOString()",
    "new Date(Date.UTC(10000, 0)).toISOString()", "new Date(-1).toISOString()",
    "new Date(1e12).getUTCFullYear()", "Date.parse('2024-01-15T10:30:00.000+05:30')",
    "JSON.stringify({d: new Date(0)})", "new Date('2024-03-10T02:30:00Z').getHours()",
    "new Date(8.64e15).toISOString()", "new Date(2024, 0, 31, 25).toISOString()",
    "new Date('2024-01-15T10:30').toISOString()", "new Date(2020, 1, 29).getMonth()",
    "new Date(0).getTimezoneOffset()", "new Date('2024-06-01').toJSON()",
    "new Date(Date.UTC(2024, 0, 1)) - new Date(Date.UTC(2023, 0, 1))",
    "new Date(1.9).getTime()", "new Date(-1.9).getTime()", "new Date('2024').toISOString()",
    "new Date('2024-02').getUTCMonth()", "new Date(Date.UTC(2024, 0, 1, 0, 0, 0, -1)).getUTCDay()",
    "new Date(0).toISOString().slice(0, 10)", "new Date('2024-01-15T10:30:00.123456Z').getTime()",
    "String(new Date(0).getTime())", "new Date(2024, 0).valueOf()",
    "Math.floor((Date.UTC(2024, 2, 1) - Date.UTC(2024, 1, 1)) / 864e5)",
]  # fmt: skip

REGEXES = [
    "'a1b22c333'.replace(/\\d+/g, 'x')", "'a1b22c333'.match(/\\d+/g)",
    "'a1'.match(/(\\d)(\\d)?/)", "'a,b,,c'.split(/(,)/)", "'ab'.replace(/(a)(b)?/, '$2-$1-$&-$$')",
    "'aaa'.replace(/a*?/g, 'x')", "''.split(/,/)", "''.split(',')", "'a,b,'.split(',')",
    "'abc'.split(/(?:)/)", "[...'a1b2'.matchAll(/\\d/g)].map(m => m[0] + m.index)",
    "'2024-01-15'.match(/(?<y>\\d+)-(?<m>\\d+)/).groups.m", "/^\\s+$/.test('\\u00a0\\t')",
    "'x'.replace('x', '$&$&')", "'aaa'.lastIndexOf('a', -5)", "/é/i.test('É')",
    "'Hello World'.replace(/o/g, (m) => m.toUpperCase())", "'a-b_c d'.split(/[-_ ]/)",
    "'abc'.search(/c/)", "'aBc'.replace(/b/i, '[$&]')", "'x'.replace(/x/, '$1')",
    "'one two'.replace(/(\\w+) (\\w+)/, '$2 $1')", "'a.b.c'.split('.', 2)",
    "'aaa'.replaceAll('aa', 'b')", "'abc'.replace(/(?<first>a)/, '$<first>!')",
    "'A1 b2'.match(/[a-z]\\d/gi)", "'tEsT'.match(/t/g).length", "'a\\nb'.match(/^b/m)[0]",
    "'a\\nb'.match(/a.b/s) !== null", "'😀😀'.replace(/./gu, 'x')", "'x1y2'.split(/\\d/)",
    "'aaa'.match(/a/y)", "'abc'.match(/z/)", "'10 20 30'.split(' ').map(Number)",
    "'a'.repeat(3).replace(/a/g, '$`')", "'abc'.replace(/b/, \"$'\")",
]  # fmt: skip

DESTRUCTURING = [
    "const {a = 5, b = 6, c = 7} = {a: null, b: undefined, c: 0};\nreturn [a, b, c];",
    "const [x = 1, y = 2, z = 3] = [undefined, null, 0];\nreturn [x, y, z];",
    "return [{a: null}, {}, {a: 0}, {a: ''}].map(({a = 9}) => a);",
    "return [[undefined, null], [], [0]].map(([p = 1, q = 2]) => [p, q]);",
    "function f(x = 3) { return x; }\nreturn [f(), f(null), f(undefined), f(0), f('')];",
    "const {d: {e = 'E', f = 'F', g = 'G'} = {}} = data;\nreturn [e, f, g];",
    "const {zz: {q = 1} = {}} = data;\nreturn q;",
    "const [first = 'none', ...rest] = words.slice(5);\nreturn [first, rest];",
    "const {name, ...others} = people[0];\nreturn Object.keys(others);",
    "const [, second = 'x'] = [1];\nreturn second;",
    "const {length} = 'héllo😀';\nreturn length;",
    "const [a, b] = 'é😀';\nreturn [a, b];",
    "const {a: {b = 2} = {b: 3}} = {a: undefined};\nreturn b;",
    "const {a: {b = 2} = {b: 3}} = {a: null};\nreturn b;",
    "const {city = 'nowhere'} = people[0];\nreturn city;",
    "const [{age = 1} = {}] = [];\nreturn age;",
    "return people.map(({city = '?', age: years = 0}) => `${city}:${years}`);",
    "const f = ({a = 1, b = a + 1} = {}) => a + b;\nreturn [f(), f({a: 5}), f({b: 0})];",
]  # fmt: skip

#: the operands of `??`, `||` and `&&`
FALSY = [
    "0", "''", "null", "undefined", "false", "-0", "data.d.e", "none", "people[0].city", "[]",
    "'0'", "1", "'x'", "data.h", "data.zz", "people[5]", "{}", "neg", "true", "'false'",
]  # fmt: skip

OPTIONAL = [
    "none?.a", "none?.a.b.c", "data.d?.e?.f", "data.zz?.y", "people[5]?.name", "none?.[0]",
    "data.c?.[1]", "s?.length", "none?.length ?? 0", "data.b?.toUpperCase()",
    "none?.map(x => x)", "data.d.e?.toFixed(2) ?? 'n/a'", "people?.[0]?.tags?.[5] ?? 'no tag'",
    "(none?.a).b", "data?.['c']?.at?.(-1)", "people.find(p => p.age > 100)?.name",
    "people[0].city?.length", "data.d?.f?.toString()", "none?.a === undefined",
    "typeof none?.a", "people.map(p => p.city?.length ?? -1)", "data.zz?.()",
    "[none?.x, data.d?.e, s?.[0]]", "(none ?? data).a", "data.b?.[10] ?? 'past'",
]  # fmt: skip

SPREADS = [
    "[...'a😀b']", "{...'ab'}", "Math.max(...'123')", "[...'']", "new Set('hello').size",
    "Array.from('a😀')", "[...'e\\u0301']", "{...null}", "{...[1, 2]}", "{...undefined, a: 1}",
    "[...new Set([0, -0, '0', null, undefined, null])]", "Math.min(...[])", "[...[[1], [2]]]",
    "[...'abc'].map((c, i) => c + i)", "String([...'xyz'])", "{...{a: 1}, ...{a: undefined}}",
    "Object.keys({...[5, 6]})", "[...'👍🏽'].length", "Math.max(...[1, '5', 3])",
    "[...words.slice(3, 5), ...'hi']", "{...s}.length", "Object.assign({}, 'ab', [9])",
    "[].concat(...[[1], [2, [3]]])",
]  # fmt: skip

TEXT_OF = [
    "String([null, undefined, 1])", "String([[], []])", "[1, [2, [3]]].join(';')",
    "[null].join() === ''", "String([[[]]])", "[undefined, 'a'].join('-')", "[1, 2] + ''",
    "'' + [1, [2, 3]]", "String(null) + String(undefined)", "`${[null]}|${[undefined, 0]}`",
    "[0.1 + 0.2, -0, 1e21].join()", "[true, false].toString()", "Array(3).join('-')",
    "new Array(3).fill(0)", "Array.from({length: 3}, (_, i) => i * i)", "[,].length",
    "[1, , 3]", "Array(2).length", "typeof [].join", "String(-0)", "(-0).toString()",
    "`${-0}`", "JSON.stringify([-0])", "[-0].includes(0)", "[-0].indexOf(0)", "Object.is(-0, 0)",
    "(-0).toFixed(2)", "(-0.4).toFixed(0)", "(-1.5).toFixed(0)", "(0.5).toFixed(0)",
    "(1.5).toFixed(0)", "(2.5).toFixed(0)", "(-2.5).toFixed(0)", "(1e21).toFixed(2)",
    "(1e-7).toFixed(10)", "(123.456).toFixed()", "(0.000001).toString()", "(1e-7).toString()",
    "(25).toString(36)", "(255).toString(2)", "(-255).toString(16)", "(0.5).toString(2)",
    "(3.75).toString(16)", "Number.MAX_SAFE_INTEGER + 2", "Number.EPSILON > 0",
    "Number.MIN_VALUE.toString()", "String(Number.MAX_VALUE)", "(1234.5678).toPrecision(6)",
    "(0.00001234).toPrecision(2)", "(1e21).toPrecision(3)", "(123.456).toExponential()",
    "(0).toExponential(2)", "(-1.5e-7).toExponential(3)", "String(2 ** 70)", "String(1 / 3)",
]  # fmt: skip

#: the numbers a number is written as, and the ways to write it
NUMBER_FORMS = [
    "String(@)", "§`${@}`", "(@).toFixed({d})", "(@).toPrecision({p})",
    "(@).toExponential({d})", "(@).toString({r})", "(@) + ''", "JSON.stringify(@)",
    "[@].join()", "(@).toExponential()", "String(-(@))", "(@).toFixed()",
]  # fmt: skip


class SubtleGenerator(StatementShapes):
    """One program per call of `program`, from a `random.Random`."""

    def program(self) -> str:
        makers: list[Callable[[], str]] = [
            self.number_text, self.number_text, self.random_number_text, self.parse,
            self.parse, self.equality, self.equality, self.arithmetic, self.arithmetic,
            self.default_sort, self.comparator_sort, self.search, self.indexes, self.indexes,
            self.unicode, self.unicode, self.stringify, self.keys, self.rounding, self.rounding,
            self.integers, self.date, self.regex, self.destructuring, self.nullish,
            self.optional, self.spread, self.text_of, self.splice, self.steps, self.steps,
            self.changes, self.changes, self.changes, self.helpers, self.helpers,
        ]  # fmt: skip
        program = makers[self.rng.randrange(len(makers))]()
        if "return " in program:
            return program
        if self.rng.random() < 0.2:  # the value comes through a function, as a tool's reply
            return f"const v0 = await echo({program});\nreturn [v0, typeof v0];"
        return f"return {program};"

    def number(self) -> str:
        if self.rng.random() < 0.3:
            return self.random_number()
        return self.pick(NUMBERS)

    def random_number(self) -> str:
        digits = "".join(self.pick(list("0123456789")) for _ in range(self.rng.randrange(1, 18)))
        digits = digits.lstrip("0") or "0"
        point = self.rng.randrange(len(digits) + 1)
        mantissa = f"{digits[:point] or '0'}.{digits[point:] or '0'}"
        exponent = self.rng.choice(["", "", f"e{self.rng.randrange(-25, 25)}"])
        sign = self.rng.choice(["", "", "-"])
        text = f"{mantissa}{exponent}"
        return f"({sign}{text})" if sign else text

    def number_text(self) -> str:
        form = self.pick(NUMBER_FORMS)
        d = self.pick(["0", "1", "2", "3", "5", "10", "20"])
        p = self.pick(["1", "2", "3", "6", "15", "17", "21"])
        r = self.pick(["2", "3", "8", "16", "36", "10"])
        return (
            form.replace("{d}", d).replace("{p}", p).replace("{r}", r).replace("@", self.number())
        )

    def random_number_text(self) -> str:
        n = self.random_number()
        return self.pick([f"String({n})", f"[{n}, {n} * 3, {n} / 7].join(' ')", f"{n} + ''"])

    def parse(self) -> str:
        text = self.pick(NUMBER_TEXTS)
        fn = self.pick(["parseInt", "parseFloat", "Number", "+", "parseInt", "Number.parseFloat"])
        call = f"{fn}({text}, {self.pick(RADIXES)})" if fn == "parseInt" else f"{fn}({text})"
        if fn == "+":
            call = f"(+{text})"
        if self.rng.random() < 0.3:
            return self.pick([f"({call} || -1)", f"Number.isNaN({call})", f"isNaN({call})"])
        if self.rng.random() < 0.15:
            value = self.pick(["null", "true", "false", "[]", "[5]", "['7']", "[' 8 ']", "'[]'"])
            return f"Number({value})"
        return call

    def equality(self) -> str:
        a, b = self.pick(MIXED), self.pick(MIXED)
        if self.rng.random() < 0.15:
            return f"[{a}, {b}, {a}].includes({b})"
        return f"({a} {self.pick(COMPARE)} {b})"

    def arithmetic(self) -> str:
        a, b = self.pick(MIXED), self.pick(MIXED)
        op = self.pick(ARITH)
        if self.rng.random() < 0.3:
            return f"typeof ({a} {op} {b})"
        return f"({a} {op} {b})"

    def default_sort(self) -> str:
        xs = self.pick(SORTABLE)
        fn = self.pick(["toSorted()", "sort()", "toSorted().reverse()", "sort().join('|')"])
        return f"{xs}.{fn}"

    def comparator_sort(self) -> str:
        if self.rng.random() < 0.4:  # ties: a stable sort keeps the order the items came in
            key = self.pick(["age", "n", "name.length"])
            rows = "[{n: 2, age: 1, name: 'a'}, {n: 1, age: 1, name: 'bb'}, {n: 2, age: 0, name: 'c'}, {n: 1, age: 0, name: 'dd'}, {n: 2, age: 1, name: 'e'}]"  # noqa: E501
            sign = self.pick(["a.{k} - b.{k}", "b.{k} - a.{k}", "0"]).replace("{k}", key)
            return f"{rows}.toSorted((a, b) => {sign}).map(r => r.name).join()"
        return f"{self.pick(NUMBER_ARRAYS)}.toSorted({self.pick(COMPARATORS)})"

    def search(self) -> str:
        xs, item = self.pick(SEARCHED), self.pick(ITEMS)
        fn = self.pick(["includes", "indexOf", "lastIndexOf", "includes", "indexOf"])
        if self.rng.random() < 0.3:
            return f"{xs}.{fn}({item}, {self.pick(INDEXES)})"
        return f"{xs}.{fn}({item})"

    def indexes(self) -> str:
        xs = self.pick(["[1, 2, 3, 4, 5]", "['a', 'b', 'c']", "[]", "nums", "'abcde'", "s"])
        i, j = self.pick(INDEXES), self.pick(INDEXES)
        method = self.pick(["at", "slice", "slice", "slice1", "toSpliced", "with", "substring"])
        if method == "at":
            return f"{xs}.at({i})"
        if method == "slice1":
            return f"{xs}.slice({i})"
        if method == "toSpliced":
            return f"[1, 2, 3, 4, 5].toSpliced({i}, {j}, 'x')"
        if method == "with":
            return f"[1, 2, 3].with({i}, 'x')"
        if method == "substring":
            return f"'abcde'.{self.pick(['substring', 'substr', 'slice'])}({i}, {j})"
        return f"{xs}.slice({i}, {j})"

    def splice(self) -> str:
        i, j = self.pick(INDEXES), self.pick(INDEXES)
        args = self.pick([f"{i}", f"{i}, {j}", f"{i}, {j}, 'x', 'y'"])
        return f"const xs = [1, 2, 3, 4, 5];\nconst r = xs.splice({args});\nreturn [xs, r];"

    def unicode(self) -> str:
        form = self.pick(UNICODE_FORMS)
        return form.replace("@", self.pick(UNICODE), 1).replace("@", self.pick(UNICODE))

    def stringify(self) -> str:
        value = self.pick(JSONABLE)
        if self.rng.random() < 0.2:
            return f"typeof JSON.stringify({value})"
        return f"JSON.stringify({value}{self.pick(SPACES)})"

    def keys(self) -> str:
        return self.pick(KEY_FORMS).replace("@", self.pick(KEYED))

    def rounding(self) -> str:
        n = self.number()
        if self.rng.random() < 0.4:
            m = self.pick(["2", "-2", "3", "-3", "0.1", "1", "-0", "0", "7", "Infinity"])
            return f"({n} {self.pick(['%', '%', '**', '/'])} {m})"
        return f"{self.pick(ROUNDING)}({n})"

    def integers(self) -> str:
        a, b = self.number(), self.pick(["0", "1", "31", "32", "33", "-1", "2", "(2 ** 32)"])
        if self.rng.random() < 0.5:
            return f"({a} {self.pick(BITWISE)} {b})"
        return self.pick(
            [f"~{a}", f"~~{a}", f"({a} >>> 0)", f"({a} | 0)", f"String({a} + 1)",
             f"Number.isSafeInteger({a})", f"Number.isInteger({a})", f"({a} === {a} + 1)",
             f"Math.imul({a}, {b})", f"Math.clz32({a})", f"Math.fround({a})"]
        )  # fmt: skip

    def date(self) -> str:
        return self.pick(DATES)

    def regex(self) -> str:
        return self.pick(REGEXES)

    def destructuring(self) -> str:
        return self.pick(DESTRUCTURING)

    def nullish(self) -> str:
        a, b, c = self.pick(FALSY), self.pick(FALSY), self.pick(FALSY)
        op1, op2 = self.pick(["??", "||", "&&"]), self.pick(["??", "||", "&&"])
        form = self.pick(
            ["{a} {op1} {b}", "({a} {op1} {b}) {op2} {c}", "{a} {op1} ({b} {op2} {c})"]
        )
        if self.rng.random() < 0.1:  # `??` next to `||` unparenthesized: a SyntaxError
            form = "{a} {op1} {b} {op2} {c}"
        return "[" + form.format(a=a, b=b, c=c, op1=op1, op2=op2) + "]"

    def optional(self) -> str:
        return self.pick(OPTIONAL)

    def spread(self) -> str:
        return self.pick(SPREADS)

    def text_of(self) -> str:
        return self.pick(TEXT_OF)


def subtle_programs(seed: int, count: int) -> list[str]:
    """`count` programs from `seed` (the same ones every time)."""
    gen = SubtleGenerator(random.Random(seed))
    return [gen.program() for _ in range(count)]
