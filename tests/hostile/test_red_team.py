"""A red team's pass over the three notations (SPEC.md sections 7 and 8): memory and time bombs,
ways out of the data, hostile YAML and JSON, and runs that must leave nothing running.

The first tests reproduce what failed before this module (each says what it did); the rest pin
the attacks that already ended in a clean failure. Every run is checked by ``check_outcome``
(one of the three outcomes, no internal error, no traceback); the worst memory cases run in a
subprocess that reports its peak memory."""

from __future__ import annotations

import asyncio
import json
import math
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest

import dialectic.testing
from dialectic import Limits, Outcome, Runtime
from dialectic.values.data import UNDEFINED, defined
from dialectic.values.infinity import infinity_leaving
from tests.expressions.program_oracle import check as node_check

Clean = Callable[..., Outcome]

#: (bytes) the most a hostile run in a subprocess may hold at its peak, the interpreter's own
#: ~50 MB included: "a few hundred MB" (SPEC 7)
PEAK_BYTES = 700 * 2**20

#: a value of 2**30 leaves that shares its arrays: a few hundred bytes as a program
DAG = "let a = [1]; for (const i of Array.from({length: 30}, (_, j) => j)) { a = [a, a]; } "


def failed(out: Outcome, code: str, limit: str | None = None) -> str:
    """The failure's message, after checking its code (and ``details.limit``)."""
    assert out.status == "failure", (out.status, out.value)
    assert out.error is not None
    assert out.error.code == code, (out.error.code, out.message)
    if limit is not None:
        assert out.error.details.get("limit") == limit, out.error.details
    return out.message or ""


def peak_run(program: str) -> tuple[dict[str, Any], int]:
    """``program`` (Plan) run by a fresh interpreter with the testing functions: its outcome
    as JSON and the interpreter's peak memory in bytes (its own high-water mark, VmHWM: the
    ``ru_maxrss`` of a child of a big process starts at its parent's size, kept across exec)."""
    script = (
        "import json, sys\n"
        "import dialectic.testing\n"
        "from dialectic import Runtime\n"
        "rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)\n"
        "out = rt.run(sys.stdin.read(), lang='plan')\n"
        "status = open('/proc/self/status').read().split('VmHWM:')[1].split()[0]\n"
        "peak = int(status) * 1024\n"
        "print(json.dumps({'outcome': out.to_json(), 'peak': peak}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=program,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    report = json.loads(done.stdout)
    return report["outcome"], int(report["peak"])


# -- findings: each failed before this module -----------------------------------------------


def test_a_ten_million_item_argument_is_checked_in_little_memory() -> None:
    # `Array.from({length: n})` is n `undefined`s; as a function's argument each becomes null,
    # and the walk that looks for an infinity first held one pending entry per item with its
    # path: 2.2 GB and 41 s for this program (now about 280 MB and a few seconds)
    outcome, peak = peak_run("return count(Array.from({length: 1e7}));")
    assert outcome["status"] == "success", outcome
    assert outcome["value"] == 10_000_000
    assert peak < PEAK_BYTES, f"peak {peak / 2**20:.0f} MB"


def test_the_infinity_walk_finds_the_first_in_document_order() -> None:
    shared = [1.5, math.inf]
    value: Any = [1, [2, {"a": 3.0, "b": [shared, -math.inf]}], shared]
    found = infinity_leaving(value)
    assert found is not None
    assert found.infinity == math.inf and found.where == (1, 1, "b", 0, 1)
    assert infinity_leaving([[0.5] * 100, {"k": [None] * 100}]) is None
    long = [None] * 100 + [-math.inf]  # (a long array is scanned by its kinds first)
    found = infinity_leaving({"xs": long})
    assert found is not None and found.where == ("xs", 100)


def test_a_long_array_of_undefined_leaves_the_run_as_nulls() -> None:
    held = [1, UNDEFINED, "x", None, 2.5] * 20
    assert defined(held) == [1, None, "x", None, 2.5] * 20
    assert defined({"a": [UNDEFINED] * 50, "b": UNDEFINED}) == {"a": [None] * 50}


def test_flat_of_shared_arrays_stops_at_the_steps_not_after_ten_million_items(
    clean: Clean,
) -> None:
    # `flat` unfolded 2**30 shared leaves up to the 10,000,000-item limit (13 s) before its
    # steps were counted; it now stops where the run's steps end
    for depth in ("Infinity", "40"):
        out = clean(DAG + f"return a.flat({depth}).length;", lang="plan")
        failed(out, "limit_exceeded", "max_steps")
    out = clean("return [[1, [2, [3]]], [4]].flat(Infinity);", lang="plan")
    assert out.value == [1, 2, 3, 4]
    rt = dialectic_runtime(max_steps=20)
    out = clean("return [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]].flat();", lang="plan", runtime=rt)
    assert out.value == list(range(1, 11))  # (5 steps for the receiver, 10 for the items)
    out = clean("return [[" + "0, " * 25 + "]].flat();", lang="plan", runtime=rt)
    failed(out, "limit_exceeded", "max_steps")  # (2 steps for the receiver, 25 for the items)


def test_text_methods_count_a_step_per_block_of_the_text_they_read_or_make(clean: Clean) -> None:
    # `big.includes(x)` on a megabyte text counted one step: a loop of them ran until the
    # deadline (120 s of CPU); each now counts a step per TEXT_STEP characters read or made
    from dialectic.compiler.textsteps import TEXT_STEP

    big = "const big = 'ab'.repeat(500000); "
    for call in ("big.includes('z')", "big.toUpperCase().length", "big.split('b').length"):
        program = big + f"let n = 0; for (let i = 0; i < 100000; i++) {{ n += {call} ? 1 : 0; }}"
        failed(clean(program + " return n;", lang="plan"), "limit_exceeded", "max_steps")
    rt = dialectic_runtime(max_steps=60)
    text = "x" * (TEXT_STEP * 10)
    reads = f"const t = '{text}'; return [t.includes('y'), t.indexOf('y'), t.trim().length];"
    out = clean(reads, lang="plan", runtime=rt)
    assert out.value == [False, -1, TEXT_STEP * 10]  # (within 60 steps: about 10 per method)
    out = clean(reads, lang="plan", runtime=dialectic_runtime(max_steps=25))
    failed(out, "limit_exceeded", "max_steps")
    small = "const t = 'hello'; return [t.includes('l'), t.toUpperCase(), t.split('l')];"
    out = clean(small, lang="plan", runtime=dialectic_runtime(max_steps=10))
    assert out.value == [True, "HELLO", ["he", "", "o"]]  # (short texts: a step each)


def test_an_array_of_undefined_items_counts_a_step_per_block_of_its_items(clean: Clean) -> None:
    # `Array.from({length: n})` without a mapper counted one step: a loop of them made a
    # million items each time until the deadline; it now counts n / 256, as a copy does
    program = "let n = 0; for (let i = 0; i < 100000; i++) {{ n += {0}.length; }} return n;"
    out = clean(program.format("Array.from({length: 1e6})"), lang="plan")
    failed(out, "limit_exceeded", "max_steps")
    rt = dialectic_runtime(max_steps=20)
    out = clean("return Array.from({length: 2560}).length;", lang="plan", runtime=rt)
    assert out.value == 2560  # (one step, and ten for the items)
    out = clean("return Array.from({length: 25600}).length;", lang="plan", runtime=rt)
    failed(out, "limit_exceeded", "max_steps")


def dialectic_runtime(**limits: Any) -> Runtime:
    return Runtime(plugins=[dialectic.testing], load_entry_points=False, limits=Limits(**limits))


#: an object whose own member `hasOwnProperty` JavaScript calls (and throws: it is no
#: function); before, `o.hasOwnProperty(k)` was `Object.hasOwn(o, k)` and answered
SHADOWED = [
    "const o = JSON.parse('{\"hasOwnProperty\": 1}'); return o.hasOwnProperty('a');",
    "const o = {hasOwnProperty: 1, a: 2}; return o.hasOwnProperty('a');",
    "return JSON.parse('[{\"hasOwnProperty\": true}]').filter(o => o.hasOwnProperty('x'));",
]


@pytest.mark.parametrize("program", SHADOWED)
def test_a_shadowed_has_own_property_is_refused_as_node_throws(clean: Clean, program: str) -> None:
    message = failed(clean(program, lang="plan"), "expression_error")
    assert "member `hasOwnProperty` of its own" in message
    assert "Object.hasOwn(o, k)" in message


def test_has_own_property_answers_as_node_does_elsewhere() -> None:
    sources = [
        "return JSON.parse('{\"a\": 1}').hasOwnProperty('a');",
        "return [{a: 1}, {b: 2}].filter(p => p.hasOwnProperty('a')).length;",
        "return 'abc'.hasOwnProperty('length');",
        "return [1, 2].hasOwnProperty(1);",
        "return ({toString: 1}).hasOwnProperty('toString');",
        "const o = JSON.parse('{\"hasOwnProperty\": 1}'); return Object.hasOwn(o, 'a');",
        "const o = JSON.parse('{\"hasOwnProperty\": 1}');"
        " return Object.prototype.hasOwnProperty.call(o, 'hasOwnProperty');",
        *SHADOWED,
    ]
    verdicts = node_check(sources)
    assert [v for v in verdicts if v.kind in ("wrong", "crash")] == []
    assert [v.kind for v in verdicts[: len(sources) - len(SHADOWED)]] == ["same"] * (
        len(sources) - len(SHADOWED)
    )


#: an object with a member `__proto__` (only JSON text or a function's reply makes one) merged:
#: `Object.assign({}, o)` (the tree of `{...o}`) sets the prototype in Node, so Node's answer is
#: `{}`; the merge copied the member and answered `{"__proto__": {...}}`
PROTO = 'JSON.parse(\'{"__proto__": {"a": 1}, "b": 2}\')'


@pytest.mark.parametrize(
    "program",
    [
        f"return Object.assign({{}}, {PROTO});",
        f"return Object.assign({{}}, {{k: 1}}, {PROTO}).b;",
        f"return {{...{PROTO}}};",
        f"return {{...{PROTO}, c: 3}};",
        f"return [{PROTO}, {PROTO}].map(o => ({{...o, c: 3}}));",
        f"return [{PROTO}].reduce((acc, o) => ({{...acc, ...o}}), {{}});",
        f"return [{{x: 1}}].reduce((acc, o) => ({{...acc, ...o}}), {PROTO});",
        f"return [{{x: 1}}].map(o => Object.assign({{}}, {PROTO}, o));",
    ],
)
def test_merging_an_object_with_a_proto_member_is_refused(clean: Clean, program: str) -> None:
    message = failed(clean(program, lang="plan"), "expression_error")
    assert "`__proto__`" in message and "k !== '__proto__'" in message


def test_merging_without_a_proto_member_is_nodes_answer() -> None:
    sources = [
        'return Object.assign({}, {a: 1}, JSON.parse(\'{"b": 2, "proto": 3}\'));',
        'return JSON.parse(\'[{"a": 1}, {"a": 2}]\').map(o => ({...o, c: 3}));',
        "return [{x: 1}, {y: 2}].reduce((acc, o) => ({...acc, ...o}), {});",
        f"return Object.fromEntries(Object.entries({PROTO}).filter(([k]) => k !== '__proto__'));",
    ]
    verdicts = node_check(sources)
    assert [v.kind for v in verdicts] == ["same"] * len(sources), verdicts


def test_merging_in_json_notation_is_refused_too(clean: Clean) -> None:
    program = {"$merge": [{"$global": ["JSON.parse", '{"__proto__": 1}']}, {"$object": {}}]}
    failed(clean(program), "expression_error")


# -- pinned: attacks that end cleanly ---------------------------------------------------------

#: (program, the failure's code, its `details.limit` or None)
BOMBS = [
    ("return 'x'.repeat(2**28);", "limit_exceeded", "max_string_length"),
    ("return 'ab'.padStart(1e9);", "limit_exceeded", "max_string_length"),
    ("return 'ab'.padEnd(1e9, 'xy');", "limit_exceeded", "max_string_length"),
    ("return Array(1e9).fill(0);", "limit_exceeded", None),
    ("return Array(9999999).fill(0).length;", "limit_exceeded", "max_steps"),
    ("return Array.from({length: 1e9}).length;", "limit_exceeded", None),
    ("return Array.from({length: 9e6}, (_, i) => i).length;", "limit_exceeded", "max_steps"),
    ("return [...Array(1e8).keys()].length;", "limit_exceeded", None),
    ("return new Set(Array.from({length: 1e6}, (_, i) => i)).size;", "limit_exceeded", None),
    ("return 'x'.repeat(1000000).split('').length;", "limit_exceeded", "max_steps"),
    (
        "let s = 'ab'; for (const i of Array.from({length: 40}, (_, j) => j)) { s += s; }"
        " return s.length;",
        "limit_exceeded",
        "max_string_length",
    ),
    (DAG + "return JSON.stringify(a).length;", "limit_exceeded", "max_string_length"),
    (DAG + "return String(a).length;", "limit_exceeded", "max_string_length"),
    (DAG + "return a.join(',').length;", "limit_exceeded", "max_string_length"),
    (DAG + "return a;", "limit_exceeded", "max_output_bytes"),
    (DAG + "return echo(a);", "limit_exceeded", "max_output_bytes"),
    (DAG + "return structuredClone(a);", "limit_exceeded", "max_output_bytes"),
    (
        "let a = [[1]]; for (const i of Array.from({length: 23}, (_, j) => j))"
        " { a = [...a, ...a]; } return a.flat().length;",
        "limit_exceeded",
        "max_steps",
    ),
    ("return (123.456).toPrecision(1000);", "expression_error", None),
    ("return (1).toFixed(101);", "expression_error", None),
    ("return new Date(1e300).getTime();", "expression_error", None),
    ("return 'a'.localeCompare('b', 'x-'.repeat(10000));", "expression_error", None),
    ("return new RegExp('a'.repeat(100000)).test('a');", "expression_error", None),
    ("return new RegExp('('.repeat(5000) + ')'.repeat(5000)).test('a');", "expression_error", None),
    ("return [3, 1, 2].sort(() => { throw new Error('x'); });", "thrown", None),
    ("return [3, 1, 2].sort((a, b) => 'x');", "expression_error", None),
    (
        "function f(n) { return n === 0 ? 0 : 1 + f(n - 1); } return f(100000);",
        "limit_exceeded",
        "max_recursion",
    ),
    (
        "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } return fib(40);",
        "limit_exceeded",
        "max_steps",
    ),
    ("await new Promise(r => setTimeout(r, 1e9)); return 1;", "limit_exceeded", "deadline"),
]


@pytest.mark.parametrize(("program", "code", "limit"), BOMBS)
def test_bombs_fail_at_their_limit(
    clean: Clean, program: str, code: str, limit: str | None
) -> None:
    failed(clean(program, lang="plan"), code, limit)


@pytest.mark.parametrize(
    "program",
    [
        "return /(a+)+$/.test('a'.repeat(40) + 'b');",
        "return /(a|a)*b/.test('a'.repeat(100000));",
        "return /(x+x+)+y/.test('x'.repeat(5000));",
    ],
)
def test_catastrophic_patterns_answer_at_once(clean: Clean, program: str) -> None:
    out = clean(program, lang="plan")
    assert out.status == "success" and out.value is False


def test_a_comparator_that_lies_sorts_as_node_does() -> None:
    sources = [
        "return Array.from({length: 1000}, (_, i) => i).sort((a, b) => 1).slice(0, 5);",
        "return Array.from({length: 1000}, (_, i) => i).sort((a, b) => -1).slice(0, 5);",
        "return Array.from({length: 10}, (_, i) => i).sort((a, b) => undefined);",
    ]
    verdicts = node_check(sources)
    assert [v for v in verdicts if v.kind in ("wrong", "crash")] == [], verdicts


#: ways toward JavaScript's or Python's insides: each refused, by code
ESCAPES = [
    ("const k = 'con' + 'structor'; return ({})[k];", "forbidden_member"),
    ("const k = ['__pro', 'to__'].join(''); return ({})[k];", "forbidden_member"),
    ("const k = `${'proto'}type`; const o = {}; return o[k];", "forbidden_member"),
    ("return ({})['\\u0063onstructor'];", "forbidden_member"),
    ("return ({}).\\u0063onstructor;", "syntax_error"),
    ("return ({a: 1})['__' + 'class__'];", "forbidden_member"),
    ("return 'abc'['__class__'];", "forbidden_member"),
    ("return [1, 2].__len__;", "forbidden_member"),
    ("return JSON.parse('{\"constructor\": 1}').constructor;", "forbidden_member"),
    ("return JSON.parse('{\"a\": 1}').valueOf();", "forbidden_member"),
    ("const o = {}; o['__proto__'] = {a: 1}; return o.a;", "forbidden_member"),
    ("const o = {}; const k = '__proto__'; o[k] = 1; return o;", "expression_error"),
    ("return Object.fromEntries([['__proto__', {a: 1}]]);", "expression_error"),
    ("return Object.getPrototypeOf({});", "unknown_function"),
    ("return Reflect.get({a: 1}, 'a');", "unknown_identifier"),
    ("return globalThis;", "unknown_identifier"),
    ("return process.env;", "unknown_identifier"),
    ("return this;", "unknown_identifier"),
    ("return Function('return 1')();", "syntax_error"),
    ("return eval('1+1');", "unknown_function"),
    ("return import('fs');", "syntax_error"),
    ("return require('fs');", "unknown_function"),
    ("return Symbol('x');", "unknown_function"),
    ("function f() { return arguments; } return f(1);", "syntax_error"),
    ("return { get x() { return 1; } }.x;", "syntax_error"),
    ("return 1 + { toString() { return 'x'; } };", "syntax_error"),
    ("return 1 + { valueOf: () => 2 };", "invalid_program"),
    ("return String.raw`a${1}b`;", "syntax_error"),
    ("function tag(s) { return s; } return tag`a`;", "syntax_error"),
    ("with ({a: 1}) { return a; }", "syntax_error"),
    ("setTimeout(() => 1, 1e9); return 1;", "unknown_function"),
    ("return ({'\\0': 1, '\\ud800': 2});", "syntax_error"),
    ("const o = JSON.parse('{\"toString\": 1}'); return o + 1;", "expression_error"),
    ("const o = JSON.parse('{\"toString\": 1}'); return [o].join();", "expression_error"),
    ("const o = JSON.parse('{\"toString\": 1}'); return String(o);", "expression_error"),
    ("const o = JSON.parse('{\"valueOf\": 5}'); return o < 1;", "expression_error"),
]


@pytest.mark.parametrize(("program", "code"), ESCAPES)
def test_escapes_are_refused(clean: Clean, program: str, code: str) -> None:
    failed(clean(program, lang="plan"), code)


def test_labels_named_like_builtins_are_only_labels(clean: Clean) -> None:
    for label in ("constructor", "Object", "__proto__"):
        text = f"{label}: for (const x of [1, 2]) {{ break {label}; }} return 1;"
        out = clean(text, lang="plan")
        assert out.status in ("success", "failure")
        if out.status == "success":
            assert out.value == 1


def test_keys_from_a_reply_or_the_context_reach_nothing(clean: Clean) -> None:
    context = {"k": "__class__", "ks": ["constructor", "__proto__", "prototype"]}
    out = clean("return echo({a: 1})[k];", lang="plan", context=context)
    failed(out, "forbidden_member")
    out = clean("return ks.map(k => ({a: 1})[k]);", lang="plan", context=context)
    failed(out, "forbidden_member")
    out = clean("return ({a: 1})[echo('__' + 'dict__')];", lang="plan")
    failed(out, "forbidden_member")


PLAN2 = [
    "a: &a [1, 2]\nresult: *a\n",
    "x: !!python/object:os.system ls\nresult: 1\n",
    "x: !!python/object/apply:os.system [ls]\nresult: 1\n",
    "<<: {a: 1}\nresult: 1\n",
    "result: " + "[" * 5000 + "1" + "]" * 5000 + "\n",
    "a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b]\nresult: ${c}\n",
]


@pytest.mark.parametrize("program", PLAN2)
def test_hostile_yaml_is_refused(clean: Clean, program: str) -> None:
    out = clean(program, lang="plan2")
    assert out.status == "failure"


def test_plan2_interpolation_injects_no_syntax(clean: Clean) -> None:
    out = clean('result: "${1}; return 2; //"\n', lang="plan2")
    assert out.status == "failure" or out.value != 2


JSON_TEXTS = [
    '{"$return": 1e400}',
    '{"$return": ' + "9" * 10_000 + "}",
    "[" * 5000 + "1" + "]" * 5000,
    '// a comment\n{"$return": 1 /* never closed',
    '{"echo": {"value": "' + "x" * 2_000_000 + '"}}',
]


@pytest.mark.parametrize("program", JSON_TEXTS, ids=range(len(JSON_TEXTS)))
def test_hostile_json_is_refused(clean: Clean, program: str) -> None:
    assert clean(program, lang="json").status == "failure"


def test_an_envelope_with_deep_arguments_is_refused(clean: Clean) -> None:
    deep = "[" * 3000 + "1" + "]" * 3000
    envelope = json.dumps(
        {"tool_calls": [{"function": {"name": "echo", "arguments": '{"value": ' + deep + "}"}}]}
    )
    assert clean(envelope).status == "failure"


def test_many_tiny_calls_stop_at_the_calls_limit(clean: Clean) -> None:
    text = "".join(f"a{i} = double({i});\n" for i in range(2_100)) + "return a0;"
    failed(clean(text, lang="plan"), "limit_exceeded", "max_calls")


def test_a_result_built_in_many_small_steps_fails_at_the_output_limit(clean: Clean) -> None:
    text = (
        "const out = []; for (const i of Array.from({length: 200000}, (_, j) => j))"
        " { out.push('x'.repeat(40)); } return out;"
    )
    failed(clean(text, lang="plan"), "limit_exceeded", "max_output_bytes")


def test_nothing_of_a_run_keeps_running() -> None:
    rt = dialectic_runtime(deadline=1.0)
    programs = [
        "a = sleepEcho(1, 100); b = refuse('no'); return [a, b];",
        "a = sleepEcho(1, 100); return a;",
        "const xs = await Promise.all([1, 2, 3].map(i => sleepEcho(i, 50))); return xs;",
        "const r = await Promise.race([sleepEcho(1, 0.01), sleepEcho(2, 100)]); return r;",
        "let r = 0; try { r = await sleepEcho(1, 100); } catch (e) { r = 2; } return r;",
        "await new Promise(r => setTimeout(r, 500)); return 1;",
    ]
    threads = threading.active_count()

    async def main() -> list[tuple[str, int, int]]:
        seen = []
        for text in programs:
            out = await rt.run_async(text, lang="plan")
            await asyncio.sleep(0)
            loop = asyncio.get_running_loop()
            left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            timers = [h for h in loop._scheduled if not h.cancelled()]  # type: ignore[attr-defined]
            seen.append((out.status, len(left), len(timers)))
        return seen

    seen = asyncio.run(main())
    assert [(tasks, timers) for _, tasks, timers in seen] == [(0, 0)] * len(programs), seen
    assert [status for status, _, _ in seen][3] == "success"  # (the race's first)
    assert threading.active_count() <= threads


def test_the_peak_of_the_worst_bombs_is_a_few_hundred_megabytes() -> None:
    program = (
        "let a = ['x']; for (const i of Array.from({length: 23}, (_, j) => j))"
        " { a = [...a, ...a]; } return echo(a).length + a.flat().length;"
    )
    outcome, peak = peak_run(program)
    assert outcome["status"] == "failure", outcome
    assert outcome["error"]["details"]["limit"] == "max_steps"
    assert peak < PEAK_BYTES, f"peak {peak / 2**20:.0f} MB"
