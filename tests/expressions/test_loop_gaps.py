"""Loop and statement forms models write that were refused, worded badly or answered otherwise
than Node (SPEC 10, "Loops", "Switch", "Changes outside loops"): each program either runs to
Node's value (checked against Node itself) or is refused with a clear message; never another
answer, and no message shows a hidden name the front end made (``_go1``, ``_j1``)."""

from __future__ import annotations

import re

import pytest

from dialectic import Runtime

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
        "return await [1, 2, 3].reduce(async (acc, x) => { acc = await acc; return acc + x; }, 0);",
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
