"""A model's reply with prose around a fenced program: every notation takes the program from the
fenced block (with a warning), detection follows the block, and errors point into the block at
the reply's own lines and columns."""

from __future__ import annotations

import pytest

import dialectic.testing
from dialectic import Runtime
from dialectic.frontends import detect_lang
from dialectic.frontends.base import SourceError
from dialectic.frontends.fences import find_fence, keep_fenced
from dialectic.frontends.plan import parse_plan


@pytest.fixture
def rt() -> Runtime:
    return Runtime(plugins=[dialectic.testing], load_entry_points=False)


REPLIES = [
    (
        "Sure! Here is the plan:\n\n```javascript\na = upper('hi');\nreturn `${a}!`;\n```\n"
        "It shouts.",
        "plan",
        "HI!",
        3,
    ),
    ("Plan:\n```js\nreturn upper('x');\n```", "plan", "X", 2),  # `Plan:` is not YAML here
    ("Answer:\n```\nreturn upper('q');\n```\n", "plan", "Q", 2),  # no tag: judged by the block
    ('The program:\n```json\n{"upper": "x"}\n```\nDone.', "json", "X", 2),
    ("Here it is:\n~~~yaml\nresult:\n  upper:\n    text: y\n~~~\n", "plan2", "Y", 2),
]


@pytest.mark.parametrize(("reply", "lang", "value", "line"), REPLIES)
def test_the_program_is_taken_from_the_fenced_block(
    rt: Runtime, reply: str, lang: str, value: str, line: int
) -> None:
    assert detect_lang(reply) == lang
    out = rt.run(reply)
    assert out.status == "success", out.message
    assert out.value == value
    assert any(w.startswith(f"line {line}:") and "fence" in w for w in out.warnings)


def test_errors_point_into_the_block_at_the_replys_lines(rt: Runtime) -> None:
    out = rt.run("Here:\n```js\nreturn upper('x';\n```\nThanks")
    assert out.status == "failure"
    assert out.message is not None and out.message.startswith("line 3, column 17:")
    out = rt.run('JSON:\n```json\n{"upper": "x",}\n```', strict=True)  # strict: no fences
    assert out.message is not None and "markdown code fence" in out.message
    out = rt.run('JSON:\n```json\n{"upper": "x",}\n```')
    assert out.status == "success" and any(w.startswith("line 3, column 14:") for w in out.warnings)


def test_strict_json_takes_no_fence(rt: Runtime) -> None:
    for source in ['```json\n{"upper": "x"}\n```', 'Here:\n```json\n{"upper": "x"}\n```\nDone.']:
        out = rt.run(source, lang="json", strict=True)
        assert out.status == "failure" and out.error is not None
        assert out.error.code == "syntax_error" and "fence" in (out.message or "")
        assert rt.run(source, lang="json").value == "X"  # lenient: read, with a warning


def test_strict_plan_takes_no_repairs() -> None:
    with pytest.raises(SourceError):
        parse_plan("Here:\n```js\nreturn 1;\n```", strict=True)


def test_a_program_that_parses_as_written_is_left_alone() -> None:
    # fence lines inside a comment are program text, not a fence around it
    source = "/* notes\n```\nexample\n```\n*/\nreturn 1;"
    result = parse_plan(source)
    assert result.tree == {"$return": 1}
    assert result.warnings == []


def test_keep_fenced_keeps_positions() -> None:
    reply = "intro\r\n```js\r\nreturn 1;\r\n```\r\noutro"
    fence = find_fence(reply)
    assert fence is not None and (fence.tag, fence.open_line, fence.close_line) == ("js", 1, 3)
    kept = keep_fenced(reply, fence)
    assert len(kept) == len(reply)
    assert kept.split("\n")[2] == "return 1;\r"
    assert kept.replace(" ", "").replace("\r", "").replace("\n", "") == "return1;"


def test_an_unclosed_fence_runs_to_the_end(rt: Runtime) -> None:
    out = rt.run("My plan:\n```js\nreturn upper('z');")
    assert out.status == "success", out.message
    assert out.value == "Z"
