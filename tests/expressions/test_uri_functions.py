"""encodeURIComponent, encodeURI, decodeURIComponent, decodeURI (SPEC 1.8): Node's text, and a
clear failure where Node throws a URIError."""

from __future__ import annotations

import json
import random

from dialectic import Runtime

from .node_oracle import node_values

RT = Runtime(load_entry_points=False)
ALPHABET = "aZ09 -_.!~*'()%;/?:@&=+$,#é€😀中\n\t\"\\"
ESCAPES = [
    "%20",
    "%2F",
    "%3F",
    "%C3%A9",
    "%F0%9F%98%80",
    "%zz",
    "%E0%A4%A",
    "%C0%AF",
    "%ED%A0%80",
    "%F4%90%80%80",
    "%",
    "%4",
    "%80",
    "%e2%82%ac",
    "+",
]


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 12))) for _ in range(count)]


def _encoded(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [
        "".join(rng.choice([*ESCAPES, "a", "b c", "é"]) for _ in range(rng.randint(0, 6)))
        for _ in range(count)
    ]


def _check(programs: list[str]) -> None:
    answers = node_values(programs, None)
    for program, answer in zip(programs, answers, strict=True):
        out = RT.run(f"return {program};", lang="plan")
        if "error" in answer:
            assert out.status == "failure", (program, out.value, answer)
            assert "URIError" in (out.message or ""), out.message
        else:
            assert out.status == "success", (program, out.message)
            assert out.value == answer["ok"], (program, out.value, answer)


def test_encoding_gives_nodes_text() -> None:
    texts = _texts(1, 150)
    _check([f"{fn}({json.dumps(t)})" for t in texts for fn in ("encodeURIComponent", "encodeURI")])


def test_decoding_gives_nodes_text_or_fails_where_node_throws() -> None:
    texts = _encoded(2, 200)
    _check([f"{fn}({json.dumps(t)})" for t in texts for fn in ("decodeURIComponent", "decodeURI")])


def test_round_trip_and_by_name() -> None:
    _check(
        [
            "['a b', 'é/x'].map(encodeURIComponent).map(decodeURIComponent)",
            "[encodeURIComponent(12.5), encodeURIComponent(true), encodeURIComponent(null)]",
            "encodeURIComponent(undefined)",
            "`https://x.test/search?q=${encodeURIComponent('a&b c')}`",
        ]
    )


def test_a_lone_surrogate_is_refused() -> None:
    out = RT.run("return encodeURIComponent('😀'.slice(0, 1));", lang="plan")
    assert out.status == "failure"


def test_a_result_beyond_the_text_limit_is_refused() -> None:
    out = RT.run("return encodeURIComponent('é'.repeat(200000));", lang="plan")
    assert out.status == "failure" and out.error is not None
    assert "max_string_length" in (out.message or "")
