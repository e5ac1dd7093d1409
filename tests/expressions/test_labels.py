"""Labels (SPEC 10, "Loops"; :mod:`dialectic.frontends.plan.labels`): a labeled loop Plan
does not read as flags (:mod:`dialectic.frontends.plan.labelloops`) is refused, and the
refusal says how to write what ``break outer;`` or ``continue outer;`` does; the programs it
says to write give Node's answers, as the labeled loops it reads do."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # (a loop without braces inside: the labeled loop is not read as flags, labelloops.py)
        (
            "let found = null; outer: for (const row of [[1, 2], [3, 4]]) { for (const x of row) "
            "if (x > 2) { found = x; break outer; } } return found;",
            ["(the statement uses `break outer`)", "done = true; break;", "if (done) break;"],
        ),
        (
            "const out = []; outer: for (const a of [1, 2]) { for (const b of [1, 2]) "
            "if (b === 2) continue outer; out.push(a); } return out;",
            ["(the statement uses `continue outer`)", "if (skip) continue;", ".some("],
        ),
        (
            "for (const x of [1]) { inner: for (const y of [2]) { for (const z of [3]) "
            "break inner; } } return 1;",
            ["`break inner`", "write `break;` where it is directly in the labeled loop"],
        ),
        ("outer: { } return 1;", ["Plan has no labels", "remove the label"]),
    ],
)
def test_a_label_is_refused_with_what_to_write(text: str, words: list[str]) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "syntax_error", out.message
    for word in words:
        assert word in (out.message or ""), (word, out.message)


def test_the_labeled_loops_it_reads_give_what_node_gives() -> None:
    # (the loops of the refusals above, braced: read as flags, frontends/plan/labelloops.py)
    runs_as_in_node(
        [
            "let found = null; outer: for (const row of [[1, 2], [3, 4]]) { for (const x of row) "
            "{ if (x > 2) { found = x; break outer; } } } return found;",
            "const out = []; outer: for (const a of [1, 2]) { for (const b of [1, 2]) { "
            "if (b === 2) continue outer; out.push(b); } } return out;",
            "for (const x of [1]) { inner: for (const y of [2]) { break inner; } } return 1;",
        ],
        RT,
    )


def test_the_rewrites_it_says_give_what_node_gives() -> None:
    runs_as_in_node(
        [
            "let found = null; let done = false; for (const row of [[1, 2], [3, 4], [5]]) { "
            "for (const x of row) { if (x > 2) { found = x; done = true; break; } } "
            "if (done) break; } return found;",
            "const out = []; for (const a of [1, 2, 3]) { let skip = false; "
            "for (const b of [1, 2]) { if (a === 2 && b === 1) { skip = true; break; } } "
            "if (skip) continue; out.push(a); } return out;",
            "const out = []; for (const a of [1, 2, 3]) { "
            "if ([1, 2].some(b => a === 2 && b === 1)) continue; out.push(a); } return out;",
        ],
        RT,
    )


@pytest.mark.parametrize(
    "text",
    [
        "retuprice: 10'.replace(/\\d+/, '[$&] $$ [$`] [$\\']');",
        "outer: for (const a of [1]",
        "outer: (",
        "outer: [1, (2",
        "outer: for (const a of [1]) { break outer;",
    ],
)
def test_a_cut_labeled_statement_is_refused_cleanly(text: str) -> None:
    out = RT.run(text, lang="plan")
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "syntax_error", out.message
