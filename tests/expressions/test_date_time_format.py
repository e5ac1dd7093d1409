"""``new Intl.DateTimeFormat(locale, options).format(d)`` (SPEC 1.8, "Dates";
:mod:`dialectic.values.jsdateformat`): the texts of ``toLocaleDateString`` (of
``toLocaleTimeString`` when the options name only time fields), as Node's ICU writes them in
English and UTC (``dateStyle`` and ``timeStyle``: test_date_styles.py); the rest (another
locale, a field with a style, ``formatToParts``, a text to format)
refused with what to write."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

D = "new Date('2024-03-05T15:04:05Z')"
PROGRAMS = [
    "return new Intl.DateTimeFormat('en-US', {year: 'numeric', month: 'long'})"
    ".format(new Date('2024-01-05T00:00:00Z'));",
    "const fmt = new Intl.DateTimeFormat('en-US', {month: 'short', day: 'numeric', "
    "year: 'numeric'}); return ['2024-01-05', '2024-12-25T23:00:00Z']"
    ".map(s => fmt.format(new Date(s)));",
    f"return new Intl.DateTimeFormat().format({D});",
    f"return new Intl.DateTimeFormat('en-US').format({D});",
    f"return new Intl.DateTimeFormat('en', {{hour: 'numeric', minute: '2-digit'}}).format({D});",
    "return new Intl.DateTimeFormat('en-US', {hour: 'numeric', minute: '2-digit', "
    "timeZone: 'UTC'}).format(0);",
    f"return Intl.DateTimeFormat('en-US', {{weekday: 'long'}}).format({D});",
    "return new Intl.DateTimeFormat('en-US', {weekday: 'short', month: 'short', day: "
    f"'numeric', hour: 'numeric', minute: '2-digit'}}).format({D});",
    "const fmt = new Intl.DateTimeFormat('en-US', {year: 'numeric', month: '2-digit', "
    f"day: '2-digit'}}); return fmt.format({D});",
    "const fmt = new Intl.DateTimeFormat('en-US', {hour: '2-digit', minute: '2-digit', "
    f"hour12: false}}); return fmt.format({D});",
    # as models write it
    "const events = await echo([{title: 'Launch', at: '2024-07-04T16:00:00Z'}]);\n"
    "const fmt = new Intl.DateTimeFormat('en-US', {month: 'long', day: 'numeric', "
    "year: 'numeric'});\nreturn events.map(e => `${e.title}: ${fmt.format(new Date(e.at))}`);",
]


def test_formats_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            f"return new Intl.DateTimeFormat('en-US', {{dateStyle: 'medium', hour: 'numeric'}})"
            f".format({D});",
            "Intl.DateTimeFormat takes no `hour` with dateStyle or timeStyle",
        ),
        (
            f"return new Intl.DateTimeFormat('de-DE').format({D});",
            "Intl.DateTimeFormat writes dates in English only",
        ),
        (
            f"return new Intl.DateTimeFormat('en-US').formatToParts({D});",
            "`formatToParts()` is not supported",
        ),
        (
            "return new Intl.DateTimeFormat('en-US').format('2024-01-01');",
            "takes a Date (or its time in ms), not string",
        ),
        ("return new Intl.DateTimeFormat('en-US').format();", "fmt.format(new Date())"),
        (
            "const f = new Intl.DateTimeFormat('en-US', {month: 'long'}); return f;",
            "cannot leave the program",
        ),
        (
            "return new Intl.DateTimeFormat('en-US', {timeZone: 'America/New_York'}).format(0);",
            "time zone 'UTC' only",
        ),
    ],
)
def test_refused_with_what_to_write(text: str, message: str) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure", out.value
    assert out.error is not None and out.error.code == "expression_error", out.message
    assert message in (out.message or ""), out.message
    assert out.error.hint


def test_plan2_binds_a_format_to_an_alias() -> None:
    text = (
        "fmt: ${new Intl.DateTimeFormat('en-US', {month: 'long', year: 'numeric'})}\n"
        "result: ${fmt.format(new Date('2024-01-05'))}\n"
    )
    out = RT.run(text, lang="plan2")
    assert out.value == "January 2024", out.message
