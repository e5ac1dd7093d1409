"""A member set on an object the block wrote (`stats.avg = sum / n;`, `o[k] = v;`) is a new
version of the alias (SPEC 10, "Semantics"): Node's answer, or a refusal where JavaScript's
shared object would show the change elsewhere."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "const stats = { min: Math.min(...nums), max: Math.max(...nums) };\n"
    "stats.avg = nums.reduce((a, b) => a + b, 0) / nums.length;\nreturn stats;",
    "const o = {a: 1, b: 2};\no.a = 5;\no['c'] = o.a + 1;\nconst k = 'd';\no[k] = [o.b];\n"
    "return [o, Object.keys(o)];",
    "const r = {};\nr.count = people.length;\nr.names = people.map(p => p.name);\n"
    "return JSON.stringify(r);",
    "const o = {x: 1};\nconst before = o.x;\no.x = 2;\nreturn [before, o.x];",
    "const result = {};\nfor (const p of people) { result[p.name] = p.age; }\n"
    "result.total = Object.values(result).reduce((a, b) => a + b, 0);\nreturn result;",
    "const o = {n: 1};\nfunction get() { return o.n; }\no.n = 7;\nreturn get();",
    "if (flag) {\n  const o = {a: 1};\n  o.b = 2;\n  return o;\n}\nreturn null;",
    # a deep copy (`JSON.parse(JSON.stringify(o))`) is an object the program wrote
    "const d = JSON.parse(JSON.stringify(data));\nd.a = 100;\nreturn [d.a, data.a];",
    "const d = JSON.parse(JSON.stringify(data.d));\nd.f = false;\nd.x = [1];\nreturn [d, data.d];",
    "const c = structuredClone(data.d);\nc.f = false;\n"
    "return [c, data.d, structuredClone(people)];",
    "let v = [1];\nfor (let i = 0; i < 3; i++) v = [v, v];\n"
    "return JSON.stringify(structuredClone(v));",
]


def test_a_member_set_gives_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        (
            "const o = {x: 1};\nconst keep = o;\no.x = 2;\nreturn keep.x;",
            "`o` (defined at line 1, column 7) is read whole before this change",
            3,
            1,
        ),
        ("const o = data;\no.a = 2;\nreturn data.a;", "is not one the program made here", 2, 1),
        ("const o = {x: 1};\no.self = o;\nreturn 1;", "holds `o` itself", 2, 10),
        (
            "const o = {n: 1};\nfunction get() { return o.n; }\nconst a = get();\no.n = 7;\n"
            "return [a, o.n];",
            "the function `get` (line 2, column 10) reads `o`",
            3,
            11,
        ),
        # (JavaScript's TypeError: a member of a number; SPEC 10, a part's change)
        ("const o = {x: 1};\no.x.y = 2;\nreturn o;", "a member set on a number", 2, 1),
    ],
)
def test_a_shared_object_is_refused(text: str, message: str, line: int, column: int) -> None:
    out = RT.run(text, lang="plan", context={"data": {"a": 1}})
    assert out.status == "failure" and out.error is not None, out.value
    assert message in out.error.message, out.error.message
    assert (out.error.line, out.error.column) == (line, column), out.message


def test_changes_are_bounded() -> None:
    text = "const o = {};\n" + "".join(f"o.k{i} = {i};\n" for i in range(70)) + "return o;"
    out = RT.run(text, lang="plan")
    assert out.status == "failure" and out.error is not None
    assert "changed more than 64 times" in out.error.message


def test_structured_clone_copies_each_value_once_at_any_depth() -> None:
    from dialectic.values.jsextras import structured_clone

    shared: list[object] = [1]
    for _ in range(60):  # 2**60 paths, 61 distinct arrays: one copy each, sharing kept
        shared = [shared, shared]
    copy = structured_clone(shared)
    assert copy is not shared and copy[0] is copy[1]
    deep: list[object] = []
    cur = deep
    for _ in range(100_000):  # (no recursion)
        nxt: list[object] = []
        cur.append(nxt)
        cur = nxt
    assert structured_clone(deep) is not deep
