"""A ``reduce`` (or a loop read as one) that appends to a text, ``acc + E``, runs in time linear
in the text (:mod:`dialectic.compiler.textfold`): the values are Node's, and every refusal is
the one the step-by-step ``+`` gives (compared with a body that reads the accumulator in its
piece, which steps as before)."""

from __future__ import annotations

import time

import pytest

from dialectic import Limits, Runtime

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "let t = ''; for (const w of words) t += w; return t;",
    "let csv = 'name,age\\n'; for (const p of people) { csv += `${p.name},${p.age}\\n`; } "
    "return csv;",
    "return nums.reduce((a, x) => a + x, '');",
    "return nums.reduce((a, x) => a + x, 'n:');",
    # a number first, text from the step that meets a text on
    "return [1, 2, 'x', 3, true, null === null].reduce((a, x) => a + x, 0);",
    "return words.reduce((a, w, i) => a + i + w, '');",
    "return [1, [2, [3, null]], 4].reduce((a, x) => a + x, '');",  # (an array: `2,3,`)
    "let out = ''; for (const p of people) { if (p.age > 5) out += p.name + ';'; } return out;",
    "return people.map(p => p.name).reduce((a, n) => a + n.toUpperCase());",
    # a chain `acc + a + b` (its piece `'' + a + b` once the accumulator is a text)
    "return [1, 2, 3].reduce((a, x) => a + x + ',', '');",
    "return [1, 2, 3].reduce((a, x) => a + x + ',', 0);",
    "return [1, 2].reduce((a, x) => a + x + 1, 5);",
    "return ['1', '2'].reduce((a, x) => a + x + 1, 5);",
    "return [1, 2, 3].reduce((a, x) => a + x * 2 + '-' + x, 'n:');",
    "return [true, 1.5, -0].reduce((a, x, i) => a + i + ':' + x + ' ', '');",
    "let out = ''; for (const p of people) { out += [p.name, p.age].reduce((b, t) => b + t + "
    "'/', '') + ';'; } return out;",
]


def test_appends_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def _stepwise(program: str) -> str:
    """The same program with a piece that reads the accumulator (never the linear path)."""
    return program.replace("a + x", "a + (a === null ? x : x)")


@pytest.mark.parametrize(
    "program",
    [
        "return [1, undefined, 2].reduce((a, x) => a + x, '');",
        "return [1, [{k: 2}], 3].reduce((a, x) => a + x, '');",
        "return [1, {k: 2}].reduce((a, x) => a + x, 's');",
        "return [1, 2, 3].reduce((a, x) => a + x, 'abc'.repeat(10));",
        "return ['a', null, 'b'].reduce((a, x) => a + x + '|', '');",
        "return [1, {k: 2}].reduce((a, x) => a + x + '|', 's');",
    ],
)
def test_refusals_are_the_steps_own(program: str) -> None:
    small = Runtime(load_entry_points=False, limits=Limits(max_string_length=31))
    fast, slow = small.run(program, lang="plan"), small.run(_stepwise(program), lang="plan")
    assert slow.status == "failure" and fast.status == "failure", (fast.value, slow.value)
    assert fast.error is not None and slow.error is not None
    assert (fast.error.code, fast.error.path) == (slow.error.code, slow.error.path)
    assert fast.message is not None and slow.message is not None
    assert fast.message.splitlines()[0] == slow.message.splitlines()[0]
    assert fast.error.hint == slow.error.hint
    assert fast.error.details == slow.error.details  # ({"operator": "+"})


def test_a_long_text_is_linear_not_quadratic() -> None:
    # 200,000 appends: quadratic, this took about 4 s of copying; linear, well under a second
    # (a generous bound: the point is the shape, measured apart in benchmarks)
    rt = Runtime(load_entry_points=False)
    xs = ["abcd"] * 200_000
    started = time.thread_time()
    out = rt.run("let s = ''; for (const x of xs) s += x; return s.length;", context={"xs": xs})
    assert out.status == "success" and out.value == 800_000
    assert time.thread_time() - started < 30


def test_a_chain_of_appends_is_linear_too() -> None:
    # `acc + x + ','`: once the accumulator is a text, its piece is `'' + x + ','` (before, each
    # step copied the text: 100,000 items took 1.3 s and grew faster than the items)
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=10**7))
    xs = list(range(100_000))  # (a text of 588,890 characters: within the limit)
    started = time.thread_time()
    out = rt.run("return xs.reduce((a, x) => a + x + ',', '').length;", context={"xs": xs})
    assert out.status == "success" and out.value == sum(len(str(x)) + 1 for x in xs)
    assert time.thread_time() - started < 30
