"""A comparator `(a, b) => K(a) - K(b)` of texts subtracts their numbers, as JavaScript's `-`
makes them (`Object.keys(counts).sort((a, b) => a - b)`: the keys of an object are texts);
refused where one is no number (JavaScript's comparator then answers NaN) or is not a text or
a number (SPEC 1.8, `sort`; `compiler/higherorder.py`)."""

from __future__ import annotations

import pytest

from .corpus_checks import run_both
from .model_tools import runtime

SAME = [
    # what models write: the keys of a tally, by their number
    "const users = await list_users();\nconst counts = {};\n"
    "for (const u of users) counts[u.age] = (counts[u.age] || 0) + 1;\n"
    "return Object.keys(counts).sort((a, b) => b - a);",
    "const users = await list_users();\nconst decades = {};\nfor (const u of users) {\n"
    "  const d = Math.floor(u.age / 10) * 10;\n  decades[d] = (decades[d] || 0) + 1;\n}\n"
    "return Object.keys(decades).sort((a, b) => a - b)"
    ".map(d => `${String(d).padStart(3)}s ${'#'.repeat(decades[d])}`).join('\\n');",
    "const ps = await search_products();\n"
    "return ps.map(p => ({ id: p.id, price: p.price.toFixed(2) }))"
    ".sort((a, b) => b.price - a.price).map(p => p.id);",
    "return Object.entries({ x: '3', y: '10', z: '2' }).sort((p, q) => p[1] - q[1]);",
    # the corners: spaces, the empty text, hex, exponents, signs, mixed with numbers, the
    # infinities, equal numbers written otherwise (a stable order), beyond 2**53
    "return ['10', '9', ' 2 ', '', '0x10', '1e3', '-5', '3.5', 7, 'Infinity', '-Infinity']"
    ".sort((a, b) => a - b);",
    "return [{v: '10'}, {v: '9'}, {v: '09'}, {v: '2'}, {v: '2.0'}]"
    ".sort((a, b) => b.v - a.v).map(o => o.v);",
    "return ['12345678901234567890', '12345678901234567891', '1'].sort((a, b) => a - b);",
    "return ['3', '1', '2'].toSorted((a, b) => a - b);",
]


def test_texts_subtracted_give_nodes_order() -> None:
    verdicts = run_both(SAME)
    assert [v.kind for v in verdicts] == ["same"] * len(SAME), [
        (v.name, v.detail) for v in verdicts if v.kind != "same"
    ]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("return ['10', '9', '2', 'x'].sort((a, b) => a - b);", '"x" is no number'),
        ("return ['b', 'a'].sort((a, b) => a - b);", "is no number"),
        (
            "const users = await list_users();\n"
            "return users.sort((a, b) => a.name - b.name).map(u => u.id);",
            "is no number",
        ),
        ("return ['3', null, '1'].sort((a, b) => a - b);", "subtracts null values"),
        ("return ['3', true, '1'].sort((a, b) => a - b);", "subtracts boolean values"),
    ],
)
def test_a_text_that_is_no_number_is_refused(text: str, says: str) -> None:
    out = runtime().run(text, lang="plan")
    assert out.status == "failure", out.value
    message = out.message or ""
    assert says in message and "line " in message and "^" in message, message
    assert "hint" in message.lower(), message
