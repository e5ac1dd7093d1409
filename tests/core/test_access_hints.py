"""Reading a member of a list or of null says what to write instead (issue 12)."""

from __future__ import annotations

import dialectic.testing
from dialectic import Runtime

RT = Runtime(plugins=[dialectic.testing], load_entry_points=False)


def test_a_field_of_a_list_hints_at_an_item() -> None:
    out = RT.run("return xs.price;", lang="plan", context={"xs": [{"price": 1}, {"price": 2}]})
    assert out.error is not None and out.error.code == "member_not_found"
    assert "add `[0]` before `.price`" in (out.message or "")
    assert ".map(x => x.price)" in (out.message or "")


def test_a_lifted_plan2_list_hints_at_an_item() -> None:
    program = "a:\n  echo:\n    value: [{k: 1}, {k: 2}]\nresult: ${a.k}\n"
    out = RT.run(program, lang="plan2")
    assert out.error is not None and "add `[0]` before `.k`" in (out.message or "")


def test_a_member_of_null_hints_at_optional_access() -> None:
    out = RT.run("return x.k;", lang="plan", context={"x": None})
    assert out.error is not None and "x?.key" in (out.message or "")
