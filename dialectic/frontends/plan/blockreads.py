"""What the aliases of a block read, for the statements that change a value in place (a member
set, :mod:`.members`; a Map's or Set's change, :mod:`.collections`; a sort, :mod:`.reorder`):
is the value read whole elsewhere, and which reads are of the version before the change.

Each alias's value is scanned once (cached by identity: a value is a new tree when an alias
gets a new version), so a block of ``n`` such statements costs ``n`` passes over its aliases'
names, not ``n`` scans of their trees. That is still quadratic in the number of statements, so
the work is bounded (:data:`BUDGET` aliases looked at per parse; beyond it, ``limit_exceeded``).
A change renames reads only from its own name to a hidden one, and only reads that are not
whole (a whole read refuses the change), so a cached answer to "which names does this tree read
whole" stays right.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import ParseFailure
from dialectic.frontends.plan.loopbuild import scan_reads

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["BUDGET", "BlockReads"]

#: aliases looked at over a whole parse before the program is refused as changing values in
#: place too often (about a second of work; 500 changes in a block of 1,000 definitions is
#: half of it)
BUDGET = 1_000_000

#: a scanned alias value: the tree (kept, so that its id stays its own), the names it reads
#: whole, its `$ref` nodes by the name each read when it was scanned
_Scan = tuple[Any, frozenset[str], dict[str, list[dict[str, Any]]]]


class BlockReads:
    """The cache of one parse (its blocks' aliases, by the identity of their values)."""

    __slots__ = ("_iterators", "_scans", "_work")

    def __init__(self) -> None:
        self._scans: dict[int, _Scan] = {}
        self._iterators: dict[int, tuple[Any, list[dict[str, Any]]]] = {}
        self._work = 0

    def _scan(self, tree: Any) -> _Scan:
        found = self._scans.get(id(tree))
        if found is None or found[0] is not tree:
            nodes: list[dict[str, Any]] = []
            whole = frozenset(scan_reads(tree, nodes)[1])
            by_name: dict[str, list[dict[str, Any]]] = {}
            for node in nodes:
                by_name.setdefault(node["$ref"], []).append(node)
            found = self._scans[id(tree)] = (tree, whole, by_name)
        return found

    def _charge(self, n: int, offset: int) -> None:
        self._work += n
        if self._work > BUDGET:
            raise ParseFailure(
                "the program changes values in place too many times for its size (each "
                "change looks at the block's other definitions)",
                offset,
                "build the values at once (`const o = {a: ..., b: ...};`, `xs.map(...)`), or "
                "change them in a loop",
                fatal=True,
                limit="max_nodes",
            )

    def whole_reader(self, aliases: dict[str, Any], name: str, offset: int) -> str | None:
        """An alias other than ``name`` that reads ``name`` whole (None: none)."""
        self._charge(len(aliases), offset)
        scans, scan = self._scans, self._scan
        for other, tree in aliases.items():
            found = scans.get(id(tree))
            if found is None or found[0] is not tree:
                found = scan(tree)
            if name in found[1] and other != name:
                return other
        return None

    def reads_of(self, aliases: dict[str, Any], name: str, offset: int) -> list[dict[str, Any]]:
        """The ``$ref`` nodes of ``name`` in the aliases other than ``name`` (a node renamed
        since its tree was scanned is filed under its old name, and skipped there)."""
        self._charge(len(aliases), offset)
        out: list[dict[str, Any]] = []
        scans, scan = self._scans, self._scan
        for other, tree in aliases.items():
            found = scans.get(id(tree))
            if found is None or found[0] is not tree:
                found = scan(tree)
            nodes = found[2].get(name)
            if nodes and other != name:
                out.extend(n for n in nodes if n["$ref"] == name)
        return out

    def iterators_of(
        self,
        aliases: dict[str, Any],
        name: str,
        offset: int,
        held: Callable[[Any], list[dict[str, Any]]],
    ) -> list[dict[str, Any]]:
        """The receivers of the iterators the aliases other than ``name`` keep (``held``:
        a tree's, :func:`.collections.held_iterators`)."""
        self._charge(len(aliases), offset)
        out: list[dict[str, Any]] = []
        cache = self._iterators
        for other, tree in aliases.items():
            if other != name:
                found = cache.get(id(tree))
                if found is None or found[0] is not tree:
                    found = cache[id(tree)] = (tree, held(tree))
                out.extend(found[1])
        return out
