"""Real data: the NESTFUL sample's maths rows, converted to Dialect JSON and executed.

Each row is a sequence of calls whose later arguments refer to earlier results
(`"$var_1.result$"`). It becomes `{"$let": {"var_1": {"multiply": [350, 2]}, ...}, "$return":
{"$ref": "var_N"}}`: aliases form the data-flow graph, independent calls are evaluated
independently, and the answer is the last call's value (the corpus README's conventions).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import orjson
import pytest

from dialectic import FunctionDescription, Runtime

CORPUS = (
    Path(__file__).resolve().parents[3] / "shared" / "corpora" / "nestful" / "nestful_last360.json"
)
REF = re.compile(r"^\$(var_?\d+)\.[A-Za-z_0-9]+\$$")

N = "number"
MATHS: dict[str, tuple[Any, dict[str, str]]] = {
    "add": (lambda a, b: a + b, {"a": N, "b": N}),
    "subtract": (lambda a, b: a - b, {"a": N, "b": N}),
    "multiply": (lambda a, b: a * b, {"a": N, "b": N}),
    "divide": (lambda a, b: a / b, {"a": N, "b": N}),
    "power": (lambda a, b: a**b, {"a": N, "b": N}),
    "sqrt": (lambda x: math.isqrt(int(x)), {"x": N}),  # integer square root, as the reference
    "log": (lambda x, base=math.e: int(math.log(x, base)), {"x": N, "base": N}),
    "gcd": (lambda a, b: math.gcd(int(a), int(b)), {"a": N, "b": N}),
    "lcm": (lambda a, b: math.lcm(int(a), int(b)), {"a": N, "b": N}),
    "negate": (lambda x: -x, {"x": N}),
    "inverse": (lambda x: 1 / x, {"x": N}),
    "floor": (lambda x: math.floor(x), {"x": N}),
    "factorial": (lambda n: math.factorial(int(n)), {"n": N}),
    "square_area": (lambda s: s * s, {"s": N}),
    "square_perimeter": (lambda s: 4 * s, {"s": N}),
    "rectangle_area": (lambda a, b: a * b, {"a": N, "b": N}),
    "speed": (lambda d, t: d / t, {"d": N, "t": N}),
}


def runtime() -> Runtime:
    rt = Runtime(load_entry_points=False, builtins=False)
    rt.register(
        *(
            FunctionDescription(name, name, fn, params, "number")
            for name, (fn, params) in MATHS.items()
        )
    )
    return rt


def to_program(calls: list[dict[str, Any]]) -> dict[str, Any]:
    bindings: dict[str, Any] = {}
    last = ""
    for call in calls:
        args = []
        for value in call["arguments"].values():
            m = REF.match(value) if isinstance(value, str) else None
            args.append({"$ref": m.group(1)} if m else value)
        last = call["label"].lstrip("$")
        bindings[last] = {call["name"]: args}
    return {"$let": bindings, "$return": {"$ref": last}}


def matches(value: Any, gold: str) -> bool:
    try:
        expected = float(gold)
    except ValueError:
        return str(value) == gold
    if not isinstance(value, int | float):
        return False
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    return round(float(value), decimals) == round(expected, decimals)


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared NESTFUL corpus is not beside the repo")
def test_nestful_maths_rows_reproduce_the_gold_answers() -> None:
    rows = orjson.loads(CORPUS.read_bytes())
    rt = runtime()
    ran = reproduced = 0
    failures = []
    for row in rows:
        calls = orjson.loads(row["output"])
        if not all(c["name"] in MATHS for c in calls):
            continue
        ran += 1
        out = rt.run(to_program(calls))
        if out.status == "success" and matches(out.value, str(row["gold_answer"])):
            reproduced += 1
        else:
            failures.append((row["sample_id"], out.status, out.message, row["gold_answer"]))
            # a row that does not reproduce is a clean outcome, never a crash
            assert out.status in ("success", "failure"), out.to_json()
            assert out.error is None or out.error.code != "internal_error", out.to_json()
    assert ran >= 265, ran
    assert reproduced >= ran - 2, failures[:5]
