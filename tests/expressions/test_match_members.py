"""A regex match array (SPEC 1.8, "Regular expressions") is an array with JavaScript's `index`,
`input` and `groups`; a copy of it is a plain array; `re.exec(s)` without `g` is
`s.match(re)`. Node's answers, and the members forgotten with the run."""

from __future__ import annotations

import gc

import pytest

from dialectic import Runtime
from dialectic.values import matchinfo

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

AGREE = [
    "const m = '2024-05'.match(/(?<y>\\d+)-(?<m>\\d+)/);\n"
    "return [m.groups.y, m.groups.m, m.index, m.input, m.length, m[1]];",
    "const m = 'ab 2024-05'.match(/(\\d+)-(\\d+)/);\n"
    "return [m.index, m.input, m.groups === undefined, m.length, JSON.stringify(m)];",
    "return [...'a1b22c333'.matchAll(/\\d+/g)].map(m => m.index);",
    "return [...'a1b22c333'.matchAll(/(?<d>\\d+)/g)].map(m => m.groups.d + '@' + m.index);",
    "const m = 'x 12'.match(/(?<num>\\d+)/); const [all, num] = m;\n"
    "return [all, num, m.groups.num];",
    "const re = /(\\d+)/; const m = re.exec('ab 42'); return [m[1], m.index, m.input];",
    "const re = /(?<k>\\w+)=(?<v>\\w+)/;\n"
    "return ['a=1', 'b=2', 'zz'].map(t => re.exec(t)?.groups?.v ?? null);",
    "const m = 'abc'.match(/z/); return m?.index ?? -1;",
    "const m = 'abc'.match(/b/); return m ? m.index : -1;",
    "const m = '😀 12'.match(/\\d+/u); return [m.index, m.input.length];",
    "return JSON.stringify('a1'.match(/(?<x>z)?(\\d)/).groups);",
    "const m = 'a1'.match(/(?<x>z)?(\\d)/); return [m.groups.x === undefined, m[1] ?? 'none'];",
    "for (const m of 'a1b2'.matchAll(/\\d/g)) { return m.index; }\nreturn -1;",
    "const out = [];\nfor (const m of 'a1b2'.matchAll(/\\d/g)) { out.push(m.index); }\nreturn out;",
    "return words.map(w => w.match(/[aeiou]/)?.index ?? -1);",
    "return people.map(p => p.name.match(/(?<first>\\w)/).groups.first);",
    "const m = later('x9').match(/\\d/); return m.index;",
    # the members are listed after the items, and structuredClone keeps them
    "const m = 'abc'.match(/b/); return [Object.keys(m), Object.values(m).length];",
    "const m = 'abc'.match(/b/); const ks = [];\nfor (const k in m) { ks.push(k); }\nreturn ks;",
    "const m = 'abc'.match(/(?<x>b)/); return structuredClone(m).groups.x;",
    # a copy, or the texts of a `g` match, is a plain array
    "const m = 'abc'.match(/b/); return [[...m].index ?? 'none', m.slice().index ?? 'none'];",
    "return 'a1b2'.match(/\\d/g).index ?? 'none';",
    # a function's result is new data (JSON), a computed key reads the members too
    "const m = 'abc'.match(/b/); return [echo(m).index ?? 'none', echo(m).length];",
    "const m = 'abc'.match(/b/); const k = 'index'; return [m[k], m['input']];",
    "const m = 'abc'.match(/(?<x>b)/); const {index, groups} = m; return [index, groups.x];",
]


def test_match_arrays_have_their_members_as_in_node() -> None:
    runs_as_in_node(AGREE, RT)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("const re = /(\\d+)/g; return re.exec('ab 42');", "lastIndex"),
        ("return 'ab'.match(/b/g).index;", "Only a match array itself"),
        ("return [...'ab'.match(/b/)].groups;", "Only a match array itself"),
    ],
)
def test_what_is_no_match_array_member_fails_clearly(text: str, message: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert message in f"{out.error.message} {out.error.hint}", out.error


def test_the_members_are_forgotten_with_the_run() -> None:
    out = RT.run("return [...'a1b2c3'.matchAll(/\\d/g)].map(m => m.index);", lang="plan")
    assert out.value == [1, 3, 5]
    gc.collect()
    assert not matchinfo._TABLE  # (each run's arrays are kept only while its state lives)
