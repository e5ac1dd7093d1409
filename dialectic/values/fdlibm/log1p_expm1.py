"""``log1p`` and ``expm1`` by the fdlibm algorithms V8 computes them with (``s_log1p.c``,
``s_expm1.c``): 1 + x formed with its rounding error carried as a correction, then the
published polynomials in the same order of operations."""

from __future__ import annotations

import math

from dialectic.values.fdlibm.logexp import ln2_reduce
from dialectic.values.fdlibm.words import from_words, high, words

__all__ = ["expm1", "log1p"]

_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_LP = (
    6.666666666666735130e-01,
    3.999999999940941908e-01,
    2.857142874366239149e-01,
    2.222219843214978396e-01,
    1.818357216161805012e-01,
    1.531383769920937332e-01,
    1.479819860511658591e-01,
)
_SIGNED_BFD2BEC4 = 0xBFD2BEC4 - (1 << 32)  # the high word of -0.2929 (1 + x = sqrt(2)/2)


def _log1p_small(x: float, hx: int, ax: int) -> float | None:
    """log1p of an x below sqrt(2) - 1, if it is answered at once: x <= -1 (-Infinity or
    NaN) or |x| < 2**-29."""
    if ax >= 0x3FF00000:  # x <= -1
        return -math.inf if x == -1.0 else math.nan
    if ax < 0x3E200000:  # |x| < 2**-29
        return x if ax < 0x3C900000 else x - x * x * 0.5
    return None


def log1p(x: float) -> float:
    """``log(1 + x)``, as V8's ``Math.log1p``."""
    hx = high(x)
    ax = hx & 0x7FFFFFFF
    k = 1
    f = c = 0.0
    hu = 0
    if hx < 0x3FDA827A:  # 1 + x < sqrt(2)
        early = _log1p_small(x, hx, ax)
        if early is not None:
            return early
        if hx > 0 or hx <= _SIGNED_BFD2BEC4:  # sqrt(2)/2 <= 1 + x < sqrt(2)
            k, f, hu = 0, x, 1
    if hx >= 0x7FF00000:
        return x + x
    if k != 0:
        if hx < 0x43400000:
            u = 1.0 + x
            hu = high(u)
            k = (hu >> 20) - 1023
            c = (1.0 - (u - x) if k > 0 else x - (u - 1.0)) / u  # 1 + x's rounding error
        else:
            u = x
            hu = high(u)
            k = (hu >> 20) - 1023
            c = 0.0
        hu &= 0x000FFFFF
        if hu < 0x6A09E:  # u < sqrt(2): u normalized
            u = from_words(hu | 0x3FF00000, words(u)[1])
        else:  # u / 2 normalized
            k += 1
            u = from_words(hu | 0x3FE00000, words(u)[1])
            hu = (0x00100000 - hu) >> 2
        f = u - 1.0
    hfsq = 0.5 * f * f
    dk = float(k)
    if hu == 0:  # |f| < 2**-20
        if f == 0.0:
            return 0.0 if k == 0 else dk * _LN2_HI + (c + dk * _LN2_LO)
        r = hfsq * (1.0 - 0.66666666666666666 * f)
        return f - r if k == 0 else dk * _LN2_HI - ((r - (dk * _LN2_LO + c)) - f)
    s = f / (2.0 + f)
    z = s * s
    p = _LP
    r = z * (p[0] + z * (p[1] + z * (p[2] + z * (p[3] + z * (p[4] + z * (p[5] + z * p[6]))))))
    if k == 0:
        return f - (hfsq - s * (hfsq + r))
    return dk * _LN2_HI - ((hfsq - (s * (hfsq + r) + (dk * _LN2_LO + c))) - f)


_O_THRESHOLD = 7.09782712893383973096e02
_Q1 = -3.33333333333331316428e-02
_Q2 = 1.58730158725481460165e-03
_Q3 = -7.93650757867487942473e-05
_Q4 = 4.00821782732936239552e-06
_Q5 = -2.01099218183624371326e-07


def _expm1_scale(x: float, e: float, k: int) -> float:
    """``2**k * (1 + x - e) - 1`` for ``k`` other than -1, 0, 1, as ``s_expm1.c`` forms it."""
    twopk = from_words(0x3FF00000 + (k << 20), 0) if k < 1024 else math.inf
    if k <= -2 or k > 56:  # 1 is negligible beside 2**k, or 2**k beside 1
        y = 1.0 - (e - x)
        y = y * 2.0 * 8.98846567431157953865e307 if k == 1024 else y * twopk
        return y - 1.0
    if k < 20:
        t = from_words(0x3FF00000 - (0x200000 >> k), 0)  # 1 - 2**-k
        return (t - (e - x)) * twopk
    t = from_words((0x3FF - k) << 20, 0)  # 2**-k
    y = x - (e + t)
    y += 1.0
    return y * twopk


def expm1(x: float) -> float:
    """``exp(x) - 1``, as V8's ``Math.expm1``."""
    hx, lx = words(x)
    negative = hx < 0
    hx &= 0x7FFFFFFF
    if hx >= 0x4043687A:  # |x| >= 56 ln(2)
        if hx >= 0x40862E42:  # |x| >= 709.78
            if hx >= 0x7FF00000:
                if ((hx & 0xFFFFF) | lx) != 0:
                    return x + x
                return -1.0 if negative else x
            if x > _O_THRESHOLD:
                return math.inf
        if negative:
            return -1.0
    c = 0.0
    if hx > 0x3FD62E42:  # |x| > ln(2) / 2
        hi, lo, k = ln2_reduce(x, hx, negative)
        x = hi - lo
        c = (hi - x) - lo
    elif hx < 0x3C900000:  # |x| < 2**-54
        return x
    else:
        k = 0
    hfx = 0.5 * x
    hxs = x * hfx
    r1 = 1.0 + hxs * (_Q1 + hxs * (_Q2 + hxs * (_Q3 + hxs * (_Q4 + hxs * _Q5))))
    t = 3.0 - r1 * hfx
    e = hxs * ((r1 - t) / (6.0 - x * t))
    if k == 0:
        return x - (x * e - hxs)
    e = x * (e - c) - c
    e -= hxs
    if k == -1:
        return 0.5 * (x - e) - 0.5
    if k == 1:
        if x < -0.25:
            return -2.0 * (e - (x + 0.5))
        return 1.0 + 2.0 * (x - e)
    return _expm1_scale(x, e, k)
