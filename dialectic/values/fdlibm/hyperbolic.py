"""``sinh``, ``cosh``, ``tanh``, ``asinh``, ``acosh`` and ``atanh`` as V8 computes them
(fdlibm's formulas over ``exp``, ``expm1``, ``log`` and ``log1p``, with V8's breakpoints)."""

from __future__ import annotations

import math

from dialectic.values.fdlibm.log1p_expm1 import expm1, log1p
from dialectic.values.fdlibm.logexp import exp, log
from dialectic.values.fdlibm.words import high, words

__all__ = ["acosh", "asinh", "atanh", "cosh", "sinh", "tanh"]

_OVERFLOW = 710.4758600739439  # beyond: sinh and cosh overflow
_LN2 = 6.93147180559945286227e-01


def sinh(x: float) -> float:
    """As V8's ``Math.sinh``."""
    h = -0.5 if x < 0 else 0.5
    ax = abs(x)
    if ax < 22:
        if ax < 3.725290298461914e-9:  # 2**-28
            return x
        t = expm1(ax)
        if ax < 1:
            return h * (2.0 * t - t * t / (t + 1.0))
        return h * (t + t / (t + 1.0))
    if ax < 709.7822265625:  # the high word of log(the largest double)
        return h * exp(ax)
    if ax <= _OVERFLOW:
        w = exp(0.5 * ax)
        t = h * w
        return t * w
    return x * 1.0e307


def cosh(x: float) -> float:
    """As V8's ``Math.cosh``."""
    ix = high(x) & 0x7FFFFFFF
    if ix < 0x3FD62E43:  # |x| < ln(2) / 2
        t = expm1(abs(x))
        w = 1.0 + t
        if ix < 0x3C800000:  # |x| < 2**-55
            return w
        return 1.0 + (t * t) / (w + w)
    if ix < 0x40360000:  # |x| < 22
        t = exp(abs(x))
        return 0.5 * t + 0.5 / t
    if ix < 0x40862E42:
        return 0.5 * exp(abs(x))
    if abs(x) <= _OVERFLOW:
        w = exp(0.5 * abs(x))
        t = 0.5 * w
        return t * w
    if ix >= 0x7FF00000:
        return x * x
    return math.inf


def tanh(x: float) -> float:
    """As V8's ``Math.tanh``."""
    jx = high(x)
    ix = jx & 0x7FFFFFFF
    if ix >= 0x7FF00000:  # an infinity or NaN
        return 1.0 / x + 1.0 if jx >= 0 else 1.0 / x - 1.0
    if ix < 0x40360000:  # |x| < 22
        if ix < 0x3E300000:  # |x| < 2**-28
            return x
        if ix >= 0x3FF00000:  # |x| >= 1
            t = expm1(2.0 * abs(x))
            z = 1.0 - 2.0 / (t + 2.0)
        else:
            t = expm1(-2.0 * abs(x))
            z = -t / (t + 2.0)
    else:
        z = 1.0
    return z if jx >= 0 else -z


def asinh(x: float) -> float:
    """As V8's ``Math.asinh``."""
    hx = high(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x7FF00000:
        return x + x
    if ix < 0x3E300000:  # |x| < 2**-28
        return x
    if ix > 0x41B00000:  # |x| > 2**28
        w = log(abs(x)) + _LN2
    elif ix > 0x40000000:  # 2 < |x| <= 2**28
        t = abs(x)
        w = log(2.0 * t + 1.0 / (math.sqrt(x * x + 1.0) + t))
    else:
        t = x * x
        w = log1p(abs(x) + t / (1.0 + math.sqrt(1.0 + t)))
    return w if hx > 0 else -w


def acosh(x: float) -> float:
    """As V8's ``Math.acosh``."""
    hx, lx = words(x)
    if hx < 0x3FF00000:  # x < 1
        return math.nan
    if hx >= 0x41B00000:  # x > 2**28
        if hx >= 0x7FF00000:
            return x + x
        return log(x) + _LN2
    if hx == 0x3FF00000 and lx == 0:
        return 0.0
    if hx > 0x40000000:  # 2 < x <= 2**28
        t = x * x
        return log(2.0 * x - 1.0 / (x + math.sqrt(t - 1.0)))
    t = x - 1.0  # 1 < x <= 2
    return log1p(t + math.sqrt(2.0 * t + t * t))


def atanh(x: float) -> float:
    """As V8's ``Math.atanh``."""
    hx, lx = words(x)
    ix = hx & 0x7FFFFFFF
    if ix > 0x3FF00000 or (ix == 0x3FF00000 and lx != 0) or x != x:  # |x| > 1, NaN
        return math.nan
    if ix == 0x3FF00000:
        return math.inf if x > 0 else -math.inf
    if ix < 0x3E300000:  # |x| < 2**-28
        return x
    a = abs(x)
    if ix < 0x3FE00000:  # |x| < 0.5
        t = a + a
        t = 0.5 * log1p(t + t * a / (1.0 - a))
    else:
        t = 0.5 * log1p((a + a) / (1.0 - a))
    return t if hx >= 0 else -t
