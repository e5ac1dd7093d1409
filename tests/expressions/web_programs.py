"""Random Plan programs over URLs, query strings, base64 and numbers beyond 2**53, for the
differential tests against Node (tests/expressions/test_web_values.py): each generator builds
texts from pools of ordinary and tricky parts (odd schemes, hosts, ports, dot segments,
characters each encoder treats apart, bad base64)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

__all__ = ["GENERATORS", "every_character_programs"]


def _js(text: str) -> str:
    return json.dumps(text)


_HOSTS = [
    "example.com", "EXAMPLE.com", "a.b.c", "x", "1.2.3.4", "255.255.255.255", "256.1.1.1",
    "01.2.3.4", "1.2.3", "0x7f.0.0.1", "a..b", "a.", "-a-", "a_b", "a*b", "a b", "a#b", "a%41",
    "xn--mnchen-3ya.de", "münchen.de", "", "a^b", "a|b", "a<b", "[::1]", "user@host",
    "u:p@host", "a.123", "foo.0x1", "localhost", "A.COM.", "a\tb", "a\\b", "api.github.com",
]  # fmt: skip
_PORTS = ["", ":", ":80", ":443", ":8080", ":0", ":0080", ":65535", ":65536", ":x", ":8a", ":-1"]
_SEGMENTS = [
    "a", "B", ".", "..", "%2e", "%2E%2e", ".%2e", "a b", "ü", "%zz", "%41", "{x}", "a`b",
    'a"b', "a<b>", "a'b", "a^b", "a|b", "", "~x", "a\\b", "é€😀", "\x7f", "a\x01b", "[x]",
    "a;b=c", "v1", "users",
]  # fmt: skip
_QUERIES = [
    None, "", "a=1", "a=1&b=2", "q=a b", "q='x'", 'q="x"', "x=ü", "a=%zz", "a=<>", "a=`{}|^",
    "a=1&a=2", "==", "&&a", "a+b=c+d", "a=\\", "x=😀",
]  # fmt: skip
_FRAGMENTS = [None, "", "h", "a b", "ü", '"<>`', "x#y", "{}", "'"]
_SCHEMES = [
    "https://", "http://", "HTTPS://", "Http://", "http:", "http:/", "https:///", "http:\\\\",
    "ftp://", "mailto:", "ws://", "file:///", "", "//", "javascript:", " https://",
]  # fmt: skip
_RELATIVE = [
    "/x", "x", "../x", "./x/../y", "?q=1", "#f", "", "//h.com/p", "http://o.com", "https:rel",
    "http:rel", "\\\\h/p", "a:b", "..", "../../..", "x?y#z", " /x ", "v2/items?id=7",
]  # fmt: skip
_MEMBERS = [
    "href", "host", "hostname", "port", "pathname", "search", "hash", "origin", "protocol",
    "username", "password",
]  # fmt: skip


def _url(r: random.Random) -> str:
    text = r.choice(_SCHEMES) + r.choice(_HOSTS) + r.choice(_PORTS)
    n = r.randint(0, 4)
    if n:
        text += r.choice(["/", "\\"]) + "/".join(r.choice(_SEGMENTS) for _ in range(n))
    query = r.choice(_QUERIES)
    if query is not None:
        text += "?" + query
    fragment = r.choice(_FRAGMENTS)
    if fragment is not None:
        text += "#" + fragment
    if r.random() < 0.1:
        text = " " + text + "\t "
    return text


def url_program(r: random.Random) -> str:
    """``new URL(text)`` or ``new URL(path, base)`` in a ``try``: its members, or what it
    throws."""
    if r.random() < 0.3:
        made = f"new URL({_js(r.choice(_RELATIVE))}, {_js(_url(r))})"
    else:
        made = f"new URL({_js(_url(r))})"
    members = ", ".join(f"u.{m}" for m in _MEMBERS)
    return (
        f"try {{ const u = {made}; return [{members}, [...u.searchParams], String(u), "
        "JSON.stringify(u)]; } catch (e) { return ['threw', e.name, e.message]; }"
    )


_TEXTS = [
    "a", "a b", "x&y", "x=y", "ü", "😀", "+", "%", "%41", "*-._", "!'()~", "\x00", "a\nb", "",
    "\xa0", "?a", "#", "a+b", "\x7f", "\uffff", "\U0010ffff", "1", "10", "2", "[]", "é€",
]  # fmt: skip
_VALUES = ["1", "2.5", "true", "null", "undefined", "[1, 2]", "[]", "2 ** 60", "1e21", "[null]"]
_QUERY_PARTS = [
    "a=1", "a", "=", "", "b=%zz", "c=%C3%A9", "d=%FF%FE", "e=%E2%82", "f=a+b", "g=%2B", "h==x",
    "?x=1", "%F0%9F%98%80=1", "i=%ED%A0%80", "j=%C0%80", "k=%F4%90%80%80", "%=%", "l=%e2%82%ac",
]  # fmt: skip


def _value(r: random.Random) -> str:
    return _js(r.choice(_TEXTS)) if r.random() < 0.65 else r.choice(_VALUES)


def params_program(r: random.Random) -> str:
    """A URLSearchParams made from an object, a text or pairs, changed by statements, read."""
    form = r.randrange(4)
    if form == 0:
        keys = r.sample(_TEXTS, r.randint(0, 4))  # (an object literal's keys differ)
        init = "{" + ", ".join(f"{_js(k)}: {_value(r)}" for k in keys) + "}"
    elif form == 1:
        init = _js("&".join(r.choice(_QUERY_PARTS) for _ in range(r.randint(0, 5))))
    elif form == 2:
        pairs = (f"[{_js(r.choice(_TEXTS))}, {_value(r)}]" for _ in range(r.randint(0, 3)))
        init = "[" + ", ".join(pairs) + "]"
    else:
        init = ""
    changes = []
    for _ in range(r.randint(0, 3)):
        method = r.choice(["append", "set", "delete"])
        name = _js(r.choice(_TEXTS))
        changes.append(
            f"p.{method}({name});" if method == "delete" else f"p.{method}({name}, {_value(r)});"
        )
    k = _js(r.choice(_TEXTS))
    reads = (
        f"p.toString(), p.get({k}), p.getAll({k}), p.has({k}), p.size, [...p], "
        f"Object.fromEntries(p), [...p.keys()], [...p.values()], `${{p}}`, '?' + p"
    )
    return f"const p = new URLSearchParams({init});\n" + "\n".join(changes) + f"\nreturn [{reads}];"


_BASE64 = [*"ABCabc0189+/", "=", " ", "\n", "\t", "\f", "\v", "-", "_", "é", "\xa0"]


def base64_program(r: random.Random) -> str:
    """``atob`` of a text near base64, ``btoa`` of any text (in a ``try``), or ``Buffer``'s
    forms."""
    pick = r.random()
    if pick < 0.45:
        text = "".join(
            r.choice(_BASE64[:12]) if r.random() < 0.85 else r.choice(_BASE64)
            for _ in range(r.randint(0, 10))
        )
        return f"try {{ return atob({_js(text)}); }} catch (e) {{ return [e.name, e.message]; }}"
    text = "".join(
        chr(
            r.choice([r.randint(0, 0x7F), r.randint(0x80, 0xFF), r.randint(0x100, 0xD7FF), 0x1F600])
        )
        for _ in range(r.randint(0, 5))
    )
    s = _js(text)
    if pick < 0.75:
        return f"try {{ return btoa({s}); }} catch (e) {{ return [e.name, e.message]; }}"
    return (
        f"const b = Buffer.from({s});\n"
        "return [b.toString('base64'), b.toString('hex'), b.toString('base64url'), b.length, "
        "Buffer.from(b.toString('base64'), 'base64').toString(), "
        "Buffer.from(b.toString('hex'), 'hex').toString('utf8'), `${b}`];"
    )


def number_program(r: random.Random) -> str:
    """Arithmetic on integers within 2**53 whose exact results pass it."""
    a = r.choice([2**53 - 1, 2**53, 2**52 + 1, 123456789, 3, 7, 10, 2**31, 999999999999, 2**40 + 3])
    b = r.choice([2**53 - 1, 2, 3, 4, 1000, 2**20, 123456789, 9])
    e = r.randint(0, 1100)
    x = r.choice(["2", "3", "10", "7", "0.5", "1.5", "(-2)", "(-3)"])
    return (
        f"return [{a} * {b}, {a} + {b} * {b}, {a} - -{b}, {x} ** {e % 80}, "
        f"String({a} * {b} * {b}), `${{{x} ** {e}}}`, JSON.stringify([{a} * {a}]), "
        f"Math.floor({a} * {b}), ({a} * {b}) % 7, "
        f"{a} * {b} > {a} * {b} - 1, Number([{a}]), Math.max.apply(null, [{a}, {b} * {b}]), "
        f"({a} * {b}).toFixed(1), [{a} * {b}].includes({b} * {a})];"
    )


def url_change_program(r: random.Random) -> str:
    """A URL whose query statements change (``u.searchParams.set(k, v);``), then read."""
    lines = [
        f"const u = new URL({_js(r.choice(['https://a.com/p', 'http://h.org/x?a=1#f', 'https://h.com/?a=1&a=2&b=']))});"
    ]
    for _ in range(r.randint(1, 4)):
        method = r.choice(["append", "set", "delete"])
        name = _js(r.choice(_TEXTS[:12]))
        lines.append(
            f"u.searchParams.{method}({name});"
            if method == "delete"
            else f"u.searchParams.{method}({name}, {_value(r)});"
        )
    lines.append(
        "return [u.href, u.search, u.hash, u.searchParams.toString(), u.searchParams.size];"
    )
    return "\n".join(lines)


GENERATORS: dict[str, Callable[[random.Random], str]] = {
    "url_change": url_change_program,
    "url": url_program,
    "params": params_program,
    "base64": base64_program,
    "number": number_program,
}


def every_character_programs() -> list[str]:
    """Programs that write every ASCII character, and one of each class beyond (Latin-1,
    the BMP, a character beyond it), through the form encoder and back, and through btoa."""
    chars = [chr(c) for c in range(0x80)]
    chars += ["\x80", "\xa0", "\xff", "\u0100", "\u07ff", "\u0800", "\ud7ff", "\ue000"]
    chars += ["\ufeff", "\ufffd", "\uffff", "\U00010000", "\U0001f600", "\U0010ffff"]
    out = []
    for i in range(0, len(chars), 16):
        items = ", ".join(_js(c) for c in chars[i : i + 16])
        out.append(
            f"return [{items}].map(c => [new URLSearchParams({{k: c, [c]: 'v'}}).toString(), "
            "new URLSearchParams('x=' + encodeURIComponent(c)).get('x'), "
            "new URL('https://h.com/' + c + '?' + c + '#' + c).href.length > 0 ? "
            "[new URL('https://h.com/a' + c + 'b').pathname, "
            "new URL('https://h.com/?a' + c + 'b').search, "
            "new URL('https://h.com/#a' + c + 'b').hash] : null])"
        )
    return out
