"""The token pieces the write-back group-by forms (:mod:`.writeback`) are matched and written
with: the container a local is read from (:class:`_Container`: ``m.get(K)`` or a member
``o[K]``), the `;` ending a simple statement and a branch of an ``if`` (:func:`_semicolon`,
:func:`_branch`), the write of a new array to the container's key (:func:`_new_array`), the
test ``if (!m.has(K))`` / ``if (!C)`` (:func:`_test`), and whether the local appears elsewhere
in its block (:func:`_used`). Each reads the tokens once around one place. Moved out of
``writeback``, which keeps the forms themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.mappush import pure_key
from dialectic.frontends.plan.parensets import _target_end
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN


class _Container:
    """``m.get(K)`` or ``o[K]`` at tokens ``start`` up to ``end`` (excluded)."""

    __slots__ = ("start", "end", "key", "key_end", "is_map")

    def __init__(self, start: int, end: int, key: int, key_end: int, is_map: bool) -> None:
        self.start, self.end, self.key, self.key_end, self.is_map = (
            start, end, key, key_end, is_map,
        )  # fmt: skip


def _container(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], c: int
) -> _Container | None:
    if kinds[c + 1] == "." and values[c + 2] == "get" and kinds[c + 3] == "(":
        close = partner.get(c + 3, -1)
        if close > c + 4 and pure_key(kinds, values, c + 4, close):
            return _Container(c, close + 1, c + 4, close, True)
        return None
    end = _target_end(kinds, values, partner, c)
    if end <= c + 1:
        return None
    return _Container(c, end, -1, -1, False)


def _toks(
    kinds: Sequence[str], values: Sequence[object], a: int, b: int
) -> list[tuple[str, object, int]]:
    return [(kinds[j], values[j], j) for j in range(a, b)]


def _branch(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], s: int
) -> tuple[int, int, int] | None:
    """A branch at token ``s``, one statement with or without braces: (its statement's first
    token, the branch's last token, the statement's `;`), else None."""
    if kinds[s] == "{":
        close = partner.get(s, -1)
        end = _semicolon(kinds, partner, s + 1)
        return (s + 1, close, end) if end >= 0 and end == close - 1 else None
    end = _semicolon(kinds, partner, s)
    return (s, end, end) if end >= 0 else None


def _semicolon(kinds: Sequence[str], partner: dict[int, int], s: int) -> int:
    """The `;` ending the simple statement at token ``s`` (brackets skipped), else -1."""
    j = s
    while kinds[j] not in (";", "eof"):
        if kinds[j] in ("}",):
            return -1
        if kinds[j] in OPEN:
            j = partner.get(j, -1)
            if j < 0:
                return -1
        j += 1
    return j if kinds[j] == ";" else -1


def _new_array(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    c: _Container,
    name: object,
    s: int,
    end: int,
) -> bool:
    """Whether tokens ``s`` to ``end`` (its `;`) write a new array to the container's key:
    ``m.set(K, [...]);`` or ``C = [...];``, reading neither ``A`` nor the container."""
    box = values[c.start]
    if c.is_map:
        key = list(zip(kinds[c.key : c.key_end], values[c.key : c.key_end], strict=True))
        head = [(kinds[c.start], box), (".", "."), ("name", "set"), ("(", "("), *key, (",", ",")]
        value = s + len(head)
        ok = list(zip(kinds[s:value], values[s:value], strict=True)) == head
        close = end - 2  # `])` before `;`
        ok = ok and kinds[end - 1] == ")" and kinds[close] == "]"
    else:
        width = c.end - c.start
        ok = (
            list(values[s : s + width]) == list(values[c.start : c.end]) and kinds[s + width] == "="
        )
        value, close = s + width + 1, end - 1
        ok = ok and kinds[close] == "]"
    if not ok or kinds[value] != "[" or partner.get(value) != close:
        return False
    return not any(kinds[m] == "name" and values[m] in (name, box) for m in range(value, close))


def _test(
    kinds: Sequence[str], values: Sequence[object], c: _Container, place: int
) -> list[tuple[str, object, int]]:
    """``if (!m.has(K))`` or ``if (!C)``."""
    out: list[tuple[str, object, int]] = [("name", "if", place), ("(", "(", place),
                                          ("op", "!", place)]  # fmt: skip
    if c.is_map:
        out.extend([(kinds[c.start], values[c.start], c.start), (".", ".", place),
                    ("name", "has", place), ("(", "(", place)])  # fmt: skip
        out.extend(_toks(kinds, values, c.key, c.key_end))
        out.append((")", ")", place))
    else:
        out.extend(_toks(kinds, values, c.start, c.end))
    out.append((")", ")", place))
    return out


def _used(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    name: object,
    decl: int,
    last: int,
) -> bool:
    """Whether ``name`` appears in the block holding token ``decl`` outside tokens ``decl`` to
    ``last`` (its own statements, where each use was checked)."""
    start = decl
    while start > 0:  # back to the block's `{` (or the program's start)
        start -= 1
        kind = kinds[start]
        if kind in CLOSE:
            start = partner.get(start, start)
        elif kind in OPEN:
            break
    end = len(kinds) - 1
    if kinds[start] in OPEN:
        end = partner.get(start, end)
    return any(
        kinds[m] == "name" and values[m] == name for m in range(start, end) if not decl <= m <= last
    )
