"""Effects, statically (SPEC 17): which nodes of a resolved program make effectful calls, and
how each block runs its effectful statements in program order. :func:`analyze` runs once per
program, after the resolver, only when the program has an effectful call or an expression
statement; :mod:`dialectic.run.effects` runs the plans it makes.

For each block (``$let``/``$do``) a :class:`BlockPlan` says: its statements in program order
(the block's dependency order), which of them the block must run (every statement that writes,
every expression statement, and every read of a written scope that comes before a later write
of it: it must see the state before), in per-scope *chains*, and which lazy statements wait for
the last write of a scope they read.

A wait (the built-in ``sleep``, SPEC 17 "Waiting") writes the scope :data:`WAIT`, which every
other call but the pure ones reads when the program waits: a barrier in its block, whatever the
scopes around it. A node that reads only ``WAIT`` is marked (its children in program order)
only beside a wait, so a fan-out elsewhere in a program that waits stays concurrent.
"""

from __future__ import annotations

from collections.abc import Mapping

from dialectic.registry.waiting import is_sleep
from dialectic.tree.nodes import Block, Invoke, Method, Node
from dialectic.tree.walking import child_list

__all__ = ["WAIT", "BlockPlan", "EffectInfo", "analyze", "effect_children"]

#: the scope the built-in ``sleep`` writes and every other call reads when a program waits: a
#: wait is a barrier of its block, whatever the scopes of the calls around it (SPEC 17)
WAIT = "$wait"

_NONE: frozenset[str] = frozenset()


class BlockPlan:
    """How one block runs its effectful statements (indexes into ``Block.bindings``)."""

    __slots__ = ("key", "run", "chains", "free", "turn", "need", "gates", "body_waits")

    def __init__(self, key: int) -> None:
        self.key = key
        #: the statements the block runs itself, in program order (the synchronous order)
        self.run: list[int] = []
        #: per written scope: groups of statements, in order; a group runs together
        self.chains: list[list[list[int]]] = []
        #: expression statements that touch no written scope: they run, in any order
        self.free: list[int] = []
        #: statements of the chains: read from elsewhere, they wait for their turn
        self.turn: set[int] = set()
        #: statement -> how many chains must reach it before it starts
        self.need: dict[int, int] = {}
        #: lazy statement -> the statements (last writes of the scopes it reads) it waits for
        self.gates: dict[int, tuple[int, ...]] = {}
        #: the block's value reads or writes a scope the block writes: it waits for the chains
        self.body_waits = False


class EffectInfo:
    """What :func:`analyze` found: the nodes with effectful calls and the blocks' plans."""

    __slots__ = ("marked", "blocks", "written")

    def __init__(self) -> None:
        self.marked: set[int] = set()
        self.blocks: dict[int, BlockPlan] = {}
        self.written: set[str] = set()


def effect_children(node: Node) -> list[Node]:
    kids = child_list(node)
    if type(node) is Method and node.fallback is not None:
        kids.append(node.fallback)
    return kids


def analyze(root: Node) -> EffectInfo:
    """The effect plan of a resolved program (iterative: any depth; linear in its size)."""
    info, order = walked(root)
    if not info.written:  # no write or destructive call: only expression statements are ordered
        return statements_only(info, order)
    return summarized(info, order)


def walked(root: Node) -> tuple[EffectInfo, list[tuple[Node, list[Node]]]]:
    """The program's nodes with their children, parents before children, and the scopes its
    calls write (in a new :class:`EffectInfo`)."""
    info = EffectInfo()
    order: list[tuple[Node, list[Node]]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        kids = effect_children(node)
        order.append((node, kids))
        stack.extend(kids)
        if type(node) is Invoke:
            fn = node.fn
            if fn.changes_things:
                info.written.add(fn.effect_scope)
            elif is_sleep(fn):
                info.written.add(WAIT)
    return info, order


def summarized(info: EffectInfo, order: list[tuple[Node, list[Node]]]) -> EffectInfo:
    """:func:`analyze`'s general way: what each node writes and reads of the written scopes,
    children before parents, and each block's plan from its statements'."""
    written = info.written
    waits = WAIT in written
    summary: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
    for node, kids in reversed(order):  # children before parents
        writes: set[str] = set()
        reads: set[str] = set()
        for kid in kids:
            w, r = summary[id(kid)]
            writes |= w
            reads |= r
        if type(node) is Invoke:
            fn = node.fn
            if fn.changes_things:
                writes.add(fn.effect_scope)
            elif fn.effects == "read" and fn.effect_scope in written:
                reads.add(fn.effect_scope)
            if waits and fn.effects != "pure":  # a wait is a barrier for every call (SPEC 17)
                (writes if is_sleep(fn) else reads).add(WAIT)
        summary[id(node)] = (frozenset(writes) or _NONE, frozenset(reads) or _NONE)
        if writes or (reads and (not waits or len(reads) > 1 or WAIT not in reads)):
            info.marked.add(id(node))
        if waits and WAIT in writes:  # (what only calls runs in order only beside a wait)
            for kid in kids:
                if summary[id(kid)][1]:
                    info.marked.add(id(kid))
        if type(node) is Block:
            plan = _plan(node, summary, len(info.blocks))
            if plan is not None:
                info.blocks[id(node)] = plan
    return info


def statements_only(info: EffectInfo, order: list[tuple[Node, list[Node]]]) -> EffectInfo:
    """:func:`analyze` of a program with no write or destructive call: nothing reads or writes
    a written scope, so no node is marked, and a block's plan (if it has expression
    statements) runs them, free, in program order: what :func:`summarized` makes of it then
    (``tests/core/test_effect_plans.py`` compares them), without a summary per node."""
    for node, _ in reversed(order):  # children before parents (the plans' keys in order)
        if type(node) is Block:
            free = [i for i, b in enumerate(node.bindings) if b.name.startswith("$")]
            if free:
                plan = BlockPlan(len(info.blocks))
                plan.run = free
                plan.free = list(free)
                info.blocks[id(node)] = plan
    return info


def _plan(
    block: Block, summary: Mapping[int, tuple[frozenset[str], frozenset[str]]], key: int
) -> BlockPlan | None:
    stmts = [summary[id(b.node)] for b in block.bindings]
    local: set[str] = set()
    for w, _ in stmts:
        local |= w
    is_expr = [b.name.startswith("$") for b in block.bindings]
    if not local and not any(is_expr):
        return None
    plan = BlockPlan(key)
    last_write: dict[str, int] = {}
    for i, (w, _) in enumerate(stmts):
        for scope in w:
            last_write[scope] = i
    chains: dict[str, list[list[int]]] = {}
    open_reads: set[str] = set()  # scopes whose last group is reads (the next read joins it)
    for i, (w, r) in enumerate(stmts):
        touches = (w | r) & local
        driven = bool(w) or (is_expr[i] and bool(touches))
        driven = driven or any(i < last_write[scope] for scope in touches)
        if driven:
            plan.run.append(i)
            plan.turn.add(i)
            plan.need[i] = len(touches)
            for scope in sorted(touches):
                groups = chains.setdefault(scope, [])
                if scope in w:
                    groups.append([i])  # a write alone
                    open_reads.discard(scope)
                elif scope in open_reads:
                    groups[-1].append(i)  # reads between two writes: together
                else:
                    groups.append([i])
                    open_reads.add(scope)
        elif is_expr[i]:
            plan.run.append(i)
            plan.free.append(i)
        elif touches:  # a read after the last write of each scope it reads
            plan.gates[i] = tuple(sorted({last_write[scope] for scope in touches}))
    plan.chains = [chains[scope] for scope in sorted(chains)]
    bw, br = summary[id(block.body)]
    plan.body_waits = bool((bw | br) & local)
    return plan
