"""Small forms models write that were refused in strict mode or worded badly (SPEC 10): each
program runs to Node's value in both modes (checked against Node itself) or is refused with a
clear message; never another answer."""

from __future__ import annotations

from dialectic import Limits, Runtime
from dialectic.frontends.plan.callbackloop import MAX_CALLBACK_LOOPS

from .program_generator import CONTEXT
from .program_oracle import node_answers, runtime, same

RT: Runtime = runtime()


def _as_in_node_in_both_modes(texts: list[str]) -> None:
    for text, answer in zip(texts, node_answers(texts), strict=True):
        assert "ok" in answer, (text, answer)
        for strict in (True, False):
            out = RT.run(text, lang="plan", context=CONTEXT, strict=strict)
            assert out.status == "success", (text, strict, out.message)
            assert same(out.value, answer["ok"]) is None, (text, strict, out.value, answer)


def _refused(text: str, strict: bool = True) -> str:
    out = RT.run(text, lang="plan", context=CONTEXT, strict=strict)
    assert out.status == "failure" and out.error is not None, (text, out.value)
    assert out.error.code != "internal_error", out.message
    message = out.message or ""
    assert "Traceback" not in message
    return message


# -- several declarators in a block ------------------------------------------------------------

SEVERAL_DECLARATORS = [
    "let total = 0;\nfor (const x of nums) { let i = 0, j = 1; total += x * i + j; }\n"
    "return total;",
    "const out = [];\nfor (const x of nums) { let a = x, b = a * 2; out.push(a + b); }\n"
    "return out;",
    "const out = [];\nfor (const x of nums) { const a = x, b = 1 }\nreturn out;",
    "let t = 0;\nif (flag) { let a = 1, b = 2; t = a + b; }\nreturn t;",
    "let k = 0;\nlet acc = 0;\nwhile (k < 3) { let a = k, b = 2; acc += a * b; k++; }\nreturn acc;",
    "let acc = 0;\nfor (let k = 0; k < 3; k++) { let a = k, b = 2; acc += a * b; }\nreturn acc;",
    "let acc = 0;\nfor (const x of nums) { let [a, b] = [x, 1], c = 3; acc += a * b + c; }\n"
    "return acc;",
    "const out = [];\nfor (const p of people) { const {name} = p, n = name.length; out.push(n); }"
    "\nreturn out;",
    "let acc = 0;\nnums.forEach(x => { let a = x, b = 2; acc += a * b; });\nreturn acc;",
    "let best = 0;\nfor (const x of nums) { let lo = 0, hi = x; while (lo < hi) { lo++; } "
    "best += lo; }\nreturn best;",
    "const out = [];\nfor (const x of nums) { let a = x, b; if (a > 4) { b = 1; } else { b = 2; }"
    " out.push([a, b]); }\nreturn out;",
    "let a = 1, b;\nif (flag) { b = 1; } else { b = 2; }\nreturn [a, b];",
]


def test_several_declarators_in_a_block_run_as_in_node_in_both_modes() -> None:
    _as_in_node_in_both_modes(SEVERAL_DECLARATORS)


def test_a_declarator_read_before_its_declaration_is_refused() -> None:
    text = "const out = [];\nfor (const x of nums) { const a = x, x = 2; out.push(a); }\nreturn 1;"
    assert "read before its declaration" in _refused(text)


# -- counted loops inside loops ----------------------------------------------------------------

NESTED_COUNTS = [
    "const pairs = [];\nfor (let i = 0; i < nums.length; i++) {\n"
    "  for (let j = i + 1; j < nums.length; j++) { pairs.push([nums[i], nums[j]]); }\n}\n"
    "return pairs;",
    "const m = [[1, 2], [3, 4]];\nlet t = 0;\nfor (let i = 0; i < m.length; i++) "
    "for (let j = 0; j < m[i].length; j++) t += m[i][j] * (i + 1);\nreturn t;",
    "function pairs(xs) {\n  const out = [];\n  for (let i = 0; i < xs.length; i++) {\n"
    "    for (let j = i + 1; j < xs.length; j++) { out.push([xs[i], xs[j]]); }\n  }\n"
    "  return out;\n}\nreturn pairs(nums);",
    "const f = xs => {\n  let best = -Infinity;\n  for (let i = 0; i < xs.length; i++) {\n"
    "    for (let j = i + 1; j < xs.length; j++) { if (xs[i] + xs[j] > best) best = xs[i] + "
    "xs[j]; }\n  }\n  return best;\n};\nreturn f(nums);",
    "let count = 0;\nfor (let i = 0; i < nums.length; i++) {\n"
    "  for (let j = 0; j < i; j++) { if (nums[j] > nums[i]) count++; }\n}\nreturn count;",
    "const out = [];\nfor (let i = 0; i < 3; i++) {\n  for (let j = 0; j < 3; j++) {\n"
    "    if (j === 2) break;\n    if (i === j) continue;\n    out.push([i, j]);\n  }\n}\n"
    "return out;",
    "let found = null;\nouter: for (let i = 0; i < nums.length; i++) {\n"
    "  for (let j = i + 1; j < nums.length; j++) {\n"
    "    if (nums[i] + nums[j] === 10) { found = [i, j]; break outer; }\n  }\n}\nreturn found;",
    "const res = [];\nfor (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) "
    "for (let k = 0; k < 2; k++) res.push(i * 4 + j * 2 + k);\nreturn res;",
    "const n2 = nums.length;\nconst xs = [...nums];\nfor (let i = 0; i < n2; i++) {\n"
    "  for (let j = 0; j < n2 - i - 1; j++) {\n"
    "    if (xs[j] > xs[j + 1]) { [xs[j], xs[j + 1]] = [xs[j + 1], xs[j]]; }\n  }\n}\n"
    "return xs;",
    "const grid = [];\nfor (let i = 0; i < 3; i++) {\n  const row = [];\n"
    "  for (let j = 0; j < 3; j++) { row.push(i * j); }\n  grid.push(row);\n}\nreturn grid;",
    "const out = [];\nfor (let i = 0; i < 4; i++) { for (let j = i; j >= 0; j -= 2) "
    "{ out.push([i, j]); } }\nreturn out;",
    "const out = {};\nfor (let i = 0; i < people.length; i++) {\n"
    "  for (let j = 0; j < people[i].tags.length; j++) {\n"
    "    const t = people[i].tags[j];\n    out[t] = (out[t] || 0) + 1;\n  }\n}\nreturn out;",
    "const r = nums.map(x => {\n  let acc = 0;\n  for (let i = 0; i < 3; i++) {\n"
    "    for (let j = 0; j < 2; j++) { acc += x * i + j; }\n  }\n  return acc;\n});\nreturn r;",
    "const out = [];\nfor (let i = 0; i < 2; i++) {\n"
    "  for (let j = 0; j < 2; j++) { out.push(await echo([i, j])); }\n}\nreturn out;",
    # a header's second variable, read in the test, the body and a loop inside
    "let r = 0;\nfor (let i = 0, n1 = nums.length; i < n1; i++) { r += nums[i] * n1; }\nreturn r;",
    "let r = 0;\nfor (let i = 0, n1 = 3; i < n1; i++) {\n"
    "  for (let j = 0; j < n1; j++) { r += i * j + n1; }\n}\nreturn r;",
    "const out = [];\nfor (let i = 0, len = 3; i < len; i++) "
    "{ out.push([1, 2].map(len => len * 2)); }\nreturn out;",
    "function f(xs) {\n  let best = 0;\n  for (let i = 0, n1 = xs.length; i < n1; i++) "
    "{ best = Math.max(best, xs[i] * n1); }\n  return best;\n}\nreturn f(nums);",
    "let r = 0;\nfor (let i = 1, lim = 100; i < lim; i *= 3) { r += i + lim; }\nreturn r;",
    "let r = 0;\nfor (let i = 0, n1 = 3; i < n1; i++) { r += i; }\nconst n1 = 10;\nreturn [r, n1];",
]


def test_counted_loops_inside_loops_run_as_in_node() -> None:
    _as_in_node_in_both_modes(NESTED_COUNTS)


def test_a_header_variable_read_after_its_loop_is_named_so() -> None:
    text = "let r = 0;\nfor (let i = 0, n1 = 3; i < n1; i++) { r += i; }\nreturn n1;"
    assert "`n1` is not defined here" in _refused(text)


def test_a_loop_that_is_no_count_inside_a_loop_is_refused_with_the_while_it_stands_for() -> None:
    text = (
        "const out = [];\nfor (const x of nums) { for (let j = 1; j < x; j *= 2) { out.push(j); } }"
    )
    message = _refused(text + "\nreturn out;")
    assert "only a count" in message and "while (i < j)" in message, message


def test_a_bound_that_reads_what_the_loop_changes_says_to_read_it_before() -> None:
    text = (
        "const xs = [...nums];\nfor (let i = 0; i < xs.length; i++) {\n"
        "  for (let j = 0; j < xs.length - i - 1; j++) {\n"
        "    if (xs[j] > xs[j + 1]) { [xs[j], xs[j + 1]] = [xs[j + 1], xs[j]]; }\n  }\n}\n"
        "return xs;"
    )
    message = _refused(text)
    assert "line 3, column 23: the loop's bound reads `xs`" in message, message
    assert "const n = xs.length;" in message


def test_the_steps_of_nested_counted_loops_grow_as_their_iterations() -> None:
    """A pair loop's steps are a few per iteration at any size: `max_steps` bounds it, and a
    bound of four steps an iteration suffices at 30 items as at 300."""
    text = (
        "let c = 0;\nfor (let i = 0; i < xs.length; i++) {\n"
        "  for (let j = i + 1; j < xs.length; j++) { if (xs[i] + xs[j] === 7) c++; }\n}\n"
        "return c;"
    )
    for n in (30, 300):
        iterations = n * (n - 1) // 2
        roomy = Runtime(load_entry_points=False, limits=Limits(max_steps=4 * iterations + 200))
        out = roomy.run(text, lang="plan", context={"xs": list(range(n))}, strict=True)
        assert out.status == "success" and out.value == 4, out.message
    tight = Runtime(load_entry_points=False, limits=Limits(max_steps=iterations))
    out = tight.run(text, lang="plan", context={"xs": list(range(300))}, strict=True)
    assert out.status == "failure" and out.error is not None
    assert out.error.details.get("limit") == "max_steps", out.message


# -- Sets --------------------------------------------------------------------------------------

SETS = [
    "const out = [];\nnew Set(nums).forEach(x => out.push(x * 2));\nreturn out;",
    "const out = [];\nnew Set([3, 1, 3, 2]).forEach((v, k) => { out.push([v, k]); });\nreturn out;",
    "let t = 0;\nnew Set(words.map(w => w.length)).forEach(n => { t += n; });\nreturn t;",
    "const out = [];\nnew Map([['a', 1], ['b', 2]]).forEach((v, k) => out.push(k + v));\n"
    "return out;",
    "const out = [];\nnew Set().forEach(x => out.push(x));\nreturn out;",
    "const out = [];\nnew Set(people.map(p => p.city)).forEach(c => { if (c) out.push(c); });\n"
    "return out;",
    "return [...new Set([1, 2, 2, 3])];",
    "return new Set(words.map(w => w.length)).size;",
    "const u = new Set(nums);\nreturn [u.has(3), u.has(99), u.size];",
    "const u = new Set(nums);\nconst out = [];\nu.forEach((v, k) => out.push([v, k]));\n"
    "return out;",
    "const out = [];\nfor (const v of new Set(nums)) out.push(v);\nreturn out;",
    "return Array.from(new Set([1, 1, 2]), x => x * 10);",
    "return [[...new Set([1, 1, 2]).values()], [...new Set([1, 1, 2]).entries()]];",
    "return nums.filter(x => new Set([3, 7]).has(x));",
    "return [new Set([...nums, ...nums]).size, Math.max(...new Set(nums))];",
    "return [...new Set('hello')].join('');",
    "const a = new Set([1, 2, 3]);\nconst b = new Set([2, 3, 4]);\n"
    "return [...a].filter(x => b.has(x));",
]


def test_sets_made_in_place_run_as_in_node() -> None:
    _as_in_node_in_both_modes(SETS)


def test_a_set_that_leaves_the_program_whole_is_refused() -> None:
    assert "a Set cannot leave the program" in _refused("return new Set(nums);")


# -- optional calls ----------------------------------------------------------------------------

OPTIONAL_CALLS = [
    "const f = x => x * 2;\nreturn f?.(3);",
    "function g(x) { return x + 1; }\nreturn g?.(3);",
    "return echo?.(3);",
    "return [s.toUpperCase?.(), s.trim?.().length, nums.map?.(x => x + 1)];",
    "return [data.b?.toUpperCase?.(), data.zz?.toUpperCase?.(), s?.trim?.(), none?.trim?.()];",
    "return people.map(p => p.city?.toUpperCase?.() ?? '-');",
    "return [people[0].name?.toLowerCase?.(), (5).toFixed?.(2), words.map(w => w.at?.(0))];",
    "return nums?.map(x => x * 2)?.filter?.(x => x > 3);",
    "return [data.missing?.(), data.d.e?.(), s.nope?.(1), data?.zz?.()];",
    "const o = {f: null, g: undefined};\nreturn [o.f?.(1), o.g?.(2)];",
    "return [data.hasOwnProperty?.('a'), data.d?.f?.toString?.()];",
    "const o = {f: 1};\nlet r;\ntry { r = o.f?.(); } catch (e) { r = e.message + '|' + e.name; }"
    "\nreturn r;",
]


def test_optional_calls_run_as_in_node() -> None:
    _as_in_node_in_both_modes(OPTIONAL_CALLS)


def test_an_optional_call_of_data_that_is_no_function_fails_as_node_throws() -> None:
    out = RT.run("const o = {f: 1};\nreturn o.f?.();", lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "thrown" and "o.f is not a function" in (out.message or "")


def test_optional_calls_plan_cannot_read_are_refused_with_a_hint() -> None:
    for text, words in [
        ("return nums[0]?.();", "only a function's name or a member's method"),
        ("return nums.push?.(1);", "`push?.(...)` changes its receiver"),
        ("return data?.d.f?.();", "after another optional link"),
    ]:
        message = _refused(text)
        assert words in message and "call it plainly" in message, message


# -- swaps of names a `let` pattern declares ---------------------------------------------------

PATTERN_LETS = [
    "let [a, b] = [1, 2];\n[a, b] = [b, a];\nreturn [a, b];",
    "let [x, y] = nums;\nif (x > y) [x, y] = [y, x];\nreturn [x, y];",
    "let [a, b] = [0, 1];\nfor (let i = 0; i < 10; i++) { [a, b] = [b, a + b]; }\nreturn a;",
    "let [lo, hi] = [0, nums.length - 1];\nwhile (lo < hi) { [lo, hi] = [lo + 1, hi - 1]; }\n"
    "return [lo, hi];",
    "let {a: p, b: q} = {a: 1, b: 2};\n[p, q] = [q, p];\nreturn [p, q];",
    "let [a, b, c] = [1, 2, 3];\n[a, b, c] = [c, a, b];\nreturn [a, b, c];",
    "let [a = 5, b] = [undefined, 2];\n[a, b] = [b, a];\nreturn [a, b];",
    "let [first, ...others] = nums;\nfor (const x of others) { if (x > first) first = x; }\n"
    "return first;",
    "let {a: p, c: cs} = data;\nfor (const x of cs) { p += x; }\nreturn [p, cs];",
    "let [cur, prev] = [nums[0], null];\nfor (const x of nums) { [prev, cur] = [cur, x]; }\n"
    "return [prev, cur];",
    "let [a, b] = 'xy';\n[a, b] = [b, a];\nreturn a + b;",
    "let [[a1, a2], b1] = [[1, 2], 3];\nif (flag) [a1, b1] = [b1, a1];\nreturn [a1, a2, b1];",
    "let [a, b] = [1, 2]; a = a + b; return a;",
    "let {a, b} = {a: 1, b: 2}; a = 5; return [a, b];",
]


def test_names_a_let_pattern_declares_take_new_values_as_in_node() -> None:
    _as_in_node_in_both_modes(PATTERN_LETS)


def test_a_pattern_name_changed_in_place_or_a_const_one_is_refused() -> None:
    text = "let [xs2, ys2] = [[], []];\nfor (const x of nums) { xs2.push(x); }\nreturn xs2;"
    assert "defined by destructuring and changed in the loop" in _refused(text)
    text = "const [a, b] = [1, 2];\nif (flag) { [a, b] = [b, a]; }\nreturn [a, b];"
    assert "`a` is a `const`" in _refused(text)


# -- the limit of callbacks read as loops ------------------------------------------------------


def _callbacks(n: int, reduce: bool) -> str:
    if reduce:
        line = "const r{0} = nums.reduce((acc, x) => {{ acc.s.push(x); acc.n++; return acc; }}, "
        body = "".join((line + "{{s: [], n: 0}});\n").format(i) for i in range(n))
    else:
        line = "let c{0} = 0;\nconst m{0} = nums.map(x => {{ c{0} += x; return x * 2; }});\n"
        body = "".join(line.format(i) for i in range(n))
    return body + f"return {'r' if reduce else 'm'}{n - 1};"


def test_the_limit_of_callbacks_read_as_loops_is_named_at_the_first_statement_past_it() -> None:
    for reduce, line in ((False, 129), (True, 65)):
        out = RT.run(_callbacks(MAX_CALLBACK_LOOPS, reduce), lang="plan", context=CONTEXT)
        assert out.status == "success", out.message
        message = _refused(_callbacks(MAX_CALLBACK_LOOPS + 1, reduce))
        assert f"\nline {line + (0 if reduce else 1)}, column 1: the program has" in message
        assert (
            "more than 64 " in message and "(a limit), and this one is left as written" in message
        )
        assert "for (const x of xs)" in message
