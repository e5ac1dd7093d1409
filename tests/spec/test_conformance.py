"""Runs tests/spec/conformance.yaml through every front end (SPEC.md is the reference).

Every case carries its program written by hand in each notation (`json`, `plan`, `plan2`); those
texts are what `test_case` runs, in strict mode (a case marked `lenient` holds what models write
around and inside a program: strict mode must refuse it, lenient mode repairs it with
warnings). `test_derived_text` also checks that the project's own decompiler (Plan) and
converter (Plan2), given the case's JSON, write programs that run to the same outcome; it is a
check of those tools, not the source of the cases.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml

import dialectic.testing
from dialectic import DialecticError, Outcome, Runtime
from dialectic import compile as compile_text
from dialectic.frontends import detect_lang
from dialectic.frontends.plan import decompile
from dialectic.tools.convert import tree_to_plan2

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "conformance.yaml").read_text(encoding="utf-8")
)
LANGS = ("json", "plan", "plan2")
EXPECTATIONS = ("result", "error", "ambiguous")
CASE_KEYS = {"title", *LANGS, "inexpressible", "context", "mode", "warning", "xfail", "lenient"}
RUNTIME = Runtime(plugins=[dialectic.testing], load_entry_points=False)


def _params(langs: tuple[str, ...]) -> Iterator[Any]:
    for case in CASES:
        marks = []
        if case.get("xfail"):
            marks.append(pytest.mark.xfail(strict=True, reason=case["xfail"]))
        for lang in langs:
            yield pytest.param(case, lang, id=f"{case['title']}-{lang}", marks=marks)


def _expectation(case: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """The case's expectation in the form `then` entries use: one key of EXPECTATIONS (a
    `warning` given per notation is the one of ``lang``)."""
    expect = {k: case[k] for k in (*EXPECTATIONS, "mode", "warning") if k in case}
    if isinstance(expect.get("warning"), dict):
        expect["warning"] = expect["warning"][lang]
    return expect


def _is_json(text: str) -> bool:
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return True


def _assert_in_notation(program: Any, lang: str, source: str) -> None:
    """A suggestion is a whole program in the notation of the program it answers."""
    assert isinstance(program, str), f"a {lang} suggestion should be text: {program!r}"
    if lang == "json":
        assert _is_json(program), f"not JSON: {program}"
        return
    assert not _is_json(program), f"a {lang} program got a JSON suggestion: {program}"
    compile_text(program, lang=lang, strict=True)  # raises SourceError if it is not strict
    assert detect_lang(program) == lang, f"{program!r} does not read as {lang}"
    if lang == "plan":  # Plan suggestions replace the call's span: comments survive
        for line in source.splitlines():
            if line.strip().startswith("//"):
                assert line in program, f"comment {line!r} lost in {program!r}"


def check(
    outcome: Outcome,
    expect: Mapping[str, Any],
    lang: str,
    source: str,
    context: Mapping[str, Any] | None,
    *,
    strict: bool = True,
) -> None:
    got = outcome.to_json()
    where = f"{lang} program:\n{source}\noutcome: {got}"
    warnings = got.get("warnings", [])
    if strict and "warning" in expect:
        assert any(expect["warning"] in w for w in warnings), where
    elif strict:  # hand-written programs need no repairs and raise no notes
        assert warnings == [], where
    if "result" in expect:
        assert outcome.status == "success", where
        assert got["value"] == expect["result"], where
        assert got["mode"] == expect.get("mode", "return"), where
        return
    if "error" in expect:
        assert outcome.status == "failure", where
        assert outcome.error is not None
        assert outcome.error.code == expect["error"]["code"], where
        if "contains" in expect["error"]:
            assert expect["error"]["contains"] in (outcome.message or ""), where
        return
    ambiguous = expect["ambiguous"]
    assert outcome.status == "ambiguous", where
    assert len(outcome.suggestions) == ambiguous["suggestions"], where
    if "contains" in ambiguous:
        assert ambiguous["contains"] in (outcome.message or ""), where
    if "descriptions" in ambiguous:
        assert [s.description for s in outcome.suggestions] == ambiguous["descriptions"], where
    then = ambiguous.get("then")
    if then is not None:
        assert len(then) == len(outcome.suggestions), "one `then` per suggestion"
    for i, suggestion in enumerate(outcome.suggestions):
        _assert_in_notation(suggestion.program, lang, source)
        again = RUNTIME.run(suggestion.program, lang=lang, context=context, strict=strict)
        if then is not None:
            check(again, then[i], lang, suggestion.program, context, strict=strict)
        else:  # at least runnable: an answer, or the next question
            assert again.status in ("success", "ambiguous"), (suggestion.program, again.to_json())


@pytest.mark.parametrize(("case", "lang"), list(_params(LANGS)))
def test_case(case: dict[str, Any], lang: str) -> None:
    source = case[lang]
    if source is None:
        pytest.skip(f"not expressible in {lang}: {case['inexpressible'][lang]}")
    if case.get("lenient"):  # a text that needs repairs: strict mode refuses it
        refused = RUNTIME.run(source, lang=lang, context=case.get("context"), strict=True)
        assert refused.status == "failure", (source, refused.to_json())
    strict = not case.get("lenient")
    outcome = RUNTIME.run(source, lang=lang, context=case.get("context"), strict=strict)
    expect = _expectation(case, lang)
    if not strict and "warning" in expect:  # the repair is reported
        assert any(expect["warning"] in w for w in outcome.warnings), outcome.to_json()
    check(outcome, expect, lang, source, case.get("context"), strict=strict)


def _derived(case: Mapping[str, Any], lang: str) -> str:
    """The case's JSON written in `lang` by the project's decompiler or converter. Dialect
    JSON's shorthands need the registry to read, so the canonical tree is used when the program
    compiles at all (arguments bound by name), else the tree as written."""
    try:
        tree = RUNTIME.compile(case["json"], lang="json")
    except DialecticError:
        tree = compile_text(case["json"], lang="json")
    return decompile(tree) if lang == "plan" else tree_to_plan2(tree)


@pytest.mark.parametrize(("case", "lang"), list(_params(("plan", "plan2"))))
def test_derived_text(case: dict[str, Any], lang: str) -> None:
    if case[lang] is None:
        pytest.skip(f"not expressible in {lang}: {case['inexpressible'][lang]}")
    source = _derived(case, lang)
    outcome = RUNTIME.run(source, lang=lang, context=case.get("context"))
    check(outcome, _expectation(case, lang), lang, source, case.get("context"), strict=False)


def test_cases_are_well_formed() -> None:
    titles = [case["title"] for case in CASES]
    assert len(titles) == len(set(titles)), "titles are unique"
    for case in CASES:
        title = case["title"]
        assert sum(k in case for k in EXPECTATIONS) == 1, title
        assert set(case) <= CASE_KEYS | set(EXPECTATIONS), (title, set(case) - CASE_KEYS)
        assert all(lang in case for lang in LANGS), f"{title}: write it in every notation"
        assert isinstance(case["json"], str), title
        assert case.get("lenient") or _is_json(case["json"]), title
        missing = {lang for lang in LANGS if case[lang] is None}
        reasons = case.get("inexpressible", {})
        assert set(reasons) == missing, f"{title}: say why exactly the null notations are null"
        assert all(isinstance(r, str) and r for r in reasons.values()), title
        assert all(isinstance(case[lang], str) for lang in set(LANGS) - missing), title
    # (Plan2 has no loops, no try, no functions of the program: two cases of recursive ones;
    # no expression statements: a change statement run though nothing reads the name)
    assert sum(case["plan2"] is None for case in CASES) <= 11
