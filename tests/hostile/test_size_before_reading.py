"""A program larger than `max_program_bytes` is refused before any of it is read: no lexer, no
fence or shape test runs over it (a megabyte of hostile text costs its length's measure, not
its lexing). As text or as bytes (a `bytes` program was measured nowhere before: a runtime with
`max_program_bytes=100` ran a 500-byte one), through a runtime or through `to_tree` given the
runtime's limits."""

from __future__ import annotations

from typing import Any

import pytest

from dialectic import Limits, Runtime
from dialectic.frontends import to_tree
from dialectic.outcome.errors import LimitExceeded

SMALL = Limits(max_program_bytes=100)
#: 70 characters, 130 bytes in UTF-8: over 100 bytes, under 100 characters
ACCENTS = "return '" + "é" * 60 + "';"


@pytest.fixture
def no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any use of the Plan lexer fails the test."""

    def refuse(*_: Any) -> Any:
        raise AssertionError("the text was lexed")

    monkeypatch.setattr("dialectic.frontends.plan.reading.lex", refuse)


def _forms(text: str) -> list[Any]:
    data = text.encode()
    return [text, data, bytearray(data), memoryview(data)]


@pytest.mark.usefixtures("no_reading")
@pytest.mark.parametrize("form", range(4), ids=["str", "bytes", "bytearray", "memoryview"])
def test_a_program_over_the_limit_is_refused_unread(form: int) -> None:
    rt = Runtime(load_entry_points=False, limits=SMALL)
    for text in (ACCENTS, "return '" + "x" * 500 + "';", "const a = [" + "1," * 5_000 + "1];"):
        program = _forms(text)[form]
        out = rt.run(program, lang="plan")
        assert out.status == "failure" and out.error is not None, out.value
        assert out.error.code == "limit_exceeded", out.message
        assert (out.error.details or {}).get("limit") == "max_program_bytes"
        assert "larger than 100 bytes" in (out.message or "")
        with pytest.raises(LimitExceeded, match="larger than 100 bytes"):
            to_tree(program, "plan", limits=SMALL)


@pytest.mark.usefixtures("no_reading")
def test_a_megabyte_of_hostile_text_is_refused_unread() -> None:
    rt = Runtime(load_entry_points=False)
    text = "return [" + "[1, {a: `${x}`}]," * 100_000 + "];"
    assert len(text) > rt.limits.max_program_bytes
    for program in _forms(text):
        out = rt.run(program, lang="plan")
        assert out.error is not None and out.error.details is not None
        assert out.error.details.get("limit") == "max_program_bytes"


@pytest.mark.parametrize("form", range(4), ids=["str", "bytes", "bytearray", "memoryview"])
def test_a_program_at_the_limit_is_read(form: int) -> None:
    text = "return '" + "é" * 45 + "';"  # (100 bytes)
    assert len(text.encode()) == 100
    rt = Runtime(load_entry_points=False, limits=SMALL)
    out = rt.run(_forms(text)[form], lang="plan")
    assert out.status == "success", out.message
    assert out.value == "é" * 45
    assert to_tree(_forms(text)[form], "plan", limits=SMALL).tree == {"$return": "é" * 45}


def test_to_tree_without_limits_reads_as_before() -> None:
    # (the defaults bound the front ends themselves: Plan refuses a text over a megabyte)
    assert to_tree(ACCENTS, "plan").tree == {"$return": "é" * 60}
    assert to_tree(ACCENTS.encode(), "plan").tree == {"$return": "é" * 60}
