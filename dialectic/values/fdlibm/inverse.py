"""``atan``, ``atan2``, ``asin`` and ``acos`` by the fdlibm algorithms V8 computes them with
(``s_atan.c``, ``e_atan2.c``, ``e_asin.c``, ``e_acos.c``): the same breakpoints, the same
published coefficients, the same order of operations."""

from __future__ import annotations

import math

from dialectic.values.fdlibm.words import high, with_low_zero, words

__all__ = ["acos", "asin", "atan", "atan2"]

_ATANHI = (
    4.63647609000806093515e-01,  # atan(0.5)
    7.85398163397448278999e-01,  # atan(1)
    9.82793723247329054082e-01,  # atan(1.5)
    1.57079632679489655800e00,  # atan(inf)
)
_ATANLO = (
    2.26987774529616870924e-17,
    3.06161699786838301793e-17,
    1.39033110312309984516e-17,
    6.12323399573676603587e-17,
)
_AT = (
    3.33333333333329318027e-01,
    -1.99999999998764832476e-01,
    1.42857142725034663711e-01,
    -1.11111104054623557880e-01,
    9.09088713343650656196e-02,
    -7.69187620504482999495e-02,
    6.66107313738753120669e-02,
    -5.83357013379057348645e-02,
    4.97687799461593236017e-02,
    -3.65315727442169155270e-02,
    1.62858201153657823623e-02,
)


def atan(x: float) -> float:
    """As V8's ``Math.atan``."""
    hx = high(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x44100000:  # |x| >= 2**66, an infinity or NaN
        if x != x:
            return x + x
        return _ATANHI[3] + _ATANLO[3] if hx > 0 else -_ATANHI[3] - _ATANLO[3]
    if ix < 0x3FDC0000:  # |x| < 0.4375
        if ix < 0x3E400000:  # |x| < 2**-27
            return x
        part = -1
    else:
        x = abs(x)
        if ix < 0x3FF30000:  # |x| < 1.1875
            if ix < 0x3FE60000:  # 7/16 <= |x| < 11/16
                part, x = 0, (2.0 * x - 1.0) / (2.0 + x)
            else:  # 11/16 <= |x| < 19/16
                part, x = 1, (x - 1.0) / (x + 1.0)
        elif ix < 0x40038000:  # |x| < 2.4375
            part, x = 2, (x - 1.5) / (1.0 + 1.5 * x)
        else:  # 2.4375 <= |x| < 2**66
            part, x = 3, -1.0 / x
    z = x * x
    w = z * z
    a = _AT
    s1 = z * (a[0] + w * (a[2] + w * (a[4] + w * (a[6] + w * (a[8] + w * a[10])))))
    s2 = w * (a[1] + w * (a[3] + w * (a[5] + w * (a[7] + w * a[9]))))
    if part < 0:
        return x - x * (s1 + s2)
    z = _ATANHI[part] - ((x * (s1 + s2) - _ATANLO[part]) - x)
    return -z if hx < 0 else z


_PI_O_4 = 7.8539816339744827900e-01
_PI_O_2 = 1.5707963267948965580e00
_PI = 3.1415926535897931160e00
_PI_LO = 1.2246467991473531772e-16


def _atan2_edges(y: float, x: float, m: int) -> float | None:
    """atan2 of a zero or an infinity, by the quadrant ``m`` (bit 0: y < 0, bit 1: x < 0)."""
    if y == 0.0:
        return (y, y, _PI, -_PI)[m]
    if x == 0.0:
        return -_PI_O_2 if y < 0 else _PI_O_2
    if math.isinf(x):
        if math.isinf(y):
            return (_PI_O_4, -_PI_O_4, 3.0 * _PI_O_4, -3.0 * _PI_O_4)[m]
        return (0.0, -0.0, _PI, -_PI)[m]
    if math.isinf(y):
        return -_PI_O_2 if y < 0 else _PI_O_2
    return None


def atan2(y: float, x: float) -> float:
    """As V8's ``Math.atan2(y, x)``."""
    if x != x or y != y:
        return x + y
    hx, lx = words(x)
    if hx == 0x3FF00000 and lx == 0:  # x is 1
        return atan(y)
    hy = high(y)
    m = (1 if hy < 0 else 0) | (2 if hx < 0 else 0)
    edge = _atan2_edges(y, x, m)
    if edge is not None:
        return edge
    k = ((hy & 0x7FFFFFFF) - (hx & 0x7FFFFFFF)) >> 20
    if k > 60:  # |y / x| > 2**60
        z = _PI_O_2 + 0.5 * _PI_LO
        m &= 1
    elif hx < 0 and k < -60:  # |y| / x < -2**-60
        z = 0.0
    else:
        z = atan(abs(y / x))
    if m == 0:
        return z
    if m == 1:
        return -z
    if m == 2:
        return _PI - (z - _PI_LO)
    return (z - _PI_LO) - _PI


_PIO2_HI = 1.57079632679489655800e00
_PIO2_LO = 6.12323399573676603587e-17
_PIO4_HI = 7.85398163397448278999e-01
_PS0 = 1.66666666666666657415e-01
_PS1 = -3.25565818622400915405e-01
_PS2 = 2.01212532134862925881e-01
_PS3 = -4.00555345006794114027e-02
_PS4 = 7.91534994289814532176e-04
_PS5 = 3.47933107596021167570e-05
_QS1 = -2.40339491173441421878e00
_QS2 = 2.02094576023350569471e00
_QS3 = -6.88283971605453293030e-01
_QS4 = 7.70381505559019352791e-02


def _ratio(t: float) -> tuple[float, float]:
    """The rational approximation's numerator and denominator at ``t``."""
    p = t * (_PS0 + t * (_PS1 + t * (_PS2 + t * (_PS3 + t * (_PS4 + t * _PS5)))))
    q = 1.0 + t * (_QS1 + t * (_QS2 + t * (_QS3 + t * _QS4)))
    return p, q


def asin(x: float) -> float:
    """As V8's ``Math.asin``."""
    hx, lx = words(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x3FF00000:  # |x| >= 1
        if ((ix - 0x3FF00000) | lx) == 0:
            return x * _PIO2_HI + x * _PIO2_LO
        return math.nan
    if ix < 0x3FE00000:  # |x| < 0.5
        if ix < 0x3E400000:
            return x
        p, q = _ratio(x * x)
        return x + x * (p / q)
    t = (1.0 - abs(x)) * 0.5
    p, q = _ratio(t)
    s = math.sqrt(t)
    if ix >= 0x3FEF3333:  # |x| > 0.975
        t = _PIO2_HI - (2.0 * (s + s * (p / q)) - _PIO2_LO)
    else:
        w = with_low_zero(s)
        c = (t - w * w) / (s + w)
        r = p / q
        p = 2.0 * s * r - (_PIO2_LO - 2.0 * c)
        q = _PIO4_HI - 2.0 * w
        t = _PIO4_HI - (p - q)
    return -t if hx < 0 else t


def acos(x: float) -> float:
    """As V8's ``Math.acos``."""
    hx, lx = words(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x3FF00000:  # |x| >= 1
        if ((ix - 0x3FF00000) | lx) == 0:
            return 0.0 if hx > 0 else _PI + 2.0 * _PIO2_LO
        return math.nan
    if ix < 0x3FE00000:  # |x| < 0.5
        if ix <= 0x3C600000:  # |x| < 2**-57
            return _PIO2_HI + _PIO2_LO
        p, q = _ratio(x * x)
        return _PIO2_HI - (x - (_PIO2_LO - x * (p / q)))
    if hx < 0:  # x < -0.5
        z = (1.0 + x) * 0.5
        p, q = _ratio(z)
        s = math.sqrt(z)
        w = (p / q) * s - _PIO2_LO
        return _PI - 2.0 * (s + w)
    z = (1.0 - x) * 0.5  # x > 0.5
    s = math.sqrt(z)
    df = with_low_zero(s)
    c = (z - df * df) / (s + df)
    p, q = _ratio(z)
    w = (p / q) * s + c
    return 2.0 * (df + w)
