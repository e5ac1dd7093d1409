"""NaN where the program tests for it (SPEC 1.7, "NaN that the program tests for"): the calls
that may make it (``parseInt``, ``parseFloat``, ``Number``, unary ``+``), the tests that read
it as JavaScript does, and the closure of such a call at a site the resolver marked
(:mod:`dialectic.resolve.maynan`): NaN where JavaScript's value is NaN, instead of the
refusal every other site keeps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsops import NotANumber

__all__ = ["NAN", "PRODUCERS", "TESTS", "or_nan"]

NAN = float("nan")

#: the globals whose value may be NaN (unary `+` too: an operator)
PRODUCERS = frozenset({"parseInt", "parseFloat", "Number"})

#: the globals that test a number for NaN: whether their value is true when the number is
#: not NaN (`isFinite(x)`: true shows `x` is no NaN; `isNaN(x)`: false shows it)
TESTS: dict[str, bool] = {
    "isNaN": False,
    "Number.isNaN": False,
    "isFinite": True,
    "Number.isFinite": True,
    "Number.isInteger": True,
    "Number.isSafeInteger": True,
}


def _is_nan_of(v: Any) -> bool:
    """Whether JavaScript's ``Number(v)`` of this value, which a conversion refused as NaN, is
    NaN: a text, an object, ``undefined``, a NaN (an array may convert to a number, ``[7]``)."""
    t = type(v)
    return t is str or t is dict or v is UNDEFINED or (t is float and v != v)


def or_nan(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` (a producer) at a marked site: NaN where it refuses a NaN."""

    def call(*args: Any) -> Any:
        try:
            return fn(*args)
        except NotANumber:
            if args and not _is_nan_of(args[0]):
                raise
            return NAN

    return call
