"""The statement ``await Promise.all(xs.map(async (x) => { ... }));`` read as the loop
``for (const x of xs) { ... }`` (SPEC 10, "Loops"): code-mode programs write it to call a
function for every item side by side and collect the answers into an array or an object they
declared before (``results[x.id] = await f(x);``, ``out.push(await f(x));``).

A ``for...of`` loop's calls run side by side too, and the loop gives Node's values when each
call answers the same; what differs is the order of the changes. JavaScript runs every item's
callback up to its first ``await`` before any goes on, and then, with calls that take equal
time, each later part for every item in turn. The loop runs one item's whole body after
another. The two orders give the same values when nothing the body changes outside itself is
read or changed before the body's last ``await``, and every ``await`` is unconditional (in a
statement of the callback's body itself, not inside ``if``, a loop, ``?:``, ``&&``, ``||`` or
``??``). :func:`check_segments` refuses anything else at its token, with what to write.
``total = total + await f(x)`` is the race JavaScript programs fall into: refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dialectic.frontends.plan.base import CHANGES, changes_member, closing
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN

if TYPE_CHECKING:
    from dialectic.frontends.plan.base import ParserBase

__all__ = ["all_map_at", "check_segments"]

#: the tokens that may end the statement
_ENDS = frozenset([";", "}", "eof"])
#: methods that change the array, Map or Set they are called on
_CHANGING = frozenset(
    (
        "push", "unshift", "pop", "shift", "splice", "set", "add", "delete", "clear", "sort",
        "reverse", "fill", "copyWithin",
    )
)  # fmt: skip
#: operators that assign to the name before them
_ASSIGNING = CHANGES | {"="}
#: operators after which an `await` may not run for every item
_CONDITIONAL = frozenset(["?", "&&", "||", "??", "?."])
#: statements whose parts run or not by a test
_BRANCHING = frozenset(["if", "for", "while", "do", "switch", "try", "return", "else"])

_HINT = (
    "collect the answers first, then change: const rs = await Promise.all(xs.map(x => f(x))); "
    "for (const r of rs) { ... }"
)


def all_map_at(p: ParserBase, pos: int) -> tuple[int, int] | None:
    """``(dot, close)`` when the statement at token ``pos`` is exactly
    ``await Promise.all(receiver.map(async ...))``: the token of ``.map``'s ``.`` and the
    ``)`` closing ``Promise.all(``; else None."""
    kinds, values = p.kinds, p.values
    if not (
        values[pos] == "await"
        and values[pos + 1] == "Promise"
        and kinds[pos + 2] == "."
        and values[pos + 3] == "all"
        and kinds[pos + 4] == "("
    ):
        return None
    close = closing(kinds, pos + 4)
    if kinds[close] == "eof" or not (kinds[close + 1] in _ENDS or p.newline_before(close + 1)):
        return None
    i, depth = pos + 5, 0
    while i < close:
        kind = kinds[i]
        if kind in OPEN:
            if depth == 0 and kind == "(" and i > pos + 7 and values[i - 1] == "map":
                inner = closing(kinds, i)
                if kinds[i - 2] == "." and inner == close - 1 and values[i + 1] == "async":
                    return i - 2, close
                i = inner + 1
                continue
            depth += 1
        elif kind in CLOSE:
            depth -= 1
        i += 1
    return None


def check_segments(p: ParserBase, first: int, last: int, params: list[str]) -> None:
    """Refuse (at the token) a callback body, tokens ``first`` to ``last``, whose changes
    could come in another order than JavaScript's (the module's docstring)."""
    kinds, values = p.kinds, p.values
    statement: list[int] = []  # the top-level statement of each token (its first token)
    braces = 0
    current = first
    i = first
    while i <= last:
        statement.append(current)
        kind = kinds[i]
        if kind == "{" or kind == "tplh":
            braces += 1
        elif kind == "}" or kind == "tplt":
            braces -= 1
        if braces == 0 and (kind == ";" or kind == "}") and values[i + 1] != "else":
            current = i + 1
        i += 1
    local = set(params)
    rebound: set[str] = set()
    changed: set[str] = set()
    awaits: list[int] = []
    for i in range(first, last + 1):
        kind, value = kinds[i], values[i]
        if kind != "name" or kinds[i - 1] == ".":
            continue
        if value == "await":
            awaits.append(i)
        elif value in ("const", "let", "var") and kinds[i + 1] == "name":
            local.add(values[i + 1])
        elif value in ("async", "function"):
            raise p.fail(
                "a function inside a `Promise.all(xs.map(async ...))` callback is not read as "
                "the loop",
                p.starts[i],
                _HINT,
            )
        elif values[i + 1] in _ASSIGNING or (
            kinds[i - 1] == "op" and values[i - 1] in ("++", "--")
        ):
            rebound.add(value)
        elif kinds[i + 1] in (".", "[") and changes_member(kinds, values, i, _CHANGING):
            changed.add(value)
    rebound -= local
    changed -= local
    if not awaits:
        return
    for at in awaits:
        start = statement[at - first]
        if values[start] in _BRANCHING or _braced(p, start, at) or _conditional(p, start, at):
            raise p.fail(
                "an `await` that runs for some items only: JavaScript would change things in "
                "another order than a loop",
                p.starts[at],
                _HINT,
            )
    last_await = awaits[-1]
    last_start = statement[last_await - first]
    outer = rebound | changed
    for i in range(first, last_await):
        if kinds[i] != "name" or kinds[i - 1] == "." or values[i] not in outer:
            continue
        if i == last_start and values[i] not in rebound and kinds[i + 1] in (".", "["):
            continue  # `out.push(await f(x))`, `results[k] = await f(x)`: changed after it
        raise p.fail(
            f"`{values[i]}` is read before the callback's last `await`: JavaScript reads it for "
            "every item before any of them changes it",
            p.starts[i],
            _HINT,
        )


def _braced(p: ParserBase, start: int, at: int) -> bool:
    """Whether token ``at`` is inside a block (or an arrow's body) of its statement."""
    depth = 0
    for i in range(start, at):
        kind = p.kinds[i]
        if kind == "{":
            depth += 1
        elif kind == "}":
            depth -= 1
    return depth > 0


def _conditional(p: ParserBase, start: int, at: int) -> bool:
    """Whether the statement holding token ``at`` has an operator whose right side may not
    run (conservative: anywhere in the statement)."""
    kinds, values = p.kinds, p.values
    i = start
    while kinds[i] not in (";", "eof") and not (kinds[i] == "}" and i > at):
        if kinds[i] == "op" and values[i] in _CONDITIONAL:
            return True
        i += 1
    return False
