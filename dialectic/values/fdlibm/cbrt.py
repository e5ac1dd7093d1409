"""``cbrt`` as V8 computes it (FreeBSD msun's ``s_cbrt.c``): a first guess from the exponent
divided by 3 (Kahan's bit trick), a polynomial step to 23 bits, rounding to 21 bits, then
one Newton step in double."""

from __future__ import annotations

import struct

from dialectic.values.fdlibm.words import from_words, words

__all__ = ["cbrt"]

_B1 = 715094163  # (1023 - 1023/3 - 0.03306235651) * 2**20
_B2 = 696219795  # (1023 - 1023/3 - 54/3 - 0.03306235651) * 2**20
_P0 = 1.87595182427177009643
_P1 = -1.88497979543377169875
_P2 = 1.621429720105354466140
_P3 = -0.758397934778766047437
_P4 = 0.145996192886612446982
_BITS = struct.Struct("<Q")
_DOUBLE = struct.Struct("<d")


def cbrt(x: float) -> float:
    """As V8's ``Math.cbrt``."""
    hx, lx = words(x)
    sign = hx & 0x80000000
    hx &= 0x7FFFFFFF
    if hx >= 0x7FF00000:  # an infinity or NaN
        return x + x
    if hx < 0x00100000:  # zero or subnormal
        if (hx | lx) == 0:
            return x
        scaled_high = words(x * 18014398509481984.0)[0] & 0x7FFFFFFF  # x * 2**54
        t = from_words(sign | (scaled_high // 3 + _B2), 0)
    else:
        t = from_words(sign | (hx // 3 + _B1), 0)
    r = (t * t) * (t / x)
    t = t * ((_P0 + r * (_P1 + r * _P2)) + ((r * r) * r) * (_P3 + r * _P4))
    bits = (_BITS.unpack(_DOUBLE.pack(t))[0] + 0x80000000) & 0xFFFFFFFFC0000000
    t = _DOUBLE.unpack(_BITS.pack(bits))[0]
    s = t * t
    r = x / s
    w = t + t
    r = (r - t) / (w + r)
    return float(t + t * r)
