"""Per block of statements, what its loops ask of it (SPEC 10, "Loops"): where each name is
defined, the names its statements read, and the accumulators that are a loop's result. Used by
:mod:`.loopcheck` and the checks of a change in place."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.loopbuild import free_names, scan_reads

if TYPE_CHECKING:
    from dialectic.frontends.plan.loopchanges import LoopChangesMixin

__all__ = ["BlockState"]


class BlockState:
    """Per block (its statement list ``alias_rec``, kept so that its id stays unique): where each
    name is defined, the names its statements read (found once, when a loop first asks), and
    the accumulators that are a loop's result."""

    __slots__ = (
        "alias_rec",
        "index",
        "indexed",
        "scanned",
        "read_at",
        "finals",
        "held_scan",
        "returned",
    )

    def __init__(self, alias_rec: list[tuple[str, int, int, int, int]]) -> None:
        self.alias_rec = alias_rec
        self.index: dict[str, int] = {}
        self.indexed = 0
        self.scanned = 0
        #: name -> the last statement (index) that reads it
        self.read_at: dict[str, int] = {}
        #: accumulator -> (kind, declared with `let`)
        self.finals: dict[str, tuple[str, bool]] = {}
        #: how many statements :meth:`held` has read, and the names they read whole
        self.held_scan: tuple[int, set[str]] = (0, set())
        #: ids of the values the block's loops return (:mod:`.loopreturn`) and of its reads
        #: into a block that returns or ends it (:mod:`.restblock`): nothing of the block
        #: runs after them, so they hold what they read as a copy would
        self.returned: set[int] = set()

    def index_of(self, name: str) -> int | None:
        rec = self.alias_rec
        while self.indexed < len(rec):
            self.index[rec[self.indexed][0]] = self.indexed
            self.indexed += 1
        return self.index.get(name)

    def held(self, aliases: dict[str, Any], name: str) -> bool:
        """Whether a statement so far reads ``name`` whole (holds the array or object itself:
        JavaScript's reads through it would see a later loop's changes). Each statement is
        read once."""
        rec = self.alias_rec
        done, whole = self.held_scan
        while done < len(rec):
            tree = aliases.get(rec[done][0])
            if tree is not None:
                whole |= scan_reads(tree, skip=self.returned)[1]
            done += 1
        self.held_scan = (done, whole)
        return name in whole

    def reads(self, aliases: dict[str, Any]) -> dict[str, int]:
        """Name -> the last statement so far that reads it (each statement read once)."""
        rec = self.alias_rec
        while self.scanned < len(rec):
            for name in free_names(aliases[rec[self.scanned][0]]):
                self.read_at[name] = self.scanned
            self.scanned += 1
        return self.read_at

    def rename(self, parser: LoopChangesMixin, aliases: dict[str, Any], name: str) -> str:
        """Give the definition of ``name`` (its value before the loop) a hidden name."""
        idx = self.index_of(name)
        assert idx is not None
        hidden = parser.fresh(f"_{name}")
        parser.block_reads().renamed_record(self.alias_rec, idx, hidden)  # (and filed so)
        aliases[hidden] = aliases.pop(name)
        del self.index[name]
        self.index[hidden] = idx
        return hidden
