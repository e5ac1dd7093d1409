"""What the aliases of a block read, for the statements that change a value in place (a member
set, :mod:`.members`; a Map's or Set's change, :mod:`.collections`; a sort, :mod:`.reorder`):
is the value read whole elsewhere, and which reads are of the version before the change.

Each alias's value is scanned once (cached by identity: a value is a new tree when an alias
gets a new version), and the block's answers are kept by the name read (which aliases read it
whole, its ``$ref`` nodes in each alias), brought up to date from the names the block set since
it was last asked (:class:`.aliasdict.Aliases`): a block of ``n`` such statements costs time
proportional to its size, not ``n`` passes over its aliases (10,000 member sets, each making a
hidden version, took minutes, and were refused past about 1,400).

A change renames reads only from its own name to a hidden one, and only reads that are not
whole (a whole read refuses the change), so a cached answer to "which names does this tree read
whole" stays right; a node renamed since its tree was scanned stays filed under its old name,
is skipped there and then dropped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.aliasdict import Aliases
from dialectic.frontends.plan.base import ParseFailure
from dialectic.frontends.plan.loopbuild import scan_reads

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["BUDGET", "BlockReads"]

#: aliases looked at over a whole parse for blocks whose aliases are a plain dict (not
#: :class:`.aliasdict.Aliases`: none of the parser's own blocks) before the program is refused
BUDGET = 1_000_000

#: a scanned alias value: the tree (kept, so that its id stays its own), the names it reads
#: whole, its `$ref` nodes by the name each read when it was scanned
_Scan = tuple[Any, frozenset[str], dict[str, list[dict[str, Any]]]]


class _Index:
    """One block's answers by the name read, as of ``seen`` of its changed names."""

    __slots__ = ("held", "holder", "refs", "seen", "trees", "whole")

    def __init__(self) -> None:
        self.seen = 0
        self.trees: dict[str, Any] = {}  # alias -> the tree indexed for it
        self.whole: dict[str, dict[str, None]] = {}  # name -> the aliases reading it whole
        self.refs: dict[str, dict[str, list[dict[str, Any]]]] = {}  # name -> alias -> nodes
        self.held: dict[str, list[dict[str, Any]]] | None = None  # alias -> iterators kept
        self.holder: Callable[[Any], list[dict[str, Any]]] | None = None  # (what finds them)


class BlockReads:
    """The cache of one parse (its blocks' aliases, by the identity of their values)."""

    __slots__ = ("_indexes", "_iterators", "_records", "_scans", "_work")

    def __init__(self) -> None:
        self._scans: dict[int, _Scan] = {}
        self._iterators: dict[int, tuple[Any, list[dict[str, Any]]]] = {}
        self._indexes: dict[int, tuple[Aliases, _Index]] = {}
        #: a block's records (name first): the list, how many are filed, where each name's are
        self._records: dict[int, tuple[list[Any], list[int], dict[str, list[int]]]] = {}
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

    def _held(self, tree: Any, held: Callable[[Any], list[dict[str, Any]]]) -> list[Any]:
        found = self._iterators.get(id(tree))
        if found is None or found[0] is not tree:
            found = self._iterators[id(tree)] = (tree, held(tree))
        return found[1]

    def _index(
        self, aliases: Aliases, held: Callable[[Any], list[dict[str, Any]]] | None = None
    ) -> _Index:
        """The block's index, brought up to date (``held``: with the iterators kept)."""
        found = self._indexes.get(id(aliases))
        if found is None or found[0] is not aliases:
            index = _Index()
            self._indexes[id(aliases)] = (aliases, index)
        else:
            index = found[1]
        if held is not None and index.held is None:  # (first asked: every alias's)
            index.held, index.holder = {}, held
            for other, tree in index.trees.items():
                if kept := self._held(tree, held):
                    index.held[other] = kept
        changed = aliases.changed
        for at in range(index.seen, len(changed)):
            other = changed[at]
            tree = aliases.get(other, _GONE)
            before = index.trees.get(other, _GONE)
            if tree is before:
                continue
            if before is not _GONE:
                self._forget(index, other, before)
            if tree is not _GONE:
                self._add(index, other, tree)
        index.seen = len(changed)
        return index

    def _forget(self, index: _Index, other: str, tree: Any) -> None:
        _, whole, by_name = self._scan(tree)
        for name in whole:
            index.whole[name].pop(other, None)
        for name in by_name:
            index.refs[name].pop(other, None)
        if index.held is not None:
            index.held.pop(other, None)
        del index.trees[other]

    def _add(self, index: _Index, other: str, tree: Any) -> None:
        _, whole, by_name = self._scan(tree)
        for name in whole:
            index.whole.setdefault(name, {})[other] = None
        for name, nodes in by_name.items():
            index.refs.setdefault(name, {})[other] = list(nodes)
        holder = index.holder
        if index.held is not None and holder is not None and (kept := self._held(tree, holder)):
            index.held[other] = kept
        index.trees[other] = tree

    def _charge(self, n: int, offset: int) -> None:
        self._work += n
        if self._work > BUDGET:
            raise ParseFailure(
                "the program changes values in place too many times for its size (each "
                f"change looks at the block's other definitions; {BUDGET:,} looked at in all "
                "is the reader's bound)",
                offset,
                "build the values at once (`const o = {a: ..., b: ...};`, `xs.map(...)`), or "
                "change them in a loop",
                fatal=True,
            )

    def whole_reader(self, aliases: dict[str, Any], name: str, offset: int) -> str | None:
        """An alias other than ``name`` that reads ``name`` whole (None: none)."""
        if type(aliases) is Aliases:
            readers = self._index(aliases).whole.get(name)
            if not readers or (len(readers) == 1 and name in readers):
                return None
            return next(other for other in aliases if other in readers and other != name)
        self._charge(len(aliases), offset)
        for other, tree in aliases.items():
            if name in self._scan(tree)[1] and other != name:
                return other
        return None

    def reads_of(self, aliases: dict[str, Any], name: str, offset: int) -> list[dict[str, Any]]:
        """The ``$ref`` nodes of ``name`` in the aliases other than ``name`` (a node renamed
        since its tree was scanned is filed under its old name, and skipped there)."""
        out: list[dict[str, Any]] = []
        if type(aliases) is Aliases:
            by_alias = self._index(aliases).refs.get(name)
            if by_alias:
                for other, nodes in by_alias.items():
                    nodes[:] = [n for n in nodes if n["$ref"] == name]  # (renamed: dropped)
                    if other != name:
                        out.extend(nodes)
            return out
        self._charge(len(aliases), offset)
        for other, tree in aliases.items():
            filed = self._scan(tree)[2].get(name)
            if filed and other != name:
                out.extend(n for n in filed if n["$ref"] == name)
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
        out: list[dict[str, Any]] = []
        if type(aliases) is Aliases:
            kept = self._index(aliases, held).held
            assert kept is not None
            self._charge(len(kept), offset)  # (aliases that keep an iterator)
            for other, receivers in kept.items():
                if other != name:
                    out.extend(receivers)
            return out
        self._charge(len(aliases), offset)
        for other, tree in aliases.items():
            if other != name:
                out.extend(self._held(tree, held))
        return out

    def _filed(self, records: list[Any]) -> dict[str, list[int]]:
        """Where each name's records are in ``records`` (a block's ``alias_rec``), filed once
        each (records are only added at the end, or renamed by :meth:`rename_records`)."""
        found = self._records.get(id(records))
        if found is None or found[0] is not records or found[1][0] > len(records):
            found = self._records[id(records)] = (records, [0], {})
        _, filed, where = found
        for i in range(filed[0], len(records)):
            where.setdefault(records[i][0], []).append(i)
        filed[0] = len(records)
        return where

    def rename_records(self, records: list[Any], name: str, hidden: str) -> None:
        """Each record of ``name`` in ``records`` as ``hidden``'s."""
        where = self._filed(records)
        moved = [i for i in where.pop(name, ()) if records[i][0] == name]
        for i in moved:
            records[i] = (hidden, *records[i][1:])
        if moved:
            where.setdefault(hidden, []).extend(moved)

    def renamed_record(self, records: list[Any], i: int, hidden: str) -> None:
        """Record ``i`` of ``records`` renamed ``hidden`` (by :mod:`.loopcheck`)."""
        records[i] = (hidden, *records[i][1:])
        found = self._records.get(id(records))
        if found is not None and found[0] is records and i < found[1][0]:
            found[2].setdefault(hidden, []).append(i)


#: an alias not in the block (or not yet indexed)
_GONE: Any = object()
