"""A program that doubles a text or an array alias after alias (hostile, or a model's loop
unrolled) would grow it exponentially in a linear program: every way to build one is bounded
(texts at the run's max_string_length, arrays at 10,000,000 items or the step budget), and the run
ends in a clear failure at the alias that crossed the bound, in well under a second."""

from __future__ import annotations

import time

import pytest

from dialectic import Limits, Runtime

RT = Runtime(load_entry_points=False)


def doubling(start: str, step: str, n: int = 40) -> str:
    lines = [f"a0 = {start};"]
    lines += [f"a{i} = {step.format(p=f'a{i - 1}')};" for i in range(1, n)]
    return "\n".join([*lines, f"return a{n - 1}.length;"])


@pytest.mark.parametrize(
    ("start", "step", "message"),
    [
        ("'x'", "{p} + {p}", "max_string_length"),
        ("'x'", "'' + {p} + {p}", "max_string_length"),
        ("'x'", "{p}.concat({p})", "max_string_length"),
        ("'x'", "[{p}, {p}].join('')", "max_string_length"),
        ("'x'", "{p}.replaceAll('x', 'xx')", "max_string_length"),
        ("'x'", "JSON.stringify([{p}, {p}])", "max_string_length"),
        ("'x'", "`${{{p}}}${{{p}}}`", "max_string_length"),
        ("[1]", "[...{p}, ...{p}]", "more than 10,000,000 items"),
        ("[1]", "[{p}, {p}].flatMap(v => v)", "more than 10,000,000 items"),
        ("[1]", "[{p}, {p}].flat()", "method steps"),
        ("[1]", "{p}.concat({p})", "method steps"),
    ],
)
def test_doubling_is_bounded(start: str, step: str, message: str) -> None:
    out = RT.run(doubling(start, step), lang="plan")
    assert out.status == "failure", out.value
    assert message in (out.message or ""), out.message
    assert "line " in (out.message or "")  # at the alias that crossed the bound


def test_a_template_of_a_value_too_large_fails_at_the_template() -> None:
    lines = ["a0 = [1];", *(f"a{i} = [a{i - 1}, a{i - 1}];" for i in range(1, 25))]
    out = RT.run("\n".join([*lines, "return `x ${a24}`.length;"]), lang="plan")
    assert out.status == "failure" and "max_string_length" in (out.message or "")
    assert (out.message or "").startswith("line 26, column 8"), out.message


@pytest.mark.parametrize(
    "read",
    ["acc[i] || 0", "acc[i] ?? 0", "acc?.[i] ?? 0", "acc[i] === undefined ? 0 : acc[i]"],
)
def test_counting_into_an_object_reads_missing_keys_in_constant_time(read: str) -> None:
    # a missing key read where the program allows it built a "did you mean" against up to
    # 2,000 keys, then dropped it: 4,000 distinct items took 41 s, 16,000 hit the deadline
    rt = Runtime(load_entry_points=False, limits=Limits(deadline=60.0))
    items = [f"k{i}" for i in range(6000)]
    text = f"const n = items.reduce((acc, i) => ({{...acc, [i]: ({read}) + 1}}), {{}});\n"
    out = rt.run(text + "return Object.keys(n).length;", lang="plan", context={"items": items})
    assert out.status == "success" and out.value == 6000, out.message


def _count_tree(init: object) -> object:
    count = {"$op": ["+", {"$op": ["||", {"$get": [{"$ref": "acc"}, {"$ref": "i"}]}, 0]}, 1]}
    pair = {"$global": ["Object.fromEntries", [[{"$ref": "i"}, count]]]}
    fn = {"$fn": [["acc", "i"], {"$merge": [{"$ref": "acc"}, pair]}]}
    return {"$method": [{"$ref": "items"}, "reduce", fn, init]}


@pytest.mark.parametrize(
    ("lang", "program"),
    [
        (
            "plan",
            "return items.reduce((acc, i) => { acc[i] = (acc[i] || 0) + 1; return acc; }, {});",
        ),
        ("plan", "return items.reduce((acc, i) => ({...acc, [i]: (acc[i] || 0) + 1}), {});"),
        ("json", _count_tree({})),
        ("plan2", "result: ${items.reduce((acc, i) => ({...acc, [i]: 1}), {})}"),
        ("plan", "return items.reduce((acc, i) => { acc.push(i); return acc; }, []);"),
        ("plan", "return items.reduce((acc, i) => [...acc, i], []);"),
    ],
)
def test_a_reduce_building_an_object_or_array_is_linear(lang: str, program: object) -> None:
    # each step copied the accumulator, as the spread does in Node: 4x the keys took 10-16x
    # the time (16,000 distinct keys 0.7 s, 64,000 keys 10 s); changed in place, 4x (SPEC 1.8)
    rt = Runtime(load_entry_points=False, limits=Limits(deadline=120.0))

    def cpu(n: int) -> float:
        items = [f"k{i}" for i in range(n)]
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            out = rt.run(program, lang=lang, context={"items": items})
            best = min(best, time.process_time() - start)
            assert out.status == "success" and len(out.value) == n, out.message
        return best

    small, large = cpu(4_000), cpu(16_000)
    assert large < 8 * small, f"4x the items took {large / small:.1f}x the time"


@pytest.mark.parametrize("statement", ["xs.forEach(x => x);", "f(1);"])
def test_parsing_many_statements_is_linear(statement: str) -> None:
    # `forEach` was looked for in the whole text once per statement: quadratic (0.85 s of a
    # 16,000-statement parse); the program's own functions are looked for once
    rt = Runtime(load_entry_points=False)

    def cpu(n: int) -> float:
        line = "xs.at(0) // " + "forEac " * 110 + "\n"  # (a long text, slow to search)
        program = "function f(v) { return v; }\n" + line * n + statement
        best = float("inf")
        for k in range(3):
            text = f"{program}\nreturn {k};"  # (a new text each time: no cache answers)
            start = time.process_time()
            out = rt.prepare(text, lang="plan")
            best = min(best, time.process_time() - start)
            assert out.error is None, out.error
        return best

    small, large = cpu(300), cpu(1_200)
    assert large < 8 * small, f"4x the statements took {large / small:.1f}x the time"
