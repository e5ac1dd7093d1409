"""What an accumulator changed in place may start as (SPEC 10, "Loops", "Changes outside
loops"): a value nothing else holds (an array literal, an object literal, ``new Map()``), as
JavaScript would change the value the name was given wherever else it is held; and the
refusals of a start that does not fit. Used by :mod:`.loopcheck`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.accumulator import is_new_collection
from dialectic.frontends.plan.ownresults import held_calls
from dialectic.frontends.plan.reorder import new_array

if TYPE_CHECKING:
    from dialectic.frontends.plan.base import ParseFailure, ParserBase
    from dialectic.frontends.plan.loops import LoopsMixin

__all__ = ["SHARED_FAMILIES", "START", "WHOLE_HINT", "destructured", "fresh_start", "same_family"]

#: how each kind of accumulator starts (the hints show it)
START = {
    "push": "const {0} = [];",
    "entry": "const {0} = {{}};",
    "number": "let {0} = 0;",
    "collection": "const {0} = new Map();",
}

#: accumulators JavaScript changes in place: a read before the loop may see the changes
SHARED_FAMILIES = frozenset(["push", "entry", "collection"])

WHOLE_HINT = {
    "push": "read a member (`{0}.length`, `{0}[k]`), or copy it: [...{0}]",
    "entry": "read a member (`{0}.length`, `{0}[k]`), or copy it: {{...{0}}}",
    "collection": "read it through its methods (`{0}.get(k)`, `{0}.has(k)`, `{0}.size`), or "
    "copy it: [...{0}]",
}


def destructured(p: ParserBase, name: str, family: str, where: int) -> ParseFailure:
    return p.fail(
        f"`{name}` is defined by destructuring and changed in the loop: Plan changes only a "
        "name defined by itself",
        where,
        f"destructure into another name, and define `{name}` by itself before the loop: "
        f"{START[family].format(name)}",
    )


def same_family(p: ParserBase, name: str, before: str, family: str, where: int) -> None:
    if before != family:
        raise p.fail(f"`{name}` is changed in another way by an earlier loop", where)


def fresh_start(p: LoopsMixin, name: str, init: Any, family: str, where: int) -> None:
    """An array accumulator starts as an array literal, an object one as an object literal
    (JavaScript would change the value it was given)."""
    own = held_calls(p)  # (a call of the program's function may return what it holds,
    # unless each of its results is new: :mod:`.ownresults`)
    fresh = (
        (type(init) is list or new_array(init, own))
        if family == "push"
        else is_new_collection(init)
        if family == "collection"
        else family != "entry"
        or (
            type(init) is dict
            and (
                not any(k[:1] == "$" or k in own for k in init)
                or list(init) == ["$object"]
                or list(init) == ["$merge"]
            )
        )
    )
    if not fresh:
        kind = {"push": "an array literal", "collection": "new Map() or new Set()"}.get(
            family, "an object literal"
        )
        called = type(init) is dict and len(init) == 1 and next(iter(init)) in own
        raise p.fail(
            f"the loop changes `{name}`, which must start as {kind}"
            + (
                f" (a result of the program's function `{next(iter(init))}` may be a value "
                "the program holds elsewhere: not every value it returns is a new one, a "
                "literal or a copy)"
                if called
                else ""
            ),
            where,
            f"JavaScript would change the value `{name}` was given; start from a new one: "
            f"{START[family].format(name)} (or a literal with items)"
            + (
                f", or copy the result: const {name} = "
                + ("[...{0}(...)];" if family == "push" else "{{...{0}(...)}};").format(
                    next(iter(init))
                )
                if called and family in ("push", "entry")
                else ""
            ),
        )
