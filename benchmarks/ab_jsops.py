"""A/B in one process: the operators and indexOf/includes of a base commit against this tree's,
interleaved rounds, the minimum of each (the machine is shared: separate runs differ by 2x).

    python benchmarks/ab_jsops.py [BASE_COMMIT]    (default a7cac43, before the 2**53 rule)

The base modules are the commit's source executed in this process (their imports resolve to this
tree's modules; only the functions timed differ).
"""

from __future__ import annotations

import subprocess
import sys
import timeit
import types
from typing import Any

from dialectic.values import jsmethods, jsops

ROUNDS = 9


def _base(module: str, base: str) -> types.ModuleType:
    path = f"dialectic/values/{module}.py"
    src = subprocess.run(
        ["git", "show", f"{base}:{path}"], capture_output=True, text=True, check=True
    ).stdout
    mod = types.ModuleType(f"base_{module}")
    sys.modules[mod.__name__] = mod
    exec(compile(src, f"base:{path}", "exec"), mod.__dict__)  # (the repository's own source)
    return mod


def _loop_index_of(eq: Any, xs: list[Any], item: Any) -> int:
    for i, x in enumerate(xs):
        if eq(x, item, "indexOf"):
            return i
    return -1


OPERATORS = [
    ("=== unequal ints", "eq(3, 5)"),
    ("=== equal ints", "eq(5, 5)"),
    ("=== unequal strs", "eq('a', 'b')"),
    ("=== int/float", "eq(3, 5.5)"),
    ("< ints", "lt(3, 5)"),
    ("< floats", "lt(3.5, 5.0)"),
    ("> ints", "gt(7, 5)"),
    ("200 x strict_equal", "loop(eq, xs, 199)"),
]
METHODS = [
    ("xs.indexOf(199) ints", "m._index_of(xs, 199)"),
    ("xs.includes(199) ints", "m._includes(xs, 199)"),
    ("words.indexOf('w199')", "m._index_of(words, 'w199')"),
]


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "a7cac43"
    pairs = [(_base("jsops", base), jsops), (_base("jsmethods", base), jsmethods)]
    xs = list(range(200))
    words = [f"w{i}" for i in range(200)]
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(ROUNDS):
        for label, ops, methods in (("base", pairs[0][0], pairs[1][0]), ("new", jsops, jsmethods)):
            env = {
                "eq": ops.strict_equal,
                "lt": ops.less,
                "gt": ops.greater,
                "xs": xs,
                "words": words,
                "loop": _loop_index_of,
                "m": methods,
            }
            for name, stmt in OPERATORS + METHODS:
                n = 300 if "(" in name or "200" in name else 30000
                best = min(timeit.repeat(stmt, globals=env, number=n, repeat=3))
                times.setdefault((name, label), []).append(best / n * 1e9)
    print(f"{'operation':24s} {'base ns':>9s} {'new ns':>9s}  new/base  (min of {ROUNDS} rounds)")
    for name, _ in OPERATORS + METHODS:
        old_ns, new_ns = min(times[(name, "base")]), min(times[(name, "new")])
        print(f"{name:24s} {old_ns:9.1f} {new_ns:9.1f}  {new_ns / old_ns:6.2f}")


if __name__ == "__main__":
    main()
