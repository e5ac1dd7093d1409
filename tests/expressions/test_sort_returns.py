"""``return xs.sort(c)...;`` and ``const t = xs.sort(c)...;`` where the program reads ``xs``
elsewhere (:mod:`dialectic.frontends.plan.sortreturns`): read as the statement ``xs.sort(c);``
first, which is JavaScript's meaning (``sort`` gives the same array), so they run where the
array is one the program made and is not read whole before; the rest stays refused, at the
place of the reorder."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    # the search-and-dedupe program models write
    "const seen = new Set(); const merged = [];\n"
    "for (const x of [3, 1, 2, 3]) if (!seen.has(x)) { seen.add(x); merged.push(x); }\n"
    "return merged.sort((a, b) => a - b);",
    "const merged = [];\nfor (const x of nums) if (!merged.includes(x)) merged.push(x);\n"
    "return merged.sort((a, b) => b - a).map(x => x * 2);",
    "const xs = [3, 1, 2];\nconst len = xs.length;\nreturn xs.sort().concat([len]);",
    "const out = [3, 1, 2];\nconst k = out.length;\nreturn out.sort().slice(0, 2).concat([k]);",
    "const out = people.map(p => p.name);\nconst len = out.length;\n"
    "return out.reverse().concat([len]);",
    "const out = people.map(p => p.age);\nconst top = out.sort((a, b) => b - a).slice(0, 2);\n"
    "return [top, out];",
    "const out = people.map(p => p.age);\nconst sorted = out.sort((a, b) => a - b);\n"
    "return [sorted, out, sorted.length];",
    "let names = people.map(p => p.name);\nconst count = names.length;\n"
    "let best = names.sort((a, b) => b.localeCompare(a))[0];\nreturn {best, count, names};",
    "const r = await echo([5, 3, 4]);\nconst total = r.reduce((a, b) => a + b, 0);\n"
    "const sorted = r.sort((a, b) => a - b);\nreturn {total, sorted};",
    "function top(a) {\n  const c = [...a];\n  const len = c.length;\n"
    "  return c.sort((x, y) => y - x)[0] + len;\n}\nreturn top(nums);",
    "const out = [];\nfor (const p of people) out.push({name: p.name, age: p.age});\n"
    "return out.sort((a, b) => a.age - b.age).map(p => p.name);",
    # one read only: the expression, as before (names declared or keys elsewhere are no reads)
    "const {tags} = people[0];\nreturn tags.reverse();",
    "const xs = [3, 1];\nconst f = (xs) => xs.length;\nreturn xs.sort();",
    "const o = {xs: 1};\nconst xs = [3, 1];\nreturn xs.sort().concat([o.xs]);",
    "const xs = [2, 1];\nreturn xs.sort();",
    "return nums.sort((a, b) => a - b);",
]


def test_they_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        # read whole before: JavaScript's `keep` is the same array, sorted
        (
            "const out = [3, 1];\nconst keep = out;\nreturn [keep, out.sort()][0];",
            "reorders `out` itself in JavaScript, and the program reads `out` elsewhere",
            3,
        ),
        (
            "const out = [3, 1];\nconst keep = out;\nreturn out.sort();",
            "`out` is read whole before `sort()` reorders it",
            3,
        ),
        # the context's array: someone else holds it
        (
            "const n = nums.length;\nreturn nums.sort();",
            "reorders `nums` itself in JavaScript, and the program reads `nums` elsewhere",
            2,
        ),
        # the sorted array changed after: `sorted` is the same array in JavaScript
        (
            "const out = [3, 1];\nconst sorted = out.sort();\nout.push(0);\nreturn sorted;",
            "`out` is read before the statement changes it",
            2,
        ),
        # the body of an `if` without braces is left as written (its statement would run always)
        (
            "const out = [3, 1];\nconst n = out.length;\nif (n > 5) return out.sort();\n"
            "return out;",
            "reorders `out` itself in JavaScript, and the program reads `out` elsewhere",
            3,
        ),
        # the comparator reads the array being reordered
        (
            "const out = [3, 1];\nconst n = out.length;\n"
            "return out.sort((a, b) => out.indexOf(a) - b);",
            "the comparator reads `out`",
            3,
        ),
    ],
)
def test_refused_where_javascript_would_differ(text: str, message: str, line: int) -> None:
    out = RT.run(text, lang="plan", context={"nums": [3, 1, 2]})
    assert out.status == "failure", (text, out.value)
    assert out.error is not None
    assert message in (out.message or ""), out.message
    assert f"line {line}," in (out.message or ""), out.message
