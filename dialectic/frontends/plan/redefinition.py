"""A name defined again in its block (SPEC 10, "Changes outside loops"): the problem, as
JavaScript sees it. A `let` assigned again is one more version of it (:mod:`.reassign`, also
after a statement that made a version: ``xs.sort(); xs = xs.filter(f);``), so what reaches here
is a `const` assigned again (JavaScript's TypeError), a name declared twice (its SyntaxError)
or a Plan alias, which is defined once."""

from __future__ import annotations

from dialectic.frontends.plan.base import ParserBase

__all__ = ["defined_twice"]


def defined_twice(p: ParserBase, word: str, before: int, pos: int) -> tuple[str, int, str]:
    """The problem (message, offset, hint) of ``word`` defined at token ``pos`` when the block
    defines it at token ``before``."""
    where = f"({p.index.where(p.starts[before])} and {p.index.where(p.starts[pos])})"
    first, again = p.declarator(before), p.declarator(pos)
    if first == "const" and again is None:
        return (
            f"`{word}` is declared with `const` and assigned again {where}: a TypeError in "
            "JavaScript (assignment to a constant)",
            p.starts[pos],
            f"declare it with `let` to assign it again: let {word} = ...;",
        )
    if first is not None and again is not None:
        return (
            f"`{word}` is declared twice {where}: a SyntaxError in JavaScript",
            p.starts[pos],
            f"declare it once with `let`, then assign it without `{again}`: {word} = ...;",
        )
    return (
        f"the alias `{word}` is defined twice {where}",
        p.starts[pos],
        "give each alias its own name; aliases are not variables and cannot be reassigned "
        f"(a name declared with `let` can be: let {word} = ...; ... {word} = ...;)",
    )
