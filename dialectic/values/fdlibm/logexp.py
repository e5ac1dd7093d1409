"""``log``, ``log10``, ``log2`` and ``exp`` by the fdlibm algorithms V8 computes them with
(FreeBSD msun's ``e_log.c``, ``e_log10.c``, ``e_log2.c``, ``e_exp.c``): the same argument
reduction, the same published minimax coefficients, the same order of operations, so every
rounding (Python floats are IEEE doubles, as C's on x86-64) is the one V8 makes."""

from __future__ import annotations

import math

from dialectic.values.fdlibm.words import from_words, high, with_low_zero, words

__all__ = ["EXP_POLY", "exp", "ln2_reduce", "log", "log2", "log10", "log_reduce", "log_series"]

_LN2_HI = 6.93147180369123816490e-01  # 0x3fe62e42 fee00000
_LN2_LO = 1.90821492927058770002e-10  # 0x3dea39ef 35793c76
_TWO54 = 1.80143985094819840000e16
_LG1 = 6.666666666666735130e-01
_LG2 = 3.999999999940941908e-01
_LG3 = 2.857142874366239149e-01
_LG4 = 2.222219843214978396e-01
_LG5 = 1.818357216161805012e-01
_LG6 = 1.531383769920937332e-01
_LG7 = 1.479819860511658591e-01
_INF = math.inf
_NAN = math.nan


def log_reduce(x: float) -> tuple[int, float, int] | float:
    """``x`` as ``2**k * (1 + f)`` with ``1 + f`` in [sqrt(2)/2, sqrt(2)): ``(k, f, hx)``
    (``hx``: the high word's fraction bits), or the answer itself for a zero, a negative
    number, an infinity or NaN."""
    hx, lx = words(x)
    k = 0
    if hx < 0x00100000:  # below the smallest normal double, or negative
        if ((hx & 0x7FFFFFFF) | lx) == 0:
            return -_INF
        if hx < 0:
            return _NAN
        k -= 54
        x *= _TWO54  # a subnormal number, scaled up
        hx = high(x)
    if hx >= 0x7FF00000:
        return x + x
    k += (hx >> 20) - 1023
    hx &= 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    x = from_words(hx | (i ^ 0x3FF00000), words(x)[1])  # x or x/2 normalized
    k += i >> 20
    return k, x - 1.0, hx


def log_series(f: float) -> tuple[float, float, float]:
    """``(s, z, R)`` for ``log(1 + f)``: ``s = f / (2 + f)``, ``z = s * s`` and the
    polynomial ``R(z)`` (the ``k_log1p`` of FreeBSD's ``e_log2.c``)."""
    s = f / (2.0 + f)
    z = s * s
    w = z * z
    t1 = w * (_LG2 + w * (_LG4 + w * _LG6))
    t2 = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7)))
    return s, z, t2 + t1


def log(x: float) -> float:
    """The natural logarithm, as V8's ``Math.log``."""
    reduced = log_reduce(x)
    if type(reduced) is float:
        return reduced
    k, f, hx = reduced  # type: ignore[misc]
    dk = float(k)
    if (0x000FFFFF & (2 + hx)) < 3:  # -2**-20 <= f < 2**-20
        if f == 0.0:
            return 0.0 if k == 0 else dk * _LN2_HI + dk * _LN2_LO
        r = f * f * (0.5 - 0.33333333333333333 * f)
        return f - r if k == 0 else dk * _LN2_HI - ((r - dk * _LN2_LO) - f)
    s, _, r = log_series(f)
    if ((hx - 0x6147A) | (0x6B851 - hx)) > 0:
        hfsq = 0.5 * f * f
        if k == 0:
            return f - (hfsq - s * (hfsq + r))
        return dk * _LN2_HI - ((hfsq - (s * (hfsq + r) + dk * _LN2_LO)) - f)
    if k == 0:
        return f - s * (f - r)
    return dk * _LN2_HI - ((s * (f - r) - dk * _LN2_LO) - f)


_IVLN10 = 4.34294481903251816668e-01
_LOG10_2HI = 3.01029995663611771306e-01
_LOG10_2LO = 3.69423907715893078616e-13


def log10(x: float) -> float:
    """The base-10 logarithm, as V8's ``Math.log10``: ``k`` times log10(2) in two parts
    plus log(m) / ln(10), where ``x = 2**k * m``."""
    hx, lx = words(x)
    k = 0
    if hx < 0x00100000:
        if ((hx & 0x7FFFFFFF) | lx) == 0:
            return -_INF
        if hx < 0:
            return _NAN
        k -= 54
        x *= _TWO54
        hx = high(x)
    if hx >= 0x7FF00000:
        return x + x
    if hx == 0x3FF00000 and lx == 0:
        return 0.0
    k += (hx >> 20) - 1023
    i = 1 if k < 0 else 0
    hx = (hx & 0x000FFFFF) | ((0x3FF - i) << 20)
    y = float(k + i)
    x = from_words(hx, words(x)[1])
    z = y * _LOG10_2LO + _IVLN10 * log(x)
    return z + y * _LOG10_2HI


_IVLN2HI = 1.44269504072144627571e00
_IVLN2LO = 1.67517131648865118353e-10


def log2(x: float) -> float:
    """The base-2 logarithm, as V8's ``Math.log2`` (FreeBSD's ``e_log2.c``: log(1 + f) in
    extra precision, times 1/ln(2) in two parts, plus ``k``)."""
    if x == 1.0:
        return 0.0
    reduced = log_reduce(x)
    if type(reduced) is float:
        return reduced
    k, f, _ = reduced  # type: ignore[misc]
    y = float(k)
    hfsq = 0.5 * f * f
    s, _, r = log_series(f)
    r = s * (hfsq + r)
    hi = with_low_zero(f - hfsq)
    lo = ((f - hi) - hfsq) + r
    val_hi = hi * _IVLN2HI
    val_lo = (lo + hi) * _IVLN2LO + lo * _IVLN2HI
    w = y + val_hi
    val_lo += (y - w) + val_hi
    return val_lo + w


_O_THRESHOLD = 7.09782712893383973096e02
_U_THRESHOLD = -7.45133219101941108420e02
_INVLN2 = 1.44269504088896338700e00
_P1 = 1.66666666666666019037e-01
_P2 = -2.77777777770155933842e-03
_P3 = 6.61375632143793436117e-05
_P4 = -1.65339022054652515390e-06
_P5 = 4.13813679705723846039e-08
EXP_POLY = (_P1, _P2, _P3, _P4, _P5)  # (pow's too)
_TWOM1000 = 9.33263618503218878990e-302  # 2**-1000
_E = 2.718281828459045


def ln2_reduce(x: float, hx: int, negative: bool) -> tuple[float, float, int]:
    """``x`` (``|x| > ln(2) / 2``, ``hx`` its high word without the sign) as
    ``k * ln(2) + hi - lo``: ``(hi, lo, k)``, ln(2) in two parts so ``hi`` is exact."""
    if hx < 0x3FF0A2B2:  # |x| < 1.5 ln(2)
        return (x + _LN2_HI, -_LN2_LO, -1) if negative else (x - _LN2_HI, _LN2_LO, 1)
    k = int(_INVLN2 * x + (-0.5 if negative else 0.5))
    t = float(k)
    return x - t * _LN2_HI, t * _LN2_LO, k


def exp(x: float) -> float:
    """``e ** x``, as V8's ``Math.exp`` (``exp(1)`` is ``Math.E``, as V8 special-cases it)."""
    hx, lx = words(x)
    negative = hx < 0
    hx &= 0x7FFFFFFF
    if hx >= 0x40862E42:  # |x| >= 709.78..., or an infinity or NaN
        if hx >= 0x7FF00000:
            if ((hx & 0xFFFFF) | lx) != 0:
                return x + x
            return 0.0 if negative else x
        if x > _O_THRESHOLD:
            return _INF
        if x < _U_THRESHOLD:
            return 0.0
    hi = lo = 0.0
    if hx > 0x3FD62E42:  # |x| > ln(2) / 2
        if x == 1.0:
            return _E
        hi, lo, k = ln2_reduce(x, hx, negative)
        x = hi - lo
    elif hx < 0x3E300000:  # |x| < 2**-28
        return 1.0 + x
    else:
        k = 0
    t = x * x
    c = x - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    if k == 0:
        return 1.0 - ((x * c) / (c - 2.0) - x)
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi)
    if k >= -1021:
        if k == 1024:
            return y * 2.0 * 8.98846567431157953865e307
        return y * from_words(0x3FF00000 + (k << 20), 0)
    return y * from_words(0x3FF00000 + ((k + 1000) << 20), 0) * _TWOM1000
