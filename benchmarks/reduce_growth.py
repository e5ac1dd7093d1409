"""``reduce`` building an object or an array, at 1k / 4k / 16k / 64k distinct keys or items.

The accumulator idioms models write, in Plan (changed in place, and the spread form), Dialect
JSON (``$merge``) and Plan2 (YAML), the loops that read what they change (folds: the dedupe,
the counts, the first N, the group-by into ten lists), the group-by reduces, chunks into a
``let`` array started again and a reduce into an object of arrays and a counter, each run once
on a new text (parse + prepare + run), the items as context. Each figure is the best of the
rounds, CPU time of this process (``time.process_time``); the last column is the time per
item relative to 1k (flat: linear; growing with n: worse than linear).

Target: linear (the per-item time at 64k within 2x of 1k's).
Run: python benchmarks/reduce_growth.py [--quick] [--rounds N]
"""

from __future__ import annotations

import sys
import time
from typing import Any

from dialectic import Limits, Runtime

SIZES = (1_000, 4_000, 16_000, 64_000)

COUNT_IN_PLACE = "return items.reduce((acc, i) => { acc[i] = (acc[i] || 0) + 1; return acc; }, {});"
COUNT_SPREAD = "return items.reduce((acc, i) => ({...acc, [i]: (acc[i] || 0) + 1}), {});"
PUSH = "return items.reduce((acc, i) => { acc.push(i); return acc; }, []);"
ARRAY_SPREAD = "return items.reduce((acc, i) => [...acc, i], []);"
PLAN2 = "result: ${items.reduce((acc, i) => ({...acc, [i]: (acc[i] || 0) + 1}), {})}"
JSON_MERGE: Any = {
    "$method": [
        {"$ref": "items"},
        "reduce",
        {
            "$fn": [
                ["acc", "i"],
                {
                    "$merge": [
                        {"$ref": "acc"},
                        {
                            "$global": [
                                "Object.fromEntries",
                                [
                                    [
                                        {"$ref": "i"},
                                        {
                                            "$op": [
                                                "+",
                                                {
                                                    "$op": [
                                                        "||",
                                                        {"$get": [{"$ref": "acc"}, {"$ref": "i"}]},
                                                        0,
                                                    ]
                                                },
                                                1,
                                            ]
                                        },
                                    ]
                                ],
                            ]
                        },
                    ]
                },
            ]
        },
        {},
    ]
}

LOOP_DEDUPE = (
    "const seen = {}; const uniq = [];\n"
    "for (const i of items) { if (!seen[i]) { seen[i] = true; uniq.push(i); } }\nreturn uniq;"
)
LOOP_COUNTS = "const c = {};\nfor (const i of items) { c[i] = (c[i] || 0) + 1; }\nreturn c;"
LOOP_FIRST_N = (
    "const out = [];\nfor (const i of items) { if (out.length < 1e9) out.push(i); }\nreturn out;"
)
# (ten groups: each key's list grows to a tenth of the items)
LOOP_GROUP_BY = (
    "const g = {};\n"
    "for (const i of items) { const k = i.slice(0, 2); g[k] = [...(g[k] ?? []), i]; }\nreturn g;"
)
GROUP_BY = (
    "return items.reduce((acc, i) => { acc[i.slice(0, 2)] = [...(acc[i.slice(0, 2)] || []), i]; "
    "return acc; }, {});"
)
GROUP_BY_SPREAD = (
    "return items.reduce((acc, i) => ({...acc, [i.slice(0, 2)]: [...(acc[i.slice(0, 2)] ?? []), "
    "i]}), {});"
)

# (ten records: a count and a list per key, SPEC 10 "Aggregating into records")
LOOP_RECORDS = (
    "const st = {};\nfor (const i of items) { const k = i.slice(0, 2);\n"
    "  if (!st[k]) st[k] = {n: 0, xs: []}; st[k].n++; st[k].xs.push(i); }\nreturn st;"
)
MAP_RECORDS = (
    "const m = new Map();\nfor (const i of items) { const k = i.slice(0, 2);\n"
    "  if (!m.has(k)) m.set(k, {n: 0, last: ''}); m.get(k).n++; m.get(k).last = i; }\n"
    "return Object.fromEntries(m);"
)
# (state a loop keeps, SPEC 10: chunks of 100 into a `let` array started again; a reduce into
# an object of two arrays, the array chosen by a conditional, and a counter)
LOOP_CHUNKS = (
    "const chunks = []; let cur = [];\n"
    "for (const i of items) {\n  cur.push(i);\n"
    "  if (cur.length === 100) { chunks.push(cur); cur = []; }\n}\n"
    "if (cur.length) chunks.push(cur);\nreturn chunks.flat();"
)
REDUCE_SPLIT = (
    "const r = items.reduce((acc, i) => { (i.length % 2 ? acc.odd : acc.even).push(i); acc.n++; "
    "return acc; }, {odd: [], even: [], n: 0});\nreturn [...r.odd, ...r.even];"
)

FORMS: list[tuple[str, Any, str, str]] = [
    ("Plan acc[k] = v", COUNT_IN_PLACE, "plan", "object"),
    ("Plan {...acc, [k]: v}", COUNT_SPREAD, "plan", "object"),
    ("JSON $merge", JSON_MERGE, "json", "object"),
    ("Plan2 ${...spread}", PLAN2, "plan2", "object"),
    ("Plan acc.push(x)", PUSH, "plan", "array"),
    ("Plan [...acc, x]", ARRAY_SPREAD, "plan", "array"),
    ("loop dedupe", LOOP_DEDUPE, "plan", "array"),
    ("loop counts", LOOP_COUNTS, "plan", "object"),
    ("loop first N", LOOP_FIRST_N, "plan", "array"),
    ("loop group-by", LOOP_GROUP_BY, "plan", "groups"),
    ("reduce group-by", GROUP_BY, "plan", "groups"),
    ("reduce group-by spread", GROUP_BY_SPREAD, "plan", "groups"),
    ("loop records", LOOP_RECORDS, "plan", "records"),
    ("loop Map records", MAP_RECORDS, "plan", "records"),
    ("loop let chunks", LOOP_CHUNKS, "plan", "array"),
    ("reduce split + count", REDUCE_SPLIT, "plan", "items"),
]


def one(rt: Runtime, program: Any, lang: str, items: list[str]) -> tuple[float, Any]:
    start = time.process_time()
    out = rt.run(program, lang=lang, context={"items": items})
    took = time.process_time() - start
    if out.status != "success":
        raise SystemExit(f"failed: {out.message}")
    return took, out.value


def main() -> int:
    quick = "--quick" in sys.argv
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3
    sizes = SIZES[:3] if quick else SIZES
    rt = Runtime(load_entry_points=False, limits=Limits(deadline=600.0))
    for _, program, lang, _ in FORMS:  # (imports and first-run caches: not measured)
        one(rt, program, lang, ["a"])
    print(f"{'form':24} " + " ".join(f"{n:>9}" for n in sizes) + "  per item, last vs first")
    worst = 0.0
    for label, program, lang, kind in FORMS:
        best: list[float] = []
        for n in sizes:
            items = [f"k{i}" for i in range(n)]
            times = []
            for _ in range(rounds if n < 64_000 else max(1, rounds - 1)):
                took, value = one(rt, program, lang, items)
                times.append(took)
            check = kind
            if kind == "records":  # (each key's count, and its items in order)
                assert sum(r["n"] for r in value.values()) == len(items), label
                with_lists = "xs" in next(iter(value.values()))
                value = {k: r["xs"] for k, r in value.items()} if with_lists else value
                check = "groups" if with_lists else "counted"
            if check == "groups":  # (each key's items, in order)
                assert [i for group in value.values() for i in group] == sorted(
                    items, key=lambda i: list(value).index(i[:2])
                ), label
            elif check == "items":  # (the same items, split in two)
                assert sorted(value) == sorted(items), label
            elif check != "counted":
                assert len(value) == len(items), (label, n, len(value))
                assert (list(value) if check == "object" else value) == items, label
            best.append(min(times))
        ratio = (best[-1] / sizes[-1]) / (best[0] / sizes[0])
        worst = max(worst, ratio)
        cells = " ".join(f"{t * 1000:7.0f}ms" for t in best)
        print(f"{label:24} {cells}  {ratio:5.2f}x")
    met = worst <= 2.0
    print(
        f"target: per-item time at {sizes[-1]} within 2x of {sizes[0]}'s: "
        f"{'met' if met else 'NOT met'} ({worst:.2f}x)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
