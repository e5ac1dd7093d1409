"""A choice among many cases (SPEC 10, "Switch"): a ``switch`` of tens to hundreds of cases that
return, whose values are literals, is a lookup (:mod:`dialectic.frontends.plan.caselookup`),
and one whose cases ``break`` a balanced ``||`` of its branches: both run where each case
nested inside the one before stopped at about 48 (``max_depth``). Checked against Node: first
equal case, fall-through of empty cases, ``default`` anywhere, a literal written twice, values
of mixed types (``1``, ``'1'``, ``true``, ``null``, ``-0``); and the cost is linear in the
number of cases."""

from __future__ import annotations

import time

import pytest

from dialectic import Limits, Runtime
from dialectic import compile as compile_program

from .program_oracle import check

RT = Runtime(load_entry_points=False)
ROOMY = Runtime(load_entry_points=False, limits=Limits(max_nodes=200_000))


def _switch(labels: list[str], key: str, default_at: int | None, groups: int = 1) -> str:
    """A program switching on ``key`` over ``labels`` (each ``groups`` labels share the
    statements of the last), ``default`` before label ``default_at`` (None: none, the
    statements after the ``switch`` are the value)."""
    parts = []
    for i, label in enumerate(labels):
        if default_at == i:
            parts.append('default: return "default";')
        if i % groups != groups - 1 and i != len(labels) - 1:
            parts.append(f"case {label}:")
        else:
            parts.append(f"case {label}: return {i};")
    if default_at == len(labels):
        parts.append('default: return "default";')
    tail = '\nreturn "after";' if default_at is None else ""
    return f"const k = {key};\nswitch (k) {{\n  " + "\n  ".join(parts) + f"\n}}{tail}"


def _names(n: int) -> list[str]:
    return [f'"k{i}"' for i in range(n)]


def _programs() -> list[str]:
    out = []
    for n in (9, 12, 60, 200, 500):
        keys = ['"k0"', f'"k{n - 1}"', f'"k{n // 2}"', '"zz"', "7", "null"]
        for key in keys:
            out.append(_switch(_names(n), key, n))
            out.append(_switch(_names(n), key, 0))
            out.append(_switch(_names(n), key, n // 3, groups=3))
            out.append(_switch(_names(n), key, None))
    mixed = ["1", '"1"', "true", "null", "0", "-0", "1.5", '"true"', "false", '""', '"null"']
    mixed += ["2", "1.0", '"k"', "-3", "3e2"]
    for key in [*mixed, "undefined", "-1.5", "300", "[1]", '"K"']:
        out.append(_switch(mixed, key, len(mixed)))
        out.append(_switch(mixed, key, 5, groups=2))
        out.append(_switch(mixed, key, None))
    twice = ['"a"', '"b"', '"a"', '"c"', '"b"', '"d"', '"e"', '"f"', '"g"', '"h"']
    for key in ['"a"', '"b"', '"c"', '"h"', '"x"']:
        out.append(_switch(twice, key, 10))
        out.append(_switch(twice, key, 1, groups=2))  # (`case "a": default: ...`)
    return out


def test_many_cases_give_what_node_gives() -> None:
    verdicts = check(_programs())
    assert all(v.kind == "same" for v in verdicts), [v for v in verdicts if v.kind != "same"]


def test_case_statements_and_uses() -> None:
    cases = " ".join(
        f'case "k{i}": {{ const y = k + "!{i}"; if (y.length > 4) {{ return [y]; }} return y; }}'
        for i in range(40)
    )
    function = f"function f(k) {{ switch (k) {{ {cases} default: return null; }} }}"
    texts = [
        f'{function}\nreturn ["k3", "k39", "q", 5].map(f);',
        f'{function}\nreturn [f("k10"), f("k1"), f(null)];',
        "const ks = ['a', 'k3', 'k39'];\n"
        f"return ks.map(k => {{ switch (k) {{ {cases} default: return 0; }} }});",
    ]
    verdicts = check(texts)
    assert all(v.kind == "same" for v in verdicts), [v for v in verdicts if v.kind != "same"]


def test_the_cases_are_a_lookup_and_the_depth_stays_small() -> None:
    tree = compile_program(_switch(_names(500), '"k7"', 500), "plan")
    found = tree["$return"]["$let"]["_sw1"]
    assert found["$method"][1:] == ["indexOf", {"$ref": "k"}]
    assert found["$method"][0] == [f"k{i}" for i in range(500)]

    def depth(node: object) -> int:
        if isinstance(node, dict):
            return 1 + max((depth(v) for v in node.values()), default=0)
        if isinstance(node, list):
            return 1 + max((depth(v) for v in node), default=0)
        return 0

    assert depth(tree) < 40


def test_a_few_cases_keep_their_chain() -> None:
    tree = compile_program(_switch(_names(8), '"k7"', 8), "plan")
    assert "$if" in tree["$return"]["$return"]
    assert "$method" not in str(tree)


def test_cases_falling_into_default_take_it() -> None:
    # `case 0: default:` then `case -0:`: 0 takes `default`'s statements, as JavaScript does
    labels = ["1", "2", "3", "4", "0", "5", "6", "7", "-0", "8"]
    for n in (len(labels), 6):  # (a lookup, and a chain of tests)
        text = _switch(labels[:n] if n > 6 else ["1", "0", "2", "-0", "3", "4"], "0", 5, 2)
        assert check([text])[0].kind == "same", text


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "const k = 1; switch (k) { case 1: const y = 2; return y; case 2: const y = 3; "
            "return y; }",
            "`y` is declared again in another case of this `switch`",
        ),
        (
            "const k = 1; const f = x => x; switch (k) { case f(1): default: return 0; "
            "case 1: return 1; }",
            "a case whose value is no literal falls into `default`",
        ),
    ],
)
def test_refused(text: str, message: str) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure" and message in (out.message or ""), out.message


def _breaking(n: int, key: str) -> str:
    cases = " ".join(f'case "k{i}": r = {i}; break;' for i in range(n))
    return f"const k = {key};\nlet r = 0;\nswitch (k) {{ {cases} default: r = -1; }}\nreturn r;"


def _in_loop(n: int, key: str) -> str:
    cases = " ".join(f'case "k{i}": out.push({i}); break;' for i in range(n))
    return (
        f'const ks = [{key}, "k1", "no"];\nconst out = [];\n'
        f"for (const k of ks) {{ switch (k) {{ {cases} default: out.push(-1); }} }}\nreturn out;"
    )


@pytest.mark.parametrize("n", [60, 200, 400])
def test_cases_that_break_run_as_in_node(n: int) -> None:
    # (beyond about 450 cases, the versions of `r` or `out`, one per case, each read when
    # its case is not taken, are a chain too deep to evaluate: a clean `limit_exceeded`)
    texts = [make(n, key) for make in (_breaking, _in_loop) for key in ('"k0"', f'"k{n - 1}"')]
    texts.append(_breaking(n, '"none"'))
    verdicts = check(texts, ROOMY)
    assert all(v.kind == "same" for v in verdicts), [v for v in verdicts if v.kind != "same"]


def _cost(text: str) -> float:
    started = time.process_time()
    out = ROOMY.run(text, lang="plan")
    assert out.status == "success", out.message
    return time.process_time() - started


def test_the_cost_is_linear_in_the_cases() -> None:
    small = min(_cost(_switch(_names(300), '"k299"', 300)) for _ in range(3))
    big = min(_cost(_switch(_names(3_000), '"k2999"', 3_000)) for _ in range(3))
    assert big < 10 * small * 3  # (10 times the cases: a quadratic cost would be 100 times)
    small = min(_cost(_breaking(300, '"k299"')) for _ in range(3))
    big = min(_cost(_breaking(3_000, '"k2999"')) for _ in range(3))
    assert big < 10 * small * 3


def _else_ifs(n: int, key: str, form: str) -> str:
    tests = [f'k === "k{i}"' if i % 5 else f'"k{i}" === k || k === {i}' for i in range(n)]
    if form == "else":
        chain = " else ".join(f"if ({t}) {{ return {i}; }}" for i, t in enumerate(tests))
        return f"const k = {key};\n{chain} else {{ return -1; }}"
    if form == "returns":
        chain = "\n".join(f"if ({t}) return {i};" for i, t in enumerate(tests))
        return f"const k = {key};\n{chain}\nreturn -1;"
    if form == "function":
        chain = " else ".join(f"if ({t}) {{ return [{i}]; }}" for i, t in enumerate(tests))
        return f"function f(k) {{ {chain} return null; }}\nreturn [f({key}), f('k1'), f(0)];"
    chain = " : ".join(f"{t} ? {i}" for i, t in enumerate(tests))  # (`?:`)
    return f"const k = {key};\nreturn {chain} : -1;"


@pytest.mark.parametrize(
    "form, sizes",
    [
        ("else", (12, 60, 500)),
        ("returns", (12, 60, 200)),
        ("function", (12, 60, 200)),
        ("conditional", (12, 45)),
    ],
)
def test_else_if_chains_give_what_node_gives(form: str, sizes: tuple[int, ...]) -> None:
    texts = [
        _else_ifs(n, key, form)
        for n in sizes
        for key in ('"k0"', f'"k{n - 1}"', '"k5"', "5", "10", '"none"', "null")
    ]
    verdicts = check(texts)
    assert all(v.kind == "same" for v in verdicts), [v for v in verdicts if v.kind != "same"]


def test_an_else_if_chain_is_a_lookup_only_on_one_name_and_literals() -> None:
    tree = compile_program(_else_ifs(60, '"k3"', "else"), "plan")
    assert "indexOf" in str(tree)
    mixed = _else_ifs(60, '"k3"', "else").replace('if (k === "k31")', 'if (k > "k31")')
    tree = compile_program(mixed, "plan")  # (the chain is cut at `>`: two lookups)
    assert str(tree).count("indexOf") == 2
    other = _else_ifs(12, '"k3"', "else").replace('if (k === "k6")', 'if (j === "k6")')
    tree = compile_program("const j = 1;\n" + other, "plan")
    assert "indexOf" not in str(tree)  # (5 and 6 tests on `k`: chains of tests)
