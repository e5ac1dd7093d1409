"""Plan parser: trees, spans, escapes, numbers, lenient repairs and error messages."""

from __future__ import annotations

from typing import Any

import pytest

from dialectic.frontends.base import FrontEndResult, SourceError, Span
from dialectic.frontends.plan import parse_expression, parse_plan
from dialectic.frontends.plan.lexer import _precise, tokenize


def tree(source: str, **kw: Any) -> Any:
    return parse_plan(source, **kw).tree


def expr(text: str) -> Any:
    return parse_expression(text)[0]


def error(source: str, **kw: Any) -> SourceError:
    with pytest.raises(SourceError) as info:
        parse_plan(source, **kw)
    return info.value


# -- the seed's examples -------------------------------------------------------------------------


def test_seed_single_call() -> None:
    assert tree("return domainA({slot1: 'hello'});", strict=True) == {
        "$return": {"domainA": [{"$object": {"slot1": "hello"}}]}
    }


def test_seed_nested_calls() -> None:
    source = """return domainC({
  slot3: domainA({slot1: 'foo'}).field1,
  slot4: domainB({slot2: 'bar'})[0].field2,
});"""
    assert tree(source, strict=True) == {
        "$return": {
            "domainC": [
                {
                    "slot3": {"$get": [{"domainA": [{"$object": {"slot1": "foo"}}]}, "field1"]},
                    "slot4": {"$get": [{"domainB": [{"$object": {"slot2": "bar"}}]}, 0, "field2"]},
                }
            ]
        }
    }


def test_seed_aliases() -> None:
    source = """flight = flightInfo({airline: 'AA', flight: 1234});
return other({start: flight.departs, end: flight.arrives});"""
    assert tree(source, strict=True) == {
        "$let": {"flight": {"flightInfo": [{"airline": "AA", "flight": 1234}]}},
        "$return": {
            "other": [
                {
                    "start": {"$get": [{"$ref": "flight"}, "departs"]},
                    "end": {"$get": [{"$ref": "flight"}, "arrives"]},
                }
            ]
        },
    }


def test_seed_date_math_method_chains() -> None:
    # `at` is also JavaScript's array method: a `$method`, which falls back to the registered
    # function for a receiver that is neither an array nor a text (SPEC 1.8)
    assert expr("next(Thursday).at('9:00am')") == {
        "$method": [{"next": [{"$ref": "Thursday"}]}, "at", "9:00am"]
    }
    assert expr("last(Tuesday).plus(23, day).at('9:00am')") == {
        "$method": [
            {"plus": [{"last": [{"$ref": "Tuesday"}]}, 23, {"$ref": "day"}]},
            "at",
            "9:00am",
        ]
    }


def test_seed_use() -> None:
    assert tree("use 5;", strict=True) == {"$use": 5}
    assert tree("a = 1;\nuse a;") == {"$let": {"a": 1}, "$use": {"$ref": "a"}}


def test_this_is_a_function_name() -> None:
    assert expr("this(week)") == {"this": [{"$ref": "week"}]}
    assert expr("this") == {"$ref": "this"}
    assert expr("this.x") == {"$get": [{"$ref": "this"}, "x"]}


# -- literals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0", 0),
        ("42", 42),
        ("-3", -3),
        ("+3", 3),
        ("1.5", 1.5),
        (".5", 0.5),
        ("5.", 5.0),
        ("1.0", 1.0),
        ("1e21", 1e21),
        ("1E-7", 1e-7),
        ("2.5e+3", 2500.0),
        ("-1.5e2", -150.0),
        ("0x1F", 31),
        ("0o17", 15),
        ("0b101", 5),
        ("9007199254740992", 2**53),
        ("1152921504606846976", 2**60),  # beyond 2**53, but a double exactly: kept
        ("0x20000000000000", 2**53),
    ],
)
def test_numbers(text: str, value: int | float) -> None:
    result = expr(text)
    assert result == value
    assert type(result) is type(value)


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("9007199254740993", "9007199254740992"),
        ("-9007199254740993", "9007199254740992"),
        ("123456789012345678901234567890", "123456789012345677877719597056"),
        ("0x20000000000001", "9007199254740992"),
    ],
)
def test_an_integer_javascript_would_read_as_another_number_is_refused(
    text: str, held: str
) -> None:
    """SPEC 1.7: `9007199254740993` is `9007199254740992` in JavaScript; the program would not
    mean what it says (an id written as a number), so it is a syntax error with what to write."""
    with pytest.raises(SourceError) as err:
        parse_plan(f"return {text};")
    message = str(err.value)
    assert f"JavaScript reads it as {held}" in message
    assert "write it as text" in message


def test_integer_lexemes_are_ints_others_floats() -> None:
    assert type(expr("3")) is int
    assert type(expr("3.0")) is float
    assert type(expr("3e0")) is float


def test_negative_zero() -> None:
    assert str(expr("-0.0")) == "-0.0"
    assert expr("-0") == 0


def test_words() -> None:
    assert expr("true") is True
    assert expr("false") is False
    assert expr("null") is None
    assert expr("undefined") == {"$undefined": None}
    assert expr("NaN") == {"$ref": "NaN"}


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        (r"'\n'", "\n"),
        (r"'\t'", "\t"),
        (r"'\r'", "\r"),
        (r"'\b'", "\b"),
        (r"'\f'", "\f"),
        (r"'\v'", "\v"),
        (r"'\0'", "\0"),
        (r"'\\'", "\\"),
        (r"'\''", "'"),
        (r'"\""', '"'),
        (r"'\"'", '"'),
        (r"'\x41'", "A"),
        (r"'\xe9'", "é"),
        (r"'\u0041'", "A"),
        (r"'\u20AC'", "€"),
        (r"'\u{1F600}'", "😀"),
        (r"'\u{41}'", "A"),
        (r"'\ud83d\ude00'", "😀"),
        (r"'\q'", "q"),
        ("'a\\\nb'", "ab"),
        ("'a\\\r\nb'", "ab"),
        ("'a\\\u2028b'", "ab"),
        ("'\u2028'", "\u2028"),
        ("'é😀'", "é😀"),
        ('"it\'s"', "it's"),
    ],
)
def test_string_escapes(literal: str, value: str) -> None:
    assert expr(literal) == value


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        (r"`\n`", "\n"),
        (r"`\``", "`"),
        (r"`\${x}`", "${x}"),
        ("`$`", "$"),
        ("`a$b`", "a$b"),
        ("`line1\nline2`", "line1\nline2"),
        ("`a\r\nb`", "a\nb"),
        ("`a\rb`", "a\nb"),
        (r"`a\r\nb`", "a\r\nb"),
        ("`a\\\nb`", "ab"),
        (r"`\u{1F600}\x41`", "😀A"),
        ("``", ""),
    ],
)
def test_template_cooked_values(literal: str, value: str) -> None:
    assert expr(literal) == value


@pytest.mark.parametrize(
    ("literal", "message"),
    [
        (r"'\x4'", "\\x must be followed by exactly two hexadecimal digits"),
        (r"'\u12'", "\\u must be followed by four hexadecimal digits"),
        (r"'\u{110000}'", "beyond the last Unicode code point"),
        (r"'\01'", "legacy octal"),
        (r"'\7'", "legacy octal"),
        (r"'\8'", "legacy octal"),
        (r"'\ud800'", "lone UTF-16 surrogate"),
        (r"`\01`", "legacy octal"),
        ("'abc", "unterminated string"),
        ("'a\nb'", "unterminated string"),
        ("`abc", "unterminated template"),
    ],
)
def test_bad_strings(literal: str, message: str) -> None:
    with pytest.raises(SourceError) as info:
        parse_expression(literal)
    assert message in info.value.problems[0].message


def test_templates() -> None:
    assert expr("`Hello ${name}!`") == {"$template": ["Hello ", {"$ref": "name"}, "!"]}
    assert expr("`${a}`") == {"$template": [{"$ref": "a"}]}
    assert expr("`${a}${b}`") == {"$template": [{"$ref": "a"}, {"$ref": "b"}]}
    assert expr("`a${`b${c}`}d`") == {"$template": ["a", {"$template": ["b", {"$ref": "c"}]}, "d"]}
    # string literals inside ${} are text; numbers stay expressions (stringified at run time)
    assert expr("`a${'b'}c${`d`}`") == "abcd"
    assert expr("`${1}`") == {"$template": [1]}
    assert expr("`${ {a: 1, b: 2}.a }`") == {"$template": [{"$get": [{"a": 1, "b": 2}, "a"]}]}
    assert expr("`${'}'}`") == "}"
    assert expr("`${f(`}`)}`") == {"$template": [{"f": ["}"]}]}


def test_arrays_and_objects() -> None:
    assert expr("[1, 'a', true,]") == [1, "a", True]
    assert expr("[]") == []
    assert expr("{}") == {}
    assert expr("{a: 1, b: 2}") == {"a": 1, "b": 2}
    assert expr("{a: 1}") == {"$object": {"a": 1}}
    assert expr("{$a: 1, b: 2}") == {"$object": {"$a": 1, "b": 2}}
    assert expr("{jfk, lga}") == {"jfk": {"$ref": "jfk"}, "lga": {"$ref": "lga"}}
    assert expr("{'a b': 1, \"c\": 2, 3: 4, 1.50: 5, 0x10: 6, 1e21: 7,}") == {
        "a b": 1,
        "c": 2,
        "3": 4,
        "1.5": 5,
        "16": 6,
        "1e+21": 7,
    }
    assert expr("{if: 1, new: 2}") == {"if": 1, "new": 2}
    assert expr("{undefined}") == {"$object": {"undefined": {"$undefined": None}}}


def test_member_chains_merge() -> None:
    assert expr("a.b.c") == {"$get": [{"$ref": "a"}, "b", "c"]}
    assert expr("a[0]['x'][b.c]") == {
        "$get": [{"$ref": "a"}, 0, "x", {"$get": [{"$ref": "b"}, "c"]}]
    }
    assert expr("(a.b).c") == {"$get": [{"$ref": "a"}, "b", "c"]}
    assert expr("a.if.new") == {"$get": [{"$ref": "a"}, "if", "new"]}
    assert expr("f(x).y") == {"$get": [{"f": [{"$ref": "x"}]}, "y"]}
    assert expr("'abc'.length") == {"$get": ["abc", "length"]}
    assert expr("(-1).x") == {"$get": [-1, "x"]}


def test_method_calls() -> None:
    assert expr("x.m(a)") == {"m": [{"$ref": "x"}, {"$ref": "a"}]}
    assert expr("a.b.m()") == {"m": [{"$get": [{"$ref": "a"}, "b"]}]}
    assert expr("a.b.m(1).c.d") == {"$get": [{"m": [{"$get": [{"$ref": "a"}, "b"]}, 1]}, "c", "d"]}
    assert expr("x.delete(y)") == {"delete": [{"$ref": "x"}, {"$ref": "y"}]}
    assert expr("f(1,)") == {"f": [1]}
    assert expr("(a).m()") == {"m": [{"$ref": "a"}]}


def test_comments_and_whitespace() -> None:
    source = "/* c */ a = // x\n f( /* y */ 1 )\t;\r\n// end\nreturn\u00a0a; /* done */"
    assert tree(source, strict=True) == {"$let": {"a": {"f": [1]}}, "$return": {"$ref": "a"}}


def test_empty_statements_are_allowed() -> None:
    assert tree(";a = 1;;\nreturn a;;", strict=True) == {"$let": {"a": 1}, "$return": {"$ref": "a"}}


def test_aliases_keep_source_order() -> None:
    t = tree("b = 1; a = 2; return [a, b];")
    assert list(t["$let"]) == ["b", "a"]
    assert list(t) == ["$let", "$return"]


# -- spans ---------------------------------------------------------------------------------------


def _text(result: FrontEndResult, path: tuple[Any, ...]) -> str:
    span = result.spans[path]
    assert result.source is not None
    return result.source[span.start : span.end]


def test_spans_point_into_the_source() -> None:
    source = "x = next(Thursday).at('9:00am');\nreturn f(x.y, [1, `a${b}`], {k: v});"
    r = parse_plan(source)
    assert r.lang == "plan"
    expected = {
        (): source,
        ("$let", "x"): "next(Thursday).at('9:00am')",
        ("$let", "x", "$name"): "x",
        ("$let", "x", "$method", 0): "next(Thursday)",
        ("$let", "x", "$method", 0, "next", 0): "Thursday",
        ("$let", "x", "$method", 2): "'9:00am'",
        ("$return",): "f(x.y, [1, `a${b}`], {k: v})",
        ("$return", "f", 0): "x.y",
        ("$return", "f", 0, "$get", 0): "x",
        ("$return", "f", 0, "$get", 1): "y",
        ("$return", "f", 1): "[1, `a${b}`]",
        ("$return", "f", 1, 0): "1",
        ("$return", "f", 1, 1): "`a${b}`",
        ("$return", "f", 1, 1, "$template", 0): "a",
        ("$return", "f", 1, 1, "$template", 1): "b",
        ("$return", "f", 2): "{k: v}",
        ("$return", "f", 2, "$object", "k"): "v",
    }
    for path, text in expected.items():
        assert _text(r, path) == text, path
    span = r.spans[("$return", "f", 0, "$get", 1)]
    assert (span.line, span.column, span.end_line, span.end_column) == (2, 12, 2, 13)


def test_every_node_has_a_span() -> None:
    r = parse_plan("a = f(1, 'x', [true, null], {p: q, r: s.t[0]});\nreturn g(a).h(`${a}`);")

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        assert path in r.spans, path
        if isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, (*path, i))
        elif isinstance(node, dict) and len(node) == 1:
            ((k, v),) = node.items()
            if k in ("$ref", "$undefined"):
                return
            items = v.items() if isinstance(v, dict) else enumerate(v)
            for kk, vv in items:
                walk(vv, (*path, k, kk))
        elif isinstance(node, dict):
            for k, v in node.items():
                walk(v, (*path, k))

    for name, value in r.tree["$let"].items():
        walk(value, ("$let", name))
    walk(r.tree["$return"], ("$return",))


def test_spans_dict_behaves_like_a_dict() -> None:
    r = parse_plan("return f(1);")
    assert len(r.spans) == 3
    assert dict(r.spans) == r.spans
    assert set(r.spans) == {(), ("$return",), ("$return", "f", 0)}
    assert isinstance(r.spans[("$return", "f", 0)], Span)
    assert r.spans.get(("nope",)) is None


def test_parse_expression_offsets() -> None:
    value, spans = parse_expression("f(a.b)", line=3, column=10, offset=100)
    assert value == {"f": [{"$get": [{"$ref": "a"}, "b"]}]}
    assert spans[()] == Span(3, 10, 3, 16, 100, 106)
    assert spans[("f", 0, "$get", 1)] == Span(3, 14, 3, 15, 104, 105)
    _, spans = parse_expression("[\n  x]", line=2, column=5, offset=10)
    assert spans[(0,)] == Span(3, 3, 3, 4, 14, 15)


def test_parse_expression_errors_are_in_outer_coordinates() -> None:
    with pytest.raises(SourceError) as info:
        parse_expression("f(a #)", line=4, column=7, offset=50)
    problem = info.value.problems[0]
    assert (problem.line, problem.column, problem.offset) == (4, 11, 54)
    assert "^" in str(info.value)
    with pytest.raises(SourceError):
        parse_expression("a; b")
    with pytest.raises(SourceError):
        parse_expression("  ")


# -- lenient repairs -----------------------------------------------------------------------------


def test_lenient_repairs_with_warnings() -> None:
    source = "```js\nconst a = f(1)\nlet b = g(a)\nh(b)\n```\n"
    r = parse_plan(source)
    assert r.tree == {
        "$let": {"a": {"f": [1]}, "b": {"g": [{"$ref": "a"}]}},
        "$return": {"h": [{"$ref": "b"}]},
    }
    joined = "\n".join(r.warnings)
    assert "line 1, column 1: removed the markdown code fence" in joined
    assert "const" not in joined and "let" not in joined  # JavaScript declarations: no repair
    assert "line 2, column 15: added the missing `;`" in joined
    assert "line 4, column 1: added `return`" in joined
    assert "line 5, column 1: removed the closing code fence" in joined
    # spans still point into the original text
    assert r.source == source
    assert _text(r, ("$return",)) == "h(b)"


@pytest.mark.parametrize("fence", ["```", "```javascript", "```js", "```typescript"])
def test_fences(fence: str) -> None:
    assert tree(f"{fence}\nreturn 1;\n```") == {"$return": 1}


def test_strict_rejects_what_lenient_repairs() -> None:
    for source in [
        "```js\nreturn 1;\n```",
        "a = 1\nreturn a;",
        "return 1",
        "f(1);",
        "return\n1;",
    ]:
        parse_plan(source)  # lenient: fine
        with pytest.raises(SourceError):
            parse_plan(source, strict=True)


def test_no_warnings_for_canonical_plans() -> None:
    assert parse_plan("a = 1;\nreturn a;").warnings == []


# -- errors --------------------------------------------------------------------------------------


def test_error_has_line_column_caret_and_hint() -> None:
    e = error("a = f(1);\nreturn a @ 1;")
    assert e.code == "syntax_error"
    assert e.lang == "plan"
    p = e.problems[0]
    assert (p.line, p.column) == (2, 10)
    text = str(e)
    assert "line 2, column 10" in text
    assert "    return a @ 1;\n             ^" in text
    assert "Plan has the operators" in text


def test_several_errors_at_once() -> None:
    e = error("a = 1 @ 2;\nb = 'abc;\nc = f(;\nd = ok(1);\nreturn d;")
    assert [(p.line, p.column) for p in e.problems] == [(1, 7), (2, 5), (3, 7)]
    assert str(e).startswith("3 syntax errors in the plan program:")


def test_resync_at_line_start_without_semicolon() -> None:
    e = error("a = f(1, \nb = g(;\nreturn b;")
    assert len(e.problems) == 2


@pytest.mark.parametrize(
    ("source", "message", "hint"),
    [
        ("return f(1)(2);", "only a function name or a method can be called", "not values"),
        ("return a[0](1);", "only a function name or a method can be called", "not values"),
        ("return (f)(1);", "only a function name or a method can be called", "not values"),
        ("return true(1);", "`true` is not a function", None),
        ("return if(x);", "Plan has no `if`", "test ? a : b"),
        ("x = new Foo();\nreturn x;", "Plan has no `new`", "call a function instead"),
        ("return function f() {};", "a named function expression", "arrow function"),
        ("return a @ b;", "Plan has no operator `@`", "Plan has the operators"),
        ("return a++;", "`++` is read only in a statement of its own", "a statement of its own"),
        ("return a instanceof b;", "the right side of `instanceof` must be one", "Array.isArray"),
        ("return void a;", "`void` takes a literal here", "write undefined"),
        ("typeof = 1;\nreturn 1;", "`typeof` cannot be an alias name", "`typeof` is an operator"),
        ("return a ?? b || c;", "`??` cannot be mixed with `||`", "(a || b) ?? c"),
        ("return -x ** 2;", "a unary operator before `**` needs parentheses", "(-x) ** 2"),
        ("return (a?.b).c;", "parentheses end an optional chain", "(a?.b ?? {}).c"),
        ("return a?.b.f();", "cannot continue an optional chain", "v == null ? undefined"),
        ("const [a, ...r, b] = v;\nreturn r;", "must be the last element", "...rest] = v"),
        ("const [a, ...] = v;\nreturn a;", "expected a name after `...`", None),
        ("return xs.map(x => { f(x); });", "the arrow function's body has no `return`", None),
        ("return -1 .x;", "a signed number cannot be followed", "(-1)"),
        ("return [1,,2];", "empty array element", None),
        ("return f(a,, b);", "expected an expression", "extra comma"),
        ("return {a: 1, a: 2};", "duplicate key `a`", None),
        ("return {a = 1};", "expected `:`", None),
        ("return {m() {}};", "no methods", None),
        ("return 'a' 'b';", "expected `;`", None),
        ("return 1_000;", "numeric separators", "1000"),
        ("return 10n;", "BigInt", None),
        ("return 3in;", "invalid number", None),
        ("return 007;", "cannot start with 0", None),
        ("return 1e;", "exponent", None),
        ("return 1e999;", "too large", None),
        ("return a # b;", "Plan has no operator `#`", None),
        ("return café;", "identifiers must be ASCII", None),
        ("return \\u0061;", "unexpected backslash", None),
        ("return /* open", "unterminated comment", None),
        ("a = 1;", "no `return` statement", "return expr;"),
        ("", "no `return` statement", None),
        ("return 1;\nreturn 2;", "statements after `return`", "must be the last"),
        ("return 1;\nb = 2;", "statements after `return`", "move alias definitions"),
        ("if = 1;\nreturn if;", "`if` cannot be an alias name", None),
        ("this = 1;\nreturn 1;", "`this` cannot be an alias name", None),
        ("undefined = 1;\nreturn 1;", "`undefined` cannot be an alias name", None),
        ("return {this};", "cannot be a shorthand property", None),
        ("a = b = 1;\nreturn a;", "Plan has no operator `=`", "one per statement"),
        ("return f(1", "expected `,` or `)`", "ended early"),
        ("return `${}`;", "empty substitution", None),
        ("return `${a b}`;", "expected `}` to close", None),
        ("return @x;", "expected an expression", None),
        ("return $f(1);", "cannot start with `$`", "core forms"),
        ("return x.$ref(1);", "cannot start with `$`", "core forms"),
    ],
)
def test_error_messages(source: str, message: str, hint: str | None) -> None:
    e = error(source)
    assert message in e.problems[0].message, str(e)
    if hint is not None:
        assert e.problems[0].hint is not None and hint in e.problems[0].hint, str(e)


def test_lone_surrogates_in_the_source() -> None:
    assert "lone UTF-16 surrogate" in str(error("return '\ud800';"))
    with pytest.raises(SourceError):
        parse_expression("'\udc00'")


def test_duplicate_alias_names_both_lines() -> None:
    e = error("a = 1;\nb = 2;\na = 3;\nreturn a;")
    assert "the alias `a` is defined twice (line 1, column 1 and line 3, column 1)" in str(e)
    assert e.problems[0].line == 3


def test_strict_messages() -> None:
    assert "missing `;`" in str(error("return 1", strict=True))
    assert parse_plan("const a = 1;\nreturn a;", strict=True).tree == {
        "$let": {"a": 1},
        "$return": {"$ref": "a"},
    }
    assert "missing `return`" in str(error("f(1);", strict=True))
    assert "same line as `return`" in str(error("return\nf(1);", strict=True))
    assert "markdown code fence" in str(error("```\nreturn 1;\n```", strict=True))


def test_depth_limit_is_a_clean_error() -> None:
    deep = "return " + "f(" * 150 + ")" * 150 + ";"
    e = error(deep)
    assert "nested more than 100 levels" in str(e)
    assert parse_plan("return " + "[" * 50 + "]" * 50 + ";").tree["$return"] is not None
    very_deep = "return " + "[" * 100_000 + "]" * 100_000 + ";"
    assert "nested" in str(error(very_deep))
    assert "nested" in str(error(very_deep, max_depth=10**9))  # RecursionError is caught
    with pytest.raises(SourceError):
        parse_expression("[" * 200 + "]" * 200)


def test_size_limit() -> None:
    big = "return '" + "x" * 1_000_001 + "';"
    assert "too large" in str(error(big))
    assert parse_plan("return 1;", max_length=20).tree == {"$return": 1}
    assert "too large" in str(error("return 123456789;", max_length=10))


def test_long_programs_parse() -> None:
    source = "".join(f"a{i} = f({i}, a{i - 1});\n" for i in range(1, 2000)) + "return a1999;"
    t = tree("a0 = 0;\n" + source)
    assert len(t["$let"]) == 2000


# -- the two lexer paths agree ------------------------------------------------------------------


def _precise_tokens(source: str) -> list[Any]:
    out: Any = ([], [], [], [])
    _precise(source, 0, out)
    return list(zip(*out, strict=True))


def test_fast_and_precise_lexers_agree(plan_corpus: list[str]) -> None:
    extra = [
        "return `a${ {a: 1}.a }b${'}'}c`;",
        "return 'a`b' + `x`;",
        "a = 1; // comment with ` backtick\nreturn `${a}`;",
        "return `${`${`${x}`}`}`;",
        "return x\u2029;",
        "return a == b;",
        "return .5 + 0x1F;",
    ]
    for source in [*plan_corpus, *extra]:
        assert tokenize(source) == _precise_tokens(source), source
