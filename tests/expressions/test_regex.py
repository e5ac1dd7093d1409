"""Regular expressions in Plan and the call tree (SPEC 1.8 and 10, "Regular expressions"): each
program gives what Node gives, or fails at its place with what to write; RE2 runs them in
linear time; a `/` after a value still divides."""

from __future__ import annotations

import json
import random
import time

import pytest

from dialectic import Limits, Runtime
from dialectic.frontends.plan import decompile, parse_plan
from dialectic.frontends.plan.lexer import lex
from dialectic.values.jsops import JsRefusal
from dialectic.values.jsregex import new_regexp

from .program_oracle import node_answers, runs_as_in_node, runtime, same

RT = runtime()

# what models write, and the corners: flags, replacement patterns, empty matches, split with
# groups, astral text (places in UTF-16 code units), JavaScript's \s and line terminators
SAME = [
    "const text = 'a  b\\t c\\u00a0d\\ufeffe'; return text.replace(/\\s+/g, ' ');",
    "return ['555-1234', '5551234', '555-12345'].map(p => /^\\d{3}-\\d{4}$/.test(p));",
    "return 'a, b,c ,  d'.split(/\\s*,\\s*/);",
    "return ['item 42 x', 'none'].map(t => t.match(/(\\d+)/)?.[1] ?? null);",
    "return [...'#a #bb x#c #'.matchAll(/#(\\w+)/g)].map(m => m[1]);",
    "return 'Hello, World! 2024'.replace(/[^a-z0-9]+/gi, '-').toLowerCase();",
    "const word = 'hello';\n"
    "return [new RegExp(word, 'i').test('Say HELLO'), new RegExp(word).test('Say HELLO')];",
    "const email = 'joe@example.com'; return email.match(/@(.+)$/)[1];",
    "return 'a1b22c333'.match(/\\d+/g);",
    "return 'abc'.match(/\\d+/g);",
    "return 'abc'.match(/x/);",
    "return 'x=1, y=22'.match(/(\\w)=(\\d+)(z)?/);",
    "return 'abc'.replace(/b*/g, '-');",
    "return 'abc'.split(/(?:)/);",
    "return 'a1b2c3'.split(/\\d/);",
    "return 'a1b2c3'.split(/(\\d)/);",
    "return 'a1b2c3'.split(/(\\d)/, 3);",
    "return 'a,b;c d'.split(/([,;])|\\s/);",
    "return ''.split(/,/);",
    "return ''.split(/(?:)/);",
    "return 'aXbxc'.split(/x/i);",
    "return 'John Smith'.replace(/(\\w+)\\s(\\w+)/, '$2, $1');",
    "return 'price: 10'.replace(/\\d+/, '[$&] $$ [$`] [$\\']');",
    "return '2024-01-15'.replace(/(?<y>\\d{4})-(?<m>\\d{2})-(?<d>\\d{2})/, '$<d>/$<m>/$<y>');",
    "return 'abc'.replace(/(b)/, '$2$1$0$11$<x>');",
    "return 'aaa'.replace(/a/g, '$&$&');",
    "return 'one two  three'.replaceAll(/\\s+/g, '_');",
    "return 'x-y_z'.replace(/[-_]/g, ' ');",
    "return 'The Quick Brown'.match(/[A-Z]/g).join('');",
    "return 'hi 😀 there 😀!'.replace(/😀/g, ':)');",
    "return ['😀a1', 'b😀😀22'].map(t => [t.search(/\\d/), t.match(/\\d+/)[0], t.split(/\\d/)]);",
    "return 'a😀b'.split(/(?:)/u);",
    "return [...'😀x😀xx'.matchAll(/x+/g)].map(m => m[0]);",
    "return 'a😀b'.replace(/./gu, c => `[${c}]`);",
    "return 'é😀ü'.match(/\\w/);",
    "return 'line1\\nline2\\nline3'.match(/^line\\d$/gm);",
    "return 'line1\\nline2'.match(/^line\\d$/g);",
    "return ['a\\nb'.match(/a.b/) === null, /a.b/s.test('a\\nb')];",
    "return 'Tab\\there'.split(/\\t/);",
    "return /\\u00e9/.test('café') && /\\x41/.test('A') && /\\u{1F600}/u.test('😀');",
    "return ['[x]', 'a/b'].map(t => t.replace(/[\\[\\]\\/]/g, '|'));",
    "return ['abc', ''].map(t => /[^]/.test(t));",
    "return /[]/.test('abc');",
    "return 'CamelCaseString'.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();",
    "return '  trim me  '.replace(/^\\s+|\\s+$/g, '');",
    "return 'a.b.c'.split(/\\./).length;",
    "return 'snake_case_name'.replace(/_(\\w)/g, (m, c) => c.toUpperCase());",
    "return 'a-1 b-22'.replace(/(\\w)-(\\d+)/g,\n"
    "  (m, w, n, at) => `${w.toUpperCase()}${n.length}@${at}`);",
    "return 'count: 3 apples, 12 pears'.match(/\\d+/g).map(Number).reduce((a, b) => a + b, 0);",
    "return 'The year 1999 and 2024'.match(/\\b\\d{4}\\b/g);",
    "const text = 'Contact: ann@x.org, bob@y.com';\n"
    "return [...text.matchAll(/(\\w+)@(\\w+)\\.(\\w+)/g)]\n"
    "  .map(m => ({user: m[1], domain: `${m[2]}.${m[3]}`}));",
    "return ['ABC', 'abc', 'aBc'].filter(t => /^[a-z]+$/i.test(t)).length;",
    "return 'aaa'.match(/a*?/)[0].length;",
    "return 'xaaay'.replace(/a+?/, '-');",
    "return 'a\\r\\nb\\nc'.split(/\\r?\\n/);",
    "return 'k1=v1;k2=v2'.split(';').map(p => p.split(/=/));",
    "const re = /o/; return ['foo', 'bar', 'boo'].filter(w => re.test(w));",
    "return 'hello world'.search(/o/) + 'hello'.search(/z/);",
    "return 'x'.replace(/x/, '$');",
    "return 'A-B'.split(/-/, 0).length + 'A-B'.split(/-/, 1).length;",
    "return 'aBc'.replace(/b/i, x => x + x);",
    "return /^(?:\\+?1[-. ]?)?\\(?\\d{3}\\)?[-. ]?\\d{3}[-. ]?\\d{4}$/.test('+1 (555) 123-4567');",
    "return '1,234,567.89'.replace(/,/g, '');",
    "return 'tags: #js, #py,#go'.match(/#\\w+/g).map(t => t.slice(1));",
    "const re = /(\\d+)/g; return ['a1', 'b22'].map(t => t.match(re));",
    "return `${'x'.repeat(3).replace(/x/g, 'y')}` + /a/.source + /a/gi.flags;",
    "return 'a.b*c'.replace(new RegExp('[.*]', 'g'), '');",
    # a text where a regex goes: match/search/matchAll make one of it, replace with an arrow
    # finds the text as it is
    "return ['a.b.c'.replace('.', m => `[${m}]`), 'a.b.c'.replaceAll('.', (m, at) => at),\n"
    "  'x+y'.replace('+', (m, at, str) => str.length)];",
    "return ['a1b2'.match('\\\\d'), 'a.b'.search('.'),\n"
    "  [...'a1b22'.matchAll('\\\\d+')].map(m => m[0])];",
    "return ['ab'.match('(?:)'), 'a(b'.replace('(', () => '['), '$x$'.replaceAll('$', () => '#')];",
    "return ['héllo wörld 123'.match(/\\p{L}+/gu), /\\p{Lu}/u.test('É'),\n"
    "  'a1b'.replace(/\\P{L}/gu, '_'), 'αβγ abc'.match(/\\p{Script=Greek}+/u)[0]];",
    "return 'Ünïcödé'.replace(/[^\\x00-\\x7F]/g, '?');",
    "return 'tab\\tnl\\nend'.split(/[\\t\\n]/);",
    "return ['a,b,c'.split(/,/, -1), 'a,b'.split(',', -1), 'a,b,c'.split(',', 2.7),\n"
    "  'a,b'.split(/,/, 4294967297)];",
    "return RegExp('a+', 'g').source + '|' + 'caab'.replace(RegExp('a+'), 'X');",
    "const t = 'x1'; return `${/\\d/.test(t) ? 'digit' : 'none'}!`;",
    "const fruits = ['Apple', 'banana', 'Cherry']; const q = 'AN';\n"
    "return fruits.filter(w => new RegExp(q, 'i').test(w));",
    "const x = 10; const y = 5; const ok = /^\\d+$/.test(String(x / y)); return ok;",
    "return 'a\\u2028b'.split(/./);",
    "return '\\u2028'.match(/\\s/) !== null;",
    "return 'x'.replace(/x/, '$0 $00 $001 $10 $<a>');",
    "return 'abc'.replace(/(?<a>b)/, '[$<a>][$<zz>][$<a]');",
    "return 'AbC'.match(/[a-z]/gi).length;",
    "return 'aaa'.lastIndexOf('a') + 'abcabc'.search(/c/);",
]


def test_regex_programs_give_what_node_gives() -> None:
    assert len(SAME) >= 40
    runs_as_in_node(SAME, RT)


# (program, what the message says, line, column)
REFUSED = [
    ("return /(?<=\\$)\\d+/.test(s);", "lookahead and lookbehind", 1, 9),
    ("return /\\d+(?=px)/.test(s);", "lookahead and lookbehind", 1, 12),
    # the digit-grouping idiom runs only as written (test_digit_groups_regex.py): with another
    # flag, the hint says what does it
    (
        "return String(n).replace(/\\B(?=(\\d{3})+(?!\\d))/gi, ',');",
        "n.toLocaleString('en-US')",
        1,
        29,
    ),
    ("const x = 1;\nreturn /(a)\\1/.test(s);", "backreference", 2, 12),
    ("return /(?<q>')\\k<q>/.test(s);", "named backreference", 1, 16),
    ("return s.replace(/x/y, '');", "sticky", 1, 21),
    ("return /x/d.test(s);", "match indices", 1, 11),
    ("return /x/gg.test(s);", "written twice", 1, 11),
    ("return /x/q.test(s);", "not a flag", 1, 11),
    ("return /((a)|b)+/.test(s);", "inside a repeated group", 1, 16),
    ("return /(a*)?b/.test(s);", "can match nothing", 1, 13),
    ("return /\\e/.test(s);", "no escape", 1, 9),
    ("return /a{2000}/.test(s);", "at most 1000", 1, 10),
    ("return /😀+/.test(s);", "beyond U+FFFF", 1, 10),
    ("return /[😀]/.test(s);", "beyond U+FFFF", 1, 9),
    ("return /(a/.test(s);", "not closed", 1, 11),
    ("return /a)/.test(s);", "closes no group", 1, 10),
    ("return /*a/.test(s);", "", 1, 8),
    ("return /[a/.test(s);", "unterminated regular expression", 1, 8),
    ("return new RegExp('(?!x)', 'g');", "lookahead", 1, 19),
    ("return /+/.test(s);", "nothing to repeat", 1, 9),
    ("return /\\P{Lu}/iu.test(s);", "with the i flag", 1, 9),
]


@pytest.mark.parametrize(("program", "says", "line", "column"), REFUSED)
def test_refused_constructs_fail_at_their_place_with_a_hint(
    program: str, says: str, line: int, column: int
) -> None:
    out = RT.run(program, lang="plan", context={"s": "abc"})
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code != "internal_error", out.message
    message = out.message or ""
    assert says in message
    assert f"line {line}, column {column}" in message, message
    assert "hint" in message.lower()


RUN_REFUSED = [
    # (program, what the message says): the answer depends on state, or JavaScript matches
    # UTF-16 halves / folds case otherwise than RE2 for this text
    ("const re = /a/g; return ['a', 'a'].map(t => re.test(t));", "lastIndex"),
    ("return /a/g.exec('a');", "exec"),
    ("return /a/.lastIndex;", "lastIndex"),
    ("return 'a😀'.match(/./g);", "Add the u flag"),
    ("return 'a😀'.split(/(?:)/);", "Add the u flag"),
    ("return /s/i.test('ſ');", "u flag"),
    ("return 'a\\r\\nb'.match(/^b/m);", "\\r"),
    ("return 'é'.match(/\\B/);", "\\B"),
    ("return 'ab'.match(/b/g).index;", "Only a match array itself"),
    ("return [...'ab'.match(/b/)].index;", "Only a match array itself"),
    ("return 'ab'.matchAll(/b/);", "g flag"),
    ("return 'ab'.replaceAll(/b/, 'c');", "g flag"),
    ("return 'ab'.match(5);", "regular expression"),
    ("return /a/;", "cannot leave the program"),
    ("return JSON.stringify([/a/]);", "cannot leave the program"),
    ("return `${/a/}`;", "cannot leave the program"),
    ("return [.../a/];", "not iterable"),
    ("return new RegExp(1);", "takes a text"),
    ("return new RegExp('a', 'y');", "sticky"),
    ("const p = '(?=a)'; return new RegExp(p).test('a');", "lookahead"),
    ("return 'x'.replace(5, m => m);", "a regular expression or a text"),
]


@pytest.mark.parametrize(("program", "says"), RUN_REFUSED)
def test_what_cannot_answer_as_javascript_fails_clearly(program: str, says: str) -> None:
    out = RT.run(program, lang="plan")
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code != "internal_error", out.message
    assert says in (out.message or ""), out.message


def test_a_pathological_pattern_runs_in_linear_time() -> None:
    program = "return [/(a+)+$/.test(text), text.replace(/(a|aa)+b/g, 'x').length];"

    def cpu(n: int) -> float:
        text = "a" * n + "!"
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            out = RT.run(program, lang="plan", context={"text": text})
            best = min(best, time.process_time() - start)
            assert out.status == "success" and out.value == [False, n + 1], out.message
        return best

    cpu(1000)  # (warm: the pattern compiled once)
    small, large = cpu(10_000), cpu(40_000)
    assert large < 40 * max(small, 1e-3), (small, large)  # linear: about 4 times, not 16


DIVISIONS = [
    "const a = 12; const b = 3; const c = 2; return a / b / c;",
    "const x = 9; return x /2;",
    "const a = 8; const b = 2; return (a)/b;",
    "const arr = [10]; return arr[0] / 2;",
    "const xs = [4, 2]; return xs.length / 2 / xs[1];",
    "const t = `8`; return Number(t) / 2;",
    "const o = {n: 6}; return o.n / 3 + 1 / 4;",
    "const xs = [1, 2]; return xs.map(x => x / 2).reduce((a, b) => a + b / 1, 0);",
    "const a = 6; return [a / 2, a/3, 'x'.length / 2, (a) / (2) / 1];",
    "const a = 6; const g = 2; return a / g / 1 + a /g/ 1;",
]


def test_a_slash_after_a_value_still_divides() -> None:
    runs_as_in_node(DIVISIONS, RT)
    for program in DIVISIONS:
        assert "re" not in lex(program).kinds, program


def test_a_slash_where_an_expression_starts_is_a_regex() -> None:
    kinds = lex("x = f(/a/, [/b/g], !/c/.test(s), y ? /d/ : /e/) && /f/;").kinds
    assert kinds.count("re") == 6
    kinds = lex("return /a\\/[/]b/i;").kinds  # (an escaped `/`, a `/` in a class)
    assert kinds[:2] == ["name", "re"] and kinds[2] in (";", "eof")


def test_decompile_writes_the_literal_back() -> None:
    for program in SAME:
        tree = parse_plan(program).tree
        again = parse_plan(decompile(tree)).tree
        assert again == tree, program
    tree = parse_plan("return new RegExp('a/b', 'g');").tree
    assert "new RegExp('a/b', 'g')" in decompile(tree)


def test_the_call_tree_and_plan2_forms() -> None:
    rt = Runtime(load_entry_points=False)
    tree = {"$method": [{"$ref": "s"}, "replace", {"$global": ["RegExp", "(\\d+)", "g"]}, "<$1>"]}
    out = rt.run(json.dumps(tree), lang="json", context={"s": "a1b22"})
    assert out.status == "success" and out.value == "a<1>b<22>"
    out = rt.run("result: '${s.split(/\\d+/)}'", lang="plan2", context={"s": "a1b22c"})
    assert out.status == "success" and out.value == ["a", "b", "c"], out.message
    bad = {"$global": ["RegExp", "(?=a)"]}
    out = rt.run(json.dumps({"$method": [bad, "test", "a"]}), lang="json")
    assert out.status == "failure" and "lookahead" in (out.message or "")


def test_replacing_counts_against_the_text_limit() -> None:
    with pytest.raises(JsRefusal, match="longer than"):
        new_regexp("(?:)", "g").replace("a" * 1000, "x" * 1000, 100_000, True)


def test_random_patterns_answer_as_node_or_fail_clearly() -> None:
    """Patterns and texts drawn at random (flags, groups, classes, empty matches, emoji, line
    ends): every answer Node's, every refusal a clear one."""
    rnd = random.Random(11)
    atoms = ["a", "b", ".", "\\d", "\\w", "\\s", "\\S", "\\b", "^", "$", "[a-c]", "[^a]",
             "(a|b)", "(?:ab)", "x*", "(a*)", "(?<n>b)", "😀", "é", "(\\w+)", "\\n"]  # fmt: skip
    quantifiers = ["", "", "*", "+", "?", "*?", "{1,2}"]
    chars = list("aAbB 1\n😀é_-x")
    ops = ["t.match(re)", "t.replace(re, '<$1|$&|$<n>>')", "t.split(re)", "t.search(re)",
           "re.global ? [...t.matchAll(re)] : re.test(t)", "t.split(re, 2)",
           "t.replace(re, (m, ...r) => `(${m}:${r.length})`)"]  # fmt: skip
    programs = []
    for _ in range(300):
        pattern = "".join(
            rnd.choice(atoms) + rnd.choice(quantifiers) for _ in range(rnd.randint(1, 3))
        )
        flags = "".join(f for f in "gimsu" if rnd.random() < 0.3)
        text = "".join(rnd.choice(chars) for _ in range(rnd.randint(0, 7)))
        programs.append(
            f"const re = new RegExp({json.dumps(pattern)}, {json.dumps(flags)}); "
            f"const t = {json.dumps(text)}; return {rnd.choice(ops)};"
        )
    answered = 0
    for program, answer in zip(programs, node_answers(programs), strict=True):
        out = RT.run(program, lang="plan")
        if out.status != "success":
            assert out.error is not None and out.error.code != "internal_error", out.message
            continue
        assert "ok" in answer, (program, out.value, answer)
        assert same(out.value, answer["ok"]) is None, (program, out.value, answer)
        answered += 1
    assert answered > 100


def test_finding_every_match_stops_at_the_run_deadline() -> None:
    """``/(?:a*b)?/g`` on a run of ``a``: each search reads to the end before matching nothing
    (quadratic in RE2 as in any engine); the loop looks at the clock and fails at the run's
    deadline instead of running on."""
    rt = Runtime(load_entry_points=False, limits=Limits(deadline=0.5))
    start = time.monotonic()
    for program in (
        "return text.replace(/(?:a*b)?/g, '').length;",
        "return text.split(/(?:a*b)?/).length;",
        "return text.replace(/(?:a*b)?/g, m => m).length;",
    ):
        out = rt.run(program, lang="plan", context={"text": "a" * 300_000})
        assert out.status == "failure" and "deadline" in (out.message or ""), out.message
    assert time.monotonic() - start < 60  # (unchecked: minutes each)
