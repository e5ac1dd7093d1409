"""Measures, per ``Math`` function, the share of inputs where a Python implementation differs
from Node's ``Math`` in any bit: random doubles in several ranges (small, near 1, huge,
tiny and subnormal, negative, any bit pattern, near multiples of pi/2) plus special values.

    python benchmarks/math_exactness.py [--impl libm|ours] [--count N] [FUNCTION ...]

``libm`` is Python's ``math`` (the platform's C library), ``ours`` is
``dialectic.values.fdlibm`` (the runtime's own routines). Inputs go to Node as a file of
doubles; its results come back the same way and are compared as bit patterns (every NaN
alike). Slow (a few seconds per million inputs): not run in CI, whose differential test
(tests/expressions/test_jsmath_node.py) takes a few thousand inputs per function."""

from __future__ import annotations

import argparse
import math
import random
import struct
import subprocess
import sys
import tempfile
import time
from array import array
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ONE = ("log", "exp", "sin", "cos", "asin", "atan", "log10", "log2", "tan", "acos", "cbrt")
ONE_MORE = ("log1p", "expm1", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh")
TWO = ("atan2", "pow")

NODE = r"""
const fs = require('fs');
const [fn, arity, src, dst] = process.argv.slice(2);
const b = fs.readFileSync(src);
const xs = new Float64Array(b.buffer, b.byteOffset, b.length / 8);
const f = Math[fn];
const out = new Float64Array(arity === '2' ? xs.length / 2 : xs.length);
if (arity === '2') { for (let i = 0; i < out.length; i++) out[i] = f(xs[2 * i], xs[2 * i + 1]); }
else { for (let i = 0; i < out.length; i++) out[i] = f(xs[i]); }
fs.writeFileSync(dst, Buffer.from(out.buffer));
"""

SPECIAL = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 5e-324, -5e-324]
SPECIAL += [1.7976931348623157e308, -1.7976931348623157e308, 2.2250738585072014e-308, 1e-300]
SPECIAL += [math.pi, -math.pi, math.pi / 2, math.pi / 4, 709.782712893384, -745.1332191019411]
SPECIAL += [710.0, -746.0, 1e-8, 3.0, 10.0, 100.0, 1000.0, 1e16, 0.1, 0.7, 1e300]


def _bits(lo: int, hi: int, rng: random.Random) -> float:
    """A double whose bit pattern is uniform between ``lo`` and ``hi`` (positive patterns)."""
    return float(struct.unpack("<d", struct.pack("<Q", rng.randrange(lo, hi)))[0])


def _pattern(x: float) -> int:
    return int(struct.unpack("<Q", struct.pack("<d", x))[0])


def _near(x: float, rng: random.Random) -> float:
    """A double within 2**20 steps (units in the last place) of ``x``, often within a few."""
    steps = rng.choice((rng.randrange(-8, 9), rng.randrange(-(2**20), 2**20)))
    return float(struct.unpack("<q", struct.pack("<q", _pattern(abs(x)) + steps))[0]) * (
        -1 if x < 0 else 1
    )


def ranges(rng: random.Random) -> dict[str, Callable[[], float]]:
    """Each range's generator of one double."""
    one = _pattern(1.0)
    return {
        "small": lambda: rng.uniform(-10, 10),
        "near1": lambda: _bits(one - 2**44, one + 2**44, rng) * rng.choice((1, -1)),
        "huge": lambda: _bits(_pattern(1e6), _pattern(math.inf), rng) * rng.choice((1, -1)),
        "tiny": lambda: _bits(1, _pattern(1e-6), rng) * rng.choice((1, -1)),
        "negative": lambda: -rng.uniform(0, 1000),
        "whole": lambda: float(
            rng.choice((rng.randrange(-(10**6), 10**6), rng.randrange(-40, 41)))
        ),
        "anybits": lambda: _bits(0, _pattern(math.inf) + 1, rng) * rng.choice((1, -1)),
        "pi/2": lambda: _near(rng.randrange(-(10**6), 10**6) * (math.pi / 2), rng),
    }


def inputs(
    name: str, count: int, arity: int, seed: int, only: list[str] | None = None
) -> Iterator[tuple[str, list[float]]]:
    rng = random.Random(f"{seed}:{name}")
    gens = ranges(rng)
    for label, gen in gens.items():
        if only and label not in only:
            continue
        if arity == 1:
            yield label, [gen() for _ in range(count)]
        else:  # pairs: the range's value with one of any range (both orders)
            others = list(gens.values())
            xs: list[float] = []
            for i in range(count):
                a, b = gen(), rng.choice(others)()
                xs += (a, b) if i % 2 else (b, a)
            yield label, xs
    specials = [(a, b) for a in SPECIAL for b in SPECIAL] if arity == 2 else [(a,) for a in SPECIAL]
    if not only or "special" in only:
        yield "special", [v for row in specials for v in row]


def node_results(name: str, arity: int, xs: list[float]) -> array[float]:
    with tempfile.TemporaryDirectory() as tmp:
        src, dst, script = Path(tmp, "in"), Path(tmp, "out"), Path(tmp, "m.js")
        src.write_bytes(array("d", xs).tobytes())
        script.write_text(NODE)
        subprocess.run(["node", str(script), name, str(arity), str(src), str(dst)], check=True)
        out = array("d")
        out.frombytes(dst.read_bytes())
    return out


def candidate(name: str, impl: str) -> Callable[..., float]:
    if impl == "ours":
        from dialectic.values import fdlibm

        fn: Callable[..., float] = getattr(fdlibm, name)
        return fn
    return getattr(math, name) if name != "pow" else math.pow


def _call(fn: Callable[..., float], args: tuple[float, ...]) -> float | None:
    try:
        return fn(*args)
    except ValueError:  # libm: a domain error or a pole (log(0)), where C gives NaN or an infinity
        return None
    except OverflowError:  # libm: an overflow (of sinh's sign, or pow's: odd powers of x < 0)
        odd = fn is math.pow and args[0] < 0 and float(args[1]).is_integer() and args[1] % 2
        return -math.inf if (fn is math.sinh and args[0] < 0) or odd else math.inf


def _same(a: float, b: float) -> bool:
    return (a != a and b != b) or _pattern(a) == _pattern(b)


def measure(
    name: str, impl: str, count: int, seed: int, only: list[str] | None = None
) -> dict[str, Any]:
    arity = 2 if name in TWO else 1
    fn = candidate(name, impl)
    report: dict[str, Any] = {}
    for label, xs in inputs(name, count, arity, seed, only):
        want = node_results(name, arity, xs)
        bad = 0
        example = None
        for i, w in enumerate(want):
            args = tuple(xs[arity * i : arity * i + arity])
            got = _call(fn, args)
            # (libm raising where Node's answer is NaN or an infinity: C's answer, taken as same)
            if math.isfinite(w) if got is None else not _same(got, w):
                bad += 1
                example = example or (args, got, w)
        report[label] = (bad, len(want), example)
    return report


def speed(name: str) -> None:
    """µs per call of ours and of Python's ``math`` (best of 7 rounds of 20,000 calls over 1,000
    inputs between 1 and 10, or 0 and 1 for asin, acos, atanh; CPU time)."""
    from dialectic.values import fdlibm

    rng = random.Random(1)
    arity = 2 if name in TWO else 1
    low, high = (0.01, 0.99) if name in ("asin", "acos", "atanh") else (1.01, 10)
    xs = [tuple(rng.uniform(low, high) for _ in range(arity)) for _ in range(1000)]
    times = []
    for fn in (getattr(fdlibm, name), candidate(name, "libm")):
        best = math.inf
        for _ in range(7):
            start = time.process_time()
            for _ in range(20):
                for args in xs:
                    fn(*args)
            best = min(best, time.process_time() - start)
        times.append(best / 20_000 * 1e6)
    print(f"{name}: {times[0]:.2f} µs a call (Python's math: {times[1]:.2f} µs)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--impl", choices=("libm", "ours"), default="ours")
    parser.add_argument("--count", type=int, default=1_000_000, help="inputs per range")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--ranges", help="only these ranges, comma-separated (e.g. whole,huge)")
    parser.add_argument("--speed", action="store_true", help="time a call instead")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    only = args.ranges.split(",") if args.ranges else None
    for name in args.names or (*ONE, *TWO, *ONE_MORE):
        if args.speed:
            speed(name)
            continue
        report = measure(name, args.impl, args.count, args.seed, only)
        total = sum(n for _, n, _ in report.values())
        bad = sum(b for b, _, _ in report.values())
        parts = ", ".join(f"{k} {b}/{n}" for k, (b, n, _) in report.items())
        print(f"{name} [{args.impl}]: {bad}/{total} differ ({bad / total:.4%}): {parts}")
        for label, (_, _, ex) in report.items():
            if ex:
                print(f"    e.g. {label}: {name}{ex[0]!r} = {ex[1]!r}, Node {ex[2]!r}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
