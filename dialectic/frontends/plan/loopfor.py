"""``for (let i = 1; i < 100; i *= 2) { ... }``: a C-style loop that is not a count (SPEC 10,
"Loops"), read as the `while` loop JavaScript runs::

    let i = 1;                          // the loop's variables, hidden after the loop
    while (i < 100) { ...; i *= 2; }    // the update after the body, after a `continue` too

A count (`i < n` with `i++` or `i += 2`: :meth:`.loopforms.LoopFormsMixin.counted_header`)
stays a list of values, whose iterations may run concurrently; this form runs its iterations
one after another, as `while` does (:mod:`.loopwhile`), each counting against `max_steps`. The
header's test may be empty (`for (;;)`: it needs a `break` or a `return`), its update a list of
changes (`i++, j--`). Only a loop of a block reads this way; inside another loop's body the
loop is refused (declare its variable before it and write `while`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import ParserBase
from dialectic.frontends.plan.loopbuild import ref
from dialectic.frontends.plan.loopcheck import NEVER, Body
from dialectic.frontends.plan.loopreads import check_body
from dialectic.frontends.plan.loopwhile import WhileTest, endless, loop_test, not_broken
from dialectic.frontends.plan.tokenscan import OPEN

if TYPE_CHECKING:
    from dialectic.frontends.plan.loops import LoopsMixin

__all__ = ["c_style_parts", "read_c_style", "unscope"]


def c_style_parts(p: ParserBase, pos: int) -> tuple[int, int, int] | None:
    """For `for (INIT; TEST; UPDATE)` at token ``pos``: the tokens of its two `;` and its
    `)`; None for another header."""
    kinds = p.kinds
    if kinds[pos + 1] != "(":
        return None
    closes = p.brackets().closes
    close = closes[pos + 1]
    if kinds[close] == "eof":
        return None
    semis: list[int] = []
    i = pos + 2
    while i < close:
        kind = kinds[i]
        if kind in OPEN:
            i = closes[i]
        elif kind == ";":
            semis.append(i)
        i += 1
    if len(semis) != 2:
        return None
    return semis[0], semis[1], close


def read_c_style(
    p: LoopsMixin,
    pos: int,
    body: Body,
    parts: tuple[int, int, int],
    block: tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]],
) -> tuple[tuple[str | None, int, Any, tuple[int, int]], int, list[str]]:
    """The loop at token ``pos`` (its header's ``parts``) read into ``body``: its variables
    defined in ``block`` first. Returns the header, the token the body starts at, and the
    loop's variables."""
    first_semi, second_semi, close = parts
    names = _declare(p, pos + 2, first_semi, block)
    state = body.state_param = p.fresh("_s")
    go = p.fresh("_go")
    body.lets[go] = {"$if": [{"$get": [ref(state), "done"]}, False, True]}
    body.fold = True
    body.param = state
    loop = body.loop = WhileTest(False)
    kinds = p.kinds
    if second_semi == first_semi + 1:  # `for (;;)`: the test is `true`
        loop.first = loop.last = first_semi
        loop.tree = True
        reach: str = go
    else:
        saved = kinds[second_semi]
        kinds[second_semi] = ")"  # (the test ends there)
        p.pos = first_semi + 1
        try:
            reach = loop_test(p, body, loop, go)
        finally:
            kinds[second_semi] = saved
    own = len(body.breaks)  # (the test's failing, which is not the body's `break`)
    body_first = close + 1
    p.pos = body_first
    p._loop_body(body, reach, None)
    after = p.pos
    if second_semi + 1 < close:
        _update(p, body, reach, body.breaks[own:], (second_semi + 1, close))
    p.pos = after
    if loop.tree is True and not body.breaks:  # `for (;;)` with no `break`
        raise p.fail(
            "this `for (;;)` loop has no `break`: it never ends",
            p.starts[pos],
            "end it with `if (done) break;` in its body, or write the test: "
            "for (let i = 0; i < n; i *= 2)",
        )
    if loop.tree is not True:
        endless(p, body, loop, pos)
    check_body(p, body, None, (loop.first, loop.last))
    return (None, pos, None, (loop.first, loop.last)), body_first, names


def _declare(
    p: LoopsMixin,
    i: int,
    end: int,
    block: tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]],
) -> list[str]:
    """`let i = 0, j = n` (tokens ``i`` up to ``end``, the first `;`): each a `let` of the
    block; an empty init declares nothing."""
    kinds, values = p.kinds, p.values
    if i == end:
        return []
    word = values[i] if kinds[i] == "name" else None
    if word != "let":
        raise p.fail(
            "a C-style loop's first part declares its variables with `let`",
            p.starts[i],
            "write for (let i = 0; test; update), or `while` with a variable declared before it",
        )
    aliases, alias_at, alias_rec = block
    names: list[str] = []
    saved = kinds[end]
    kinds[end] = ")"  # (a value ends at the `;`)
    try:
        at = i + 1
        while True:
            if kinds[at] != "name" or kinds[at + 1] != "=":
                raise p.unexpected(p.tok(at), "`name = value` in the loop's first part")
            name = str(values[at])
            p._check_name(name, at)
            if name in alias_at or name in aliases:
                raise p.fail(
                    f"the loop declares `{name}`, which the block defines before it",
                    p.starts[at],
                    "give the loop's variable another name (in JavaScript it is the loop's own)",
                )
            p.pos = at + 2
            value = p.expr(0)
            last = p.pos - 1
            aliases[name] = value
            alias_at[name] = at
            alias_rec.append((name, at, at + 2, last, last))
            if values[at - 1] != word:
                declarators = p._declarators
                if declarators is None:
                    declarators = p._declarators = {}
                declarators[at] = "let"
            names.append(name)
            if kinds[p.pos] == ",":
                at = p.pos + 1
                continue
            if p.pos != end:
                raise p.unexpected(p.tok(p.pos), "`;` after the loop's variables")
            return names
    finally:
        kinds[end] = saved


def _update(
    p: LoopsMixin, body: Body, ran: str, breaks: list[str | None], span: tuple[int, int]
) -> None:
    """The update (tokens ``span``: after the second `;` up to the header's `)`), read after
    the body: it runs when the iteration ran (``ran``: the test held) and ended without a
    `break` (after a `continue` too)."""
    first, close = span
    reach = not_broken(p, body, ran, breaks)
    if reach is None:
        return  # (every iteration breaks: the update never runs)
    kinds = p.kinds
    commas = []
    closes = p.brackets().closes
    i = first
    while i < close:
        if kinds[i] in OPEN:
            i = closes[i]
        elif kinds[i] == ",":
            commas.append(i)
        i += 1
    marks = [*commas, close]
    for at in marks:
        kinds[at] = ";"
    try:
        p.pos = first
        while p.pos <= close:
            out = p._statement(body, reach)
            if out == NEVER:
                raise p.fail(
                    "the loop's update cannot `break` or `continue`",
                    p.starts[first],
                    "the update changes the loop's variables: i++, i += 2, i = next(i)",
                )
    finally:
        for at in commas:
            kinds[at] = ","
        kinds[close] = ")"


def unscope(
    p: LoopsMixin,
    names: list[str],
    block: tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]],
) -> None:
    """After the loop: its variables leave the block's scope (hidden names), as in
    JavaScript, where they are the loop's own."""
    aliases, alias_at, alias_rec = block
    state = p._block_state(alias_rec)
    moved: dict[str, str] = {}
    first = len(alias_rec)
    for name in names:
        if name not in aliases:
            continue
        idx = state.index_of(name)
        if idx is not None:
            first = min(first, idx)
        moved[name] = state.rename(p, aliases, name)
        state.finals.pop(name, None)
        alias_at.pop(name, None)
    if moved:  # (the loop reads a variable it never changes, `n` of `let i = 0, n = xs.length`)
        _rename_free([aliases[entry[0]] for entry in alias_rec[first:]], moved)


def _rename_free(trees: list[Any], moved: dict[str, str]) -> None:
    """Make each free read of a name in ``moved`` in ``trees`` read its new name, in place
    (so that the source map, which holds the nodes, still places them): not where an arrow's
    parameter, a block's alias or a recursive function binds the name again. One walk."""
    stack: list[tuple[Any, dict[str, str]]] = [(tree, moved) for tree in trees]
    while stack:
        tree, names = stack.pop()
        if type(tree) is list:
            stack.extend((item, names) for item in tree)
            continue
        if type(tree) is not dict:
            continue
        ref_name = tree.get("$ref")
        if len(tree) == 1 and type(ref_name) is str:
            if ref_name in names:
                tree["$ref"] = names[ref_name]
            continue
        if len(tree) == 1 and "$quote" in tree:
            continue
        bound = _bound(tree)
        if bound:
            names = {k: v for k, v in names.items() if k not in bound}
            if not names:
                continue
        stack.extend((value, names) for value in tree.values())


def _bound(tree: dict[str, Any]) -> set[str]:
    """The names a node binds for its parts: an arrow's parameters, a block's aliases, a
    group's recursive functions."""
    fn = tree.get("$fn")
    if type(fn) is list and fn and type(fn[0]) is list:
        return {name for name in fn[0] if type(name) is str}
    lets = tree.get("$let")
    if type(lets) is dict:
        return set(lets)
    group = tree.get("$letrec")
    if type(group) is list:
        return {part[0] for part in group[:-1] if type(part) is list and part}
    return set()
