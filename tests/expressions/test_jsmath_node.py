"""The transcendental ``Math`` functions (``log``, ``exp``, ``sin``, ``atan2``, ``pow``, ...)
give every bit Node gives: dialectic.values.fdlibm against Node's ``Math`` on a few thousand
inputs per function (fixed seed, every range and the special values) in one Node process,
compared as bit patterns; Plan programs that use them (haversine distances, log scales,
compound interest, digit counts) against Node; and what JavaScript answers with NaN, or with
a zero's sign a run does not keep, refused where it is written. The million-input measure
is benchmarks/math_exactness.py."""

from __future__ import annotations

import math
import random
import shutil
import struct
import subprocess
from array import array
from collections.abc import Callable

import pytest

from dialectic import Runtime
from dialectic.values import fdlibm

from .program_oracle import runs_as_in_node, runtime
from .test_more_builtins import fails_at

RT: Runtime = runtime()

ONE = ["log", "log10", "log2", "log1p", "exp", "expm1", "cbrt", "sin", "cos", "tan"]
ONE += ["asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]
TWO = ["atan2", "pow"]

SPECIAL = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, 10.0]
SPECIAL += [5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e-300, 1e300]
SPECIAL += [math.pi, -math.pi, math.pi / 2, math.pi / 4, 709.782712893384, -745.1332191019411]
SPECIAL += [710.0, -746.0, 22.0, 0.1, 1e22, 2**53, 1e6, 823550.0, 6.9486747387446535]

NODE = """
const fs = require('fs');
const b = fs.readFileSync(0);
const xs = new Float64Array(b.buffer, b.byteOffset, b.length / 8);
const names = process.argv.slice(1);  // (node -e: the arguments follow argv[0])
const per = xs.length / names.length;
const out = new Float64Array(xs.length);
names.forEach((name, f) => {
  const fn = Math[name], base = f * per;
  if (name === 'atan2' || name === 'pow') {
    for (let i = 0; i < per; i += 2) out[base + i] = fn(xs[base + i], xs[base + i + 1]);
  } else {
    for (let i = 0; i < per; i++) out[base + i] = fn(xs[base + i]);
  }
});
process.stdout.write(Buffer.from(out.buffer));
"""


def _from_bits(bits: int) -> float:
    return float(struct.unpack("<d", struct.pack("<Q", bits))[0])


def _bits(x: float) -> int:
    return int(struct.unpack("<Q", struct.pack("<d", x))[0])


def _generators(rng: random.Random) -> list[Callable[[], float]]:
    """Small, near 1, huge, tiny and subnormal, any bit pattern, whole, near n * pi/2."""
    one, inf = _bits(1.0), _bits(math.inf)
    sign: Callable[[], float] = lambda: rng.choice((1.0, -1.0))  # noqa: E731
    return [
        lambda: rng.uniform(-10, 10),
        lambda: _from_bits(rng.randrange(one - 2**44, one + 2**44)) * sign(),
        lambda: _from_bits(rng.randrange(_bits(1e6), inf)) * sign(),
        lambda: _from_bits(rng.randrange(1, _bits(1e-6))) * sign(),
        lambda: _from_bits(rng.randrange(0, inf + 1)) * sign(),
        lambda: float(rng.randrange(-1000, 1000)),
        lambda: (
            _from_bits(_bits(rng.randrange(1, 10**6) * math.pi / 2) + rng.randrange(-9, 9)) * sign()
        ),
    ]


def _inputs(count: int) -> dict[str, list[float]]:
    rng = random.Random(2026)
    gens = _generators(rng)
    out: dict[str, list[float]] = {}
    for name in ONE:
        out[name] = SPECIAL + [rng.choice(gens)() for _ in range(count)]
    for name in TWO:
        pairs = [v for a in SPECIAL for b in SPECIAL for v in (a, b)]
        pairs += [rng.choice(gens)() for _ in range(2 * count)]
        out[name] = pairs
    return out


def test_every_function_gives_nodes_bits() -> None:
    node = shutil.which("node")
    assert node is not None, "set-up installs Node.js"
    inputs = _inputs(3000)
    names = ONE + TWO
    size = max(len(v) for v in inputs.values())  # (each padded to one length with ones)
    xs = [v for name in names for v in inputs[name] + [1.0] * (size - len(inputs[name]))]
    done = subprocess.run(
        [node, "-e", NODE, *names], input=array("d", xs).tobytes(), capture_output=True
    )
    assert done.returncode == 0, done.stderr
    want = array("d")
    want.frombytes(done.stdout)
    wrong = []
    for f, name in enumerate(names):
        fn = getattr(fdlibm, name)
        step = 2 if name in TWO else 1
        for i in range(0, size, step):
            args = xs[f * size + i : f * size + i + step]
            got, expected = fn(*args), want[f * size + i]
            if not (got != got and expected != expected) and _bits(got) != _bits(expected):
                wrong.append((name, args, got, expected))
    assert not wrong, (len(wrong), wrong[:5])


PROGRAMS = [
    # haversine distances, two ways of writing them
    "const toRad = d => d * Math.PI / 180;\nconst R = 6371;\n"
    "const lat1 = toRad(48.8566), lat2 = toRad(51.5074);\n"
    "const dLat = lat2 - lat1, dLon = toRad(-0.1278 - 2.3522);\n"
    "const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * "
    "Math.sin(dLon / 2) ** 2;\n"
    "return R * 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));",
    "const toRad = d => d * Math.PI / 180;\n"
    "const hav = (p, q) => {\n  const dLat = toRad(q[0] - p[0]), dLon = toRad(q[1] - p[1]);\n"
    "  const h = Math.sin(dLat / 2) * Math.sin(dLat / 2) + Math.cos(toRad(p[0])) * "
    "Math.cos(toRad(q[0])) * Math.sin(dLon / 2) * Math.sin(dLon / 2);\n"
    "  return 2 * 6371 * Math.asin(Math.sqrt(h));\n};\n"
    "const stops = [[40.7128, -74.006], [34.0522, -118.2437], [41.8781, -87.6298]];\n"
    "return stops.slice(1).map((q, i) => Math.round(hav(stops[i], q) * 100) / 100);",
    # log scales, digit counts, compound interest
    "return nums.filter(x => x > 0).map(x => Math.log10(x));",
    "return [1, 9, 10, 99, 100, 12345, 999999].map(m => Math.floor(Math.log10(m)) + 1);",
    "return [1, 2, 3, 1000, 1024, 7].map(m => Math.round(Math.log2(m)));",
    "return [Math.log(2) / Math.log(1.07), 1000 * Math.exp(0.05 * 10), Math.pow(1.07, 30), "
    "1000 * (1 + 0.05 / 12) ** (12 * 10), 2 ** 0.5, 10 ** -0.5];",
    "return people.map(p => ({name: p.name, score: Math.log1p(p.age) * Math.tanh(p.age / 50)}));",
    # each function once, with the constants they meet
    "return [Math.exp(1), Math.log(Math.E), Math.sin(Math.PI), Math.cos(Math.PI / 3), "
    "Math.tan(Math.PI / 4), Math.atan(1) * 4, Math.asin(1), Math.acos(-1), Math.cbrt(2), "
    "Math.expm1(1e-5), Math.sinh(1), Math.cosh(1), Math.asinh(1), Math.acosh(2), "
    "Math.atanh(0.5), Math.atan2(-1, -1), Math.sin(1e22), Math.log(0) < 0];",
]


def test_programs_using_them_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        ("return Math.log(-1);", "Math.log() of -1 is NaN", "1:8"),
        ("const a = 2;\nreturn Math.asin(a);", "Math.asin() of 2 is NaN", "2:8"),
        ("return Math.atan2(0, -1);", "signs of the zeros", "1:8"),
        ("return Math.atan2(0, 0);", "signs of the zeros", "1:8"),
        ("return (-8) ** (1 / 3);", "NaN", "1:8"),
        ("return Math.pow(-2, 0.5);", "NaN", "1:8"),
        ("return Math.log(s);", "takes numbers, got a string", "1:8"),
    ],
)
def test_a_nan_or_a_lost_zero_sign_is_refused_where_written(
    text: str, message: str, where: str
) -> None:
    fails_at(RT.run(text, lang="plan", context={"s": "10"}), message, where)
