"""The resolver's operators and conditionals (a mixin of
:class:`dialectic.resolve.resolver.Resolver`, through :class:`.expressions.ExpressionsMixin`):
unary and binary operators, ``&&``/``||``/``??`` and ``? :``, whose right operands and arms
are conditional, and the tests that show an alias is there (SPEC 1.2) or no NaN (SPEC 1.7)
in the branches they guard."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.resolve import build
from dialectic.resolve.maybe import Reads, may_see, present
from dialectic.resolve.maynan import NanState
from dialectic.tree.nodes import (
    AliasRef,
    Cond,
    Lit,
    Node,
    Op,
    Undefined,
)
from dialectic.values.jsops import LOGICAL

if TYPE_CHECKING:
    from dialectic.resolve.blocks import _Scope

__all__ = ["OperatorsMixin"]


#: the operators whose operand is tested (truthy, or its type), and those that compare
_TESTS = frozenset({"!", "typeof"})
_EQUALITY = frozenset({"===", "!==", "==", "!="})


def _count(known: dict[tuple[int, int], int], keys: list[tuple[int, int]] | None, by: int) -> None:
    """Count the tests that show each of ``keys`` (``by``: 1 entering a branch, -1 leaving)."""
    if keys:
        for key in keys:
            n = known.get(key, 0) + by
            if n:
                known[key] = n
            else:
                del known[key]


def _absent(node: Node, op: str) -> bool:
    """Whether ``node`` is what a test for missing data compares with: ``undefined``, or for
    ``==`` and ``!=`` also ``null``."""
    if type(node) is Undefined:
        return True
    return len(op) == 2 and type(node) is Lit and node.value is None


class OperatorsMixin:
    """Operators and conditionals of :class:`~dialectic.resolve.resolver.Resolver` (which sets
    these attributes up)."""

    _conditional: int
    _may_see: Reads
    _present: dict[tuple[int, int], int]
    _candidates: set[tuple[int, int]]
    _nan: NanState
    _cur: _Scope | None

    if TYPE_CHECKING:

        def resolve(self, node: Node) -> Node: ...

        def leaf(self) -> None: ...

    def _Op(self, node: Op) -> Node:
        operands = node.operands
        resolve = self.resolve
        left = operands[0]
        if type(left) is not Lit:
            left = resolve(left)
        elif self._cur is not None:  # a literal resolves to itself (its height counted)
            self.leaf()
        if len(operands) == 1:
            if node.op in _TESTS:  # `!x.b`, `typeof x.b`: `b` may be missing
                left = self._soft(left)
                if node.op == "!":
                    self._nan.tested(left)  # `!parseInt(t)`: NaN is falsy (SPEC 1.7)
            return build.op(node.path, node.op, (left,))
        if node.op in LOGICAL:  # the right operands run only if needed
            return self._logical(node, left)
        if len(operands) == 2:
            second = operands[1]
            if type(second) is not Lit:
                second = resolve(second)
            elif self._cur is not None:
                self.leaf()
            if node.op in _EQUALITY:  # `x.b === undefined`, `x.b != null`
                if _absent(second, node.op):
                    left = self._soft(left)
                elif _absent(left, node.op):
                    second = self._soft(second)
                out = build.op(node.path, node.op, (left, second))
                if type(left) is AliasRef and type(second) is AliasRef:
                    self._nan.same(out)  # `v !== v` (SPEC 1.7)
                return out
            return build.op(node.path, node.op, (left, second))
        return build.op(node.path, node.op, (left, *[resolve(r) for r in operands[1:]]))

    def _logical(self, node: Op, left: Node) -> Node:
        """``&&``, ``||``, ``??`` (``left`` resolved): the right operands run only if needed."""
        # `x.b ?? d`, `x.b || d`, `x.b && ...`: `b` may be missing (SPEC 1.2)
        left = self._soft(left)
        there = None
        if self._may_see and node.op != "??":  # (only a tested alias may be shown there)
            there = present(left, node.op == "&&")
        nan = self._nan
        if node.op == "||":
            nan.tested(left)  # `parseFloat(t) || 0`: NaN is falsy (SPEC 1.7)
        nan_there = nan.showing(left, node.op == "&&") if nan.reads and node.op != "??" else None
        self._conditional += 1
        try:
            if there or nan_there:
                right = [self._branch(there, r, nan_there) for r in node.operands[1:]]
            else:
                right = [self.resolve(r) for r in node.operands[1:]]
        finally:
            self._conditional -= 1
        if node.op == "||":
            for r in right[:-1]:
                nan.tested(r)
        return build.op(node.path, node.op, (left, *right))

    def _Cond(self, node: Cond) -> Node:
        test = self._soft(self.resolve(node.test))  # `x.b ? ... : ...`: `b` may be missing
        nan = self._nan
        nan.tested(test)  # `parseInt(t) ? ... : ...`: NaN is falsy (SPEC 1.7)
        self._conditional += 1
        try:
            # (only an alias tested somewhere may be shown there)
            there = present(test, True) if self._may_see else None
            shown = nan.showing(test, True) if nan.reads else None
            then = (
                self._branch(there, node.then, shown) if there or shown else self.resolve(node.then)
            )
            there = present(test, False) if self._may_see else None
            shown = nan.showing(test, False) if nan.reads else None
            otherwise = (
                self._branch(there, node.otherwise, shown)
                if there or shown
                else self.resolve(node.otherwise)
            )
        finally:
            self._conditional -= 1
        return build.cond(node.path, test, then, otherwise)

    def _soft(self, node: Node) -> Node:
        """``node`` in a tested position (SPEC 1.2): a member access whose last key may be
        missing (``build.soften``); a read of an alias that may then see undefined; what a
        logical operator or a conditional may give, its last operand (`x.a ?? x.b ?? d`: `b`
        too) or its branches, likewise."""
        t = type(node)
        if t is AliasRef:
            may_see(self._may_see, self._candidates, node)
            return node
        if t is Op:
            op: Any = node
            if op.op in LOGICAL:
                last = op.operands[-1]
                soft = self._soft(last)
                if soft is not last:
                    return build.op(op.path, op.op, (*op.operands[:-1], soft))
            return node
        if t is Cond:
            c: Any = node
            then, otherwise = self._soft(c.then), self._soft(c.otherwise)
            if then is not c.then or otherwise is not c.otherwise:
                return build.cond(c.path, c.test, then, otherwise)
            return node
        return build.soften(node)

    def _branch(
        self,
        there: list[tuple[int, int]] | None,
        node: Node,
        no_nan: list[tuple[int, int]] | None = None,
    ) -> Node:
        """``node`` resolved where the aliases ``there`` are known to be there (a branch
        whose test showed it: SPEC 1.2), and those ``no_nan`` known to be no NaN (SPEC 1.7)."""
        known, shown = self._present, self._nan.shown
        _count(known, there, 1)
        _count(shown, no_nan, 1)
        try:
            return self.resolve(node)
        finally:
            _count(known, there, -1)
            _count(shown, no_nan, -1)
