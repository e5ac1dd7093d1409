"""The loops that change their items' members (SPEC 10, "Loops": "Changing the loop's items"),
as models finish the records a call gave::

    const items = await getCart({id: 7});
    for (const item of items) { item.total = item.price * item.qty; }
    rows.forEach(r => { r.label = `${r.first} ${r.last}`; delete r.tmp; });
    for (let i = 0; i < xs.length; i++) { xs[i].rank = i + 1; }

Found on the tokens before parsing (this module), checked (:mod:`.itemcheck`) and written
(:mod:`.itemwrite`) as a loop that builds the changed items into the name again: JavaScript
changes the objects inside the array, so the array shows the new members. Each loop here is a
``for (const x of NAME)``, ``NAME.forEach(x => ...)`` or ``for (let i = 0; i < NAME.length;
i++)`` statement whose body sets a member of its item (``x.k = v``, ``x[k] += v``, ``x.k++``,
``x.k.push(v)``, ``delete x.k``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dialectic.frontends.plan.matrixloops import cells_only
from dialectic.frontends.plan.tokenscan import simple_end

__all__ = ["ItemLoop", "find_item_loops"]

#: the assignments a member set may use
SETS = frozenset(["=", "+=", "-=", "*=", "/=", "%=", "**=", "??=", "||=", "&&=",
                  "<<=", ">>=", ">>>=", "&=", "|=", "^="])  # fmt: skip


@dataclass
class ItemLoop:
    """One loop over ``array`` whose body (tokens ``first`` to ``end``, excluded) changes the
    members of its item ``var`` (a name; for the counting loop ``array[index]``)."""

    kind: str  # "of", "each" or "count"
    start: int  # the statement's first token
    stop: int  # the token after the statement
    var: str
    var_at: int
    array: str
    array_at: int
    first: int
    end: int
    braced: bool  # the body is a block (else one statement, or an arrow's expression)
    index: str | None = None  # the index's name (`forEach((x, i) => ...)`, the count)
    index_at: int = -1
    #: the body's item references: (first token, token after)
    refs: list[tuple[int, int]] = field(default_factory=list)


def changed_names(kinds: Sequence[str], values: Sequence[object]) -> set[str]:
    """The names a statement may set a member of (``x.k =``, ``x[k] +=``, ``delete x``,
    ``x.k.push(``, ``x[i].k =``): one pass, so that only their loops are read."""
    out: set[str] = set()
    n = len(kinds)
    for i in range(n - 3):
        if kinds[i] != "name":
            continue
        if values[i] == "delete" and kinds[i + 1] == "name":
            out.add(str(values[i + 1]))
        elif kinds[i + 1] in (".", "[") and (i == 0 or kinds[i - 1] != "."):
            out.add(str(values[i]))
    return out


def body_of(
    kinds: Sequence[str], partner: dict[int, int], at: int, values: Sequence[object] = ()
) -> tuple[int, int, bool] | None:
    """The body of a loop starting at token ``at``: (first, end, braced); with ``values``,
    a body without braces may be an ``if`` (with its ``else``) or a loop of its own."""
    if kinds[at] == "{":
        close = partner.get(at, -1)
        return None if close < 0 else (at + 1, close, True)
    end = _statement_end(kinds, values, partner, at) if values else _simple_end(kinds, partner, at)
    return None if end is None else (at, end, False)


#: the heads of a statement whose body follows their parenthesis
_HEADS = frozenset(["if", "for", "while"])


def _statement_end(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], at: int
) -> int | None:
    """The token after the statement at ``at`` (a block, one ending at `;`, or one under
    heads ``if (...)``, ``for (...)``, ``while (...)``, an ``if``'s ``else`` with it), or None.
    One walk: the ``if``s waiting for an ``else`` are counted, the innermost takes it."""
    ifs = 0
    j = at
    while True:
        if kinds[j] == "{":
            close = partner.get(j, -1)
            if close < 0:
                return None
            end = close + 1
        elif kinds[j] == "name" and values[j] in _HEADS and kinds[j + 1] == "(":
            close = partner.get(j + 1, -1)
            if close < 0:
                return None
            ifs += values[j] == "if"
            j = close + 1
            continue
        else:
            simple = _simple_end(kinds, partner, j)
            if simple is None:
                return None
            end = simple
        while ifs:  # (each `if` waiting, innermost first, takes an `else` or ends here)
            ifs -= 1
            if kinds[end] == "name" and values[end] == "else":
                j = end + 1
                break
        else:
            return end


def _simple_end(kinds: Sequence[str], partner: dict[int, int], at: int) -> int | None:
    """The token after the `;` ending the statement at ``at`` (no block of its own)."""
    semi = simple_end(kinds, partner, at)
    return None if semi < 0 else semi + 1


def _of_loop(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], i: int
) -> ItemLoop | None:
    """``for (const x of NAME) BODY`` at ``i``."""
    if not (
        kinds[i + 1] == "("
        and values[i + 2] in ("const", "let")
        and kinds[i + 3] == "name"
        and values[i + 4] == "of"
        and kinds[i + 5] == "name"
        and kinds[i + 6] == ")"
    ):
        return None
    body = body_of(kinds, partner, i + 7, values)
    if body is None:
        return None
    first, end, braced = body
    stop = end + 1 if braced else end
    return ItemLoop(
        "of", i, stop, str(values[i + 3]), i + 3, str(values[i + 5]), i + 5, first, end, braced
    )


def _count_loop(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], i: int
) -> ItemLoop | None:
    """``for (let i = 0; i < NAME.length; i++) BODY`` at ``i`` (also ``++i``, ``i += 1``)."""
    if i + 16 >= len(kinds) or kinds[i + 3] != "name" or kinds[i + 9] != "name":
        return None
    ix = values[i + 3]
    written = [(kinds[j], values[j]) for j in range(i + 4, i + 13)]
    if written != [
        ("=", "="), ("num", "0"), (";", ";"), ("name", ix), ("op", "<"),
        ("name", values[i + 9]), (".", "."), ("name", "length"), (";", ";"),
    ]:  # fmt: skip
        return None
    step = [values[j] for j in range(i + 13, i + 17)]
    if step[:3] in ([ix, "++", ")"], ["++", ix, ")"]):
        close = i + 15
    elif step == [ix, "+=", "1", ")"]:
        close = i + 16
    else:
        return None
    if kinds[close] != ")":
        return None
    body = body_of(kinds, partner, close + 1, values)
    if body is None:
        return None
    first, end, braced = body
    stop = end + 1 if braced else end
    array = str(values[i + 9])
    return ItemLoop(
        "count", i, stop, f"{array}[{ix}]", i + 3, array, i + 9, first, end, braced, str(ix),
        i + 3,
    )  # fmt: skip


def _each_loop(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], i: int
) -> ItemLoop | None:
    """``NAME.forEach(x => BODY);`` (also ``(x) =>``, ``(x, i) =>``) at ``i``."""
    if not (kinds[i + 1] == "." and values[i + 2] == "forEach" and kinds[i + 3] == "("):
        return None
    call_end = partner.get(i + 3, -1)
    if call_end < 0 or kinds[call_end + 1] not in (";", "}"):
        return None
    j = i + 4
    index: str | None = None
    index_at = -1
    if kinds[j] == "name" and values[j + 1] == "=>":
        var_at, arrow = j, j + 1
    elif kinds[j] == "(" and kinds[j + 1] == "name" and kinds[j + 2] == ")":
        var_at, arrow = j + 1, j + 3
    elif (
        kinds[j] == "("
        and kinds[j + 1] == "name"
        and kinds[j + 2] == ","
        and kinds[j + 3] == "name"
        and kinds[j + 4] == ")"
    ):
        var_at, arrow, index, index_at = j + 1, j + 5, str(values[j + 3]), j + 3
    else:
        return None
    if values[arrow] != "=>":
        return None
    if kinds[arrow + 1] == "{":
        close = partner.get(arrow + 1, -1)
        if close != call_end - 1:
            return None
        first, end, braced = arrow + 2, close, True
    else:
        first, end, braced = arrow + 1, call_end, False
    stop = call_end + 2 if kinds[call_end + 1] == ";" else call_end + 1
    return ItemLoop(
        "each", i, stop, str(values[var_at]), var_at, str(values[i]), i, first, end, braced,
        index, index_at,
    )  # fmt: skip


def find_item_loops(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int]
) -> list[ItemLoop]:
    """The loops whose item a statement of the body may change (their item references found
    on the way), in the text's order."""
    names = changed_names(kinds, values)
    if not names:
        return []
    out: list[ItemLoop] = []
    for i, kind in enumerate(kinds):
        if kind != "name":
            continue
        value = values[i]
        loop: ItemLoop | None = None
        if value == "for" and i + 7 < len(kinds):
            loop = _of_loop(kinds, values, partner, i)
            if loop is None and values[i + 2] == "let":
                loop = _count_loop(kinds, values, partner, i)
        elif value in names and kinds[i + 1] == "." and (i == 0 or kinds[i - 1] != "."):
            loop = _each_loop(kinds, values, partner, i)
        if loop is None:
            continue
        head = loop.array if loop.kind == "count" else loop.var
        if head not in names:
            continue
        _references(kinds, values, loop)
        if loop.kind == "count" and cells_only(kinds, values, partner, loop.refs):
            continue  # (`g[i][j] = v`: a cell of an array of rows, :mod:`.matrixloops`)
        if loop.refs:
            out.append(loop)
    return out


def _references(kinds: Sequence[str], values: Sequence[object], loop: ItemLoop) -> None:
    """Note the item's references in the body (a name not after `.`; for the count,
    ``NAME [ i ]``)."""
    if loop.kind == "count":
        for j in range(loop.first, loop.end - 3):
            if (
                kinds[j] == "name"
                and values[j] == loop.array
                and kinds[j + 1] == "["
                and values[j + 2] == loop.index
                and kinds[j + 3] == "]"
                and (j == 0 or kinds[j - 1] not in (".", "?."))
            ):
                loop.refs.append((j, j + 4))
        return
    for j in range(loop.first, loop.end):
        if kinds[j] != "name" or values[j] != loop.var or values[j - 1] in (".", "?."):
            continue
        if kinds[j + 1] == ":" and kinds[j - 1] in ("{", ","):
            continue  # (a key, `{item: 1}`: `a ? item : b` has `?` before)
        loop.refs.append((j, j + 1))
