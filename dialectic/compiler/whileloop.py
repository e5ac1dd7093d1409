"""``{"$while": [state, test, step]}`` compiled (SPEC 1.2): from the state, while the test
applied to it is truthy, the step applied to it gives the next state; the value is the last
state. Synchronous when the state, the test and the step are; otherwise one iteration after the
one before (a step's calls run in order, each iteration's after the last one's). Every test and
every step counts against ``Limits.max_steps``, so a loop that never ends stops there (and at
the deadline), never hangs.

A step that changes the state's arrays, objects or a Map's lists in place (marked by the
resolver, :mod:`dialectic.resolve.foldstate`, as a ``reduce`` step is) runs in an
:class:`~dialectic.compiler.accumulate.Owner` frame carried from iteration to iteration, so
the loop is linear in its iterations (synchronous loops; one that awaits copies)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.compiler.accumulate import owned_step
from dialectic.compiler.arrows import Arrow, Steps
from dialectic.run.evaluator import Compiled, State
from dialectic.values.jsops import truthy

__all__ = ["while_loop"]


def while_loop(init: Compiled, test: Arrow, step: Arrow, steps: Steps) -> Compiled:
    """The compiled loop (``steps``: the run's budget, located at the loop)."""
    isync, tsync, ssync = init.sync, test.body.sync, step.body.sync
    if isync is not None and tsync is not None and ssync is not None:
        tapply, sapply = test.apply, step.apply
        if step.owns:
            return Compiled(sync=_owned_loop(isync, tapply, ssync, step.locals, steps))

        def run(s: State) -> Any:
            state = isync(s)
            while True:
                steps.take(s, 1)
                if not truthy(tapply(s, (state,))):
                    return state
                steps.take(s, 1)
                state = sapply(s, (state,))

        return Compiled(sync=run)

    async def arun(s: State) -> Any:
        state = isync(s) if isync is not None else await init.aio(s)  # type: ignore[misc]
        while True:
            steps.take(s, 1)
            if not truthy(await test.aapply(s, (state,))):
                return state
            steps.take(s, 1)
            state = await step.aapply(s, (state,))

    return Compiled(aio=arun)


def _owned_loop(
    isync: Callable[[State], Any],
    tapply: Callable[[State, tuple[Any, ...]], Any],
    ssync: Callable[[State], Any],
    size: int,
    steps: Steps,
) -> Callable[[State], Any]:
    """The synchronous loop whose step changes what it made in place (the module)."""

    def run(s: State) -> Any:
        state = isync(s)
        owned = None
        fields: dict[str, Any] = {}
        while True:
            steps.take(s, 1)
            if not truthy(tapply(s, (state,))):
                return state
            steps.take(s, 1)
            state, owned = owned_step(ssync, s, (state,), size, owned, fields, steps)

    return run
