"""`s.replace(text, new)` and `s.replaceAll(text, new)` read a `$` in `new` as JavaScript does
(`$$`, `$&`, `` $` ``, `$'`; `$1` and any other `$` as written, a text pattern having no
groups), checked against Node; once refused, the dollar amounts models write into templates
(`'Total: {t}'.replace('{t}', `$${t}`)`) now give Node's text. Linear in the text: a result
copying the text before or after each match stops at `max_string_length`."""

from __future__ import annotations

import json
import random

import pytest

from dialectic import Limits, Runtime

from .corpus_checks import run_both
from .model_tools import runtime as tools_runtime
from .program_oracle import node_answers, runtime, same


def test_model_shaped_replacements_give_nodes_text() -> None:
    texts = [
        "const q = await get_stock_price('AAPL');\n"
        "return 'Price: {p}'.replace('{p}', `$${q.price.toFixed(2)}`);",
        "const total = 12.5;\nreturn 'Total: TOTAL (TOTAL)'.replaceAll('TOTAL', '$' + total);",
        "return 'cost: X'.replace('X', '$$5');",
        "return 'a-b-c'.replaceAll('-', '$&$&');",
        "return 'hello world'.replace('world', \"[$`|$&|$']\");",
        "return 'x'.replace('y', '$&');",
        "return 'ab'.replace('', '$&-$`');",
        "return 'a$1b'.replace('$1', '$1$2$<n>$');",
    ]
    assert [v.kind for v in run_both(texts)] == ["same"] * len(texts)


def test_random_patterns_agree_with_node() -> None:
    r = random.Random(7)
    alphabet = ["a", "b", "$", "&", "`", "'", "1", "<", ">", "é", "😀"]
    sources = []
    for _ in range(300):
        s = "".join(r.choice(["a", "b", "$", "&", "x"]) for _ in range(r.randint(0, 8)))
        old = "".join(r.choice(["a", "b", "x", "$", ""]) for _ in range(r.randint(0, 2)))
        new = "".join(r.choice(alphabet) for _ in range(r.randint(0, 6)))
        method = r.choice(["replace", "replaceAll"])
        old = old or ("a" if method == "replaceAll" else old)
        sources.append(f"return {json.dumps(s)}.{method}({json.dumps(old)}, {json.dumps(new)});")
    rt = runtime()
    for source, answer in zip(sources, node_answers(sources), strict=True):
        out = rt.run(source, lang="plan")
        assert out.status == "success", (source, out.message)
        assert same(out.value, answer["ok"]) is None, (source, out.value, answer)


@pytest.mark.parametrize("n", [1_000, 10_000, 100_000])
def test_each_match_costs_its_replacement(n: int) -> None:
    out = tools_runtime().run(
        f"return 'a'.repeat({n}).replaceAll('a', '$&$$').length;", lang="plan"
    )
    assert out.status == "success" and out.value == 2 * n, out.message


def test_copies_of_the_text_around_each_match_stop_at_the_limit() -> None:
    """`$\\`` copies the text before each match: n matches would make n**2 / 2 characters."""
    rt = Runtime(load_entry_points=False, limits=Limits(max_string_length=10_000))
    for pattern in ("$`", "$'"):
        out = rt.run(f"return 'a'.repeat(5000).replaceAll('a', \"{pattern}\");", lang="plan")
        assert out.status == "failure" and out.error is not None, pattern
        assert out.error.code == "limit_exceeded", out.message
    out = rt.run("return 'a'.repeat(100).replaceAll('a', '$`').length;", lang="plan")
    assert out.status == "success" and out.value == 99 * 100 // 2, out.message
