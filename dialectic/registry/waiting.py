"""The built-in ``sleep(ms)``: a wait in program order (SPEC 17, "Waiting").

Plan's ``await new Promise(r => setTimeout(r, ms))`` (and a program's ``sleep`` helper made of
it) is a call of this function; Dialect JSON and Plan2 call it by name, ``{"sleep": {"ms":
500}}``. A call of it is no ordinary call: the effect plan (:mod:`dialectic.resolve.effects`)
makes it a barrier of its block, and the compiler runs it as
:func:`dialectic.run.waiting.sleep_call` does (bounded by the run's deadline). :func:`is_sleep`
tells it from a registered function of the same name (a registration replaces a built-in).
"""

from __future__ import annotations

import math
from typing import Any

import anyio

from dialectic.registry.descriptions import FunctionDescription, Optional

__all__ = ["SLEEP", "delay_seconds", "is_sleep"]


def delay_seconds(ms: Any) -> float:
    """The delay JavaScript's ``setTimeout`` waits for ``ms``, in seconds: ``Number(ms)``, and
    0 for what is NaN, negative or missing."""
    from dialectic.values.jsops import to_number

    try:
        n = to_number(ms)
    except Exception:  # NaN (a text that is no number, an object): no delay, as in Node
        return 0.0
    if type(n) is not int and type(n) is not float:
        return 0.0
    f = float(n)
    return f / 1000.0 if f > 0.0 and not math.isnan(f) else 0.0


async def _sleep(ms: Any = 0) -> None:
    """The implementation called directly (a run compiles its own wait, bounded by its
    deadline: :func:`dialectic.run.waiting.sleep_call`)."""
    await anyio.sleep(delay_seconds(ms))


SLEEP = FunctionDescription(
    "sleep",
    "Wait `ms` milliseconds (as `await new Promise(r => setTimeout(r, ms))`): the calls after "
    "it in the program start when it ended, the ones before it end before it starts.",
    _sleep,
    {"ms": Optional("any")},
    "null",
    parameter_descriptions={"ms": "milliseconds; negative, NaN or missing: 0"},
)


def is_sleep(fn: Any) -> bool:
    """Whether ``fn`` (a :class:`FunctionDescription`) is the built-in ``sleep``."""
    return getattr(fn, "implementation", None) is _sleep
