"""A function's parameter assigned in its body (SPEC 10, "Functions"): models narrow or
normalize an argument in place, ``function top(xs) { xs = xs.toSorted((a, b) => b - a);
return xs.slice(0, 3); }``, ``s => { s = s.trim(); s = s.toLowerCase(); return s; }``,
``if (!opts) opts = {};``.

A parameter is the function's own binding, a ``let`` JavaScript starts from the argument. Read
before parsing, on the tokens: when the block body of a ``function`` or an arrow function
assigns one of its parameters (``p = v``, ``p += v``, every compound and logical assignment,
``p++``, ``--p``; not a member's), the parameter is renamed to a hidden name and the body starts
with ``let p = _pN;``, which JavaScript runs the same (the body's reads and changes are the
``let``'s, as the parameter's were). The ``let`` is then read as any other: a change by a
statement, in a branch or a loop. A parameter the body also changes in place (``xs.sort();``,
``xs.push(x);``) is left as written (the reading of such changes on a parameter,
:mod:`.sortowned`). Only a list of plain names is read so (a default value, a
pattern or a rest parameter leaves the function as written). One pass over the tokens, and
for each such function a look at the places its parameters' names occur in its body."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.parensets import name_index
from dialectic.frontends.plan.tokenscan import partners
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["parameter_sets"]

#: the operators that assign the name before them
_ASSIGNING = frozenset(
    [
        *("+=", "-=", "*=", "/=", "%=", "**=", "||=", "&&=", "??="),
        *("<<=", ">>=", ">>>=", "|=", "&=", "^="),
    ]
)
_STEPS = frozenset(["++", "--"])
#: methods that change their array in place: a parameter they change is left as written
_IN_PLACE = frozenset(
    ["sort", "reverse", "push", "pop", "shift", "unshift", "splice", "fill", "copyWithin"]
)
_DECLARING = frozenset(["let", "const", "var", "function"])


def parameter_sets(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each parameter its function assigns read as a ``let`` of the body
    (None: there is none)."""
    if "=" not in source or ("function" not in source and "=>" not in source):
        return None
    kinds, values = tokens.kinds, tokens.values
    partner: dict[int, int] | None = None
    index: dict[str, list[int]] | None = None
    found: list[tuple[list[int], int]] = []  # (the parameters' tokens, the body's `{`)
    for i, kind in enumerate(kinds):
        head = None
        if kind == "name" and values[i] == "function":
            head = i + 1 + (kinds[i + 1] == "name")
            if kinds[head] != "(":
                continue
        elif kind == "op" and values[i] == "=>" and kinds[i + 1] == "{":
            head = i - 1
        else:
            continue
        if partner is None:
            partner = partners(kinds)
            index = name_index(kinds, values)
        assert index is not None
        params, body = _function(kinds, partner, i, head)
        if body < 0 or _async_step(kinds, values, partner, i, head):
            continue
        close = partner.get(body, body)
        assigned = [p for p in params if _assigned(kinds, values, index, values[p], body, close)]
        if assigned:
            found.append((assigned, body))
    if not found:
        return None
    return _write(source, tokens, found)


def _function(
    kinds: Sequence[str], partner: dict[int, int], at: int, head: int
) -> tuple[list[int], int]:
    """The plain-name parameters' tokens and the body's `{` of the function whose `function`
    (or `=>`) is at token ``at`` and whose parameters are at ``head`` (a `(` or, for an
    arrow, its `)` or one name); ``-1`` as the body when the parameters are not plain names."""
    if kinds[at] == "op":  # `(a, b) => {`, `a => {`
        body = at + 1
        if kinds[head] == "name":
            return [head], body
        if kinds[head] != ")":
            return [], -1
        first, last = partner.get(head, head), head
    else:
        first, last = head, partner.get(head, head)
        body = last + 1
        if kinds[body] != "{":
            return [], -1
    params: list[int] = []
    j = first + 1
    while j < last:
        if kinds[j] != "name" or kinds[j + 1] not in (",", ")"):
            return [], -1
        params.append(j)
        j += 2
    return params, body


def _async_step(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], at: int, head: int
) -> bool:
    """Whether the function at token ``at`` is an ``async`` step of ``reduce``: its
    accumulator is read as :mod:`.asynccallbacks` checks it (``acc = await acc;``)."""
    first = (partner.get(head, head) if kinds[head] == ")" else head) if kinds[at] == "op" else at
    return (
        first >= 3
        and values[first - 1] == "async"
        and kinds[first - 2] == "("
        and values[first - 3] in ("reduce", "reduceRight")
    )


def _assigned(
    kinds: Sequence[str],
    values: Sequence[object],
    index: dict[str, list[int]],
    name: object,
    body: int,
    close: int,
) -> bool:
    """Whether the name is assigned between tokens ``body`` and ``close`` (not as a member,
    not where a declaration names it)."""
    places = index.get(str(name), [])
    k = bisect_right(places, body)
    found = False
    while k < len(places) and places[k] < close:
        i = places[k]
        k += 1
        if kinds[i + 1] == "." and values[i + 2] in _IN_PLACE and kinds[i + 3] == "(":
            return False  # (`xs.sort();`: the parameter's own reading, :mod:`.sortowned`)
        if found:
            continue
        before = kinds[i - 1]
        if before == "." or (before == "op" and values[i - 1] == "?."):
            continue
        if before == "name" and values[i - 1] in _DECLARING:
            continue
        after, word = kinds[i + 1], values[i + 1]
        sets = after == "=" or (after == "op" and (word in _ASSIGNING or word in _STEPS))
        found = sets or (before == "op" and values[i - 1] in _STEPS)
    return found


def _write(source: str, tokens: Lexed, found: list[tuple[list[int], int]]) -> Lexed:
    values = tokens.values
    out = TokenWriter(tokens)
    places: list[tuple[int, int, str, str]] = []  # (token, 0: a parameter, 1: a `let`, ...)
    count = 0
    for params, body in found:
        for p in params:
            count += 1
            name = str(values[p])
            hidden = _hidden(source, name, count)
            places.append((p, 0, name, hidden))
            places.append((body, 1, name, hidden))
    places.sort(key=lambda t: (t[0], t[1]))
    at = 0
    for tok, what, name, hidden in places:
        if what == 0:
            out.copy(at, tok)
            out.put("name", hidden, tok)
        else:
            out.copy(at, tok + 1)  # (through the body's `{`)
            out.put("name", "let", tok)
            out.put("name", name, tok)
            out.put("=", "=", tok)
            out.put("name", hidden, tok)
            out.put(";", ";", tok)
        at = tok + 1
    out.copy(at, len(tokens.kinds))
    return out.lexed(source)


def _hidden(source: str, name: str, n: int) -> str:
    hidden = f"_{name}{n}"
    while hidden in source:
        n += 1000
        hidden = f"_{name}{n}"
    return hidden
