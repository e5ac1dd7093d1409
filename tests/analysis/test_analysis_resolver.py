"""Corpus analysis runs on the resolver's output: the same names, cycles and checks as a run."""

from __future__ import annotations

from typing import Any

import dialectic.testing
from dialectic import Runtime
from dialectic.tools.analysis import PlanRecord, analyze_tree


def _chain(n: int) -> dict[str, Any]:
    bindings: dict[str, Any] = {"a0": {"f": [0]}}
    for i in range(1, n + 1):
        bindings[f"a{i}"] = {"f": [{"$ref": f"a{i - 1}"}]}
    return {"$let": bindings, "$return": {"$ref": f"a{n}"}}


def test_a_long_alias_chain_is_analysed() -> None:
    r = analyze_tree(_chain(1500), PlanRecord("chain", "json"))
    assert r.status == "ok", r.error
    assert (r.depth, r.width, r.reachable_calls) == (1501, 1, 1501)


def test_the_cycle_message_is_the_one_a_run_gives() -> None:
    cyc = {
        "$let": {"a": {"echo": [{"$ref": "b"}]}, "b": {"echo": [{"$ref": "a"}]}},
        "$return": {"$ref": "a"},
    }
    record = analyze_tree(cyc, PlanRecord("c", "json"))
    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    outcome = rt.run(cyc)
    assert outcome.error is not None
    assert record.error_code == outcome.error.code == "cycle"
    assert record.error is not None and record.error in (outcome.message or "")


def test_forbidden_names_are_refused_as_a_run_refuses_them() -> None:
    tree = {"f": [{"$get": [{"$ref": "x"}, "__class__"]}]}
    record = analyze_tree(tree, PlanRecord("d", "json"))
    assert (record.status, record.error_code) == ("compile_error", "forbidden_member")


def test_unused_aliases_and_identifiers_follow_reachability() -> None:
    tree = {
        "$let": {"a": {"f": [{"$ref": "x"}]}, "b": {"g": [{"$ref": "y"}]}},
        "$return": {"h": [{"$ref": "a"}, {"$ref": "a"}]},
    }
    r = analyze_tree(tree, PlanRecord("u", "json"))
    assert r.unused_aliases == 1
    assert r.identifiers == {"x": 1}
    assert (r.depth, r.reachable_calls) == (2, 2)
