"""A loop read as a fold (``while``, ``do...while``, a C-style ``for``, a ``for...of`` that
reads what it changes or breaks) that appends to a text builds it as pieces
(:mod:`dialectic.compiler.textbuild`, :mod:`dialectic.resolve.foldtext`): linear in the text,
the values Node's, and every refusal and limit the step-by-step ``+``'s (the same program run
with the marks turned off)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from dialectic import Limits, Outcome, Runtime
from dialectic.resolve import expressions, foldtext

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    # (an array appended is Node's text of it, SPEC 5: `'a01' + [2]` is `a012`)
    "let t = 'a'; let i = 0; while (i < 3) { t += i === 2 ? [i] : i; i++; } return t;",
    "let out = ''; let i = 0; while (i < n) { out += words[i % words.length] + ','; i++; } "
    "return out;",
    "let out = ''; let i = 0; do { out += i; i++; } while (out.length < 12); return [out, i];",
    "let out = ''; for (let i = 0; i < n; i++) { if (i === 5) break; out += `${i}:`; } return out;",
    "let out = ''; for (let i = 1; i < 100; i *= 2) { out += i + ' '; } return out.trim();",
    "let out = ''; while (out.length < 10) out += 'ab'; return out;",
    "let csv = 'name,age\\n'; for (const p of people) { if (csv.length > 20) break; "
    "csv += `${p.name},${p.age}\\n`; } return csv;",
    "let out = ''; for (const w of words) { if (!out.endsWith(',')) out += ','; out += w; } "
    "return out;",
    "let out = ''; for (const w of words) { if (out.includes(w)) continue; out += w; } return out;",
    "let out = ''; for (const w of words) { if (out) out += ', '; out += w; } return out;",
    "let out = ''; for (const w of words) { out += (out ? '|' : '') + w; } return out;",
    "let out = ''; for (const w of words) { if (out !== '') out += ';'; out += w; } return out;",
    "let out = ''; for (const w of words) { if (out === '') { out = w; continue; } "
    "out += '-' + w; } return out;",
    "let out = ''; for (const w of words) { if (out.startsWith('ban')) out += '!'; out += w; } "
    "return out;",
    "let out = ''; for (const w of words) { if (out.slice(-1) === 'a') out += '#'; out += w; } "
    "return out;",
    "let out = ''; for (const w of words) { if (out.at(-1) === 'y') out += '#'; out += w; } "
    "return out;",
    "let out = ''; const lens = []; for (const w of words) { out += w; lens.push(out.length); } "
    "return [out, lens];",
    "let out = ''; const snaps = []; for (const w of words) { const before = out; out += w; "
    "snaps.push(before); } return snaps;",
    "let out = ''; for (const w of words) { out += w; if (out.length > 15) { out = ''; } } "
    "return out;",
    "let out = '😀'; let k = 0; while (k < 3) { out += '😀a'; k++; } "
    "return [out.length, out, out.slice(-3), out.at(-1), out.endsWith('a')];",
    "let out = ''; for (const w of words) { out += w; out += out.length; } return out;",
    "let a = ''; let b = ''; for (const p of people) { a += p.name; if (a.length > 2) "
    "b += p.age; } return [a, b];",
    "let t = 0; for (const x of nums) { if (t === 'stop') break; t += x; } return t;",
    "let out = ''; for (const p of people) { for (const g of p.tags) { if (out.length > 50) "
    "break; out += g; } out += '/'; } return out;",
    "let out = ''; for (const w of words) { if (out.length > 3) { const up = out.toUpperCase(); "
    "out = up.slice(0, 2); } out += w; } return out;",
    "let out = ''; let i = 0; while (true) { out += i; i++; if (out.length >= 9) break; } "
    "return out;",
    "let out = 'x'; let i = 0; while (i < 4) { out += out.length; i++; } return out;",
    "let log = ''; let i = 0; while (i < 3) { log += `step ${i}; `; i++; } return `${log}done`;",
    "let out = ''; for (const w of words) { if (!out) { out += '['; } out += w.length; } "
    "return out + ']';",
    "let out = ''; for (const w of words) { out += w; if (words.some(v => out.endsWith(v + v))) "
    "break; } return out;",
    "let s2 = ''; let i = 0; while (i < 5) { s2 += i % 2 ? 'x' : 'y'; i++; } "
    "return JSON.stringify({s2, n: s2.length});",
    "let out = ''; for (const w of words) { if (out == 'banana') out += '!'; out += w; } "
    "return out;",
    "let out = ''; let i = 0; while (i < 3) { out = out + i + ','; i++; } return out;",
    "let out = ''; let i = 0; while (i < 3) { out = i + out; i++; } return out;",
    "let out = ''; for (const p of people) { for (const t of p.tags) out += t; } return out;",
    "let out = ''; for (const p of people) { if (out.length > 3) break; "
    "for (const t of p.tags) out += t + ','; } return out;",
    "let out = ''; let i = 0; while (i < 3) { for (const w of words) out += w[0] ?? '-'; i++; } "
    "return out;",
    "let t = 0; for (const p of people) { for (const x of [1, 2]) t += x; } return t;",
    "let t = 0; for (const p of people) { for (const x of [1, 'a']) t += x; } return t;",
    "let t = 0; for (const p of people) { if (t === '') break; for (const x of [1, 'a']) "
    "t += x; } return t;",
    "let out = ''; for (const w of words) { if (out.length > 8) break; out += w; } "
    "return [typeof out, out.split('a'), out.length];",
]


#: programs that fail: each must fail as the step-by-step ``+`` does (code, place, message)
FAILURES = [
    "let t = ''; for (const p of people) { if (t.length > 100) break; t += p.city; } return t;",
    "let t = 'a'; let i = 0; while (i < 3) { t += i === 1 ? undefined : i; i++; } return t;",
    "let t = 'a'; let i = 0; while (i < 3) { t += i === 2 ? {a: i} : i; i++; } return t;",
    "let t = 'a'; for (const p of people) { if (t.length > 99) break; t += p; } return t;",
    "let t = 0; for (const x of [1, 'a', 2, null, true]) { if (t.length > 100) break; t += x; } "
    "return t;",
    "let t = ''; let i = 0; while (i < 100) { t += 'abcd'; i++; } return t;",
    "let t = ''; let i = 0; while (i < 100) { t += 'abcd'; if (t.length > 1000) break; i++; } "
    "return t;",
    "let t = 'x'; let i = 0; while (i >= 0) { t += 'ab'; i++; } return t;",
    "let t = ''; for (const w of words) { if (t.length > 99) break; t += w; t += t; } return t;",
    "let t = ''; for (const p of people) { for (const x of [p.city]) t += x; } return t;",
    "let t = ''; for (const p of people) { if (t.length > 99) break; for (const x of [p.city]) "
    "t += x; } return t;",
    "let t = ''; for (const w of words) { for (const x of words) t += x + w; } return t;",
    "let t = ''; for (const w of words) { if (t.length < 0) break; for (const x of words) "
    "t += x + w; } return t;",
]

#: small limits, so the failures above meet them
SMALL = Limits(max_string_length=64, max_steps=500)


def _run(program: str, monkeypatch: pytest.MonkeyPatch, built: bool) -> Outcome:
    """The program run with the texts built as pieces (``built``) or step by step."""
    with monkeypatch.context() as m:
        if not built:
            m.setattr(expressions, "text_marks", lambda *args: {})
        rt = Runtime(load_entry_points=False, limits=SMALL)
        return rt.run(program, lang="plan", context=CONTEXT)


def _marked(program: str, monkeypatch: pytest.MonkeyPatch) -> bool:
    seen: list[Any] = []
    real = foldtext.text_marks

    def spy(*args: Any) -> Any:
        out = real(*args)
        seen.append(out)
        return out

    with monkeypatch.context() as m:
        m.setattr(expressions, "text_marks", spy)
        Runtime(load_entry_points=False).run(program, lang="plan", context=CONTEXT)
    return any(seen)


def test_builds_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize("program", PROGRAMS + FAILURES)
def test_the_same_as_step_by_step(program: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _run(program, monkeypatch, True), _run(program, monkeypatch, False)
    assert fast.status == slow.status, (fast.value, slow.message)
    assert fast.value == slow.value
    if slow.status == "failure":
        assert fast.error is not None and slow.error is not None
        assert (fast.error.code, fast.error.path) == (slow.error.code, slow.error.path)
        assert fast.error.details == slow.error.details
        assert fast.error.hint == slow.error.hint
        assert fast.message == slow.message


def test_the_failures_fail() -> None:
    rt = Runtime(load_entry_points=False, limits=SMALL)
    outs = [rt.run(p, lang="plan", context=CONTEXT) for p in FAILURES]
    assert all(o.status == "failure" for o in outs), [o.value for o in outs]
    codes = {o.error.code for o in outs if o.error is not None}
    assert {"expression_error", "limit_exceeded"} <= codes


def test_the_loops_are_built_as_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    # (else the tests above would compare the old path with itself)
    unmarked = [p for p in PROGRAMS if not _marked(p, monkeypatch)]
    assert len(unmarked) <= 3, unmarked


def _appends(n: int, program: str) -> float:
    rt = Runtime(load_entry_points=False, limits=Limits(max_string_length=10_000_000))
    started = time.thread_time()
    out = rt.run(program, lang="plan", context={"n": n, "xs": ["abcdefghij" * 2] * n})
    took = time.thread_time() - started
    assert out.status == "success", out.message
    assert out.value == 20 * n
    return took


@pytest.mark.parametrize(
    "program",
    [
        "let s = ''; let i = 0; while (i < n) { s += xs[i]; i++; } return s.length;",
        "let s = ''; for (const x of xs) { if (s.length < 0) break; s += x; } return s.length;",
        "let s = ''; for (const x of xs) { if (!s.endsWith(',')) s += x; } return s.length;",
        "let s = ''; for (const x of xs) { for (const c of [x]) s += c; } return s.length;",
        "let s = ''; for (const x of xs) { if (s.length < 0) break; for (const c of [x]) s += c; "
        "} return s.length;",
    ],
)
def test_appends_are_linear(program: str) -> None:
    # 5,000 then 50,000 appends of 20 characters (1,000,000 in all), CPU time: step by step,
    # each copied the text so far (37 to 97 times the time for 10 times the appends); built
    # as pieces, about 10 times. The bound leaves 2.5 times that: the point is the shape.
    small = min(_appends(5_000, program) for _ in range(2))
    large = _appends(50_000, program)
    assert large < 25 * small + 0.2, (small, large)
