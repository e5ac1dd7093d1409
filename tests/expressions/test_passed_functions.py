"""Functions that take functions (SPEC 10, "Functions passed as arguments"): an arrow or a
function of the program passed to a function of the program is written out where the body uses
it, called or passed on, and a function returning an arrow gives that arrow; each program gives
Node's answer. What cannot be written out (a function value stored, returned, compared; a name
the passed function reads hidden by the body) is refused at its place."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "const maxBy = (xs, f) => xs.reduce((a, b) => f(b) > f(a) ? b : a);\n"
    "return maxBy(people, p => p.age).name;",
    "const sumBy = (xs, f) => xs.reduce((s, x) => s + f(x), 0);\n"
    "return [sumBy(people, p => p.age), sumBy(nums, x => x * 2)];",
    "const by = k => (a, b) => a[k] - b[k];\nreturn [...people].sort(by('age')).map(p => p.name);",
    "function groupBy(xs, keyFn) {\n  const out = {};\n  for (const x of xs) {\n"
    "    const k = keyFn(x);\n    out[k] = [...(out[k] || []), x.name];\n  }\n  return out;\n}\n"
    "return groupBy(people, p => p.age > 5 ? 'old' : 'young');",
    "const mapAll = (xs, f) => xs.map(f);\nconst dbl = x => x * 2;\n"
    "return [mapAll(nums, dbl), mapAll(nums, x => x + n)];",
    "const pipe = (x, f, g) => g(f(x));\nreturn pipe(3, x => x + 1, y => y * 10);",
    "const compose = (f, g) => x => f(g(x));\nreturn nums.map(compose(x => x + 1, y => y * 10));",
    "async function retry(fn, n) { const r = await fn(); return r; }\n"
    "return await retry(async () => await echo(5), 3);",
    "const sumBy = (xs, f) => xs.reduce((s, x) => s + f(x), 0);\nconst k = 2;\n"
    "return sumBy(nums, x => x * k);",
    # the passed function reads a parameter of an enclosing arrow at the call
    "const countIf = (xs, pred) => xs.filter(pred).length;\n"
    "return people.map(p => countIf(nums, x => x < p.age));",
    # a function of the program passed by name, and passed on to another function
    "const age = p => p.age;\nconst maxBy = (xs, f) => xs.reduce((a, b) => f(b) > f(a) ? b : a);\n"
    "function oldest(xs, f) { return maxBy(xs, f).name; }\nreturn [maxBy(people, age).name, "
    "oldest(people, age), oldest(people, p => -p.age)];",
    "function indexBy(xs, key) {\n  const out = {};\n  for (const x of xs) out[key(x)] = x.age;\n"
    "  return out;\n}\nreturn indexBy(people, p => p.name.toLowerCase());",
    "const byDesc = k => (a, b) => b[k] - a[k];\nconst top = (xs, cmp, m) => [...xs].sort(cmp)"
    ".slice(0, m);\nreturn top(people, byDesc('age'), 2).map(p => p.name);",
    "const uniqBy = (xs, f) => xs.filter((x, i) => xs.findIndex(y => f(y) === f(x)) === i);\n"
    "return uniqBy(words, w => w.length);",
    "function partition(xs, pred) {\n  const yes = [];\n  const no = [];\n  for (const x of xs) {\n"
    "    if (pred(x)) yes.push(x); else no.push(x);\n  }\n  return [yes, no];\n}\n"
    "return partition(nums, v => v > 2);",
    "const countBy = (xs, f) => xs.reduce((acc, x) => ({...acc, [f(x)]: (acc[f(x)] || 0) + 1}),"
    " {});\nreturn countBy(words, w => w.length > 3 ? 'long' : 'short');",
    "const twice = (f, x) => f(f(x));\nreturn [twice(x => x * 3, 2), twice(s => s + '!', 'hi')];",
    "const applyAll = (x, f, g, h) => [f(x), g(x), h(x)];\n"
    "return applyAll(n, v => v + 1, v => v * v, v => `${v}`);",
    "const sortBy = (xs, f) => [...xs].sort((a, b) => f(a) < f(b) ? -1 : f(a) > f(b) ? 1 : 0);\n"
    "return sortBy(words, w => w.toLowerCase());",
    # a function returning an arrow: the call's argument a name of the program
    "const field = 'name';\nconst pick = k => o => o[k];\nreturn people.map(pick(field));",
    "const between = (lo, hi) => x => x >= lo && x <= hi;\nreturn nums.filter(between(0, 5));",
    # an arrow function whose parameter is itself called with a function
    "const withEach = (xs, f) => xs.map(x => f(x, y => y * 2));\n"
    "return withEach(nums, (v, g) => g(v) + 1);",
    # a parameter of the arrow that hides a parameter of the function
    "const mapKeep = (xs, f) => xs.map(f => f * 2).concat(xs.map(f));\n"
    "return mapKeep([1, 2], x => x + 100);",
    "async function mapAsync(xs, fn) { return Promise.all(xs.map(fn)); }\n"
    "return await mapAsync(people, async p => (await echo(p.name)).length);",
]


def test_passed_functions_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        (
            "const keep = f => ({fn: f});\nreturn keep(x => x);",
            "`f` holds the function passed to the function `keep` (line 1, column 7)",
            2,
            8,
        ),
        (
            "const same = (f, g) => f === g;\nreturn same(x => x, x => x);",
            "`f` holds the function passed to the function `same`",
            2,
            8,
        ),
        (
            "const give = f => f;\nconst g = give(x => x);\nreturn 1;",
            "`f` holds the function passed to the function `give`",
            2,
            11,
        ),
        (
            "const send = f => echo(f);\nreturn send(x => x);",
            "`f` holds the function passed to the function `send`",
            2,
            8,
        ),
        (
            "const run = f => f(1);\nreturn run(5);",
            "the function `run` (line 1, column 7) calls its parameter `f`, but the argument "
            "passed for it here is not a function",
            2,
            8,
        ),
        (  # `k` inside `apply` is its own local: JavaScript's arrow reads the top's `k`
            "const apply = (xs, f) => { const k = 3; return xs.map(x => f(x) + k); };\n"
            "const k = 100;\nreturn apply(nums, x => x + k);",
            "the function passed to the function `apply` (line 1, column 7) as `f` reads `k`, "
            "which is also a parameter or a local of that function",
            3,
            8,
        ),
        (
            "const sumBy = (xs, f) => xs.reduce((s, x) => s + f(x), 0);\n"
            "return sumBy(nums, v => v + xs.length);",
            "as `f` reads `xs`",
            2,
            8,
        ),
        (  # the argument of `by` computed: JavaScript computes it once, at the call
            "const by = k => (a, b) => a[k] - b[k];\nreturn [...people].sort(by(s.slice(0, 3)));",
            "is an arrow function made by a call that computes values first",
            2,
            8,
        ),
        (
            "const twice = (f, x) => f(f(x));\nreturn twice(x => x, 1, 2);",
            "the function `twice` takes 2 arguments; a call here passes 3",
            2,
            8,
        ),
        (  # passed by name, its parameter gets an index: not the registered `echo`
            "function g(x, echo) { return echo(x); }\nreturn nums.map(g);",
            "the function `g` (line 1, column 10) calls its parameter `echo`, but passed by name",
            2,
            8,
        ),
        (  # a passed function applied to itself: JavaScript's recursion
            "const fix = (f, x) => f(f, x);\nreturn fix((g, k) => k > 3 ? k : g(g, k + 1), 1);",
            "functions passed as arguments call each other more than 32 deep",
            2,
            8,
        ),
        (  # a recursive function takes no functions (SPEC 10, "Recursive functions")
            "function walk(x, f) { return f(x, walk); }\nreturn walk(1, (v, g) => v);",
            "the recursive function `walk` (line 1, column 10) calls its parameter `f`",
            2,
            8,
        ),
    ],
)
def test_passed_functions_refused(text: str, message: str, line: int, column: int) -> None:
    out = RT.run(text, lang="plan", context={"nums": [1, 2], "people": [], "s": "abcd"})
    assert out.status == "failure", out.value
    assert out.error is not None and out.error.code == "syntax_error", out.message
    assert message in (out.message or ""), out.message
    assert f"line {line}, column {column}" in (out.message or ""), out.message
    assert out.error.hint


def test_copies_of_passed_functions_are_bounded() -> None:
    # each level passes a function that calls the one before twice: 2**20 copies unbounded
    lines = ["const f0 = (g, x) => g(g(x));"]
    for i in range(1, 21):
        lines.append(f"const f{i} = (g, x) => f{i - 1}(y => g(g(y)), x);")
    lines.append("return f20(v => v + 1, 0);")
    out = RT.run("\n".join(lines), lang="plan", context={})
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "limit_exceeded", out.message
    assert "too large" in (out.message or "")
