"""Failures handled as JavaScript handles them (SPEC 10, the `try` bullet and "Mapping to the
call tree"): ``throw`` inside the program's functions and arrow callbacks, ``p.catch(h)``,
``p.then(f, h)``, ``Promise.allSettled`` with rejected entries, ``finally``,
``Promise.reject``. Each compared with Node.js (``failLater(m)`` rejects with ``new
Error(m)`` there, fails here; ``slow(v)`` is a promise of ``v``); what cannot be read exactly
is refused at its place.
"""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import node_answers, runs_as_in_node, runtime

RT: Runtime = runtime()

CHECK = "function check(x) { if (x < 0) throw new Error('negative: ' + x); return x * 2; }\n"

#: programs whose answer is Node's (no answer depends on the text of a failing call's error,
#: which is dialectic's: SPEC 10, deliberate differences)
SAME = [
    # `throw` in a function of the program: at the top, in a loop, caught at the call site
    CHECK + "return check(3);",
    CHECK + "try { return check(-1); } catch (e) { return e.message; }",
    CHECK + "const out = [];\nfor (const v of [1, -2, 3]) {\n  try { out.push(check(v)); }"
    " catch (e) { out.push(e.message); }\n}\nreturn out;",
    CHECK + "check(1);\nreturn 'checked';",
    CHECK + "return flag ? 1 : check(-5);",
    CHECK + "return [1, 2].map(check);",
    CHECK + "try { return nums.map(check); } catch (e) { return e.message; }",
    "const half = (x) => { if (x % 2 !== 0) { throw new RangeError(`odd: ${x}`); } return x / 2; };"
    "\ntry { const a = half(4); const b = half(a + 1); return [a, b]; }"
    " catch (err) { return [err.name, err.message]; }",
    "function total(xs) {\n  let t = 0;\n  for (const x of xs) {\n"
    "    if (x > 5) throw new Error('big ' + x);\n    t += x;\n  }\n  return t;\n}\n"
    "try { return total(nums); } catch (e) { return e.message; }",
    "function pick(x) {\n  switch (x) {\n    case 1: return 'one';\n"
    "    default: throw new Error('other ' + x);\n  }\n}\n"
    "try { return pick(2); } catch (e) { return e.message; }",
    "async function get(x) {\n  const r = await slow(x);\n"
    "  if (r.length > 3) throw new Error('long ' + r.length);\n  return r;\n}\n"
    "const out = [];\nfor (const w of words) {\n  try { out.push(await get(w)); }"
    " catch (e) { out.push('E:' + e.message); }\n}\nreturn out;",
    "function g(x) { if (x > 1) throw 'text ' + x; return x; }\n"
    "try { return g(2); } catch (e) { return 7; }",
    # in arrow callbacks: the value a callback returns, an early end of `some` and `find`
    "try { return people.map(p => { if (!p.city) throw new Error('no city: ' + p.name);"
    " return p.city; }); } catch (e) { return e.message; }",
    "return [1, 5].some(x => { if (x > 2) throw new Error('b'); return x > 0; });",
    "return [1, 5].find(x => { if (x > 2) throw new Error('b'); return x > 0; });",
    "nums.forEach(x => { if (x > 100) throw new Error('too big'); });\nreturn 'fine';",
    "let t = 0;\nnums.forEach(x => { if (x > 100) { throw new Error('too big'); } t += x; });\n"
    "return t;",
    # `p.catch(h)`, `p.then(f, h)`, chains
    "return await failLater('x').catch(e => e.name);",
    "return await failLater('x').catch(() => null);",
    "const v = await slow(3).catch(e => 0);\nreturn v * 2;",
    "const v = await failLater('z').catch(e => 0);\nreturn v * 2;",
    "return await failLater('a').then(v => v + 1).catch(e => 'caught ' + e.name);",
    "return await slow(1).then(v => v + 1).catch(e => -1);",
    "return await slow(4).then(v => v + 1, e => -1);",
    "return await failLater('boom').then(v => v + 1, e => e.name);",
    "const r = await slow(data).then(d => d.c).catch(() => []);\nreturn r.length;",
    "return await slow('{').then(t => JSON.parse(t)).catch(e => e.name);",
    "return await Promise.all([slow(1), failLater('x')]).catch(() => []);",
    "return [await slow(1).catch(() => 0), await failLater('q').catch(() => 0)];",
    # `Promise.reject`
    "return await Promise.reject(new Error('nope')).catch(e => e.message);",
    "try { return await Promise.reject(new TypeError('nope')); }"
    " catch (e) { return e.name + ': ' + e.message; }",
    "async function g(x) { if (x > 1) return Promise.reject(new Error('g ' + x)); return x; }\n"
    "return [await g(1), await g(5).catch(e => e.message)];",
    # `Promise.allSettled` with rejected entries
    "const rs = await Promise.allSettled([slow(1), failLater('no')]);\n"
    "return rs.map(r => r.status === 'fulfilled' ? r.value : r.reason.name);",
    "const rs = await Promise.allSettled([slow(1), Promise.reject(new Error('nope'))]);\n"
    "return rs.map(r => r.status === 'fulfilled' ? r.value : r.reason.message);",
    "const rs = await Promise.allSettled(nums.map(async x => {\n"
    "  if (x > 2) throw new Error('big ' + x);\n  return x;\n}));\n"
    "return rs.map(r => r.status === 'fulfilled' ? r.value : r.reason.message);",
    "const rs = await Promise.allSettled(nums.map(x => x > 2 ? failLater('big') : slow(x)));\n"
    "return rs.filter(r => r.status === 'rejected').length;",
    "const rs = await Promise.allSettled(nums.map(x => slow(x)));\nreturn rs;",
    "const ps = nums.map(x => slow(x));\nconst rs = await Promise.allSettled(ps);\n"
    "return rs.map(r => r.value);",
    # `finally`
    "try { const v = await slow(1); return v; } finally { console.log('done'); }",
    "let t = 0;\ntry { t = await slow(3); } finally { t += 1; }\nreturn t;",
    "let t = 0;\ntry { t = await failLater('x'); } catch (e) { t = -1; } finally { t += 10; }\n"
    "return t;",
    "let t = 0;\ntry { t = await slow(2); } catch (e) { t = -1; } finally { t += 10; }\nreturn t;",
    "const log = [];\nfor (const x of [1, 2]) {\n  try {\n"
    "    if (x > 1) throw new Error('b' + x);\n    log.push(x);\n"
    "  } catch (e) {\n    log.push(e.message);\n  } finally {\n    log.push('f' + x);\n  }\n}\n"
    "return log;",
    "try { return await slow(1); } catch (e) { return 0; } finally { console.log('x'); }",
    "function g() { try { return 'a'; } finally { console.log('cleanup'); } }\nreturn g();",
    "let done = false;\ntry { await slow(1); } finally { done = true; }\nreturn done;",
    "const r = [];\ntry { r.push(await slow(1)); } finally { r.push('end'); }\nreturn r;",
    "try { const x = 1; } finally { }\nreturn 1;",
]


def test_failures_are_handled_as_node_handles_them() -> None:
    runs_as_in_node(SAME, RT)


#: programs where Node throws: the run fails with code `thrown`, Node's message, at the place
#: of the `throw` (line, column)
UNCAUGHT = [
    (CHECK + "return check(-1);", (1, 32)),
    (CHECK + "check(-1);\nreturn 1;", (1, 32)),
    (
        CHECK + "const out = [];\nfor (const v of [1, -2]) { out.push(check(v)); }\nreturn out;",
        (1, 32),
    ),
    (
        "return people.map(p => {\n  if (!p.city) throw new Error('no city');\n"
        "  return p.city;\n});",
        (2, 16),
    ),
    (
        "nums.forEach(x => {\n  if (x > 2) throw new Error('too big: ' + x);\n});\nreturn 1;",
        (2, 14),
    ),
    (
        "return await slow(4).then(v => { if (v > 3) throw new Error('v ' + v); return v; });",
        (1, 45),
    ),
    ("return await Promise.reject(new Error('nope'));", (1, 14)),
    (
        "let t = 0;\ntry { t = await slow(1); } finally { t += 1; }\nthrow new Error('end ' + t);",
        (3, 1),
    ),
]


@pytest.mark.parametrize(("text", "where"), UNCAUGHT)
def test_an_uncaught_throw_fails_with_nodes_message_at_its_place(
    text: str, where: tuple[int, int]
) -> None:
    (answer,) = node_answers([text])
    assert "error" in answer, answer
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "thrown", out.message
    assert answer["error"].endswith(": " + out.error.message), (answer, out.error.message)
    assert out.message is not None
    assert out.message.startswith(f"line {where[0]}, column {where[1]}: "), out.message
