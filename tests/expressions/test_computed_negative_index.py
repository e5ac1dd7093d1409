"""A negative index the program computes names no item, as in JavaScript (SPEC 1.2): the
previous item at the first index, `xs[i - 1] ?? 0`, is the default, never the last item (a
wrong answer found by probing model idioms). Only a literal negative index counts from the
end (a documented difference, SPEC 10)."""

from __future__ import annotations

from dialectic import Runtime

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "return nums.map((n, i, arr) => n - (arr[i - 1] ?? 0));",
    "return nums.map((n, i) => i > 0 ? n - nums[i - 1] : n);",
    "return s[n - 8] ?? 'none';",
    "return nums.map((n, i) => nums[i - 1] === undefined ? 'first' : 'more');",
    "return words.map((w, i) => (words[i - 1] || '') + w);",
    "const i = n - 10;\nreturn [nums[i] ?? 'none', nums?.[i] ?? 'none'];",
    "const d = {a: [1, 2]};\nconst k = -1;\nreturn d.a[k] ?? 'none';",
]


def test_computed_negative_indexes_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def test_a_computed_negative_index_read_as_required_fails_with_a_hint() -> None:
    out = RT.run("return nums.map((n, i) => nums[i - 1]);", lang="plan", context={"nums": [1]})
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "index_out_of_range"
    assert "the computed index -1 is before the start of an array" in (out.message or "")
    assert "line 1, column 27" in (out.message or "")
    assert "xs.at(-1)" in (out.error.hint or "")
    # the same tree in Dialect JSON means the same
    tree = {"$get": [[1, 2], {"$op": ["-", 0, 1]}]}
    failed = RT.run(tree, lang="json")
    assert failed.status == "failure" and failed.error is not None
    assert failed.error.code == "index_out_of_range"


def test_a_literal_negative_index_still_counts_from_the_end() -> None:
    # (SPEC 10's table: `xs[-1]` is the last item, where Node gives undefined)
    out = RT.run("return [nums[-1], s[-1]];", lang="plan", context={"nums": [1, 2], "s": "ab"})
    assert out.status == "success" and out.value == [2, "b"]
