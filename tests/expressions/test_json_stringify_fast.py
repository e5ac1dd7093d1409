"""JSON.stringify's fast path (orjson, where it writes what JavaScript writes) against Node:
the same text for every value, on both sides of the bounds the fast path checks (floats from
1e-5 to 1e16 in size and not whole, integers within 2**53), and the same text as the writer
it replaces where it does not apply."""

from __future__ import annotations

import json
import math
import random
import shutil
import struct
import subprocess
from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsglobals import _orjson_writes_it, json_stringify

LIMIT = 10_000_000


def _floats() -> list[float]:
    r = random.Random(11)
    out: list[float] = []
    while len(out) < 3000:
        x = struct.unpack("<d", struct.pack("<Q", r.getrandbits(64)))[0]
        if math.isfinite(x):
            out.append(x)
    for e in range(-9, 23):  # around every power of ten the layouts switch at
        for m in (1.0, 1.5, 9.999999999999998, 3.3333333333333335):
            x = m * 10.0**e
            out += [x, -x, math.nextafter(x, 0.0), math.nextafter(x, math.inf)]
    out += [r.uniform(-1e6, 1e6) for _ in range(1000)]
    out += [r.randrange(1, 10**9) / 10 ** r.randrange(0, 16) for _ in range(2000)]
    out += [0.0, -0.0, 5e-324, 1e-5, 1e16, 1e21, 1e-7, 2.0, 0.1, 1.7976931348623157e308]
    return out


def _values() -> list[Any]:
    ints = [0, 1, -1, 2**53, -(2**53), 2**53 - 1, 123456789]
    texts = ["", "a", 'q"b\\', "\n\t\r\b\f", "\x00\x1f\x7f", "é中😀", "\u2028\u2029", "</script>"]
    out: list[Any] = [[x] for x in _floats()]
    out += [ints, texts, [True, False, None], {"k": 1.5, "é": [1, {"x": "y"}]}, [[[[]]], {}]]
    out.append([{"id": i, "price": i * 1.25 + 0.01, "name": f"n{i}"} for i in range(50)])
    return out


def test_the_fast_path_writes_what_node_writes() -> None:
    node = shutil.which("node")
    assert node is not None, "set-up installs Node.js"
    values = _values()
    script = (
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{"
        "process.stdout.write(JSON.stringify(JSON.parse(s).map(v=>JSON.stringify(v))))})"
    )
    done = subprocess.run(
        [node, "-e", script],
        input=json.dumps(values),  # (Python writes floats with round-trip digits)
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    expected: list[str] = json.loads(done.stdout)
    fast = 0
    for value, theirs in zip(values, expected, strict=True):
        fast += _orjson_writes_it(value, LIMIT)
        assert json_stringify(value, str, limit=LIMIT) == theirs, value
    assert fast > len(values) // 3  # (the fast path is exercised, not only the writer)


def test_the_fast_path_declines_what_orjson_writes_otherwise() -> None:
    for value in ([1.0], [1e16], [1e-6], [-0.0], [2**53 + 1], [UNDEFINED], {"a": UNDEFINED}):
        assert not _orjson_writes_it(value, LIMIT)
    assert (
        json_stringify([1.0, 1e16, 1e-6, -0.0], str, limit=LIMIT)
        == "[1,10000000000000000,0.000001,0]"
    )
    assert json_stringify({"a": UNDEFINED, "b": [UNDEFINED]}, str, limit=LIMIT) == '{"b":[null]}'


def test_shared_parts_stop_the_check_at_the_limit() -> None:
    a: list[Any] = ["x" * 10]
    for _ in range(60):  # 2**60 leaves if written out
        a = [a, a]
    assert not _orjson_writes_it(a, 1000)
