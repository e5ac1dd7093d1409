"""`if` statements outside loops whose branches only change names, read straight (SPEC 10,
"Changes outside loops"; :mod:`dialectic.frontends.plan.straightif`): Node's values, the same
trees as the one-item loop they were read as before, the same refusals, a condition's call run
once, and no loop in the tree."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dialectic import FunctionDescription, Limits, Runtime
from dialectic.frontends import to_tree
from dialectic.frontends.plan import straightif, straightread
from dialectic.tree.measure import size

from .program_oracle import runs_as_in_node, runtime
from .straight_if_programs import IF_PROGRAMS, random_if_programs

RT: Runtime = runtime()


def test_the_programs_give_nodes_values() -> None:
    assert len(IF_PROGRAMS) >= 60
    runs_as_in_node(IF_PROGRAMS, RT)


def test_random_if_programs_give_nodes_values_and_the_loops_trees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = random_if_programs(2026, 150)
    runs_as_in_node(texts, RT)
    straight = _trees(texts)
    monkeypatch.setattr(straightread, "straight_if", lambda *args: False)
    assert straight == _trees(texts)


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """What each call of :func:`.straightif.straight_if` answered."""
    answers: list[bool] = []
    real = straightif.straight_if

    def counted(*args: Any) -> bool:
        answers.append(real(*args))
        return answers[-1]

    monkeypatch.setattr(straightread, "straight_if", counted)
    return answers


@pytest.fixture
def through_the_loop(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every `if` read as the one-item loop (what dialectic did before)."""
    monkeypatch.setattr(straightread, "straight_if", lambda *args: False)
    yield


def _trees(texts: list[str]) -> list[Any]:
    out = []
    for text in texts:
        result = to_tree(text, "plan")
        out.append((result.tree, dict(result.spans.items()), result.warnings))
    return out


def test_each_simple_if_is_read_straight(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = _reads(monkeypatch)
    for text in IF_PROGRAMS:
        answers.clear()
        to_tree(text, "plan")
        assert answers and all(answers), (text, answers)


def test_the_trees_are_the_one_item_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    straight = _trees(IF_PROGRAMS)
    monkeypatch.setattr(straightread, "straight_if", lambda *args: False)
    assert straight == _trees(IF_PROGRAMS)


OTHER_SHAPES = [  # left to the one-item loop: a call run for its effect, a loop, a `switch`...
    "let x = 0; if (x === 0) { await echo(1); x = 1; } return x;",
    "let x = 0; if (x === 0) { for (const v of [1, 2]) x += v; } return x;",
    "let x = 0; if (x === 0) { { x = 1; } } return x;",
    "let x = 0; switch (x) { case 0: x = 5; break; } return x;",
]

LOCALS = [  # read straight, written as the loop's trees (its own names are the loop's)
    "let x = 0; if (x === 0) { const y = 2; x = y; } return x;",
    "let x = 0; if (x === 0) { let y = 2; x = y * 2; } else { const y = 'b'; x = y; } return x;",
    "let x = 0; if (x === 0) { x = {a: 1}; } return x;",
    "const xs = []; if (xs.length === 0) { xs.push({k: [1, 2]}); } return xs;",
]


def test_other_shapes_keep_the_loop_and_nodes_values(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = _reads(monkeypatch)
    runs_as_in_node(OTHER_SHAPES, RT)
    assert answers == [False, False, False]  # (a `switch` is no `if`)
    answers.clear()
    runs_as_in_node(LOCALS, RT)
    assert answers == [True] * len(LOCALS)
    straight = _trees(LOCALS)
    monkeypatch.setattr(straightread, "straight_if", lambda *args: False)
    assert straight == _trees(LOCALS)


REFUSED = [
    ("const x = 1; if (x) x = 2; return x;", "`x` is a `const`"),
    ("const x = 1; if (x) { x += 2; } return x;", "`x` is a `const`"),
    ("let x = 1; if (x) { x = 2; } else { y = 3; } return x;", "`y` is changed"),
    ("const xs = []; const a = xs; if (a) xs.push(1); return a;", "`xs` is read before"),
    ("const xs = []; if (true) xs.push(xs); return xs;", "reads `xs` whole"),
    ("const xs = []; if (xs) { xs.push(1); } return xs;", "reads `xs` whole"),
    ("let x = 1; if (x) x **= 2; return x;", "`**=`"),
    ("let x = 1; if (x) x = NaN; return x;", "NaN"),
    ("let x = 1; if (x) { x = 2 } return x;", ""),
]


@pytest.mark.parametrize(("text", "message"), REFUSED)
def test_refusals_stay_those_of_the_loop(
    text: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = RT.run(text, lang="plan", strict=True)
    monkeypatch.setattr(straightread, "straight_if", lambda *args: False)
    before = RT.run(text, lang="plan", strict=True)
    assert (out.status, out.message, out.value) == (before.status, before.message, before.value)
    if message:
        assert out.status == "failure", out.value
        assert message in (out.message or ""), out.message
        assert "Traceback" not in (out.message or "")


def test_a_condition_calls_its_function_once() -> None:
    calls: list[Any] = []

    def probe(value: Any) -> Any:
        calls.append(value)
        return value

    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("probe", "probe", probe, {"value": "any"}, "any"))
    text = (
        "let x = 0; let y = 'a';\n"
        "if (await probe(0)) { x = 1; } else if (await probe(2)) { x = 2; y += x; } "
        "else { x = 3; }\n"
        "if (await probe('')) y = 'never';\n"
        "return [x, y];"
    )
    out = rt.run(text, lang="plan")
    assert out.status == "success", out.message
    assert out.value == [2, "a2"]
    assert sorted(calls, key=str) == sorted([0, 2, ""], key=str)


def test_a_simple_if_has_no_loop_in_its_tree() -> None:
    changes = "let t = 5; if (t > 3) t = 7; if (t > 30) { t = 8; } return t;"
    consts = "const t1 = 5; const t2 = t1 > 3 ? 7 : t1; const t = t2 > 30 ? 8 : t2; return t;"
    tree, twin = to_tree(changes, "plan").tree, to_tree(consts, "plan").tree
    assert '"map"' not in str(tree).replace("'", '"'), tree
    assert "$do" not in str(tree)
    assert size(tree) <= 1.2 * size(twin), (size(tree), size(twin))
    assert RT.run(changes, lang="plan").value == RT.run(consts, lang="plan").value == 7
    # an `else` keeps a hidden boolean per branch, still no loop
    other = to_tree("let t = 5; if (t > 3) t = 7; else t += 1; return t;", "plan").tree
    assert '"map"' not in str(other).replace("'", '"'), other


def test_deeply_nested_ifs_are_left_to_the_loop_without_recursion(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = _reads(monkeypatch)
    text = "let x = 0; const a = 1; " + "if (a) " * 40 + "x = 1; return x;"
    out = RT.run(text, lang="plan")
    assert answers == [False]
    assert "Traceback" not in (out.message or "")
    if out.status == "success":
        assert out.value == 1


def test_many_ifs_read_in_linear_time() -> None:
    # the statement's shape is walked once per statement: 4x the statements, about 4x the nodes
    def program(n: int) -> str:
        return (
            "let t = 0; const k = 3;\n" + "if (k > 1) { t += 1; } else t = 0;\n" * n + "return t;"
        )

    small, big = (to_tree(program(n), "plan").tree for n in (250, 1000))
    assert size(big) <= 4.2 * size(small)
    rt = runtime()
    rt.limits = Limits(max_nodes=400_000)
    out = rt.run(program(1000), lang="plan")
    assert out.status == "success", out.message
    assert out.value == 1000
