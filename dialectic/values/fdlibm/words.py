"""The 32-bit halves of a double, as the fdlibm algorithms read and set them (the high word
holds the sign, the exponent and the top 20 bits of the fraction)."""

from __future__ import annotations

import struct

__all__ = ["from_words", "high", "low", "with_low_zero", "words"]

_DOUBLE = struct.Struct("<d")
_HALVES = struct.Struct("<Ii")  # (low word unsigned, high word signed), little-endian


def words(x: float) -> tuple[int, int]:
    """``(high, low)``: the high word signed (negative for a negative ``x``), the low unsigned."""
    lo, hi = _HALVES.unpack(_DOUBLE.pack(x))
    return hi, lo


def high(x: float) -> int:
    """The high word, signed."""
    return int(_HALVES.unpack(_DOUBLE.pack(x))[1])


def low(x: float) -> int:
    """The low word, unsigned."""
    return int(_HALVES.unpack(_DOUBLE.pack(x))[0])


def from_words(hi: int, lo: int) -> float:
    """The double whose high word is ``hi`` (signed or unsigned) and low word ``lo``."""
    return float(_DOUBLE.unpack(struct.pack("<II", lo & 0xFFFFFFFF, hi & 0xFFFFFFFF))[0])


def with_low_zero(x: float) -> float:
    """``x`` with its low word cleared (its top 20 fraction bits kept)."""
    return float(_DOUBLE.unpack(b"\0\0\0\0" + _DOUBLE.pack(x)[4:])[0])
