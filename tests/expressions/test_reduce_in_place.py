"""``reduce`` with an accumulator changed in place (SPEC 1.8, "reduce with an accumulator
changed in place"): from a fresh literal, ``acc[k] = v`` / ``acc.k = v`` / ``acc.push(...)`` then
``return acc`` give Node's answer; every other change fails at the place with what to write."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "return words.reduce((acc, w) => { acc[w.length] = (acc[w.length] || 0) + 1; return acc; },"
    " {});",
    "return people.reduce((acc, p) => {\n  acc[p.name] = p.age;\n  return acc;\n}, {});",
    "return people.reduce((by, p) => { by[p.city ?? 'none'] = p.name; return by; }, {none: '-'});",
    "return nums.reduce((acc, x) => {\n  const y = x * 2;\n  acc.push(y, -y);\n  return acc;\n"
    "}, []);",
    "return nums.reduce((acc, x) => { acc.push(...[x, x]); return acc; }, [0]);",
    "return people.reduce((o, p) => { o.last = p.name; o.count = p.age; return o; }, {});",
    "return words.reduce((acc, w) => { acc[w] = acc[w] ? acc[w] + 1 : 1; return acc; }, {});",
    "return [].reduce((acc, x) => { acc[x] = 1; return acc; }, {});",
    "const t = people.map(p => p.tags).reduce((acc, ts) => { acc.push(ts.length); return acc; },"
    " []);\nreturn t;",
    "return words.reduce(async (acc, w) => { acc[w] = await later(w.length); return acc; }, {});",
]


def test_changed_accumulators_give_what_node_gives() -> None:
    texts = [t for t in PROGRAMS if "async" not in t]
    runs_as_in_node(texts, RT)


def test_an_accumulator_changed_after_awaits_in_each_step() -> None:
    # (in Node an async step gets the step before's promise: `acc[w] = v` sets a member of
    # that promise, lost; a step that reads `acc` without `await` is refused, SPEC 10's table)
    out = RT.run(PROGRAMS[-1], lang="plan", context=CONTEXT)
    assert out.status == "failure"
    assert "reads `acc` without `await`" in (out.message or "")
    awaited = (
        "return await words.reduce(async (acc, w) => ({...(await acc), [w]: await "
        "later(w.length)}), {});"
    )
    words = CONTEXT["words"]
    assert isinstance(words, list)
    (out,) = runs_as_in_node([awaited], RT)
    assert out.value == {w: len(w) for w in words}


@pytest.mark.parametrize(
    ("text", "message", "at"),
    [
        ("return nums.reduce((acc, x) => { acc[x] = 1; return acc; });", "must start it", "acc[x]"),
        (
            "return nums.reduce((acc, x) => { acc[x] = 1; return acc; }, data);",
            "must start",
            "acc[x]",
        ),
        (
            "return nums.reduce((acc, x) => { acc.push(x); return acc; }, {});",
            "array literal",
            "acc.push",
        ),
        (
            "return nums.map((acc, x) => { acc[x] = 1; return acc; });",
            "only `reduce` may",
            "acc[x]",
        ),
        (
            "return nums.reduce((acc, x) => { acc[x] = 1; return 3; }, {});",
            "must return it",
            "acc[x]",
        ),
        ("return nums.reduce((a, x) => { a.pop(); return a; }, []);", "holds `const", "a.pop"),
        (
            "return nums.reduce((a, x) => { a[x] = 1; a.push(x); return a; }, {});",
            "holds",
            "a.push",
        ),
    ],
)
def test_other_changes_fail_at_the_place(text: str, message: str, at: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "syntax_error"
    assert message in str(out.message), out.message
    assert (out.error.line, out.error.column) == (1, text.index(at) + 1), out.message


def test_a_members_member_set_in_a_reduce_step_fails_where_javascript_throws() -> None:
    # read as the step's loop (SPEC 10, "State a loop keeps"): `a.b` is undefined, and
    # JavaScript's `a.b.c = 1` throws a TypeError there
    text = "return nums.reduce((a, x) => { a.b.c = 1; return a; }, {});"
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert (out.error.line, out.error.column) == (1, text.index("a.b.c") + 1), out.message
    made = "return nums.reduce((a, x) => { a.b = {}; a.b.c = x; return a; }, {});"
    out = RT.run(made, lang="plan", context=CONTEXT)
    assert out.status == "success" and out.value == {"b": {"c": 7}}, out.message
