"""The arguments of a call of a static call graph (:mod:`dialectic.run.dagrun`) found as the
graph runs, from ``AsyncCall.dag_args``: literals, context values, and the values of the tasks
of the aliases (or member reads, nested calls) the call reads. ``AsyncCall.call_async`` awaits
one to three tasks in place itself (``dag_tasks``); these are the other cases."""

from __future__ import annotations

from typing import Any

from dialectic.compiler.callsite import AmbiguousArg
from dialectic.compiler.callsite import _argument as leaving_value
from dialectic.run.compiled import AmbiguityError
from dialectic.run.dagrun import INLINE, LEAVE, SYNC, TASK
from dialectic.run.state import State


def args_now(dag_args: Any, s: State) -> list[Any]:
    """The arguments of a call that reads no task: literals and context values."""
    return [x(s) if kind == SYNC else x for kind, x in dag_args]


async def args_awaited(dag_args: Any, s: State, dag: Any) -> list[Any]:
    """The arguments of a call that reads tasks, an ambiguous one marked (:class:`AmbiguousArg`:
    the call reports every ambiguous argument together, as the lazy way does)."""
    vals: list[Any] = []
    first: list[Any] | None = None  # (the expressions it evaluates itself: first, in order)
    for kind, x in dag_args:
        if kind == INLINE:
            try:
                value = await x[0].call_async(s)
                if x[4] >= 0:  # (an alias: its value to the memo, for a partial result)
                    s.memo[x[4]] = value
                v = value if x[1] is None else leaving_value(s, value, x[1], x[2])
            except AmbiguityError as exc:
                v = AmbiguousArg(exc)
            first = [v] if first is None else [*first, v]
    for kind, x in dag_args:
        if kind == INLINE:
            assert first is not None
            vals.append(first.pop(0))
        elif kind == TASK:
            try:
                vals.append(await dag[x])
            except AmbiguityError as exc:
                vals.append(AmbiguousArg(exc))
        elif kind == LEAVE:
            try:
                vals.append(leaving_value(s, await dag[x[0]], x[1], x[2]))
            except AmbiguityError as exc:
                vals.append(AmbiguousArg(exc))
        elif kind == SYNC:
            vals.append(x(s))
        else:
            vals.append(x)
    return vals
