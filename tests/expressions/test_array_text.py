"""An array as text (SPEC 5; :mod:`dialectic.values.arraytext`): a template's `` `${xs}` ``,
``String(xs)``, ``xs.toString()``, ``'' + xs`` and an array inside ``join`` write Node's text,
the items joined by ``,`` (an array inside flattened so, ``null``/``undefined`` as nothing); an
object, a Map or a Set inside, which JavaScript writes ``[object Object]``, is refused with
what to write (in a template, or by the library's ``str``, the array is its JSON, as an object
is: a listed difference); the text is bounded by ``max_string_length`` and the walk by the
items it looks at."""

from __future__ import annotations

import json
import random

import pytest

from dialectic import Limits, Runtime

from .program_oracle import node_answers, runs_as_in_node, runtime, same

RT: Runtime = runtime()

PROGRAMS = [
    "return `Tags: ${['a', 'b']}`;",
    "return String([1, [2, [3, null]], undefined, true]);",
    "return [1, 2].toString();",
    "return '' + [1, 2];",
    "return [1, 2] + '';",
    "return 'x: ' + ['a', 'b'];",
    "const t = ['a']; return t + '!' + [2];",
    "return [1, [2, 3]].join(';');",
    "return [[1, [2]], 3].join(' | ');",
    "return `${[]}|${[null]}|${[[]]}|${[1.0, 1e21, -0]}|${[1, [], 2]}`;",
    "return `${[new Date(0)]}`;",
    "return `${[1 / 0, -1 / 0, 0.1 + 0.2, 2 ** 60]}`;",
    "return `${[[1, 2], [3], [], [[null]]]}`;",
    "const xs = [1, 2, 3]; return `${xs.map(x => [x, x * 2])}`;",
    "return `${[true, false, 'x y']}`;",
    "return encodeURIComponent([1, 'a b']);",
    "return 'a-b'.replace('-', () => [1, 2]);",
    # as models write it
    "const tags = await echo(['urgent', 'billing']);\n"
    "const ids = [3, 5];\nreturn `Ticket ${ids} tagged ${tags} (${tags.length})`;",
]


def test_arrays_as_text_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def test_random_arrays_as_text_as_node() -> None:
    """Random arrays of primitives, nested, written each way, against Node."""
    rng = random.Random(11)
    atoms = ["1", "-0", "0.5", "1e21", "'a'", "''", "'x,y'", "null", "undefined", "true", "1/0"]

    def array(depth: int) -> str:
        items = [
            array(depth + 1) if depth < 3 and rng.random() < 0.3 else rng.choice(atoms)
            for _ in range(rng.randint(0, 4))
        ]
        return f"[{', '.join(items)}]"

    forms = ["`<${X}>`", "String(X)", "X.toString()", "'' + X", "X + '!'", "[X, X].join(';')"]
    texts = [
        f"const xs = {array(0)}; return {rng.choice(forms).replace('X', 'xs')};" for _ in range(300)
    ]
    for text, answer in zip(texts, node_answers(texts), strict=True):
        out = RT.run(text, lang="plan")
        assert out.status == "success", (text, out.message)
        assert same(out.value, answer["ok"]) is None, (text, out.value, answer)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("return String([{a: 1}]);", "`[object Object]`"),
        ("return [{a: 1}].toString();", "`[object Object]`"),
        ("return 'x' + [{a: 1}];", "`[object Object]`"),
        ("return [1, [{a: 1}]].join();", "`[object Object]`"),
        ("return [1, {a: 1}].join();", "join() of an array holding objects"),
        ("return String([new Map([[1, 2]])]);", "`[object Map]`"),
        ("return String({a: 1});", "`[object Object]`"),
    ],
)
def test_an_object_inside_is_refused_with_what_to_write(text: str, message: str) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure", out.value
    assert out.error is not None and out.error.code == "expression_error"
    assert message in (out.message or ""), out.message
    assert "line 1, column 8:" in (out.message or ""), out.message
    assert "JSON.stringify" in (out.message or ""), out.message


def test_an_object_in_a_template_stays_its_json() -> None:
    """The deliberate difference that stays (SPEC 10): `${o}` is its JSON."""
    out = RT.run("return `${{a: [1, 2]}}`;", lang="plan")
    assert out.value == '{"a":[1,2]}'


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("return `${[{a: 1}]}`;", '[{"a":1}]'),
        ("return `${[1, [2, {a: 1}]]}`;", '[1,[2,{"a":1}]]'),
        ("return `<${[1, [2, 3]]}>`;", "<1,2,3>"),
    ],
)
def test_an_array_holding_an_object_is_its_json_in_a_template(text: str, value: str) -> None:
    """As the object alone is (the same deliberate difference): JSON, not `[object Object]`;
    an array of primitives is Node's text."""
    out = RT.run(text, lang="plan")
    assert out.status == "success" and out.value == value, out.message


def test_the_library_str_writes_an_array_holding_objects_as_json() -> None:
    out = RT.run({"str": {"value": {"$quote": [{"a": 1}, 2]}}})
    assert out.status == "success" and out.value == '[{"a":1},2]', out.message


@pytest.mark.parametrize(
    "text", ["return `${[/a/]}`;", "return `${[new Map([[1, 2]])]}`;"], ids=["regex", "Map"]
)
def test_a_regex_or_a_map_inside_a_template_s_array_is_refused(text: str) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure" and out.error is not None, out.value
    assert "cannot leave the program as it is" in (out.message or ""), out.message


def test_plan2_and_dialect_json_templates_write_the_same_text() -> None:
    assert RT.run("result: 'Tags: ${[1, [2, null]]}'\n", lang="plan2").value == "Tags: 1,2,"
    program = {"$template": ["Tags: ", [1, [2, None]]]}
    assert RT.run(json.dumps(program), lang="json").value == "Tags: 1,2,"


def test_the_text_and_the_walk_are_bounded() -> None:
    rt = Runtime(load_entry_points=False, limits=Limits(max_string_length=1000))
    out = rt.run(
        "const xs = Array.from({length: 600}, (_, i) => [i]); return `${xs}`;", lang="plan"
    )
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "limit_exceeded", out.message
    # an array held many times over (`fill`) writes no character for its arrays: bounded by
    # the items looked at, not by the text
    deep = (
        "let x = []; for (let i = 0; i < 50; i++) x = [x]; "
        "const xs = Array(30000).fill(x); return String(xs).length;"
    )
    out = rt.run(deep, lang="plan")
    assert out.status == "failure"
    assert "too many arrays to write as text" in (out.message or ""), out.message
