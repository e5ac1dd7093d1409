"""``{"$while": [state, test, step]}`` compiled (SPEC 1.2): from the state, while the test
applied to it is truthy, the step applied to it gives the next state; the value is the last
state. Synchronous when the state, the test and the step are; otherwise one iteration after the
one before (a step's calls run in order, each iteration's after the last one's). Every test and
every step counts against ``Limits.max_steps``, so a loop that never ends stops there (and at
the deadline), never hangs.

A step whose changes of its state's arrays and objects may be made in place
(:mod:`dialectic.resolve.foldstate`, ``owns``) is applied in an :class:`Owner` frame that
carries, from iteration to iteration, the values the loop made itself (as a ``reduce`` does:
:mod:`dialectic.compiler.accumulate`); the copies its changes still make count against
``max_steps``."""

from __future__ import annotations

from typing import Any

from dialectic.compiler.accumulate import COPY_STEP, Owner, owned_step
from dialectic.compiler.arrows import FRAME, Arrow, Steps
from dialectic.run.evaluator import Compiled, State
from dialectic.values.jsops import truthy

__all__ = ["while_loop"]


def while_loop(init: Compiled, test: Arrow, step: Arrow, steps: Steps, owns: bool) -> Compiled:
    """The compiled loop (``steps``: the run's budget, located at the loop; ``owns``: the step
    changes the arrays and objects the loop made in place)."""
    isync, tsync, ssync = init.sync, test.body.sync, step.body.sync
    if owns:
        return _owning(init, test, step, steps)
    if isync is not None and tsync is not None and ssync is not None:
        tapply, sapply = test.apply, step.apply

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


def _owning(init: Compiled, test: Arrow, step: Arrow, steps: Steps) -> Compiled:
    """:func:`while_loop` for a step that changes what the loop made in place: each step in an
    :class:`Owner` frame sharing the loop's ``fields``."""
    isync, tsync, ssync = init.sync, test.body.sync, step.body.sync
    size = step.locals
    if isync is not None and tsync is not None and ssync is not None:
        tapply = test.apply

        def run(s: State) -> Any:
            state = isync(s)
            fields: dict[str, Any] = {}
            while True:
                steps.take(s, 1)
                if not truthy(tapply(s, (state,))):
                    return state
                steps.take(s, 1)
                state, _ = owned_step(ssync, s, (state,), size, None, fields, steps)

        return Compiled(sync=run)

    async def arun(s: State) -> Any:
        state = isync(s) if isync is not None else await init.aio(s)  # type: ignore[misc]
        fields: dict[str, Any] = {}
        body = step.body
        while True:
            steps.take(s, 1)
            if not truthy(await test.aapply(s, (state,))):
                return state
            steps.take(s, 1)
            frame = Owner((state,), size, None, fields)
            token = FRAME.set((*FRAME.get(), frame))
            try:
                state = body.sync(s) if body.sync is not None else await body.aio(s)  # type: ignore[misc]
            finally:
                FRAME.reset(token)
            if frame.copied >= COPY_STEP:
                steps.take(s, frame.copied // COPY_STEP)

    return Compiled(aio=arun)
