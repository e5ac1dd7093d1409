"""A synchronous expression of a static call graph (:mod:`dialectic.compiler.dagexprs`): a task
of the graph that awaits the tasks it reads, then evaluates the expression at once; or the same
evaluated in its only reader's task (:data:`~dialectic.run.dagrun.INLINE`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.run.compiled import AmbiguityError, Compiled, merge_in_order
from dialectic.run.dagrun import INLINE
from dialectic.run.state import State


class ExprRead:
    """An expression over calls of the graph (``d + 1``, ``user.name``, ``[f(x), g(y)]``): the
    expressions it reads that it evaluates itself first (INLINE), then its tasks awaited, in the
    order they are written, then ``fn`` (the expression compiled with each of them read from
    its done task or the inline value: :func:`leaf_reader`, :func:`inline_reader`). An
    ambiguous one does not stop the others; their ambiguities are the expression's, in that
    order, as the lazy way's are. A failure here is the graph's (it stops the other calls).
    The value of an alias evaluated in its reader's task goes to the memo (a failed run's
    partial result reads it there)."""

    __slots__ = ("fn", "dag_args", "inline_first")

    def __init__(self) -> None:
        self.fn: Callable[[State], Any] = _unset
        #: ((TASK, index of a task it reads) or (INLINE, ...), ...), set once the graph's
        #: tasks are numbered
        self.dag_args: tuple[tuple[int, Any], ...] = ()
        #: whether it evaluates expressions it reads itself
        self.inline_first = False

    async def call_async(self, s: State) -> Any:
        tasks = s.dag
        try:
            found: list[tuple[int, AmbiguityError]] | None = None
            args = self.dag_args
            if self.inline_first:
                for i, (kind, x) in enumerate(args):
                    if kind == INLINE:
                        try:
                            tasks.inline[x[3]] = value = await x[0].call_async(s)
                            if x[4] >= 0:
                                s.memo[x[4]] = value
                        except AmbiguityError as exc:
                            found = [(i, exc)] if found is None else [*found, (i, exc)]
            for i, (kind, k) in enumerate(args):
                if kind == INLINE:
                    continue
                try:
                    await tasks[k]
                except AmbiguityError as exc:
                    found = [(i, exc)] if found is None else [*found, (i, exc)]
            if found is not None:
                raise merge_in_order(found)
            return self.fn(s)
        except Exception as exc:
            tasks.fail(exc)
            raise


def leaf_reader(k: int) -> Compiled:
    """Reads the value of the graph's task ``k`` (done: its expression awaited it)."""

    def read(s: State) -> Any:
        return s.dag[k].result()

    return Compiled(sync=read)


def inline_reader(j: int) -> Compiled:
    """Reads the value of the expression evaluated in its reader's task at index ``j``."""

    def read(s: State) -> Any:
        return s.dag.inline[j]

    return Compiled(sync=read)


def _unset(s: State) -> Any:
    raise AssertionError("an expression of a static call graph run before it was compiled")
