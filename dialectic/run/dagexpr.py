"""A synchronous expression of a static call graph (:mod:`dialectic.compiler.dagexprs`): a task
of the graph that awaits the tasks it reads, then evaluates the expression at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.run.compiled import AmbiguityError, Compiled, merge_in_order
from dialectic.run.state import State


class ExprRead:
    """An expression over calls of the graph (``d + 1``, ``user.name``, ``[f(x), g(y)]``): its
    tasks awaited in the order they are written, then ``fn`` (the expression compiled with each
    of them read from its done task: :func:`leaf_reader`). An ambiguous one does not stop the
    others; their ambiguities are the expression's, in that order, as the lazy way's are. A
    failure here is the graph's (it stops the other calls)."""

    __slots__ = ("fn", "dag_args")

    def __init__(self) -> None:
        self.fn: Callable[[State], Any] = _unset
        #: ((TASK, index of a task it reads), ...), set once the graph's tasks are numbered
        self.dag_args: tuple[tuple[int, Any], ...] = ()

    async def call_async(self, s: State) -> Any:
        tasks = s.dag
        try:
            found: list[tuple[int, AmbiguityError]] | None = None
            for i, (_, k) in enumerate(self.dag_args):
                try:
                    await tasks[k]
                except AmbiguityError as exc:
                    if found is None:
                        found = [(i, exc)]
                    else:
                        found.append((i, exc))
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


def _unset(s: State) -> Any:
    raise AssertionError("an expression of a static call graph run before it was compiled")
