"""``a.localeCompare(b)`` of printable ASCII texts (SPEC 1.8; :mod:`dialectic.values.collation`):
Node's answer, in programs that sort with it and for 4,000 random pairs compared in one Node
process."""

from __future__ import annotations

import json
import random
import subprocess

from dialectic import Runtime
from dialectic.values.collation import locale_compare

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
