"""A ``reduce`` whose steps change its own accumulator in place (SPEC 1.8, "``reduce``"):
``{...acc, [k]: v}`` and ``[...acc, x]`` (Plan's ``acc[k] = v; return acc;`` and
``acc.push(x)``, JSON's ``$merge``) change the accumulator in place when nothing but the step
can hold it, and give Node's answer either way: an accumulator that escapes, an initial value
read elsewhere, nested reduces, keys set again, integer-like keys."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from dialectic import FunctionDescription, Limits, Runtime
from dialectic.tree.nodes import Lambda, Merge, Node

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

#: (program, how many reduce arrows change their accumulator in place)
PROGRAMS: list[tuple[str, int]] = [
    # keys set again keep their first place; the initial literal's keys come first
    (
        "return [...words, ...words]"
        ".reduce((acc, w) => ({...acc, [w]: (acc[w] || 0) + 1}), {z: 0});",
        1,
    ),
    ("return words.reduce((acc, w) => { acc[w] = (acc[w] ?? 0) + w.length; return acc; }, {});", 1),
    # integer-like keys ("10", "9", lengths): the order SPEC 1.8's table gives, the same values
    ("return words.reduce((acc, w) => ({...acc, [w.length]: w, [w]: acc[w.length] ?? 0}), {});", 1),
    ("return nums.reduce((acc, x) => [...acc, x * 2, ...[x]], [0]);", 1),
    ("return nums.reduce((acc, x) => { acc.push(x, acc.length); return acc; }, []);", 1),
    ("return words.reduce((acc, w) => acc.includes(w.length) ? acc : [...acc, w.length], []);", 1),
    (
        "return nums.reduce((acc, x) => x > 2 ? {...acc, [x]: Object.keys(acc).length} : acc, {});",
        1,
    ),
    ("return nums.reduce((acc, x) => x > 2 ? {...acc, [x]: 1} : {}, {a: 1});", 1),
    (
        "return nums.reduce((acc, x) =>"
        " ({...acc, ...acc, [x]: `${Object.values(acc).length}`}), {});",
        1,
    ),
    ("return nums.reduce((acc, x) => [...acc, ...acc, x], []);", 1),
    (
        "return people.reduce((acc, p) => {\n  const n = acc[p.name] ?? 0;\n"
        "  return {...acc, [p.name]: n + p.age, total: (acc.total ?? 0) + 1};\n}, {});",
        1,
    ),
    ("return [].reduce((acc, x) => ({...acc, [x]: 1}), {a: 1});", 1),
    ("return [].reduce((acc, x) => [...acc, x], []);", 1),
    ("return nums.reduce((acc, x) => ({...acc, [x]: undefined, n: x}), {});", 1),
    # an initial value read elsewhere is never changed
    (
        "const init = {a: 1};\nconst r = nums.reduce((acc, x) => ({...acc, [x]: 1}), init);\n"
        "return [init, r, Object.keys(init).length];",
        1,
    ),
    (
        "const init = [0];\nconst r = nums.reduce((acc, x) => [...acc, x], init);\n"
        "return [init, r, init.length];",
        1,
    ),
    ("const r = words.reduce((acc, w) => [...acc, w], nums);\nreturn [nums, r];", 1),
    # no initial value: the accumulator starts as the first item, which stays as it was
    (
        "const r = people.reduce((acc, p) => ({...acc, [p.name]: p.age}));\nreturn [r, people[0]];",
        1,
    ),
    # nested reduces, each its own accumulator; the inner one starts from the outer's
    (
        "return people.reduce((acc, p) => ({...acc, [p.name]: p.tags.reduce((t, x) =>"
        " ({...t, [x]: (t[x] || 0) + (acc[x] ?? 1)}), {})}), {y: 5});",
        2,
    ),
    (
        "return people.reduce((acc, p) =>"
        " p.tags.reduce((a, t) => ({...a, [t]: p.name}), acc), {});",
        1,
    ),
    # the accumulator escapes: copied each step, as written
    ("return nums.reduce((acc, x) => ({...acc, [x]: acc}), {});", 0),
    ("return nums.slice(0, 3).reduce((acc, x) => [...acc, x, acc], []);", 0),
    ("return nums.reduce((acc, x) => { const prev = acc; return {...prev, [x]: 1}; }, {});", 0),
    ("return nums.reduce((acc, x) => { const a = acc; return {...acc, [x]: a}; }, {});", 0),
    (
        "return nums.reduce((acc, x) => { const a = acc.k ?? 0; return a ? acc : {...acc, k: x}; },"
        " {});",
        1,
    ),
    (
        "return nums.reduce((acc, x) => { const all = {...acc, [x]: 1};"
        " return Object.keys(all).length > 3 ? acc : all; }, {});",
        0,
    ),
    ("return nums.reduce((acc, x) => ({...acc, [x]: [acc].length}), {});", 0),
    ("return nums.reduce((acc, x) => acc.k ?? {...acc, [x]: 1}, {});", 0),
    (
        "return nums.slice(0, 3)"
        ".reduce((acc, x) => [...acc, acc.map((y, i, all) => all.length + x)], []);",
        0,
    ),
    ("return nums.reduce((acc, x) => ({...acc, [x]: echo(acc)}), {});", 0),
]


def _marked(text: str, rt: Runtime = RT) -> int:
    prepared = rt.prepare(text, lang="plan")
    assert prepared.resolved is not None
    marks = prepared.resolved.accumulates.values()
    return sum(1 for node, _ in marks if type(node) is Lambda)


def test_accumulators_give_what_node_gives() -> None:
    runs_as_in_node([text for text, _ in PROGRAMS], RT)


@pytest.mark.parametrize(("text", "owners"), PROGRAMS)
def test_which_reduces_change_their_accumulator(text: str, owners: int) -> None:
    assert _marked(text) == owners


def _tree(merge_part: Any, init: Any) -> Any:
    fn = {"$fn": [["acc", "i"], {"$merge": [{"$ref": "acc"}, merge_part]}]}
    return {"$method": [{"$ref": "items"}, "reduce", fn, init]}


def test_dialect_json_and_plan2_merges_change_their_accumulator() -> None:
    items = ["b", "a", "b", "10", "c"]
    count = {"$op": ["+", {"$op": ["||", {"$get": [{"$ref": "acc"}, {"$ref": "i"}]}, 0]}, 1]}
    pair = {"$global": ["Object.fromEntries", [[{"$ref": "i"}, count]]]}
    want = {"z": 0, "b": 2, "a": 1, "10": 1, "c": 1}
    tree = _tree(pair, {"$object": {"z": 0}})
    prepared = RT.prepare(tree)
    assert prepared.resolved is not None
    assert any(type(n) is Merge for n, _ in prepared.resolved.accumulates.values())
    assert RT.run(tree, context={"items": items}).value == want
    plan2 = "result: ${items.reduce((acc, i) => ({...acc, [i]: (acc[i] || 0) + 1}), {z: 0})}"
    assert RT.run(plan2, lang="plan2", context={"items": items}).value == want
    # an object part written in the tree, and a part that is no object: as before
    part = {"$object": {"k": {"$ref": "i"}}}
    assert RT.run(_tree(part, {}), context={"items": items}).value == {"k": "c"}
    out = RT.run(_tree({"$ref": "i"}, {}), context={"items": items})
    assert out.status == "failure" and "copies an object's members" in str(out.message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("return ['a', '__proto__'].reduce((acc, k) => ({...acc, [k]: 1}), {});", "__proto__"),
        ("return ['__proto__'].reduce((acc, k) => { acc[k] = 1; return acc; }, {});", "__proto__"),
        (
            "return ['const'].reduce((acc, k) => ({...acc, [k]: acc[k + 'ructor']}), {});",
            "constructor",
        ),
        ("return ['ab'].reduce((acc, k) => ({...acc, ...k}), {});", "copies an object's members"),
        ("return [1, 2].reduce((acc, k) => [...acc, ...k], []);", "not number"),
    ],
)
def test_refusals_stay_as_they_were(text: str, message: str) -> None:
    assert _marked(text) == 1
    out = RT.run(text, lang="plan")
    assert out.status == "failure" and message in str(out.message), out.message


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("return ['ab', 'c'].reduce((acc, k) => [...acc, ...k], 'xy');", ["x", "y", "a", "b", "c"]),
        ("return ['ab', 'c'].reduce((acc, k) => ({...acc, [k]: 1}), null);", {"ab": 1, "c": 1}),
        (
            "return ['constructor'].reduce((acc, k) => { acc[k] = 1; return acc; }, {});",
            {"constructor": 1},
        ),
    ],
)
def test_an_initial_value_of_another_kind_is_copied_as_before(text: str, value: Any) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "success" and out.value == value, out.message


def test_an_async_step_changes_its_accumulator() -> None:
    # (the step awaits its accumulator: in JavaScript it is the step before's promise)
    text = (
        "return words.reduce(async (acc, w) => ({...(await acc), [w]: await later(w.length)}), {});"
    )
    assert _marked(text) == 1
    out = RT.run(text, lang="plan", context=CONTEXT)
    words = CONTEXT["words"]
    assert isinstance(words, list)
    assert out.status == "success" and out.value == {w: len(w) for w in words}, out.message
    text = "return nums.reduce(async (acc, x) => [...(await acc), await later(x)], [1]);"
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "success" and out.value == [1, *CONTEXT["nums"]], out.message  # type: ignore[misc]


@pytest.mark.parametrize(
    "program",
    [
        "return items.reduce((acc, i) => ({...acc, [i]: 1}), {a: 0});",
        _tree({"$object": {"x": 1}}, {"$quote": {"a": 0}}),  # (a literal the runs share)
        _tree({"$object": {"x": 1}}, {"$object": {"a": 0}}),
    ],
)
def test_each_run_starts_from_its_own_initial_value(program: Any) -> None:
    lang = "plan" if type(program) is str else "json"
    prepared = RT.prepare(program, lang=lang)
    assert prepared.resolved is not None and prepared.resolved.accumulates
    for items in (["x"], ["y", "z"], []):
        want = {"a": 0, **dict.fromkeys(items, 1)} if lang == "plan" else {"a": 0}
        if lang == "json" and items:
            want["x"] = 1
        assert prepared.run(context={"items": items}).value == want


def test_the_limits_still_count() -> None:
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=1_000))
    items = [f"k{i}" for i in range(2_000)]
    for text in (
        "return items.reduce((acc, i) => ({...acc, [i]: 1}), {});",
        "return items.reduce((acc, i) => [...acc, i], []);",
    ):
        out = rt.run(text, lang="plan", context={"items": items})
        assert out.status == "failure" and "method steps" in str(out.message), out.message
    # doubling in place stops at 10,000,000 items, as the copy did
    text = "return items.reduce((acc, i) => [...acc, ...acc, i], []).length;"
    out = RT.run(text, lang="plan", context={"items": list(range(30))})
    assert out.status == "failure" and "10,000,000 items" in str(out.message), out.message


def _walk_ids(node: Node) -> set[int]:
    from dialectic.tree.walking import walk

    return {id(n) for n in walk(node)}


def test_the_marks_are_nodes_of_the_program() -> None:
    prepared = RT.prepare(PROGRAMS[0][0], lang="plan")
    assert prepared.resolved is not None
    ids = _walk_ids(prepared.resolved.root)
    assert prepared.resolved.accumulates and set(prepared.resolved.accumulates) <= ids


def test_a_step_with_ordered_calls_copies_its_accumulator() -> None:
    # (SPEC 17: a block's write calls may run after the step's value; they read `acc` as
    # it was before the step, so that reduce copies as written)
    notes: list[Any] = []

    async def note(value: Any) -> None:
        await asyncio.sleep(0.001)
        notes.append(value)

    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("note", "note", note, {"value": "any"}, "any", effects="write"))
    for init, read, result, value in [
        ("{}", "acc.n ?? 0", "{...acc, n: (acc.n ?? 0) + 1}", {"n": 2}),
        ("[]", "acc.length", "[...acc, w]", ["a", "b"]),
    ]:
        notes.clear()
        text = (
            f"return ['a', 'b'].reduce(async (last, w) => {{\n  const acc = await last;\n"
            f"  const a = await note(w);\n"
            f"  const b = await note({read});\n  return {result};\n}}, {init});"
        )
        assert _marked(text, rt) == 0
        out = rt.run(text, lang="plan")
        assert out.status == "success" and out.value == value, out.message
        assert notes == ["a", 0, "b", 1]
