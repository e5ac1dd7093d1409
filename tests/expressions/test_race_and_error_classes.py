"""`Promise.race` (the first element in the array's order that does not wait: a deliberate
difference, SPEC 10), a rejected entry's `reason` read as text, and `e instanceof TypeError`
(and the other error classes) in a handler (SPEC 10, the `try` bullet): each program gives
Node's value, what Plan cannot read exactly is refused at its place."""

from __future__ import annotations

import pytest

from .model_tools import judge, node_answers, runtime

SAME = [
    # the race: the first element in the array's order, its value or its failure
    "return await Promise.race([get_weather('Paris'), get_weather('London')]);",
    "return await Promise.race([get_weather('Atlantis'), get_weather('London')])"
    ".catch(e => e.message);",
    "const winner = await Promise.race(['Tokyo', 'Paris'].map(c => get_weather(c)));\n"
    "return winner.city;",
    "const ps = [get_user(1), get_user(2)];\nreturn (await Promise.race(ps)).name;",
    "return await Promise.race([1, get_user(2)]);",
    # a timer settles after the calls
    "const fast = await Promise.race([new Promise(r => setTimeout(r, 10)).then(() => 'timer'),"
    " get_user(2)]);\nreturn fast.name;",
    "const u = await Promise.race([get_user(3), new Promise(r => setTimeout(r, 3000))]);\n"
    "return u.name;",
    # a rejected entry's reason as text
    "const rs = await Promise.allSettled([get_user(1), get_user(9)]);\n"
    "return rs.map(r => r.status === 'fulfilled' ? r.value.name : String(r.reason));",
    "const rs = await Promise.allSettled(['Paris', 'Atlantis'].map(c => get_weather(c)));\n"
    "return rs.map((r, i) => r.status === 'fulfilled' ? r.value.city : "
    "`#${i} failed: ${r.reason}`);",
    "const rs = await Promise.allSettled([get_user(1), Promise.reject('plain text'), "
    "Promise.reject(new TypeError('bad'))]);\n"
    "return rs.map(r => r.status === 'rejected' ? [String(r.reason), r.reason instanceof Error,"
    " r.reason instanceof TypeError, 'x: ' + r.reason, r.reason.toString()] : r.value.id);",
    "const rs = await Promise.allSettled([get_user(9)]);\n"
    "return rs.filter(r => r.status === 'rejected').map(r => r.reason?.message + ' / ' + "
    "r.reason);",
    "const rs = await Promise.allSettled([get_user(9)]);\n"
    "const bad = rs.find(r => r.status === 'rejected');\nreturn bad ? String(bad.reason) : 'ok';",
    # the error classes
    "try { return await get_user(9); } catch (e) {\n  return [e instanceof TypeError, "
    "e instanceof Error, e instanceof RangeError, e instanceof SyntaxError];\n}",
    "try { JSON.parse('{x'); return 1; } catch (e) {\n"
    "  return e instanceof SyntaxError ? 'bad json' : 'other';\n}",
    "try { new URL('nope'); return 1; } catch (e) { return [e instanceof TypeError, e.name]; }",
    "try { throw new RangeError('too big'); } catch (e) {\n"
    "  return [e instanceof RangeError, e instanceof TypeError, e instanceof Error];\n}",
    "try { throw 'oops'; } catch (e) {\n"
    "  return [e instanceof Error, e instanceof TypeError, String(e)];\n}",
    "return await get_user(9).catch(e => e instanceof TypeError ? 'type' : "
    "e instanceof Error ? 'error' : 'other');",
    "function check(x) { if (x > 2) throw new RangeError(`too big: ${x}`); return x; }\n"
    "const out = [];\nfor (const x of [1, 5]) {\n  try { out.push(check(x)); } catch (e) {\n"
    "    out.push(e instanceof RangeError ? e.message : 'no');\n  }\n}\nreturn out;",
    "return [[] instanceof TypeError, ({}) instanceof Error, 'x' instanceof SyntaxError];",
]


def test_the_forms_give_nodes_value() -> None:
    rt = runtime()
    verdicts = [
        judge(rt, str(i), text, answer)
        for i, (text, answer) in enumerate(zip(SAME, node_answers(SAME), strict=True))
    ]
    assert [v.kind for v in verdicts] == ["same"] * len(SAME), [
        (v.name, v.detail) for v in verdicts if v.kind != "same"
    ]


def test_the_race_takes_the_first_call_and_makes_no_other() -> None:
    rt = runtime()
    out = rt.run("return await Promise.race([get_user(1), get_user(2), get_user(3)]);", lang="plan")
    assert out.status == "success", out.message
    assert out.value["id"] == 1
    assert [(c["function"], c["arguments"]) for c in out.calls] == [("get_user", {"id": 1})]


@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        (
            "return await Promise.race([sleep(10).then(() => 'a'), sleep(20).then(() => 'b')]);",
            "does not wait",
            (1, 22),
        ),
        (
            "const ps = [get_user(1)];\nreturn await Promise.race([...ps, get_user(2)]);",
            "`Promise.race` of a spread",
            (2, 22),
        ),
        (
            "const rs = await Promise.allSettled([get_user(9)]);\n"
            "return rs.map(r => JSON.stringify(r.reason));",
            "a rejected entry's `reason` is the error",
            (2, 37),
        ),
        (
            "const rs = await Promise.allSettled([get_user(9)]);\n"
            "return rs.map(r => ({error: r.reason}));",
            "a rejected entry's `reason` is the error",
            (2, 31),
        ),
        (  # a thrown object's text is `[object Object]` in Node
            "const rs = await Promise.allSettled([get_user(9)]);\n"
            "if (rs[0].status === 'rejected') throw { code: 1 };\nreturn String(rs[0].reason);",
            "the program throws a value that is neither an `Error`",
            (3, 21),
        ),
        (
            "try { return await get_user(9); } catch (e) { return e instanceof Foo; }",
            "the right side of `instanceof` must be one of",
            (1, 67),
        ),
    ],
)
def test_what_cannot_be_read_exactly_is_refused(
    text: str, message: str, where: tuple[int, int]
) -> None:
    out = runtime().run(text, lang="plan")
    assert out.status == "failure" and out.error is not None, out.value
    assert message in (out.message or ""), out.message
    assert (out.error.line, out.error.column) == where, out.message


def test_a_call_in_the_arguments_of_another_is_read_in_order() -> None:
    """The handler reads the error of a chain of calls, each in the arguments of the one
    before (the inner fails first, as in JavaScript); two side by side stay refused."""
    texts = [
        "try { return JSON.parse(await read_file('/data/notes.md')); } catch (e) "
        "{ return e.name; }",
        "try { return JSON.parse(await read_file('/nope')); } catch (e) { return e.message; }",
        "try { return await get_orders((await get_user(9)).id); } catch (e) { return e.message; }",
    ]
    rt = runtime()
    verdicts = [
        judge(rt, str(i), text, answer)
        for i, (text, answer) in enumerate(zip(texts, node_answers(texts), strict=True))
    ]
    assert [v.kind for v in verdicts] == ["same"] * len(texts), verdicts
    out = rt.run(
        "try { return [await get_user(9), await get_user(8)]; } catch (e) { return e.message; }",
        lang="plan",
    )
    assert out.status == "failure" and "another call that may fail" in (out.message or "")
