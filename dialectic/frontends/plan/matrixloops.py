"""A cell of an array of rows set in a loop's body (SPEC 10, "Loops"), as models fill tables
and dynamic programs: ``g[i][j] = v;`` (also ``+=`` and the other compound assignments,
``??=``, ``||=``, ``&&=``, ``g[i][j]++;``, ``g[i][j]--;``) and ``rows[i].push(x, ...);``, on
an array the program made before the loop.

JavaScript changes the row itself. Here the statement is the item set ``g[I] = NEW`` of the
array's family (:mod:`.arrayloops`): ``NEW`` is ``g[I].[]=(J, V)`` (the runtime's copy with
the item set, :mod:`dialectic.values.arraysets`: an index past the end or that is no item's is
refused where it runs, as a row that is no array is) or, for a push, ``g[I].toSpliced(
g[I].length, 0, x, ...)``; ``I`` and ``J`` are computed once, as JavaScript does. The fold
changes the array in place (:mod:`dialectic.resolve.foldstate`) and the row too
(:mod:`dialectic.resolve.matrixinner`: a row the fold's own set made is changed, any other
copied once), so a 300 by 300 table costs per cell what a 30 by 30 one does.

That is JavaScript's answer only when no row is held anywhere else, so the statement is read
so only when the array's value is made of parts the program wrote here, each its own
(:func:`.nestedchanges.deep_fresh`: literals, ``Array.from({length: n}, () => [...])``; not
``Array(n).fill(row)``, whose items are one row), and when, from the program's start to the
end of the statement (in the block defining the array) holding its last such change, the
array is read only as ``g.length``, ``g[i][j]``, ``g[i].length`` or ``g[i].m(...)`` of a
method that does not change the row (:func:`whole_reads`): ``const row = g[i];``, ``f(g)``,
``for (const row of g)`` or ``g.map(...)`` there would hold a row the loop goes on changing.
Anything else is refused at its place, with what to write."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.arrayloops import array_accumulator
from dialectic.frontends.plan.base import closing
from dialectic.frontends.plan.copyhint import copy_hint
from dialectic.frontends.plan.functionscope import own_calls
from dialectic.frontends.plan.logicalset import LOGICAL_SETS, only_if
from dialectic.frontends.plan.loopscope import resolve
from dialectic.frontends.plan.nestedchanges import deep_fresh
from dialectic.frontends.plan.tokenscan import (
    counting_loop,
    holding_statement_end,
    partners,
    starts_statement,
)

if TYPE_CHECKING:
    from dialectic.frontends.plan.base import ParserBase
    from dialectic.frontends.plan.loopchanges import LoopChangesMixin
    from dialectic.frontends.plan.loopcheck import Body

__all__ = ["cell_change", "cells_only", "matrix_change", "row_by_index", "whole_reads"]

#: the compound assignments and their operators
_COMPOUND = {
    f"{op}=": op for op in ("+", "-", "*", "/", "%", "**", "|", "&", "^", "<<", ">>", ">>>")
}
_STEPS = frozenset(["++", "--"])
#: the methods that change an array in place (a row read so is changed elsewhere)
_MUTATING = frozenset(
    {"push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin"}
)
#: the assignments (a cell set inside an expression is no statement here)
_ASSIGNING = frozenset([*_COMPOUND, *LOGICAL_SETS, "++", "--"])
#: the names one program may change so (each costs a pass over the tokens: bounded)
_MOST_NAMES = 32


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": name}


def matrix_change(p: LoopChangesMixin, body: Body, reach: str | None, pos: int) -> bool:
    """``g[I][J] op= V;``, ``g[I][J]++;`` or ``g[I].push(A, ...);`` at token ``pos`` of a
    loop's body, ``g`` an array the program made: the item set ``g[I] = NEW`` (the module's
    reading); False when the statement is no such change."""
    kinds, values = p.kinds, p.values
    name = str(values[pos])
    close = closing(kinds, pos + 1)
    if kinds[close] == "eof":
        return False
    push = (
        kinds[close + 1] == "."
        and values[close + 2] == "push"
        and kinds[close + 2] == "name"
        and kinds[close + 3] == "("
    )
    op: Any = None
    inner = -1
    if not push:
        if kinds[close + 1] != "[":
            return False
        inner = closing(kinds, close + 1)
        if kinds[inner] == "eof":
            return False
        op = values[inner + 1]
        if not (kinds[inner + 1] == "=" or (kinds[inner + 1] == "op" and op in _ASSIGNING)):
            return False
        if kinds[inner + 1] == "=":
            op = "="
    if not array_accumulator(body, resolve(body, name)):
        return False
    _check_rows(p, body, name, pos)
    row_key = _key(p, body, reach, pos + 2, close - 1)
    row = {"$get": [_ref(name), row_key]}
    p._put(row["$get"], 0, pos, pos)
    p._put(row, "$get", pos, close)
    if push:
        p.pos = close + 4
        args: list[Any] = []
        p.arguments(args, 0)
        last = p.pos - 1
        length = {"$get": [_ref(name), row_key, "length"]}
        p._put(length["$get"], 0, pos, pos)
        p._put(length, "$get", pos, close)
        new: Any = {"$method": [row, "toSpliced", length, 0, *args]}
        p._put(new, "$method", pos, last)
        key_at = (pos + 2, close - 1)
        return p._set_entry(body, reach, pos, [row_key, new], key_at, (pos, last), pos)
    cell_key = _key(p, body, reach, close + 2, inner - 1)
    cell = {"$get": [_ref(name), row_key, cell_key]}  # (one read of a cell: in place)
    p._put(cell["$get"], 0, pos, pos)
    p._put(cell, "$get", pos, inner)
    p.pos = inner + 2
    if op in _STEPS:  # JavaScript's x++: ToNumeric(x) + 1
        value: Any = {"$op": [op[0], {"$op": ["+", cell]}, 1]}
        first = pos
    else:
        first = p.pos
        value = p.expr(0)
        if op in _COMPOUND:
            value = {"$op": [_COMPOUND[op], cell, value]}
        elif op in LOGICAL_SETS:  # (set to itself when JavaScript does not assign: the same)
            value = only_if(op, cell, value, cell)
    last = p.pos - 1
    if type(value) is dict and "$op" in value:
        p._put(value, "$op", first, last)
    new = {"$method": [row, "[]=", cell_key, value]}
    p._put(new, "$method", pos, last)
    return p._set_entry(body, reach, pos, [row_key, new], (pos + 2, close - 1), (first, last), pos)


def _key(p: LoopChangesMixin, body: Body, reach: str | None, first: int, last: int) -> Any:
    """The key written from token ``first`` to ``last``, computed once (a hidden name)."""
    p.pos = first
    written = p.expr(0)
    if p.pos != last + 1:
        raise p.unexpected(p.tok(p.pos), "`]`")
    body.use(written, first, last)
    if type(written) in (int, str):
        return written
    hidden = p.fresh("_key")
    body.lets[hidden] = p._when(reach, written, None, first, last)
    p._put(body.lets, hidden, first, last)
    return _ref(hidden)


def _check_rows(p: LoopChangesMixin, body: Body, name: str, pos: int) -> None:
    """Refuse the change at token ``pos`` unless no row of ``name`` is held elsewhere: its
    value made of parts the program wrote here, each its own, and read, up to the end of the
    statement holding its last such change, only as :func:`whole_reads` allows."""
    shown = f"`{name}[...][...]`"
    b: Body | None = body
    while b is not None and b.parent is not None:
        b = b.parent
    aliases = b.aliases if b is not None else {}
    tree = aliases.get(name)
    if p.function_names() or tree is None:
        raise p.fail(
            f"{shown} changes a row of `{name}` in a loop, and `{name}` is not an array of "
            "rows this block made"
            + (
                " (the program defines functions, which may hold a row)"
                if p.function_names()
                else ""
            ),
            p.starts[pos],
            f"build the rows first, then the array: const {name} = rows.map((row, i) => ...);",
        )
    versions = getattr(p, "_hidden_versions", None) or set()
    if not deep_fresh(tree, aliases, versions, True, own_calls(p), 1):  # (a row changes)
        raise p.fail(
            f"{shown} changes a row of `{name}` in a loop, and a row may be held elsewhere too "
            f"(`{name}` is not made of rows the program wrote here, each its own: "
            f"`Array(n).fill(row)` holds one row n times, a name's value is held by the name, "
            "data the run was given is held by the run, and so is a callback's row that is not "
            "a new array, `xs.map(p => p.tags)` (`xs.map(r => [...r])` makes new ones); "
            "JavaScript would change the row everywhere it is held)",
            p.starts[pos],
            f"make each row new: {copy_hint(p, name, pos)} for data the run was given, or "
            f"const {name} = Array.from({{length: n}}, () => Array(m).fill(0)); for a new grid",
        )
    kept: tuple[Any, dict[str, tuple[int, str] | None]] | None = getattr(p, "_matrix_reads", None)
    if kept is None or kept[0] is not p.kinds:
        kept = (p.kinds, {})
        setattr(p, "_matrix_reads", kept)  # noqa: B010 (one cache per token list)
    cache = kept[1]
    if name not in cache:
        if len(cache) >= _MOST_NAMES:
            raise p.fail(f"more than {_MOST_NAMES} arrays of rows changed in loops", p.starts[pos])
        cache[name] = whole_reads(p.kinds, p.values, name, _partner_map(p))
    found = cache[name]
    if found is not None:
        at, why = found
        raise p.fail(
            f"{shown} changes a row of `{name}` in a loop, and {why}",
            p.starts[at],
            f"read a cell, `{name}[i][j]`, or a row's length in the loop, and the rows after it "
            f"(or copy one: `[...{name}[i]]`)",
        )


def _partner_map(p: ParserBase) -> dict[int, int]:
    """Each bracket's partner, both ways, once per token list."""
    kinds = p.kinds
    found: tuple[Any, dict[int, int]] | None = getattr(p, "_matrix_partners", None)
    if found is None or found[0] is not kinds:
        found = (kinds, partners(kinds))
        setattr(p, "_matrix_partners", found)  # noqa: B010 (one map per token list)
    return found[1]


def whole_reads(
    kinds: Any, values: Any, name: str, partner: dict[int, int]
) -> tuple[int, str] | None:
    """The first use of ``name``, up to the end of the statement (in the block defining it)
    holding its last cell change, that may hold a row or the array (the token and the
    reason), else None: allowed are ``name.length``, ``name[i][j]`` (not set inside an
    expression), ``name[i].length``, ``name[i].m(...)`` of a method that does not change the
    row, the cell changes and pushes as statements, and the definition. One pass."""
    uses = [j for j, k in enumerate(kinds) if k == "name" and values[j] == name]
    changes = [j for j in uses if cell_change(kinds, values, partner, j)]
    decl = next((j for j in uses if j > 0 and values[j - 1] in ("const", "let", "var")), -1)
    if decl < 0 or not changes:
        return None
    end = holding_statement_end(kinds, values, decl, changes[-1])
    if end < 0:
        return changes[-1], f"`{name}` is changed outside the block that defines it"
    for j in uses:
        if j == decl or j in changes:
            continue
        if j > end:
            break
        why = _use(kinds, values, partner, j, name)
        if why is not None:
            return j, why
    return None


def cell_change(kinds: Any, values: Any, partner: dict[int, int], j: int) -> bool:
    """Whether token ``j`` starts a statement ``g[I][J] op= V`` or ``g[I].push(...)``."""
    if kinds[j + 1] != "[" or not starts_statement(kinds, values, partner, j):
        return False
    close = partner.get(j + 1, -1)
    if close < 0:
        return False
    if kinds[close + 1] == "." and values[close + 2] == "push" and kinds[close + 3] == "(":
        return True
    if kinds[close + 1] != "[":
        return False
    inner = partner.get(close + 1, -1)
    if inner < 0:
        return False
    return kinds[inner + 1] == "=" or (kinds[inner + 1] == "op" and values[inner + 1] in _ASSIGNING)


def _use(kinds: Any, values: Any, partner: dict[int, int], j: int, name: str) -> str | None:
    """None when the use of the array at token ``j`` holds no row, else the reason."""
    if kinds[j - 1] == "." or (kinds[j + 1] == ":" and kinds[j - 1] in ("{", ",")):
        return None  # (a member or a key of that name: not the array)
    if kinds[j + 1] == "." and values[j + 2] == "length" and kinds[j + 3] != "=":
        return None
    whole = f"`{name}` is read whole here (JavaScript would share its rows)"
    if kinds[j + 1] != "[":
        return whole
    close = partner.get(j + 1, -1)
    if close < 0:
        return whole
    after = close + 1
    row = f"the row `{name}[...]` is read whole here (JavaScript would share it)"
    if kinds[after] == ".":
        method = values[after + 1]
        if method == "length" and kinds[after + 2] != "=":
            return None
        if kinds[after + 2] == "(" and method not in _MUTATING:
            return None
        return row
    if kinds[after] != "[":
        return row
    inner = partner.get(after, -1)
    if inner < 0:
        return row
    nxt = inner + 1
    if kinds[nxt] == "=" or (kinds[nxt] == "op" and values[nxt] in _ASSIGNING):
        return f"a cell of `{name}` is set inside an expression: make it a statement"
    if kinds[nxt] == "." and values[nxt + 1] in _MUTATING:
        return f"a cell of `{name}` is changed in place here"
    return None


def cells_only(
    kinds: Any, values: Any, partner: dict[int, int], refs: list[tuple[int, int]]
) -> bool:
    """Whether the references ``NAME[i]`` (first token, token after) of a counting loop's
    item are cells, ``NAME[i][j]``, or its length, at least one cell set by a statement (the
    item loops of :mod:`.itemloops` leave such a loop to this module's reading)."""
    sets = 0
    for j, after in refs:
        if kinds[after] == "." and values[after + 1] == "length" and kinds[after + 2] != "=":
            continue  # (`g[i].length`, as the inner loop's test reads it)
        if kinds[after] != "[":
            return False
        if cell_change(kinds, values, partner, j):
            sets += 1
            continue
        inner = partner.get(after, -1)
        nxt = inner + 1
        if inner < 0 or kinds[nxt] == "=" or (kinds[nxt] == "op" and values[nxt] in _ASSIGNING):
            return False
    return sets > 0


#: the tokens that change a name
_CHANGING = frozenset([*_ASSIGNING, "="])


def row_by_index(p: ParserBase, span: tuple[int, int]) -> str | None:
    """``NAME`` when the loop whose list starts at token ``span[0]`` is ``for (let J = 0; J <
    NAME[I].length; J++)`` (``++J``, ``J += 1``; ``I`` a name) and its body, read up to
    ``p.pos``, changes ``NAME`` only by cell sets ``NAME[...][J] op= v;`` (no push), never
    changing ``I`` nor ``J``: each set is of a cell below the row's length (a row of another
    key is another array), so the row ``NAME[I]`` keeps the length the list read once
    (JavaScript reads it before each item). None otherwise."""
    kinds, values, s = p.kinds, p.values, span[0]
    loop = counting_loop(kinds, values, s, 6)
    bound = [(kinds[j], values[j]) for j in range(s + 4, s + 10)] if loop is not None else []
    if loop is None or bound != [
        ("name", values[s + 4]), ("[", "["), ("name", values[s + 6]), ("]", "]"), (".", "."),
        ("name", "length"),
    ]:  # fmt: skip
        return None
    (index, close), name, row = loop, values[s + 4], values[s + 6]
    partner = _partner_map(p)
    for j in range(close + 1, p.pos):
        if kinds[j] != "name" or kinds[j - 1] == ".":
            continue
        if values[j] in (index, row):
            changed = kinds[j + 1] in ("=", "op") and values[j + 1] in _CHANGING
            if changed or values[j - 1] in ("++", "--", "let", "const", "var"):
                return None
        elif values[j] == name and cell_change(p.kinds, p.values, partner, j):
            inner = partner.get(j + 1, -1) + 1
            if kinds[inner] != "[" or values[inner + 1] != index or kinds[inner + 2] != "]":
                return None
    return str(name)
