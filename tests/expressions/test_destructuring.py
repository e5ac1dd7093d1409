"""Destructuring statements (SPEC 10): nested patterns, holes and defaults read the parts Node
reads, a nested pattern's rest too; what Plan does not have (computed keys) fails at the place,
saying what to write."""

from __future__ import annotations

import pytest

from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import parse_plan

from .program_generator import CONTEXT
from .program_oracle import check, node_answers, runtime, same

RT = runtime()
PROGRAMS = [
    "const {a, c: [first, , third], d: {f}} = data;\nreturn [a, first, third, f];",
    "const [{name}, , {tags: [t]}] = people;\nreturn name + t;",
    "const [, second] = nums;\nreturn second;",
    "const [[x, y], [z]] = [[1, 2], [3]];\nreturn x + y + z;",
    "const {d: {e, f: fv}} = await later(data);\nreturn [e, fv];",
    "const [head, ...tail] = words;\nconst {length} = tail;\nreturn [head, length];",
    "const [{age: a1}, {age: a2}] = people.toSorted((p, q) => p.age - q.age);\nreturn a1 + a2;",
    # an object pattern's rest: the other members, in their order
    "const {a, ...others} = data;\nreturn others;",
    "const {a, b, d: {e}, ...others} = data;\nreturn [a, b, e, Object.keys(others)];",
    "const {...all} = data;\nreturn all;",
    "const out = [];\nfor (const {name, ...rest} of people) { out.push([name, rest]); }\n"
    "return out;",
    # a nested pattern's rest: the items after the named ones, the members but the named ones
    "const {a, c: [first, ...more], d: {e, ...others}} = data;\n"
    "return [a, first, more, e, others];",
    "const [x, [y, ...z], {k, ...r}] = [1, [2, 3, 4], {k: 1, j: 2}];\nreturn [x, y, z, k, r];",
    "const [{name, ...rest}] = people;\nreturn [name, rest];",
    "const [x, [y, ...z] = [9, 8, 7]] = [1];\nreturn [x, y, z];",
    "const {p: {q, ...rest} = {q: 1, w: 2}} = {};\nreturn [q, rest];",
    "const [[...chars]] = ['hé😀'];\nreturn chars;",
    "return [{v: [1, 2, 3]}, {v: [4, 5]}].map(({v: [h, ...t]}) => [h, t]);",
    "function f({a: {b, ...r}}) { return [b, r]; }\nreturn f({a: {b: 1, c: 2, d: 3}});",
    # the hidden names of many destructurings: none the program writes (`_parts2`), in a
    # function's body as at the top (where each search starts is the block's own)
    "const _parts2 = 5;\nconst [p, [q]] = [1, [2]];\nconst {a: x1, c: [y1]} = data;\n"
    "function g(o) { const {a: [u]} = o; const [w, {v}] = [u, o.b]; return u + w + v; }\n"
    "const [z1, {d: {e: z2}}] = [g({a: [3], b: {v: 4}}), data];\n"
    "return [p, q, _parts2, x1, y1, z1, z2];",
]


def test_nested_patterns_read_what_node_reads() -> None:
    answers = node_answers(PROGRAMS)
    for program, answer in zip(PROGRAMS, answers, strict=True):
        assert "ok" in answer, (program, answer)
        out = RT.run(program, lang="plan", context=CONTEXT)
        assert out.status == "success", (program, out.message)
        assert same(out.value, answer["ok"]) is None, (program, out.value, answer)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("const {a: 1} = o;\nreturn a;", "a name or a pattern after `:`", 11),
        ("const {[k]: v} = o;\nreturn v;", "only names and patterns", 8),
        ("const {a = b, b} = o;\nreturn a;", "reads `b` before the pattern defines it", 12),
        ("const [{c} = [c]] = o;\nreturn c;", "reads `c` before the pattern defines it", 14),
        ("const {a = 1 = 2} = o;\nreturn a;", "Plan has no operator `=`", 14),
    ],
)
def test_what_patterns_do_not_have_fails_at_the_place(text: str, message: str, column: int) -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan(text)
    problem = caught.value.problems[0]
    assert message in problem.message
    assert (problem.line, problem.column) == (1, column)
    assert problem.hint


def test_an_error_in_a_nested_part_points_at_its_name() -> None:
    out = RT.run("const {d: {missing}} = data;\nreturn missing;", lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None
    assert (out.error.line, out.error.column) == (1, 12), out.message


def test_a_very_deep_pattern_is_refused_at_the_depth_limit() -> None:
    text = "const " + "{a: " * 150 + "b" + "}" * 150 + " = o;\nreturn b;"
    with pytest.raises(SourceError) as caught:
        parse_plan(text)
    assert "nested more than 100 levels" in caught.value.problems[0].message


# Defaults apply only where the part is `undefined` (missing, or an `undefined` the program
# wrote), never to `null`; a default runs only when it applies (JSON.parse('{') throws)
DEFAULTS = [
    "const {a = 1, zz = 2} = {a: null};\nreturn [a, zz];",
    "const {d: {e = 'x', f = 'y', g = 'z'} = {}} = data;\nreturn [e, f, g];",
    "const {q: {r} = {r: 5}, d: {f: t} = {f: 0}} = data;\nreturn [r, t];",
    "const [x = 0, y, z = 9] = [undefined, 2];\nreturn [x, y, z];",
    "const [p = 1, q = 2] = [null];\nreturn [p, q];",
    "const [, w = 'w', ...others] = nums;\nreturn [w, others];",
    "const [[m = 1, k = 2] = [], [j] = [7]] = [[3]];\nreturn [m, k, j];",
    "const {a = JSON.parse('{'), c: [c0 = nums.at(99).y]} = data;\nreturn [a, c0];",
    "const {zz = await later(n), a, yy = a + 1} = data;\nreturn [zz, yy];",
    "const [ch = '?', c2 = '?'] = 'é';\nreturn [ch, c2];",
    "const {name = 'none', tags: [t1 = 'no tag'] = []} = people[1];\nreturn [name, t1];",
    "const {length = 0} = words;\nreturn length;",
    "const {u = 'default'} = {u: undefined};\nreturn u;",
    "const {b: {c = 1} = {}} = {b: null};\nreturn c;",
    "const {missing: {deeper}} = data;\nreturn deeper;",
    "const [a = 1] = {};\nreturn a;",
    "const [a = 1] = n;\nreturn a;",
    "const [e = '?', x, y = 'none'] = '😀x';\nreturn [e, x, y];",
]


def test_defaults_apply_as_in_node() -> None:
    verdicts = check(DEFAULTS, RT)
    for v in verdicts:
        # Node's TypeError (destructuring null, reading a part of undefined) is a failure here
        assert v.kind in ("same", "refused"), (v.program, v.kind, v.detail)
    assert [v.kind for v in verdicts].count("refused") == 4, [(v.program, v.kind) for v in verdicts]


def test_an_unused_default_does_not_run() -> None:
    program = "const {a = add('x', 1)} = data;\nreturn a;"
    out = RT.run(program, lang="plan", context=CONTEXT)
    assert out.status == "success" and out.value == 1, out.message
    out = RT.run("const {zz = add('x', 1)} = data;\nreturn zz;", lang="plan", context=CONTEXT)
    assert out.status == "failure" and "not a number" in (out.message or "")


def test_an_array_pattern_iterates_a_text_by_code_points() -> None:
    # '😀xy'[2] is 'x' (UTF-16 units), but destructuring iterates: c is 'y' in Node (was 'x')
    texts = [
        "const [a, b, c] = '😀xy';\nreturn c;",
        "const [, second] = '😀x';\nreturn second;",
        "return ['😀xy'].map(([a, b, c]) => c);",
        "const out = [];\nfor (const [a, b] of ['😀x', 'y😀']) { out.push(b); }\nreturn out;",
        "const [[p, q]] = ['é😀'];\nreturn q;",
    ]
    rt = runtime()
    for text, answer in zip(texts, node_answers(texts), strict=True):
        assert "ok" in answer, (text, answer)
        out = rt.run(text, lang="plan")
        assert out.status == "success", (text, out.message)
        assert same(out.value, answer["ok"]) is None, (text, out.value, answer)


def test_a_nested_pattern_never_closed_is_a_syntax_error() -> None:
    # (found by the fuzzer: an IndexError past the end of the tokens)
    from dialectic.frontends.base import SourceError
    from dialectic.frontends.plan import parse_plan

    for text in ["const {xs: [, x = " + "[" * 120 + "1, y]} = reply;\nreturn x;", "const [[a"]:
        with pytest.raises(SourceError) as caught:
            parse_plan(text, strict=True)
        assert "expected the end of the pattern" in str(caught.value)


def test_an_arrow_body_destructures_as_the_top_of_the_program_does() -> None:
    # each program above, its statements the block body of a callback: the same verdicts
    plain = [
        p for p in PROGRAMS + DEFAULTS if not any(w in p for w in ("await", "for (", "function"))
    ]
    wrapped = [
        "return [0].map(_z => {\n" + "\n".join("  " + line for line in p.split("\n")) + "\n})[0];"
        for p in plain
    ]
    top, inside = check(plain, RT), check(wrapped, RT)
    for a, b in zip(top, inside, strict=True):
        assert b.kind in ("same", "refused"), (b.program, b.kind, b.detail)
        assert a.kind == b.kind, (b.program, a.kind, b.kind, b.detail)
    assert sum(v.kind == "same" for v in inside) >= 25
