"""Stacks and queues (SPEC 10, "Stacks and queues"; :mod:`dialectic.frontends.plan.worklist`):
``pop()`` and ``shift()`` on an array the program made, in loops and straight-line code, give
Node's answer, each in O(1) (a queue of 64,000 items drains in the time per item of 1,000);
on any other array they stay refused with what to write instead."""

from __future__ import annotations

import time

import pytest

from dialectic import Limits, Runtime

from .program_generator import CONTEXT
from .program_oracle import judge, node_answers, runs_as_in_node, runtime
from .worklist_programs import worklist_programs

RT: Runtime = runtime()

#: a tree, as a program writes it (the context's values are Node's too)
TREE = (
    "{name: 'root', children: [{name: 'a', children: [{name: 'a1'}, {name: 'a2', children: []}]},"
    " {name: 'b', children: [{name: 'b1', children: [{name: 'b11'}]}]}]}"
)

PROGRAMS = [
    # the worklists of the brief: a queue drained, a stack walk of a tree, a BFS with calls
    "const queue = [...nums]; const seen = [];\n"
    "while (queue.length > 0) { const x = queue.shift(); seen.push(x); }\nreturn seen;",
    f"const tree = {TREE};\nconst stack = [tree]; const names = [];\n"
    "while (stack.length) {\n  const node = stack.pop(); names.push(node.name);\n"
    "  for (const c of node.children ?? []) stack.push(c);\n}\nreturn names;",
    "const stack = [data]; let count = 0;\n"
    "while (stack.length) {\n  const node = stack.pop(); count++;\n"
    "  for (const c of node.children ?? []) stack.push(c);\n}\nreturn count;",
    "const queue = [0]; const out = [];\nwhile (queue.length) {\n  const id = queue.shift();\n"
    "  const kids = id < 5 ? [id * 2 + 1, id * 2 + 2] : [];\n"
    "  const item = await echo({name: 'n' + id, children: kids});\n"
    "  out.push(item.name);\n  queue.push(...item.children);\n}\nreturn out;",
    # pushes while draining; reads of the length and the ends see the current state
    "const todo = [...nums]; const out = [];\nwhile (todo.length) {\n  const x = todo.pop();\n"
    "  out.push([x, todo.length, todo.at(-1) ?? null, todo.at(0) ?? null]);\n"
    "  if (x > 5) todo.push(x - 5);\n}\nreturn out;",
    "const q = [...words]; const out = [];\nwhile (q.length > 0) {\n  const w = q.shift();\n"
    "  if (w.length > 3) { q.push(w.slice(2)); }\n  out.push(w, q.length, q[0] ?? null);\n}\n"
    "return out;",
    "const q = [[1, 2], [3]]; const out = [];\nwhile (q.length) {\n  const p = q.shift();\n"
    "  out.push(p.length);\n  if (p.length > 1) q.push(p.slice(1));\n}\nreturn out;",
    # do...while, for...of, forEach, break, `x = q.shift()` of a `let`
    "const s1 = [1, 2, 3]; const r = []; let i = 0;\n"
    "do { const y = s1.pop(); r.push(y ?? null); i++; } while (i < 5);\nreturn r;",
    "const q = [...nums]; const out = [];\nfor (const w of words) {\n  const y = q.pop();\n"
    "  if (y === undefined) break;\n  out.push(w + y);\n}\nreturn out;",
    "const q = [1, 2, 3]; const out = [];\nnums.forEach(x => { const y = q.shift(); "
    "out.push(y ?? null); });\nreturn [out, q.length];",
    "const q = [...nums]; let a = 0;\nwhile (q.length) { a = q.shift(); if (a > 5) break; }\n"
    "return [a, q.length, q.at(0), q[0], q.at(-1), q.includes(0), q.join()];",
    # straight-line code; an empty array's pop and shift are undefined
    "const s1 = [1, 2]; const a = s1.pop(); const b = s1.pop(); const c = s1.pop();\n"
    "return [a, b, c, s1.length];",
    "const q = [1, 2]; const a = q.shift(); q.push(3); const b = q.shift();\n"
    "return [a, b, q.length, q.at(-1)];",
    # (refused before: a change in an alias nothing reads; SPEC 1.8)
    "const out = [1, 2];\nconst r = out.pop();\nreturn out;",
    "const out = [1, 2];\nout.shift();\nreturn out;",
    "const s1 = []; return s1.pop();",
    "const q = []; return q.shift();",
    "const s1 = [1, 2, 3]; s1.pop(); s1.push(9); return s1;",
    "const q = [1, 2, 3]; q.shift(); q.shift(); return q;",
    "const s1 = [1, 2]; while (s1.length) { const v = s1.pop(); if (v === 1) return s1.pop(); }\n"
    "return 'none';",
    "const q = [1, 2, 3]; if (q.length > 2) { return q.shift(); } return 0;",
]


def test_worklists_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def test_random_worklists_give_what_node_gives_or_are_refused() -> None:
    """Random stacks and queues (some used in ways JavaScript would share or change
    otherwise): never another answer than Node's, never a crash; most run."""
    programs = worklist_programs(7, 240)
    same = 0
    for text, answer in zip(programs, node_answers(programs), strict=True):
        verdict = judge(RT, text, answer)
        assert verdict.kind in ("same", "refused"), (text, verdict.detail)
        same += verdict.kind == "same"
    assert same > 0.7 * len(programs), same


@pytest.mark.parametrize(
    ("text", "method"),
    [
        ("const q = echo(nums); return [q.pop(), q];", "pop"),  # a function's result
        ("const q = [1, 2]; return [q.shift(), q];", "shift"),  # inside an expression
        ("const q = [1, 2]; const r = nums.map(x => { q.pop(); return x; }); return r;", "pop"),
        ("function take() { return q.shift(); } const q = [1]; return take();", "shift"),
    ],
)
def test_what_javascript_would_share_is_refused(text: str, method: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert f"{method}() changes the array in place" in out.error.message, out.error.message
    assert out.error.hint and "Build a new array instead" in out.error.hint
    assert f"const x = todo.{method}()" in out.error.hint


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # (a statement `q.shift();` is a change of the block: SPEC 10, "Changes outside loops")
        ("const q = nums; q.shift(); return q;", "`q` is not an array the program made"),
        (
            "const q = [1, 2]; const keep = q; q.shift(); return keep;",
            "`q` is read whole before `q.shift()` changes it",
        ),
        (
            "const q = [1, 2]; const out = []; out.push(q); q.pop(); return out;",
            "`q` is read before the statement changes it",
        ),
    ],
)
def test_a_shared_array_is_refused_at_its_change(text: str, message: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert message in out.error.message, out.error.message
    assert out.error.hint


def test_a_deque_of_the_block_runs_as_in_node() -> None:
    runs_as_in_node(["const q = [1, 2, 3]; q.pop(); q.shift(); return q;"], RT)


def test_an_endless_worklist_stops_at_max_steps() -> None:
    rt = Runtime(load_entry_points=False, limits=Limits(max_steps=20_000))
    out = rt.run(
        "const q = [1];\nwhile (q.length) { const x = q.shift(); q.push(x); }\nreturn 1;",
        lang="plan",
    )
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "limit_exceeded" and out.error.details["limit"] == "max_steps"
    assert out.error.line == 2


def _growth(text: str) -> tuple[float, float]:
    """The CPU time per item of ``text`` over 1,000 and over 64,000 items (each the best of 3
    runs of one prepared program; its value is the count of items taken)."""
    prepared = Runtime(load_entry_points=False).prepare(text, lang="plan")
    per_item: list[float] = []
    for n in (1_000, 64_000):
        times = []
        for _ in range(3):
            start = time.process_time()
            out = prepared.run({"xs": list(range(n)), "n": n})
            times.append(time.process_time() - start)
            assert out.status == "success" and out.value == n, out.message
        per_item.append(min(times) / n)
    return per_item[0], per_item[1]


@pytest.mark.parametrize(
    "text",
    [
        "const queue = [...xs]; const seen = [];\n"
        "while (queue.length > 0) { const x = queue.shift(); seen.push(x); }\nreturn seen.length;",
        "const stack = [...xs]; let count = 0;\n"
        "while (stack.length) { const x = stack.pop(); count++; }\nreturn count;",
        # a BFS and a DFS over a binary tree of n nodes: pushes and takes interleaved
        "const queue = [0]; let count = 0;\nwhile (queue.length) {\n  const x = queue.shift();"
        " count++;\n  if (x * 2 + 1 < n) queue.push(x * 2 + 1);\n"
        "  if (x * 2 + 2 < n) queue.push(x * 2 + 2);\n}\nreturn count;",
        "const stack = [0]; let count = 0;\nwhile (stack.length) {\n  const x = stack.pop();"
        " count++;\n  if (x * 2 + 1 < n) stack.push(x * 2 + 1);\n"
        "  if (x * 2 + 2 < n) stack.push(x * 2 + 2);\n}\nreturn count;",
    ],
)
def test_a_worklist_drains_linearly(text: str) -> None:
    small, large = _growth(text)
    # generous: CPU time per item moves with the machine's load and the heap's size (1.3x
    # failed under load); a copy or list.pop(0) per take is ~64x
    assert large < 4 * small, (small, large)
