"""An ``async`` callback of an array method that tests, flattens or compares what it returns
(:mod:`dialectic.frontends.plan.asynccallbacks`): JavaScript gets a promise there, so Plan,
which reads the awaited value, refuses it at the ``async`` instead of giving another answer;
``map`` under ``Promise.all`` and an ``async`` ``reduce`` step run as before."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_oracle import check, runtime

RT: Runtime = runtime()

REFUSED = [
    ("return (await later([1, 2, 3])).filter(async x => await later(x > 1)).length;", "filter"),
    ("return (await later([1, 2, 3])).some(async x => await later(x > 5));", "some"),
    ("return (await later([1, 2, 3])).every(async x => x > 5);", "every"),
    ("return (await later([1, 2, 3])).find(async x => x > 1);", "find"),
    ("return (await later([1, 2, 3])).findIndex(async function (x) { return x > 1; });",
     "findIndex"),
    ("return (await later([1, 2, 3])).findLast(async x => x < 2);", "findLast"),
    ("return await Promise.all((await later([1, 2])).flatMap(async x => [x, x]));", "flatMap"),
    ("return (await later([3, 1, 2])).sort(async (a, b) => a - b);", "sort"),
    ("return (await later([3, 1, 2]))?.toSorted(async (a, b) => a - b);", "toSorted"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "method"), REFUSED)
def test_a_method_that_does_not_wait_refuses_an_async_callback(text: str, method: str) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure" and out.error is not None, (text, out.value)
    assert out.error.code == "syntax_error", out.message
    assert f"`{method}` does not wait for an `async` callback" in (out.message or "")
    assert "Promise.all" in (out.message or "")  # (the hint: the values first)
    for v in check([text], RT):  # (Node's answer there is the promise's, never the value's)
        assert v.kind == "refused", (v.program, v.kind, v.detail)


def test_what_waits_runs_as_in_node() -> None:
    texts = [
        "const xs = await later([1, 2, 3]); return await Promise.all(xs.map(async x => "
        "await later(x * 2)));",
        "const xs = await later([1, 2, 3]); const oks = await Promise.all(xs.map(async x => "
        "await later(x > 1))); return xs.filter((x, i) => oks[i]);",
        "const xs = await later([1, 2, 3]); return await xs.reduce(async (p, x) => { const acc "
        "= await p; return acc + x; }, Promise.resolve(0));",
        "const xs = await later([1, 2, 3]); return await xs.reduceRight(async (p, x) => "
        "(await p) + x, '');",
    ]
    for v in check(texts, RT):
        assert v.kind == "same", (v.program, v.kind, v.detail)
