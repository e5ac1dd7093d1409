"""What preparing a program needs around the pipeline: the program's size, and the cyclic
garbage collector's heap after a large program was prepared with the collector paused."""

from __future__ import annotations

import gc


def utf8_length(text: str) -> int:
    """The text's size in UTF-8 (invalid text is measured by characters; its front end refuses
    it with a located error)."""
    if text.isascii():
        return len(text)
    try:
        return len(text.encode())
    except UnicodeEncodeError:
        return len(text)


#: young objects left after preparing beyond which they go straight to the oldest generation
_PROMOTE_AT = 10_000


def promote_if_large() -> None:
    """After a large program was prepared (the collector paused): move the young objects, its
    closures and nodes, straight to the oldest generation, which ``gc.freeze()`` then
    ``gc.unfreeze()`` do in constant time. Otherwise resuming the collector would make it scan
    them all at once (for a 100k-node program, about as long as preparing it), only to find
    them alive: a prepared program lives as long as its holder wants. Not done when the host
    itself keeps objects frozen (``unfreeze`` would release them too)."""
    if gc.get_count()[0] > _PROMOTE_AT and gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()
