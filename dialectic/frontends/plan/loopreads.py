"""A ``for...of`` loop's reads, checked once its body is read (SPEC 10, "Loops"):
:func:`check_body` refuses a list that reads the loop's own names, a local read where
JavaScript's scopes do not make it visible, an accumulator read whole inside the loop or read
before the loop changes it (a value the loop replaces is read as the value before), each at
the first reference :func:`name_at` finds. Moved out of :mod:`.loopcheck`, which keeps the
:class:`~dialectic.frontends.plan.loopcheck.Body` being checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.loopbuild import free_names
from dialectic.frontends.plan.loopcheck import Body
from dialectic.frontends.plan.loopstart import SHARED_FAMILIES, WHOLE_HINT
from dialectic.frontends.plan.matrixloops import row_by_index
from dialectic.frontends.plan.tokenscan import counting_loop

if TYPE_CHECKING:
    from dialectic.frontends.plan.base import ParserBase
    from dialectic.frontends.plan.loops import LoopsMixin


def name_at(p: ParserBase, name: str, first: int, last: int) -> int:
    """The offset of the first reference to ``name`` between tokens ``first`` and ``last``."""
    kinds, values = p.kinds, p.values
    for i in range(first, last + 1):
        if kinds[i] == "name" and values[i] == name and (i == 0 or kinds[i - 1] != "."):
            return p.starts[i]
    return p.starts[first]


#: the assignments and steps that change a name
_CHANGES = frozenset(
    ["=", "+=", "-=", "*=", "/=", "%=", "**=", "??=", "||=", "&&=", "<<=", ">>=", ">>>=", "&=",
     "|=", "^=", "++", "--"]
)  # fmt: skip


def items_by_index(p: ParserBase, span: tuple[int, int]) -> str | None:
    """``NAME`` when the loop whose list starts at token ``span[0]`` is ``for (let I = 0; I <
    NAME.length; I++)`` (``++I``, ``I += 1``) and its body, read up to ``p.pos``, reads
    ``NAME`` only as ``NAME[I]`` (set or read) and ``NAME.length``, never changing ``I``: the
    loop's sets are of items below the length, which stays the length the list read once
    (JavaScript reads it before each item). None otherwise."""
    kinds, values, s = p.kinds, p.values, span[0]
    loop = counting_loop(kinds, values, s, 3)
    bound = [(kinds[j], values[j]) for j in range(s + 4, s + 7)] if loop is not None else []
    if loop is None or bound != [("name", values[s + 4]), (".", "."), ("name", "length")]:
        return None
    (index, close), name = loop, values[s + 4]
    for j in range(close + 1, p.pos):
        if kinds[j] != "name" or (j > 0 and kinds[j - 1] == "."):
            continue
        if values[j] == index:
            if (
                values[j - 1] in ("++", "--")
                or (kinds[j + 1] in ("=", "op") and values[j + 1] in _CHANGES)
                or _declares(kinds, values, j)
            ):
                return None
        elif values[j] == name:
            by_index = kinds[j + 1] == "[" and values[j + 2] == index and kinds[j + 3] == "]"
            length = kinds[j + 1] == "." and values[j + 2] == "length"
            if not (by_index or length) or values[j - 1] == "delete":
                return None
            if length and kinds[j + 3] in ("=", "op") and values[j + 3] in _CHANGES:
                return None
    return str(name)


def _declares(kinds: Sequence[str], values: Sequence[object], j: int) -> bool:
    """Whether the name at token ``j`` may be declared there (another variable of the same
    name: ``const i``, ``let [i]``, ``(x, i) =>``, ``catch (i)``, ``for (const i of ...)``)."""
    k = j - 1
    while k > 0 and (kinds[k] in ("name", ",", "[", "{", ":") and values[k] not in _WORDS):
        k -= 1  # (back over a pattern's names)
    if values[k] in _WORDS:
        return True
    k = j + 1
    while kinds[k] in ("name", ","):
        k += 1  # (on over a parameter list)
    return values[k] == "=>" or (kinds[k] == ")" and values[k + 1] == "=>")


#: the words that declare a name
_WORDS = frozenset(["const", "let", "var", "function", "catch"])


def check_body(p: LoopsMixin, body: Body, iterable: Any, span: tuple[int, int]) -> None:
    """The whole loop read: no accumulator read in it or before it in its block, every local
    read where JavaScript's scopes make it visible, the list not reading the loop's names."""
    accs = body.accs
    for name in free_names(iterable):
        if name in accs and body.parent is None and name == items_by_index(p, span):
            continue  # (`for (let i = 0; i < xs.length; i++) xs[i] = ...`: the same length)
        if name in accs and name == row_by_index(p, span):
            continue  # (`for (let j = 0; j < g[i].length; j++) g[i][j] = ...`: the same)
        if name in accs or name in body.item_names:
            counted = (  # (`for (let i = 0; i < xs.length; i++)`: the span is the `0`)
                span[0] >= 5 and p.values[span[0] - 5] == "for" and p.kinds[span[0] - 1] == "="
            )
            raise p.fail(
                f"the loop's {'bound' if counted else 'list'} reads `{name}`, which the loop "
                + ("changes" if name in accs else "declares"),
                name_at(p, name, span[0], p.brackets().closes[span[0] - 4] if counted else span[1]),
                f"read what the test needs before the loop (`const n = {name}.length;` when the "
                "loop keeps the length) and test against it: i < n - 1"
                if counted
                else "loop over another list, or collect into a new accumulator",
            )
    for name in accs:
        if name in body.declared:
            raise p.fail(
                f"`{name}` is changed in the loop and declared in it",
                p.starts[body.declared[name][2]],
                "give the local another name",
            )
    for names, scopes, seq, first, last in body.uses:
        for name in names:
            if name in accs:
                body.fold = True
            found = body.declared.get(name)
            if found is not None and not (found[0] in scopes and found[1] <= seq):
                line = p.index.where(p.starts[found[2]])
                name = body.original.get(name, name)
                raise p.fail(
                    f"`{name}` is read where it is not defined (it is declared at {line})",
                    name_at(p, name, first, last),
                    "read a local after its declaration and inside its block",
                )
    for whole, first, last in body.whole:
        for name in whole:
            family = body.acc_kind.get(name)
            if family in ("push", "entry", "collection"):
                raise p.fail(
                    f"the loop reads `{name}` whole, which it changes: in JavaScript that is "
                    "the same "
                    + {"push": "array", "entry": "object"}.get(family, "Map or Set")
                    + ", changed later by the loop",
                    name_at(p, name, first, last),
                    WHOLE_HINT[family].format(name),
                )
    if body.parent is not None:  # the enclosing loop checks its block's reads
        return
    read_at = body.state.reads(body.aliases)
    for name in accs:
        idx = read_at.get(name)
        if idx is not None and (
            body.acc_kind.get(name) not in SHARED_FAMILIES
            or not body.state.held(body.aliases, name)
        ):
            # a value the loop replaces (`t += x`), or an array or object read before it only
            # through its members (`out.length`): such a read is of the value before
            # (:meth:`LoopEmitMixin._emit` points it at the hidden definition)
            body.old_reads.add(name)
        elif idx is not None:
            entry = body.alias_rec[idx]
            raise p.fail(
                f"`{name}` is read before the loop changes it",
                name_at(p, name, entry[2], entry[4]),
                f"read `{name}` only after the loop (in JavaScript a read before it may see "
                "the changes)",
            )
