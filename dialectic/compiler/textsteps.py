"""Steps for the work of operators on texts (SPEC 1.8, "Limits"): a text ``+`` or a template
makes, and two texts ``===`` (or ``<``...) compares, count one step per :data:`TEXT_STEP`
characters, as text methods do (:mod:`.lambdas`), so that ``max_steps`` bounds a loop of them
on megabyte texts, not only the deadline."""

from __future__ import annotations

from typing import Any

from dialectic.compiler.arrows import Steps
from dialectic.compiler.literals import Literal
from dialectic.run.evaluator import Compiled, State

__all__ = ["COMPARISONS", "TEXT_STEP", "compared_steps", "made_text"]

#: the characters a step covers (text methods count so too: :data:`.lambdas.TEXT_STEP`)
TEXT_STEP = 256
#: the comparisons that read two texts up to their first difference
_EQUALITIES = frozenset(["===", "!==", "==", "!="])
_ORDERS = frozenset(["<", ">", "<=", ">="])
COMPARISONS = _EQUALITIES | _ORDERS


def made_text(c: Compiled, steps: Steps) -> Compiled:
    """``c`` (a ``+`` or a template) counting a step per ``TEXT_STEP`` characters of each text
    it makes. An asynchronous one (it awaits a call) is left as it is: its calls count."""
    fn = c.sync
    if fn is None or isinstance(c, Literal):
        return c

    def text_made(s: State) -> Any:
        v = fn(s)
        if type(v) is str and len(v) >= TEXT_STEP:
            steps.take(s, len(v) // TEXT_STEP)
        return v

    return Compiled(sync=text_made)


def compared_steps(op: str, a: Any, b: Any) -> int:
    """The steps of ``a op b`` (``op`` one of :data:`COMPARISONS`): a step per ``TEXT_STEP``
    characters the comparison may read of two texts (an equality of texts of different lengths
    reads none)."""
    if type(a) is not str or type(b) is not str:
        return 0
    n = len(a)
    if op in _EQUALITIES:
        return n // TEXT_STEP if n == len(b) else 0
    return min(n, len(b)) // TEXT_STEP
