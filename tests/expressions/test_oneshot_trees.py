"""The call trees of `benchmarks/oneshot_changes.py`'s two programs, as written out: work on the
cost of reading change statements (:mod:`dialectic.frontends.plan.straight` and the passes
around it) keeps every tree as it is, so a change of these trees is a change of the language's
reading, to be made on purpose (and the benchmark's node counts, 66 and 60, with it; 74 and 60
before consecutive pushes were read as one)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from dialectic import Runtime
from dialectic.frontends import to_tree
from dialectic.tree.measure import size


def _benchmark() -> Any:
    """The benchmark's module, read from its file (``benchmarks`` is no package of the tests)."""
    path = Path(__file__).parents[2] / "benchmarks" / "oneshot_changes.py"
    spec = importlib.util.spec_from_file_location("oneshot_changes", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: the benchmark's two program texts (one copy: the benchmark's own)
_BENCH = _benchmark()
CHANGES: str = _BENCH.CHANGES
CONSTS: str = _BENCH.CONSTS


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": name}


def _add(name: str, value: Any) -> dict[str, Any]:
    return {"$op": ["+", _ref(name), value]}


def _above(name: str, limit: int, then: int) -> dict[str, Any]:
    return {"$if": [{"$op": [">", _ref(name), limit]}, then, _ref(name)]}


RESULT = [_ref("total"), _ref("xs"), _ref("s")]

CHANGES_TREE = {
    "$let": {
        "_total1": 0,
        "_total3": _add("_total1", 5),
        "_total5": _add("_total3", 6),
        "_xs1": [],
        # the three pushes, one push (:mod:`dialectic.frontends.plan.pushruns`): `total` read
        # where the first push is, after `total += 7`
        "xs": [{"$spread": _ref("_xs1")}, _ref("_total7"), 1, 2],
        "_total7": _add("_total5", 7),
        "_total9": _above("_total7", 3, 7),
        "total": _above("_total9", 30, 8),
        "_s1": "a",
        "s": _add("_s1", "b"),
    },
    "$return": RESULT,
}

CONSTS_TREE = {
    "$let": {
        "total1": 0,
        "total2": _add("total1", 5),
        "total3": _add("total2", 6),
        "total4": _add("total3", 7),
        "xs": [_ref("total4"), 1, 2],
        "total5": _above("total4", 3, 7),
        "total": _above("total5", 30, 8),
        "s": {"$op": ["+", "a", "b"]},
    },
    "$return": RESULT,
}


def test_the_benchmark_programs_keep_their_trees() -> None:
    for source, tree, nodes in ((CHANGES, CHANGES_TREE, 66), (CONSTS, CONSTS_TREE, 60)):
        made = to_tree(source, "plan").tree
        assert made == tree
        assert list(made["$let"]) == list(tree["$let"])  # (the aliases' order too)
        assert size(made) == nodes


def test_the_benchmark_programs_give_the_same_value() -> None:
    rt = Runtime(load_entry_points=False)
    for source in (CHANGES, CONSTS):
        out = rt.run(source, lang="plan")
        assert out.status == "success", out.message
        assert out.value == [7, [18, 1, 2], "ab"]
