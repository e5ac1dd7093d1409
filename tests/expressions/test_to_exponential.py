"""``x.toExponential(f)`` (SPEC 1.8, "Number methods"): the exact value's digits rounded, a
tie away from zero, as Node writes them, for random numbers and the edge cases; out of range
it is refused as JavaScript throws a RangeError."""

from __future__ import annotations

import json
import random
import shutil
import subprocess

from dialectic import Runtime

RT = Runtime(load_entry_points=False)
EDGES = [
    0, -0.0, 1, -1, 1.25, 1.35, 2.5, -0.5, 0.1, 0.3, 1 / 3, 123456, 0.000123, 1e21, 1e-7,
    5e-324, 1.7976931348623157e308, 189.84, 12345.6789, 9.995, 99.5, 2**53 + 2,
]  # fmt: skip


def _node(expressions: list[str]) -> list[str]:
    node = shutil.which("node")
    assert node is not None, "set-up installs Node.js"
    source = f"process.stdout.write(JSON.stringify([{','.join(expressions)}]));"
    done = subprocess.run([node], input=source, capture_output=True, text=True, check=True)
    out: list[str] = json.loads(done.stdout)
    return out


def test_the_digits_are_nodes() -> None:
    r = random.Random(7)
    xs: list[float] = [*EDGES]
    xs += [r.uniform(-1e6, 1e6) for _ in range(60)]
    xs += [round(r.uniform(0, 100), r.randint(0, 4)) for _ in range(60)]
    xs += [r.uniform(0, 1) * 10 ** r.randint(-30, 30) for _ in range(60)]
    expressions = [
        f"({x!r}).toExponential({'' if f is None else f})"
        for x in xs
        for f in (None, 0, 1, 2, 5, 20)
    ]
    for text, answer in zip(expressions, _node(expressions), strict=True):
        out = RT.run(f"return {text};", lang="plan")
        assert out.status == "success" and out.value == answer, (text, answer, out.message)


def test_a_number_of_digits_out_of_range_is_refused() -> None:
    for text in ["return (1.5).toExponential(101);", "return (1.5).toExponential(-1);"]:
        out = RT.run(text, lang="plan")
        assert out.status == "failure", out.value
        assert "toExponential() takes 0 to 100 digits" in (out.message or ""), out.message
