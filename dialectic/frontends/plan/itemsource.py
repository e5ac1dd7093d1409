"""Where the array of a loop that changes its items comes from (:mod:`.itemloops`): a name the
loop's own block defines, ``const NAME = INIT;`` (or ``let``), whose items nothing else can
hold. JavaScript changes the objects themselves, so any other name holding one of them would
show the change; dialectic builds new objects, so it reads the loop only where no other name
can: ``INIT`` makes new objects, each once (a call's result, JSON; an array literal of object
literals; ``xs.map(x => ({...}))``), and from ``INIT`` to the loop the name is read only as
``NAME.length``, and never before its definition."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from dialectic.frontends.plan.itemcheck import MUTATORS, ItemRefusal
from dialectic.frontends.plan.itemloops import SETS, ItemLoop, body_of
from dialectic.frontends.plan.tokenscan import simple_end

__all__ = ["Source", "find_source"]

#: the globals a call of which is no tool's (its value may hold other values' objects)
_GLOBALS = frozenset(
    ["parseInt", "parseFloat", "structuredClone", "encodeURIComponent", "decodeURIComponent",
     "encodeURI", "decodeURI", "isNaN", "isFinite", "atob", "btoa", "require", "eval",
     "fetch", "setTimeout", "queueMicrotask", "globalThis", "console"]
)  # fmt: skip
_LITERAL_WORDS = frozenset(["true", "false", "null", "undefined"])
_CHANGES = SETS | {"++", "--"}


@dataclass
class Source:
    """The definition: ``decl`` its `const`/`let`, ``init`` its first token, ``semi`` its `;`;
    ``deep``: the items' members are new too (a call's JSON, literals only); ``lengths``: the
    reads between it and the loop (``NAME.length``, ``for (const V of NAME)`` reading ``V``'s
    members), which read the array before the loop."""

    decl: int
    init: int
    semi: int
    deep: bool
    lengths: list[int]


def in_functions(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int]
) -> list[int]:
    """Per token, how many ``function`` bodies hold it (one pass; empty: no ``function``)."""
    if "function" not in values:
        return []
    diff = [0] * (len(kinds) + 1)
    for i, value in enumerate(values):
        if value != "function" or kinds[i] != "name":
            continue
        j = i + 1
        while j < len(kinds) and kinds[j] not in ("(", "eof"):
            j += 1
        close = partner.get(j, -1)
        if close < 0 or kinds[close + 1] != "{":
            continue
        diff[close + 1] += 1
        diff[partner.get(close + 1, len(kinds) - 1)] -= 1
    depth, out = 0, []
    for d in diff[:-1]:
        depth += d
        out.append(depth)
    return out


def find_source(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    encl: list[int],
    where: dict[str, list[int]],
    loop: ItemLoop,
    functions: list[int],
    arrays: bool = False,
) -> Source:
    """The definition of ``loop.array``, checked, or :class:`ItemRefusal`. ``functions``: per
    token, how many ``function`` bodies hold it (:func:`in_functions`); ``arrays``: the body
    only reorders its item, so an array literal's items may be array literals."""
    name = loop.array
    uses = where.get(name, [])
    before = bisect_left(uses, loop.start)
    decl = -1
    for u in reversed(uses[:before]):
        if values[u - 1] in ("const", "let") and kinds[u + 1] == "=":
            decl = u - 1
            break
    if decl < 0 or encl[decl] != encl[loop.start]:
        raise ItemRefusal(
            f"`{name}` is not an array this block defines with `const` or `let` (JavaScript "
            "would change the objects inside it, which other values may hold)",
            loop.array_at,
        )
    if decl > 0 and kinds[decl - 1] not in (";", "{", "}"):
        raise ItemRefusal(f"`{name}` is defined inside another statement", decl)
    semi = simple_end(kinds, partner, decl + 3)
    if semi < 0 or semi > loop.start:
        raise ItemRefusal(f"`{name}`'s definition does not end with `;`", decl)
    for u in uses:
        if u >= loop.stop and functions and functions[u] > functions[decl]:
            raise ItemRefusal(
                f"a function reads `{name}` (it may run before the loop that changes its "
                "items, or after: JavaScript's reader sees the objects the loop changes)",
                u,
                "pass the array to the function as an argument",
            )
        if u == decl + 1 or u >= loop.start:
            continue
        if values[u - 1] in (".", "?.") or (kinds[u + 1] == ":" and kinds[u - 1] in ("{", ",")):
            continue  # (a member's or a key's name)
        if u < decl:
            raise ItemRefusal(
                f"`{name}` is read before its definition (a function may read it later): "
                "JavaScript's reader would see the loop's changes",
                u,
            )
    lengths = []
    for u in uses[bisect_left(uses, semi) : before]:
        if values[u - 1] in (".", "?.") or (kinds[u + 1] == ":" and kinds[u - 1] in ("{", ",")):
            continue
        if kinds[u + 1] == "." and values[u + 2] == "length" and kinds[u + 3] != "=":
            lengths.append(u)
            continue
        if encl[u - 5] == encl[decl] and _read_by_loop(kinds, values, partner, u):
            lengths.append(u)  # (read as the array before the loop, as `NAME.length` is)
            continue
        raise ItemRefusal(
            f"`{name}` is read before the loop that changes its items: JavaScript's reader "
            "would hold the objects the loop changes",
            u,
            f"read it after the loop, or build a new array: const {name}2 = {name}.map(x => "
            "({...x, k: v}));",
        )
    deep = _fresh(kinds, values, partner, where, decl + 3, semi, arrays)
    return Source(decl, decl + 3, semi, deep, lengths)


def _read_by_loop(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], u: int
) -> bool:
    """Whether the name at ``u`` is the array of ``for (const V of NAME) BODY`` (a statement of
    the block defining it, so run before the loop that changes the items) whose body
    reads ``V`` only through members (``V.price``, ``V[k]``), changing none and holding none
    (the running total before the loop that changes the items)."""
    if not (
        values[u - 1] == "of"
        and kinds[u - 2] == "name"
        and values[u - 3] in ("const", "let")
        and kinds[u - 4] == "("
        and values[u - 5] == "for"
        and kinds[u + 1] == ")"
    ):
        return False
    body = body_of(kinds, partner, u + 2, values)
    if body is None:
        return False
    var = values[u - 2]
    first, end, _ = body
    for j in range(first, end):
        if kinds[j] != "name" or values[j] != var or values[j - 1] in (".", "?."):
            continue
        if kinds[j + 1] == ":" and kinds[j - 1] in ("{", ","):
            continue  # (a key)
        if kinds[j - 1] in ("op", "name") and values[j - 1] in ("++", "--", "delete"):
            return False
        m = j + 1
        if kinds[m] not in (".", "[", "?."):
            return False  # (held whole: it could be kept and changed later)
        last: object = None
        while kinds[m] in (".", "?.", "["):
            if kinds[m] == "[":
                m = partner.get(m, -1) + 1
                if m <= 0:
                    return False
            else:
                last, m = values[m + 1], m + 2
        if kinds[m] == "=" or (kinds[m] == "op" and values[m] in _CHANGES):
            return False  # (a change)
        if kinds[m] == "(" and last in MUTATORS:
            return False  # (`V.tags.push(x)`: a change of an array inside)
    return True


def _fresh(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    where: dict[str, list[int]],
    first: int,
    semi: int,
    arrays: bool,
) -> bool:
    """Whether the definition's value makes new objects, each once: True when their members
    are new too, False when only the items are; else :class:`ItemRefusal`."""
    j = first + 1 if values[first] == "await" else first
    if kinds[j] == "[" and partner.get(j) == semi - 1:
        return _literal(kinds, values, partner, j, semi - 1, arrays)
    if kinds[j] == "name" and kinds[semi - 1] == ")":
        call = partner.get(semi - 1, -1)
        if (
            kinds[call - 1] == "name"
            and values[call - 1] == "map"
            and kinds[call - 2] == "."
            and _object_arrow(kinds, values, partner, call, semi - 1)
        ):
            return False
        head = str(values[j])
        k = j + 1
        while kinds[k] == "." and kinds[k + 1] == "name":
            k += 2
        if k == call and _tool(head, values, where):
            return True
    raise ItemRefusal(
        "the array's items may be objects other values hold (JavaScript would change them "
        "there too): Plan changes the items of a tool's result, of an array literal of "
        "object literals, or of `xs.map(x => ({...}))`",
        first,
    )


def _tool(head: str, values: Sequence[object], where: dict[str, list[int]]) -> bool:
    """Whether ``head`` names a tool (or a tools' namespace): no global, nothing the program
    defines (every use of the name is a call's or a member's head)."""
    if head in _GLOBALS or head[:1].isupper() or head in ("await", "new", "typeof"):
        return False
    for u in where.get(head, []):
        if values[u - 1] in (".", "?."):
            continue
        if values[u + 1] not in ("(", ".") or values[u - 1] == "function":
            return False  # (`function mk() { return xs0; }`: the program's, no tool's)
    return True


def _literal(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    first: int,
    last: int,
    arrays: bool,
) -> bool:
    """``[{...}, {...}]``: each item an object literal (``arrays``: or an array literal, an
    item a sort reorders: ``[[3, 1], [2, 0]]``); True when no name but a key or
    ``true``/``false``/``null`` is inside: its members are new too."""
    j = first + 1
    while j < last:
        if kinds[j] != "{" and not (arrays and kinds[j] == "["):
            raise ItemRefusal(
                "an item of the array literal is not an object literal: the same object may "
                "be held twice, or elsewhere",
                j,
            )
        j = partner.get(j, last) + 1
        if kinds[j] == ",":
            j += 1
        elif j != last:
            raise ItemRefusal("an item of the array literal is not an object literal", j)
    for j in range(first, last):
        if kinds[j] == "name" and values[j] not in _LITERAL_WORDS and kinds[j + 1] != ":":
            return False
        if kinds[j] == "op" and values[j] == "...":
            return False
    return True


def _object_arrow(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], call: int, close: int
) -> bool:
    """``.map(PARAMS => ({...}))``: the arrow's value a new object literal."""
    j = call + 1
    if kinds[j] == "name" and values[j + 1] == "=>":
        arrow = j + 1
    elif kinds[j] == "(" and values[partner.get(j, j) + 1] == "=>":
        arrow = partner[j] + 1
    else:
        return False
    return (
        kinds[arrow + 1] == "("
        and kinds[arrow + 2] == "{"
        and partner.get(arrow + 2) == close - 2
        and partner.get(arrow + 1) == close - 1
    )
