"""JavaScript idioms models write (SPEC 10): destructuring parameters of arrow functions
(``([k, v]) => ...``, ``({name, price: p}) => ...``: an alias per name of the arrow's body,
reading its part of the argument), computed keys (``{...acc, [o.id]: o.n}``: a part
``...Object.fromEntries([[k, v]])``) and ``typeof``: what Node.js computes, or a refusal."""

from __future__ import annotations

from typing import Any

import pytest

import dialectic
from dialectic import Runtime
from dialectic.frontends.plan import decompile

from .node_oracle import node_values

RT = Runtime(load_entry_points=False)
X = {
    "e": {"f": 5, "g": "h"},
    "l": [{"k": 1, "v": "x", "id": "a"}, {"k": 2, "v": "y", "id": "b"}],
    "p": [[1, 2], [3, 4]],
    "key": "z",
    "n": None,
}
PROGRAMS = [
    # conditional members: a spread of `false`, `null`, `undefined`, a number or `''` adds
    # nothing (SPEC 1.2, `$merge`)
    "({...(x.n && {a: 1}), ...(x.e.f > 1 && {b: 2}), ...(x.key ? {c: 3} : {}), d: 4})",
    "x.l.map(o => ({id: o.id, ...(o.k > 1 && {big: true}), ...(o.v === 'x' ? {x: 1} : null)}))",
    "({...undefined, ...5, ...2.5, ...true, ...'', ...x.e})",
    # Array.from (SPEC 1.8): a copy, a text's code points, a range, with a mapping function
    "[Array.from(x.l).length, Array.from('h😀é'), Array.from({length: 2})]",
    "Array.from({length: 4}, (_, i) => i * i)",
    "Array.from(x.p, ([a, b], i) => a + b + i)",
    "Array.from(['1', '2.5'], Number)",
    "Array.from({length: 0}, (_, i) => i)",
    # JavaScript's constants of Math and Number (SPEC 1.8)
    "[Math.E, Math.LN10, Math.LN2, Math.LOG10E, Math.LOG2E, Math.PI, Math.SQRT1_2, Math.SQRT2]",
    "[Number.EPSILON, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, Number.MAX_VALUE]",
    "[Number.MIN_VALUE, Math.PI * x.e.f ** 2, (Math.PI * 2).toFixed(3), Math.PI.toFixed(1)]",
    "x.p.map(([a, b]) => Math.round(a * Math.PI) + Number.EPSILON * b)",
    "Object.entries(x.e).map(([k, v]) => k + '=' + v)",
    "x.l.map(({k, v}) => v.repeat(k))",
    "x.l.map(({k: n}) => n * 10)",
    "x.p.map(([a, b]) => a * b)",
    "x.p.map(([a, b], i) => a + i)",
    "x.p.reduce((s, [a, b]) => s + a * b, 0)",
    "x.l.filter(({k}) => k > 1)",
    "x.p.map(([a,]) => a)",
    "x.l.map(({k, v}) => { const w = v + k; return w; })",
    "Object.fromEntries(Object.entries(x.e).map(([k, v]) => [v, k]))",
    "x.p.map(([a, b]) => [b, a]).toSorted(([a], [c]) => a - c)",
    "x.l.reduce((acc, o) => ({...acc, [o.id]: o.k}), {})",
    "({a: 1, [x.key]: 2, c: 3})",
    "({a: 1, ['a']: 2})",
    "({[1 + 1]: 'two', [x.key + 1]: true})",
    "Object.keys({q: 1, [x.key]: 2})",
    "x.l.map(o => ({[o.id]: o.v}))",
    "x.l.map(({id, k}) => ({[id]: typeof k}))",
    "[typeof x.e, typeof x.key, typeof x.e.f, typeof x.n?.q, typeof null]",
    # a text spreads by code points; parseInt reads 0x as hexadecimal without a radix
    "[...'😀a', ...x.e.g]",
    "[...'héllo'].length",
    "[parseInt('0x1f'), parseInt(' -0X1F'), parseInt('0x1f', 10), parseInt('0x1f', 16)]",
    "[parseInt('012'), parseInt('0b11'), parseInt('  42abc')]",
    # Object.assign into a new object literal: a merge (SPEC 10)
    "Object.assign({}, x.e, {g: 2})",
    "Object.assign({a: 0, z: 1}, {a: 5}, null, x.l[0])",
    "[Object.assign({}), Object.keys(Object.assign({...x.e}, {y: 1}))]",
    # a rest in a parameter's pattern: the items after, or the other members in their order
    "x.l.map(({id, ...rest}) => [id, rest])",
    "x.p.map(([a, ...more]) => more.concat([a]))",
    "Object.entries(x.e).map(([k, ...v]) => [k, v.length])",
    "[x.l].map(([, ...tail]) => tail.map(({k, ...o}) => Object.keys(o)))",
    "[x.e].map(({...all}) => all)",
    "['héllo'].map(([c, ...cs]) => [c, cs.length])",
]


@pytest.mark.parametrize(
    ("program", "answer"), list(zip(PROGRAMS, node_values(PROGRAMS, X), strict=True))
)
def test_the_value_is_nodes(program: str, answer: dict[str, Any]) -> None:
    out = RT.run(f"return {program};", lang="plan", context={"x": X}, strict=True)
    assert out.status == "success", out.message
    assert out.value == answer["ok"]


def test_decompiled_and_read_again_it_is_the_same_tree() -> None:
    tree = dialectic.compile("return x.p.map(([a, b]) => a * b);", lang="plan")
    assert dialectic.compile(decompile(tree), lang="plan") == tree


def test_a_computed_key_is_a_part_of_a_merge() -> None:
    tree = dialectic.compile("return {a: 1, [x.key]: 2};", lang="plan")
    assert tree == {
        "$return": {
            "$merge": [
                {"$object": {"a": 1}},
                {"$global": ["Object.fromEntries", [[{"$get": [{"$ref": "x"}, "key"]}, 2]]]},
            ]
        }
    }
    assert dialectic.compile(decompile(tree), lang="plan") == tree


def test_a_hidden_parameter_never_takes_a_name_of_the_program() -> None:
    tree = dialectic.compile("return x.l.map(({_arg1}) => _arg1);", lang="plan")
    fn = tree["$return"]["$method"][2]["$fn"]
    assert fn[0] == ["_arg2"]


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ("return x.p.map(([a, {b: [c]}]) => c);", "cannot read `b` of integer"),
        ("return x.p.map(([a, [b]] c) => a);", "expected `)`"),
        ("return x.p.map(([...a = 1]) => a);", "`...rest` must be the last element"),
        ("return x.p.map(([a, a]) => a);", "parameters must differ"),
        ("return x.p.map(([a], a) => a);", "parameters must differ"),
        ("return x.p.map(([a]) => { const a = 1; return a; });", "a parameter and a `const`"),
        ("return x.p.map(([a, b, c]) => c);", "index 2 is out of range"),
        ("return x.l.map(({q}) => q);", "no member `q`"),
        ("return {[x.key] 1};", "expected `:` after the computed key"),
        ("return {[x.e]: 1};", "an object key must be text, a number, a boolean, null or"),
        ("return {['__proto__']: 1};", "`__proto__` is not allowed"),
        # (the statement `Object.assign(o, {b: 2});` sets members of `o`: test_model_shapes.py)
        ("const o = {a: 1};\nconst p = Object.assign(o, {b: 2});\nreturn p;", "changes its first"),
        ("return Object.assign({}, ...x.l);", "a spread argument of `Object.assign`"),
    ],
)
def test_what_it_refuses(program: str, message: str) -> None:
    out = RT.run(program, lang="plan", context={"x": X})
    assert out.status == "failure" and message in (out.message or ""), out.message
