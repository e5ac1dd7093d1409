"""Consecutive ``push`` statements onto one array at the top of the program, read as one push
(:mod:`dialectic.frontends.plan.pushruns`): Node's answer, and a run time that grows with the
number of pushes, not its square; pushes whose later arguments could fail, run something or
read the array stay statements of their own."""

from __future__ import annotations

import gc
import time

from dialectic import Runtime
from dialectic.frontends.plan import parse_plan
from dialectic.limits import Limits
from dialectic.tree.measure import size

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "const xs = [];\nxs.push(1);\nxs.push('a', 2);\nxs.push();\nxs.push([3], {k: 4});\nreturn xs;",
    "const rows = [];\nconst a = 1, b = 'x';\nrows.push({name: b, n: a + 1});\nrows.push(a * 2);\n"
    "rows.push(!a, a ?? b, a > 0 && b);\nreturn rows;",
    # the first push's arguments may read the array (they are evaluated first anyway)
    "const xs = [5];\nxs.push(xs.length);\nxs.push(7);\nxs.push(8,);\nxs.push(9);\nreturn xs;",
    # a later argument reading the array, calling, reading a member: pushes of their own
    "const xs = [1];\nxs.push(2);\nxs.push(xs.length);\nxs.push(3);\nreturn xs;",
    "const xs = [];\nxs.push(1);\nxs.push(echo(2));\nxs.push(3);\nreturn xs;",
    "const xs = [];\nxs.push(1);\nxs.push(data.a);\nxs.push(...nums);\nxs.push(`${nums[0]}`);\n"
    "return xs;",
    "const xs = [], ys = [];\nxs.push(1);\nys.push(2);\nxs.push(3);\nys.push(xs.length);\n"
    "return [xs, ys];",
    # inside a block, a loop, a function: as written
    "const xs = [];\nif (nums.length) { xs.push(1); xs.push(2); }\nfor (const n of nums) "
    "{ xs.push(n); xs.push(-n); }\nfunction f(a) { const o = []; o.push(a); o.push(a); "
    "return o; }\nreturn [xs, f(3)];",
    "const xs = [];\nxs.push(1)\nxs.push(2)\nreturn xs;",
    "let xs = [0];\nxs.push(1);\nxs.push(2);\nxs = [9];\nxs.push(3);\nxs.push(4);\nreturn xs;",
]


def test_pushes_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def test_a_run_is_one_push() -> None:
    tree = parse_plan("const xs = [];\nxs.push(1);\nxs.push(2);\nxs.push(3);\nreturn xs;").tree
    assert str(tree).count("$spread") == 1


def test_a_failing_later_push_fails_at_its_place() -> None:
    out = RT.run("const xs = [];\nxs.push(1);\nxs.push(2, nope);\nreturn xs;")
    assert not out.ok and out.error is not None
    message = out.to_json()["message"]
    assert "nope" in message and "line 3, column 12" in message, message


def _run_time(n: int) -> float:
    rt = Runtime(load_entry_points=False, limits=Limits(max_nodes=1_000_000))
    text = "const xs = [];\n" + "".join(f"xs.push({i});\n" for i in range(n)) + "return xs.length;"
    prepared = rt.prepare(text)
    best = float("inf")
    for _ in range(3):
        gc.collect()
        started = time.thread_time()
        out = prepared.run()
        best = min(best, time.thread_time() - started)
        assert out.ok and out.value == n
    return best


def test_many_pushes_run_in_linear_time() -> None:
    # each push statement copied the array so far (quadratic: 9,000 pushes took a second)
    # (9x the pushes: 81x the time if quadratic; a generous bound on about 9x)
    small, large = _run_time(1_000), _run_time(9_000)
    assert large / max(small, 1e-6) < 27, (small, large)


def test_a_run_makes_a_node_per_item() -> None:
    # one version of the array, whatever the number of pushes: its nodes grow by one an item
    def nodes(n: int) -> int:
        text = "const xs = [];\n" + "".join(f"xs.push({i});\n" for i in range(n))
        return size(parse_plan(text + "return xs;").tree)

    assert nodes(9_000) - nodes(1_000) == 8_000
