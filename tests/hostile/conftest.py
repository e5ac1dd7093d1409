"""Shared helpers for the hostile-program tests: a runtime with the testing plugin and a checker
that a run ended cleanly (one of the three outcomes, no internal error, no traceback, JSON out)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import pytest

import dialectic.testing
from dialectic import Limits, Outcome, Runtime

STATUSES = {"success", "failure", "ambiguous"}
LEAKS = ("Traceback", "RecursionError", 'File "')


def make_runtime(**limits: Any) -> Runtime:
    return Runtime(
        plugins=[dialectic.testing],
        load_entry_points=False,
        limits=Limits(**limits) if limits else None,
    )


def check_outcome(out: Outcome) -> Outcome:
    """Fail the test unless ``out`` is a clean outcome a model could be shown."""
    assert isinstance(out, Outcome), type(out)
    assert out.status in STATUSES, out.status
    if out.status == "failure":
        assert out.error is not None
        assert out.error.code != "internal_error", out.message
        assert out.message, "a failure needs a message"
    if out.status == "ambiguous":
        assert out.suggestions, "an ambiguity needs suggestions"
    data = out.to_json()
    # The outcome must be real JSON: no NaN, no lone surrogate, encodable as UTF-8.
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    text.encode("utf-8")
    if out.status != "success":
        for leak in LEAKS:
            assert leak not in text, text[:2000]
    return out


@pytest.fixture(scope="session")
def rt() -> Runtime:
    return make_runtime()


@pytest.fixture(scope="session")
def make_rt() -> Callable[..., Runtime]:
    return make_runtime


@pytest.fixture(scope="session")
def clean(rt: Runtime) -> Callable[..., Outcome]:
    def run(
        program: Any,
        *,
        lang: str | None = None,
        context: Mapping[str, Any] | None = None,
        runtime: Runtime | None = None,
    ) -> Outcome:
        r = runtime if runtime is not None else rt
        try:
            out = r.run(program, lang=lang, context=context)
        except Exception as exc:  # pragma: no cover - the failure message is the point
            pytest.fail(f"Runtime.run raised {type(exc).__name__}: {str(exc)[:300]}")
        return check_outcome(out)

    return run


@pytest.fixture(scope="session")
def check() -> Callable[[Outcome], Outcome]:
    return check_outcome
