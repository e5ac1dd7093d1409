"""``String.fromCharCode`` and ``String.fromCodePoint``: texts made of UTF-16 code units and
of code points, as JavaScript makes them (SPEC.md section 1.8). A text holding half of a
surrogate pair is refused, as everywhere a program makes one."""

from __future__ import annotations

import math
from typing import Any

from dialectic.values.jsnumber import MAX_SAFE, js_number_to_string
from dialectic.values.jsops import JsRefusal, is_number, kind
from dialectic.values.jsstrings import _a, _from_units

__all__ = ["from_char_code", "from_code_point"]


def _code(v: Any, what: str) -> int | float:
    if not is_number(v):
        raise JsRefusal(
            f"{what} takes numbers, got {_a(kind(v))}",
            "Convert first: String.fromCharCode(Number(x)).",
        )
    if type(v) is int and not -MAX_SAFE <= v <= MAX_SAFE:
        raise JsRefusal(f"{what} takes codes within 2**53", "Give a code from 0 to 65535.")
    return v  # type: ignore[no-any-return]


def from_char_code(*codes: Any) -> str:
    """Each code as one UTF-16 unit (its whole part modulo 2**16, as JavaScript's ToUint16)."""
    units = bytearray()
    for v in codes:
        code = _code(v, "String.fromCharCode()")
        unit = math.trunc(code) % 0x10000 if math.isfinite(code) else 0  # (ToUint16)
        units += unit.to_bytes(2, "little")
    return _whole(bytes(units))


def from_code_point(*points: Any) -> str:
    """Each code point (0 to 0x10FFFF, whole; a RangeError in JavaScript otherwise) as its
    UTF-16 units; two surrogates given one after the other make one character."""
    units = bytearray()
    for v in points:
        p = _code(v, "String.fromCodePoint()")
        if not math.isfinite(p) or p != math.trunc(p) or not 0 <= p <= 0x10FFFF:
            raise JsRefusal(
                f"String.fromCodePoint({js_number_to_string(p)}) is no code point (a RangeError "
                "in JavaScript)",
                "Give whole numbers from 0 to 0x10FFFF (1114111).",
            )
        units += chr(int(p)).encode("utf-16-le", "surrogatepass")
    return _whole(bytes(units))


def _whole(units: bytes) -> str:
    try:
        return _from_units(units)
    except JsRefusal:
        raise JsRefusal(
            "the text would hold half of a character made of two UTF-16 units (a lone surrogate)",
            "Give both halves of the pair, String.fromCharCode(0xD83D, 0xDE00), or the code "
            "point: String.fromCodePoint(0x1F600).",
        ) from None
