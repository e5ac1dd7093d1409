"""Inputs the fuzzer (fuzzer.py) found, each minimized: every one ends in a clean outcome, in
time linear in its size."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from dialectic import Outcome, Runtime

Clean = Callable[..., Outcome]
CONTEXT = {"user": {"name": "Ada"}}


def test_a_reply_with_long_prose_after_its_fence_lexes_in_linear_time(clean: Clean) -> None:
    # The prose around a fence is blanked to spaces before the block is lexed; the fast lexer
    # tried each position of trailing whitespace to its end: 48 KB of prose took 3.8 s.
    prose = "'" + "\\u0041" * 8000 + "' It adds."
    started = time.process_time()
    out = clean("Here is the plan:\n```js\nreturn add(2, 3);\n```\n" + prose, lang="plan")
    assert out.status == "success" and out.value == 5
    assert any("fence" in w for w in out.warnings)
    out = clean("return add(2, 3);" + " " * 200_000, lang="plan")
    assert out.status == "success" and out.value == 5
    assert time.process_time() - started < 10  # was minutes for the 200 KB of spaces


def test_a_context_with_a_key_that_is_not_text_names_the_unknown_identifier(clean: Clean) -> None:
    # was: TypeError from joining the known names (the int key among them) escaped run()
    out = clean("return usr;", lang="plan", context={1: 2, "user": 3})
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "unknown_identifier"
    assert "`user`" in (out.message or "")
    assert clean("return user;", lang="plan", context={1: 2, "user": 3}).value == 3


@pytest.mark.parametrize(
    "args",
    [
        ["run", "-"],
        ["compile", "-"],
        ["convert", "--to", "plan2", "-"],
        ["convert", "--to", "plan", "FILE"],
    ],
)
def test_bytes_that_are_not_utf8_are_reported_at_their_line_and_column(
    args: list[str], tmp_path: Path
) -> None:
    # was: a UnicodeDecodeError traceback from `convert` (a file or stdin), and from `run -`
    # and `compile -` whenever stdin decodes strictly (PYTHONIOENCODING=utf-8)
    from click.testing import CliRunner

    from dialectic.tools.cli import main

    data = b"return 1;\n\xff\xfe"
    path = tmp_path / "bad.js"
    path.write_bytes(data)
    args = [str(path) if a == "FILE" else a for a in args]
    result = CliRunner().invoke(main, args, input=data)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "line 2, column 1" in result.output and "surrogate" in result.output
    assert "Traceback" not in result.output


def test_a_long_optional_chain_is_refused_by_the_parser_at_the_limit(clean: Clean) -> None:
    # Each `?.` nests the chain once more, but only calls were counted while parsing: 20,000
    # of them built a tree as deep and a source map with a path per level (quadratic: 6 GB,
    # MemoryError) before the depth check refused it.
    started = time.process_time()
    out = clean("return up" + "x?." * 20_000 + "per(user);", lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None
    assert "nested more than 100 levels" in (out.message or ""), out.message
    assert out.error.column is not None and out.error.column < 1000
    assert time.process_time() - started < 10
    assert clean("return x" + "?.a" * 49 + ";", lang="plan", context={"x": None}).value is None


def test_a_second_fenced_block_that_does_not_run_is_named_in_the_warning(clean: Clean) -> None:
    # was: only "ignored the text around it": the second block vanished without a word
    reply = "First:\n```js\nreturn add(1, 2);\n```\nIt prints:\n```\n3 (the sum)\n```\n"
    out = clean(reply)
    assert out.status == "success" and out.value == 3
    assert any("fenced block at line 6 (only the first runs)" in w for w in out.warnings)
    # two programs: neither runs (tests/core/test_several_fences.py)
    reply = "First:\n```js\nreturn add(1, 2);\n```\nOr better:\n```js\nreturn add(3, 4);\n```\n"
    out = clean(reply)
    assert out.status == "failure" and out.error is not None
    assert len(out.error.details["readings"]) == 2


def test_a_folder_walk_reads_only_regular_files(tmp_path: Path) -> None:
    # was: a FIFO named *.js blocked `dialectic analyze FOLDER` forever, and a dangling
    # symbolic link raised FileNotFoundError (a traceback)
    import os

    from dialectic.tools.analysis.corpus import iter_path

    (tmp_path / "a.js").write_text("return 1;", encoding="utf-8")
    os.mkfifo(tmp_path / "fifo.js")
    (tmp_path / "dangling.js").symlink_to(tmp_path / "nowhere.js")
    (tmp_path / "folder.json").mkdir()
    assert [Path(p.id).name for p in iter_path(tmp_path)] == ["a.js"]


def test_a_batch_folder_with_a_fifo_gives_a_record_and_ends(tmp_path: Path) -> None:
    # was: `dialectic batch FOLDER` blocked forever opening the FIFO
    import os

    from dialectic.batch.jsonl import folder_items

    (tmp_path / "a.js").write_text("return 1;", encoding="utf-8")
    os.mkfifo(tmp_path / "fifo.js")
    items = list(folder_items(tmp_path))
    assert [i.id for i in items] == ["a.js", "fifo.js"]
    assert items[1].problem is not None and "not a regular file" in items[1].problem.message


@pytest.mark.parametrize(
    "program",
    [
        "const s = 'x'.repeat(900000); return big.map(v => s.replaceAll('x', 'y').length).length;",
        "return big.map(v => 'x'.repeat(900000).replaceAll('x', 'y').length).length;",
        "return big.some(v => 'x'.repeat(900000).replaceAll('x', 'y').length < 0);",
        "return objs.filter(o => o.s.repeat(900000).replaceAll('x', 'y').length < 0).length;",
        "return big.reduce((acc, v) => acc + 'x'.repeat(900000).replaceAll('x', 'y').length, 0);",
        "return big.slice(0, 20000).toSorted((a, b) => 'x'.repeat(900000 + a - a)"
        ".replaceAll('x', 'y').length - 'x'.repeat(b - b).length).length;",
    ],
)
def test_the_deadline_stops_a_loop_of_costly_elements(
    program: str, make_rt: Callable[..., Runtime], check: Callable[[Outcome], Outcome]
) -> None:
    # was: checked only when the run ended: 100,000 elements of 1 ms each ran 40-340 s past a
    # 2 s deadline (the step budget counts elements, not what each one costs)
    rt = make_rt(deadline=0.5)
    big = list(range(100_000))
    context = {"big": big, "objs": [{"s": "x"} for _ in big]}
    started = time.process_time()
    out = check(rt.run(program, lang="plan", context=context))
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "limit_exceeded", out.message
    # (or the steps: a text method counts a step per 256 characters it reads or makes)
    stopped_by = out.error.details.get("limit")
    assert stopped_by == "max_steps" or "deadline of 0.5 s" in (out.message or ""), out.message
    assert out.error.line == 1 and out.error.column is not None and out.error.column > 1
    assert time.process_time() - started < 20  # (near 0.5 s; was minutes)
