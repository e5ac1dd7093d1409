"""What a model wrote from JavaScript that programs do not have gets a hint of what to write
instead (not Dialect JSON's advice about one-key objects, which only a JSON call needs)."""

from __future__ import annotations

import pytest

import dialectic.testing
from dialectic import Runtime
from tests.expressions.node_oracle import node_values

RT = Runtime(load_entry_points=False)


@pytest.mark.parametrize(
    ("program", "code", "advice"),
    [
        ("return [1, 2].forEach(x => x);", "unknown_function", "`xs.forEach(x => { ... });`"),
        ("return console.log('hi');", "unknown_function", "return what you want to see"),
        ("return Object.assign(o, {b: 1});", "syntax_error", "{...target, ...source}"),
        ("return Object.groupBy([1], x => x);", "syntax_error", "group with reduce"),
        ("return Array.from(5);", "expression_error", "Array.from({length: n}, (_, i) => i)"),
        ("return Array.from([1], (x, i, a) => a);", "syntax_error", "(item, i) only"),
        ("r = (await upper('x')).then(v => v); return r;", "unknown_function", "awaited for you"),
        ("return now();", "unknown_function", "Date.now()"),
        ("return Math.random() * 6;", "unknown_function", "pass the random values in the context"),
        ("return Number.round(2.5);", "unknown_function", "Number.isInteger"),
        ("return JSON.pretty({});", "unknown_function", "JSON.parse, JSON.stringify"),
        ("return (25).toString;", "forbidden_member", "String(x)"),
        ("return {a: 1}.hasOwnProperty;", "forbidden_member", "Object.hasOwn(x, 'k')"),
        ("const o = data; o.a = 1; return o;", "syntax_error", "{...o, key: value}"),
        ("const o = {a: 1}; const r = [o]; o['a'] += 1; return o;", "syntax_error", "{...o, "),
        (
            "return [1].reduce((g, x) => { (g[String(x)] = g[String(x)] || []).push(x); "
            "return g; }, {});",
            "syntax_error",
            "o[k] = [...(o[k] ?? []), x];",
        ),
        ("const s = new Set([1, 1]); return s;", "expression_error", "[...s]"),
        ("const m = new Map(); return m;", "expression_error", "Object.fromEntries"),
        ("return new Map;", "syntax_error", "new Map(pairs)"),
        ("return new Date('Jan 1, 2024');", "invalid_program", "ISO 8601"),
        ("return new Date;", "syntax_error", "new Date(text)"),
        ("return new Thing();", "syntax_error", "call a function instead"),
        ("return /\\d+(?=px)/.test('4px');", "syntax_error", "s.match(/(\\d+)px/)[1]"),
        ("return /(a)\\1/.test('aa');", "syntax_error", "m[1] === m[2]"),
        ("let i = 0; while (true) { i++; } return i;", "syntax_error", "if (done) break;"),
        # a parameter called as the function of its name (was run as the registered function)
        ("return [1, 2].map((x, upper) => upper('a'));", "syntax_error", "another name"),
        ("return ['a'].map(upper => upper(upper));", "syntax_error", "another name"),
        ("let i = 0; do { i++; } while (1); return i;", "syntax_error", "while (page !== null)"),
        (
            "const r = []; for (const c of [1]) { for (let i = 0; i < 3; i *= 2) r.push(i); } "
            "return r;",
            "syntax_error",
            "write while",
        ),
        ("const r = []; for (const c of cs) { r.push(c); } return r;", "unknown_identifier", ""),
        ("return 1 / 0;", "invalid_value", "Number.isFinite(x) ? x : null"),
        ("return NaN;", "unknown_identifier", "Number.isFinite"),
        # an alias or a parameter hiding a global the front end reads itself: Node would read
        # the alias (`Math.PI` 3 here), so none may have the name
        ("const Math = {PI: 3}; return Math.PI;", "syntax_error", "choose another name"),
        ("return [{max: 1}].map(Math => Math.max(2, 3));", "syntax_error", "another name"),
        ("const {JSON} = {JSON: 1}; return JSON;", "syntax_error", "choose another name"),
        (  # the program's own function must be defined at its top (SPEC 10, "Functions")
            "const xs = [1].map(x => { function f() { return 1; } return f(); });\nreturn xs;",
            "syntax_error",
            "define functions at the top of the program",
        ),
    ],
)
def test_a_javascript_habit_gets_what_to_write_instead(
    program: str, code: str, advice: str
) -> None:
    out = RT.run(program, lang="plan")
    assert out.status == "failure"
    assert out.error is not None
    assert out.error.code == code
    assert out.error.hint is not None
    assert advice in out.error.hint
    assert "$object" not in out.error.hint


def test_an_unknown_function_in_plan_gets_no_json_advice() -> None:
    out = RT.run("return frobnicate(1, 2);", lang="plan")
    assert out.error is not None and out.error.code == "unknown_function"
    assert out.error.hint == "`dialectic describe` lists the functions."


def test_a_one_key_object_in_dialect_json_still_gets_the_object_advice() -> None:
    out = RT.run({"person": {"name": "Ada"}})
    assert out.error is not None and out.error.code == "unknown_function"
    assert out.error.hint is not None and '{"$object": {...}}' in out.error.hint


def test_all_settled_gives_javascripts_shape_with_rejected_entries() -> None:
    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    program = "const r = await Promise.allSettled([async_add(1, 2), async_add(3, 4)]);\nreturn r;"
    out = rt.run(program, lang="plan")
    assert out.status == "success", out.message
    js = "[{status: 'fulfilled', value: 3}, {status: 'fulfilled', value: 7}]"
    assert out.value == node_values([js], None)[0]["ok"]
    picked = rt.run(
        "r = Promise.allSettled([async_add(1, 2)]);\n"
        "return r.filter(s => s.status === 'fulfilled').map(s => s.value);",
        lang="plan",
    )
    assert picked.value == [3]
    # a call that fails as JavaScript throws is a `rejected` entry, whose reason reads its message
    failed = rt.run(
        "const r = await Promise.allSettled([async_add(1, 2), boom('no')]);\n"
        "return r.map(s => s.status === 'rejected' ? s.reason.name : s.value);",
        lang="plan",
    )
    assert failed.status == "success", failed.message
    assert failed.value == [3, "Error"]


@pytest.mark.parametrize(
    "program",
    [
        {"tool_calls": [{"type": "function", "function": {"name": "upper", "arguments": "{}"}}]},
        {"function_call": {"name": "upper", "arguments": "{}"}},
        {"content": [{"type": "tool_use", "id": "t", "name": "upper", "input": {"text": "a"}}]},
    ],
)
def test_a_vendor_message_without_its_marker_says_what_is_missing(program: object) -> None:
    out = RT.run(program)
    assert out.error is not None and out.error.code == "unknown_function"
    assert out.error.hint is not None and '"role": "assistant"' in out.error.hint


def test_number_parse_int_is_parse_int() -> None:
    out = RT.run("return [Number.parseInt('0x1f'), Number.parseFloat('2.5kg')];", lang="plan")
    assert (
        out.value
        == node_values(["[Number.parseInt('0x1f'), Number.parseFloat('2.5kg')]"], None)[0]["ok"]
    )


def test_a_plugin_function_named_like_a_method_does_not_break_the_method() -> None:
    """The testing plugin registers `concat(a, b)`: three arguments cannot bind to it, so the
    method is JavaScript's `concat` (it failed to compile)."""
    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    assert rt.run("return 'ab'.concat('c', 'd');", lang="plan").value == "abcd"
    assert rt.run("return [1].concat([2], 3);", lang="plan").value == [1, 2, 3]


@pytest.mark.parametrize(
    ("body", "advice"),
    [
        ("{ acc[x] = (acc[x] || 0) + 1; return acc; }", "({...acc, [x.key]:"),
        ("{ acc.total = acc.total + x; return acc; }", "({...acc, [x.key]:"),
        ("{ acc.push(x * 2); return acc; }", "[...acc, x]"),
        ("{ acc.n++; return acc; }", "({...acc, [x.key]:"),
    ],
)
def test_a_change_to_a_value_in_an_arrow_gets_the_new_value_to_return(
    body: str, advice: str
) -> None:
    # (no initial value: from a new `{}` the first three run, SPEC 1.8 "reduce with an
    # accumulator changed in place")
    out = RT.run(f"return [1, 2].reduce((acc, x) => {body});", lang="plan")
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "syntax_error"
    assert out.error.hint is not None and advice in out.error.hint, out.error.hint


def test_a_parameter_set_in_an_arrow_s_body_is_its_let() -> None:
    """`acc += x;` sets the arrow's own binding, a `let` (SPEC 10, "Functions"): Node's 3 (it
    was refused as a change to a value, with the hint to return the new value)."""
    out = RT.run("return [1, 2].reduce((acc, x) => { acc += x; return acc; });", lang="plan")
    assert (out.status, out.value) == ("success", 3), out.message


def test_the_advised_counting_reduce_runs_as_in_node() -> None:
    program = "[1, 2, 1].reduce((acc, x) => ({...acc, [x]: (acc[x] ?? 0) + 1}), {})"
    (node,) = node_values([program], None)
    out = RT.run(f"return {program};", lang="plan")
    assert out.status == "success", out.message
    assert node == {"ok": out.value} == {"ok": {"1": 2, "2": 1}}


def test_the_advised_distinct_items_run_as_in_node() -> None:
    program = "[3, 1, 3, 'a', 1, 'a'].filter((x, i, xs) => xs.indexOf(x) === i)"
    (node,) = node_values([program], None)
    out = RT.run(f"return {program};", lang="plan")
    assert out.status == "success", out.message
    assert node == {"ok": out.value} == {"ok": [3, 1, "a"]}
