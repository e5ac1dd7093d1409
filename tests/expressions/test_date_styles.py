"""``dateStyle`` and ``timeStyle`` in ``toLocaleDateString``, ``toLocaleTimeString``,
``toLocaleString`` and ``Intl.DateTimeFormat`` (SPEC 1.8, "Dates"): every combination, with
``hour12``, at instants round midnight and noon, gives Node's text, and what JavaScript throws
for (a style the method does not take, a field with a style, another style's name) is refused."""

from __future__ import annotations

import itertools

from .model_tools import judge, node_answers, runtime

STYLES = [None, "full", "long", "medium", "short"]
INSTANTS = ["2024-01-05T15:05:09Z", "2024-05-06T00:00:00Z", "1999-12-31T12:30:59Z"]
METHODS = ["toLocaleDateString", "toLocaleTimeString", "toLocaleString", "Intl"]


def _options(date: str | None, time: str | None, hour12: bool | None) -> str:
    parts = ["timeZone: 'UTC'"]
    parts += [f"dateStyle: '{date}'"] if date else []
    parts += [f"timeStyle: '{time}'"] if time else []
    parts += [f"hour12: {'true' if hour12 else 'false'}"] if hour12 is not None else []
    return "{" + ", ".join(parts) + "}"


def _programs() -> list[str]:
    out = []
    for method, date, time, hour12 in itertools.product(METHODS, STYLES, STYLES, [None, False]):
        if date is None and time is None:
            continue
        opts = _options(date, time, hour12)
        if method == "Intl":
            call = f"new Intl.DateTimeFormat('en-US', {opts}).format(new Date(t))"
        else:
            call = f"new Date(t).{method}('en-US', {opts})"
        out.append(f"return {INSTANTS!r}.map(t => {call});")
    return out


def test_every_style_gives_nodes_text_or_is_refused_where_node_throws() -> None:
    texts = _programs()
    rt = runtime()
    verdicts = [
        (judge(rt, text, text, answer), answer)
        for text, answer in zip(texts, node_answers(texts), strict=True)
    ]
    bad = [(v.name, v.detail) for v, _ in verdicts if v.kind in ("wrong", "crash")]
    assert not bad, bad[:3]
    unread = [(v.name, v.detail) for v, answer in verdicts if v.kind != "same" and "ok" in answer]
    assert not unread, unread[:3]
    assert sum(v.kind == "same" for v, _ in verdicts) >= 100


def test_a_field_with_a_style_and_an_unknown_style_are_refused() -> None:
    rt = runtime()
    for text, message in [
        (
            "return new Date(0).toLocaleDateString('en-US', {dateStyle: 'medium', year: "
            "'numeric'});",
            "takes no `year` with dateStyle or timeStyle",
        ),
        (
            "return new Date(0).toLocaleDateString('en-US', {dateStyle: 'huge'});",
            "dateStyle must be one of full, long, medium, short",
        ),
        (
            "return new Date(0).toLocaleTimeString('en-US', {dateStyle: 'short'});",
            "toLocaleTimeString() takes no `dateStyle`",
        ),
        (
            "return new Intl.DateTimeFormat('en-US', {timeStyle: 'short', timeZone: "
            "'Europe/Paris'}).format(new Date(0));",
            "in the time zone 'UTC' only",
        ),
    ]:
        out = rt.run(text, lang="plan")
        assert out.status == "failure" and out.error is not None, out.value
        assert message in (out.message or ""), out.message
        assert out.error.line == 1, out.message
