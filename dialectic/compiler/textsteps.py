"""Steps for the work on texts (SPEC 1.8, "Limits"): text methods count one step per
:data:`TEXT_STEP` characters they read or make (:mod:`.lambdas`), so that ``max_steps`` bounds a
loop of them on megabyte texts, not only the deadline."""

from __future__ import annotations

__all__ = ["TEXT_STEP"]

#: the characters a step covers
TEXT_STEP = 256
