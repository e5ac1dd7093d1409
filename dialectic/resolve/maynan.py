"""NaN that the program tests for (SPEC 1.7): ``parseInt(t, 10)``, ``parseFloat(t)``,
``Number(t)`` and ``+t`` give JavaScript's NaN where their value is read only by a test for it
(``isNaN(E)``, ``Number.isNaN(E)``, ``isFinite(E)``, ``Number.isFinite(E)``, ``!E``, ``E || d``,
``E ? a : b``), or through ``const v = E;`` whose every read is such a test (``v !== v`` too) or
sits where such a test showed ``v`` is no NaN (``isNaN(v) ? d : v + 1``, the rest of the block
after ``if (isNaN(v)) return d;``, ``!Number.isNaN(v) && v > 3``, ``v ? v * 2 : 0``). Every other
site keeps the refusal (no NaN reaches arithmetic, a comparison, an argument or the result).

The twin of :mod:`dialectic.resolve.maybe` (aliases that may be ``undefined``): per alias (by
``(frame, slot)``) the reads of it that may see NaN, the aliases the enclosing branches' tests
show are no NaN, and at the end of the alias's block the producer of an alias whose every read
is such a read joins the marked sites (``Resolved.nan_sites``, by id), which the compiler
builds with :func:`dialectic.values.jsnan.or_nan`."""

from __future__ import annotations

from typing import Any

from dialectic.resolve.maybe import Reads, may_see
from dialectic.tree.nodes import AliasRef, Cond, Global, Lit, Node, Op
from dialectic.values.jsnan import PRODUCERS, TESTS
from dialectic.values.jsops import LOGICAL

__all__ = ["NanState", "producer"]

_SAME = {"===": True, "==": True, "!==": False, "!=": False}
_COMBINE = frozenset({"!", "&&", "||"})
#: how many aliases of tests, `!`, `&&`, `||` and `? :` a test is followed through
_DEPTH = 8


def producer(node: Node) -> bool:
    """Whether ``node`` is a call whose value may be NaN: ``parseInt(...)``, ``parseFloat(...)``,
    ``Number(x)``, ``+x``."""
    cls = type(node)
    if cls is Global:
        g: Any = node
        return g.name in PRODUCERS and bool(g.args)
    if cls is Op:
        o: Any = node
        return o.op == "+" and len(o.operands) == 1
    return False


def _key(node: Node) -> tuple[int, int] | None:
    if type(node) is AliasRef:
        return (node.frame, node.slot)
    return None


class NanState:
    """The resolver's record of NaN that may be tested for (one per program)."""

    __slots__ = ("candidates", "reads", "shown", "sites", "tests")

    def __init__(self) -> None:
        #: the aliases whose value is a producer's
        self.candidates: set[tuple[int, int]] = set()
        #: per candidate, its reads that may see NaN
        self.reads: Reads = {}
        #: the candidates the enclosing branches' tests show are no NaN (how many tests do)
        self.shown: dict[tuple[int, int], int] = {}
        #: the ids of the producers that give NaN instead of the refusal
        self.sites: set[int] = set()
        #: the aliases whose value is a test (`const ok = !isNaN(v);`, and the flags a loop's
        #: `if (isNaN(k)) continue;` becomes), while their block is resolved
        self.tests: dict[tuple[int, int], Node] = {}

    def tested(self, node: Node) -> None:
        """``node`` is read where NaN reads as in JavaScript (an argument of ``isNaN``, the
        operand of ``!``, a test, the left of ``||``): a producer there gives NaN; a
        candidate's read there may see it; so may what ``&&``, ``||``, ``??`` or ``? :``
        gives there (their last operand, the branches)."""
        cls = type(node)
        if cls is AliasRef:
            may_see(self.reads, self.candidates, node)
            return
        if cls is not Op and cls is not Global and cls is not Cond:
            return
        todo = [node]
        while todo:
            n: Any = todo.pop()
            cls = type(n)
            if cls is AliasRef:
                may_see(self.reads, self.candidates, n)
            elif producer(n):
                self.sites.add(id(n))
            elif cls is Op and n.op in LOGICAL:
                todo.append(n.operands[-1])
            elif cls is Cond:
                todo.append(n.then)
                todo.append(n.otherwise)

    def same(self, op: Node) -> None:
        """``v !== v``, ``v === v``: both reads of one candidate may see NaN."""
        o: Any = op
        if o.op in _SAME and len(o.operands) == 2:
            left, right = o.operands
            key = _key(left)
            if key is not None and key == _key(right):
                self.tested(left)
                self.tested(right)

    def showing(self, node: Node, truthy: bool, depth: int = 0) -> list[tuple[int, int]]:
        """The candidates that are no NaN where the test ``node`` is ``truthy`` (or falsy),
        through at most :data:`_DEPTH` aliases of tests and ``? :`` of ``true``/``false``."""
        cls = type(node)
        if cls is AliasRef:
            a: Any = node
            key = (a.frame, a.slot)
            test = self.tests.get(key)
            if test is not None and depth < _DEPTH:
                return self.showing(test, truthy, depth + 1)
            return [key] if truthy and key in self.reads else []
        if cls is Cond:  # `c ? true : false`, `c ? false : true`
            c: Any = node
            then, otherwise = c.then, c.otherwise
            if type(then) is not Lit or type(otherwise) is not Lit or depth >= _DEPTH:
                return []
            if then.value is True and otherwise.value is False:
                return self.showing(c.test, truthy, depth + 1)
            if then.value is False and otherwise.value is True:
                return self.showing(c.test, not truthy, depth + 1)
            return []
        if cls is Global:
            g: Any = node
            shows = TESTS.get(g.name)
            if shows is None or shows != truthy or len(g.args) != 1:
                return []
            arg = _key(g.args[0])
            return [arg] if arg is not None and arg in self.reads else []
        if cls is not Op:
            return []
        o: Any = node
        operator, operands = o.op, o.operands
        if depth >= _DEPTH:
            return []
        if operator == "!" and len(operands) == 1:
            return self.showing(operands[0], not truthy, depth + 1)
        if (operator == "&&" and truthy) or (operator == "||" and not truthy):
            return [key for part in operands for key in self.showing(part, truthy, depth + 1)]
        if _SAME.get(operator) == truthy and len(operands) == 2:
            first = _key(operands[0])
            if first is not None and first == _key(operands[1]) and first in self.reads:
                return [first]
        return []

    def test_alias(self, key: tuple[int, int], expr: Node) -> None:
        """An alias of the block being resolved, ``expr`` its value: kept if it may be a test
        (only while some candidate is in scope)."""
        e: Any = expr
        cls = type(e)
        if (
            (cls is Op and (e.op in _SAME or e.op in _COMBINE))
            or (cls is Global and e.name in TESTS)
            or cls is Cond
        ):
            self.tests[key] = expr

    def settle(
        self,
        slots: dict[str, int],
        frame: int,
        before: dict[str, int],
        counts: dict[str, int],
        exprs: dict[str, Node],
    ) -> None:
        """At the end of a block: each candidate of it (``before``: how often it was read
        before the block) whose every read may see NaN has its producer marked (a shadowing
        alias's reads count too, as in :func:`dialectic.resolve.maybe.settle`)."""
        for name, earlier in before.items():
            key = (frame, slots[name])
            self.candidates.discard(key)
            seen = self.reads.pop(key, None)
            read = counts.get(name, 0) - earlier
            expr = exprs.get(name)
            if expr is not None and producer(expr) and len(seen or ()) == read:
                self.sites.add(id(expr))
