"""``unshift`` on an array the program made (SPEC 10, "Stacks and queues"), read before
parsing, on the tokens (as :mod:`.worklist` reads ``pop`` and ``shift``)::

    const recent = [];
    for (const e of events) { recent.unshift(e.id); }
    return recent;

JavaScript puts the items at the front of the array itself. Copying the array at each
``unshift`` would make a loop of them quadratic, so the items go to a hidden array instead, one
chunk per statement: ``W.unshift(a, b);`` is ``_frontN.push([a, b]);`` (a ``push``, linear in
loops, :mod:`.loopchanges`), ``const W = [...];`` is ``const _restN = [...]; const _frontN =
[];``, and after the statement holding the last ``unshift`` (a loop, an ``if``, or the
``unshift`` itself) the array is made once: ``const W = [..._frontN.toReversed().flat(),
..._restN];`` (the last chunk first, each chunk's items in their order, as JavaScript's
``unshift(a, b)`` puts ``a`` before ``b``).

Only where that is JavaScript's answer: ``W`` is defined once, as ``const W = [...];`` (a new
array), the ``unshift`` statements are statements of the program's blocks (not a function's
body) whose arguments do not read ``W``, and
``W`` is not read before the last one's statement ends. Anything else leaves the program as
written, which the resolver refuses ("unshift() changes the array in place").
"""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import holding_statement_end, starts_statement
from dialectic.frontends.plan.worklist import _Edit, _Worklist, per_array

__all__ = ["unshifts"]

_UNSHIFT = frozenset(["unshift"])


def unshifts(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each array's ``unshift`` statements written as above (None: none)."""
    if ".unshift(" not in source:
        return None
    return per_array(source, tokens, _UNSHIFT, _plan)


def _statement(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], u: int
) -> int:
    """The ``)`` of the statement ``W.unshift(...);`` at token ``u`` (-1: no such statement)."""
    if not (
        kinds[u + 1] == "."
        and values[u + 2] == "unshift"
        and kinds[u + 3] == "("
        and starts_statement(kinds, values, partner, u)
    ):
        return -1
    close = partner.get(u + 3, -1)
    if close < 0 or kinds[close + 1] != ";":
        return -1
    return close


def _plan(reader: _Worklist, uses: list[int]) -> list[_Edit] | None:
    """The edits for the array ``reader.name``; None: a use that is not one of the above."""
    kinds, values, partner, name = reader.kinds, reader.values, reader.partner, reader.name
    uses = [u for u in uses if kinds[u - 1] != "."]  # (not `o.name`: a member)
    if not uses:  # (`g.a.unshift(1)`: only a member of that name)
        return None
    decl = uses[0]
    if not (
        values[decl - 1] == "const"
        and kinds[decl - 1] == "name"
        and reader._statement_start(decl - 1)
        and kinds[decl + 1] == "="
        and kinds[decl + 2] == "["
    ):
        return None
    init_end = partner.get(decl + 2, -1)
    if init_end < 0 or kinds[init_end + 1] != ";":
        return None
    calls = [(u, _statement(kinds, values, partner, u)) for u in uses[1:]]
    changes = [(u, close) for u, close in calls if close >= 0 and u > init_end]
    if not changes:
        return None
    last = changes[-1][1]
    end = holding_statement_end(kinds, values, decl, last)
    if end < 0 or (kinds[end] == "}" and partner.get(end, -1) < decl):
        return None  # (the last `unshift` is outside the block defining the array)
    inside = {u for u, _ in changes}
    for u, close in changes:
        if not reader._outside_functions(u) or any(
            kinds[j] == "name" and values[j] == name for j in range(u + 4, close)
        ):
            return None
    if any(u not in inside and u <= end for u in uses[1:]):
        return None  # (a read before the array is made: it would not see the items)
    front, rest = reader._fresh("_front"), reader._fresh("_rest")
    edits: list[_Edit] = [
        (decl, decl + 1, rest, decl),
        (init_end + 2, init_end + 2, f"const {front} = [];", init_end + 1),
    ]
    for u, close in changes:
        edits.append((u, u + 4, f"{front}.push([", u))
        edits.append((close, close + 1, "])", close))
    made = f"const {name} = [...{front}.toReversed().flat(), ...{rest}];"
    edits.append((end + 1, end + 1, made, end))
    return edits
