"""Optional members (SPEC 1.2): a member an object lacks, or an index past the end, is a
failure, except where the program says the data may be missing (`?.`, the left of `??`, `||`,
`&&`, what is tested); there it is `undefined`, and the answer is Node's. Elsewhere, and for
the member before the one tested, the failure stays: never a different answer from Node's."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

import dialectic
import dialectic.testing
from dialectic import FunctionDescription, Runtime, TypeDescription
from dialectic.tree.nodes import Get
from dialectic.tree.walking import walk

from .node_oracle import node_values

X = {
    "a": {"c": 3, "t": "text", "z": 0},
    "xs": [{"b": 1}, {"b": 2}, {}],
    "s": "abc",
    "n": None,
    "k": "zz",
    "m": {"__proto__x": 1},
}

# what Node computes for each: the value (`undefined` as null), never a failure
AGREE = [
    "x.b ?? 'd'",
    "x.a.b ?? 'd'",
    "x.a.c ?? 'd'",
    "x.a.z ?? 'd'",
    "x.a.z || 'd'",
    "x.b || 'd'",
    "x.b && x.b.c",
    "x.a && x.a.c",
    "x?.b",
    "x.b?.c",
    "x.b?.c ?? 'd'",
    "x.a?.c ?? 'd'",
    "x.b?.trim() ?? 'd'",
    "x.a.t?.toUpperCase()",
    "x.a?.['b'] ?? 'd'",
    "x[x.k] ?? 'd'",
    "x['b'] ?? 'd'",
    "!x.b",
    "!!x.a.c",
    "typeof x.b",
    "typeof x.a.c",
    "x.b === undefined",
    "undefined === x.b",
    "x.b !== undefined",
    "x.b == null",
    "null == x.b",
    "x.b != null",
    "x.b ? 1 : 2",
    "x.a.c ? 1 : 2",
    "x.xs[10] ?? 'none'",
    "x.xs[10]?.b",
    "x.xs?.[10]",
    "x.s[10] ?? 'z'",
    "x.s?.[1]",
    "x.a.c.d ?? 'd'",
    "x.a.t.q ?? 'd'",
    "x.n?.b ?? 'd'",
    "x.xs.map(v => v.b ?? 0)",
    "x.xs.map(v => v?.b)",
    "x.xs.map(v => v.b || -1)",
    "x.xs.filter(v => v.b)",
    "x.xs.filter(v => !v.b).length",
    "x.xs.filter(v => v.b !== undefined).length",
    "x.xs.find(v => v.b)",
    "x.xs.findLast(v => v.b)",
    "x.xs.findIndex(v => v.q)",
    "x.xs.findLastIndex(v => v.b)",
    "x.xs.some(v => v.q)",
    "x.xs.every(v => v.b)",
    "x.xs.find(v => v.b === 2)?.b ?? 'none'",
    "[x.b ?? 1, x.a.c]",
    "x.xs[0].b ?? x.xs[1].b",
    "`${x.b ?? 'none'}`",
    "(x.b ?? 1) + (x.a.q ?? 2)",
    "(x.b ?? {}).c",
    "(x.a ?? {}).q",
    "(x.a ?? {}).c",
    "(x.b || {}).c ?? 'd'",
    "(x.b ?? []).length",
    "(x.b ?? [])[0]",
    "(x.xs || [])[7]",
    "(x.n ?? {}).b",
]

# Node throws (a TypeError: reading a member of undefined or null): so do we
BOTH_FAIL = [
    "x.b.c ?? 'd'",
    "x.b.b ?? 'd'",
    "x?.b.c",
    "x.n.b ?? 'd'",
    "x.b.c || 'd'",
    "(x.b ?? {}).c.d",
    "(x.b && {}).c",
]

# Node gives undefined; dialectic fails: the program does not say the data may be missing
STRICT = [
    "x.b",
    "x.b + 1",
    "x.b === null",
    "[x.b]",
    "x.xs[10]",
    "x.xs.map(v => v.b)",
    "x.xs.find(v => v.b === 9)",
    "x?.a.b",
    "(x.b ?? {c: 1}).d",
]


def _runtime() -> Runtime:
    return Runtime(plugins=[dialectic.testing], load_entry_points=False)


RT = _runtime()


@pytest.mark.parametrize(
    ("program", "answer"), list(zip(AGREE, node_values(AGREE, X), strict=True))
)
def test_where_the_data_may_be_missing_the_answer_is_nodes(
    program: str, answer: dict[str, Any]
) -> None:
    assert "ok" in answer, answer
    out = RT.run(f"return {program};", lang="plan", context={"x": X}, strict=True)
    assert out.status == "success", out.message
    assert out.value == answer["ok"]


@pytest.mark.parametrize(
    ("program", "answer"), list(zip(BOTH_FAIL, node_values(BOTH_FAIL, X), strict=True))
)
def test_where_node_fails_so_does_dialectic(program: str, answer: dict[str, Any]) -> None:
    assert "error" in answer, answer
    out = RT.run(f"return {program};", lang="plan", context={"x": X}, strict=True)
    assert out.status == "failure"
    assert out.error is not None
    assert out.error.code == "member_not_found"


@pytest.mark.parametrize(
    ("program", "answer"), list(zip(STRICT, node_values(STRICT, X), strict=True))
)
def test_elsewhere_a_missing_member_fails_with_the_way_to_a_default(
    program: str, answer: dict[str, Any]
) -> None:
    assert "ok" in answer, answer  # (Node reads undefined: a deliberate difference)
    out = RT.run(f"return {program};", lang="plan", context={"x": X}, strict=True)
    assert out.status == "failure"
    assert out.error is not None
    assert out.error.code in ("member_not_found", "index_out_of_range")
    assert out.error.hint is not None and "?? default" in out.error.hint


def test_the_canonical_tree_means_the_same_in_every_notation() -> None:
    """The reads are marked by where they stand, not written in the tree: the Dialect JSON of
    a Plan program, and its Plan2, give the same answers."""
    plan = "return [x.b ?? 'd', x?.q, x.xs.filter(v => v.b).length, !x.a.q];"
    tree = dialectic.compile(plan, lang="plan")
    assert "soft" not in str(tree)
    ctx = {"x": X}
    want = ["d", None, 2, True]
    assert RT.run(plan, lang="plan", context=ctx).value == want
    assert RT.run(tree, context=ctx).value == want
    plan2 = "result: ${[x.b ?? 'd', x?.q, x.xs.filter(v => v.b).length, !x.a.q]}"
    assert RT.run(plan2, lang="plan2", context=ctx).value == want


def test_the_resolver_marks_only_the_member_that_may_be_missing() -> None:
    prepared = RT.prepare("return x.a.b ?? x.c.d;", lang="plan")
    assert prepared.resolved is not None
    gets = [n for n in walk(prepared.resolved.root) if type(n) is Get]
    marks = sorted((len(g.keys), g.soft) for g in gets)
    # `x.a.b` on the left: its last key (bit 1); `x.c.d` on the right: none
    assert marks == [(2, 0), (2, 2)]


def test_forbidden_names_stay_forbidden_where_data_may_be_missing() -> None:
    for program in (
        "return x.__proto__ ?? 1;",
        "return x?.constructor;",
        "return x.a[x.s.slice(0, 0) + 'constructor'] ?? 1;",
        "return x.a[x.s.slice(0, 0) + '__class__'];",
        "return !x.prototype;",
    ):
        out = RT.run(program, lang="plan", context={"x": X})
        assert out.status == "failure", program
        assert out.error is not None and out.error.code == "forbidden_member", program


@dataclass
class Point:
    x: int
    y: int


def test_a_registered_type_has_only_its_declared_members_whatever_the_syntax() -> None:
    rt = Runtime(load_entry_points=False)
    rt.register(TypeDescription("point", "a point", Point, {"x": "integer", "y": "integer"}, Point))
    for program in ("p = point(1, 2); return p.z ?? 0;", "p = point(1, 2); return p?.z;"):
        out = rt.run(program, lang="plan")
        assert out.status == "failure", program
        assert out.error is not None and out.error.code == "member_not_found"
    assert rt.run("p = point(1, 2); return p.x ?? 0;", lang="plan").value == 1


def test_an_asynchronous_value_is_read_the_same_way() -> None:
    async def fetch(id: int) -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"id": id} if id == 1 else {"id": id, "email": f"u{id}@x"}

    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("fetch", "a user", fetch, {"id": "integer"}, "object"))
    out = rt.run(
        "a = fetch(1); b = fetch(2);\n"
        "return [a.email ?? 'none', b.email ?? 'none', a?.email, !a.email, fetch(3)?.email];",
        lang="plan",
    )
    assert out.status == "success", out.message
    assert out.value == ["none", "u2@x", None, True, "u3@x"]
    out = rt.run("a = fetch(1); return a.email;", lang="plan")
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "member_not_found"


# -- at random: reads of present and missing members under every operator that tests them --------
RANDOM_X = {
    "a": 1,
    "z": 0,
    "e": "",
    "n": None,
    "o": {"p": 2, "q": None},
    "l": [1, {"m": 3}],
    "s": "hi",
    "t": True,
}


def _random_programs(seed: int, count: int) -> list[str]:
    rnd = random.Random(seed)

    def read() -> str:
        base = rnd.choice(["x", "x.o", "x.l", "x.s", "x.n", "x.l[1]"])
        key = rnd.choice(["a", "z", "e", "n", "o", "p", "q", "m", "zz", "0", "1", "5", "length"])
        optional = rnd.random() < 0.3
        if key.isdigit():
            text = base + ("?." if optional else "") + f"[{key}]"
        else:
            text = base + ("?." if optional else ".") + key
        if rnd.random() < 0.3:
            text += rnd.choice([".", "?."]) + rnd.choice(["p", "a", "zz", "length"])
        return text

    def expr(depth: int) -> str:
        r = rnd.random()
        if depth > 2 or r < 0.35:
            return read()
        if r < 0.45:
            return rnd.choice(["1", "'d'", "null", "undefined", "0", "''"])
        if r < 0.6:
            return f"({expr(depth + 1)} {rnd.choice(['??', '||', '&&'])} {expr(depth + 1)})"
        if r < 0.7:
            return f"(!{expr(depth + 1)})"
        if r < 0.75:
            return f"(typeof {expr(depth + 1)})"
        if r < 0.85:
            other = rnd.choice(["undefined", "null", "1", expr(depth + 1)])
            return f"({expr(depth + 1)} {rnd.choice(['===', '!==', '==', '!='])} {other})"
        if r < 0.95:
            return f"({expr(depth + 1)} ? {expr(depth + 1)} : {expr(depth + 1)})"
        return f"[{expr(depth + 1)}, {expr(depth + 1)}]"

    return [expr(0) for _ in range(count)]


@pytest.mark.parametrize("seed", [1, 2])
def test_at_random_the_answer_is_nodes_or_a_failure(seed: int) -> None:
    programs = _random_programs(seed, 700)
    answers = node_values(programs, RANDOM_X)
    succeeded = 0
    for program, answer in zip(programs, answers, strict=True):
        out = RT.run(f"return {program};", lang="plan", context={"x": RANDOM_X})
        if out.status != "success":
            assert out.error is not None and out.error.code != "internal_error", program
            continue
        assert "ok" in answer, (program, out.value, answer)
        assert json.dumps(out.value, sort_keys=True) == json.dumps(answer["ok"], sort_keys=True), (
            program,
            out.value,
            answer,
        )
        succeeded += 1
    assert succeeded > len(programs) // 3  # (most reads the program tests are answered)
