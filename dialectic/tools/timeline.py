"""A run's calls over time (SPEC 18): as text (``dialectic run --trace``) and as a
self-contained HTML page with an inline SVG picture (``--timeline FILE.html``): one row per
call, a bar from its start to its end coloured by status, so the concurrency can be seen.
Both read an outcome's call log (``Outcome.calls``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path
from typing import Any, TypeVar

import click

COLORS = {
    "done": "#2e7d32",
    "failed": "#c62828",
    "in_flight": "#ef6c00",
    "not_started": "#9e9e9e",
}

WIDTH = 900  # the SVG's width in pixels; the bars get what the labels leave
LABEL = 320
ROW = 22
BAR = 14
TEXT_BAR = 40  # characters of the text timeline's bar column

F = TypeVar("F", bound=Callable[..., Any])


def _window(calls: Sequence[dict[str, Any]]) -> tuple[float, float]:
    """The first call's start and the time from it to the last call's end (at least 1 µs)."""
    starts = [c["start"] for c in calls if c.get("start") is not None]
    if not starts:
        return 0.0, 1e-6
    first = min(starts)
    end = max(c["start"] + (c.get("duration") or 0.0) for c in calls if c.get("start") is not None)
    return first, max(end - first, 1e-6)


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.1f} ms"


def _printable(value: Any) -> str:
    """A name or path for a terminal on one line: a program's keys may hold a newline (a forged
    line) or an escape sequence (``ESC]0;...``), written escaped (``\\x1b``)."""
    text = str(value)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def text_timeline(calls: Sequence[dict[str, Any]], omitted: int = 0) -> str:
    """The calls as a table with a bar per call: start, duration, status, function, path."""
    if not calls:
        return "calls: none"
    first, total = _window(calls)
    lines = [f"calls: {len(calls)}" + (f" (and {omitted} more not listed)" if omitted else "")]
    lines.append(f"{'start':>10} {'duration':>10}  {'status':<11} {'':<{TEXT_BAR + 2}}  call")
    for c in calls:
        start, dur = c.get("start"), c.get("duration")
        bar = " " * TEXT_BAR
        if start is not None:
            a = min(int((start - first) / total * TEXT_BAR), TEXT_BAR - 1)
            b = max(a + 1, min(int((start - first + (dur or 0.0)) / total * TEXT_BAR), TEXT_BAR))
            mark = "#" if c["status"] == "done" else "x" if c["status"] == "failed" else "~"
            bar = " " * a + mark * (b - a) + " " * (TEXT_BAR - b)
        lines.append(
            f"{_ms(start):>10} {_ms(dur):>10}  {_printable(c['status']):<11} |{bar}|  "
            f"{_printable(c['function'])} at {_printable(c['path'])}"
        )
    return "\n".join(lines)


def html_timeline(calls: Sequence[dict[str, Any]], title: str = "dialectic run") -> str:
    """A self-contained HTML page: an SVG with one row per call and, for each call that
    started, a ``rect`` (class ``call``) from its start to its end; no external assets."""
    first, total = _window(calls)
    scale = (WIDTH - LABEL - 10) / total
    height = ROW * (len(calls) + 2)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="monospace" font-size="11">'
    ]
    for k in range(5):  # the time axis
        x = LABEL + (WIDTH - LABEL - 10) * k / 4
        parts.append(
            f'<line x1="{x:.1f}" y1="{ROW - 6}" x2="{x:.1f}" y2="{height}" stroke="#ddd"/>'
            f'<text x="{x:.1f}" y="{ROW - 8}" text-anchor="middle">'
            f"{escape(_ms(first + total * k / 4))}</text>"
        )
    for row, c in enumerate(calls, start=1):
        y = ROW * row + (ROW - BAR) / 2
        status = str(c["status"])
        label = f"{c['function']} {c['path']}"
        parts.append(f'<text x="4" y="{y + BAR - 3:.1f}">{escape(label[:48])}</text>')
        if c.get("start") is None:
            continue
        x = LABEL + (c["start"] - first) * scale
        w = max((c.get("duration") or 0.0) * scale, 1.0)
        tip = f"{label}: {status}, start {_ms(c['start'])}, {_ms(c.get('duration'))}"
        parts.append(
            f'<rect class="call {escape(status)}" x="{x:.2f}" y="{y:.1f}" width="{w:.2f}" '
            f'height="{BAR}" fill="{COLORS.get(status, "#555")}" '
            f'data-function="{escape(str(c["function"]))}" data-path="{escape(str(c["path"]))}" '
            f'data-status="{escape(status)}"><title>{escape(tip)}</title></rect>'
        )
    parts.append("</svg>")
    legend = " ".join(
        f'<span style="color:{color}">&#9632; {name}</span>' for name, color in COLORS.items()
    )
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title></head>\n<body>\n<h1>{escape(title)}</h1>\n"
        f"<p>{len(calls)} calls over {escape(_ms(total))}. {legend}</p>\n"
        + "".join(parts)
        + "\n</body></html>\n"
    )


# -- the CLI's options -------------------------------------------------------------------------
def observe_options(f: F) -> F:
    """``--trace``, ``--timeline FILE.html`` and ``--journal FILE`` for ``dialectic run``."""
    f = click.option(
        "--journal",
        type=click.Path(dir_okay=False),
        help="A journal (SQLite; JSON Lines if FILE ends in .jsonl): calls that completed in "
        "an earlier run of the same program with it are replayed, not repeated (SPEC 18).",
    )(f)
    f = click.option(
        "--timeline",
        type=click.Path(dir_okay=False),
        help="Write the calls over time as an HTML page (SVG bars).",
    )(f)
    f = click.option("--trace", is_flag=True, help="Print the call timeline after the outcome.")(f)
    return f


def open_journal(path: str | None) -> Any:
    if path is None:
        return None
    from dialectic.run.journal import JsonlJournal, SqliteJournal

    try:
        return JsonlJournal(path) if path.endswith(".jsonl") else SqliteJournal(path)
    except Exception as exc:
        raise click.BadParameter(f"cannot open it: {exc}", param_hint="--journal") from None


def show_observed(outcome: Any, trace: bool, timeline: str | None, fmt: str) -> None:
    """After the outcome: the text timeline (stdout; stderr with ``--format json``), and the
    HTML timeline file."""
    if trace:
        click.echo(text_timeline(outcome.calls, outcome.calls_omitted), err=fmt == "json")
    if timeline:
        try:
            Path(timeline).write_text(html_timeline(outcome.calls), encoding="utf-8")
        except OSError as exc:
            click.echo(f"error: cannot write the timeline: {exc}", err=True)
