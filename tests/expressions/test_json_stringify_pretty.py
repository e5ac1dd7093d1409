"""``JSON.stringify(v, null, space)``: the indented text Node writes (SPEC 1.8), a replacer
function refused, a list of keys as Node's, the indentation counted against
``max_string_length``."""

from __future__ import annotations

from dialectic import Limits, Runtime

from .program_generator import CONTEXT
from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

SPACES = ["2", "4", "0", "-3", "1.9", "12", "'\\t'", "''", "'abcdefghijklmnop'", "true", "null"]
VALUES = [
    "people",
    "data",
    "nums",
    "[]",
    "{}",
    "[[], {}, [[]], {a: {}}]",
    "{a: undefined, b: [undefined], c: 'x\\ny\"'}",
    "s",
    "n",
    "none",
    "[1e21, 0.1, -0, 1e-7]",
    "words.map(w => ({w, n: w.length}))",
]


def test_indented_texts_are_nodes() -> None:
    texts = [f"return JSON.stringify({v}, null, {sp});" for v in VALUES for sp in SPACES]
    texts += [
        "return JSON.stringify(people, undefined, 2);",
        "return `data:\\n${JSON.stringify(data, null, 2)}`;",
        "return JSON.stringify(JSON.parse(JSON.stringify(data, null, 3)));",
        "return JSON.stringify(people, null, 2).split('\\n').length;",
    ]
    runs_as_in_node(texts, RT)


def test_a_replacer_function_or_text_is_refused_with_what_to_write() -> None:
    for replacer in ("'name'", "(k, v) => v"):
        out = RT.run(f"return JSON.stringify(people, {replacer}, 2);", lang="plan", context=CONTEXT)
        assert out.status == "failure" and out.error is not None, out.value
        if out.error.code == "expression_error":
            assert "a replacer other than null or a list of keys" in str(out.message)
            assert "JSON.stringify(v, null, 2)" in str(out.message)


def test_a_list_of_keys_indents_as_node_does() -> None:
    """A replacer that is an array lists the keys written (test_json_stringify_keys.py)."""
    texts = [f"return JSON.stringify(people, ['name'], {sp});" for sp in SPACES]
    runs_as_in_node(texts, RT)


def test_the_indentation_counts_against_max_string_length() -> None:
    rt = runtime()
    rt.limits = Limits(max_string_length=1_000)
    # 150 items: 301 characters compact, over 1,000 with an indent of 10
    out = rt.run(
        "const xs = Array.from({length: 150}, (_, i) => i % 10);\n"
        "return [JSON.stringify(xs).length, JSON.stringify(xs, null, 10)];",
        lang="plan",
    )
    assert out.status == "failure" and out.error is not None, out.value
    assert out.error.code == "limit_exceeded", out.message
