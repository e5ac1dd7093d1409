"""The statements of a ``try`` block or a ``catch`` handler, read for :mod:`.trycatch`.

A block is read as statements at its top level (a bracket's inside is skipped through its
partner), each classified by what it does: a declaration (``const``/``let``), an effect (an
expression statement: ``await notify(x);``, a ``console`` statement :mod:`.console` rewrote), a
guard (``if (test) throw ...;`` without ``else``), a ``throw``, a change of a name of the
enclosing block (``name = v;``, ``name += v;``, ``name -= v;``, ``list.push(v);``, ``n++;``,
``o[k] = v;``, ``o.k = v;``, ``o.k += v;``, ``o[k]++;``)
or anything else. Linear in the block's tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Part", "block_parts", "calls_in", "ends_statement", "member_changes"]

#: the assignments a change may make (the value: what follows the operator)
_SETS = frozenset(["=", "+=", "-="])
#: names a call of which never fails as a registered function does (JavaScript's own)
_PURE_CALLS = frozenset(
    ["String", "Number", "Boolean", "parseInt", "parseFloat", "isNaN", "isFinite", "Array"]
)
#: what `throw new Error(message)` makes: no call (its `throw` is counted)
_ERRORS = frozenset(["Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError"])
_KEYWORDS = frozenset(["if", "for", "while", "switch", "catch", "function", "return", "typeof"])


@dataclass(frozen=True, slots=True)
class Part:
    """One statement: its kind (``decl``, ``effect``, ``guard``, ``throw``, ``change``,
    ``other``), its tokens ``[first, end)`` (``end`` after its ``;`` if it has one), and for a
    change the tokens of the value it sets (``value`` ``[v0, v1)``, empty for ``n++``)."""

    kind: str
    first: int
    end: int
    target: str = ""
    value: tuple[int, int] = (0, 0)


def ends_statement(kinds: Sequence[str], match: dict[int, int], i: int, stop: int) -> int:
    """The end of the statement starting at token ``i`` (after its ``;``, or at ``stop``, or
    at a ``}`` closing the block): brackets are skipped whole."""
    while i < stop:
        k = kinds[i]
        if k == ";":
            return i + 1
        if k in ("(", "[", "{"):
            i = match.get(i, stop - 1) + 1
            continue
        if k == "}" or k == "eof":
            return i
        i += 1
    return stop


def block_parts(
    kinds: Sequence[str], values: Sequence[object], match: dict[int, int], first: int, stop: int
) -> list[Part]:
    """The statements of the block whose inside is tokens ``[first, stop)``."""
    out: list[Part] = []
    i = first
    while i < stop:
        if kinds[i] == ";":
            i += 1
            continue
        part = _part(kinds, values, match, i, stop)
        out.append(part)
        i = max(part.end, i + 1)
    return out


def _part(
    kinds: Sequence[str], values: Sequence[object], match: dict[int, int], i: int, stop: int
) -> Part:
    word = values[i] if kinds[i] == "name" else None
    if word == "if" and kinds[i + 1] == "(":
        close = match.get(i + 1, stop - 1)
        j = close + 1
        if kinds[j] == "{":
            end = match.get(j, stop - 1) + 1
            inner = [k for k in range(j + 1, end - 1) if kinds[k] != ";"]
            guard = bool(inner) and values[inner[0]] == "throw"
            guard = guard and ends_statement(kinds, match, inner[0], end - 1) >= inner[-1] + 1
        else:
            end = ends_statement(kinds, match, j, stop)
            guard = kinds[j] == "name" and values[j] == "throw"
        if kinds[end] == "name" and values[end] == "else":
            guard = False
        return Part("guard" if guard else "other", i, end)
    end = ends_statement(kinds, match, i, stop)
    last = end - 1 if kinds[end - 1] == ";" else end  # (the statement without its `;`)
    if word in ("const", "let", "var"):
        return Part("decl", i, end)
    if word == "throw":
        return Part("throw", i, end)
    if word == "await" or kinds[i] == "[" or kinds[i] == "(":
        return Part("effect", i, end)
    if kinds[i] == "op" and values[i] in ("++", "--") and kinds[i + 1] == "name" and last == i + 2:
        return Part("change", i, end, str(values[i + 1]))
    if kinds[i] != "name" or word in _KEYWORDS:
        return Part("other", i, end)
    target = str(word)
    nxt = kinds[i + 1]
    if (nxt == "=" or (nxt == "op" and values[i + 1] in _SETS)) and last > i + 2:
        return Part("change", i, end, target, (i + 2, last))
    if nxt == "op" and values[i + 1] in ("++", "--") and last == i + 2:
        return Part("change", i, end, target)
    if (
        nxt == "."
        and values[i + 2] == "push"
        and kinds[i + 3] == "("
        and match.get(i + 3) == last - 1
        and last - 1 > i + 4
        and not any(kinds[k] in (",", "...") for k in _top(kinds, match, i + 4, last - 1))
    ):
        return Part("change", i, end, target, (i + 4, last - 1))
    key_end = match.get(i + 1, stop) if nxt == "[" else i + 2 if nxt == "." else stop
    if key_end + 2 < last and kinds[key_end + 1] == "=":  # `o[k] = v;`, `o.k = v;`
        return Part("change", i, end, target, (key_end + 2, last))
    step = values[key_end + 1] if key_end + 1 < last and kinds[key_end + 1] == "op" else None
    if step in ("+=", "-=") and key_end + 2 < last:  # `o.k += v;`, `o[k] -= v;`
        return Part("change", i, end, target, (key_end + 2, last))
    if step in ("++", "--") and key_end + 2 == last:  # `o.k++;`, `o[k]--;`
        return Part("change", i, end, target)
    if nxt == "(" or nxt == ".":  # `notify(x);`, `api.log(x);`: run for its effect
        return Part("effect", i, end)
    return Part("other", i, end)


def _top(kinds: Sequence[str], match: dict[int, int], first: int, stop: int) -> list[int]:
    """The tokens of ``[first, stop)`` outside brackets."""
    out: list[int] = []
    i = first
    while i < stop:
        out.append(i)
        if kinds[i] in ("(", "[", "{"):
            i = match.get(i, stop - 1)
        i += 1
    return out


def calls_in(
    kinds: Sequence[str],
    values: Sequence[object],
    first: int,
    stop: int,
    methods: frozenset[str],
) -> list[int]:
    """The tokens of ``[first, stop)`` that may fail as JavaScript throws (a call of a
    function that is not one of JavaScript's own, ``JSON.parse``, ``throw``, ``await p`` of a
    name): the name before a call's ``(``, the ``throw``, or the awaited name."""
    out: list[int] = []
    for i in range(first, stop):
        if kinds[i] != "name":
            continue
        word = values[i]
        if word == "throw":
            out.append(i)
            continue
        if word == "await" and kinds[i + 1] == "name" and kinds[i + 2] not in ("(", ".", "["):
            out.append(i + 1)  # (`await p` of a promise a name holds: it fails there)
            continue
        called = kinds[i + 1] == "(" or (  # (an optional call, `o.f?.()`: :mod:`.optionalcall`)
            kinds[i + 1] == "op" and values[i + 1] == "?." and kinds[i + 2] == "("
        )
        if not called or word in _KEYWORDS or word in _ERRORS:
            continue
        dotted = i > 0 and kinds[i - 1] == "."
        parse = dotted and word == "parse" and values[i - 2] == "JSON"
        if parse or word not in (methods if dotted else _PURE_CALLS):  # (`api.getOrder(id)`)
            out.append(i)
    return out


#: the methods that change an array in place: on a member that is no array JavaScript throws
#: a TypeError (``m.a.push is not a function``) a ``catch`` reads
_CHANGING = frozenset(["push", "pop", "shift", "unshift", "splice", "sort", "reverse"])


def member_changes(kinds: Sequence[str], values: Sequence[object], first: int, stop: int) -> bool:
    """Whether ``[first, stop)`` calls an array's changing method on a member (``m.a.push(x)``,
    ``rows[i].tags.push(t)``), which throws as JavaScript's TypeError when the member is no
    array: a ``try`` holding one is not plain (its handler may run)."""
    for i in range(first + 2, stop - 1):
        if (
            kinds[i] == "name"
            and values[i] in _CHANGING
            and kinds[i + 1] == "("
            and kinds[i - 1] == "."
            and (kinds[i - 2] == "]" or (kinds[i - 2] == "name" and kinds[i - 3] == "."))
        ):
            return True
    return False
