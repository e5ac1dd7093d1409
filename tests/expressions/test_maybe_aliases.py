"""An alias whose value is a read that may miss (SPEC 1.2, "Optional members": `const first =
xs[0];`) is `undefined` as in JavaScript when the program reads the name only where it tests it
(`!first`, `first ?? d`, `first === undefined`, ...) or where such a test has shown it is there
(`first ? first.name : d`, the rest of the block after `if (!first) return d;`); any other read
keeps the clear failure. The same in Plan, Plan2 and Dialect JSON: the resolver decides."""

from __future__ import annotations

import pytest

from dialectic import Runtime
from dialectic.tools.convert import convert

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

NOBODY = "people.filter(p => p.age > 100)[0]"

AGREE = [
    f"const first = {NOBODY}; return first ? first.name : 'nobody';",
    f"const first = {NOBODY}; if (!first) return 'nobody'; return first.name;",
    f"const first = {NOBODY}; if (!first) {{ return 'nobody'; }}\nreturn first.name;",
    f"const first = {NOBODY}; if (first) {{ return first.name; }}\nreturn 'x';",
    f"const first = {NOBODY}; return first?.name ?? 'none';",
    f"const first = {NOBODY}; return first ?? 'none';",
    f"const first = {NOBODY}; return typeof first;",
    f"const first = {NOBODY}; return first && first.name;",
    f"const first = {NOBODY}; return !first ? 'none' : first.name;",
    f"const first = {NOBODY}; if (!first || first.age < 3) return 'none'; return first.name;",
    f"const first = {NOBODY}; if (first === undefined) return 'none'; return first.name;",
    f"const first = {NOBODY}; if (typeof first === 'undefined') return 'none';\nreturn first.name;",
    f"const first = {NOBODY}; if (first == null) return 'none'; return first.name;",
    f"const first = {NOBODY}; return first != undefined ? first.name : 'none';",
    f"const first = {NOBODY}; return first !== undefined && first.name;",
    f"const first = {NOBODY}; if (first?.name) return first.name; return 'none';",
    f"const first = {NOBODY}; return people.map(p => first ? first.name : p.name);",
    f"let best = {NOBODY}; if (!best) {{ return 'none'; }}\nreturn best.name;",
    f"const [first] = {NOBODY.removesuffix('[0]')}; return first ? first.name : 'nobody';",
    "const { zz } = data; return zz ?? 'none';",
    "const [a1, b1] = nums.slice(0, 1); return b1 ?? 'none';",
    "const w = data.missing; return w || 'dflt';",
    "const w = data.missing; if (!w) { return 'none'; }\nconst v = w.x; return v;",
    "const w = data.missing; return !w ? 'none' : echo(w);",
    "const w = data.missing; return w ? echo(w) : 'none';",
    "const top = nums.filter(x => x > 1000)[0]; return top?.score ?? 0;",
    # what a logical operator or a conditional in a tested place gives is tested too
    "return [data.nope ?? data.nope2 ?? 'none', data.nope || data.nope2 || 'none'];",
    "return [(flag ? data.nope : data.a) ?? 'none', !(data.a && data.nope)];",
    "const first = nums[99]; return data.nope ?? first ?? 'none';",
    # present: the same programs take the other branch
    "const first = people[0]; if (!first) return 'nobody'; return first.name;",
    "const hit = data.a; return hit === undefined ? 'none' : hit;",
]


def test_an_alias_tested_where_it_is_read_gives_what_node_gives() -> None:
    runs_as_in_node(AGREE, RT)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # read with no test at all
        (f"const first = {NOBODY}; return first.name;", "index 0 is out of range"),
        ("const [a1] = nums.slice(0, 0); return a1;", "index 0 is out of range"),
        # tested in one place, read untested in another where the miss would flow on
        (
            "const first = nums.filter(x => x > 1000)[0]; const ok = first !== undefined;\n"
            "return [ok, first + 1];",
            "index 0 is out of range",
        ),
        (
            "const first = nums.filter(x => x > 1000)[0];\n"
            "return first ? (first ? 1 : 2) : first + 1;",
            "index 0 is out of range",
        ),
        ("const w = data.missing; return `${w}`;", "no member `missing`"),
        ("const w = data.missing; return [w === undefined, w];", "no member `missing`"),
        # `=== null` does not test for undefined
        (
            f"const first = {NOBODY}; if (first === null) return 'none'; return first.name;",
            "index 0 is out of range",
        ),
        # another alias reads it first (Node throws there)
        (
            f"const first = {NOBODY}; const nm = first.name; return first ? nm : 'none';",
            "index 0 is out of range",
        ),
        # only the last key may miss
        ("const w = data.missing.b; return w ?? 'none';", "no member `missing`"),
        ("return data.nope ?? data.x.y ?? 'none';", "no member `x`"),
        # an operator's value that is not tested
        ("return (data.nope ?? data.nope2) + 1;", "no member `nope2`"),
    ],
)
def test_a_read_the_program_does_not_test_still_fails(text: str, message: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code in ("index_out_of_range", "member_not_found"), out.error.code
    assert message in out.error.message, out.error.message


@pytest.mark.parametrize(
    "text",
    [
        f"const first = {NOBODY}; if (!first) return 'nobody'; return first.name;",
        "const w = data.missing; return w ? echo(w) : 'none';",
        f"const first = {NOBODY}; return first.name;",
    ],
)
def test_every_notation_means_the_same(text: str) -> None:
    """The resolver marks the tree: the canonical JSON and Plan2 of a program run as it does."""
    want = RT.run(text, lang="plan", context=CONTEXT)
    for lang in ("json", "plan2"):
        other = convert(text, "plan", lang)
        got = RT.run(other, lang=lang, context=CONTEXT)
        assert (got.status, got.value) == (want.status, want.value), (lang, other, got.message)
        if want.error is not None:
            assert got.error is not None and got.error.code == want.error.code
