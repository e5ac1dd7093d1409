"""@function derives parameters from a signature; describe's schema accepts real programs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import jsonschema
import pydantic
import pytest
import yaml

import dialectic.testing
from dialectic import Optional, RunContext, Runtime, function


@function
def book(
    city: str,
    nights: int = 1,
    kind: Literal["hotel", "hostel"] = "hotel",
    guests: Annotated[int, pydantic.Field(ge=1, le=8)] = 1,
    tags: list[str] | None = None,
    *,
    ctx: RunContext,
) -> dict[str, Any]:
    """Book a stay.

    Args:
        city: where to stay
        nights: how many nights
    """
    return {
        "city": city,
        "nights": nights,
        "kind": kind,
        "guests": guests,
        "tags": tags,
        "user": ctx.get("user"),
    }


def test_schema_from_signature_and_docstring() -> None:
    assert book.name == "book"
    assert book.description == "Book a stay."
    assert book.parameters == {
        "city": "string",
        "nights": Optional("integer"),
        "kind": Optional("string"),
        "guests": Optional("integer"),
        "tags": Optional("array"),
    }
    assert book.parameter_descriptions == {"city": "where to stay", "nights": "how many nights"}
    assert book.pass_context and book.validator is not None
    assert book.returns == "object"


def test_decorated_function_runs_with_coercion_and_pydantic_validation() -> None:
    rt = Runtime(load_entry_points=False)
    rt.register(book)
    out = rt.run(
        {"book": {"city": "Oslo", "nights": "3", "tags": "quiet, view"}}, context={"user": "ada"}
    )
    assert out.value == {
        "city": "Oslo",
        "nights": 3,
        "kind": "hotel",
        "guests": 1,
        "tags": ["quiet", "view"],
        "user": "ada",
    }
    bad = rt.run({"book": {"city": "Oslo", "guests": 12}})
    assert bad.status == "failure"
    assert "guests" in (bad.message or "") and "less than or equal to 8" in (bad.message or "")
    assert rt.run({"book": {"city": "Oslo", "kind": "tent"}}).status == "failure"
    assert book("Rome", ctx=RunContext({}, [], None))["city"] == "Rome"  # still callable


def test_decorator_rejects_varargs() -> None:
    with pytest.raises(TypeError, match=r"\*args"):
        function(lambda *xs: xs)


ROOT = Path(__file__).resolve().parents[1]


def test_every_conformance_program_matches_the_json_schema() -> None:
    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    schema = rt.describe("json-schema")
    validator = jsonschema.Draft202012Validator(schema)
    cases = yaml.safe_load((ROOT / "spec" / "conformance.yaml").read_text(encoding="utf-8"))
    checked = 0
    for case in cases:
        try:
            canonical = rt.compile(case["json"], lang="json")
        except dialectic.DialecticError:
            continue
        errors = list(validator.iter_errors(canonical))
        assert not errors, (case["title"], canonical, errors[0].message)
        checked += 1
    assert checked > 40
    assert list(validator.iter_errors({"greet": {"nmae": "x"}}))
