"""The Plan source map is kept by the identity of the tree's containers while parsing
(:class:`dialectic.frontends.plan.spans.SpanRecord`): a container dropped while parsing (a
rewrite's first try, a loop's state read again) must not free its id for a new container, which
would then take its spans (an error pointing at another place). The oracle: the same parse with
every container whose id is taken kept alive (``id`` replaced while parsing) gives the same
source map."""

from __future__ import annotations

import builtins
from typing import Any

import pytest

from dialectic import Runtime
from dialectic.frontends.base import Span
from dialectic.frontends.plan import parse_plan
from dialectic.frontends.plan.spans import SpanRecord
from dialectic.outcome.errors import JSONPath

# programs whose parse drops containers it recorded spans of (each took another's span: 212 of
# 6,413 programs of the tests' corpus did)
PROGRAMS = [
    "const stack = [1, 2, 3]; const out = []; while (stack.length) out.push(stack.pop()); "
    "return out;",
    "const q = [3, 1, 2]; const first = q.shift(); q.unshift(0); const last = q.pop(); "
    "return [first, last, q];",
    "return a + Number(b) + Boolean.x + Promise.all([f(1)]);",
    "const out = [];\nfor (let i = echo(0); i < 3; i++) out.push(i);\nreturn out;",
    "let t = 'x'; let i = 0; while (i >= 0) { t += 'ab'; i++; } return t;",
    "const counts = ['a', 'b', 'a'].reduce((acc, w) => { acc[w] = (acc[w] || 0) + 1; "
    "return acc; }, {});\nconst doubled = [1, 2].reduce((acc, n) => { acc.push(double(n)); "
    "return acc; }, []);\nreturn [counts, doubled];\n",
    "let out = ''; let i = 0; while (i < 3) { out = out + i + ','; i++; } return out;",
    "return await failLater('z').catch(e => ({error: String(e)}));",
]


def spans_of(text: str, keep_all: bool) -> dict[JSONPath, Span]:
    real_id = builtins.id
    kept: list[Any] = []

    def keeping_id(obj: object) -> int:
        kept.append(obj)
        return real_id(obj)

    if keep_all:
        builtins.id = keeping_id
    try:
        return dict(parse_plan(text).spans)
    finally:
        builtins.id = real_id


@pytest.mark.parametrize("text", PROGRAMS)
def test_no_span_comes_from_a_dropped_container(text: str) -> None:
    assert spans_of(text, keep_all=False) == spans_of(text, keep_all=True)


def test_the_record_keeps_what_it_is_keyed_by() -> None:
    rec = SpanRecord()
    rec[(rec.pin([1]), 0)] = (0, 1)  # (the list is dropped by the caller at once)
    (key,) = rec
    assert [id(x) for x in rec.kept] == [key[0]]


def test_an_error_points_at_its_own_place() -> None:
    rt = Runtime(load_entry_points=False)
    text = PROGRAMS[5]
    out = rt.run(text)
    assert not out.ok and out.error is not None
    assert out.error.code == "unknown_function"
    # line 2, at `double(n)`
    assert "line 2, column 73" in out.to_json()["message"]
