"""A push onto an array a Map holds (SPEC 10, "Loops"): the group-by with a Map, as models
write it in a loop, a ``forEach`` or a ``reduce`` step::

    const groups = new Map();
    for (const p of people) {
      if (!groups.has(p.city)) groups.set(p.city, []);
      groups.get(p.city).push(p.name);
    }

Read before parsing, on the tokens (as :mod:`.memberpush` reads an object's): the statement
``m.get(k).push(A);`` is ``m.set(k, [...m.get(k), A]);``, and with the statement just before it
that makes the key's array (``if (!m.has(k)) m.set(k, []);``, also ``!m.get(k)`` and the braces
``{ m.set(k, []); }``) the two are ``m.set(k, [...(m.get(k) || []), A]);``: a new version of
the Map, whose list the fold or the ``reduce`` grows in place (linear:
:mod:`dialectic.resolve.mapinner`). That is JavaScript's push only when the array is held
nowhere else, so ``m`` is defined just as ``const m = new Map();`` (or is a ``reduce`` step's
accumulator starting from ``new Map()``), and from there to the end of the statement holding the
last push ``m`` is used only by such pushes, by ``m.set(k, [...]);`` of an array literal (a
new array), and by reads that hold no array: ``m.has(x)``, ``m.size``, and the test ``if
(!m.get(k))`` (every value is an array, so it is ``!m.has(k)``). A key reads the same twice (a
name, a literal, a member chain of names: no call), and ``A`` does not read ``m``. A key
without an array when pushed fails, as JavaScript throws. Any other use leaves the push as it
is, which the parser refuses with what to write instead."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.memberpush import owner_end
from dialectic.frontends.plan.parensets import MAX_OBJECTS, name_index, pure_key
from dialectic.frontends.plan.tokenscan import CLOSE, partners, starts_statement
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["map_pushes", "pure_key"]


@dataclass(slots=True)
class _Push:
    """``m.get(K).push(A);``: the statement's first token (``m``), the key's first token and
    its `)`, the push's `(` and `)`; ``init``: the first token of the statement before it
    that makes the key's array (-1: none)."""

    start: int
    key: int
    key_end: int
    call: int
    end: int
    init: int = -1


def map_pushes(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each push onto an array a Map holds written as the key's new value
    (None: there is none)."""
    if ".push" not in source or "Map" not in source:
        return None
    kinds, values = tokens.kinds, tokens.values
    partner: dict[int, int] | None = None
    found: dict[str, list[_Push]] = {}
    at = 0
    while True:  # each `push` token
        try:
            at = values.index("push", at + 1)
        except ValueError:
            break
        if not (kinds[at - 1] == "." and kinds[at - 2] == ")" and kinds[at + 1] == "("):
            continue
        if partner is None:
            partner = partners(kinds)
        push = _push_at(kinds, values, partner, at)
        if push is not None:
            found.setdefault(str(values[push.start]), []).append(push)
    if not found or partner is None:
        return None
    index = name_index(kinds, values)
    kept: list[_Push] = []
    for name, pushes in list(found.items())[:MAX_OBJECTS]:  # (each costs a pass: bounded)
        inside = {j for p in pushes for j in range(p.start, p.end + 1)}
        uses = [j for j in index.get(name, ()) if j not in inside]
        if _only_groups(kinds, values, partner, uses, pushes):
            for p in pushes:
                p.init = _init_before(kinds, values, partner, p)
            kept.extend(pushes)
    if not kept:
        return None
    return _rewrite(source, tokens, sorted(kept, key=lambda p: p.start))


def _push_at(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], at: int
) -> _Push | None:
    """The statement ``m.get(K).push(A);`` whose `push` is token ``at``, else None."""
    close = at - 2
    open_ = partner.get(close, -1)
    start = open_ - 3
    if not (
        start >= 0
        and values[open_ - 1] == "get"
        and kinds[open_ - 2] == "."
        and kinds[start] == "name"
        and close > open_ + 1
        and pure_key(kinds, values, open_ + 1, close)
        and starts_statement(kinds, values, partner, start)
    ):
        return None
    end = partner.get(at + 1, -1)
    if end < 0 or end == at + 2 or kinds[end + 1] not in (";", "}", "eof"):
        return None
    name = values[start]
    if any(kinds[j] == "name" and values[j] == name for j in range(at + 2, end)):
        return None  # (the value reads the Map)
    return _Push(start, open_ + 1, close, at + 1, end)


def _only_groups(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    uses: list[int],
    pushes: list[_Push],
) -> bool:
    """Whether the Map of the ``pushes`` (``uses``: the tokens naming it outside them) is
    defined as ``new Map()`` and used only as the module says up to the end of the statement
    holding the last push."""
    starts = [p.start for p in pushes]
    end = owner_end(kinds, values, partner, uses, starts, ("new", "Map", "(", ")"))
    if end < 0:
        return False
    for j in uses[1:]:
        if j >= end:  # (after the last push's statement, or `return acc;`: anything)
            break
        if not _allowed(kinds, values, partner, j):
            return False
    return True


def _allowed(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], j: int
) -> bool:
    """Whether the use of the Map at token ``j`` is a read that holds no array, the test
    ``if (!m.get(k))`` or a statement ``m.set(k, [...]);`` of a new array."""
    if kinds[j + 1] != "." or kinds[j + 2] != "name":
        return False
    method = values[j + 2]
    if method == "size":
        return kinds[j + 3] not in ("(", "=") and not (
            kinds[j + 3] == "op" and str(values[j + 3]).endswith("=")
        )
    if kinds[j + 3] != "(":
        return False
    close = partner.get(j + 3, -1)
    if close < 0 or _reads(kinds, values, j + 4, close, values[j]):
        return False
    if method == "has":
        return True
    if method == "get":  # `if (!m.get(k))`
        return (
            kinds[j - 1] == "op"
            and values[j - 1] == "!"
            and kinds[j - 2] == "("
            and values[j - 3] == "if"
            and kinds[close + 1] == ")"
        )
    if method != "set" or not starts_statement(kinds, values, partner, j):
        return False
    if kinds[close + 1] not in (";", "}", "eof") or kinds[close - 1] != "]":
        return False
    bracket = partner.get(close - 1, -1)  # `m.set(K, [...])`: the value a new array
    return bracket > j + 4 and kinds[bracket - 1] == "," and _top_level(kinds, partner, bracket)


def _top_level(kinds: Sequence[str], partner: dict[int, int], bracket: int) -> bool:
    """Whether the `,` before ``bracket`` is the only one at the top of the `set` call's
    arguments (so the array is its second argument)."""
    i = bracket - 2
    while kinds[i] != "(":
        if kinds[i] in CLOSE:
            i = partner.get(i, 0)
        elif kinds[i] == ",":
            return False
        i -= 1
    return True


def _reads(kinds: Sequence[str], values: Sequence[object], a: int, b: int, name: object) -> bool:
    return any(kinds[m] == "name" and values[m] == name for m in range(a, b))


def _init_before(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], push: _Push
) -> int:
    """The first token of ``if (!m.has(K)) m.set(K, []);`` (also ``!m.get(K)``, and the
    braces ``{ m.set(K, []); }``) just before the push, of its key; else -1."""
    start = push.start
    name = values[start]
    key = [(kinds[j], values[j]) for j in range(push.key, push.key_end)]

    def seq(a: int, b: int) -> list[tuple[str, object]]:
        return [(kinds[j], values[j]) for j in range(max(a, 0), b)]

    def starts(a: int) -> bool:
        return a >= 0 and (a == 0 or kinds[a - 1] in (";", "{", "}"))

    setting = [
        ("name", name), (".", "."), ("name", "set"), ("(", "("), *key, (",", ","),
        ("[", "["), ("]", "]"), (")", ")"), (";", ";"),
    ]  # fmt: skip
    for method in ("has", "get"):
        test = [
            ("name", "if"), ("(", "("), ("op", "!"), ("name", name), (".", "."),
            ("name", method), ("(", "("), *key, (")", ")"), (")", ")"),
        ]  # fmt: skip
        a = start - len(test) - len(setting)
        if starts(a) and seq(a, start) == [*test, *setting]:
            return a
        a -= 2
        if starts(a) and seq(a, start) == [*test, ("{", "{"), *setting, ("}", "}")]:
            return a
    return -1


def _rewrite(source: str, tokens: Lexed, pushes: list[_Push]) -> Lexed:
    """The tokens with each push ``m.get(K).push(A);`` written as ``m.set(K, [...m.get(K),
    A]);``, or with the statement before it that makes the key's array as ``m.set(K,
    [...(m.get(K) || []), A]);`` (new tokens take the places of the ones they stand for)."""
    out = TokenWriter(tokens)
    put, copy = out.put, out.copy
    at = 0
    for p in pushes:
        copy(at, p.init if p.init >= 0 else p.start)
        dot = p.key_end + 1  # the `.` before `push`
        copy(p.start, p.start + 2)  # `m.`
        put("name", "set", p.start + 2)
        copy(p.key - 1, p.key_end)  # `(K`
        put(",", ",", dot)
        put("[", "[", p.call)
        put("op", "...", dot)
        if p.init >= 0:  # `(m.get(K) || [])`
            put("(", "(", dot)
            copy(p.start, p.key_end + 1)
            put("op", "||", dot)
            put("[", "[", dot)
            put("]", "]", dot)
            put(")", ")", dot)
        else:
            copy(p.start, p.key_end + 1)  # `m.get(K)`
        put(",", ",", p.call)
        copy(p.call + 1, p.end)  # A
        put("]", "]", p.end)
        put(")", ")", p.end)
        at = p.end + 1
    copy(at, len(tokens.kinds))
    return out.lexed(source)
