"""Synchronous expressions in a static call graph (:mod:`dialectic.compiler.dagplan`): an
argument, an alias or the result that computes a value from the graph's calls (``step(c, d +
1)``, ``getUser(`u-${id}`)``, ``score(a.total * 2, b.n)``, ``const [a, b] = await
Promise.all([f(x), g(y)])``, ``return {name: user.name, n: orders.length, id}``).

The lazy way evaluates each operator, member read, template, array or object as soon as the
values it reads are there, and a failure there (a member of undefined) is the run's as soon as
it happens. So an expression is cut into *segments*: a segment is a subtree whose every node
reads the same calls (its *leaves*: aliases that are calls of the graph, nested calls, and the
segments below it that read fewer calls), and it runs as a task of the graph
(:class:`~dialectic.run.dagexpr.ExprRead`) that awaits its leaves, then evaluates the subtree at
once: at the moment the lazy way would, with the same closures (the compiler compiles the
subtree a second time with each leaf read from its task: :meth:`Compiler.twin`), so with the same
value or failure. Ambiguities of its leaves are merged in the order they are written, as the
lazy way's nodes merge their children's. What decides whether something is evaluated (``&&``,
``||``, ``??``, ``? :``, optional chains, arrows, method calls) is not part of any segment: such a
program runs the lazy way. So is a part that reads no call but is more than a literal or a
context value (``ctx.user.id + 1`` next to an alias): the lazy way evaluates it before the calls
end, and a failure there comes first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.compiler.forms import optional_link
from dialectic.compiler.invoke_async import AsyncCall
from dialectic.run.dagexpr import ExprRead
from dialectic.run.dagrun import TASK, MemberRead
from dialectic.tree.nodes import (
    Arr,
    Get,
    Invoke,
    Lit,
    Node,
    Obj,
    Op,
    Spread,
    Template,
    Undefined,
    Unwrap,
)
from dialectic.tree.resolved import AliasRef, ContextRef
from dialectic.values.jsops import LOGICAL

if TYPE_CHECKING:
    from dialectic.run.compiled import Compiled

_Key = tuple[str, int]
_Args = tuple[tuple[int, Any], ...]
#: a segment: its task, its arguments (the leaves' tasks, in the order written), its subtree,
#: and the node (by id) of each leaf with its task's key
Segment = tuple[ExprRead, _Args, Node, dict[int, _Key]]

#: nodes that read no call and cannot fail
_LEAFLESS = (Lit, ContextRef, Undefined)
#: nodes a segment may hold: each evaluates all of its children (in order) and then itself
_COMPOUND = (Get, Op, Template, Arr, Obj, Unwrap)


def _children(node: Node) -> list[Node] | None:
    """The children of a node a segment may hold, in the order the lazy way merges their
    ambiguities; None if it may not hold it."""
    t = type(node)
    if t is Get:
        if node.optional or optional_link(node) is not None:  # type: ignore[attr-defined]
            return None
        return [node.target, *node.keys]  # type: ignore[attr-defined]
    if t is Op:
        if node.op in LOGICAL:  # type: ignore[attr-defined]
            return None
        return list(node.operands)  # type: ignore[attr-defined]
    if t is Template:
        return [p for p in node.parts if not isinstance(p, str)]  # type: ignore[attr-defined]
    if t is Arr:
        return [c.value if type(c) is Spread else c for c in node.items]  # type: ignore[attr-defined]
    if t is Obj:
        return list(node.fields.values())  # type: ignore[attr-defined]
    if t is Unwrap:
        return [node.value]  # type: ignore[attr-defined]
    return None


#: the nodes the search for segments visits in one program, at most (see ExprPlanner.budget)
MAX_EXPR_NODES = 1_000


class ExprPlanner:
    """The segments of a program's expressions (mixed into dagplan's planner, which provides
    ``fits``, ``nested``, ``call`` and the compiled asynchronous calls by node, ``sites``)."""

    fits: dict[int, Any]
    nested: dict[int, Any]
    sites: dict[int, Compiled]
    #: the segments found, by their subtree's id (an alias's own segment is in ``fits``)
    exprs: dict[int, Segment]
    #: how many more nodes the search for segments may visit in this program: a large
    #: fan-out (``return [lookup(0), ..., lookup(49999)]``) gains nothing from running as a
    #: graph and would be compiled twice; past the budget, the program runs the lazy way
    budget = MAX_EXPR_NODES

    def call(self, node: Invoke, compiled: Compiled) -> Any:
        raise NotImplementedError

    def segment(self, root: Node, alias: int = -1) -> _Key | None:
        """The key of the task of expression ``root`` (an alias's value when ``alias`` is its
        slot), its segments found; None if it cannot be part of the graph."""
        sets: dict[int, frozenset[_Key]] = {}
        if type(root) not in _COMPOUND or not self._sets(root, sets):
            return None
        found = self._build(root, sets)
        if alias >= 0:
            self.fits[alias] = found[:2]
            self.exprs[id(root)] = found
            return ("alias", alias)
        self.exprs[id(root)] = found
        return ("expr", id(root))

    def _leaf(self, node: Node) -> _Key | None:
        """The key of a call the graph runs, if ``node`` is one (an alias of the graph, a
        nested call that fits)."""
        t = type(node)
        if t is AliasRef:
            if node.frame != -1 or node.slot not in self.fits:  # type: ignore[attr-defined]
                return None
            return ("alias", node.slot)  # type: ignore[attr-defined]
        if t is Invoke:
            compiled = self.sites.get(id(node))
            if compiled is None:
                return None
            found = self.call(node, compiled)  # type: ignore[arg-type]
            if found is None:
                return None
            self.nested[id(node)] = found
            return ("call", id(node))
        return None

    def _sets(self, node: Node, sets: dict[int, frozenset[_Key]]) -> bool:
        """Whether ``node`` (a compound node) may be part of the graph; ``sets`` gets the calls
        each compound node below it reads, transitively (a compound node that reads none is not
        allowed: see the module's docstring)."""
        kids = _children(node)
        if kids is None:
            return False
        self.budget -= 1 + len(kids)
        if self.budget < 0:
            return False
        found: set[_Key] = set()
        for kid in kids:
            t = type(kid)
            if t in _LEAFLESS or inert(kid):
                continue
            if t is AliasRef or t is Invoke:
                key = self._leaf(kid)
                if key is None:
                    return False
                found.add(key)
            elif t in _COMPOUND:
                if not self._sets(kid, sets):
                    return False
                found |= sets[id(kid)]
            else:
                return False
        if not found:
            return False
        sets[id(node)] = frozenset(found)
        return True

    def _build(self, root: Node, sets: dict[int, frozenset[_Key]]) -> Segment:
        """The segment of ``root``: the compound nodes below it that read the same calls, its
        leaves the calls and the segments (made here) of those that read fewer."""
        reads = sets[id(root)]
        leaves: dict[_Key, None] = {}  # (in the order written)
        subst: dict[int, _Key] = {}

        def walk(node: Node) -> None:  # (depth first, children in order, as written)
            kids = _children(node)
            assert kids is not None
            for kid in kids:
                t = type(kid)
                if t in _LEAFLESS or inert(kid):
                    continue
                if t is AliasRef or t is Invoke:
                    key = self._leaf(kid)
                    assert key is not None
                elif sets[id(kid)] == reads:
                    walk(kid)
                    continue
                else:
                    key = ("expr", id(kid))
                    self.exprs[id(kid)] = self._build(kid, sets)
                subst[id(kid)] = key
                leaves[key] = None

        walk(root)
        return ExprRead(), tuple((TASK, key) for key in leaves), root, subst


def inert(node: Node) -> bool:
    """Whether ``node`` is an array or object of literals and context values, at any depth
    (``{n: 5, id}``): it reads no call and cannot fail, so it is evaluated with the literals."""
    t = type(node)
    if t is Arr:
        return all(type(c) in _LEAFLESS or inert(c) for c in node.items)  # type: ignore[attr-defined]
    if t is Obj:
        return all(type(c) in _LEAFLESS or inert(c) for c in node.fields.values())  # type: ignore[attr-defined]
    return False


def is_compound(node: Node) -> bool:
    """Whether ``node`` is an expression a segment may hold (not a call, alias or literal)."""
    return type(node) in _COMPOUND


#: how many calls a search for what a call reads looks at, at most (see :func:`inlined`)
_REACH = 16


def inlined(found_of: Any, order: list[_Key], root: Any, items: list[_Key]) -> set[_Key]:
    """The expressions, member reads and calls of the graph that their only reader evaluates
    in its own task, with no task of their own, at the moment they would start in a task of
    their own. A reader evaluates those first, in the order written, then awaits its other
    arguments; one qualifies when every call awaited before it is surely done before its own
    arguments are (one that they read, transitively, within ``_REACH`` calls: no cost grows
    faster than the program). An expression takes no time; a call does, so it is the last
    one a reader evaluates so (the next would start late): ``const b = await g(a); return
    h(b);`` runs ``g`` in ``h``'s task, a chain of awaits in one task. ``items``: the aliases
    the result is an array or object of (read by the run itself)."""
    readers: dict[_Key, int] = dict.fromkeys(items, 1)  # (the result's aliases: read there)
    consumers = [found_of(key) for key in order]
    if root is not None:
        consumers.append(root)
    for found in consumers:
        for kind, x in found[1]:
            if kind >= TASK:
                key = _arg_key(kind, x)
                readers[key] = readers.get(key, 0) + 1
    inline: set[_Key] = set()
    for found in consumers:
        if type(found[0]) is MemberRead:
            continue  # (its one argument is an alias's task)
        awaited: list[_Key] = []
        for kind, x in found[1]:
            if kind < TASK:
                continue
            key = _arg_key(kind, x)
            sub = found_of(key)
            if readers[key] != 1:
                continue
            leaves = [_arg_key(k, y) for k, y in sub[1] if k >= TASK]
            if all(_reaches(found_of, leaves, a) for a in awaited):
                inline.add(key)
                if type(sub[0]) is AsyncCall:
                    break
                awaited.extend(leaves)
    return inline


def _reaches(found_of: Any, start: list[_Key], goal: _Key) -> bool:
    """Whether one of the calls ``start`` reads ``goal``, transitively (or is it), found within
    ``_REACH`` calls."""
    seen = set(start)
    stack = list(start)
    while stack and len(seen) <= _REACH:
        key = stack.pop()
        if key == goal:
            return True
        for kind, x in found_of(key)[1]:
            if kind >= TASK:
                nxt = _arg_key(kind, x)
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return goal in seen and len(seen) <= _REACH


def _arg_key(kind: int, x: Any) -> _Key:
    """The key of an argument of kind TASK or LEAVE (before the tasks are numbered)."""
    return x if kind == TASK else x[0]  # type: ignore[no-any-return]
