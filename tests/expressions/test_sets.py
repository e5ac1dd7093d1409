"""``new Set(xs)`` for distinct items (SPEC 10): ``[...new Set(xs)]``, ``Array.from(new Set(xs))``,
``new Set(xs).size`` and ``new Set(xs).has(x)`` give what Node gives (SameValueZero, arrays and
objects by identity, first occurrences in order, a text by code points); a Set anywhere else
is a Set as a value (``test_collections.py``)."""

from __future__ import annotations

import pytest

from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import decompile, parse_plan
from dialectic.values.jsextras import set_items

from .program_oracle import check, runtime

RT = runtime()

SAME = [
    "return [...new Set([1, 1, '1', 0, -0, null, null, undefined, true, true, 'x', 'x', false])];",
    "return [...new Set([-0, 0, 2.5, 2.5, 10, 1e21, 1e21])];",
    "return [...new Set(words)];",
    "return Array.from(new Set('hello'));",
    "return [...new Set('héllo😀😀中')];",
    "return new Set('héllo😀😀').size;",
    "return [[...new Set()], [...new Set(null)], new Set().size, new Set(undefined).size];",
    "return [...new Set([])];",
    "const o = {a: 1};\nreturn [...new Set([o, o, {a: 1}, {a: 1}])].length;",
    "const a = [1];\nreturn new Set([a, a, [1], []]).size;",
    "return [new Set(people).size, new Set([...people, ...people]).size];",
    "return new Set(people.concat(people.slice(1))).size;",
    "return new Set(people.map(p => p).concat(people.filter(p => p.age > 1))).size;",
    "return new Set([data, data, data.d, data.d, data.c, data.c]).size;",
    "return new Set(Object.values({a: data.d, b: data.d, c: {}})).size;",
    "return new Set([{...data}, {...data}]).size;",
    "return new Set(nums.map(() => ({a: 1}))).size;",
    "return new Set(nums.map(() => [])).size;",
    "return new Set(Array.from({length: 3}, () => ({}))).size;",
    'return new Set(JSON.parse(\'[1, 1, {"a": 1}, {"a": 1}]\')).size;',
    "return new Set(people.map(p => p.tags)).size;",
    "return [...new Set(people.flatMap(p => p.tags))];",
    "const ids = people.map(p => p.name);\n"
    "return people.filter(p => new Set(ids).has(p.name)).length;",
    "return [new Set(nums).has(2.5), new Set(nums).has(-0), new Set([1, 2]).has('1')];",
    "return [new Set(['a']).has('a'), new Set('abc').has('b'), new Set().has(undefined)];",
    "return [new Set([null]).has(undefined), new Set([undefined]).has(undefined)];",
    "return [...new Set(nums.map(n => n > 2))];",
    "return Math.max(...new Set(nums));",
    "return [0, ...new Set([2, 2, 3]), ...new Set('aa'), 4];",
    "return Array.from(new Set(words), (w, i) => w + i);",
    "return new Set(words.map(w => w.length)).size > 3 ? 'many' : 'few';",
    "return [...new Set([1, 1, 2])].map(x => x * 2).join('-');",
    "return new Set(people.map(p => p.city)).size;",
    "return [...(new Set([3, 3]))];",
    # an alias of a Set read as its count, membership or items
    "const seen = new Set(nums);\n"
    "return [seen.size, seen.has(2.5), seen.has('3'), [...seen], Array.from(seen, x => x + 1)];",
    "const names = new Set(people.map(p => p.name));\n"
    "const known = ['Ada', 'Zed', 'Bo'].filter(n => names.has(n));\n"
    "return [known, names.size > 2 ? 'many' : 'few', Array.from(names)];",
    "const tags = new Set(people.flatMap(p => p.tags));\nreturn people.filter(p => "
    "p.tags.some(t => tags.has(t))).map(p => p.name).concat([...tags]);",
    # Node throws a TypeError (not iterable): a failure here too
    "return new Set(n).size;",
    "return [...new Set(data)];",
    # Node compares the very object: here, comparing two objects is refused (a failure)
    "return new Set(people).has(people[0]);",
]


def test_sets_give_what_node_gives() -> None:
    verdicts = check(SAME, RT)
    refused = [v.program for v in verdicts if v.kind == "refused"]
    for v in verdicts:
        assert v.kind in ("same", "refused"), (v.program, v.kind, v.detail)
    assert refused == SAME[-3:], refused


def test_the_items_of_a_set_are_linear_and_keep_first_occurrences() -> None:
    many = list(range(200_000)) * 2
    assert set_items(many) == list(range(200_000))
    assert set_items([0, -0.0, 0.0]) == [0]
    assert set_items([2**60, 2**60, "a"]) == [2**60, "a"]


def test_two_integers_javascript_cannot_tell_apart_are_refused() -> None:
    out = RT.run("return new Set(xs).size;", lang="plan", context={"xs": [2**60, 2**60 + 1]})
    assert out.status == "failure" and "2**53" in (out.message or "")


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("return new Set(nums, 1).size;", "takes one array or text", 8),
        ("return new Set(nums).has(1, 2);", "has() takes one value", 22),
    ],
)
def test_a_set_with_other_arguments_is_refused_at_its_place(
    text: str, message: str, column: int
) -> None:
    """(A Set anywhere else is a Set as a value: ``test_collections.py``.)"""
    with pytest.raises(SourceError) as caught:
        parse_plan(text, strict=True)
    problem = caught.value.problems[0]
    assert message in problem.message, problem.message
    assert (problem.line, problem.column) == (1, column)
    assert problem.hint
    assert "[...new Set(xs)]" in problem.hint


@pytest.mark.parametrize(
    "text",
    [
        "return [...new Set(xs)];",
        "return [...new Set(xs), 1, ...new Set('ab')];",
        "return [new Set(xs).size, new Set(xs).has(x)];",
        "return Array.from(new Set(xs), x => x + 1);",
        "return f(...new Set(xs));",
        "return [...new Set()];",
    ],
)
def test_decompiled_sets_read_back_the_same(text: str) -> None:
    tree = parse_plan(text, strict=True).tree
    again = decompile(tree)
    assert parse_plan(again, strict=True).tree == tree, again
    assert "new Set(" in again
    assert ".has(" not in again and ".size" not in again


def test_the_hint_for_distinct_items() -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan("return new Set;", strict=True)
    assert "[...new Set(xs)]" in (caught.value.problems[0].hint or "")
