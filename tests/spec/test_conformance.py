"""Runs tests/spec/conformance.yaml through every front end (SPEC.md is the reference)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml

import dialectic.testing
from dialectic import DialecticError, Runtime

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "conformance.yaml").read_text(encoding="utf-8")
)
FRONT_ENDS = ("json", "plan", "plan2")


RUNTIME = Runtime(plugins=[dialectic.testing], load_entry_points=False)


@pytest.fixture(scope="module")
def rt() -> Runtime:
    return RUNTIME


def source_for(case: dict[str, Any], lang: str) -> str:
    if lang in case:
        return str(case[lang])
    tree = case["program"]
    if lang == "json":
        return orjson.dumps(tree).decode()
    # Dialect JSON's shorthands need the registry to read; the text notations are written from
    # the canonical tree (arguments bound by name) when the program compiles at all.
    try:
        tree = RUNTIME.compile(orjson.dumps(tree).decode(), lang="json")
    except DialecticError:
        pass
    if lang == "plan":
        from dialectic.frontends.plan import decompile

        return decompile(tree)
    from dialectic.tools.convert import tree_to_plan2

    return tree_to_plan2(tree)


@pytest.mark.parametrize("lang", FRONT_ENDS)
@pytest.mark.parametrize("case", CASES, ids=[c["title"] for c in CASES])
def test_case(rt: Runtime, case: dict[str, Any], lang: str) -> None:
    if lang not in case.get("only", FRONT_ENDS):
        pytest.skip(f"not expressible in {lang}")
    source = source_for(case, lang)
    outcome = rt.run(source, lang=lang, context=case.get("context"))
    got = outcome.to_json()
    where = f"{lang} program:\n{source}\noutcome: {got}"
    if "result" in case:
        assert outcome.status == "success", where
        assert got["value"] == case["result"], where
    elif "error" in case:
        assert outcome.status == "failure", where
        assert outcome.error is not None
        assert outcome.error.code == case["error"]["code"], where
        if "contains" in case["error"]:
            assert case["error"]["contains"] in (outcome.message or ""), where
    else:
        expected = case["ambiguous"]
        assert outcome.status == "ambiguous", where
        assert len(outcome.suggestions) == expected["suggestions"], where
        if "contains" in expected and lang == "json":
            assert expected["contains"] in (outcome.message or ""), where
        for s in outcome.suggestions:  # every suggestion is a runnable program
            again = rt.run(s.program, lang=lang, context=case.get("context"))
            assert again.status in ("success", "ambiguous"), (s.program, again.to_json())


def test_every_case_has_one_expectation() -> None:
    for case in CASES:
        assert sum(k in case for k in ("result", "error", "ambiguous")) == 1, case["title"]
