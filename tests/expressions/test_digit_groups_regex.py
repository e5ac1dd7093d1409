"""The thousands separators of `/\\B(?=(\\d{3})+(?!\\d))/g`, the one lookahead models write
(SPEC 1.8, "Regular expressions"; `values/regexdigits.py`): it and its variants give Node's
value with every method of a regex, in linear time; every other lookahead, and these patterns
with another flag or one character more, stay refused at their place with what to write."""

from __future__ import annotations

import time

import pytest

from .corpus_checks import run_both
from .model_tools import runtime

GROUP = "/\\B(?=(\\d{3})+(?!\\d))/g"

SAME = [
    # what models write: a total, a price, a fixed-point text, the integer part of a split
    "const n = 1234567.891;\nreturn n.toFixed(2).replace(" + GROUP + ", ',');",
    "const total = (await search_products()).reduce((s, p) => s + p.price * p.stock * 100, 0);\n"
    "return Math.round(total).toString().replace(" + GROUP + ", ',');",
    "const total = (await get_orders(1)).flatMap(o => o.items)"
    ".reduce((s, i) => s + i.price * i.qty, 0);\n"
    "const [int, dec] = total.toFixed(2).split('.');\n"
    "return `${int.replace(" + GROUP + ", ',')}.${dec}`;",
    "const fmt = n => String(n).replace(" + GROUP + ", ',');\n"
    "const users = await list_users();\n"
    "return users.map(u => `${u.name}: ${fmt(u.age * 123457)}`);",
    # the corners: a fraction of more than three digits, a letter or `_` before a run (no
    # boundary), a sign, a text beyond ASCII, several runs, short runs, the empty text
    "return ['1234.5678', 'a1234', '_12345', '-1234567', '12', '123', '1234', '', "
    "'x 9999999 y 12345 z', 'é1234', '€1234567,89', '1234567890123', '😀1234567😀']"
    ".map(s => s.replace(" + GROUP + ", ','));",
    # the variants: `(?:\\d{3})`, a leading `(\\d)` kept by `$1`, `$` for `(?!\\d)`, no `g`
    "return ['1234567', '12 345678', 'a1234'].map(s => s.replace(/(\\d)(?=(\\d{3})+(?!\\d))/g, "
    "'$1,'));",
    "return ['1234567', '12 345678', 'a1234', '1234.5678'].map(s => "
    "s.replace(/\\B(?=(\\d{3})+$)/g, ','));",
    "return ['1234567', '1234 5678', '1234.5678'].map(s => "
    "s.replace(/(\\d)(?=(?:\\d{3})+$)/g, '$1,'));",
    "return ['1234567', '1234 5678'].map(s => s.replace(/\\d(?=(\\d{3})+(?!\\d))/g, '[$&]'));",
    "return ['1234567', '12'].map(s => s.replace(/\\B(?=(?:\\d{3})+(?!\\d))/, ','));",
    # the group the lookahead captures (its last repetition), the place, the other methods
    "return '1234567'.replace(" + GROUP + ", (m, g, i) => `<${g}@${i}>`);",
    "return ['1234567', '12'].map(s => [s.split(/\\B(?=(\\d{3})+(?!\\d))/), "
    "s.search(/\\B(?=(?:\\d{3})+(?!\\d))/), s.match(" + GROUP + "), "
    "[...s.matchAll(/(\\d)(?=(\\d{3})+(?!\\d))/g)].map(m => [m[0], m[1], m[2], m.index])]);",
    "return ['1234567', '12', '123'].map(s => [/\\B(?=(\\d{3})+(?!\\d))/.test(s), "
    "s.match(/\\B(?=(\\d{3})+(?!\\d))/)]);",
    "const re = new RegExp('\\\\B(?=(\\\\d{3})+(?!\\\\d))', 'g');\n"
    "return ['9876543210'.replace(re, ' '), re.source, re.flags];",
    "return '1234567'.replaceAll(" + GROUP + ", ',');",
]


def test_the_idiom_and_its_variants_give_nodes_value() -> None:
    verdicts = run_both(SAME)
    assert [v.kind for v in verdicts] == ["same"] * len(SAME), [
        (v.name, v.detail) for v in verdicts if v.kind != "same"
    ]


@pytest.mark.parametrize(
    ("text", "column"),
    [
        # another flag, another lookahead, one more lookahead, another count of digits
        ("return '1234'.replace(/\\B(?=(\\d{3})+(?!\\d))/gi, ',');", 26),
        ("return '1234'.replace(/\\B(?=(\\d{3})+(?!\\d))/gm, ',');", 26),
        ("return '1234px'.replace(/\\d+(?=px)/g, ',');", 29),
        ("return '1234'.replace(/\\B(?=(\\d{3})+(?!\\d))(?=1)/g, ',');", 26),
        ("return '1234'.replace(/\\B(?=(\\d{2})+(?!\\d))/g, ',');", 26),
        ("return '1234'.replace(/(?<=\\d)(?=(\\d{3})+$)/g, ',');", 24),
        ("return '1234'.replace(/\\B(?=(\\d{3})*(?!\\d))/g, ',');", 26),
    ],
)
def test_every_other_lookahead_stays_refused_at_its_place(text: str, column: int) -> None:
    out = runtime().run(text, lang="plan")
    assert out.status == "failure" and out.error is not None, out.value
    message = out.message or ""
    assert "lookahead and lookbehind" in message, message
    assert f"line 1, column {column}" in message and "^" in message, message
    assert "hint" in message.lower(), message


def test_a_pattern_made_at_run_time_is_read_the_same() -> None:
    rt = runtime()
    out = rt.run(
        "const p = ['\\\\B(?=(\\\\d{3})', '+(?!\\\\d))'].join('');\n"
        "return '1234567'.replace(new RegExp(p, 'g'), ',');",
        lang="plan",
    )
    assert out.status == "success" and out.value == "1,234,567", out.message
    two = "return '12345'.replace(new RegExp('\\\\B(?=(\\\\d{2})+$)', 'g'), ',');"
    out = rt.run(two, lang="plan")
    assert out.status == "failure" and "lookahead" in (out.message or ""), out.message


def test_a_long_run_of_digits_is_grouped_in_linear_time() -> None:
    """Every match reads each run of digits once (no search per place reads the run again):
    300,000 digits are grouped well within the run's default deadline."""
    rt = runtime()
    start = time.monotonic()
    out = rt.run(
        "const s = '9'.repeat(300000);\nreturn [s.replace(" + GROUP + ", ',').length, "
        "s.split(/\\B(?=(?:\\d{3})+(?!\\d))/).length];",
        lang="plan",
    )
    assert out.status == "success" and out.value == [399999, 100000], out.message
    assert time.monotonic() - start < 20


def test_random_texts_and_every_variant_give_nodes_value() -> None:
    """Seeded random texts (digits, word characters, signs, points, spaces, characters beyond
    ASCII) through every variant with every method that finds matches."""
    import random

    rng = random.Random(20261125)
    alphabet = "0123456789" * 4 + "ab_Z.,- é😀"
    variants = [
        f"{head}(?={run}{tail})"
        for head in ("\\\\B", "(\\\\d)", "\\\\d")
        for run in ("(\\\\d{3})+", "(?:\\\\d{3})+")
        for tail in ("(?!\\\\d)", "$")
    ]
    texts = []
    for n, source in enumerate(variants):
        words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(6)]
        flags = "g" if n % 3 else ""
        texts.append(
            f"const re = new RegExp('{source}', '{flags}');\n"
            f"const ws = {words!r};\n"
            "return ws.map(w => [w.replace(re, '<$&|$1>'), w.split(re), w.search(re), "
            "re.global ? [...w.matchAll(re)].map(m => [...m, m.index]) : w.match(re)]);"
        )
    verdicts = run_both(texts)
    assert [v.kind for v in verdicts] == ["same"] * len(texts), [
        (texts[int(v.name)], v.detail) for v in verdicts if v.kind != "same"
    ]
