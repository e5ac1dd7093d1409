"""A reorder in a ``try`` block that returns (SPEC 10, the ``try`` bullet)::

    try { const t = await get_x(); t.list.sort(); return t.list; } catch (e) { ... }

Such a block is the value ``%try(async () => {block}, ...)`` (:mod:`.trywrite`), which may not
change a name outside it: JavaScript keeps a change the block made before a statement that
throws, which the handler (or what follows) would see. A sort or a reverse of a value the block
itself declares is seen by nothing outside it, and it throws only as JavaScript's TypeError of a
receiver that is no array (``t.list.sort is not a function``), which the handler reads as
JavaScript's: it runs when its receiver is a name the block declares by itself (``const t =
...;``, before it) or a member of one (``t.list``), as a statement of its own, and ``sort`` takes
no comparator or one that cannot throw (an arrow of two parameters whose body is made of them,
numbers and operators: ``(a, b) => a - b``, ``(a, b) => a < b ? -1 : a > b ? 1 : 0``). Whether
the value is one nothing else holds is the block's own reading's (:mod:`.reorder`,
:mod:`.nestedchanges`)."""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.tryparts import Part

__all__ = ["local_reorder"]

#: what a comparator that cannot throw is made of, besides its parameters and numbers
_SAFE_KINDS = frozenset(["(", ")", ":", "-", "num"])
_SAFE_OPS = frozenset(
    ["-", "+", "*", "<", ">", "<=", ">=", "===", "!==", "==", "!=", "?", "||", "&&", "!"]
)


def local_reorder(
    kinds: Sequence[str],
    values: Sequence[object],
    match: dict[int, int],
    i: int,
    body: list[Part],
) -> bool:
    """Whether token ``i`` (a changing method's name) is the ``sort`` or ``reverse`` of a
    statement of the block ``body`` that reorders a value the block declares (the module's
    rule)."""
    if values[i] not in ("sort", "reverse") or kinds[i - 1] != "." or kinds[i + 1] != "(":
        return False
    at = next((n for n, p in enumerate(body) if p.first <= i < p.end), None)
    if at is None:
        return False
    part = body[at]
    root = part.first
    if kinds[root] != "name":
        return False
    j = root + 1
    while j < i - 1 and kinds[j] == "." and kinds[j + 1] == "name":
        j += 2  # (`t.list.sort()`: a chain of members, no computed key)
    close = match.get(i + 1, -1)
    if j != i - 1 or close < 0 or kinds[close + 1] not in (";", "}") or close + 1 < part.end - 1:
        return False
    if close != i + 2 and (
        values[i] != "sort" or not _safe_comparator(kinds, values, i + 2, close)
    ):
        return False
    name = values[root]
    return any(
        p.kind == "decl"
        and values[p.first] in ("const", "let")
        and kinds[p.first + 1] == "name"
        and values[p.first + 1] == name
        for p in body[:at]
    )


def _safe_comparator(kinds: Sequence[str], values: Sequence[object], first: int, end: int) -> bool:
    """Whether tokens ``[first, end)`` are ``(a, b) => ...`` whose body reads only ``a``,
    ``b``, numbers and operators (nothing in it can throw)."""
    if end - first < 7 or kinds[first] != "(" or kinds[first + 4] != ")":
        return False
    if kinds[first + 1] != "name" or kinds[first + 2] != "," or kinds[first + 3] != "name":
        return False
    if kinds[first + 5] != "op" or values[first + 5] != "=>":
        return False
    params = {values[first + 1], values[first + 3]}
    for k in range(first + 6, end):
        kind = kinds[k]
        if kind == "name":
            if values[k] not in params:
                return False
        elif kind == "op":
            if values[k] not in _SAFE_OPS:
                return False
        elif kind not in _SAFE_KINDS or (kind == "(" and kinds[k - 1] in ("name", ")")):
            return False  # (`a(b)`: a call)
    return True
