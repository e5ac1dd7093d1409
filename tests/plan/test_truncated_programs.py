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
