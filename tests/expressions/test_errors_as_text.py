"""A handler's error read as text and promises held in names (SPEC 10, the `try` bullet and
"Mapping to the call tree"): `` `failed: ${e}` ``, ``String(e)``, ``'x: ' + e``,
``e.toString()``, ``e instanceof Error``; ``Promise.allSettled(ps)`` of a name holding the
promises. Each compared with Node.js (``failLater(m)`` rejects with ``new Error(m)`` there);
what Node reads as a trap (``JSON.stringify(e)`` is ``{}``) or a program whose thrown values
Plan cannot tell from an error's is refused at its place.
"""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import check, runs_as_in_node, runtime

RT: Runtime = runtime()

FAILS = "try { return await failLater('not found'); } catch (e) { return %s; }"

SAME = [
    # the error as text: `Error: not found`, as Node's `String(new Error('not found'))`
    FAILS % "`failed: ${e}`",
    FAILS % "String(e)",
    FAILS % "'x: ' + e",
    FAILS % "e + '!'",
    FAILS % "e.toString()",
    FAILS % "`${e.name}: ${e.message}`",
    FAILS % "{error: String(e), at: 'load'}",
    FAILS % "e instanceof Error",
    "try { return await fail('x'); } catch (err) { console.error('failed', err); return 0; }",
    "try { throw new TypeError('bad input'); } catch (e) { return String(e); }",
    "try { throw new RangeError(`n = ${3}`); } catch (e) { return [`${e}`, e instanceof Error]; }",
    "try { throw new Error(); } catch (e) { return String(e); }",
    "try { throw 'plain text'; } catch (e) { return [`${e}`, e instanceof Error]; }",
    "try { JSON.parse(s); return 1; } catch (e) { return [e instanceof Error, e.name]; }",
    "function check(x) { if (x < 0) throw new Error('negative: ' + x); return x; }\n"
    "try { return check(-2); } catch (e) { return `caught ${e}`; }",
    "let msg = '';\ntry { await failLater('gone'); } catch (e) { msg = 'E ' + e; }\nreturn msg;",
    "const out = [];\nfor (const w of ['a', 'b']) {\n  try { out.push(await failLater(w)); }"
    " catch (e) { out.push(String(e)); }\n}\nreturn out;",
    # a promise's handler
    "return await failLater('z').catch(e => `oops ${e}`);",
    "return await failLater('z').catch(e => ({error: String(e)}));",
    "return await failLater('z').then(v => v, e => e.toString());",
    "return await slow(2).catch(e => String(e));",
    "return await failLater('z').catch(e => { console.log(e); return 'logged'; });",
    "const rs = await Promise.all(nums.map(x => (x > 2 ? failLater('big ' + x) : slow(x))"
    ".catch(e => ({error: String(e)}))));\nreturn rs;",
    # `Promise.allSettled` of a name that holds the promises
    "const ps = nums.map(x => x > 2 ? failLater('big' + x) : slow(x));\n"
    "const rs = await Promise.allSettled(ps);\nreturn rs.map(r => r.status);",
    "const ps = nums.map(x => x > 2 ? failLater('big' + x) : slow(x));\n"
    "const rs = await Promise.allSettled([...ps, slow(9)]);\n"
    "return rs.map(r => r.status === 'fulfilled' ? r.value : r.reason.message);",
    "const ps = [failLater('a'), slow(2)];\nconst rs = await Promise.allSettled(ps);\n"
    "return rs.map(r => r.status);",
    "const p = failLater('q');\nconst rs = await Promise.allSettled([slow(1), p]);\n"
    "return rs.filter(r => r.status === 'rejected').map(r => r.reason.message);",
    "const ps = nums.map(x => slow(x));\nconst rs = await Promise.allSettled(ps);\n"
    "return rs.map(r => r.value);",
    "const rs = await Promise.allSettled(nums);\nreturn rs.map(r => r.status);",
    # a promise held in a name, its handler chained later
    "const p = slow(3);\nconst u = await p;\nreturn u;",
    "const p = failLater('x');\nconst r = await p.catch(() => null);\nreturn r;",
    "const p = failLater('x');\ntry { return await p; } catch (e) { return 'caught ' + e; }",
    "const p = slow(5);\nlet v = 0;\ntry { v = await p; } catch (e) { v = -1; }\nreturn v;",
    "const p = failLater('x');\nconst k = 2;\nreturn await p.catch(e => `${k}: ${e}`);",
    "const p = slow(2);\nreturn await p.then(v => v + 1, err => -1);",
    "const p = failLater('q');\nreturn await p.then(v => v + 1, err => err.message);",
    "return await failLater('q').then(v => v, e => { throw e; }).catch(k => 'k ' + k);",
    "return await slow(1).then(v => { if (v > 0) throw new Error('pos'); return v; }, e => 0)"
    ".catch(k => String(k));",
    # fallbacks and per-item capture
    "const data2 = await failLater('x').catch(() => slow(5));\nreturn data2;",
    "const rs = await Promise.all(nums.map(x => failLater('n' + x)"
    ".catch(e => ({x, error: `${e}`}))));\nreturn rs;",
    # `Promise.any`: the first (in the array's order) to succeed; all fail: AggregateError
    "return await Promise.any([failLater('a'), slow(2), slow(3)]);",
    "return await Promise.any([failLater('a'), failLater('b')])"
    ".catch(e => [e.name, e.message, String(e), e instanceof Error]);",
    "return await Promise.any(nums.map(x => x > 2 ? failLater('no') : slow(x)));",
    "const ps = words.map(w => w.length > 3 ? slow(w) : failLater(w));\n"
    "return await Promise.any(ps);",
    "return await Promise.any([]).catch(e => e.message);",
    "return await Promise.any(nums);",
]


def test_errors_and_held_promises_run_as_in_node() -> None:
    runs_as_in_node(SAME, RT)


REFUSED = [
    (  # `{}` in Node: an Error's own fields are not enumerable
        "try { return await failLater('x'); } catch (e) { return JSON.stringify(e); }",
        "`e` is the error: Plan reads it as",
    ),
    ("return await failLater('x').catch(e => ({error: e}));", "`e` is the error"),
    ("return await failLater('x').catch(e => e.stack);", "a program has no stack trace"),
    (  # a thrown object is `[object Object]` as text in Node, no error's text
        "function g(x) { if (x) throw {code: 1, message: 'm'}; return 1; }\n"
        "try { return g(true); } catch (e) { return String(e); }",
        "the program throws a value that is neither an `Error` made where it is thrown",
    ),
    (
        "const bad = {name: 'Error', message: 'x'};\n"
        "return await Promise.reject(bad).catch(e => `${e}`);",
        "the program throws a value that is neither",
    ),
    (  # the name is read elsewhere too: its value whole would fail where Node has entries
        "const ps = nums.map(x => x > 2 ? failLater('big') : slow(x));\n"
        "const rs = await Promise.allSettled(ps);\nreturn [rs.length, ps.length];",
        "`Promise.allSettled` of `ps`, a name whose promises may fail and that the program "
        "reads elsewhere too",
    ),
    (
        "const p = failLater('x');\nconst a = await p.catch(() => 1);\nreturn [a, p];",
        "`p.catch(...)` of a promise the program reads elsewhere too",
    ),
    (  # (a caught error kept in a name: it would be thrown again as any value)
        "let err = null;\ntry { await failLater('x'); } catch (e) { err = e; }\n"
        "if (err) throw err;\nreturn await failLater('y').catch(e => String(e));",
        "`e` is the error",
    ),
    (
        "function g(x) { if (x) throw x; return 1; }\n"
        "return await failLater('y').catch(e => String(e)) + g(0);",
        "the program throws a value that is neither",
    ),
    (  # the argument is computed at the call: its failure would not reach the handler
        "async function safe(p) { try { return await p; } catch (e) { return null; } }\n"
        "return await safe(failLater('x'));",
        "`await p` in a `try` block, of a function's parameter",
    ),
    (
        "async function run(ps) { return Promise.allSettled(ps); }\n"
        "return (await run([failLater('a')])).length;",
        "`Promise.allSettled` of `ps`, a name whose promises may fail",
    ),
]


@pytest.mark.parametrize(("text", "message"), REFUSED)
def test_what_node_reads_as_a_trap_is_refused(text: str, message: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "syntax_error", out.message
    assert message in (out.message or ""), out.message
    assert "hint:" in (out.message or ""), out.message


def test_no_program_of_these_shapes_is_wrong() -> None:
    """Strict mode as the differential oracle runs it: each is Node's answer or refused."""
    texts = [text for text, _ in REFUSED] + SAME
    verdicts = check([t for t in texts if "console" not in t], RT)
    assert not [v for v in verdicts if v.kind in ("wrong", "crash")], verdicts


def test_promise_any_of_failures_only_fails_as_node_does() -> None:
    out = RT.run("return await Promise.any([failLater('a'), fail('b')]);", lang="plan")
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "thrown", out.message
    assert out.error.message == "All promises were rejected"


PLAN2 = [
    ("a: ${failLater('x').catch(e => `failed: ${e}`)}\nresult: ${a}", "failed: Error: x"),
    ("result: ${Promise.any([failLater('a'), slow(2)])}", 2),
    ("result: ${failLater('x').then(v => 1, e => String(e))}", "Error: x"),
]


@pytest.mark.parametrize(("text", "value"), PLAN2)
def test_plan2_reads_the_same_forms(text: str, value: object) -> None:
    out = RT.run(text, lang="plan2")
    assert out.status == "success", out.message
    assert out.value == value


def test_plan2_refuses_a_thrown_object_read_as_text() -> None:
    text = "result: ${Promise.reject({name: 'Error', message: 'x'}).catch(e => String(e))}"
    out = RT.run(text, lang="plan2")
    assert out.status == "failure" and out.error is not None
    assert "neither an `Error` made where it is thrown nor a text" in (out.message or "")
