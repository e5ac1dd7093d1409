"""A large hostile program fails where its size is known to pass a limit, not after it is read
in full (:mod:`dialectic.frontends.budget`): Plan counts the nodes of each statement as it
reads it (`max_nodes`), an array or object literal its items, and Plan2 each alias; the
reading also stops at the run's deadline (`limit_exceeded`, `deadline`). A program of a
megabyte of arrows took 13 s to fail before (it was read, then measured, then read again for
the place of the node past the limit), one of function uses 20 s.

Each shape is run at 100 KB and at 1 MB (under `max_program_bytes`): the same outcome, at the
same line, and the megabyte costs about ten times the 100 KB (the lexer and the token passes
before the parse read the whole text; the parse stops where it stopped at 100 KB) - a cost
that grew with the size times the place (quadratic) would be a hundred times."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

import pytest

from dialectic import Limits, Runtime

RT = Runtime(load_entry_points=False)


def _repeat(head: str, line: Callable[[int], str], tail: str, size: int) -> str:
    out, n, i = [head], len(head), 0
    while n < size:
        text = line(i)
        out.append(text)
        n += len(text)
        i += 1
    out.append(tail)
    return "".join(out)


SHAPES: dict[str, Callable[[int], str]] = {
    "arrows": lambda n: _repeat(
        "const xs = [1, 2, 3];\n",
        lambda i: f"const a{i} = xs.map(x => x + {i});\n",
        "return a0;",
        n,
    ),
    "regexes": lambda n: _repeat(
        'const s = "abc";\n', lambda i: f'const r{i} = s.replace(/b{i}+/g, "x");\n', "return r0;", n
    ),
    "function uses": lambda n: _repeat(
        "function f(x) { const y = x * 2; return y + 1; }\n",
        lambda i: f"const v{i} = f({i});\n",
        "return v0;",
        n,
    ),
    "templates": lambda n: _repeat(
        'const n = "a";\n', lambda i: f"const t{i} = `x${{n}}y{i}${{n}}`;\n", "return t0;", n
    ),
    "objects": lambda n: _repeat(
        "",
        lambda i: f'const o{i} = {{a: {i}, b: "x", c: [1, 2], d: {{e: true}}}};\n',
        "return o0;",
        n,
    ),
    "nested arrays": lambda n: _repeat(
        "", lambda i: f"const n{i} = [[1, [2, [3, [{i}]]]], [4]];\n", "return n0;", n
    ),
    "loops": lambda n: _repeat(
        "const xs = [1]; let t = 0;\n",
        lambda i: f"for (const x of xs) {{ t += x * {i}; }}\n",
        "return t;",
        n,
    ),
    "try/catch": lambda n: _repeat(
        "",
        lambda i: f'let e{i}; try {{ e{i} = JSON.parse("{i}"); }} catch (err) {{ e{i} = null; }}\n',
        "return e0;",
        n,
    ),
    "switch": lambda n: _repeat(
        'const k = "q";\n',
        lambda i: f'let s{i}; switch (k) {{ case "a": s{i} = 1; break; default: s{i} = {i}; }}\n',
        "return s0;",
        n,
    ),
    "long chains": lambda n: _repeat(
        "const xs = [1, 2, 3];\n",
        lambda i: f'const c{i} = xs.filter(x => x > 1).map(x => x * {i}).slice(0, 2).join(",");\n',
        "return c0;",
        n,
    ),
    "if/else": lambda n: _repeat(
        "const k = 3; let r = 0;\n",
        lambda i: f"if (k === {i}) {{ r = {i}; }} else {{ r = r + 1; }}\n",
        "return r;",
        n,
    ),
    "one array": lambda n: "const xs = [" + ",".join(map(str, range(n // 7))) + "];\nreturn xs[0];",
}

SMALL, LARGE = 100_000, 980_000


def _run(text: str, lang: str = "plan", rt: Runtime = RT) -> tuple[float, str, int]:
    """The CPU seconds of a run, the limit it breached ('' if it succeeded) and the line."""
    started = time.process_time()
    out = rt.run(text, lang=lang)
    spent = time.process_time() - started
    if out.status == "success":
        return spent, "", 0
    assert out.error is not None and out.error.code == "limit_exceeded", out.message
    found = re.search(r"line (\d+)", out.message or "")
    return spent, str(out.error.details.get("limit")), int(found.group(1)) if found else 0


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_megabyte_fails_where_a_hundred_kilobytes_does(shape: str) -> None:
    RT.run("return 1;", lang="plan")  # (the imports, before the clock)
    small = min(_run(SHAPES[shape](SMALL)) for _ in range(2))
    large = _run(SHAPES[shape](LARGE))
    assert large[1] == "max_nodes", (shape, large)
    if small[1]:  # (failed at 100 KB too: at the same statement)
        assert small[1:] == large[1:], (shape, small, large)
    assert large[0] < 14 * max(small[0], 0.02), (shape, small, large)


def test_the_place_is_the_statement_that_passes_the_limit() -> None:
    out = RT.run(SHAPES["arrows"](LARGE), lang="plan")
    assert out.error is not None and out.error.details.get("limit") == "max_nodes"
    assert "counted up to this statement" in (out.message or "")
    line = int(re.search(r"line (\d+)", out.message or "").group(1))  # type: ignore[union-attr]
    assert 500 < line < 5_000, out.message  # (a few nodes per statement, 20,000 in all)


def test_a_program_under_the_limit_still_runs() -> None:
    text = SHAPES["arrows"](30_000)  # (about 800 statements of 14 nodes)
    out = RT.run(text, lang="plan")
    assert out.status == "success", out.message
    raised = Runtime(load_entry_points=False, limits=Limits(max_nodes=10_000_000))
    out = raised.run(SHAPES["nested arrays"](200_000), lang="plan")
    assert out.status == "success", out.message


def test_the_deadline_bounds_the_reading() -> None:
    slow = Runtime(
        load_entry_points=False,
        limits=Limits(deadline=0.001, max_nodes=10_000_000, max_calls=10_000_000),
    )
    for shape in ("arrows", "function uses", "if/else"):
        out = slow.run(SHAPES[shape](300_000), lang="plan")
        assert out.status == "failure" and out.error is not None, shape
        assert out.error.details.get("limit") == "deadline", (shape, out.message)
        assert "longer than the run's deadline of 0.001 s" in (out.message or "")
    text = "\n".join(f"a{i}: ${{[1, 2].indexOf({i}) + {i}}}" for i in range(5_000))
    out = slow.run(text + "\nresult: ${a0}\n", lang="plan2")
    assert out.error is not None and out.error.details.get("limit") == "deadline", out.message


def test_plan2_and_json_fail_at_max_nodes_promptly() -> None:
    def plan2(n: int) -> str:
        lines = (f"a{i}: ${{[1, 2, 3].indexOf({i}) + {i}}}" for i in range(n))
        return "\n".join(lines) + "\nresult: ${a0}\n"

    def dialect(n: int) -> str:
        lets = {f"a{i}": {"$op": ["+", {"$method": [[1, 2], "indexOf", i]}, i]} for i in range(n)}
        return json.dumps({"$let": lets, "$return": {"$ref": "a0"}})

    for make, lang, small, large in (
        (plan2, "plan2", 2_500, 20_000),
        (dialect, "json", 3_000, 12_000),
    ):
        cheap = min(_run(make(small), lang) for _ in range(2))
        dear = _run(make(large), lang)
        assert cheap[1] == dear[1] == "max_nodes", (lang, cheap, dear)
        assert dear[0] < 14 * max(cheap[0], 0.02), (lang, cheap, dear)
