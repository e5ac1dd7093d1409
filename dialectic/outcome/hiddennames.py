"""The names a front end makes for its own aliases (``_go1``, ``_loop12``, ``_j1``,
``_break_outer1``): a message never shows one to the user, who never wrote it."""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["HIDDEN_NAME", "shown_names"]

#: a name a front end makes: an underscore, letters, a number
HIDDEN_NAME = re.compile(r"_[A-Za-z_]*[A-Za-z][0-9]+")


def shown_names(names: Iterable[str]) -> list[str]:
    """``names`` without the ones a front end made (:data:`HIDDEN_NAME`): a message lists only
    names the program or its context wrote."""
    return [n for n in names if not HIDDEN_NAME.fullmatch(n)]
