"""The YAML layer of Plan2: plain data only, located errors, a JSON-like scalar schema."""

from __future__ import annotations

import pytest

from dialectic.frontends.plan2.emit import dump_plan2
from dialectic.frontends.plan2.yamlnodes import YamlProblems, compose, resolve_plain, to_data


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("5117", 5117),
        ("-3", -3),
        ("1.5", 1.5),
        ("2e3", 2000.0),
        ("true", True),
        ("False", False),
        ("null", None),
        ("~", None),
        ("", None),
        # YAML 1.1 surprises stay text
        ("NO", "NO"),
        ("yes", "yes"),
        ("on", "on"),
        ("10:30", "10:30"),
        ("2023-10-10", "2023-10-10"),
        ("0123", "0123"),
        ("0x1F", "0x1F"),
        (".inf", ".inf"),
        ("1_000", "1_000"),
    ],
)
def test_plain_scalar_schema(text: str, value: object) -> None:
    assert resolve_plain(text) == value
    assert type(resolve_plain(text)) is type(value)


def test_quoted_scalars_are_strings() -> None:
    assert to_data(compose("a: '5117'\nb: \"true\"\nc: !!str 12")) == {
        "a": "5117",
        "b": "true",
        "c": "12",
    }


def test_marks_are_character_offsets() -> None:
    source = "é: 1\nb: x"
    root = compose(source)
    assert root is not None
    key, value = root.pairs[1]
    assert (key.start.line, key.start.column, key.start.index) == (1, 0, 5)
    assert source[value.start.index : value.end.index] == "x"


@pytest.mark.parametrize(
    ("source", "fragment", "line", "column"),
    [
        ("a: &x 1\nresult: *x\n", "anchors (`&x`)", 1, 4),
        ("a: 1\nresult: *x\n", "YAML aliases", 2, 9),
        ("result: !!python/object:os.system 1\n", "tags (`!!python/object:os.system`)", 1, 9),
        ("result: !custom {a: 1}\n", "tags (`!custom`)", 1, 9),
        ("result: 1\nresult: 2\n", "duplicate key `result` (first written at line 1)", 2, 1),
        ("a: 1\n---\nb: 2\n", "one YAML document", 2, 1),
        ("result: [1, 2\n", "invalid YAML", 2, 1),
        ("? [a]\n: 1\n", "mapping key must be a plain name", 1, 3),
    ],
)
def test_refused_yaml(source: str, fragment: str, line: int, column: int) -> None:
    with pytest.raises(YamlProblems) as info:
        compose(source)
    problem = info.value.problems[0]
    assert fragment in problem.message
    assert (problem.line, problem.column) == (line, column)


def test_billion_laughs_is_refused_before_expansion() -> None:
    source = 'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
    with pytest.raises(YamlProblems, match="anchors"):
        compose(source)


def test_depth_is_bounded_without_recursion() -> None:
    deep = "result: " + "[" * 5000 + "]" * 5000
    with pytest.raises(YamlProblems, match="nested more than 100 levels"):
        compose(deep)
    assert to_data(compose("a: " + "[" * 50 + "]" * 50)) is not None


def test_dump_quotes_every_ambiguous_string() -> None:
    data = {"a": "yes", "b": "1e5", "c": "10:30", "d": 5, "e": "x\ny", "f": "${a}", "g": "null"}
    text = dump_plan2(data)
    assert to_data(compose(text)) == data
    import yaml

    # and a YAML 1.1 reader (PyYAML's default) reads the same data
    assert yaml.safe_load(text) == data


def test_dump_header_is_a_comment() -> None:
    text = dump_plan2({"result": 1}, header="line one\nline two")
    assert text.startswith("# line one\n# line two\n")
    assert to_data(compose(text)) == {"result": 1}
