"""Wrong answers the program differential found in member reads and text/number functions,
checked against Node.js: Node's value, or a clear failure.

- Where the data may be missing (``?? d``, ``? :``, ``typeof``, ``!``...), a member an array,
  text or number lacks is undefined, but one it inherits in JavaScript (``xs.map``,
  ``s.trim``, ``n.toFixed``) is a function: ``nums.map ? 1 : 2`` was 2 (Node: 1).
- ``'abc'.indexOf('', 10)`` was -1 (Node 3: the start is clamped to the text), and a negative
  start counted from the end in a text with emoji (``'a😀a'.indexOf('a', -1)`` was 3, Node 0).
- ``parseInt(' 0x', 16)`` was 0 (Node: NaN, `0x` then no digit)."""

from __future__ import annotations

import pytest

from .program_oracle import check, runtime

REFUSED = [
    "return nums.map ? 1 : 2;",
    "return typeof nums.filter;",
    "return s.toUpperCase ?? 'd';",
    "return typeof s.trim;",
    "return n.toFixed ? 1 : 2;",
    "return nums.flatMap === undefined;",
    "return people[0].tags.entries ?? 'd';",
    "return typeof n.toPrecision;",
    "return !s.codePointAt;",
    "return nums?.reduceRight;",
    "return parseInt(' 0x', 16);",
    "return parseInt('0x', 16);",
]
SAME = [
    "return [data.zz ?? 'd', typeof nums.zz, s.zz ?? 'd', !n.zz, nums?.zz];",
    "return ['abc'.indexOf('', 10), 'abc'.indexOf('', 3), 'abc'.indexOf('b', -10)];",
    "return ['a😀a'.indexOf('a', -1), 'a😀a'.indexOf('', 10), 'a😀a'.indexOf('a', 1.5)];",
    "return [parseInt('-0x1F', 16), parseInt('\\u00a0 ff', 16), parseInt('  +0Xa', 16)];",
]


def test_an_inherited_method_read_as_a_member_fails() -> None:
    verdicts = check(REFUSED)
    assert [v.kind for v in verdicts] == ["refused"] * len(REFUSED), verdicts


@pytest.mark.parametrize("program", SAME)
def test_the_value_is_nodes(program: str) -> None:
    [verdict] = check([program], runtime())
    assert verdict.kind == "same", verdict
