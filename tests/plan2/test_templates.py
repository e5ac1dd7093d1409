"""Plan2 templates read `$${x}` as JavaScript does (a `$`, then the value of x) and `\\${` as a
literal `${` (SPEC 11, Templates)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dialectic.testing
from dialectic import Runtime
from dialectic.frontends import to_tree
from dialectic.frontends.plan2 import escape_text, parse_plan2, split_template
from dialectic.frontends.plan2.templates import ExprPart
from dialectic.tools.convert import convert

RT = Runtime(plugins=[dialectic.testing], load_entry_points=False)


def result(source: str) -> Any:
    return parse_plan2(source).tree["$let"]["result"]


def test_dollar_before_an_expression_is_a_dollar_then_the_value() -> None:
    assert split_template("$${x}") == ["$", ExprPart("x", 3)]
    assert result("result: $${x}\n") == {"$template": ["$", {"$ref": "x"}]}
    assert result("result: costs $$${x}!\n") == {"$template": ["costs $$", {"$ref": "x"}, "!"]}
    out = RT.run("price: ${5}\nresult: $${price}\n", lang="plan2")
    assert (out.status, out.value) == ("success", "$5")


def test_plan_and_plan2_read_the_same_template_the_same_way() -> None:
    plan = to_tree("price = 5;\nreturn `$${price} and \\${price}`;", "plan").tree
    plan2 = to_tree("price: ${5}\nresult: $${price} and \\${price}\n", "plan2").tree
    assert plan["$return"] == {"$template": ["$", {"$ref": "price"}, " and ${price}"]}
    assert plan2["$let"]["result"] == plan["$return"]


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("\\${x}", ["${x}"]),
        ("a \\${x} b", ["a ${x} b"]),
        ("\\\\${x}", ["\\${x}"]),  # a backslash right before `${` always escapes it
        ("\\$${x}", ["\\$", ExprPart("x", 4)]),
        ("${x}\\${y}", [ExprPart("x", 2), "${y}"]),
        ("C:\\dir ${x}", ["C:\\dir ", ExprPart("x", 9)]),  # other backslashes are text
        ("$ {x} $x $", ["$ {x} $x $"]),
    ],
)
def test_escapes(text: str, parts: list[Any]) -> None:
    assert split_template(text) == parts


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab$\\{} `")), max_size=12))
def test_escaped_text_reads_back_as_itself(text: str) -> None:
    assert split_template(escape_text(text)) == ([text] if text else [])


@pytest.mark.parametrize(
    "plan",
    [
        "x = 'v';\nreturn echo(`$${x}`);",
        "x = 'v';\nreturn echo(`\\\\${x}`);",  # a backslash, then the value
        "x = 'v';\nreturn echo(`a\\${x}$`);",
        "x = 'v';\nreturn echo(`$$${x}$`);",
    ],
)
def test_plan_templates_convert_to_plan2_and_run_the_same(plan: str) -> None:
    expected = RT.run(plan, lang="plan")
    assert expected.status == "success", expected.message
    plan2 = convert(plan, "plan", "plan2")
    out = RT.run(plan2, lang="plan2")
    assert (out.status, out.value) == ("success", expected.value), plan2


def test_unterminated_expression_hint_names_the_escape() -> None:
    out = RT.run("result: a ${x\n", lang="plan2")
    assert out.status == "failure" and out.error is not None
    assert "\\${" in (out.error.hint or "")
