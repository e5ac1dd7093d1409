"""`JSON.stringify(v, ['id', 'name'])`: a replacer that is an array lists the keys written, at
every depth, in the list's order (`values/jsonkeys.py`, SPEC 1.8 `JSON.stringify`): Node's
text; a replacer function stays refused at its place, and a list whose key is an array
index (which JavaScript writes first, whatever the list) or a value of another kind is refused
with what to write."""

from __future__ import annotations

import pytest

from .corpus_checks import run_both
from .model_tools import runtime

SAME = [
    # what models write: the fields a report shows, the users' public fields, a log line
    "const user = await get_user(2);\n"
    "return [JSON.stringify(user, ['id', 'name', 'manager']), "
    "JSON.stringify(user.tags, null, '\\t')];",
    "const users = await list_users();\nreturn JSON.stringify(users, ['name', 'id'], 2);",
    "const u = await get_user(1);\n"
    "return JSON.stringify(u, Object.keys(u).filter(k => k !== 'email'));",
    "const orders = await get_orders(1);\n"
    "return JSON.stringify({ count: orders.length, orders }, ['count', 'orders', 'id', 'total']);",
    # the corners: nested objects filtered too, arrays whole, a key twice, numbers as keys
    # (not indexes), other items left out, an undefined member, none listed, the root
    "return JSON.stringify({a: 1, b: {a: 2, c: 3}, c: [{a: 4, d: 5}]}, "
    "['c', 'a', 'a', 1.5, null, true]);",
    "return JSON.stringify([{x: 1, y: 2}, 3, 's', null], ['y']);",
    "return JSON.stringify({x: undefined, y: 2}, ['x', 'y']);",
    "return [JSON.stringify({x: 1}, []), JSON.stringify('text', ['a']), "
    "JSON.stringify(7, ['a'], 2), JSON.stringify(undefined, ['a'])];",
    "return JSON.stringify({d: new Date(0), e: 1}, ['d']);",
    "const o = {k: 1, j: 2};\n"
    "return JSON.stringify({a: o, b: o, c: [o, o]}, ['a', 'b', 'c', 'k'], 1);",
]


def test_a_list_of_keys_gives_nodes_text() -> None:
    verdicts = run_both(SAME)
    assert [v.kind for v in verdicts] == ["same"] * len(SAME), [
        (v.name, v.detail) for v in verdicts if v.kind != "same"
    ]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        # JavaScript writes an index key first, whatever the list's order
        ("return JSON.stringify({1: 'a', b: 2}, ['b', '1']);", "array-index keys first"),
        ("return JSON.stringify({1: 'a', b: 2}, ['b', 1]);", "array-index keys first"),
        ("return JSON.stringify({a: 1}, 'a');", "other than null or a list of keys"),
        ("return JSON.stringify({a: 1}, {a: true});", "other than null or a list of keys"),
        ("return JSON.stringify({a: new Set([1])}, ['a']);", "JSON data and dates only"),
    ],
)
def test_what_the_list_cannot_say_is_refused(text: str, says: str) -> None:
    out = runtime().run(text, lang="plan")
    assert out.status == "failure", out.value
    message = out.message or ""
    assert says in message and "line 1, column" in message, message
    assert "hint" in message.lower(), message
