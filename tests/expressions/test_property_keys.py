"""A member key of any primitive is the key JavaScript makes of it (ToPropertyKey, SPEC 1.2):
`o[null]` is `o["null"]`, `o[1.5]` is `o["1.5"]`, in reads and writes alike; an array or a text
has no such member; a Map keeps its own keys."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

AGREE = [
    "const o = {}; o[null] = 1; o[true] = 2; o[false] = 3; o[undefined] = 4; return o;",
    "const o = {}; o[1.5] = 1; o[-0] = 2; o[1e21] = 3; o[-1.5] = 4; o[1e-7] = 5; return o;",
    "const o = {null: 1, true: 2, '1.5': 3, undefined: 4, 0: 5};\n"
    "return [o[null], o[true], o[1.5], o[undefined], o[-0]];",
    "return {[null]: 1, [true]: 2, [1.5]: 3, [undefined]: 4, [-0]: 5, a: 6};",
    "const o = {a: 1}; o[false] = 1; return Object.keys(o);",
    "return Object.fromEntries([[null, 1], [true, 2], [1.5, 3], [undefined, 4]]);",
    "const acc = {};\nfor (const w of [null, true, 1.5, 'x', null]) {\n"
    "  acc[w] = (acc[w] ?? 0) + 1;\n}\nreturn acc;",
    "return [null, true, 1.5, null].reduce((acc, w) => {\n"
    "  acc[w] = (acc[w] || 0) + 1;\n  return acc;\n}, {});",
    "return [null, true, 1.5, null].reduce((acc, w) => ({...acc, [w]: (acc[w] || 0) + 1}), {});",
    "const o = {}; o[flag] = 1; o[none] = 2; return [o, o[true], o.null, o[null]];",
    # missing: undefined where the program says it may be
    "return [data[null] ?? 'a', data[true] ?? 'b', data[1.5] ?? 'c', data[undefined] ?? 'd'];",
    "return [nums[null] ?? 'a', s[1.5] ?? 'b', s[true] ?? 'c', nums[undefined] ?? 'd'];",
    "return [nums[1.5] ?? 'a', nums[true] ?? 'b', nums['-1'] ?? 'c', nums['01'] ?? 'd'];",
    "return [nums['1'], nums['0'], s['2']];",
    # a Map keeps its own keys
    "const m = new Map(); m.set(null, 1); m.set('null', 2);\n"
    "return [m.get(null), m.get('null'), m.size];",
]


def test_primitive_keys_give_what_node_gives() -> None:
    runs_as_in_node(AGREE, RT)


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        ("return data[null];", "member_not_found", "no member `null`"),
        ("return nums[1.5];", "member_not_found", "cannot read `1.5` of array"),
        ("return nums['-1'];", "member_not_found", "cannot read `-1` of array"),
        ("const o = {}; o[[1, 2]] = 1; return o;", "expression_error", "got an array"),
        ("return {[{}]: 1};", "expression_error", "got an object"),
    ],
)
def test_a_key_javascript_would_not_find_fails_clearly(text: str, code: str, message: str) -> None:
    out = RT.run(text, lang="plan", context=CONTEXT)
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == code, (out.error.code, out.error.message)
    assert message in out.error.message, out.error.message
