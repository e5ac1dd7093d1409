"""JavaScript's bitwise operators ``|`` ``&`` ``^`` ``~`` ``<<`` ``>>`` ``>>>`` (SPEC.md
section 1.7): each operand a number, read as a 32-bit integer (ToInt32: its whole part modulo
2**32, NaN and the infinities 0), the result a 32-bit integer (``>>>``: unsigned), so always a
safe integer. Other operands are refused, as for ``-`` (``'5' | 0`` converts in JavaScript)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import MAX_SAFE, JsRefusal

__all__ = ["BITWISE", "bit_not", "to_int32", "to_uint32"]


def to_uint32(x: int | float) -> int:
    """JavaScript's ToUint32: the whole part modulo 2**32 (a NaN or an infinity is 0)."""
    if type(x) is not int:
        if not math.isfinite(x):
            return 0
        x = math.trunc(x)
    return x & 0xFFFFFFFF


def to_int32(x: int | float) -> int:
    """JavaScript's ToInt32: ToUint32 read as a signed 32-bit integer."""
    u = to_uint32(x)
    return u - 0x100000000 if u & 0x80000000 else u


def _bits(v: Any, op: str, side: str) -> int:
    """An operand of ``op`` as ToUint32 gives it."""
    t = type(v)
    if t is int:
        if -MAX_SAFE <= v <= MAX_SAFE:
            return v & 0xFFFFFFFF  # type: ignore[no-any-return]
        raise JsRefusal(
            f"the {side} operand of `{op}` is an integer beyond 2**53, which JavaScript cannot "
            "hold exactly",
            "Numbers to compute with must be within ±9007199254740992.",
        )
    if t is float:
        return to_uint32(v)
    what = {bool: "a boolean", str: "a string", list: "an array", dict: "an object"}.get(
        t, "null" if v is None else "undefined" if v is UNDEFINED else "this value"
    )
    if t is bool:
        hint = (
            f"`===` and `<` bind more tightly than `{op}`: write (x {op} 1) === 1; or convert "
            "explicitly: Number(b)."
        )
    else:
        hint = "Convert explicitly first: Number(x), or give null a default: (x ?? 0) | 0."
    raise JsRefusal(f"`{op}` needs numbers; the {side} operand is {what}", hint)


def _signed(u: int) -> int:
    return u - 0x100000000 if u & 0x80000000 else u


def bit_or(a: Any, b: Any) -> int:
    return _signed(_bits(a, "|", "left") | _bits(b, "|", "right"))


def bit_and(a: Any, b: Any) -> int:
    return _signed(_bits(a, "&", "left") & _bits(b, "&", "right"))


def bit_xor(a: Any, b: Any) -> int:
    return _signed(_bits(a, "^", "left") ^ _bits(b, "^", "right"))


def shift_left(a: Any, b: Any) -> int:
    return _signed((_bits(a, "<<", "left") << (_bits(b, "<<", "right") & 31)) & 0xFFFFFFFF)


def shift_right(a: Any, b: Any) -> int:
    return _signed(_bits(a, ">>", "left")) >> (_bits(b, ">>", "right") & 31)


def shift_right_unsigned(a: Any, b: Any) -> int:
    return _bits(a, ">>>", "left") >> (_bits(b, ">>>", "right") & 31)


def bit_not(a: Any) -> int:
    return _signed(_bits(a, "~", "the") ^ 0xFFFFFFFF)


#: the binary bitwise operators by their JavaScript token
BITWISE: dict[str, Callable[[Any, Any], int]] = {
    "|": bit_or,
    "&": bit_and,
    "^": bit_xor,
    "<<": shift_left,
    ">>": shift_right,
    ">>>": shift_right_unsigned,
}
