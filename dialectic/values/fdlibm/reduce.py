"""``x`` modulo pi/2 as fdlibm's ``__ieee754_rem_pio2`` gives it to V8's ``sin``, ``cos``
and ``tan``: ``(n, y0, y1)`` with ``x = n * pi/2 + y0 + y1`` (``|y0 + y1| <= pi/4``). Up to
about 2**19 * pi/2 by the same Cody-Waite steps (pi/2 in three 33-bit parts); beyond, by
fdlibm's 24-bit pieces (:mod:`bigreduce`)."""

from __future__ import annotations

from dialectic.values.fdlibm.bigreduce import rem_pio2_large
from dialectic.values.fdlibm.words import high

__all__ = ["rem_pio2"]

_INVPIO2 = 6.36619772367581382433e-01
_PIO2_1 = 1.57079632673412561417e00  # the first 33 bits of pi/2
_PIO2_1T = 6.07710050650619224932e-11  # pi/2 - _PIO2_1
_PIO2_2 = 6.07710050630396597660e-11  # the next 33 bits
_PIO2_2T = 2.02226624879595063154e-21
_PIO2_3 = 2.02226624871116645580e-21  # the next 33
_PIO2_3T = 8.47842766036889956997e-32


#: The high words of n * pi/2, n = 1 to 32: below those, one step of the reduction suffices
_NPIO2_HW = tuple(high(n * 1.5707963267948966) for n in range(1, 33))


def rem_pio2(x: float) -> tuple[int, float, float]:
    """``(n, y0, y1)`` for a finite ``x`` with ``|x| > pi/4``."""
    hx = high(x)
    ix = hx & 0x7FFFFFFF
    if ix < 0x4002D97C:  # |x| < 3pi/4: n is 1 or -1
        if hx > 0:
            z = x - _PIO2_1
            if ix != 0x3FF921FB:  # 33+53 bits of pi suffice
                y0 = z - _PIO2_1T
                return 1, y0, (z - y0) - _PIO2_1T
            z -= _PIO2_2  # near pi/2: 33+33+53 bits
            y0 = z - _PIO2_2T
            return 1, y0, (z - y0) - _PIO2_2T
        z = x + _PIO2_1
        if ix != 0x3FF921FB:
            y0 = z + _PIO2_1T
            return -1, y0, (z - y0) + _PIO2_1T
        z += _PIO2_2
        y0 = z + _PIO2_2T
        return -1, y0, (z - y0) + _PIO2_2T
    if ix > 0x413921FB:
        return rem_pio2_large(x)
    t = abs(x)
    n = int(t * _INVPIO2 + 0.5)
    fn = float(n)
    r = t - fn * _PIO2_1
    w = fn * _PIO2_1T  # the first round: good to 85 bits
    y0 = r - w
    if n >= 32 or ix == _NPIO2_HW[n - 1]:
        j = ix >> 20
        if j - ((high(y0) >> 20) & 0x7FF) > 16:  # a second round: good to 118 bits
            t = r
            w = fn * _PIO2_2
            r = t - w
            w = fn * _PIO2_2T - ((t - r) - w)
            y0 = r - w
            if j - ((high(y0) >> 20) & 0x7FF) > 49:  # a third: 151 bits
                t = r
                w = fn * _PIO2_3
                r = t - w
                w = fn * _PIO2_3T - ((t - r) - w)
                y0 = r - w
    y1 = (r - y0) - w
    if hx < 0:
        return -n, -y0, -y1
    return n, y0, y1
