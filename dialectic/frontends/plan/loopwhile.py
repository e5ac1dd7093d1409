"""``while (test) { ... }`` and ``do { ... } while (test);`` (SPEC 10, "Loops"): a fold over
an unbounded sequence, the core's ``$while``. The body is read as a ``for...of`` loop's that
reads what it changes (:mod:`.loopfold`): its state holds every accumulator and whether the
loop is done; the test is a statement of the body, at its start (``do``: at its end, after a
`continue` too), whose failing is a `break`. The loop is
``{"$while": [state, s => !s.done, s => step]}``: each test and each step is a method step, so
a loop that never ends stops at ``max_steps``. Used by :mod:`.loops`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import closing
from dialectic.frontends.plan.loopbuild import ref, when
from dialectic.frontends.plan.loopcheck import Body
from dialectic.frontends.plan.loopreads import check_body

if TYPE_CHECKING:
    from dialectic.frontends.plan.loops import LoopsMixin

__all__ = [
    "WhileTest",
    "body_start",
    "not_broken",
    "read_while",
    "skip_do_test",
    "while_tree",
]


class WhileTest:
    """A ``while`` loop's test: ``do`` loops read it after the body; its first and last token."""

    __slots__ = ("is_do", "first", "last", "tree")

    def __init__(self, is_do: bool) -> None:
        self.is_do = is_do
        self.first = 0
        self.last = 0
        self.tree: Any = None


def read_while(
    p: LoopsMixin, pos: int, body: Body
) -> tuple[tuple[str | None, int, Any, tuple[int, int]], int]:
    """The loop at token ``pos`` read and checked into ``body``: the loop's header (its test's
    tokens) and the token its body starts at."""
    loop, start = start_while(p, pos, body)
    body.loop = loop
    first = p.pos
    p._loop_body(body, start, None)
    if loop.is_do:
        end_do(p, body, loop, start)
    endless(p, body, loop, pos)
    span = (loop.first, loop.last)
    check_body(p, body, None, span)
    return (None, pos, None, span), first


def body_start(p: LoopsMixin, pos: int) -> int:
    """The token after the loop's `while (...)` (``do``: after `do`), where a loop with an
    error is skipped from."""
    first = pos + 1
    if p.kinds[first] == "(":
        first = closing(p.kinds, first)
        first += p.kinds[first] != "eof"
    return first


def skip_do_test(p: LoopsMixin, pos: int) -> None:
    """After a ``do`` loop's body skipped: past its `while (...);`."""
    kinds, i = p.kinds, p.pos
    if p.values[pos] != "do" or not (kinds[i] == "name" and p.values[i] == "while"):
        return
    if kinds[i + 1] == "(":
        i = closing(kinds, i + 1)
        if kinds[i] != "eof":
            i += 1
        p.pos = i + (kinds[i] == ";")


def start_while(p: LoopsMixin, pos: int, body: Body) -> tuple[WhileTest, str]:
    """The loop at token ``pos`` (``while`` or ``do``) begun: its fold's state and the reach
    that says the iteration runs (not done); for ``while``, its test read and placed at the
    start of the body. Returns the test and the reach the body's statements start from."""
    state = body.state_param = p.fresh("_s")
    go = p.fresh("_go")
    body.lets[go] = {"$if": [{"$get": [ref(state), "done"]}, False, True]}
    body.fold = True
    body.param = state
    loop = WhileTest(p.values[pos] == "do")
    if loop.is_do:
        p.pos = pos + 1
        return loop, go
    if p.kinds[pos + 1] != "(":
        raise p.unexpected(p.tok(pos + 1), "`(` after `while`")
    p.pos = pos + 2
    return loop, loop_test(p, body, loop, go)


def loop_test(p: LoopsMixin, body: Body, loop: WhileTest, reach: str) -> str:
    """The test from ``p.pos`` to its `)`: read where ``reach`` holds; when it fails the loop
    ends (a `break`). Returns the reach of what follows it (the test held)."""
    loop.first = p.pos
    test = p.expr(0)
    loop.last = p.pos - 1
    loop.tree = test
    p._expect(")", "`)` after the loop's test")
    body.use(test, loop.first, loop.last)
    taken = p.fresh("_if")
    items: list[Any] = [test, True, False]
    p._put(items, 0, loop.first, loop.last)
    body.lets[taken] = when(reach, {"$if": items}, False)
    p._put(body.lets, taken, loop.first, loop.last)
    stop = p.fresh("_else")
    body.lets[stop] = {"$if": [ref(taken), False, ref(reach)]}
    body.breaks.append(stop)
    return taken


def end_do(p: LoopsMixin, body: Body, loop: WhileTest, go: str) -> None:
    """``while (test);`` after a ``do`` loop's body: the test runs when the iteration ended
    without a `break` (after a `continue` too, as in JavaScript)."""
    kinds, values = p.kinds, p.values
    if not (kinds[p.pos] == "name" and values[p.pos] == "while" and kinds[p.pos + 1] == "("):
        raise p.unexpected(p.tok(p.pos), "`while (test);` after the body of `do`")
    p.pos += 2
    reach = not_broken(p, body, go, list(body.breaks))
    if reach is None:  # every iteration breaks: the test never runs
        reach = p.fresh("_never")
        body.lets[reach] = False
    loop_test(p, body, loop, reach)
    p._end("`do...while` loop")


def not_broken(p: LoopsMixin, body: Body, ran: str, breaks: list[str | None]) -> str | None:
    """The hidden alias saying that the iteration ran (``ran``) and ended without one of the
    ``breaks`` (after a `continue` too): what runs after the body (a `do` loop's test, a C-style
    loop's update); None when every iteration breaks."""
    if None in breaks:
        return None
    if not breaks:
        return ran
    broke: Any = ref(breaks[0] or "")
    for b in breaks[1:]:
        broke = {"$op": ["||", broke, ref(b or "")]}
    reach = p.fresh("_reach")
    body.lets[reach] = when(ran, {"$if": [broke, False, True]}, False)
    return reach


def endless(p: LoopsMixin, body: Body, loop: WhileTest, pos: int) -> None:
    """``while (true)`` with no `break`: a loop that never ends, refused where it starts."""
    test = loop.tree
    if type(test) is dict or type(test) is list or not test or len(body.breaks) > 1:
        return
    word = "do { ... } while" if loop.is_do else "while"
    raise p.fail(
        f"this `{word} ({p.source[p.starts[loop.first] : p.ends[loop.last]]})` loop has no "
        "`break`: it never ends",
        p.starts[pos],
        "end it with `if (done) break;` in its body, or test what the loop changes: "
        "while (page !== null) { ... }",
    )


def while_tree(fn: list[Any], initial: Any, t: str) -> dict[str, Any]:
    """``{"$while": [state, t => !t.done, s => step]}`` from the fold's step ``fn`` (its
    state parameter and body) and its initial state (``t``: a hidden name for the test's)."""
    state = fn[0][0]
    test = {"$fn": [[t], {"$op": ["!", {"$get": [ref(t), "done"]}]}]}
    return {"$while": [initial, test, {"$fn": [[state], fn[1]]}]}
