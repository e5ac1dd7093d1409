"""V8's own ``Math`` routines (fdlibm, by way of FreeBSD's msun) written anew in Python, so
that ``Math.log``, ``Math.sin``, ... give every bit Node gives (Python's ``math`` takes the
platform's C library, which differs in the last bit for some inputs). Measured against Node
by benchmarks/math_exactness.py; checked in CI by tests/expressions/test_jsmath_node.py.

The algorithms and their coefficients are fdlibm's: "Copyright (C) 1993 by Sun Microsystems,
Inc. All rights reserved. Developed at SunPro, a Sun Microsystems, Inc. business. Permission
to use, copy, modify, and distribute this software is freely granted, provided that this
notice is preserved." (FreeBSD's msun keeps the same notice.)"""

from __future__ import annotations

from dialectic.values.fdlibm.cbrt import cbrt
from dialectic.values.fdlibm.hyperbolic import acosh, asinh, atanh, cosh, sinh, tanh
from dialectic.values.fdlibm.inverse import acos, asin, atan, atan2
from dialectic.values.fdlibm.log1p_expm1 import expm1, log1p
from dialectic.values.fdlibm.logexp import exp, log, log2, log10
from dialectic.values.fdlibm.power import pow
from dialectic.values.fdlibm.trig import cos, sin, tan

__all__ = [
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "cbrt",
    "cos",
    "cosh",
    "exp",
    "expm1",
    "log",
    "log10",
    "pow",
    "log1p",
    "log2",
    "sin",
    "sinh",
    "tan",
    "tanh",
]
