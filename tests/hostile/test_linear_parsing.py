"""Each parsing phase takes time linear in its input (SPEC.md section 7): an input 4 times larger
takes about 4 times longer, far from the 16 times of a quadratic phase. The check is a ratio of
the best of several runs (no absolute time windows), with room for noise: under 8."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import pytest

from dialectic.frontends import to_tree
from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import parse_plan
from dialectic.frontends.plan.letbranch import branch_lets
from dialectic.frontends.plan.lexer import lex
from dialectic.limits import Limits
from dialectic.registry.registry import closest

REPEATS = 3
MAX_RATIO = 8.0
ROOMY = Limits(max_nodes=10_000_000)


def best_time(work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        gc.collect()
        gc.disable()  # a collection during one measurement is noise, not the phase's cost
        try:
            started = time.thread_time()  # CPU time: immune to the machine's load
            work()
            best = min(best, time.thread_time() - started)
        finally:
            gc.enable()
    return best


def assert_linear(make: Callable[[int], Callable[[], object]], n: int) -> None:
    small, large = make(n), make(4 * n)
    small()  # warm caches and imports
    ratio = best_time(large) / max(best_time(small), 1e-6)
    assert ratio < MAX_RATIO, f"4x the input took {ratio:.1f}x the time"


def _comments(n: int) -> Callable[[], object]:
    source = "/**/" * n + "return 1;"
    return lambda: parse_plan(source).tree


def _method_chains(n: int) -> Callable[[], object]:
    # many chains of 40 calls (each within the nesting limit), with the source map read
    source = "".join(f"a{i} = 'x'{'.upper()' * 40};\n" for i in range(n)) + "return a0;"

    def work() -> object:
        return len(parse_plan(source).spans)

    return work


def _plan2_keys(n: int) -> Callable[[], object]:
    source = "result: x\n" + "".join(f"k{i}: 1\n" for i in range(n))
    return lambda: to_tree(source, "plan2", limits=ROOMY).tree


def _many_problems(n: int) -> Callable[[], object]:
    source = "result: 1\n" + "a: b\n" * n

    def work() -> object:
        try:
            to_tree(source, "plan2", limits=ROOMY)
        except SourceError as exc:
            return exc.render()
        raise AssertionError("expected duplicate keys")

    return work


def _plan_problems(n: int) -> Callable[[], object]:
    source = "".join(f"a{i} = f(1 +);\n" for i in range(n)) + "return 1;"

    def work() -> object:
        try:
            parse_plan(source)
        except SourceError as exc:
            return exc.render()
        raise AssertionError("expected syntax errors")

    return work


def _trailing_whitespace(n: int) -> Callable[[], object]:
    # (also what a fenced reply becomes: the text around the fence blanked to spaces)
    source = "return 1;" + " \n" * n
    return lambda: parse_plan(source).tree


def _failed_tokens(n: int) -> Callable[[], object]:
    # tokens the fast lexer tries and fails, each over the rest of a long run: a number glued
    # to a name, quotes and backticks escaped, unterminated block comments (each was
    # quadratic: 10,000 pieces took 1-7 s)
    sources = ["return " + piece * n + "x;" for piece in ("1", "'\\", "`\\", "`x\\", "/*x")]

    def work() -> object:
        for source in sources:
            try:
                parse_plan(source)
            except SourceError:
                pass
            else:
                raise AssertionError(f"expected a syntax error: {source[:20]}")
        return None

    return work


def _suggestions(n: int) -> Callable[[], object]:
    names = [f"function_number_{i}_of_the_registry" for i in range(n)]
    return lambda: closest("function_numbr_7_of_the_registry", names)


def _function_uses(n: int) -> Callable[[], object]:
    # each use of a function binds its argument to a hidden name (`_argN`): the search for a
    # free one went from `_arg1` at each use (quadratic: 3,000 uses took 4 s)
    source = "function f(x) { return x + 1; }\n" + "".join(
        f"const a{i} = f({i});\n" for i in range(n)
    )
    source += "return a0;"
    return lambda: parse_plan(source, max_depth=100).tree


def _format_calls(n: int) -> Callable[[], object]:
    # each `x.format(...)` asked whether the text holds `Format` (a search of the whole text per
    # call: quadratic)
    source = "const fmt = {a: 1};\n" + "".join(f"const a{i} = fmt.format({i});\n" for i in range(n))
    return lambda: parse_plan(source + "return a0;").tree


def _item_loops(n: int) -> Callable[[], object]:
    # loops that change their items (:mod:`.itemwrite`), each over its own array, with reads
    # of each array's length before its loop
    source = "".join(
        f"const xs{i} = await f({i});\nconst n{i} = xs{i}.length;\n"
        f"for (const x of xs{i}) {{ x.k = n{i}; x.j ??= x.k; }}\n"
        for i in range(n)
    )
    return lambda: parse_plan(source + "return xs0;").tree


def _declarations(n: int) -> Callable[[], object]:
    # `const a0 = 0, a1 = 1, ...;` split into a declaration per name (frontends/plan/declsplit)
    source = "const " + ", ".join(f"a{i} = {i}" for i in range(n)) + ";\nreturn a0;"
    return lambda: parse_plan(source).tree


def _labeled_loops(n: int) -> Callable[[], object]:
    # labeled loops, each with inner loops leaving it (frontends/plan/labelloops), and the
    # statements around them; a program of more labels than it reads keeps its refusal
    loop = (
        "outer: for (const a of xs) {{ for (const b of a) {{ if (b > {i}) break outer; "
        "if (b < 0) continue outer; }} }}\n"
    )
    body = "".join(f"const v{i} = {i};\n" for i in range(n))
    source = "const xs = [[1]];\n" + body + "".join(loop.format(i=i) for i in range(8))
    return lambda: parse_plan(source + "return xs;").tree


def _change_statements(n: int) -> Callable[[], object]:
    # change statements outside loops (:mod:`.straight`), each made into the name's next
    # versions: each reads the block's statements since the last (`total` read by the push)
    source = "let total = 0; const xs = []; let s = 'a';\n" + "".join(
        f"total += {i}; xs.push(total); if (total > {i}) total = {i}; s += 'b';\n" for i in range(n)
    )
    return lambda: parse_plan(source + "return [total, xs, s];").tree


def _loop_lets(n: int) -> Callable[[], object]:
    # `let x = ...; if (c) x = ...;` pairs in a loop's body, each read as `const` definitions
    # (frontends/plan/letbranch): each pair's hidden names were searched for in the whole text
    # (quadratic: 9,000 pairs took 14 s); the pass alone, on the lexed tokens
    body = "".join(f"  let x{i} = y + {i};\n  if (x{i} > {n}) x{i} = 0;\n" for i in range(n))
    source = f"let out = 0;\nfor (const y of [1, 2]) {{\n{body}  out += x0;\n}}\nreturn out;"
    tokens = lex(source)
    return lambda: branch_lets(source, tokens)


def _destructurings(n: int) -> Callable[[], object]:
    # each destructuring's hidden aliases (`_parts1`...) were searched for from `_parts1` in
    # the block's aliases (quadratic: 9,000 statements took minutes)
    source = "const o = {a: 1, b: [2, 3]};\n" + "".join(
        f"const {{a: a{i}, b: [b{i}, c{i}]}} = o;\n" for i in range(n)
    )
    return lambda: parse_plan(source + "return a0;").tree


@pytest.mark.parametrize(
    "make,n",
    [
        (_comments, 40_000),
        (_method_chains, 40),
        (_plan2_keys, 1_500),
        (_many_problems, 1_500),
        (_plan_problems, 2_000),
        (_suggestions, 400),
        (_trailing_whitespace, 10_000),
        (_failed_tokens, 2_000),
        (_function_uses, 300),
        (_format_calls, 2_000),
        (_item_loops, 100),
        (_declarations, 3_000),
        (_labeled_loops, 3_000),
        (_change_statements, 250),
        (_loop_lets, 1_000),
        (_destructurings, 300),
    ],
    ids=[
        "comments",
        "method-chains",
        "plan2-keys",
        "plan2-problems",
        "plan-problems",
        "closest",
        "trailing-space",
        "failed-tokens",
        "function-uses",
        "format-calls",
        "item-loops",
        "declarations",
        "labeled-loops",
        "change-statements",
        "loop-lets",
        "destructurings",
    ],
)
def test_phase_is_linear(make: Callable[[int], Callable[[], object]], n: int) -> None:
    assert_linear(make, n)
