"""``pow`` as V8 computes ``Math.pow`` and ``**`` (fdlibm's ``e_pow.c``): log2(x) in extra
precision (a table point, then a series in s = (x - b) / (x + b)), times y split in two,
then 2 to that power by the exp polynomial. Integer powers of integers are exact when the
result is representable; other results are "nearly rounded", as V8's are."""

from __future__ import annotations

import math

from dialectic.values.fdlibm.logexp import EXP_POLY
from dialectic.values.fdlibm.words import from_words, high, with_low_zero, words

__all__ = ["pow"]

_BP = (1.0, 1.5)
_DP_H = (0.0, 5.84962487220764160156e-01)  # log2(1.5), high
_DP_L = (0.0, 1.35003920212974897128e-08)  # log2(1.5), low
_TWO53 = 9007199254740992.0
_L1 = 5.99999999999994648725e-01
_L2 = 4.28571428578550184252e-01
_L3 = 3.33333329818377432918e-01
_L4 = 2.72728123808534006489e-01
_L5 = 2.30660745775561754067e-01
_L6 = 2.06975017800338417784e-01
_P1, _P2, _P3, _P4, _P5 = EXP_POLY
_LG2 = 6.93147180559945286227e-01
_LG2_H = 6.93147182464599609375e-01
_LG2_L = -1.90465429995776804525e-09
_OVT = 8.0085662595372944372e-17  # -(1024 - log2(the largest double + half an ulp))
_CP = 9.61796693925975554329e-01  # 2 / (3 ln 2)
_CP_H = 9.61796700954437255859e-01
_CP_L = -7.02846165095275826516e-09
_IVLN2 = 1.44269504088896338700e00
_IVLN2_H = 1.44269502162933349609e00
_IVLN2_L = 1.92596299112661746887e-08


def _odd_even(hy: int, ly: int) -> int:
    """0: ``y`` is not an integer, 1: an odd integer, 2: an even one."""
    iy = hy & 0x7FFFFFFF
    if iy >= 0x43400000:
        return 2
    if iy < 0x3FF00000:
        return 0
    k = (iy >> 20) - 0x3FF
    if k > 20:
        j = ly >> (52 - k)
        return 2 - (j & 1) if (j << (52 - k)) == ly else 0
    if ly == 0:
        j = iy >> (20 - k)
        return 2 - (j & 1) if (j << (20 - k)) == iy else 0
    return 0


def _log2_near_one(ax: float) -> tuple[float, float]:
    """log2(ax) as ``t1 + t2`` for ``ax`` within 2**-20 of 1."""
    t = ax - 1.0
    w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25))
    u = _IVLN2_H * t
    v = t * _IVLN2_L - w * _IVLN2
    t1 = with_low_zero(u + v)
    return t1, v - (t1 - u)


def _log2(ax: float, ix: int) -> tuple[float, float]:
    """log2(ax) as ``t1 + t2``, in extra precision."""
    n = 0
    if ix < 0x00100000:  # subnormal
        ax *= _TWO53
        n -= 53
        ix = high(ax)
    n += (ix >> 20) - 0x3FF
    j = ix & 0x000FFFFF
    ix = j | 0x3FF00000  # the fraction, in [1, 2)
    if j <= 0x3988E:  # below sqrt(3/2)
        k = 0
    elif j < 0xBB67A:  # below sqrt(3)
        k = 1
    else:
        k = 0
        n += 1
        ix -= 0x00100000
    ax = from_words(ix, words(ax)[1])
    b = _BP[k]
    u = ax - b
    v = 1.0 / (ax + b)
    ss = u * v
    s_h = with_low_zero(ss)
    t_h = from_words(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0)
    t_l = ax - (t_h - b)
    s_l = v * ((u - s_h * t_h) - s_h * t_l)
    s2 = ss * ss
    r = s2 * s2 * (_L1 + s2 * (_L2 + s2 * (_L3 + s2 * (_L4 + s2 * (_L5 + s2 * _L6)))))
    r += s_l * (s_h + ss)
    s2 = s_h * s_h
    t_h = with_low_zero(3.0 + s2 + r)
    t_l = r - ((t_h - 3.0) - s2)
    u = s_h * t_h
    v = s_l * t_h + t_l * ss
    p_h = with_low_zero(u + v)
    p_l = v - (p_h - u)
    z_h = _CP_H * p_h
    z_l = _CP_L * p_h + p_l * _CP + _DP_L[k]
    t = float(n)
    t1 = with_low_zero(((z_h + z_l) + _DP_H[k]) + t)
    return t1, z_l - (((t1 - t) - _DP_H[k]) - z_h)


def _special(x: float, y: float, hx: int, lx: int, hy: int, ly: int, odd: int) -> float | None:
    """pow of a y of 0, ±1, 2 or 0.5, or an x of 0, ±1 or an infinity; None otherwise."""
    if (hy & 0x7FFFFFFF | ly) == 0:
        return 1.0
    if ly == 0:
        if hy & 0x7FFFFFFF == 0x3FF00000:
            if hy >= 0:
                return x
            return 1.0 / x if x else math.copysign(math.inf, x)
        if hy == 0x40000000:
            return x * x
        if hy == 0x3FE00000 and hx >= 0:
            return math.sqrt(x)
    ix = hx & 0x7FFFFFFF
    if lx == 0 and ix in (0x7FF00000, 0, 0x3FF00000):
        z = abs(x)
        if hy < 0:
            z = 1.0 / z if z else math.inf
        if hx < 0:
            if ix == 0x3FF00000 and odd == 0:
                return math.nan
            if odd == 1:
                z = -z
        return z
    return None


def pow(x: float, y: float) -> float:
    """``x ** y``, as V8's ``Math.pow`` (NaN for a NaN, and for 1 or -1 to an infinity, as
    JavaScript wants)."""
    if y == 0.0:
        return 1.0
    if x != x or y != y or (math.isinf(y) and abs(x) == 1.0):
        return math.nan
    hx, lx = words(x)
    hy, ly = words(y)
    odd = _odd_even(hy, ly) if hx < 0 else 0
    special = _special(x, y, hx, lx, hy, ly, odd)
    if special is not None:
        return special
    if math.isinf(y):
        return (math.inf if y > 0 else 0.0) if abs(x) > 1 else (0.0 if y > 0 else math.inf)
    if hx < 0 and odd == 0:
        return math.nan  # a negative number to a fractional power
    s = -1.0 if hx < 0 and odd == 1 else 1.0
    ix = hx & 0x7FFFFFFF
    iy = hy & 0x7FFFFFFF
    if iy > 0x41E00000:  # |y| > 2**31
        if iy > 0x43F00000:  # |y| > 2**64: overflow or underflow unless x is 1
            if ix <= 0x3FEFFFFF:
                return math.inf if hy < 0 else 0.0
            return math.inf if hy > 0 else 0.0
        if ix < 0x3FEFFFFF:
            return s * math.inf if hy < 0 else s * 0.0
        if ix > 0x3FF00000:
            return s * math.inf if hy > 0 else s * 0.0
        t1, t2 = _log2_near_one(abs(x))
    else:
        t1, t2 = _log2(abs(x), ix)
    return s * _exp2(y, t1, t2)


def _exp2(y: float, t1: float, t2: float) -> float:
    """2 ** (y * (t1 + t2)), ``y`` split in two halves for the product."""
    y1 = with_low_zero(y)
    p_l = (y - y1) * t1 + y * t2
    p_h = y1 * t1
    z = p_l + p_h
    j, i = words(z)
    if j >= 0x40900000:  # z >= 1024
        if ((j - 0x40900000) | i) != 0 or p_l + _OVT > z - p_h:
            return math.inf
    elif (j & 0x7FFFFFFF) >= 0x4090CC00 and (  # z <= -1075
        (j & 0xFFFFFFFF) != 0xC090CC00 or i != 0 or p_l <= z - p_h
    ):
        return 0.0
    i = j & 0x7FFFFFFF
    k = (i >> 20) - 0x3FF
    n = 0
    if i > 0x3FE00000:  # |z| > 0.5: the integer part n apart
        n = j + (0x00100000 >> (k + 1))
        k = ((n & 0x7FFFFFFF) >> 20) - 0x3FF
        t = from_words(n & ~(0x000FFFFF >> k), 0)
        n = ((n & 0x000FFFFF) | 0x00100000) >> (20 - k)
        if j < 0:
            n = -n
        p_h -= t
    t = with_low_zero(p_l + p_h)
    u = t * _LG2_H
    v = (p_l - (t - p_h)) * _LG2 + t * _LG2_L
    z = u + v
    w = v - (z - u)
    t = z * z
    t1 = z - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    r = (z * t1) / ((t1 - 2.0) - (w + z * w))  # (V8 divides by the whole, as fdlibm 5.3 once did)
    z = 1.0 - (r - z)
    j = high(z) + (n << 20)
    if (j >> 20) <= 0:
        return math.ldexp(z, n)  # a subnormal result
    return from_words(j, words(z)[1])
