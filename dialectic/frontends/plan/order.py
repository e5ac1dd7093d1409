"""A name read before its definition (SPEC 10): JavaScript throws a ReferenceError.

``const a = b + 1; const b = 2;`` is a data-flow graph to the core (aliases may be defined in
any order: SPEC 1.3), but in JavaScript ``b`` cannot be read before its line runs (its
"temporal dead zone"), even when the context has a value named ``b``. So the front end refuses
a statement that reads an alias of its block defined after it (an arrow's parameter or an
inner block's ``const`` of that name is another variable and does not count). One walk per
statement's tree; linear in the program.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dialectic.frontends.plan.base import Problem

__all__ = ["declared_names", "first_read", "read_before_definition", "reading_order"]


class _Restore:
    """On the walk's stack of :func:`_reads`: where a scope's subtree ends (the names hidden
    before it are hidden again)."""

    __slots__ = ("hidden",)

    def __init__(self, hidden: frozenset[str]) -> None:
        self.hidden = hidden


def _reads(tree: Any, names: set[str], every: list[str] | None = None) -> str | None:
    """The first of ``names`` that ``tree`` reads (``{"$ref": name}``), outside the scopes
    that define their own variable of that name; None if none. With ``every``, each such read
    is appended to it instead, and the walk goes on. (One stack of the nodes, in order; a
    scope that hides names pushes a :class:`_Restore` below its subtree.)"""
    hidden: frozenset[str] = frozenset()
    stack: list[Any] = [tree]
    pop = stack.pop
    push = stack.append
    extend = stack.extend
    while stack:
        t = pop()
        kind = type(t)
        if kind is list:
            extend(reversed(t))
            continue
        if kind is not dict:
            if kind is _Restore:
                hidden = t.hidden
            continue
        ref = t.get("$ref")
        if type(ref) is str and len(t) == 1:
            if ref in names and ref not in hidden:
                if every is None:
                    return ref
                every.append(ref)
            continue
        fn = t.get("$fn")
        if fn is not None and len(t) == 1 and type(fn) is list and len(fn) == 2:
            params = fn[0] if type(fn[0]) is list else []
            push(_Restore(hidden))
            push(fn[1])
            hidden = hidden | {p for p in params if type(p) is str}
            continue
        inner = t.get("$let")
        scoped = hidden
        if type(inner) is dict and ("$return" in t or "$use" in t):
            scoped = scoped | set(inner)
        if type(t.get("$do")) is list and ("$return" in t or "$use" in t):
            scoped = scoped | declared_names(t)  # (a block with statements: its `const`s)
        if scoped is not hidden:
            push(_Restore(hidden))
            hidden = scoped
        extend(reversed(t.values()))
    return None


def _may_read_ahead(
    rec: Sequence[tuple[str, int, int, int, int]], values: Sequence[object]
) -> bool:
    """Whether a token of some statement (any kind: a key or a text counts too) is the name of
    an alias defined after it: only then can a statement read ahead, and the trees are walked.
    Set lookups over the statements' tokens, each token once (the common program costs a few
    microseconds, not a walk of its trees)."""
    later = {name for name, *_ in rec if not name.startswith("#")}
    done = min(rec[0][1], rec[0][2]) if rec else 0
    for name, _, _, _, end in rec:
        later.discard(name)
        if end >= done:
            if not later.isdisjoint(values[done : end + 1]):
                return True
            done = end + 1
    return False


def read_before_definition(
    aliases: dict[str, Any],
    rec: Sequence[tuple[str, int, int, int, int]],
    kinds: Sequence[str],
    values: Sequence[object],
    starts: Sequence[int],
    where: Any,
    walk: bool = False,
) -> Problem | None:
    """The problem of the first statement (in ``rec``'s order: name, name token, first and
    last token of the value, last token of the statement) reading an alias of the block
    defined after it; ``where(offset)`` writes a place as ``line L, column C``; ``walk``: walk
    every tree (a function written out reads names its statement's tokens do not show)."""
    if not walk and not _may_read_ahead(rec, values):
        return None
    later = {name for name, *_ in rec if not name.startswith("#")}
    for name, at, first, last, _ in rec:
        later.discard(name)  # (an alias reading itself is a cycle: the resolver says so)
        read = _reads(aliases[name], later)
        if read is not None:
            defined = next(a for n, a, *_ in rec if n == read)
            offset = starts[at] if name.startswith("#") else starts[first]
            for i in range(first, last + 1):
                if kinds[i] == "name" and values[i] == read and kinds[i - 1] != ".":
                    offset = starts[i]
                    break
            return (
                f"`{read}` is read before its definition ({where(starts[defined])}): "
                "JavaScript throws a ReferenceError there",
                offset,
                f"define `{read}` before the statement that reads it",
            )
    return None


def reading_order(bindings: dict[str, Any]) -> list[str]:
    """The names of ``bindings`` (a ``$let``, whose aliases may come in any order: SPEC 1.3)
    so that each comes after the aliases it reads, else in their order: how Plan must write
    them (a cycle keeps its order; the resolver reports it). Iterative: chains may be long."""
    names = set(bindings)
    deps: dict[str, list[str]] = {}
    for name, value in bindings.items():
        found: list[str] = []
        _reads(value, names - {name}, found)
        deps[name] = found
    out: list[str] = []
    state: dict[str, int] = {}  # 1: being placed, 2: placed
    for root in bindings:
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(deps[root]))]
        while stack:
            name, pending = stack[-1]
            for dep in pending:
                if dep not in state:
                    state[dep] = 1
                    stack.append((dep, iter(deps[dep])))
                    break
            else:
                stack.pop()
                state[name] = 2
                out.append(name)
    return out


def first_read(tree: Any, names: set[str] | frozenset[str]) -> str | None:
    """The first of ``names`` that ``tree`` reads (not as another variable of the name)."""
    return _reads(tree, set(names))


def declared_names(block: Any) -> frozenset[str]:
    """The aliases a block's tree (``{"$let": ..., "$return": ...}``, perhaps with ``$do``)
    defines."""
    if type(block) is not dict:
        return frozenset()
    names = set(block.get("$let") or ())
    for item in block.get("$do") or ():
        if type(item) is dict and set(item) == {"$let"} and type(item["$let"]) is dict:
            names.update(item["$let"])
    return frozenset(names)
