"""A ``reduce`` whose step changes a new object or array and returns it, read as the loop it
is (SPEC 10, "Loops"). Models split or count into an object of arrays and numbers::

    const r = nums.reduce((acc, x) => {
      if (x > 0) acc.pos.push(x); else acc.neg.push(x);
      acc.count++;
      return acc;
    }, {pos: [], neg: [], count: 0});

Read on the tokens, only when the program as written is refused (:func:`.parse_plan` reads it
again): the statement ``const NAME = R.reduce((acc, x) => { BODY }, INIT)TAIL;`` (also ``let``,
``var``, ``return R.reduce(...)TAIL;``, and ``(acc, x, i)``) whose step calls no method of
``acc`` itself but ``push`` (from an array) and methods that read is

    const acc = INIT;
    R.forEach((x) => { BODY' });
    const NAME = accTAIL;

where ``BODY'`` is ``BODY`` without its last statement ``return acc;`` and with each other
``return acc;`` of the step itself written ``return;`` (the next item). JavaScript calls the
step for each item in order with the value the one before returned, which is always the same
object, so the values are the same. Only when ``INIT`` is an object or array literal without a
call (a new value, so computing it before ``R`` changes nothing), every ``return`` of the step is
``return acc;``, the body ends with one, ``acc`` is not set nor declared again in it, and the
name ``acc`` appears nowhere else in the program (else the accumulator takes a hidden name, as
long as ``acc`` is never a key there). The loop's rules then apply to the body; anything else
is left as written."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dialectic.frontends.plan.base import CHANGES
from dialectic.frontends.plan.callbackloop import statement_head
from dialectic.frontends.plan.callbackreturns import _returns
from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.parensets import name_index
from dialectic.frontends.plan.tokenscan import partners
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["MAX_REDUCE_LOOPS", "reduce_loops"]

_DECLARATORS = frozenset(["const", "let", "var"])
#: how many `reduce` statements one program may have read so (each costs a pass over its body,
#: and each accumulator is a record the later passes read: the limit a program is told of)
MAX_REDUCE_LOOPS = 64
#: methods of the accumulator itself a step may call (the others keep the refusal of the
#: ``reduce`` as written, which names the idiom: ``acc.set`` of an object, ``acc.pop()``)
_READING = frozenset(["includes", "indexOf", "some", "every", "find", "join", "slice", "at"])
#: names an initial value may not hold (they run something)
_EFFECTS = frozenset(["await", "new", "function", "delete", "yield"])


@dataclass(slots=True)
class _Found:
    """One ``reduce`` to read as a loop: the statement's first token, the receiver's first
    token, the ``reduce`` token, the accumulator's token, the item's parameters (first and
    last token), the body's braces, the initial value's brackets, the call's `)`, the
    statement's last token, the step's returns (token, `;`), the accumulator's name."""

    start: int
    receiver: int
    method: int
    acc: int
    item: tuple[int, int]
    body: tuple[int, int]
    init: tuple[int, int]
    close: int
    end: int
    returns: list[tuple[int, int]]
    name: str = ""


def reduce_loops(source: str, tokens: Lexed, cut: list[int] | None = None) -> Lexed | None:
    """``tokens`` with each ``reduce`` statement the module describes written as its loop
    (None: there is none). ``cut`` receives the offset of the first such statement past
    :data:`MAX_REDUCE_LOOPS` (left as written)."""
    if ".reduce" not in source or "=>" not in source:
        return None
    kinds, values = tokens.kinds, tokens.values
    partner = partners(kinds)
    index = name_index(kinds, values)
    found: list[_Found] = []
    memo: dict[int, int] = {}  # (receiver chains: see callbackloop._receiver_start)
    taken = -1
    for i in index.get("reduce", ()):
        if i <= taken or kinds[i - 1] != "." or kinds[i + 1] != "(":
            continue
        one = _statement(kinds, values, partner, i, memo)
        if one is None:
            continue
        if len(found) >= MAX_REDUCE_LOOPS:
            if cut is not None:
                cut.append(tokens.offsets()[0][one.start])
            break
        name = _acc_name(kinds, values, index, one, source, len(found) + 1)
        if name is None:
            continue
        one.name = name
        found.append(one)
        taken = one.end
    return _rewrite(source, tokens, found) if found else None


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
    params = open_ + 1
    params_end = partner.get(params, -1)
    acc = params + 1
    if not (
        kinds[params] == "("
        and kinds[acc] == "name"
        and kinds[acc + 1] == ","
        and params_end > acc + 2
        and values[params_end + 1] == "=>"
        and kinds[params_end + 2] == "{"
        and _item_params(kinds, values, partner, acc + 2, params_end)
    ):
        return None
    body = params_end + 2
    body_end = partner.get(body, -1)
    init = body_end + 2
    init_end = partner.get(init, -1)
    if not (
        body_end > 0
        and kinds[body_end + 1] == ","
        and kinds[init] in ("{", "[")
        and init_end == close - 1
        and _new_value(kinds, values, init, init_end)
    ):
        return None
    end = _expression_end(kinds, partner, close)
    returns = _returns(kinds, values, partner, body, body_end, True)
    if end < 0 or not returns or not _returns_acc(kinds, values, returns, acc, body_end):
        return None
    item = (acc + 2, params_end - 1)
    return _Found(
        start, receiver, method, acc, item, (body, body_end), (init, init_end), close, end, returns
    )


def _expression_end(kinds: Sequence[str], partner: dict[int, int], close: int) -> int:
    """The last token of the statement after the call's `)`: the rest of its expression
    (`.total`, `/ xs.length`, `.big * 2`, `|| 0`), which JavaScript evaluates after the
    `reduce` as ``accTAIL`` is; -1 when a bracket is left open."""
    j = close + 1
    while True:
        kind = kinds[j]
        if kind in (";", "}", "eof", ")", "]"):
            return j - 1 if kind in (";", "}", "eof") else -1
        if kind in ("(", "[", "{", "tplh"):
            j = partner.get(j, -1)
            if j < 0:
                return -1
        j += 1


def _item_params(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], first: int, end: int
) -> bool:
    """Whether tokens ``first`` to ``end`` (excluded) are the item and, maybe, the index: a
    name or a pattern without defaults, then a name."""
    j = first
    if kinds[j] in ("[", "{"):
        j = partner.get(j, end)
        if any(kinds[m] == "=" or values[m] == "..." for m in range(first, j)):
            return False
    elif kinds[j] != "name":
        return False
    j += 1
    if j == end:
        return True
    return kinds[j] == "," and kinds[j + 1] == "name" and j + 2 == end


def _new_value(kinds: Sequence[str], values: Sequence[object], first: int, last: int) -> bool:
    """Whether the literal from token ``first`` to ``last`` calls nothing (no call, arrow
    function, ``await``, ``new``...)."""
    for m in range(first, last):
        kind = kinds[m]
        if kind == "(" or (kind == "op" and values[m] == "=>"):
            return False
        if kind == "name" and values[m] in _EFFECTS:
            return False
    return True


def _returns_acc(
    kinds: Sequence[str],
    values: Sequence[object],
    returns: list[tuple[int, int]],
    acc: int,
    body_end: int,
) -> bool:
    """Whether every return is ``return acc;`` and the last statement of the body is one."""
    name = values[acc]
    if not all(semi == ret + 2 and values[ret + 1] == name for ret, semi in returns):
        return False
    last, semi = returns[-1]  # (`semi` the body's `}` itself: `return acc }`)
    return semi in (body_end - 2, body_end - 1, body_end) and kinds[last - 1] in (";", "{", "}")


def _acc_name(
    kinds: Sequence[str],
    values: Sequence[object],
    index: dict[str, list[int]],
    found: _Found,
    source: str,
    n: int,
) -> str | None:
    """The name the accumulator takes (its own when nothing else in the program names it),
    or None when it is set or declared again in the body."""
    name = str(values[found.acc])
    body, body_end = found.body
    alone = True
    for u in index.get(name, ()):
        if u == found.acc:
            continue
        if not body < u < body_end:
            if kinds[u - 1] != ".":
                alone = False
            continue
        if kinds[u - 1] == ".":
            continue
        if kinds[u + 1] == "=" or (kinds[u + 1] == "op" and values[u + 1] in CHANGES):
            return None
        if kinds[u - 1] == "name" and values[u - 1] in _DECLARATORS:
            return None
        if kinds[u - 1] == "op" and values[u - 1] in ("++", "--"):
            return None
        after = kinds[u + 1]
        if (
            after == "."
            and kinds[u + 3] == "("
            and not (
                values[u + 2] in _READING
                or (values[u + 2] == "push" and kinds[found.init[0]] == "[")
            )
        ):
            return None  # (`acc.set(k, v)` of an object: refused as written, with the idiom)
        if (after in (",", ":", "}") and values[u - 1] != "return") or values[u + 1] == "=>":
            return None  # (a parameter of an arrow inside, a key, a shorthand member)
        if after == ")" and values[u + 2] == "=>":
            return None
    if alone:
        return name
    hidden = f"_{name}{n}"
    while hidden in source:
        n += 1000
        hidden = f"_{name}{n}"
    return hidden


def _rewrite(source: str, tokens: Lexed, found: list[_Found]) -> Lexed:
    kinds, values = tokens.kinds, tokens.values
    out = TokenWriter(tokens)
    put, copy = out.put, out.copy
    at = 0
    for f in found:
        acc = str(values[f.acc])
        copy(at, f.start)
        put("name", "const", f.start)  # `const acc = INIT;`
        put("name", f.name, f.acc)
        put("=", "=", f.acc)
        copy(f.init[0], f.init[1] + 1)
        put(";", ";", f.init[1])
        copy(f.receiver, f.method)  # `R.forEach((x, i) => {`
        put("name", "forEach", f.method)
        put("(", "(", f.method + 1)
        put("(", "(", f.acc - 1)
        copy(f.item[0], f.item[1] + 1)
        put(")", ")", f.item[1] + 1)
        put("op", "=>", f.item[1] + 2)
        put("{", "{", f.body[0])
        j = f.body[0] + 1
        last = f.returns[-1][0]
        for ret, semi in f.returns:
            _copy_renamed(out, kinds, values, j, ret, acc, f.name)
            if ret != last:
                put("name", "return", ret)
                put(";", ";", semi)
            j = min(semi + 1, f.body[1])
        _copy_renamed(out, kinds, values, j, f.body[1], acc, f.name)
        put("}", "}", f.body[1])
        put(")", ")", f.close)
        put(";", ";", f.close)
        if values[f.start] == "return":
            put("name", "return", f.start)
        else:
            copy(f.start, f.start + 3)  # `const NAME =`
        put("name", f.name, f.receiver)
        copy(f.close + 1, f.end + 1)  # the tail
        at = f.end + 1
    copy(at, len(kinds))
    return out.lexed(source)


def _copy_renamed(
    out: TokenWriter,
    kinds: Sequence[str],
    values: Sequence[object],
    first: int,
    end: int,
    name: str,
    to: str,
) -> None:
    """Tokens ``first`` up to ``end`` (excluded), each read of ``name`` named ``to``."""
    if name == to:
        out.copy(first, end)
        return
    j = first
    for m in range(first, end):
        if kinds[m] == "name" and values[m] == name and kinds[m - 1] != ".":
            out.copy(j, m)
            out.put("name", to, m)
            j = m + 1
    out.copy(j, end)
