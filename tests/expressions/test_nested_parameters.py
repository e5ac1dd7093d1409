"""Destructuring parameters with nesting and defaults (SPEC 10, "Functions";
:mod:`dialectic.frontends.plan.parampatterns`): ``({a: {b = 1} = {}} = {}) => b``,
``function f({opts: {limit = 10} = {}} = {})``, ``([first, [second]]) => ...``: each name
read as a ``const`` pattern reads it, a default only for ``undefined`` and only then run;
Node's answer, or a clear refusal."""

from __future__ import annotations

import pytest

from dialectic import Runtime
from dialectic.frontends.plan import parse_plan
from dialectic.frontends.plan.decompile import decompile

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "const f = ({a: {b = 1} = {}} = {}) => b; return [f(), f({}), f({a: {}}), f({a: {b: 2}})];",
    "function f({opts: {limit = 10} = {}} = {}) { return limit; } "
    "return [f(), f({opts: {limit: 3}}), f({opts: {}})];",
    "return [[1, [2, 3]], [4, [5]]].map(([first, [second]]) => first + second);",
    "return [{a: {b: 1}}].map(({a: {b}}) => b);",
    "function g([x, y = 5]) { return x + y; } return [g([1]), g([1, 2])];",
    "return [{p: {q: [1, 2]}}].map(({p: {q: [, second]}}) => second);",
    "return [{n: 1}, {n: 2, m: 0}].map(({n, m = 2}) => n + m);",
    "function f({a: x, a: {b}}) { return [x, b]; } return f({a: {b: 1}});",
    "function f({a: {b}, ...r}) { return [b, r]; } return f({a: {b: 1}, c: 2, d: 3});",
    "function f([[a], ...r]) { return [a, r]; } return f([[1], 2, 3]);",
    "function f(x, {y = x * 2} = {}) { return y; } return [f(1), f(1, {y: 5}), f(2, {})];",
    "const f = ([a, [b, c] = [8, 9]]) => a + b + c; return [f([1]), f([1, [2, 3]])];",
    "return ['ab', 'cd'].map(([[x]]) => x);",
    "function f({a: [x, {y = 3}]}) { return x + y; } return f({a: [1, {}]});",
    "const rows = [{user: {name: 'a'}}, {user: {name: 'b'}}]; const out = []; "
    "for (const {user: {name}} of rows) out.push(name); return out;",
    "const rows = await echo([{id: 1, meta: {tags: ['x', 'y']}}, {id: 2}]);\n"
    "return rows.map(({id, meta: {tags: [first = 'none'] = []} = {}}) => `${id}:${first}`);",
    "function f({a = 1} = {b: 2}, [c] = [3]) { return [a, c]; } return [f(), f({a: 5}, [6])];",
]


def test_nested_parameters_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize("text", [PROGRAMS[0], PROGRAMS[2], PROGRAMS[8], PROGRAMS[15]])
def test_they_decompile_and_read_back(text: str) -> None:
    tree = parse_plan(text, strict=True).tree
    back = decompile(tree)
    assert parse_plan(back, strict=True).tree == tree
    assert RT.run(back, lang="plan").value == RT.run(text, lang="plan").value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("function f({a: {b}, b}) { return b; } return 1;", "a function's parameters must differ"),
        ("function f({a: {Math}}) { return Math; } return 1;", "`Math` is JavaScript's own"),
        ("function f({y = z, z = 1} = {}) { return y; } return f();", "before the pattern"),
        ("return [{a: 1}].map(({a} = {}) => a);", "a function passed here takes no defaults"),
        ("function f({a: {b}) { return b; } return f(1);", "names or destructuring patterns"),
        ("function f({a: [x, {y = 3}]}) { return x + y; } return f({a: [1]});", "out of range"),
        ("return [1].map(({a: 1}) => 1);", "a name or a pattern after `:`"),
    ],
)
def test_refused_with_what_to_write(text: str, message: str) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure", out.value
    assert message in (out.message or ""), out.message
    assert "Traceback" not in (out.message or "")
