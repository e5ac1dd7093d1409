"""Every prefix of a program a model writes (a reply cut off mid-way) gives a clean outcome:
never a Python exception, never an internal error (found: `if (x) throw new Error(` wrote the
`throw`'s closing tokens after the end; `return new Intl` read past the end)."""

from __future__ import annotations

import pytest

from dialectic import Runtime

RT = Runtime(load_entry_points=False)
CONTEXT = {"nums": [3, 1, 2], "people": [{"name": "Ada", "age": 36}], "s": "x", "x": 1}

PROGRAMS = [
    "const r = await echo({status: 'ok'}); if (r.status !== 'ok') throw new Error('bad'); "
    "return r;",
    "try { const v = JSON.parse(s); return v; } catch (e) { throw new Error(`bad: ${e}`); }",
    "return new Intl.NumberFormat('en-US', {maximumFractionDigits: 1}).format(1234.56);",
    "const out = []; for (const p of people) out.push(p.name); out.sort((a, b) => "
    "a.localeCompare(b)); return out;",
    "const r = [3, 1]; r.reverse(); return r.map(v => parseInt(String(v), 16));",
    "const stats = {n: 0}; for (const v of nums) { if (v > 1) stats.n += 1; } return stats;",
    "return await Promise.all(nums.map(async (v) => { await echo(v); return v * 2; }));",
    "let t = ''; switch (x) { case 1: t = 'one'; break; default: t = 'other'; } return t;",
    # (declarations of several names, labeled loops, destructuring in an arrow's body, a try
    # ending in two changes: found `const r = [3, 1` read past the end)
    "const a = [1, 2], b = {k: [3]}, c = `${x}`; return [a, b, c];",
    "const out = []; outer: for (const p of people) { for (const v of nums) { if (v > 2) "
    "continue outer; if (v < 0) break outer; } out.push(p.name); } return out;",
    "let n = 0; loop: do { n++; if (n > 2) break loop; } while (n < 5); return n;",
    "return people.map(p => { const {name, age = 0, ...rest} = p; const [c] = name; return c; });",
    "let v = null, ok = false; try { v = JSON.parse(s); ok = true; } catch (e) { v = e.name; } "
    "return [v, ok];",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_prefix_gives_a_clean_outcome(program: str) -> None:
    for k in range(1, len(program) + 1):
        out = RT.run(program[:k], lang="plan", context=CONTEXT)
        assert out.status in ("success", "failure", "ambiguous"), program[:k]
        if out.status == "failure":
            assert out.error is not None and out.error.code != "internal_error", (
                program[:k],
                out.message,
            )
