"""An `if` statement outside a loop whose branches only change names, read straight (SPEC 10,
"Changes outside loops"): ``if (c) x = v;``, ``if (c) { x += v; xs.push(w); } else if (d) x
= 0; else y++;``.

:mod:`.reassign` reads such a statement as a loop over one item (:meth:`.loops.LoopsMixin.
for_statement`), which :mod:`.straight` writes as versions. For these shapes that loop adds only
its plumbing (its header, its variable, its body's scopes, a second walk to the statement's
end), so this reads the statement the way the loop's body reads it (:meth:`.loopbody.
LoopBodyMixin._statement`, the same hidden names in the same order), checks the body as the
loop does (:func:`.loopreads.check_body`) and writes the same trees (:meth:`.loopemit.
LoopEmitMixin._emit`). A statement of another shape, or one the reading or a check refuses, is
left to the loop, which reads it again and gives its answer (the refusal, with its message and
place).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from dialectic.frontends.plan.base import CHANGES, ParseFailure
from dialectic.frontends.plan.keywords import RESERVED
from dialectic.frontends.plan.loopcheck import Body
from dialectic.frontends.plan.loopreads import check_body
from dialectic.frontends.plan.tokenscan import PLAIN_OPEN

if TYPE_CHECKING:
    from dialectic.frontends.plan.loops import LoopsMixin
    from dialectic.frontends.plan.reassign import ReassignMixin

__all__ = ["if_shape", "straight_if"]

_Block = tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]]
_STEPS = frozenset(["++", "--"])
#: a branch's block may declare its own names (`{ const y = ...; x = y; }`: the loop's trees)
_LOCALS = frozenset(["const", "let"])
#: statements nested deeper than this are left to the loop (it bounds this walk's recursion)
_MAX_DEPTH = 8


def if_shape(kinds: list[str], values: list[Any], closes: list[int], pos: int) -> int | None:
    """The last token of the `if` statement at token ``pos`` when each of its branches (its
    `else if` and `else` ones too) is one change statement or a block of them (``x = v;``,
    ``x op= v;``, ``x++;``, ``++x;``, ``xs.push(...);``, a nested `if` of the same shape, in a
    block also ``const y = v;``, each ended by its `;`); None for any other statement."""
    return _if(kinds, values, closes, pos, 0)


def _if(kinds: list[str], values: list[Any], closes: list[int], pos: int, depth: int) -> int | None:
    while True:
        if depth > _MAX_DEPTH or kinds[pos + 1] != "(":
            return None
        close = closes[pos + 1]
        if kinds[close] == "eof":
            return None
        end = _branch(kinds, values, closes, close + 1, depth)
        if end is None:
            return None
        nxt = end + 1
        if not (kinds[nxt] == "name" and values[nxt] == "else"):
            return end
        if kinds[nxt + 1] == "name" and values[nxt + 1] == "if":
            pos = nxt + 1
            continue
        return _branch(kinds, values, closes, nxt + 1, depth)


def _branch(
    kinds: list[str], values: list[Any], closes: list[int], i: int, depth: int
) -> int | None:
    """The last token of the branch at token ``i`` (a block of change statements, or one)."""
    if kinds[i] != "{":
        return _statement(kinds, values, closes, i, depth)
    close = closes[i]
    if kinds[close] != "}":
        return None
    i += 1
    while i < close:
        if kinds[i] == ";":
            i += 1
            continue
        if kinds[i] == "name" and values[i] in _LOCALS and kinds[i + 1] == "name":
            end = _value_end(kinds, closes, i + 3) if kinds[i + 2] == "=" else None
        else:
            end = _statement(kinds, values, closes, i, depth)
        if end is None or end >= close:
            return None
        i = end + 1
    return close


def _statement(
    kinds: list[str], values: list[Any], closes: list[int], i: int, depth: int
) -> int | None:
    """The `;` ending the change statement at token ``i`` (or the last token of a nested `if`
    of the same shape); None for any other statement."""
    kind = kinds[i]
    if kind == "op" and values[i] in _STEPS:
        return i + 2 if kinds[i + 1] == "name" and kinds[i + 2] == ";" else None
    if kind != "name":
        return None
    word = values[i]
    if word == "if":
        return _if(kinds, values, closes, i, depth + 1)
    if word in RESERVED:
        return None
    nxt = kinds[i + 1]
    if nxt == "op" and values[i + 1] in _STEPS:
        return i + 2 if kinds[i + 2] == ";" else None
    push = nxt == "." and values[i + 2] == "push" and kinds[i + 2] == "name" and kinds[i + 3] == "("
    if not (push or nxt == "=" or (nxt == "op" and values[i + 1] in CHANGES)):
        return None
    return _value_end(kinds, closes, i + 2)


def _value_end(kinds: list[str], closes: list[int], i: int) -> int | None:
    """The `;` ending the value that starts at token ``i`` (None: it ends without one)."""
    while kinds[i] not in (";", "}", "eof"):
        if kinds[i] in PLAIN_OPEN:  # (a template's `${` is walked through, as it always was)
            i = closes[i]
            if kinds[i] == "eof":
                return None
        i += 1
    return i if kinds[i] == ";" else None


def straight_if(p: LoopsMixin, pos: int, block: _Block) -> bool:
    """The `if` statement at token ``pos`` of the ``block``, read as its one-item loop's body
    is and written as that loop's trees, when :func:`if_shape` accepts it; False (nothing read)
    to leave it to the one-item loop."""
    at, end = cast("ReassignMixin", p).if_shaped
    if at != pos:
        end = if_shape(p.kinds, p.values, p.brackets().closes, pos)
    if end is None or p._loop_return is not None:
        return False
    aliases, alias_at, alias_rec = block
    warned, problems = len(p.warnings), len(p.problems)
    name = p.fresh("_once")  # (the loop's variable, as :meth:`.reassign.ReassignMixin.once`)
    header: tuple[str | None, int, Any, tuple[int, int]] = (name, pos, [0], (pos, pos))
    body = Body(p, aliases, alias_at, alias_rec, p._block_state(alias_rec))
    body.once = True
    body.param = name
    body.item_names.add(name)
    try:
        body.declare(name, pos)
        p.pos = pos
        body.open_scope()
        p._statement(body, None)
        body.close_scope()
        check_body(p, body, header[2], header[3])
    except ParseFailure as failure:
        if failure.fatal:
            raise
        p.pos = pos  # (the loop reads it again, and refuses it with its message)
        del p.warnings[warned:]
        del p.problems[problems:]
        p.keep.append(body)  # (what it read stays: the ids the span record keys stay unique)
        return False
    p._emit(body, header, pos, pos)
    return True
