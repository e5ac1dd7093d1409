"""``a.localeCompare(b)`` of printable ASCII texts (SPEC 1.8; :mod:`dialectic.values.collation`):
Node's answer, in programs that sort with it and for 4,000 random pairs compared in one Node
process."""

from __future__ import annotations

import json
import random
import subprocess

from dialectic import Runtime
from dialectic.values.collation import locale_compare
from dialectic.values.data import UNDEFINED

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "return ['b', 'a', 'B', 'A', 'a1', 'a10', 'a2', 'Ab', 'ab', 'aB', ' a', 'a b', 'ab ', '10',\n"
    "  '9', '', 'Zed', 'zed', 'ZED', 'a-b', 'a_b', 'a.b', 'co-op', 'coop', 'x$', 'x~']\n"
    "  .sort((x, y) => x.localeCompare(y));",
    "return people.slice().sort((a, b) => a.name.localeCompare(b.name)).map(p => p.name);",
    "return Object.keys(data).sort((a, b) => b.localeCompare(a));",
    "return ['a'.localeCompare('b'), 'b'.localeCompare('a'), 'a'.localeCompare('a'),\n"
    "  'a'.localeCompare('A'), 'A'.localeCompare('a')];",
    "return [...people].sort((a, b) => (a.city ?? '').localeCompare(b.city ?? '') ||\n"
    "  a.name.localeCompare(b.name)).map(p => p.name);",
]


def test_locale_compare_gives_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def test_random_printable_ascii_pairs_compare_as_in_node() -> None:
    rnd = random.Random(3)
    printable = [chr(c) for c in range(32, 127)]
    pairs = []
    for _ in range(4000):
        pair = []
        for _ in range(2):
            pool = printable if rnd.random() < 0.3 else list("aAbB01 -_")
            pair.append("".join(rnd.choice(pool) for _ in range(rnd.randrange(6))))
        pairs.append(pair)
    script = (
        "const p = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(p.map(([a, b]) => a.localeCompare(b))));"
    )
    done = subprocess.run(
        ["node", "-e", script], input=json.dumps(pairs), capture_output=True, text=True, check=True
    )
    node = json.loads(done.stdout)
    wrong = [(a, b, n) for (a, b), n in zip(pairs, node, strict=True) if locale_compare(a, b) != n]
    assert not wrong, wrong[:5]


OPTION_SETS: list[dict[str, object]] = [
    {"sensitivity": "base"},
    {"sensitivity": "accent"},
    {"sensitivity": "case"},
    {"sensitivity": "variant"},
    {"numeric": True},
    {"numeric": True, "sensitivity": "base"},
    {"numeric": False, "usage": "sort"},
]


def test_random_pairs_with_options_compare_as_in_node() -> None:
    rnd = random.Random(5)
    printable = [chr(c) for c in range(32, 127)]
    cases: list[tuple[str, str, str | None, dict[str, object]]] = []
    for n in range(3000):
        pair = []
        for _ in range(2):
            pool = printable if rnd.random() < 0.3 else list("aAbB0012 -_9")
            pair.append("".join(rnd.choice(pool) for _ in range(rnd.randrange(7))))
        cases.append((pair[0], pair[1], rnd.choice(["en", "en-US", None]), OPTION_SETS[n % 7]))
    script = (
        "const p = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(p.map(([a, b, l, o]) =>"
        " a.localeCompare(b, l ?? undefined, o))));"
    )
    done = subprocess.run(
        ["node", "-e", script], input=json.dumps(cases), capture_output=True, text=True, check=True
    )
    node = json.loads(done.stdout)
    wrong = [
        (a, b, o, n)
        for (a, b, loc, o), n in zip(cases, node, strict=True)
        if locale_compare(a, b, UNDEFINED if loc is None else loc, o) != n
    ]
    assert not wrong, wrong[:5]


def test_options_in_programs_and_refusals() -> None:
    runs_as_in_node(
        [
            "return ['item10', 'item9', 'Item1', 'item01'].sort((a, b) =>\n"
            "  a.localeCompare(b, undefined, {numeric: true, sensitivity: 'base'}));",
            "return ['b', 'a', 'C', 'c'].sort((x, y) => x.localeCompare(y, 'en', "
            "{sensitivity: 'base'}));",
        ],
        RT,
    )
    for text, message in [
        ("return 'a'.localeCompare('b', 'de');", "English's order only"),
        ("return 'a'.localeCompare('b', 'en', {caseFirst: 'upper'});", "caseFirst"),
        ("return 'a'.localeCompare('b', 'en', {ignorePunctuation: true});", "ignorePunctuation"),
    ]:
        out = RT.run(text, lang="plan", strict=True)
        assert out.status == "failure" and message in (out.message or ""), out.message
