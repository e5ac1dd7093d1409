"""A ``filter`` or ``map`` whose callback changes names outside it, read as the ``forEach``
loop it is (SPEC 10, "Loops"). Models keep a Set of what they have seen, or count, inside the
callback::

    const seen = new Set();
    const unique = people.filter(p => {
      if (seen.has(p.email)) return false;
      seen.add(p.email);
      return true;
    });

Read before parsing, on the tokens: the statement ``const NAME = R.filter(x => { BODY })TAIL;``
(also ``let``, ``var``, ``return R.filter(...)TAIL;``, and ``map``) whose block body changes a
name it does not declare (``seen.add(k)``, ``count++``, ``total += x``, ``out.push(x)``,
``o[k] = v``) is

    const _kept1 = [];
    R.forEach(x => { BODY' });
    const NAME = _kept1TAIL;

where each ``return E;`` of the callback itself (not of a function inside it) becomes
``{ if (E) _kept1.push(x); return; }`` for ``filter`` (JavaScript keeps the item when the
value is truthy) and ``{ _kept1.push(E); return; }`` for ``map`` (a ``map`` callback that ends
without ``return`` gives ``undefined``: ``_kept1.push(undefined);`` closes its body). JavaScript
calls the callback for each item in order, as ``forEach`` does, and ``filter``/``map`` make a new
array, as ``_kept1`` is: the same values. The loop's rules then apply to the body (what it may
change, ``return;`` going on with the next item). Anything else (an ``async`` or ``function``
callback, a third parameter, a pattern as ``filter``'s item, a body changing nothing outside)
is left as written."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dialectic.frontends.plan.base import CHANGES, changes_member
from dialectic.frontends.plan.callbackreturns import _ends_in_return, _returns
from dialectic.frontends.plan.keywords import RESERVED
from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import partners, starts_statement
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["MAX_CALLBACK_LOOPS", "callback_loops", "statement_head"]

#: the changes of an array, Map or Set that make a callback the loop (the others, `pop`,
#: `splice`, `sort`..., keep their own refusals)
_CHANGING = frozenset(["push", "set", "add", "delete", "clear"])
#: operators that assign to what stands before them
_ASSIGNING = CHANGES | {"="}
_DECLARATORS = frozenset(["const", "let", "var"])
#: how many statements one program may have read so (each costs a pass over its body, and
#: each loop's state is a record the later passes read: the limit a program is told of)
MAX_CALLBACK_LOOPS = 64


def callback_loops(source: str, tokens: Lexed, cut: list[int] | None = None) -> Lexed | None:
    """``tokens`` with each ``filter``/``map`` statement whose callback changes names outside
    it written as its ``forEach`` loop (None: there is none). ``cut`` receives the offset of
    the first such statement past :data:`MAX_CALLBACK_LOOPS` (left as written)."""
    if "=>" not in source or (".filter" not in source and ".map" not in source):
        return None
    kinds, values = tokens.kinds, tokens.values
    partner: dict[int, int] | None = None
    found: list[_Found] = []
    memo: dict[int, int] = {}  # (receiver chains: see _receiver_start)
    taken = -1  # (statements do not overlap: one inside another's body is left as written)
    for i in range(2, len(kinds) - 1):
        if not (
            kinds[i] == "name"
            and values[i] in ("filter", "map")
            and kinds[i - 1] == "."
            and kinds[i + 1] == "("
            and i > taken
        ):
            continue
        if partner is None:
            partner = partners(kinds)
        one = _statement(kinds, values, partner, i, memo)
        if one is not None and len(found) >= MAX_CALLBACK_LOOPS:
            if cut is not None:
                cut.append(tokens.offsets()[0][one.start])
            break
        if one is not None:
            found.append(one)
            taken = one.end
    if not found:
        return None
    assert partner is not None
    return _rewrite(source, tokens, found, partner)


@dataclass(slots=True)
class _Found:
    """One statement to read as a loop: its first token, the receiver's first token, the
    method's name token, the callback's parameters (first and last token), the body's
    braces, the call's `)`, the statement's end (its `;` or the token before it), the
    returns of the callback (their tokens and the `;` ending each)."""

    start: int
    receiver: int
    method: int
    params: tuple[int, int]
    body: tuple[int, int]
    close: int
    end: int
    returns: list[tuple[int, int]]


def _receiver_start(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    dot: int,
    memo: dict[int, int] | None = None,
) -> int:
    """The first token of the receiver chain ending just before token ``dot`` (names, member
    reads, calls and indexes), -1 if there is none. ``memo`` keeps each answer by the token
    the walk began at: the walk from the next `.map` of a chain stops where this one began,
    so a chain of n `.map(...)` costs n steps, not n * n."""
    first = j = dot - 1
    found = _walk_back(kinds, values, partner, j, memo)
    if memo is not None:
        memo[first] = found
    return found


def _walk_back(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    j: int,
    memo: dict[int, int] | None,
) -> int:
    while j >= 0:
        if memo is not None and j in memo:
            return memo[j]
        if kinds[j] in (")", "]"):
            j = partner.get(j, -1)
            if j < 0:
                return -1
            if kinds[j] == "(" and kinds[j - 1] == "name":  # a call: its callee
                j -= 1
            elif kinds[j] == "[" and (
                kinds[j - 1] in (")", "]")
                or (kinds[j - 1] == "name" and values[j - 1] not in RESERVED)
            ):  # an index
                j -= 1
                continue
            else:
                return j  # a literal array or a parenthesized expression
        if kinds[j] != "name":
            return -1
        if kinds[j - 1] == "." and j >= 2:
            j -= 2
            continue
        return j
    return -1


def statement_head(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    method: int,
    memo: dict[int, int] | None = None,
) -> tuple[int, int, int] | None:
    """For the method's name at token ``method`` in ``const NAME = R.method(...)`` (also
    ``let``, ``var``, ``return R.method(...)``), a statement: its first token, the receiver's
    first token and the call's `)`; else None."""
    close = partner.get(method + 1, -1)
    receiver = _receiver_start(kinds, values, partner, method - 1, memo)
    if close < 0 or receiver < 0 or values[receiver] in ("await", "new"):
        return None
    before = receiver - 1
    if kinds[before] == "name" and values[before] == "return":
        start = before
    elif (
        kinds[before] == "="
        and kinds[before - 1] == "name"
        and kinds[before - 2] == "name"
        and values[before - 2] in _DECLARATORS
    ):
        start = before - 2
    else:
        return None
    if not starts_statement(kinds, values, partner, start):
        return None
    return start, receiver, close


def _statement(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    method: int,
    memo: dict[int, int] | None = None,
) -> _Found | None:
    head = statement_head(kinds, values, partner, method, memo)
    if head is None:
        return None
    start, receiver, close = head
    open_ = method + 1
    params = _params(kinds, values, partner, open_ + 1)
    if params is None:
        return None
    arrow = params[1] + 1
    body = arrow + 1
    if not (kinds[arrow] == "op" and values[arrow] == "=>" and kinds[body] == "{"):
        return None
    body_end = partner.get(body, -1)
    if body_end != close - 1:
        return None
    end = _tail_end(kinds, partner, close)
    if end < 0:
        return None
    names = [str(values[j]) for j in range(params[0], params[1] + 1) if kinds[j] == "name"]
    if values[method] == "filter" and (
        kinds[params[0]] != "name"
        and not (kinds[params[0]] == "(" and kinds[params[0] + 1] == "name")
    ):
        return None
    if not _changes_outside(kinds, values, body, body_end, set(names)):
        return None
    returns = _returns(kinds, values, partner, body, body_end)
    if returns is None:
        return None
    return _Found(start, receiver, method, params, (body, body_end), close, end, returns)


def _params(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], at: int
) -> tuple[int, int] | None:
    """The callback's parameters from token ``at``: ``x`` or ``(x)``/``(x, i)``/``({a}, i)``
    (not ``async``, not a third parameter), as (first, last) tokens; else None."""
    if kinds[at] == "name":
        return None if values[at] in ("async", "function") else (at, at)
    if kinds[at] != "(":
        return None
    last = partner.get(at, -1)
    if last < 0:
        return None
    depth, commas = 0, 0
    for j in range(at + 1, last):
        if kinds[j] in ("(", "[", "{"):
            depth += 1
        elif kinds[j] in (")", "]", "}"):
            depth -= 1
        elif kinds[j] == "," and depth == 0:
            commas += 1
        elif kinds[j] == "op" and values[j] in ("...", "="):
            return None  # (a rest or a default)
    return (at, last) if commas <= 1 and last > at + 1 else None


def _tail_end(kinds: Sequence[str], partner: dict[int, int], close: int) -> int:
    """The last token of the statement's tail after the call's `)` (member reads, calls and
    indexes up to its `;`), or -1 when the statement goes on otherwise."""
    j = close + 1
    while True:
        kind = kinds[j]
        if kind == ";":
            return j - 1
        if kind in ("}", "eof"):
            return j - 1
        if kind in ("(", "["):
            j = partner.get(j, -1)
            if j < 0:
                return -1
            j += 1
        elif kind == "." and kinds[j + 1] == "name":
            j += 2
        else:
            return -1


def _changes_outside(
    kinds: Sequence[str], values: Sequence[object], first: int, last: int, local: set[str]
) -> bool:
    """Whether the body (tokens ``first`` to ``last``) changes a name it does not declare."""
    local = set(local)
    changed = set()
    for i in range(first + 1, last):
        if kinds[i] != "name" or kinds[i - 1] == ".":
            continue
        value = str(values[i])
        if value in _DECLARATORS and kinds[i + 1] == "name":
            local.add(str(values[i + 1]))
        elif (
            (kinds[i + 1] in ("=", "op") and values[i + 1] in _ASSIGNING)
            or (kinds[i - 1] == "op" and values[i - 1] in ("++", "--"))
            or changes_member(kinds, values, i, _CHANGING)
        ):
            changed.add(value)
    return bool(changed - local)


def _hidden(source: str, n: int) -> str:
    name = f"_kept{n}"
    while name in source:
        n += 1000
        name = f"_kept{n}"
    return name


def _rewrite(source: str, tokens: Lexed, found: list[_Found], partner: dict[int, int]) -> Lexed:
    kinds, values = tokens.kinds, tokens.values
    out = TokenWriter(tokens)
    put, copy = out.put, out.copy
    at = 0
    for n, f in enumerate(found, 1):
        kept = _hidden(source, n)
        filtering = values[f.method] == "filter"
        first = f.params[0] + 1 if kinds[f.params[0]] == "(" else f.params[0]
        item = str(values[first])
        copy(at, f.start)
        s = f.start  # `const _kept1 = [];`
        for kind, value in (("name", "const"), ("name", kept), ("=", "="), ("[", "["),
                            ("]", "]"), (";", ";")):  # fmt: skip
            put(kind, value, s)
        copy(f.receiver, f.method)  # `R.`
        put("name", "forEach", f.method)
        copy(f.method + 1, f.body[0] + 1)  # `(params => {`
        j = f.body[0] + 1
        for ret, semi in f.returns:
            copy(j, ret)
            _write_return(out, kinds, values, ret, semi, kept, item if filtering else None)
            j = semi + 1
        copy(j, f.body[1])
        if not filtering and not _ends_in_return(kinds, values, partner, f.body):
            _push(out, kept, None, f.body[1])
        copy(f.body[1], f.close + 1)  # `})`
        put(";", ";", f.close)
        if values[f.start] == "return":
            put("name", "return", f.start)
        else:
            copy(f.start, f.start + 3)  # `const NAME =`
        put("name", kept, f.receiver)
        copy(f.close + 1, f.end + 1)  # the tail
        at = f.end + 1
    copy(at, len(kinds))
    return out.lexed(source)


def _push(out: TokenWriter, kept: str, value: tuple[int, int] | None, j: int) -> None:
    """``_kept1.push(V);`` with the tokens ``value`` (first, end excluded), or ``undefined``."""
    out.put("name", kept, j)
    out.put(".", ".", j)
    out.put("name", "push", j)
    out.put("(", "(", j)
    if value is None:
        out.put("name", "undefined", j)
    else:
        out.copy(*value)
    out.put(")", ")", j)
    out.put(";", ";", j)


def _write_return(
    out: TokenWriter,
    kinds: Sequence[str],
    values: Sequence[object],
    ret: int,
    semi: int,
    kept: str,
    item: str | None,
) -> None:
    """``return E;`` (tokens ``ret`` to ``semi``) as ``{ _kept1.push(E); return; }`` (map) or
    ``{ if (E) _kept1.push(item); return; }`` (filter: ``item`` is the item's name)."""
    put = out.put
    empty = semi == ret + 1
    # braces where the `return` is an `if`'s or `else`'s statement (a `{` starting a statement
    # of a block would be read as an object)
    braced = kinds[ret - 1] == ")" or (kinds[ret - 1] == "name" and values[ret - 1] == "else")
    if braced:
        put("{", "{", ret)
    if item is None:
        _push(out, kept, None if empty else (ret + 1, semi), ret)
    elif not empty and not (
        kinds[ret + 1] == "name" and values[ret + 1] == "false" and semi == ret + 2
    ):
        always = kinds[ret + 1] == "name" and values[ret + 1] == "true" and semi == ret + 2
        if not always:
            put("name", "if", ret)
            put("(", "(", ret)
            out.copy(ret + 1, semi)
            put(")", ")", ret)
        put("name", kept, ret)
        put(".", ".", ret)
        put("name", "push", ret)
        put("(", "(", ret)
        put("name", item, ret)
        put(")", ")", ret)
        put(";", ";", ret)
    put("name", "return", ret)
    put(";", ";", semi)
    if braced:
        put("}", "}", semi)
