"""Plan2 -> call tree: structure, lifting, slot modes, templates, errors and repairs."""

from __future__ import annotations

from typing import Any

import pytest

from dialectic.frontends.base import SourceError
from dialectic.frontends.plan2 import parse_plan2


def tree(source: str, **options: Any) -> Any:
    return parse_plan2(source, **options).tree


def error(source: str, **options: Any) -> SourceError:
    with pytest.raises(SourceError) as info:
        parse_plan2(source, **options)
    assert info.value.lang == "plan2"
    return info.value


SEED_000 = """\
a:
  domainA:
    slot1: foo
  domainB:
    slot2: bar
result:
  domainC:
    slot3: ${a.domainA.field1}
    slot4: ${a.domainB[0].field2}
"""


def test_program_shape_and_domain_sets() -> None:
    t = tree(SEED_000)
    assert t["$return"] == {"$ref": "result"}
    assert t["$let"]["a"] == {
        "$object": {
            "domainA": {"domainA": {"slot1": "foo"}},
            "domainB": {"domainB": {"slot2": "bar"}},
        }
    }
    assert t["$let"]["result"] == {
        "$unwrap": {
            "domainC": {
                "slot3": {"$get": [{"$ref": "a"}, "domainA", "field1"]},
                "slot4": {"$get": [{"$ref": "a"}, "domainB", 0, "field2"]},
            }
        }
    }


def test_lift_off_keeps_the_domain_object() -> None:
    t = tree("result:\n  flights:\n    origin: SFO\n", lift=False)
    assert t["$let"]["result"] == {"$object": {"flights": {"flights": {"origin": "SFO"}}}}


def test_slot_modes() -> None:
    src = "result:\n  f:\n    a: x\n    b: [y]\n    c: [y, z]\n    d: 5\n"
    as_written = tree(src)["$let"]["result"]["$unwrap"]["f"]
    assert as_written == {"a": "x", "b": ["y"], "c": ["y", "z"], "d": 5}
    listed = tree(src, slots="list")["$let"]["result"]["$unwrap"]["f"]
    assert listed == {"a": ["x"], "b": ["y"], "c": ["y", "z"], "d": [5]}
    scalar = tree(src, slots="scalar")["$let"]["result"]["$unwrap"]["f"]
    assert scalar == {"a": "x", "b": "y", "c": ["y", "z"], "d": 5}
    with pytest.raises(ValueError, match="slots must be one of"):
        parse_plan2(src, slots="lists")  # type: ignore[arg-type]


def test_templates_keep_type_only_when_alone() -> None:
    src = (
        "result:\n  f:\n    a: ${1}\n    b: ' ${1}'\n    c: $${not} ${x}\n    d: plain text\n"
        "    e: 'a $ sign and }'\n    f: ${{k: 1}}x\n"
    )
    slots = tree(src)["$let"]["result"]["$unwrap"]["f"]
    assert slots["a"] == 1
    assert slots["b"] == {"$template": [" ", 1]}
    assert slots["c"] == {"$template": ["$", {"$ref": "not"}, " ", {"$ref": "x"}]}
    assert slots["d"] == "plain text"
    assert slots["e"] == "a $ sign and }"
    assert slots["f"] == {"$template": [{"$object": {"k": 1}}, "x"]}


def test_expressions_with_braces_and_strings() -> None:
    t = tree("result: ${{a: '}', b: [1, {c: 2}]}}\n")  # quoted automatically (lenient)
    assert t["$let"]["result"] == {"a": "}", "b": [1, {"$object": {"c": 2}}]}


def test_string_aliases_and_orphans() -> None:
    t = tree("alias2: hello, world\nresult: ${alias2}\n")
    assert t["$let"]["alias2"] == "hello, world"
    assert t["$let"]["result"] == {"$ref": "alias2"}


def test_domain_without_slots_and_positional() -> None:
    t = tree("a:\n  now:\nb:\n  max: [1, 2]\nc:\n  f: ${x}\nresult: ${[a, b, c]}\n")
    assert t["$let"]["a"] == {"$unwrap": {"now": {}}}
    assert t["$let"]["b"] == {"$unwrap": {"max": [1, 2]}}
    assert t["$let"]["c"] == {"$unwrap": {"f": [{"$ref": "x"}]}}


def test_nested_mappings_in_slots_are_objects() -> None:
    t = tree("result:\n  f:\n    where:\n      city: Paris\n      n: ${k}\n")
    assert t["$let"]["result"]["$unwrap"]["f"]["where"] == {
        "$object": {"city": "Paris", "n": {"$ref": "k"}}
    }


def test_keyword_named_alias_is_usable() -> None:
    t = tree("return:\n  f: {a: 1}\nresult: ${return.x} ${{return: 1}} ${y.return}\n")
    assert t["$let"]["result"] == {
        "$template": [
            {"$get": [{"$ref": "return"}, "x"]},
            " ",
            {"$object": {"return": 1}},
            " ",
            {"$get": [{"$ref": "y"}, "return"]},
        ]
    }


def test_spans_point_into_the_yaml() -> None:
    src = "result:\n  car:\n    pickup: 10/10/23 ${outbound.arrives}\n"
    result = parse_plan2(src)
    path = ("$let", "result", "$unwrap", "car", "pickup", "$template", 1)
    span = result.spans[path]
    assert (span.line, span.column) == (3, 24)
    assert src[span.start : span.end] == "outbound.arrives"
    slot = result.spans[("$let", "result", "$unwrap", "car", "pickup")]
    assert slot.line == 3


def test_missing_result_names_the_closest_key() -> None:
    err = error("reslt:\n  f: {a: 1}\n")
    assert "must define the `result` alias" in err.problems[0].message
    assert err.problems[0].hint is not None and "`reslt`" in err.problems[0].hint
    err = error("a: 1\n")
    assert "add `result:`" in (err.problems[0].hint or "")


def test_errors_carry_location_and_slot_path() -> None:
    src = "result:\n  car:\n    location: x\n    dropoff: 10/10/23 ${a..b}\n    pickup: ${c\n"
    err = error(src)
    messages = [(p.line, p.column, p.message) for p in err.problems]
    assert len(messages) == 2
    assert messages[0][:2] == (4, 27) and "in `result.car.dropoff`" in messages[0][2]
    assert messages[1][:2] == (5, 13) and "in `result.car.pickup`: unterminated" in messages[1][2]
    rendered = str(err)
    assert "2 syntax errors in the plan2 program" in rendered and "^" in rendered


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        ("", "empty"),
        ("- a\n- b\n", "mapping of aliases"),
        ("just text\n", "mapping of aliases"),
        ("result:\n", "has no value"),
        ("result: {}\n", "DomainSet is empty"),
        ("2a: 1\nresult: 1\n", "not an identifier"),
        ("result:\n  $f: {a: 1}\n", "not a domain name"),
        ("result:\n  f: {$a: 1}\n", "not a slot name"),
        ("result: ${}\n", "empty expression"),
    ],
)
def test_structural_errors(source: str, fragment: str) -> None:
    assert fragment in error(source).problems[0].message


def test_code_fence_is_stripped_with_a_warning() -> None:
    src = "Here is the plan:\n```yaml\nresult: ${1}\n```\nDone."
    result = parse_plan2(src)
    assert result.tree["$let"]["result"] == 1
    assert any("code fence" in w for w in result.warnings)
    assert result.spans[("$let", "result")].line == 3
    assert "code fence" in error(src, strict=True).problems[0].message


def test_unquoted_colon_inside_expression_is_repaired() -> None:
    result = parse_plan2("result: ${{ option1: jfk, option2: lga}}\n")
    assert result.tree["$let"]["result"] == {"option1": {"$ref": "jfk"}, "option2": {"$ref": "lga"}}
    assert any("quoted" in w for w in result.warnings)
    err = error("result: ${{ option1: jfk}}\n", strict=True)
    assert "YAML misreads this unquoted value" in err.problems[0].message
    assert "quote the value" in (err.problems[0].hint or "")
    # in a list YAML would silently read a mapping; and ` #` would start a comment
    listed = parse_plan2("result:\n  f:\n    a:\n      - ${{k: 1}}\n      - ${g('#x', ' #y')}\n")
    assert listed.tree["$let"]["result"]["$unwrap"]["f"]["a"] == [
        {"$object": {"k": 1}},
        {"g": ["#x", " #y"]},
    ]
    # block scalars are left alone
    block = parse_plan2("result: |\n  text ${{k: 1}} # not a comment\n")
    assert block.tree["$let"]["result"] == {
        "$template": ["text ", {"$object": {"k": 1}}, " # not a comment\n"]
    }
    assert not block.warnings


def test_a_quoted_value_over_several_lines_is_left_alone() -> None:
    """A quoted scalar that goes on over several lines (the converter writes one for a text
    with a line break) is the scalar's text: its lines are never repaired (a repair quoted its
    `${{k: 0}}` line, and the document no longer read)."""
    single = parse_plan2("result: '\n\n  ${{k: 0, m: 0}} '\n")
    assert single.tree["$let"]["result"] == {"$template": ["\n", {"k": 0, "m": 0}, " "]}
    assert not single.warnings
    double = parse_plan2('result: "a \\" ${{k: 0}}\n  ${{m: 1}}"\nother: ${{k: 1}}\n')
    assert double.tree["$let"]["result"] == {
        "$template": ['a " ', {"$object": {"k": 0}}, " ", {"$object": {"m": 1}}]
    }
    # a value after the quoted one is still repaired
    assert double.tree["$let"]["other"] == {"$object": {"k": 1}}
    assert any("line 3" in w for w in double.warnings)


def test_dash_without_space_list_is_repaired() -> None:
    src = "alias1:\n  domain1:\n    slot1:\n      -value1\n      -value2\nresult: ${alias1}\n"
    result = parse_plan2(src)
    assert result.tree["$let"]["alias1"]["$unwrap"]["domain1"]["slot1"] == ["value1", "value2"]
    assert any("`- value`" in w for w in result.warnings)
    assert "without a space" in error(src, strict=True).problems[0].message


def test_list_alias_is_read_as_an_array_in_lenient_mode() -> None:
    result = parse_plan2("result: [a, '${b}']\n")
    assert result.tree["$let"]["result"] == ["a", {"$ref": "b"}]
    assert result.warnings
    assert "not a list" in error("result: [a]\n", strict=True).problems[0].message


def test_depth_limit() -> None:
    assert "nested more than 5" in error("result: [[[[[[1]]]]]]\n", max_depth=5).problems[0].message
