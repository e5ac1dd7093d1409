"""The group-by with a Map, and the read-push-write-back with a Map or an object, as models write
them in loops, ``forEach`` and ``reduce`` steps (SPEC 10, "Loops"; :mod:`.mappush`,
:mod:`.writeback` and :mod:`dialectic.resolve.mapinner` in ``dialectic``): Node's answer,
linear in the items; a Map whose arrays JavaScript would share is refused with what to write."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime
from .test_member_pushes import _per_item

RT: Runtime = runtime()

PROGRAMS = [
    # `if (!g.has(k)) g.set(k, []); g.get(k).push(x);` and the reads after the loop
    "const g = new Map();\nfor (const p of people) {\n  const c = p.city ?? 'none';\n"
    "  if (!g.has(c)) g.set(c, []);\n  g.get(c).push(p.name);\n}\nreturn Object.fromEntries(g);",
    "const g = new Map();\nfor (const w of words) {\n  if (!g.has(w.length)) g.set(w.length, []);\n"
    "  g.get(w.length).push(w);\n}\nreturn [[...g], [...g.entries()], [...g.keys()], g.size];",
    "const g = new Map();\nfor (const w of words) {\n"
    "  if (!g.get(w.length)) { g.set(w.length, []); }\n"
    "  g.get(w.length).push(w, w.length);\n}\nreturn [g.get(6).length, g.get(5), g.get(99)];",
    "const g = new Map();\nfor (const w of words) {\n  g.has(w.length) || g.set(w.length, []);\n"
    "  g.get(w.length).push(w);\n}\nconst out = [];\n"
    "for (const [k, v] of g) out.push(k + ':' + v.join('|'));\nreturn out;",
    "const g = new Map();\nfor (const w of words) {\n"
    "  if (g.has(w.length)) g.get(w.length).push(w);\n  else g.set(w.length, [w]);\n}\n"
    "return Array.from(g, ([k, v]) => ({k, n: v.length}));",
    "const g = new Map();\nfor (const w of words) {\n"
    "  if (!g.has(w.length)) g.set(w.length, [w]);\n  else g.get(w.length).push(w);\n}\n"
    "return [...g.values()];",
    "const g = new Map();\nfor (const w of words) {\n"
    "  g.get(w.length)?.push(w, 1) ?? g.set(w.length, [w, 0]);\n}\nreturn [...g];",
    # the read-push-write-back with a Map
    "const g = new Map();\nfor (const w of words) {\n  const k = w.length;\n"
    "  const arr = g.get(k) || [];\n  arr.push(w);\n  g.set(k, arr);\n}\nreturn [...g.entries()];",
    "const g = new Map();\nfor (const w of words) {\n  const arr = g.get(w.length) ?? [];\n"
    "  g.set(w.length, arr);\n  arr.push(w);\n  arr.push(w.length);\n}\nreturn [...g];",
    "const g = new Map();\nfor (const w of words) {\n  const arr = g.get(w.length);\n"
    "  if (arr) arr.push(w);\n  else g.set(w.length, [w]);\n}\nreturn [...g];",
    "const g = new Map();\nfor (const w of words) {\n  const arr = g.get(w.length);\n"
    "  if (!arr) { g.set(w.length, [w]); } else { arr.push(w); }\n}\nreturn [...g];",
    # the read-push-write-back with an object
    "const g = {};\nfor (const w of words) {\n  const k = w.length;\n  const arr = g[k] || [];\n"
    "  arr.push(w);\n  g[k] = arr;\n}\nreturn g;",
    "const g = {};\nfor (const p of people) {\n  const arr = g[p.name[0]] ?? [];\n"
    "  arr.push(p.age);\n  g[p.name[0]] = arr;\n}\nreturn g;",
    "const g = {};\nfor (const w of words) {\n  const arr = g[w.length];\n"
    "  if (arr) arr.push(w);\n  else g[w.length] = [w];\n}\nreturn g;",
    "return words.reduce((acc, w) => {\n  const arr = acc[w.length] || [];\n  arr.push(w);\n"
    "  acc[w.length] = arr;\n  return acc;\n}, {});",
    # `forEach`, `reduce`, `for`, `while`, a loop inside a loop
    "const g = new Map();\nwords.forEach(w => {\n  const arr = g.get(w.length) || [];\n"
    "  arr.push(w);\n  g.set(w.length, arr);\n});\nreturn Object.fromEntries(g);",
    "const g = words.reduce((acc, w) => {\n  if (!acc.has(w.length)) acc.set(w.length, []);\n"
    "  acc.get(w.length).push(w);\n  return acc;\n}, new Map());\nreturn [g.size, [...g]];",
    "return [...words.reduce((acc, w) => {\n  const arr = acc.get(w.length) || [];\n"
    "  arr.push(w);\n  acc.set(w.length, arr);\n  return acc;\n}, new Map())];",
    "const g = new Map();\nfor (let i = 0; i < words.length; i++) {\n  const w = words[i];\n"
    "  if (!g.has(w.length)) g.set(w.length, []);\n  g.get(w.length).push(i);\n}\nreturn [...g];",
    "const g = new Map();\nlet i = 0;\nwhile (i < nums.length) {\n  const x = nums[i];\n"
    "  const k = x > 2 ? 'big' : 'small';\n  if (!g.has(k)) g.set(k, []);\n  g.get(k).push(x);\n"
    "  i++;\n}\nreturn Object.fromEntries(g);",
    "const g = new Map();\nfor (const p of people) {\n  for (const t of p.tags) {\n"
    "    if (!g.has(t)) g.set(t, []);\n    g.get(t).push(p.name);\n  }\n}\nreturn [...g];",
    # a branch, a `break`, a count beside the groups, reads after the loop
    "const g = new Map();\nlet tot = 0;\nfor (const x of nums) {\n  if (x < 0) continue;\n"
    "  tot += x;\n  if (!g.has(x % 2)) g.set(x % 2, []);\n  g.get(x % 2).push(x);\n"
    "  if (tot > 12) break;\n}\nreturn [tot, [...g]];",
    "const g = new Map();\nfor (const w of words) {\n  if (!g.has(w.length)) g.set(w.length, []);\n"
    "  g.get(w.length).push(w);\n}\nconst keep = g.get(6);\nreturn [keep, keep.length, g.get(0)];",
    "const g = new Map();\nfor (const p of people) {\n  const arr = g.get(p.age > 5) || [];\n"
    "  arr.push(p.name);\n  g.set(p.age > 5, arr);\n}\nreturn [...g];",
]


def test_map_group_bys_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


#: a Map's list read where growing it in place would show (an earlier read kept, another key
#: given the list, a list read under another key): the lists copy, Node's answer
SEEN_ELSEWHERE = [
    "const g = new Map();\nconst snaps = [];\nfor (const w of words) {\n"
    "  snaps.push(g.get(w.length));\n  g.set(w.length, [...(g.get(w.length) || []), w]);\n}\n"
    "return snaps;",
    "const g = new Map();\nconst snaps = [];\nfor (const w of words) {\n"
    "  const cur = g.get(w.length);\n  g.set(w.length, [...(cur || []), w]);\n  snaps.push(cur);\n"
    "}\nreturn [snaps, [...g]];",
    "const g = new Map();\nconst out = [];\nfor (const w of words) {\n"
    "  const n = (g.get(1) || []).length;\n  g.set(1, [...(g.get(1) || []), w]);\n  out.push(n);\n"
    "}\nreturn out;",
    "const g = new Map();\nfor (const w of words) {\n"
    "  g.set(w.length, [...(g.get(w.length + 1) || []), w]);\n}\nreturn [...g];",
    "const g = new Map();\nfor (const w of words) {\n"
    "  g.set(w.length, [...(g.get(w.length) || []), w]);\n"
    "  g.set(w.length + 100, g.get(w.length));\n}\nreturn [...g];",
    "const g = new Map();\nconst keep = [];\nfor (const w of words) {\n"
    "  g.set(w.length, [...(g.get(w.length) || []), w]);\n  keep.push([...g.values()]);\n}\n"
    "return keep;",
]


def test_a_list_read_elsewhere_is_copied_as_node_answers() -> None:
    runs_as_in_node(SEEN_ELSEWHERE, RT)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # the arrays start elsewhere: JavaScript's `shared` sees the pushes
        (
            "const g = new Map();\nconst shared = [];\nfor (const w of words) {\n"
            "  if (!g.has(w.length)) g.set(w.length, shared);\n  g.get(w.length).push(w);\n}\n"
            "return shared;",
            "changes the array `g` holds in place",
        ),
        (
            "const g = new Map([[6, []]]);\nfor (const w of words) {\n"
            "  if (!g.has(w.length)) g.set(w.length, []);\n  g.get(w.length).push(w);\n}\n"
            "return [...g];",
            "changes the array `g` holds in place",
        ),
        # an array read into a local and kept: JavaScript's `all` sees the later pushes
        (
            "const g = new Map();\nconst all = [];\nfor (const w of words) {\n"
            "  const arr = g.get(w.length) || [];\n  arr.push(w);\n  g.set(w.length, arr);\n"
            "  all.push(arr);\n}\nreturn all;",
            "`arr` is a local of the loop",
        ),
        # written back under another key: two keys would share one array
        (
            "const g = new Map();\nfor (const w of words) {\n"
            "  const arr = g.get(w.length) || [];\n  arr.push(w);\n  g.set(w.length + 1, arr);\n}\n"
            "return [...g];",
            "`arr` is a local of the loop",
        ),
        # the Map read whole before the last push
        (
            "const g = new Map();\nconst out = [];\nfor (const w of words) {\n"
            "  if (!g.has(w.length)) g.set(w.length, []);\n  out.push(g.get(w.length));\n"
            "  g.get(w.length).push(w);\n}\nreturn out;",
            "changes the array `g` holds in place",
        ),
        # an object's array kept elsewhere
        (
            "const g = {};\nconst all = [];\nfor (const w of words) {\n"
            "  const arr = g[w.length] || [];\n  arr.push(w);\n  g[w.length] = arr;\n"
            "  all.push(g[w.length]);\n}\nreturn all;",
            "changes an array inside `g`",
        ),
    ],
)
def test_a_map_push_javascript_would_share_is_refused(text: str, words: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "syntax_error", out.message
    assert words in out.error.message, out.error.message
    assert out.error.hint


def test_a_push_onto_a_key_without_an_array_fails_as_node_throws() -> None:
    out = RT.run(
        "const g = new Map();\nfor (const w of words) { g.get(w.length).push(w); }\nreturn [...g];",
        lang="plan",
        context=CONTEXT,
    )
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.line == 2 and "undefined" in out.error.message, out.error.message


@pytest.mark.parametrize(
    "text",
    [
        "const g = new Map();\nfor (const x of xs) {\n  const k = x % 16;\n"
        "  if (!g.has(k)) g.set(k, []);\n  g.get(k).push(x);\n}\nreturn g.size;",
        "const g = new Map();\nfor (const x of xs) {\n  const arr = g.get(x % 16) || [];\n"
        "  arr.push(x);\n  g.set(x % 16, arr);\n}\nreturn g.size;",
        "const g = xs.reduce((acc, x) => {\n  const k = x % 16;\n"
        "  if (!acc.has(k)) acc.set(k, []);\n  acc.get(k).push(x);\n  return acc;\n"
        "}, new Map());\nreturn g.size;",
        "const g = {};\nfor (const x of xs) {\n  const k = x % 16;\n  const arr = g[k] || [];\n"
        "  arr.push(x);\n  g[k] = arr;\n}\nreturn Object.keys(g).length;",
        "const g = new Map();\nlet i = 0;\nwhile (i < xs.length) {\n  const k = xs[i] % 16;\n"
        "  if (!g.has(k)) g.set(k, []);\n  g.get(k).push(i);\n  i++;\n}\nreturn g.size;",
    ],
)
def test_a_map_group_by_grows_linearly(text: str) -> None:
    small, large = _per_item(text, 1_000), _per_item(text, 64_000)
    assert large < 4 * small, (small, large)  # (quadratic would be ~64x)
