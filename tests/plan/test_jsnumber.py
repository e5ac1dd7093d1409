"""js_number_to_string behaves like JavaScript's String(number)."""

from __future__ import annotations

import json
import math
import random
import struct
import subprocess

import pytest

from dialectic.frontends.plan.jsnumber import js_number_to_string
from dialectic.values.jsnumber import JsRefusal

CASES = [
    (1.0, "1"),
    (1, "1"),
    (-1, "-1"),
    (0, "0"),
    (0.0, "0"),
    (-0.0, "0"),
    (0.1, "0.1"),
    (0.5, "0.5"),
    (-1.5, "-1.5"),
    (123.456, "123.456"),
    (100.0, "100"),
    (1e20, "100000000000000000000"),
    (1e21, "1e+21"),
    (1.5e21, "1.5e+21"),
    (123456789012345680000.0, "123456789012345680000"),
    (1e-6, "0.000001"),
    (1.5e-6, "0.0000015"),
    (1e-7, "1e-7"),
    (1.2345e-7, "1.2345e-7"),
    (5e-324, "5e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (0.1 + 0.2, "0.30000000000000004"),
    (2**53, "9007199254740992"),
    (2**54, "18014398509481984"),  # beyond 2**53, a double, and its text names it exactly
    (10**21, "1e+21"),
    (10**22, "1e+22"),
    (math.nan, "NaN"),
    (math.inf, "Infinity"),
    (-math.inf, "-Infinity"),
    (True, "true"),
    (False, "false"),
]


@pytest.mark.parametrize(("value", "expected"), CASES)
def test_known_values(value: float, expected: str) -> None:
    assert js_number_to_string(value) == expected


@pytest.mark.parametrize(
    ("value", "held"),
    [
        (2**53 + 1, "9007199254740992"),  # no double equals it
        (-(2**53 + 1), "-9007199254740992"),
        (2**60, "1152921504606847000"),  # a double, but written with other digits
        (2**63 - 1, "9223372036854776000"),
        (10**30, "1e+30"),
        (10**400, "Infinity"),
        (-(10**400), "-Infinity"),
    ],
)
def test_an_integer_node_would_write_as_another_number_is_refused(value: int, held: str) -> None:
    """SPEC 1.7: Node's text would name another integer than the data's, the exact digits would
    not be Node's answer: refused, saying what JavaScript holds (no str() of a huge int)."""
    with pytest.raises(JsRefusal) as err:
        js_number_to_string(value)
    assert f"which JavaScript holds as {held}" in err.value.message


def _random_doubles(count: int) -> list[float]:
    r = random.Random(7)
    out: list[float] = []
    while len(out) < count:
        x = struct.unpack("<d", struct.pack("<Q", r.getrandbits(64)))[0]
        if math.isfinite(x):
            out.append(x)
    out += [r.uniform(-1e6, 1e6) for _ in range(200)]
    out += [float(r.randrange(-(10**25), 10**25)) for _ in range(100)]
    out += [r.randrange(1, 10**6) / 10 ** r.randrange(0, 12) for _ in range(200)]
    return out


def test_round_trips() -> None:
    for x in _random_doubles(500):
        assert float(js_number_to_string(x)) == x


def test_against_node(node: str) -> None:
    """The same doubles through Node's String(): identical text."""
    values = _random_doubles(500)
    script = (
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{"
        "process.stdout.write(JSON.stringify(JSON.parse(s).map(x=>String(x))))})"
    )
    done = subprocess.run(
        [node, "-e", script],
        input=json.dumps(values),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    expected = json.loads(done.stdout)
    assert [js_number_to_string(v) for v in values] == expected
