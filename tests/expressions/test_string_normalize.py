"""``s.normalize(form)`` (SPEC 1.8, text methods) against Node: the diacritics-stripping idiom
models write, and random texts of composed, decomposed and compatibility characters in every
form (wrong: none); a form Node rejects and a character Python's tables do not know are refused."""

from __future__ import annotations

import json
import random
from collections import Counter

from dialectic import Runtime

from .program_oracle import check, runs_as_in_node, runtime

RT: Runtime = runtime()


def test_the_idioms_answer_as_node() -> None:
    runs_as_in_node(
        [
            "return 'Crème Brûlée'.normalize('NFD').replace(/[\\u0300-\\u036f]/g, '');",
            "return s.normalize('NFKD') === s;",
            "return ['é', 'e\\u0301'].map(t => t.normalize() === 'é');",
            "return words.map(w => w.normalize('NFD').length);",
        ],
        RT,
    )


def test_random_texts_in_every_form() -> None:
    rng = random.Random(11)
    pieces = ["e", "\u0301", "\u0323", "\u0307", "é", "Å", "ﬁ", "①", "ẛ", "ḍ", "한", "\u1100",
              "\u1161", "\u11a8", "Ω", "K", "a", " ", "½", "ｶ", "\u3099", "が", "😀"]  # fmt: skip
    programs = []
    for _ in range(300):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))
        form = rng.choice(["", "'NFC'", "'NFD'", "'NFKC'", "'NFKD'"])
        programs.append(f"return {json.dumps(text)}.normalize({form});")
    tally = Counter(v.kind for v in check(programs, RT))
    assert tally == Counter({"same": 300}), tally


def test_refusals() -> None:
    for text, words in {
        "return 'abc'.normalize('nfc');": "RangeError",
        "return '\\u{e0080}x'.normalize();": "do not know",
    }.items():
        out = RT.run(text, lang="plan")
        assert out.status == "failure" and words in (out.message or ""), (text, out.message)
