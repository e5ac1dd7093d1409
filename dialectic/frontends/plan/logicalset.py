"""``x ||= v``, ``x &&= v``, ``x ??= v`` as statements (SPEC 10, "Loops" and "Semantics"):
JavaScript assigns only when the operator does not short-circuit, and ``v`` runs only then.
On a name, the value is ``x || v`` (the same whether or not JavaScript assigns); on a member,
``o[k] ??= v`` sets the key only when ``o[k]`` is nullish (a missing member is: the read is a
test, SPEC 1.2 "Optional members"), so a key JavaScript does not create is not created. Used
by :mod:`.loopchanges` (a loop's accumulators) and :mod:`.members` (a block's objects)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import closing
from dialectic.frontends.plan.loopbuild import ref

if TYPE_CHECKING:
    from dialectic.frontends.plan.loopchanges import LoopChangesMixin
    from dialectic.frontends.plan.loopcheck import Body

__all__ = ["LOGICAL_SETS", "logical_member", "only_if"]

LOGICAL_SETS = frozenset(["||=", "&&=", "??="])


def only_if(op: str, current: Any, assigned: Any, unchanged: Any) -> Any:
    """``assigned`` when ``x op= v`` assigns (``current``: the read of ``x``), else
    ``unchanged``: ``||=`` when ``x`` is falsy, ``&&=`` when truthy, ``??=`` when nullish."""
    if op == "||=":
        return {"$if": [current, unchanged, assigned]}
    if op == "&&=":
        return {"$if": [current, assigned, unchanged]}
    return {"$if": [{"$op": ["==", current, None]}, assigned, unchanged]}


def logical_member(p: LoopChangesMixin, body: Body, reach: str | None, pos: int) -> bool:
    """``acc[k] ??= v``, ``acc.k ||= v``... at token ``pos`` in a loop's body: the entry
    ``[k, v]`` when JavaScript assigns, none otherwise (the key computed once, ``v`` only
    then); False when the statement is no such change."""
    kinds, values = p.kinds, p.values
    key: Any = None
    if kinds[pos + 1] == "." and kinds[pos + 2] == "name":
        at = pos + 3
        key = values[pos + 2]
        key_at = (pos + 2, pos + 2)
    elif kinds[pos + 1] == "[":
        close = closing(kinds, pos + 1)
        if kinds[close] == "eof":
            return False
        at = close + 1
        key_at = (pos + 2, close - 1)
    else:
        return False
    if not (kinds[at] == "op" and values[at] in LOGICAL_SETS):
        return False
    if key is None:  # computed once, as JavaScript does
        p.pos = pos + 2
        written = p._key(key_at[1] + 1)  # (all of it: `o[i++] ??= v` is refused at the `++`)
        body.use(written, *key_at)
        hidden = p.fresh("_key")
        body.lets[hidden] = p._when(reach, written, None, *key_at)
        p._put(body.lets, hidden, *key_at)
        key = ref(hidden)
    name = values[pos]
    current = {"$get": [ref(name), key]}
    p._put(current["$get"], 0, pos, pos)
    p._put(current, "$get", pos, at - 1)
    p.pos = at + 1
    value = p.expr(0)
    last = p.pos - 1
    pair = [key, value]
    p._put(pair, 0, *key_at)
    p._put(pair, 1, pos, last)
    entries = only_if(values[at], current, [pair], [])
    body.use(entries, pos, last)
    p._end("assignment")
    p._change(body, reach, name, pos, "entry", entries, pos)
    return True
