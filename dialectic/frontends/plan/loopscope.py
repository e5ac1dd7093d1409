"""The blocks of a loop's body as JavaScript scopes them (SPEC 10, "Loops"): a `const` or `let`
of a block is its own variable, so two sibling blocks may each declare `y`, and a block may
declare again a name of the blocks around it (its own `y` until the block ends):

    for (const x of xs) {
      if (x % 2) { const y = x * 2; s += y; } else { const y = x; s += y; }
    }

The body is flattened into one arrow function's aliases (:mod:`.loops`), so a name declared
again becomes a hidden alias (``_y1``) for its block: the reads inside the block read it, the
reads after the block read the name before. Refused at the declaration, as JavaScript refuses
or throws: a name declared twice in one block (a SyntaxError), and a name read in its block
before its declaration (a ReferenceError there, where the flattened body would read the outer
one). A loop inside changing a name declared again is refused too (write another name)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dialectic.frontends.plan.loopcheck import Body

__all__ = ["close_block", "declare", "renamed_reads", "resolve"]


def declare(body: Body, name: str, tok: int) -> str:
    """``name`` declared at token ``tok`` in ``body``'s innermost open block: the alias that
    holds it (``name``, or a hidden alias when an enclosing or an earlier block declared it)."""
    p = body.parser
    visible = body.renamed.get(name, name)
    found = body.declared.get(visible)
    if found is None:
        body.seq += 1
        body.declared[name] = (body.scopes[-1], body.seq, tok)
        return name
    if found[0] == body.scopes[-1]:
        first = p.index.where(p.starts[found[2]])
        raise p.fail(
            f"`{name}` is declared twice in one block (first at {first})",
            p.starts[tok],
            "give each its own name (JavaScript refuses a name declared twice in a block)",
        )
    from dialectic.frontends.plan.loopreads import name_at

    early = _read_in_block(body, visible) if found[0] in body.scopes else None
    if early is not None:  # (an earlier block's name read here: :func:`check_body` refuses)
        raise p.fail(
            f"`{name}` is read before its declaration in this block (at "
            f"{p.index.where(p.starts[tok])}): JavaScript throws a ReferenceError there",
            name_at(p, name, *early),
            f"declare `{name}` before reading it, or give the inner one another name",
        )
    hidden = p.fresh(f"_{name}")
    body.undo[-1].append((name, body.renamed.get(name)))
    body.renamed[name] = hidden
    body.original[hidden] = name
    body.seq += 1
    body.declared[hidden] = (body.scopes[-1], body.seq, tok)
    return hidden


def close_block(body: Body) -> None:
    """The innermost block ends: its names declared again stop hiding the ones before."""
    for name, before in reversed(body.undo.pop()):
        if before is None:
            del body.renamed[name]
        else:
            body.renamed[name] = before


def _read_in_block(body: Body, name: str) -> tuple[int, int] | None:
    """The tokens of the first read of ``name`` (as it resolves: the enclosing block's) in
    the innermost open block so far."""
    uses = body.uses
    for i in range(body.scope_uses[-1], len(uses)):
        if name in uses[i][0]:
            return uses[i][3], uses[i][4]
    return None


def resolve(body: Body, name: str) -> str:
    """The alias ``name`` is where ``body`` is read: a hidden one when a block declared it
    again."""
    b: Body | None = body
    while b is not None:
        hidden = b.renamed.get(name)
        if hidden is not None:
            return hidden
        if name in b.declared:
            return name
        b = b.parent
    return name


def renamed_reads(body: Body, nodes: list[dict[str, Any]]) -> set[str] | None:
    """Points each read (``$ref`` node) of a name declared again at its hidden alias; the
    names read then, or None when no block of the loop (or of a loop around it) has one."""
    b: Body | None = body
    while b is not None and not b.renamed:
        b = b.parent
    if b is None:
        return None
    for node in nodes:
        node["$ref"] = resolve(body, node["$ref"])
    return {node["$ref"] for node in nodes}
