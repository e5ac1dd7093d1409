"""Differential test against Node.js (SPEC 1.7): random operator trees are written as
JavaScript by the decompiler and evaluated by Node; dialectic gives the same value or refuses
with `expression_error`. Never a different answer."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dialectic.testing
from dialectic import Runtime
from dialectic.frontends.plan import decompile_expression
from dialectic.values.jsops import BINARY, LOGICAL

RT = Runtime(plugins=[dialectic.testing], load_entry_points=False)

NODE_SCRIPT = r"""
const exprs = JSON.parse(require('fs').readFileSync(0, 'utf8'));
function enc(v) {
  if (v === undefined) return {"$undefined": true};
  if (typeof v === 'number' && !Number.isFinite(v)) return {"$nonfinite": String(v)};
  if (typeof v === 'number' && Object.is(v, -0)) return 0;
  if (Array.isArray(v)) return v.map(x => x === undefined ? null : enc(x));
  return v;
}
const out = exprs.map(src => {
  try { return {"ok": enc((new Function('return ' + src))())}; }
  catch (e) { return {"error": String(e)}; }
});
process.stdout.write(JSON.stringify(out));
"""

NUMBERS = st.one_of(
    st.integers(min_value=-1000, max_value=1000),
    st.sampled_from([0, -1, 2**53, 2**53 - 1, -(2**53), 10**21, 7, 3]),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.sampled_from([0.1, 0.2, 1.5, -0.0, 1e21, 1.5e-7, 1e300, 5e-324, 2.5]),
)
TEXTS = st.sampled_from(
    ["", "a", "B", "10", " 3 ", "0x1f", "1e3", "abc", "é", "😀", "\uffff", "-0"]
)
LEAVES = st.one_of(NUMBERS, TEXTS, st.booleans(), st.none(), st.just({"$undefined": None}))
UNARY = st.sampled_from(["-", "+", "!", "typeof"])
#: (`in` and `instanceof` take an object and a constructor's name on their right, which these
#: random operands rarely are: tests/expressions/test_small_operators.py compares them)
BINARIES = st.sampled_from(
    ["+", *(op for op in BINARY if op not in ("in", "instanceof")), *LOGICAL]
)


def _trees(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.tuples(UNARY, children).map(lambda t: {"$op": [t[0], t[1]]}),
        st.tuples(BINARIES, children, children).map(lambda t: {"$op": list(t)}),
        st.tuples(children, children, children).map(lambda t: {"$if": list(t)}),
        st.lists(children, max_size=2),
    )


TREES = st.recursive(LEAVES, _trees, max_leaves=6)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        # JSON numbers are doubles in JavaScript: Node prints a whole double as an integer
        return float(a) == float(b) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _node(sources: list[str]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is not installed; the tests need it (README, Quickstart)")
    done = subprocess.run(
        [node, "-e", NODE_SCRIPT],
        input=json.dumps(sources),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def _check(trees: list[Any], rt: Runtime | None = None) -> int:
    """Each tree through dialectic (as the tree and as Plan text) and through Node: the same
    value, or `expression_error`; returns how many dialectic answered (the rest it refused)."""
    rt = rt or RT
    sources = [decompile_expression(t) for t in trees]
    answers = _node(sources)
    agreed = 0
    for tree, source, answer in zip(trees, sources, answers, strict=True):
        out = rt.run({"$return": tree})
        # the same program as Plan text: the same value when both succeed, and Node's value
        # or a refusal either way (Plan reads an integer beyond 2**53 as JavaScript's double)
        text = rt.run(f"return {source};", lang="plan", strict=True)
        if text.status == "success" and out.status == "success":
            assert _same(text.value, out.value), (source, text.value, out.value)
        for run in (out, text):
            if run.status != "success":
                assert run.error is not None and _refused(run.error.code, answer), (
                    f"{source}: {run.message}"
                )
        if text.status == "success" and "ok" in answer:
            node_value = answer["ok"]
            if isinstance(node_value, dict) and "$undefined" in node_value:
                node_value = None
            assert _same(text.value, node_value), (source, text.value, node_value)
        if out.status == "success":
            assert "ok" in answer, f"{source}: dialectic gave {out.value!r}, Node threw"
            value = answer["ok"]
            if isinstance(value, dict) and "$undefined" in value:
                value = None  # a result of undefined is null (SPEC 1.2)
            assert _same(out.value, value), f"{source}: dialectic {out.value!r}, Node {value!r}"
            agreed += 1
    return agreed


def _refused(code: str, answer: dict[str, Any]) -> bool:
    """Whether a refusal with ``code`` is right where Node gave ``answer``: an expression's
    trap, or an infinity Node has in its value, which cannot leave the run (SPEC 5)."""
    return code == "expression_error" or (code == "invalid_value" and "$nonfinite" in str(answer))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TREES, min_size=20, max_size=40))
def test_operator_trees_agree_with_node(trees: list[Any]) -> None:
    _check(trees)


def test_a_fixed_corpus_mostly_agrees_rather_than_refuses() -> None:
    trees: list[Any] = [
        {"$op": [o, a, b]}
        for o in ["+", "-", "*", "/", "%", "<", "===", "==", "&&", "||", "??"]
        for a in [1, 2.5, "a", "", None, True]
        for b in [0, 3, "b", None]
    ]
    agreed = _check(trees)
    assert agreed > len(trees) // 2  # refusing everything would pass the property
