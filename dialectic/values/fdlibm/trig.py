"""``sin``, ``cos`` and ``tan`` by fdlibm's kernels, as V8 computes them: ``x`` reduced
modulo pi/2 (:mod:`reduce`) to ``y0 + y1`` in [-pi/4, pi/4], then the published minimax
polynomials (``__kernel_sin``, ``__kernel_cos``, ``__kernel_tan``) in the same order of
operations."""

from __future__ import annotations

import math

from dialectic.values.fdlibm.reduce import rem_pio2
from dialectic.values.fdlibm.words import from_words, high, low, with_low_zero

__all__ = ["cos", "sin", "tan"]

_S1 = -1.66666666666666324348e-01
_S2 = 8.33333333332248946124e-03
_S3 = -1.98412698298579493134e-04
_S4 = 2.75573137070700676789e-06
_S5 = -2.50507602534068634195e-08
_S6 = 1.58969099521155010221e-10

_C1 = 4.16666666666666019037e-02
_C2 = -1.38888888888741095749e-03
_C3 = 2.48015872894767294178e-05
_C4 = -2.75573143513906633035e-07
_C5 = 2.08757232129817482790e-09
_C6 = -1.13596475577881948265e-11


def _ksin(x: float, y: float, iy: int) -> float:
    """sin(x + y) for |x + y| <= pi/4 (``y``: the tail of ``x``, read if ``iy`` is 1)."""
    if (high(x) & 0x7FFFFFFF) < 0x3E400000:  # |x| < 2**-27
        return x
    z = x * x
    v = z * x
    r = _S2 + z * (_S3 + z * (_S4 + z * (_S5 + z * _S6)))
    if iy == 0:
        return x + v * (_S1 + z * r)
    return x - ((z * (0.5 * y - v * r) - y) - v * _S1)


def _kcos(x: float, y: float) -> float:
    """cos(x + y) for |x + y| <= pi/4."""
    ix = high(x) & 0x7FFFFFFF
    if ix < 0x3E400000:
        return 1.0
    z = x * x
    r = z * (_C1 + z * (_C2 + z * (_C3 + z * (_C4 + z * (_C5 + z * _C6)))))
    if ix < 0x3FD33333:  # |x| < 0.3
        return 1.0 - (0.5 * z - (z * r - x * y))
    qx = 0.28125 if ix > 0x3FE90000 else from_words(ix - 0x00200000, 0)  # x/4, truncated
    hz = 0.5 * z - qx
    a = 1.0 - qx
    return a - (hz - (z * r - x * y))


def sin(x: float) -> float:
    """As V8's ``Math.sin``."""
    ix = high(x) & 0x7FFFFFFF
    if ix <= 0x3FE921FB:  # |x| <= pi/4
        return _ksin(x, 0.0, 0)
    if ix >= 0x7FF00000:
        return math.nan
    n, y0, y1 = rem_pio2(x)
    q = n & 3
    if q == 0:
        return _ksin(y0, y1, 1)
    if q == 1:
        return _kcos(y0, y1)
    if q == 2:
        return -_ksin(y0, y1, 1)
    return -_kcos(y0, y1)


def cos(x: float) -> float:
    """As V8's ``Math.cos``."""
    ix = high(x) & 0x7FFFFFFF
    if ix <= 0x3FE921FB:
        return _kcos(x, 0.0)
    if ix >= 0x7FF00000:
        return math.nan
    n, y0, y1 = rem_pio2(x)
    q = n & 3
    if q == 0:
        return _kcos(y0, y1)
    if q == 1:
        return -_ksin(y0, y1, 1)
    if q == 2:
        return -_kcos(y0, y1)
    return _ksin(y0, y1, 1)


_T = (
    3.33333333333334091986e-01,
    1.33333333333201242699e-01,
    5.39682539762260521377e-02,
    2.18694882948595424599e-02,
    8.86323982359930005737e-03,
    3.59207910759131235356e-03,
    1.45620945432529025516e-03,
    5.88041240820264096874e-04,
    2.46463134818469906812e-04,
    7.81794442939557092300e-05,
    7.14072491382608190305e-05,
    -1.85586374855275456654e-05,
    2.59073051863633712884e-05,
)
_PIO4 = 7.85398163397448278999e-01
_PIO4LO = 3.06161699786838301793e-17


def _minus_inverse(w: float, x: float, r: float) -> float:
    """-1/w, where ``w = x + r`` in extra precision (``__kernel_tan``'s last step)."""
    z = with_low_zero(w)
    v = r - (z - x)
    a = -1.0 / w
    t = with_low_zero(a)
    s = 1.0 + t * z
    return t + a * (s + t * v)


def _ktan(x: float, y: float, iy: int) -> float:
    """tan(x + y) for |x + y| <= pi/4 (``iy`` 1), or -1/tan(x + y) (``iy`` -1)."""
    hx = high(x)
    ix = hx & 0x7FFFFFFF
    if ix < 0x3E300000:  # |x| < 2**-28
        if ((ix | low(x)) | (iy + 1)) == 0:
            return 1.0 / abs(x)
        if iy == 1:
            return x
        return _minus_inverse(x + y, x, y)
    big = ix >= 0x3FE59428  # |x| >= 0.6744: tan(pi/4 - |x|) instead
    if big:
        if hx < 0:
            x, y = -x, -y
        z = _PIO4 - x
        w = _PIO4LO - y
        x = z + w
        y = 0.0
    z = x * x
    w = z * z
    t = _T
    r = t[1] + w * (t[3] + w * (t[5] + w * (t[7] + w * (t[9] + w * t[11]))))
    v = z * (t[2] + w * (t[4] + w * (t[6] + w * (t[8] + w * (t[10] + w * t[12])))))
    s = z * x
    r = y + z * (s * (r + v) + y)
    r += t[0] * s
    w = x + r
    if big:
        fv = float(iy)
        result = fv - 2.0 * (x - (w * w / (w + fv) - r))
        return -result if hx < 0 else result
    if iy == 1:
        return w
    return _minus_inverse(w, x, r)


def tan(x: float) -> float:
    """As V8's ``Math.tan``."""
    ix = high(x) & 0x7FFFFFFF
    if ix <= 0x3FE921FB:
        return _ktan(x, 0.0, 1)
    if ix >= 0x7FF00000:
        return math.nan
    n, y0, y1 = rem_pio2(x)
    return _ktan(y0, y1, 1 - ((n & 1) << 1))
