"""`dialectic run --trace`, `--timeline FILE.html` and `--journal FILE` (SPEC 18)."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dialectic.tools.cli import main
from dialectic.tools.timeline import LABEL, WIDTH, html_timeline, text_timeline

# three calls at once (sleeping 50, 100 and 150 ms), then one that needs the first
PROGRAM = """
a = sleepEcho({value: 'a', seconds: 0.05});
b = sleepEcho({value: 'b', seconds: 0.1});
c = sleepEcho({value: 'c', seconds: 0.15});
return [a, b, c, double(2)];
"""


def invoke(tmp_path: Path, *args: str) -> Any:
    path = tmp_path / "p.js"
    path.write_text(PROGRAM, encoding="utf-8")
    return CliRunner().invoke(
        main, ["run", str(path), "--no-entry-points", "--plugin", "dialectic.testing", *args]
    )


class Bars(HTMLParser):
    """The SVG's bars (``rect`` elements of class ``call``) and the page's other tags."""

    def __init__(self) -> None:
        super().__init__()
        self.bars: list[dict[str, str | None]] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        found = dict(attrs)
        if tag == "rect" and "call" in (found.get("class") or "").split():
            self.bars.append(found)


def test_trace_prints_the_timeline_after_the_outcome(tmp_path: Path) -> None:
    result = invoke(tmp_path, "--trace")
    assert result.exit_code == 0, result.output
    value_end = result.output.index("]")
    table = result.output[value_end:]
    assert "calls: 4" in table
    for name in ("sleepEcho at program.$let.a", "sleepEcho at program.$let.c", "double at"):
        assert name in table
    assert table.count(" done ") == 4


def test_timeline_file_has_one_bar_per_call(tmp_path: Path) -> None:
    page = tmp_path / "t.html"
    result = invoke(tmp_path, "--timeline", str(page), "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["value"] == ["a", "b", "c", 4]
    parser = Bars()
    parser.feed(page.read_text(encoding="utf-8"))
    assert {"html", "svg", "rect", "title"} <= parser.tags
    assert not parser.tags & {"script", "link", "img"}  # self-contained
    assert len(parser.bars) == 4
    bars = {str(b["data-path"]): b for b in parser.bars}
    xs = {p: float(str(b["x"])) for p, b in bars.items()}
    widths = {p: float(str(b["width"])) for p, b in bars.items()}
    for p in bars:
        assert LABEL <= xs[p] <= WIDTH and widths[p] > 0
        assert xs[p] + widths[p] <= WIDTH + 1
        assert bars[p]["data-status"] == "done"
    a, b, c = (f"program.$let.{k}" for k in "abc")
    # the three sleeps overlap (each starts before the others end), longest last to end
    assert max(xs[a], xs[b], xs[c]) < min(xs[a] + widths[a], xs[b] + widths[b])
    assert widths[a] < widths[c] and widths[b] < widths[c]


@pytest.mark.parametrize("name", ["run.sqlite", "run.jsonl"])
def test_journal_option_replays_a_second_run(tmp_path: Path, name: str) -> None:
    journal = tmp_path / name
    first = invoke(tmp_path, "--journal", str(journal), "--format", "json", "--trace")
    assert first.exit_code == 0, first.output
    again = invoke(tmp_path, "--journal", str(journal), "--format", "json", "--trace")
    assert again.exit_code == 0, again.output
    data = json.loads(again.stdout)
    assert data["value"] == ["a", "b", "c", 4]
    assert sum(1 for c in data["calls"] if c.get("replayed")) == 4
    bad = invoke(tmp_path, "--journal", str(tmp_path))  # a directory
    assert bad.exit_code == 2


def test_renderers_on_hand_made_logs() -> None:
    calls: list[dict[str, Any]] = [
        {"function": "f", "path": "program.a", "status": "done", "start": 0.0, "duration": 0.5},
        {
            "function": "g",
            "path": "program.b",
            "status": "in_flight",
            "start": 0.25,
            "duration": 0.75,
        },
        {
            "function": "h",
            "path": "program.c",
            "status": "not_started",
            "start": None,
            "duration": None,
        },
    ]
    parser = Bars()
    parser.feed(html_timeline(calls, title="<run & co>"))
    assert [b["data-status"] for b in parser.bars] == ["done", "in_flight"]
    text = text_timeline(calls, omitted=2)
    assert "calls: 3 (and 2 more not listed)" in text
    assert "not_started" in text and "~" in text
    assert text_timeline([]) == "calls: none"
