"""How a run of a :class:`~dialectic.run.prepared.Prepared` program ends: its value, checked
against the output limit, into a success; or the exception it raised into a failure or an
ambiguous outcome (an unexpected exception becomes a located ``internal_error``)."""

from __future__ import annotations

import traceback
from typing import TYPE_CHECKING, Any

import orjson

from dialectic.outcome.errors import DialecticError, LimitExceeded, PluginError
from dialectic.outcome.outcome import Outcome
from dialectic.outcome.report import ambiguous, failure
from dialectic.run.evaluator import AmbiguityError, AsyncSlot, State
from dialectic.values.data import UNDEFINED
from dialectic.values.infinity import InfinityLeaving

if TYPE_CHECKING:
    from dialectic.run.prepared import Prepared


def succeeded(prepared: Prepared, value: Any, state: State) -> Outcome:
    """The success of a run that returned ``value``, or its failure if the value cannot be
    the result (not valid Unicode, not serializable, larger than ``max_output_bytes``)."""
    rt = prepared.runtime
    limit = state.limits.max_output_bytes
    if value is UNDEFINED:
        value = None
    t = type(value)
    if t is list or t is dict or t is float:
        try:
            value = state.defined(value)  # an `undefined` in an array is null (SPEC 1.2)
        except InfinityLeaving as exc:  # (an infinity: JSON has no literal for it, SPEC 5)
            return prepared._fail(exc.error("the result", prepared._result_path), state)
    if t is str:
        try:
            size = len(value.encode())
        except UnicodeEncodeError:
            return prepared._fail(
                DialecticError(
                    "invalid_value",
                    "the result contains a lone surrogate, which is not valid Unicode text",
                ),
                state,
            )
    elif (t is int and -(2**63) <= value < 2**63) or t is float or t is bool or value is None:
        size = 0
    else:
        try:
            dates = rt.serializer.dates
            text = rt.serializer.dumps(value)
            size = len(text)
            if rt.serializer.dates != dates:  # (a Date leaves as its ISO text: SPEC 1.8)
                value = orjson.loads(text)
        except DialecticError as exc:
            if not exc.path:
                exc.path = prepared._result_path
            return prepared._fail(exc, state)
    if size > limit:
        return prepared._fail(
            LimitExceeded(
                "max_output_bytes",
                f"the result is {size} bytes of JSON; the limit is {limit}",
                prepared._result_path,
            ),
            state,
        )
    return Outcome.success(value, prepared._warnings(state), prepared.mode, rt.serializer.data)


#: at most this many exceptions (a run's, its causes and contexts, its memo's) let go of their
#: tracebacks when a run fails (see :func:`untangle`)
_UNTANGLE_AT_MOST = 64


def untangle(exc: BaseException, state: State) -> None:
    """A failed run has become its Outcome: its exceptions let go of their tracebacks.

    The exception a run failed with is also in the memo slot of the alias it came from, and
    its traceback holds the frames it went up through, whose locals hold the run's State,
    whose memo holds the exception: a cycle, so the whole run (its tasks, coroutines, slots,
    frames) was garbage only the cyclic collector could free; a batch that freezes the
    collector's heap now and then (:class:`dialectic.batch.local.Kept`) kept it all until the
    batch ended. Nothing reads these tracebacks once the outcome is built (a debug run's
    traceback text is in it already)."""
    from dialectic.compiler.aliases import _Err

    todo: list[BaseException] = [exc]
    for v in state.memo:
        t = type(v)
        if t is AsyncSlot and v.error is not None:
            todo.append(v.error)
        elif t is _Err:
            todo.append(v.exc)
    seen: set[int] = set()
    while todo and len(seen) < _UNTANGLE_AT_MOST:
        e = todo.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        e.__traceback__ = None
        for nxt in (e.__cause__, e.__context__):
            if nxt is not None:
                todo.append(nxt)
        if isinstance(e, BaseExceptionGroup):
            todo.extend(e.exceptions)


def failed(prepared: Prepared, exc: BaseException, state: State) -> Outcome:
    """The outcome of a run that raised ``exc`` (re-raised if it is not an ``Exception``)."""
    fe = prepared.front
    assert fe is not None
    warnings = prepared._warnings(state)
    if isinstance(exc, AmbiguityError):
        return ambiguous(exc.items, fe, warnings)
    if isinstance(exc, DialecticError):
        return failure([exc], fe, warnings)
    if isinstance(exc, RecursionError):
        return failure(
            [LimitExceeded("max_depth", "the program is nested too deeply to evaluate")],
            fe,
            warnings,
        )
    if isinstance(exc, PluginError):
        return failure([DialecticError("plugin_error", str(exc))], fe, warnings)
    if not isinstance(exc, Exception):
        raise exc
    details: dict[str, Any] = {"exception": type(exc).__name__}
    if prepared.runtime.debug:
        details["traceback"] = "".join(traceback.format_exception(exc))
    return failure(
        [
            DialecticError(
                "internal_error",
                f"the runtime failed unexpectedly: {type(exc).__name__}: {exc}",
                hint="This is a bug in dialectic, not in the program; please report it.",
                details=details,
            )
        ],
        fe,
        warnings,
    )
