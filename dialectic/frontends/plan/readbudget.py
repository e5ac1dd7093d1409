"""The Plan parser's bounds while it reads (:mod:`dialectic.frontends.budget`): the nodes of
the program's statements, counted as each is read, and the run's deadline.

Each statement of the program's block leaves its trees in the block's aliases (and the final
``return``'s value): once read, each is counted once (a tree moved to another name, the same
object, is not counted again) and the sum checked against ``max_nodes``. The trees stay in the
program's tree (the aliases are its ``$let``/``$do``), so the sum is a lower bound of its size:
a program refused here would be refused by the tree's own check, only later. A statement of
another block (a function's body, a branch) is counted with the statement of the program that
holds it; the clock is looked at for each statement of any block."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.budget import Clock, count_nodes, deadline_message, nodes_message
from dialectic.frontends.plan.base import ParseFailure, ParserBase

__all__ = ["ReadBudgetMixin"]


class ReadBudgetMixin(ParserBase):
    """Counting the nodes of the statements read, and the clock."""

    #: the run's deadline while reading, and its `max_nodes` counted per statement (None: not
    #: bounded), set by :func:`.parse_plan`
    clock: Clock | None = None
    read_limit: int | None = None
    #: the nodes of the program's statements read so far
    read_nodes: int = 0
    _counted_trees: set[int] | None = None

    def on_time(self, pos: int) -> None:
        """Fail (``deadline``) when the reading has taken longer than the run's deadline
        (looked at every few statements: :meth:`.Clock.tick`)."""
        clock = self.clock
        if clock is not None and clock.tick():
            self.past_deadline(pos)

    def past_deadline(self, pos: int) -> None:
        clock = self.clock
        assert clock is not None
        message, hint = deadline_message(clock.deadline)
        at = self.starts[min(pos, len(self.kinds) - 1)]
        raise ParseFailure(message, at, hint, fatal=True, limit="deadline")

    def many_items(self, count: int, pos: int) -> None:
        """Fail (``max_nodes``) when an array or object literal has more items than the
        limit has nodes (each item is one at least)."""
        limit = self.read_limit
        if limit is not None and count > limit:
            message, hint = nodes_message(limit)
            raise ParseFailure(
                message.replace("statement", "item"),
                self.starts[pos],
                hint,
                fatal=True,
                limit="max_nodes",
            )

    def count_read(
        self,
        pos: int,
        aliases: dict[str, Any],
        added: list[tuple[str, int, int, int, int]],
        final: Any,
    ) -> None:
        """Count the trees the statement at token ``pos`` left: those of the aliases it
        ``added`` (its block's records past those before it) and the final statement's value
        ``final`` (a ``(key, value, first, last)`` or None); fail (``max_nodes``) past the
        limit. A tree counted before, also inside this one, counts nothing again."""
        limit = self.read_limit
        if limit is None:
            return
        counted = self._counted_trees
        if counted is None:
            counted = self._counted_trees = set()
        total = self.read_nodes
        skip = self.functions or ()  # (a use of one counts nothing: :func:`.count_nodes`)
        trees = [aliases.get(entry[0]) for entry in added]
        if final is not None:
            trees.append(final[1])
        for tree in trees:
            if tree is None or id(tree) in counted:
                continue
            total += count_nodes(tree, limit - total, skip, counted)
            counted.add(id(tree))
            self.keep.append(tree)  # (its id stays its own while it is counted)
            if total > limit:
                message, hint = nodes_message(limit)
                raise ParseFailure(message, self.starts[pos], hint, fatal=True, limit="max_nodes")
        self.read_nodes = total
