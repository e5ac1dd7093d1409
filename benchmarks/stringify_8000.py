"""JSON.stringify and a template of 8,000 objects through a prepared Plan program (CPU time of
this process per run, median and minimum of 9). Run: python benchmarks/stringify_8000.py"""

from __future__ import annotations

import time

from dialectic import Runtime

rt = Runtime(load_entry_points=False)
ITEMS = [
    {"id": i, "name": f"item {i}", "price": i * 1.25 + 0.01, "tags": ["a", "b"], "ok": i % 2 == 0}
    for i in range(8000)
]
ctx = {"xs": ITEMS}
for src in ["return JSON.stringify(xs);", "return `${xs}`;"]:
    p = rt.prepare(src, lang="plan")
    ts = []
    for _ in range(9):
        t = time.process_time()
        out = p.run(context=ctx)
        ts.append((time.process_time() - t) * 1e3)
    assert out.status == "success", out.message
    print(
        f"{src:30s} median {sorted(ts)[4]:6.1f} ms  min {min(ts):6.1f} ms  "
        f"({len(out.value):,} characters)"
    )
