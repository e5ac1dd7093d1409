"""A compiled literal scalar that the closures using it can read in place (no closure call)."""

from __future__ import annotations

from typing import Any

from dialectic.run.evaluator import Compiled


class Literal(Compiled):
    """A compiled immutable literal (a number, text, boolean or null): ``sync`` returns
    ``value``, which an operator or a call may also read directly."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:  # (Compiled's fields, set directly: one per call
        # site of a literal argument, so a 100k-node program makes 50k of them)
        self.sync = lambda s: value
        self.aio = self.launch = self.alias = self.into = None
        self.ordered = False
        self.value = value
