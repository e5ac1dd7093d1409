"""The Plan front end's one token scanner (:mod:`dialectic.frontends.plan.tokenscan`): each
helper on real programs' tokens, and against a plain reading of its docstring on random bracket
sequences (balanced or not, template pieces among them)."""

from __future__ import annotations

import random

import pytest

from dialectic.frontends.plan.brackets import Brackets
from dialectic.frontends.plan.lexer import lex
from dialectic.frontends.plan.tokenscan import (
    CLOSE,
    OPEN,
    PAIRS,
    PLAIN_CLOSE,
    PLAIN_OPEN,
    closing,
    counting_loop,
    enclosing,
    expression_end,
    holding_statement_end,
    partners,
    simple_end,
    starts_statement,
    typed_partners,
    value_end,
)

_PROGRAM = "const s = `a${ {b: [1, (2)]}.b }c${x}d`; f(a)[0];"


def test_the_sets() -> None:
    assert {"(", "[", "{", "tplh"} == OPEN
    assert {")", "]", "}", "tplt"} == CLOSE
    assert PLAIN_OPEN == set(PAIRS) == {"(", "[", "{"}
    assert {")", "]", "}"} == PLAIN_CLOSE
    assert {PAIRS[k] for k in PLAIN_OPEN} == PLAIN_CLOSE


def test_partners_with_templates() -> None:
    kinds = lex(_PROGRAM).kinds
    partner = partners(kinds)
    assert kinds[3] == "tplh" and kinds[19] == "tplt"
    assert partner[3] == 19 and partner[19] == 3  # (the template's `${` to its end)
    assert partner[4] == 14 and partner[7] == 13 and partner[10] == 12
    assert partner[22] == 24 and partner[25] == 27
    assert 17 not in partner  # (`tplm` is neither)
    assert all(partner[partner[i]] == i for i in partner)


def test_partners_unbalanced() -> None:
    assert partners(["(", "(", ")", "eof"]) == {1: 2, 2: 1}
    assert partners([")", "(", ")", "]", "eof"]) == {1: 2, 2: 1}


def test_typed_partners_by_kind() -> None:
    kinds = ["(", "[", ")", "]", "{", "tplh", "}", "tplt", "eof"]
    match, opener = typed_partners(kinds)
    assert match == {1: 3, 4: 6}  # `)` at 2 passes `[` over; template pieces are not brackets
    assert opener == {3: 1, 6: 4}


def test_enclosing() -> None:
    kinds = ["name", "(", "[", "name", "]", ")", "{", "}", "eof"]
    assert enclosing(kinds) == [-1, -1, 1, 2, 1, -1, -1, -1, -1]


def test_expression_end_and_closing() -> None:
    kinds = lex("f(a, [b, c], {d: 1}); g;").kinds
    assert expression_end(kinds, 2, (",",)) == 3
    assert expression_end(kinds, 4, (",",)) == 9  # (the `,` inside `[...]` is passed over)
    assert closing(kinds, 1) == kinds.index(";") - 1
    assert closing(["(", "name", "eof"], 0) == 2  # (never closed: the `eof`)


def test_simple_end() -> None:
    kinds = lex("x = f(a, {b: 1}); y;").kinds
    partner = partners(kinds)
    assert simple_end(kinds, partner, 0) == kinds.index(";")
    assert simple_end(kinds, partner, len(kinds) - 1) == -1  # (the end first)
    kinds = lex("{ x = 1 }").kinds
    assert simple_end(kinds, partners(kinds), 1) == -1  # (a `}` first)
    kinds = ["name", "=", "(", "name", "eof"]
    assert simple_end(kinds, partners(kinds), 0) == -1  # (never closed)


def test_value_end() -> None:
    kinds = lex("a = [1, 2]; b").kinds
    assert value_end(kinds, 2) == kinds.index(";")
    kinds = lex("{ a = f(1, 2) }").kinds
    assert value_end(kinds, 3) == len(kinds) - 2  # (the block's `}`)
    kinds = lex("a = 1, b = 2;").kinds
    assert value_end(kinds, 2) == -1  # (a `,` first)
    kinds = lex("f(a = 1)").kinds
    assert value_end(kinds, 4) == -1  # (a `)` ends it)


def test_holding_statement_end() -> None:
    src = "const o = {}; if (c) { o.a = 1; } else { o.b = 2; } g(o);"
    lexed = lex(src)
    kinds, values = lexed.kinds, lexed.values
    decl = 1
    inner = kinds.index("name", kinds.index("{", 5) + 1)  # `o` of `o.a = 1`
    end = holding_statement_end(kinds, values, decl, inner)
    assert kinds[end] == "}" and values[end + 1] == "g"  # (the `if` with its `else`)
    src = "function f() { const o = {}; } o;"
    lexed = lex(src)
    assert lexed.values[5] == "const" and lexed.values[len(lexed.kinds) - 3] == "o"
    assert holding_statement_end(lexed.kinds, lexed.values, 5, len(lexed.kinds) - 3) == -1


def test_starts_statement() -> None:
    src = "a; if (c) (x ||= []).push(1); else b(); { d; } switch (k) { case 'q': e; default: f; }"
    lexed = lex(src)
    kinds, values = lexed.kinds, lexed.values
    partner = partners(kinds)
    starts = [
        str(values[i])
        for i in range(len(kinds) - 2)  # (the last `}` and the end: below)
        if starts_statement(kinds, values, partner, i)
    ]
    # (after `;`, `{`, `else`, an `if` head's `)`, a case label's `:`; not after a plain
    # block's `}`, which may close an object literal: the callers ask only where it is sure)
    assert starts == ["a", "if", "(", "else", "b", "{", "d", "}", "case", "e", "default", "f"]
    assert starts_statement(kinds, values, partner, len(kinds) - 1)  # (the end: after `switch`)


_KINDS = ["(", ")", "[", "]", "{", "}", "tplh", "tplt", "tplm", ";", ",", "name"]


def _random_kinds(rng: random.Random, n: int) -> list[str]:
    return [rng.choice(_KINDS) for _ in range(n)] + ["eof"]


def _plain_partners(kinds: list[str]) -> dict[int, int]:
    """Each opening bracket's partner as its docstring says: the first closing bracket at
    which the brackets opened since it are all closed (read from each one afresh)."""
    out: dict[int, int] = {}
    for i, kind in enumerate(kinds):
        if kind not in OPEN:
            continue
        depth = 0
        for j in range(i, len(kinds)):
            depth += kinds[j] in OPEN
            if kinds[j] in CLOSE:
                depth -= 1
            if depth == 0:
                out[i], out[j] = j, i
                break
    return out


@pytest.mark.parametrize("seed", range(40))
def test_against_plain_readings(seed: int) -> None:
    rng = random.Random(seed)
    kinds = _random_kinds(rng, rng.randrange(1, 60))
    partner = partners(kinds)
    # a closing bracket with none open is passed over; on the rest, the plain reading agrees
    balanced_from = {i for i in partner if kinds[i] in OPEN}
    plain = _plain_partners(kinds)
    for i in balanced_from:
        assert plain[i] == partner[i]
    for i in range(len(kinds)):
        if kinds[i] in OPEN:
            end = closing(kinds, i)
            assert end == partner.get(i, len(kinds) - 1) or kinds[end] in CLOSE
            if i in partner:
                assert end == partner[i]
    assert Brackets(kinds, [""] * len(kinds)).closes[:-1] == [
        partner.get(i, len(kinds) - 1) if kinds[i] in OPEN else len(kinds) - 1
        for i in range(len(kinds) - 1)
    ]
    parents = enclosing(kinds)
    for i, parent in enumerate(parents):
        if parent >= 0:
            assert kinds[parent] in OPEN and parent < i
            assert partner.get(parent, len(kinds)) >= i


@pytest.mark.parametrize("size", [1_000, 10_000, 100_000])
def test_deep_and_long_inputs(size: int) -> None:
    """Deep nesting and long runs: no recursion, every partner found."""
    kinds = ["("] * size + [")"] * size + ["eof"]
    partner = partners(kinds)
    assert len(partner) == 2 * size and partner[0] == 2 * size - 1
    assert closing(kinds, 0) == 2 * size - 1
    assert enclosing(kinds)[size - 1] == size - 2
    flat = ["name", ";"] * size + ["eof"]
    assert simple_end(flat, partners(flat), 0) == 1


@pytest.mark.parametrize(
    ("head", "bound", "expected"),
    [
        ("for (let i = 0; i < xs.length; i++) {}", 3, ("i", ")")),
        ("for (let j = 0; j < g[i].length; ++j) {}", 6, ("j", ")")),
        ("for (let k = 0; k < xs.length; k += 1) {}", 3, ("k", ")")),
        ("for (let i = 1; i < xs.length; i++) {}", 3, None),  # (from 1)
        ("for (let i = 0; i <= xs.length; i++) {}", 3, None),
        ("for (let i = 0; i < xs.length; i += 2) {}", 3, None),
        ("for (let i = 0; i < xs.length; j++) {}", 3, None),
        ("for (var i = 0; i < xs.length; i++) {}", 3, None),
        ("for (let i = 0; i < xs.length", 3, None),  # (cut short)
    ],
)
def test_counting_loop(head: str, bound: int, expected: tuple[str, str] | None) -> None:
    """``for (let I = 0; I < BOUND; I++)``: the counter and the head's closing parenthesis."""
    lexed = lex(head)
    kinds, values = lexed.kinds, lexed.values
    start = 5  # (the `0`: the loop's list starts there; BOUND at start + 4)
    found = counting_loop(kinds, values, start, bound)
    if expected is None:
        assert found is None
    else:
        assert found is not None and found[0] == expected[0]
        assert values[found[1]] == expected[1] and values[found[1] + 1] == "{"
