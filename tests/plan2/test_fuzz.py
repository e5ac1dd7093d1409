"""Arbitrary input never crashes the Plan2 front end: a tree or a SourceError, nothing else."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dialectic.frontends.base import SourceError
from dialectic.frontends.plan2 import parse_plan2
from dialectic.limits import Limits
from dialectic.tree.parse import parse_tree

PIECES = st.sampled_from(
    [
        "result:",
        "a:",
        "return:",
        "  f:",
        "    x:",
        " ",
        "\n",
        "  ",
        "- ",
        "${",
        "}",
        "$${",
        "${a}",
        "${a.b}",
        "${[a, 1]}",
        "${{k: 1}}",
        ": ",
        "#",
        "'",
        '"',
        "|",
        ">",
        "&x",
        "*x",
        "!!str",
        "!t",
        "{",
        "[",
        "]",
        ",",
        "`",
        "-v",
        "```",
        "---",
        "1",
        "true",
        "null",
        "é",
        "\t",
        "\\",
        "${f(",
        ")",
        "x",
    ]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=30).map("".join), st.booleans(), st.booleans())
def test_any_text_gives_a_tree_or_a_source_error(text: str, lift: bool, strict: bool) -> None:
    try:
        result = parse_plan2(text, lift=lift, strict=strict)
    except SourceError as exc:
        assert exc.problems
        assert all(p.line >= 1 and p.column >= 1 for p in exc.problems)
        assert str(exc)
        return
    parse_tree(result.tree, Limits())  # a structurally valid call tree
    assert "result" in result.tree["$let"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_random_unicode(text: str) -> None:
    try:
        parse_plan2(text)
    except SourceError:
        pass


VALUE_PIECES = st.sampled_from(
    [
        "${a}",
        "${b.c}",
        "${[a, 1]}",
        "${{k: 1}}",
        "${f(1)}",
        "$${x}",
        "text",
        " ",
        ": ",
        " #",
        "'",
        '"',
        "{",
        "}",
        "[",
        "]",
        "$",
        "5",
        "-",
        "é",
        ",",
        "${`t ${a}`}",
        "${'}'}",
    ]
)


@st.composite
def documents(draw: st.DrawFn) -> str:
    lines: list[str] = []
    names = draw(st.lists(st.sampled_from(["a", "b", "return", "x_1"]), unique=True, max_size=3))
    for name in [*names, "result"]:
        if draw(st.booleans()):
            lines.append(f"{name}: " + draw(st.lists(VALUE_PIECES, max_size=5).map("".join)))
            continue
        lines.append(f"{name}:")
        for domain in draw(
            st.lists(st.sampled_from(["f", "g", "h"]), min_size=1, max_size=2, unique=True)
        ):
            lines.append(f"  {domain}:")
            for slot in draw(st.lists(st.sampled_from(["s", "t"]), max_size=2, unique=True)):
                value = draw(st.lists(VALUE_PIECES, max_size=5).map("".join))
                if draw(st.booleans()):
                    lines.append(f"    {slot}: {value}")
                else:
                    lines.append(f"    {slot}:\n      - {value}\n      - x")
    return "\n".join(lines) + "\n"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.booleans(), st.sampled_from(["as-written", "list", "scalar"]))
def test_structured_documents(text: str, lift: bool, slots: str) -> None:
    try:
        result = parse_plan2(text, lift=lift, slots=slots)  # type: ignore[arg-type]
    except SourceError as exc:
        assert exc.problems and str(exc)
        return
    parse_tree(result.tree, Limits())
    for path, span in result.spans.items():
        assert 0 <= span.start <= span.end <= len(text) + 1, path
