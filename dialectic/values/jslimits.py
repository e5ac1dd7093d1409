"""The run's limits on the values operators and methods make (SPEC.md section 1.8, "Limits"):
at most :data:`MAX_ITEMS` items in an array and ``max_string_length`` characters in a text.
Their refusals are ``limit_exceeded`` failures, not traps of JavaScript."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from dialectic.outcome.errors import DialecticError, JSONPath, LimitExceeded
from dialectic.values.jsnumber import JsRefusal

__all__ = ["ITEMS_LEFT", "MAX_ITEMS", "StepsSpent", "TextTooLong", "TooManyItems", "too_many"]

#: the most items an array made by a spread, `flat` or `flatMap` may have (a program that
#: doubles an array alias after alias would otherwise grow it exponentially)
MAX_ITEMS = 10_000_000


#: the items `flat` may still make in this run: the steps left (set by the method's closure,
#: which counts one step per item made). A few nested arrays shared through aliases (`a = [a,
#: a]` thirty times) unfold into millions of items; the walk stops where the run's steps end,
#: not at :data:`MAX_ITEMS` (13 s) after the fact
ITEMS_LEFT: ContextVar[int] = ContextVar("items_left", default=MAX_ITEMS)


class StepsSpent(Exception):
    """A method stopped at :data:`ITEMS_LEFT`: its closure reports the run's ``max_steps``."""


def too_many(n: int) -> JsRefusal:
    """The refusal of an array of ``n`` items, more than :data:`MAX_ITEMS`."""
    return TooManyItems(
        f"the array would have more than {MAX_ITEMS:,} items ({n:,})",
        "Work on parts of the data, or return fewer items.",
    )


class TooManyItems(JsRefusal):
    """An array over the 10,000,000 items any way of making one may make (SPEC 1.8,
    "Limits"): ``limit_exceeded``, as a spread over it is."""

    def error(self, path: JSONPath, details: dict[str, Any]) -> DialecticError:
        return DialecticError("limit_exceeded", self.message, path, hint=self.hint, details=details)


class TextTooLong(JsRefusal):
    """A text an operator or method would make longer than the run's ``max_string_length``
    (SPEC 1.8, "Limits"): not a trap of JavaScript but the run's limit, so the failure is
    ``limit_exceeded`` (:meth:`error`), located where the text was made. Every way to make a
    text measures it against the limit, before building it where the size is known in advance
    (a program that doubles a text alias after alias stops at the limit, at O(limit) cost)."""

    def __init__(self, n: int, limit: int) -> None:
        super().__init__(
            f"the text would be {n:,} characters, longer than the limit of {limit:,} "
            "(max_string_length)",
            "Build a smaller text (slice it, or filter the data first), or return the parts "
            "as a list.",
        )
        self.length = n
        self.limit = limit

    def error(self, path: JSONPath, details: dict[str, Any]) -> LimitExceeded:
        """The run's failure: ``limit_exceeded`` at ``path``, ``details.limit``
        ``max_string_length`` (with ``details``: the operator or method)."""
        err = LimitExceeded("max_string_length", self.message, path)
        err.hint = self.hint
        err.details.update(details)
        return err
