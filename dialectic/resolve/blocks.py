"""The resolver's blocks of aliases (``$let``, ``$do``): a memo slot per alias, the aliases each
one reads, the dependency order, cycles, and each alias's depth (the nesting levels its
evaluation may recurse through). A mixin of :class:`dialectic.resolve.resolver.Resolver`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dialectic.outcome.errors import DialecticError
from dialectic.resolve.build import binding, block
from dialectic.resolve.maybe import Reads, settle
from dialectic.resolve.maynan import NanState, producer
from dialectic.tree.nodes import Get, Global, Let, Node, Op

if TYPE_CHECKING:
    from dialectic.resolve.expressions import _Params

__all__ = ["BlocksMixin"]


class _Scope:
    """The aliases of one block being resolved: name -> slot, and the aliases each binding
    reads directly (filled while its expression is resolved)."""

    __slots__ = (
        "slots", "frame", "reading", "start", "cond_base", "deps", "always", "top", "exprs"
    )  # fmt: skip

    def __init__(self, slots: dict[str, int], frame: int = -1) -> None:
        self.slots = slots
        #: -1: the slots are the run's memo; else the arrow function (by nesting index) whose
        #: application holds them
        self.frame = frame
        #: the binding whose expression is being resolved (None: the block's body), and the
        #: resolver's nesting level where that expression starts
        self.reading: str | None = None
        self.start = 0
        self.cond_base = 0
        #: alias -> {alias it reads: deepest nesting of such a read inside the expression}
        #: (made when the alias is first read by another)
        self.deps: dict[str, dict[str, int]] = {}
        #: alias -> the aliases it reads whatever the data (not under a condition)
        self.always: dict[str, set[str]] = {}
        #: the nesting levels of the expression being read so far (its height)
        self.top = 0
        #: alias -> its resolved expression (filled as each is resolved)
        self.exprs: dict[str, Node] = {}


class BlocksMixin:
    """Blocks of :class:`~dialectic.resolve.resolver.Resolver` (which sets these attributes
    up)."""

    memo_size: int
    ordered: int
    alias_names: set[str]
    _level: int
    _reading: int
    _cur: _Scope | None
    _conditional: int
    _arrow_count: int
    _arrow_locals: list[int]
    _env: list[_Scope | _Params]
    _may_see: Reads
    _candidates: set[tuple[int, int]]
    _nan: NanState
    ref_counts: dict[str, int]

    if TYPE_CHECKING:

        def resolve(self, node: Node) -> Node: ...

    def _Let(self, node: Let) -> Node:
        return self._block(node, top=False)

    def _block(self, node: Let, top: bool) -> Node:
        if node.mode == "use" and not top:
            raise DialecticError(
                "invalid_program", "$use is allowed only at the top of a program", node.path
            )
        given = node.bindings
        if not given:  # `return x;`: no aliases (and no nesting measured below this block)
            outer = self._cur
            if outer is None:
                return block(node.path, (), self.resolve(node.body), node.mode)
            self._cur = None
            try:
                return block(node.path, (), self.resolve(node.body), node.mode)
            finally:
                self._cur = outer
        frame = self._arrow_count - 1  # -1: not inside an arrow function
        if frame < 0:
            first = self.memo_size
            self.memo_size = first + len(given)
        else:  # an alias of an arrow's body: one slot per application
            first = self._arrow_locals[-1]
            self._arrow_locals[-1] = first + len(given)
        slots: dict[str, int] = {}
        counts = self.ref_counts
        #: the aliases whose value is a read that may miss, and how often each was read before
        #: the block (SPEC 1.2: :mod:`dialectic.resolve.maybe`)
        before: dict[str, int] | None = None
        #: likewise, the aliases whose value may be NaN (SPEC 1.7: :mod:`.maynan`)
        nan_before: dict[str, int] | None = None
        for name, expr in given.items():
            slots[name] = first
            if type(expr) is Get:
                if before is None:
                    before = {}
                before[name] = counts.get(name, 0)
                self._candidates.add((frame, first))
            elif (type(expr) is Global or type(expr) is Op) and producer(expr):
                if nan_before is None:
                    nan_before = {}
                nan_before[name] = counts.get(name, 0)
                self._nan.candidates.add((frame, first))
            first += 1
            if name.startswith("$"):
                self.ordered += 1  # an expression statement (SPEC 17)
            else:
                self.alias_names.add(name)
        scope = _Scope(slots, frame)
        env = self._env
        env.append(scope)
        outer = self._cur
        heights: dict[str, int] = {}
        try:
            exprs = scope.exprs
            scope.start = self._level
            scope.cond_base = self._conditional
            resolve = self.resolve
            self._reading += 1
            nan = self._nan
            for name, expr in given.items():
                scope.reading = name
                scope.top = 0
                self._cur = scope
                exprs[name] = resolve(expr)
                heights[name] = scope.top
                if nan.candidates:  # `const ok = !isNaN(v);` (SPEC 1.7)
                    nan.test_alias((frame, slots[name]), exprs[name])
            scope.reading = None
            self._reading -= 1
            self._cur = None
            body = resolve(node.body)
        finally:
            env.pop()
            if scope.reading is not None:
                self._reading -= 1
            self._cur = outer
        if before is not None:  # `const first = xs[0];` read only where tested (SPEC 1.2)
            if self._may_see:
                settle(slots, frame, before, counts, exprs, self._may_see)
            for name in before:
                self._candidates.discard((frame, slots[name]))
        if nan_before is not None:  # `const v = parseInt(t);` read only where tested
            self._nan.settle(slots, frame, nan_before, counts, exprs)
        if self._nan.tests:
            for name in given:
                self._nan.tests.pop((frame, slots[name]), None)
        deps = scope.deps
        always = scope.always
        if not deps:  # no alias reads another: they are in dependency order already
            return block(
                node.path,
                tuple([binding(n, slots[n], exprs[n], (), heights[n], frame) for n in given]),
                body,
                node.mode,
            )
        order = list(given) if _reads_back(slots, deps) else _dependency_order(node, deps)
        # an alias's depth: the nesting levels its evaluation may recurse through, its own
        # expression's and, through each alias it reads, that one's (the compiler evaluates
        # the aliases under a deep one first, so no alias chain can exhaust Python's stack)
        depth: dict[str, int] = {}
        bindings = []
        for name in order:
            height = heights[name]
            read = deps.get(name)
            if read:
                for d, lv in read.items():
                    if lv + depth[d] > height:
                        height = lv + depth[d]
            depth[name] = height
            used = always.get(name)
            dep_slots = tuple(sorted([slots[d] for d in used])) if used else ()
            bindings.append(binding(name, slots[name], exprs[name], dep_slots, height, frame))
        return block(node.path, tuple(bindings), body, node.mode)


def _reads_back(slots: dict[str, int], deps: dict[str, dict[str, int]]) -> bool:
    """Whether every alias reads only aliases written before it (then the program's order is
    the dependency order: :func:`_dependency_order` would return it)."""
    for name, read in deps.items():
        mine = slots[name]
        for d in read:
            if slots[d] >= mine:
                return False
    return True


def _dependency_order(node: Let, deps: dict[str, dict[str, int]]) -> list[str]:
    """Aliases in dependency order; a cycle is an error naming it (a -> b -> a)."""
    order: list[str] = []
    state: dict[str, int] = {}  # 1 visiting, 2 done
    for start in node.bindings:
        if state.get(start) == 2:
            continue
        stack: list[tuple[str, list[str]]] = [(start, sorted(deps.get(start, ())))]
        trail = [start]
        state[start] = 1
        while stack:
            name, todo = stack[-1]
            if todo:
                nxt = todo.pop(0)
                st = state.get(nxt)
                if st == 1:
                    cycle = [*trail[trail.index(nxt) :], nxt]
                    raise DialecticError(
                        "cycle",
                        "the aliases depend on each other in a cycle: " + " -> ".join(cycle),
                        node.bindings[cycle[0]].path,
                        hint="An alias cannot use its own value, directly or through others.",
                        details={"cycle": cycle},
                    )
                if st is None:
                    state[nxt] = 1
                    stack.append((nxt, sorted(deps.get(nxt, ()))))
                    trail.append(nxt)
            else:
                stack.pop()
                trail.pop()
                state[name] = 2
                order.append(name)
    return order
