"""Loop and statement forms models write that were refused, worded badly or answered otherwise
than Node (SPEC 10, "Loops", "Switch", "Changes outside loops"): each program either runs to
Node's value (checked against Node itself) or is refused with a clear message; never another
answer, and no message shows a hidden name the front end made (``_go1``, ``_j1``)."""

from __future__ import annotations

import re

import pytest

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import check, node_answers, runs_as_in_node, runtime

RT: Runtime = runtime()

#: a name the front end makes (`_go1`, `_loop12`, `_s3`): never shown to the user
HIDDEN = re.compile(r"(?<![\w$])_[a-z]+[0-9]+\b")


def _refused(text: str) -> str:
    out = RT.run(text, lang="plan")
    assert out.status == "failure" and out.error is not None, (text, out.value)
    assert out.error.code != "internal_error", out.message
    message = out.message or ""
    assert "Traceback" not in message
    return message


# -- async steps of reduce ---------------------------------------------------------------------

ASYNC_REDUCE_RUNS = [
    "return await nums.reduce(async (acc, x) => (await acc) + await later(x), 0);",
    "const xs = [1, 2, 3];\nconst total = await xs.reduce(async (acc, x) => (await acc) + x, 0);"
    "\nreturn total;",
    "return await [1, 2, 3].reduce(async (acc, x) => { const a = await acc; return a + x; }, "
    "Promise.resolve(0));",
    "return await [1, 2, 3].reduce(async function (acc, x) { return (await acc) + x; }, 0);",
    "return await [1, 2, 3].reduce(async (acc, x) => ({...(await acc), [x]: await later(x)}), {});",
    "return await words.reduce(async (acc, w) => (await acc).concat([w.length]), []);",
]


def test_an_async_reduce_step_that_awaits_its_accumulator_runs_as_in_node() -> None:
    runs_as_in_node(ASYNC_REDUCE_RUNS, RT)


@pytest.mark.parametrize(
    "text",
    [
        "return await [1, 2, 3].reduce(async (acc, x) => acc + x, 0);",
        "return await [1, 2, 3].reduce(async (acc, x) => { const a = acc; return (await a) + x; }"
        ", 0);",
        "return await words.reduce(async (acc, w) => ({...acc, [w]: await later(1)}), {});",
        "return await words.reduce(async (acc, w) => { acc[w] = 1; return acc; }, {});",
        "return await nums.reduceRight(async (acc, x) => [...acc, x], []);",
    ],
)
def test_an_async_step_reading_its_accumulator_without_await_is_refused(text: str) -> None:
    message = _refused(text)
    assert "reads `acc` without `await`" in message, message
    assert "(await acc)" in message  # (the hint)


# -- an array method on a member that is no array ----------------------------------------------

MEMBER_PUSHES = [
    ("const m = {a: 5};\nm.a.push(1);\nreturn m;", "m.a.push is not a function"),
    ("const m = {a: null};\nm.a.push(1);\nreturn m;", "Cannot read properties of null"),
    ("const m = {a: 'ab', b: []};\nm.b.push(1);\nm.a.push(1);\nreturn m;", "m.a.push is not"),
    ("const m = {n: 0, items: []};\nm.n.push(2);\nreturn m;", "m.n.push is not a function"),
    ("const m = {a: true};\nm.a.push(1);\nreturn m;", "m.a.push is not a function"),
]


@pytest.mark.parametrize(("text", "words"), MEMBER_PUSHES)
def test_a_push_on_a_member_that_is_no_array_fails_with_nodes_words(text: str, words: str) -> None:
    (answer,) = node_answers([text])
    assert words in answer["error"]
    assert words in _refused(text)


@pytest.mark.parametrize(
    "text",
    [
        "const m = {a: 5};\ntry { m.a.push(1); return 'ok'; } catch (e) { return e.message; }",
        "const m = {a: 'x'};\ntry { m.a.push(1); return 'ok'; } catch (e) { return String(e); }",
        "const m = {a: null};\ntry { m.a.push(1); return 'ok'; } catch (e) { return e.message; }",
        "const m = {};\ntry { m.a.push(1); return 'ok'; } catch (e) { return e.message; }",
        "const m = {a: 5};\nlet r = 'ok';\ntry { m.a.push(1); } catch (e) { r = e.message; }\n"
        "return r;",
        "const m = {a: 5};\ntry { m.a.push(1); } catch (e) { return e.message; }\nreturn 'ok';",
    ],
)
def test_a_try_around_a_member_push_is_never_answered_otherwise(text: str) -> None:
    (verdict,) = check([text], RT)
    assert verdict.kind in ("same", "refused"), (verdict.kind, verdict.detail)


def test_a_group_by_push_still_runs() -> None:
    runs_as_in_node(
        [
            "const g = {ok: [], bad: [], n: 0};\nfor (const x of nums) {\n  if (x > 0) "
            "g.ok.push(x); else g.bad.push(x);\n  g.n += 1;\n}\nreturn g;",
            "const g = {};\nfor (const w of words) {\n  if (!g[w.length]) g[w.length] = [];\n"
            "  g[w.length].push(w);\n}\nreturn g;",
        ],
        RT,
    )


# -- two loop variables, swaps, and what a message names ------------------------------------

TWO_POINTERS = [
    "const xs = [...nums];\nfor (let i = 0, j = xs.length - 1; i < j; i++, j--) {\n"
    "  const t = xs[i]; xs[i] = xs[j]; xs[j] = t;\n}\nreturn xs;",
    "const w = 'racecar';\nlet ok = true;\nfor (let i = 0, j = w.length - 1; i < j; i++, j--) {\n"
    "  if (w[i] !== w[j]) { ok = false; break; }\n}\nreturn ok;",
    "function isPal(s) {\n  for (let i = 0, j = s.length - 1; i < j; i++, j--) {\n"
    "    if (s[i] !== s[j]) return false;\n  }\n  return true;\n}\nreturn words.map(isPal);",
    "const out = [];\nfor (let i = 0, j = nums.length - 1; i <= j; i++, j--) {\n"
    "  out.push(nums[i] + nums[j]);\n}\nreturn out;",
    "const a = [1, 3, 5, 8, 11];\nlet found = null;\nfor (let i = 0, j = a.length - 1; i < j; ) {\n"
    "  const sum = a[i] + a[j];\n  if (sum === 13) { found = [i, j]; break; }\n"
    "  if (sum < 13) i++; else j--;\n}\nreturn found;",
    "let pairs = [];\nfor (let i = 0, j = 10; i < 5; i++, j -= 2) pairs.push([i, j]);\n"
    "return pairs;",
]

SWAPS = [
    "const a = [1, 2, 3, 4];\nfor (let i = 0, j = a.length - 1; i < j; i++, j--) {\n"
    "  [a[i], a[j]] = [a[j], a[i]];\n}\nreturn a;",
    "let x = 1, y = 2;\n[x, y] = [y, x];\nreturn [x, y];",
    "let a = 0, b = 1;\nfor (let i = 0; i < 10; i++) [a, b] = [b, a + b];\nreturn a;",
    "const chars = s.split('');\nfor (let i = 0, j = chars.length - 1; i < j; ++i, --j) {\n"
    "  [chars[i], chars[j]] = [chars[j], chars[i]];\n}\nreturn chars.join('');",
    "function fib(n) {\n  let a = 0, b = 1;\n"
    "  for (let i = 0; i < n; i++) { [a, b] = [b, a + b]; }\n  return a;\n}\nreturn fib(10);",
    "const xs = [5, 3, 8];\nif (xs[0] > xs[1]) [xs[0], xs[1]] = [xs[1], xs[0]];\nreturn xs;",
    "const o = {a: 1, b: 2};\n[o.a, o.b] = [o.b, o.a];\nreturn o;",
    "let p = 1, q = 2, r = 3;\n[p, q, r] = [r, p, q];\nreturn [p, q, r];",
]


def test_two_loop_variables_run_as_in_node() -> None:
    runs_as_in_node(TWO_POINTERS, RT)


def test_a_swap_by_array_pattern_runs_as_in_node() -> None:
    runs_as_in_node(SWAPS, RT)


def test_a_swap_of_fewer_values_stays_refused() -> None:
    message = _refused("let lo = 0, hi = 9;\n[lo, hi] = [hi];\nreturn [lo, hi];")
    assert "line 2" in message


#: programs with a mistake, many of them in or after loops the front end rewrites
BAD = [
    "const xs = [...nums];\nfor (let i = 0, j = xs.length - 1; i < j; i++, j--) { xs[i] = xs[j]; }"
    "\nreturn [xs, j];",
    "let total = 0;\nfor (const x of nums) { if (x > 0) { total += x; } else { brk = 1; } }\n"
    "return totl;",
    "const out = [];\nfor (const x of nums) { if (x > 2) break; out.push(x); }\nreturn ot;",
    "let t = 0;\nwhile (t < 10) { t += 1; }\nreturn tt;",
    "const out = [];\nfor (const x of nums) { const y = x * 2; out.push(y); }\nreturn y;",
    "let i = 0;\ndo { i++; } while (i < 5);\nreturn k;",
    "const res = [];\nfor (const p of people) { for (const t of p.tags) { res.push(t); } }\n"
    "return t;",
    "let acc = '';\nfor (const w of words) { acc += w; if (acc.length > 5) break; }\nreturn acc2;",
    "const out = [];\nfor (let i = 0; i < 5; i++) { out.push(i * 2); }\nreturn i;",
    "let n2 = 0;\nfor (let i = 1; i < 100; i *= 2) { n2++; }\nreturn [n2, i];",
    "const counts = {};\nfor (const w of words) { counts[w] = (counts[w] || 0) + 1; }\n"
    "return count;",
    "let best = null;\nfor (const p of people) { if (!best || p.age > best.age) best = p; }\n"
    "return bst.name;",
    "const out = [];\nnums.forEach(x => { out.push(x); });\nreturn outt;",
    "let s2 = 0;\nswitch (n) { case 1: s2 = 1; break; default: s2 = 2; }\nreturn s3;",
    "let status = 'low';\nif (n > 5) { status = 'high'; }\nreturn stat;",
    "let q = 0;\nfor (const x of nums) { q += undefinedThing; }\nreturn q;",
    "outer: for (const x of nums) { for (const y of nums) { if (y > x) continue outer; } }\n"
    "return zz;",
    "const a = [1, 2];\nfor (let i = 0, j = 1; i < j; i++, j--) { [a[i], a[j]] = [a[j], a[i]]; }"
    "\nreturn [a, swp];",
]


@pytest.mark.parametrize("text", BAD)
def test_no_message_shows_a_hidden_name(text: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure", (text, out.value)
    message = out.message or ""
    assert not HIDDEN.search(message), message
    assert "Traceback" not in message


def test_a_loop_variable_read_after_its_loop_is_named_so() -> None:
    out = RT.run(BAD[0], lang="plan", context=CONTEXT)
    message = out.message or ""
    assert "`j` is not defined here" in message and "line 3, column 13" in message, message
    assert "did you mean" not in message


# -- conditional sorts -----------------------------------------------------------------------

SORTS = [
    "const xs = [...people];\nconst byName = true, desc = true;\n"
    "if (byName) xs.sort((a, b) => a.name.localeCompare(b.name));\nif (desc) xs.reverse();\n"
    "return xs.map(p => p.name);",
    "const xs = [...nums];\nif (flag) xs.sort((a, b) => a - b);\n"
    "if (!flag) xs.sort((a, b) => b - a);\nreturn xs;",
    "function order(list, key, desc) {\n  const xs = [...list];\n"
    "  if (key) xs.sort((a, b) => a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0);\n"
    "  if (desc) xs.reverse();\n  return xs;\n}\n"
    "return order(people, 'age', true).map(p => p.age);",
    "const xs = nums.slice();\nif (flag) { xs.sort((a, b) => a - b); }\n"
    "if (n > 5) { xs.reverse(); }\nreturn xs;",
    "const rows = people.map(p => ({...p}));\nif (data.f) rows.sort((a, b) => a.age - b.age);\n"
    "else rows.sort((a, b) => b.age - a.age);\nif (flag) rows.reverse();\n"
    "return rows.map(r => r.name);",
    "const xs = [...nums];\nif (flag) { xs.sort((a, b) => a - b); } else { xs.reverse(); }\n"
    "return xs;",
    "const xs = [...nums];\nif (!flag) xs.sort((a, b) => a - b);\n"
    "if (flag) xs.sort((a, b) => b - a);\nif (n > 3) xs.reverse();\nreturn xs;",
]


def test_conditional_sorts_in_turn_run_as_in_node() -> None:
    runs_as_in_node(SORTS, RT)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "const xs = [...nums];\nif (flag) xs.sort((a, b) => a - b);\nconst keep = xs;\n"
            "if (flag) xs.reverse();\nreturn keep;",
            "is read whole before `reverse()`",
        ),
        (
            "const xs = nums;\nif (flag) xs.sort((a, b) => a - b);\nreturn xs;",
            "not an array the program made",
        ),
        (
            "const xs = [...nums];\nif (flag) xs.sort((a, b) => a - b); "
            "else xs.sort((a, b) => xs.length);\nreturn xs;",
            "the comparator reads `xs`",
        ),
    ],
)
def test_a_conditional_sort_node_would_answer_otherwise_is_refused(text: str, words: str) -> None:
    assert words in _refused(text)


# -- a parameter the function assigns --------------------------------------------------------

PARAMETER_SETS = [
    "function top(xs) {\n  xs = xs.toSorted((a, b) => b - a);\n  return xs.slice(0, 3);\n}\n"
    "return top(nums);",
    "function adults(xs) {\n  xs = xs.filter(p => p.age >= 18);\n  return xs.map(p => p.name);\n}"
    "\nreturn adults(people);",
    "function clean(xs, min) {\n  xs = xs.filter(x => x > min);\n  xs = xs.map(x => x * 2);\n"
    "  return xs;\n}\nreturn clean(nums, 0);",
    "const norm = (s) => {\n  s = s.trim();\n  s = s.toLowerCase();\n  return s;\n};\n"
    "return words.map(norm);",
    "function f(xs, k) {\n  if (k) xs = xs.toSorted((a, b) => a - b);\n  return xs;\n}\n"
    "return [f(nums, true), f(nums, false)];",
    "function g(opts) {\n  opts = {limit: 10, ...opts};\n  return opts.limit;\n}\n"
    "return [g({}), g({limit: 3})];",
    "function f(n) { n++; n *= 2; return n; }\nreturn [f(1), f(n)];",
    "const g = (a, b) => { if (a > b) { const t = a; a = b; b = t; } return [a, b]; };\n"
    "return [g(3, 1), g(1, 3)];",
    "function pad(s, n) { while (s.length < n) s = '0' + s; return s; }\n"
    "return [pad('7', 3), pad('1234', 2)];",
    "async function load(id) { id = String(id); return await echo(id); }\nreturn await load(5);",
    "function collatz(k) {\n  let steps = 0;\n  while (k !== 1) { k = k % 2 ? 3 * k + 1 : k / 2; "
    "steps++; }\n  return steps;\n}\nreturn collatz(27);",
    "const h = x => { x = x * 2; return x; };\nreturn nums.map(h);",
]


def test_a_parameter_the_function_assigns_runs_as_in_node() -> None:
    runs_as_in_node(PARAMETER_SETS, RT)


def test_an_async_step_setting_its_accumulator_is_refused() -> None:
    text = (
        "return await [1, 2, 3].reduce(async (acc, x) => { acc = await acc; return acc + x; }, 0);"
    )
    (verdict,) = check([text], RT)
    assert verdict.kind == "refused", verdict.detail
    assert not HIDDEN.search(verdict.detail), verdict.detail


def test_a_parameter_changed_in_place_stays_refused() -> None:
    message = _refused("function f(xs) { xs = xs; xs.push(1); return xs; }\nreturn f(nums);")
    assert not HIDDEN.search(message), message


# -- switch cases falling through ------------------------------------------------------------

FALLS = [
    "const out = [];\nfor (const x of [1, 2, 3]) {\n  switch (x) {\n    case 1: out.push('a');\n"
    "    case 2: out.push('b'); break;\n    default: out.push('c');\n  }\n}\nreturn out;",
    "const out = [];\nconst x = n % 3;\nswitch (x) {\n  case 1: out.push('a');\n"
    "  case 2: out.push('b'); break;\n  default: out.push('c');\n}\nreturn out;",
    "let level = 0;\nfor (const p of people) {\n  switch (p.name) {\n    case 'Ada': level += 10;\n"
    "    case 'Bo': level += 1; break;\n    case 'Cy': level += 100;\n  }\n}\nreturn level;",
    "const out = [];\nfor (const w of words) {\n  switch (w.length) {\n"
    "    case 0: out.push('empty'); break;\n    case 1:\n    case 2: out.push('short');\n"
    "    default: out.push('any');\n  }\n}\nreturn out;",
    "function perms(role) {\n  const p = [];\n  switch (role) {\n"
    "    case 'admin': p.push('delete');\n"
    "    case 'editor': p.push('write');\n    case 'viewer': p.push('read'); break;\n"
    "    default: p.push('none');\n  }\n  return p;\n}\n"
    "return ['admin', 'editor', 'viewer', 'x'].map(perms);",
    "const out = [];\nfor (let i = 0; i < 4; i++) {\n  switch (i) {\n"
    "    case 0: out.push('zero');\n"
    "    case 1: { out.push('one'); }\n    case 2: out.push('two'); continue;\n"
    "    default: out.push('many');\n  }\n}\nreturn out;",
    "function grade(n) {\n  let s = '';\n  switch (n) {\n    case 3: s += 'A';\n"
    "    case 2: s += 'B';\n"
    "    case 1: s += 'C'; return s;\n    default: return 'none';\n  }\n}\n"
    "return [grade(3), grade(2), grade(1), grade(0)];",
    "const out = [];\nfor (const x of [0, 1, 2, 5]) {\n  switch (x) {\n"
    "    case 1: out.push('one');\n"
    "    default: out.push('dflt');\n    case 2: out.push('two'); break;\n  }\n}\nreturn out;",
    "let total = 0;\nfor (const p of people) {\n  switch (p.tags.length) {\n"
    "    case 2: total += 2;\n"
    "    case 1: total += 1;\n    case 0: total += 0.5;\n  }\n}\nreturn total;",
    "const counts = {a: 0, b: 0};\nfor (const w of words) {\n  switch (true) {\n"
    "    case w.length > 5: counts.a++;\n    case w.length > 2: counts.b++; break;\n  }\n}\n"
    "return counts;",
    "const out = [];\nfor (const x of [1, 2, 3]) {\n  switch (x) {\n"
    "    case 1: if (flag) { out.push('f'); }\n    case 2: out.push('two'); break;\n"
    "    case 3: out.push('three');\n  }\n}\nreturn out;",
    "let r = 0;\nswitch (n) {\n  case 1: r = 1;\n  case 7: r = 7; break;\n}\nreturn r;",
    "function f(x) {\n  switch (x) {\n    case 1: return 'a';\n    case 2: x = 3; break;\n  }\n"
    "  return 'b';\n}\nreturn [f(n), f(1), f(2)];",
]


def test_a_case_falling_into_the_next_runs_as_in_node() -> None:
    runs_as_in_node(FALLS, RT)


@pytest.mark.parametrize(
    "text",
    [
        "const out = [];\nfor (const x of [1, 2]) {\n  switch (x) {\n    case 1: out.push('a');\n"
        "    case 2: const y = x * 2; out.push(y); break;\n  }\n}\nreturn out;",
        "const out = [];\nfor (const x of [1, 2]) {\n  switch (x) {\n    case 1: out.push('a');\n"
        "    case 2: if (flag) break; out.push('b'); break;\n  }\n}\nreturn out;",
    ],
)
def test_a_fall_through_not_copied_is_refused_with_what_to_write(text: str) -> None:
    message = _refused(text)
    assert "falls into the next case's statements" in message or "`break`" in message, message
    assert "line 4" in message or "line 5" in message, message


def test_many_falling_cases_cost_a_bounded_copy() -> None:
    cases = "".join(f"    case {k}: t += {k};\n" for k in range(400))
    text = f"let t = 0;\nswitch (n) {{\n{cases}    default: t += 1;\n}}\nreturn t;"
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and "falls into the next" in (out.message or "")


# -- changes of a tool's reply in a program with functions -----------------------------------

REPLY_CHANGES = [
    "async function load(id) {\n  const r = await echo({id, tags: ['a']});\n  r.tags.push('x');\n"
    "  return r;\n}\nreturn await load(3);",
    "async function load(id) {\n  const r = await echo({id, n: 1});\n  r.n += 1;\n"
    "  r.seen = true;\n"
    "  return r;\n}\nreturn [await load(1), await load(2)];",
    "function helper(x) { return x * 2; }\nconst rows = [{n: 1}, {n: 2}];\n"
    "for (let i = 0; i < rows.length; i++) {\n  rows[i].n += helper(i);\n}\nreturn rows;",
    "function helper(x) { return x * 2; }\nconst rows = await echo([{n: 1}, {n: 2}]);\n"
    "for (let i = 0; i < rows.length; i++) {\n  rows[i].n += 1;\n}\n"
    "return rows.map(r => helper(r.n));",
    "const fmt = (x) => `#${x}`;\nconst rows = await echo([{n: 1, tags: []}, {n: 2, tags: []}]);\n"
    "for (const r of rows) { r.tags.push(fmt(r.n)); }\nreturn rows;",
    "async function load(id) {\n  const r = await echo({id, n: 1});\n  r.seen = true;\n"
    "  return r;\n}"
    "\nreturn await load(1);",
]


def test_a_tool_reply_changed_in_a_functions_body_runs_as_in_node() -> None:
    runs_as_in_node(REPLY_CHANGES, RT)


@pytest.mark.parametrize(
    "text",
    [  # (a function of the program may return a value the program holds)
        "const m = {tags: ['a']};\nfunction get() { return m; }\n"
        "function app(f) { const r = f(); r.tags.push('x'); return r; }\n"
        "const out = app(get);\nreturn m;",
        "const m = {tags: ['a']};\nfunction get() { return m; }\n"
        "async function app() { const r = get(); r.k = 1; return r; }\n"
        "const out = await app();\nreturn m;",
        "async function getItem(x) { return await echo(x); }\n"
        "async function load(id) { const r = await getItem({id, tags: []}); r.tags.push('x'); "
        "return r; }\nreturn await load(7);",
        # (a top-level reply a function reads: it holds the part the change changes)
        "const r = await echo({tags: ['a']});\nfunction f() { return r.tags; }\nconst t = f();\n"
        "r.tags.push('x');\nreturn t;",
    ],
)
def test_a_value_a_function_may_hold_stays_refused(text: str) -> None:
    (verdict,) = check([text], RT)
    assert verdict.kind == "refused", (verdict.kind, verdict.detail)
