"""A Map or a Set changed item by item, at 1k / 4k / 16k / 64k items (SPEC 10, "Maps and Sets").

The idioms models write: counting in a loop (``counts.set(w, (counts.get(w) ?? 0) + 1)``), a
seen-set (``if (!seen.has(w)) seen.add(w)``), a ``reduce`` from ``new Map()``, the group-by
(``if (!g.has(k)) g.set(k, []); g.get(k).push(w);`` in a loop, a ``reduce`` step and a
``while``, and the read-push-write-back ``const arr = g.get(k) || []; arr.push(w); g.set(k,
arr);`` with a Map or an object: a few groups of many items each); and, for
comparison, the object count (``counts[w] = (counts[w] || 0) + 1``, a fold that copies the
object per change: SPEC 10, "Loops", Cost); and the worklists of SPEC 10, "Stacks and queues": a
queue drained with ``shift()``, a stack with ``pop()``, a BFS pushing as it shifts. Each is run
once on a new text (parse + prepare + run), half the words distinct. Each figure is the best of
the rounds, CPU time of this process (``time.process_time``); the last column is the time per
item relative to 1k (flat: linear).

Target: linear (the per-item time at 64k within 2x of 1k's) for the Map and Set idioms and the
worklists, and within 1.3x for the group-bys.
Run: python benchmarks/collection_growth.py [--quick] [--rounds N]
"""

from __future__ import annotations

import sys
import time

from dialectic import Limits, Runtime

SIZES = (1_000, 4_000, 16_000, 64_000)
#: a group-by's answer: half the items (as the other idioms' count of distinct words)
_HALF = "return [...g.values()].reduce((n, v) => n + v.length, 0) / 2;"
PROGRAMS = {
    "Map count (loop)": "const counts = new Map();\n"
    "for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);\nreturn counts.size;",
    "Set seen (loop)": "const seen = new Set();\n"
    "for (const w of words) { if (!seen.has(w)) seen.add(w); }\nreturn seen.size;",
    "Map count (reduce)": "return words.reduce((acc, w) => { acc.set(w, (acc.get(w) ?? 0) + 1); "
    "return acc; }, new Map()).size;",
    "object count (loop)": "const counts = {};\n"
    "for (const w of words) counts[w] = (counts[w] || 0) + 1;\nreturn Object.keys(counts).length;",
    # worklists (SPEC 10, "Stacks and queues"): each take O(1)
    "queue drain (shift)": "const queue = [...words]; const seen = new Set();\n"
    "while (queue.length) { const w = queue.shift(); seen.add(w); }\nreturn seen.size;",
    "stack drain (pop)": "const stack = [...words]; const seen = new Set();\n"
    "while (stack.length) { const w = stack.pop(); seen.add(w); }\nreturn seen.size;",
    "BFS (shift + push)": "const half = words.length / 2; const queue = [0]; let count = 0;\n"
    "while (queue.length) {\n  const x = queue.shift(); count++;\n"
    "  if (x * 2 + 1 < half) queue.push(x * 2 + 1);\n"
    "  if (x * 2 + 2 < half) queue.push(x * 2 + 2);\n}\nreturn count;",
    # the group-by into a few large groups (by the word's length): each group's list grows
    "Map group-by (loop)": "const g = new Map();\nfor (const w of words) {\n"
    "  if (!g.has(w.length)) g.set(w.length, []);\n  g.get(w.length).push(w);\n}\n" + _HALF,
    "Map write-back (loop)": "const g = new Map();\nfor (const w of words) {\n"
    "  const arr = g.get(w.length) || [];\n  arr.push(w);\n  g.set(w.length, arr);\n}\n" + _HALF,
    "Map group-by (reduce)": "const g = words.reduce((acc, w) => {\n"
    "  if (!acc.has(w.length)) acc.set(w.length, []);\n  acc.get(w.length).push(w);\n"
    "  return acc;\n}, new Map());\n" + _HALF,
    "Map group-by (while)": "const g = new Map();\nlet i = 0;\nwhile (i < words.length) {\n"
    "  const w = words[i];\n  if (!g.has(w.length)) g.set(w.length, []);\n"
    "  g.get(w.length).push(w);\n  i++;\n}\n" + _HALF,
    "object write-back (loop)": "const g = {};\nfor (const w of words) {\n  const k = w.length;\n"
    "  const arr = g[k] || [];\n  arr.push(w);\n  g[k] = arr;\n}\n"
    "return Object.values(g).reduce((n, v) => n + v.length, 0) / 2;",
}


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else (1 if quick else 3)
    sizes = SIZES[:3] if quick else SIZES
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=10_000_000, deadline=600.0))
    rt.run(PROGRAMS["Map count (loop)"], lang="plan", context={"words": ["a"] * 100})  # warm-up
    print(f"{'idiom':26}" + "".join(f"{n:>12,}" for n in sizes) + "   per item at the last / 1k")
    for name, text in PROGRAMS.items():
        row: list[float] = []
        for n in sizes:
            words = [f"w{i % (n // 2)}" for i in range(n)]
            best = float("inf")
            for r in range(rounds):
                start = time.process_time()
                out = rt.run(text + f"\n// {r}", lang="plan", context={"words": words})
                best = min(best, time.process_time() - start)
                assert out.status == "success", out.message
                assert out.value == n // 2, out.value
            row.append(best)
        ratio = (row[-1] / sizes[-1]) / (row[0] / sizes[0])
        cells = "".join(f"{t * 1000:10.1f}ms" for t in row)
        print(f"{name:26}{cells}   {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
