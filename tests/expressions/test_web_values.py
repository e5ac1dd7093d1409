"""URLs, query strings and base64 (SPEC 1.8, "URLs and query strings"), ``Math.max.apply``, and
arithmetic past 2**53 (SPEC 1.7): each program gives what Node gives, or fails clearly at its
place with what to write; random programs over tricky parts are compared with Node by the
hundred (none may differ)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dialectic.frontends.plan import decompile, parse_plan
from dialectic.values.jsbase64 import atob, btoa
from dialectic.values.jsnumber import JsThrows
from dialectic.values.jsops import JsRefusal
from dialectic.values.jsparams import JsSearchParams, new_search_params

from .program_oracle import check, runs_as_in_node, runtime
from .web_programs import GENERATORS, every_character_programs

RT = runtime()

SAME = [
    # what models write composing tool calls
    "return new URLSearchParams({q: s, page: 2}).toString();",
    "const params = new URLSearchParams({q: 'café au lait', limit: 10, tags: ['a', 'b']});\n"
    "return `https://api.example.com/search?${params}`;",
    "return 'https://x.com/s?' + new URLSearchParams({q: s});",
    "const p = new URLSearchParams();\n"
    "for (const w of words) { p.append('w', w); }\n"
    "p.set('n', words.length);\n"
    "p.delete('none');\n"
    "return p.toString();",
    "const q = new URLSearchParams('?a=1&b=x+y&a=3&c=%E2%82%AC');\n"
    "return [q.get('a'), q.getAll('a'), q.get('b'), q.get('c'), q.get('zz'), q.has('b'), q.size];",
    "return Object.fromEntries(new URLSearchParams('a=1&b=2&a=3'));",
    "return [...new URLSearchParams({x: 1, y: 2}).entries()];",
    "return new URLSearchParams(Object.entries({b: 2, a: 1, 10: 'ten', 2: 'two'})).toString();",
    "return String(new URLSearchParams([['a', 'b c'], ['d', '']]));",
    "const u = new URL('https://API.Example.com:8443/v1/users/../items?id=7&sort=asc#top');\n"
    "return [u.href, u.protocol, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, "
    "u.origin, u.searchParams.get('id'), Object.fromEntries(u.searchParams), String(u), "
    "u.toString(), JSON.stringify({u})];",
    "return new URL('/v2/items?x=1', 'https://api.example.com/v1/users').href;",
    "const url = new URL('https://api.example.com/search?x=1#h');\n"
    "for (const w of words) { url.searchParams.append('w', w); }\n"
    "url.searchParams.set('q', s);\n"
    "url.searchParams.append('page', 2);\n"
    "url.searchParams.delete('x');\n"
    "return [url.href, url.search, url.searchParams.get('q'), [...url.searchParams].length];",
    "const u = new URL('https://a.com/x?a=1');\n"
    "if (flag) { u.searchParams.set('flag', 'on'); }\n"
    "const before = [...u.searchParams];\n"
    "u.searchParams.delete('a');\n"
    "return [before, u.href, u.search];",
    "return new URL('../b/./c', 'https://h.com/x/y/z').pathname;",
    "return ['https://a.com/x', 'nope', 'http://b.org:80/p q'].map(t => "
    "{ try { return new URL(t).host; } catch (e) { return e.name + ': ' + e.message; } });",
    "return words.filter(w => URL.canParse(w));",
    "return [btoa('hello'), atob('aGVsbG8='), atob(' aGVs bG8 '), atob('aGVsbG8')];",
    "try { return btoa('€'); } catch (e) { return [e.name, e.message]; }",
    "try { return atob('abcde'); } catch (e) { return [e.name, e.message]; }",
    "return [Buffer.from('héllo wörld').toString('base64'), "
    "Buffer.from('aMOpbGxv', 'base64').toString(), Buffer.from('hi').toString('hex'), "
    "Buffer.from('6869', 'hex').toString('utf8'), Buffer.from('héllo').length];",
    "return [Math.max.apply(null, nums), Math.min.apply(Math, nums), "
    "Math.max.apply(undefined, [3, 9])];",
    "return [2 ** 1023, 3 ** 40, Number.MAX_SAFE_INTEGER * 4, 2 ** 53 + 1, String(2 ** 70), "
    "`${2 ** 64}`, JSON.stringify({n: 2 ** 60}), Math.floor(2 ** 60), (2 ** 60) % 7];",
    "return [Number([7]), Number(['8']), Number([]), Number([[' 9 ']]), Number([null]), +[5]];",
]


def test_web_helpers_run_as_in_node() -> None:
    runs_as_in_node(SAME, RT)


def test_every_character_is_encoded_as_node_encodes_it() -> None:
    """Every ASCII character and one of each class beyond, through the form encoder (both
    ways) and a URL's path, query and fragment."""
    runs_as_in_node(every_character_programs(), RT)


@pytest.mark.parametrize(("kind", "seed", "least"), [
    ("url", 1, 120), ("params", 2, 250), ("base64", 3, 250), ("number", 4, 250),
    ("url_change", 5, 250),
])  # fmt: skip
def test_random_programs_are_node_s_or_refused(kind: str, seed: int, least: int) -> None:
    r = random.Random(seed)
    verdicts = check([GENERATORS[kind](r) for _ in range(300)], RT)
    tally = Counter(v.kind for v in verdicts)
    bad = [v for v in verdicts if v.kind in ("wrong", "crash", "lazy")]
    assert not bad, bad[:3]
    assert tally["same"] >= least, tally


REFUSED = [
    ("return new URL('ftp://files.example.com/a').host;", "the scheme `ftp:`"),
    ("return new URL('http://[::1]:8080/').host;", "IPv6"),
    ("return new URL('https://user:pw@a.com/').host;", "credentials"),
    ("return new URL('https://münchen.de/').host;", "IDNA"),
    ("return new URL('http://127.1/').host;", "IPv4"),
    ("return new URL(s);", "throws TypeError: Invalid URL"),
    ("return atob('@@');", "throws InvalidCharacterError"),
    ("return btoa();", "btoa() needs the text"),
    (
        "const u = new URL('https://a.com/x'); return [u.searchParams.set('q', s), u.href];",
        "changes the URL in place",
    ),
    (
        "const u = new URL('https://a.com/x'); const sp = u.searchParams;\n"
        "u.searchParams.set('q', s); return sp.toString();",
        "a live view",
    ),
    ("const u = new URL('https://a.com/x'); u.pathname = '/y'; return u.href;", "changed in place"),
    ("const u = new URL('https://a.com/x'); return u;", "a URL cannot leave the program"),
    ("return new URLSearchParams('a=1');", "a URLSearchParams cannot leave the program"),
    ("return JSON.stringify(new URLSearchParams('a=1'));", "cannot leave the program"),
    ("return new URL('https://a.com').constructor;", "`constructor` is not allowed"),
    ("return new URLSearchParams('a=1').__proto__;", "`__proto__` is not allowed"),
    ("return new URL('https://a.com').origin2;", "has no member `origin2`"),
    ("return new URLSearchParams('a=1').sort();", "sort"),
    ("return URL('https://a.com');", "URL"),
    ("return new URLSearchParams({a: {b: 1}}).toString();", "[object Object]"),
    ("return Buffer.from('##', 'base64').toString();", "not well-formed base64"),
    ("return Number([1, 2]);", "an array of 2 items is NaN"),
    ("return Number([new Date(0)]);", "an array holding a Date is NaN"),
    ("return Math.max.apply(other, nums);", "unknown function `apply`"),
]


@pytest.mark.parametrize(("text", "says"), REFUSED)
def test_what_is_not_node_s_fails_clearly(text: str, says: str) -> None:
    out = RT.run(text, lang="plan", context={"s": "Hello, World", "nums": [1, 2], "other": 1})
    assert out.status == "failure", (text, out.value)
    assert out.error is not None and out.error.code != "internal_error", out.message
    assert says in (out.message or ""), out.message
    assert "Traceback" not in (out.message or "")


def test_a_thrown_url_error_is_caught_with_node_s_name_and_message() -> None:
    out = RT.run(
        "try { new URL(s); return 'valid'; } catch (e) { return [e.name, e.message]; }",
        lang="plan",
        context={"s": "not a url"},
    )
    assert out.value == ["TypeError", "Invalid URL"]


def test_appends_share_one_list_and_versions_stay_what_they_were() -> None:
    first = new_search_params("a=1")
    second = first.append("b", 2)
    third = second.append("c", 3)
    other = second.append("d", 4)  # (not the newest: a copy)
    assert [first.to_text(), second.to_text(), third.to_text(), other.to_text()] == [
        "a=1",
        "a=1&b=2",
        "a=1&b=2&c=3",
        "a=1&b=2&d=4",
    ]
    assert first.pairs() is not third.pairs()


def test_changes_that_copy_are_bounded_not_quadratic() -> None:
    p: JsSearchParams = new_search_params([[str(i), "v"] for i in range(50_000)])
    with pytest.raises(JsRefusal, match="too often"):
        for i in range(200):
            p = p.set(str(i), "w")


def test_a_long_loop_of_appends_runs() -> None:
    out = RT.run(
        "const p = new URLSearchParams();\n"
        "for (const i of Array.from({length: 20000}, (_, i) => i)) { p.append('k', i); }\n"
        "return p.size;",
        lang="plan",
    )
    assert out.value == 20000, out.message


def test_btoa_and_atob_are_each_other_s_inverse_on_bytes() -> None:
    text = "".join(chr(i) for i in range(256))
    assert atob(btoa(text)) == text
    with pytest.raises(JsThrows) as caught:
        btoa("\u0100")
    assert caught.value.name == "InvalidCharacterError"


def test_decompiled_query_programs_read_back_as_the_same_values() -> None:
    text = (
        "const p = new URLSearchParams({a: 1});\n"
        "p.append('b', [1, 2]);\n"
        "p.delete('a');\n"
        "return [p.toString(), new URL('https://h.com/x?y=1').searchParams.get('y')];"
    )
    again = decompile(parse_plan(text).tree)
    assert "new URLSearchParams([..." in again
    assert RT.run(again, lang="plan").value == RT.run(text, lang="plan").value == ["b=1%2C2", "1"]


def test_a_set_on_query_params_does_not_decompile_as_a_map() -> None:
    tree = parse_plan(
        "const p = new URLSearchParams('a=1&a=2'); p.set('a', 3); return p.toString();"
    ).tree
    with pytest.raises(Exception, match="URLSearchParams"):
        decompile(tree)


def test_a_loop_of_query_changes_on_a_url_is_linear_and_a_url_is_bounded() -> None:
    out = RT.run(
        "const u = new URL('https://a.com/x');\n"
        "for (const i of Array.from({length: 20000}, (_, i) => i)) {\n"
        "  u.searchParams.append('k', i);\n"
        "}\n"
        "return [u.searchParams.size, u.href.length];",
        lang="plan",
    )
    assert out.value == [20000, 148905], out.message
    out = RT.run("return new URL('https://a.com/' + 'é'.repeat(200000)).href;", lang="plan")
    assert out.status == "failure" and "1,000,000" in (out.message or "")
