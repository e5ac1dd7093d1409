"""fdlibm's reduction of a huge ``x`` (``|x| > 2**19 * pi/2``) modulo pi/2
(``__kernel_rem_pio2`` for doubles), step by step as V8 makes it, so the pair ``(y0, y1)``
it rounds to is V8's: ``x`` in three 24-bit pieces times the 24-bit pieces of 2/pi that
matter, the integer part dropped modulo 8, the fraction carried in 24-bit pieces, then times
pi/2 in 24-bit pieces and summed from the smallest. The tables are the digits of 2/pi and
pi/2, computed here from pi (Machin's formula in integers), not copied."""

from __future__ import annotations

import math

from dialectic.values.fdlibm.words import from_words, words

__all__ = ["rem_pio2_large"]

_TWO24 = 16777216.0
_TWON24 = 5.9604644775390625e-08
_JK = 4  # the terms of 2/pi taken for a double's precision (fdlibm's init_jk[2])


def _pi_scaled(bits: int) -> int:
    """pi times 2**bits, rounded down (Machin's formula in integers)."""
    guard = bits + 20
    one = 1 << guard

    def arctan_inverse(n: int) -> int:
        total = term = one // n
        k, sign, n2 = 1, -1, n * n
        while term:
            term //= n2
            total += sign * (term // (2 * k + 1))
            k, sign = k + 1, -sign
        return total

    return (16 * arctan_inverse(5) - 4 * arctan_inverse(239)) >> 20


_CHUNKS = 70
_PI = _pi_scaled(24 * _CHUNKS + 32)
_TWO_OVER_PI = (1 << (2 * (24 * _CHUNKS + 32) + 1)) // _PI  # 2/pi * 2**(24 * _CHUNKS + 32)
#: 2/pi in 24-bit pieces after the point (fdlibm's ``ipio2``)
_IPIO2 = tuple((_TWO_OVER_PI >> (24 * (_CHUNKS - 1 - i) + 32)) & 0xFFFFFF for i in range(_CHUNKS))
#: pi/2 in 24-bit pieces, as doubles (fdlibm's ``PIo2``)
_PIO2 = tuple(
    math.ldexp(float((_PI >> (24 * _CHUNKS + 32 + 1 - 23 - 24 * i)) & 0xFFFFFF), -23 - 24 * i)
    for i in range(8)
)


def _products(xs: list[float], f: list[float], first: int, last: int, q: list[float]) -> None:
    """``q[i]`` for ``i`` in [first, last]: the sum of ``xs[j] * f[jx + i - j]``."""
    jx = len(xs) - 1
    for i in range(first, last + 1):
        fw = 0.0
        for j in range(jx + 1):
            fw += xs[j] * f[jx + i - j]
        q[i] = fw


def _complement(iq: list[int], jz: int, q0: int) -> bool:
    """``iq[:jz]`` (24-bit pieces, the smallest first) replaced by 2**(24 jz) minus them;
    whether anything was borrowed (the pieces were not all 0)."""
    carry = False
    for i in range(jz):
        j = iq[i]
        if not carry:
            if j != 0:
                carry = True
                iq[i] = 0x1000000 - j
        else:
            iq[i] = 0xFFFFFF - j
    if q0 == 1:
        iq[jz - 1] &= 0x7FFFFF
    elif q0 == 2:
        iq[jz - 1] &= 0x3FFFFF
    return carry


def _kernel(xs: list[float], e0: int) -> tuple[int, float, float]:
    jx = len(xs) - 1
    jv = max((e0 - 3) // 24, 0)
    q0 = e0 - 24 * (jv + 1)
    f = [0.0] * 40
    j = jv - jx
    for i in range(jx + _JK + 1):
        f[i] = 0.0 if j < 0 else float(_IPIO2[j])
        j += 1
    q = [0.0] * 40
    _products(xs, f, 0, _JK, q)
    jz = _JK
    iq = [0] * 40
    z, n, ih = 0.0, 0, 0
    while True:
        i, j, z = 0, jz, q[jz]
        while j > 0:  # q's terms as 24-bit integers, the smallest first
            fw = float(int(_TWON24 * z))
            iq[i] = int(z - _TWO24 * fw)
            z = q[j - 1] + fw
            i, j = i + 1, j - 1
        z = math.ldexp(z, q0)
        z -= 8.0 * math.floor(z * 0.125)
        n = int(z)
        z -= float(n)
        ih = 0
        if q0 > 0:  # the last piece's bits above the point go to n
            i = iq[jz - 1] >> (24 - q0)
            n += i
            iq[jz - 1] -= i << (24 - q0)
            ih = iq[jz - 1] >> (23 - q0)
        elif q0 == 0:
            ih = iq[jz - 1] >> 23
        elif z >= 0.5:
            ih = 2
        if ih > 0:  # the fraction is 0.5 or more: 1 - fraction, n + 1
            n += 1
            carry = _complement(iq, jz, q0)
            if ih == 2:
                z = 1.0 - z
                if carry:
                    z -= math.ldexp(1.0, q0)
        if z == 0.0 and not any(iq[i] for i in range(_JK, jz)):  # more terms needed
            k = 1
            while iq[_JK - k] == 0:
                k += 1
            for i in range(jz + 1, jz + k + 1):
                f[jx + i] = float(_IPIO2[jv + i])
            _products(xs, f, jz + 1, jz + k, q)
            jz += k
            continue
        break
    if z == 0.0:  # drop the zero pieces
        jz -= 1
        q0 -= 24
        while iq[jz] == 0:
            jz -= 1
            q0 -= 24
    else:
        z = math.ldexp(z, -q0)
        if z >= _TWO24:
            fw = float(int(_TWON24 * z))
            iq[jz] = int(z - _TWO24 * fw)
            jz += 1
            q0 += 24
            iq[jz] = int(fw)
        else:
            iq[jz] = int(z)
    fw = math.ldexp(1.0, q0)
    for i in range(jz, -1, -1):
        q[i] = fw * float(iq[i])
        fw *= _TWON24
    fq = [0.0] * 40
    for i in range(jz, -1, -1):  # times pi/2
        fw = 0.0
        k = 0
        while k <= _JK and k <= jz - i:
            fw += _PIO2[k] * q[i + k]
            k += 1
        fq[jz - i] = fw
    fw = 0.0
    for i in range(jz, -1, -1):
        fw += fq[i]
    y0 = fw if ih == 0 else -fw
    fw = fq[0] - fw
    for i in range(1, jz + 1):
        fw += fq[i]
    y1 = fw if ih == 0 else -fw
    return n & 7, y0, y1


def rem_pio2_large(x: float) -> tuple[int, float, float]:
    """``(n, y0, y1)``, ``x = n * pi/2 + y0 + y1`` (only ``n``'s last 3 bits are kept), for a
    finite ``|x| > 2**19 * pi/2``."""
    hx, lx = words(x)
    ix = hx & 0x7FFFFFFF
    e0 = (ix >> 20) - 1046  # the exponent of x's first 24-bit piece
    z = from_words(ix - (e0 << 20), lx)
    xs = []
    for _ in range(2):
        piece = float(int(z))
        xs.append(piece)
        z = (z - piece) * _TWO24
    xs.append(z)
    while xs[-1] == 0.0:
        xs.pop()
    n, y0, y1 = _kernel(xs, e0)
    if hx < 0:
        return -n, -y0, -y1
    return n, y0, y1
