"""A ``reduce`` that appends to a text, ``(acc, x) => acc + E``, in time linear in the text it
makes (SPEC 1.8, "``reduce``").

Loops read as folds write it so: ``let csv = ''; for (const r of rows) csv += `${r.id}\\n`;``
is ``rows.map(...).reduce((_a1, _r1) => _a1 + _r1.a0v0, '')``. Each step's ``acc + E`` copies
the text so far: n appends cost n squared (20,000 rows of a CSV took 3.5 s). Python's texts
cannot grow in place, so once the accumulator is a text (from then on every ``acc + E`` is a
text: JavaScript's ``+`` of a text writes the other operand as text), the steps keep the
pieces ``'' + E`` and join them once at the end. ``acc + E`` is ``acc + ('' + E)``: the same
text, the same refusal (an operand that is ``undefined``, an array, an object), and the same
``max_string_length`` check, made on the running length before the piece is kept, at the
``+``. Only for a body that is that one ``+``, whose ``E`` does not read the accumulator and
calls no function (``E`` is compiled a second time, on its own).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.compiler.arrows import Arrow, Steps
from dialectic.compiler.expressions import refused
from dialectic.compiler.textbuild import Text, closed, grow, opened
from dialectic.outcome.errors import JSONPath
from dialectic.resolve.foldtext import appended
from dialectic.run.evaluator import State
from dialectic.values.jsops import JsRefusal, TextTooLong, add

__all__ = ["TextAppend", "append_rest", "append_rest_async", "appended"]


class TextAppend:
    """The step's piece ``E`` as an arrow of the step's parameters, and the ``+``'s place."""

    __slots__ = ("piece", "path", "stringify", "max_len", "builds")

    def __init__(
        self,
        piece: Arrow,
        path: JSONPath,
        stringify: Callable[[Any], str],
        max_len: int,
        builds: bool = False,
    ) -> None:
        self.piece = piece
        self.path = path
        self.stringify = stringify
        self.max_len = max_len
        #: a reduce inside a loop that builds its text as pieces (:mod:`.textbuild`): from a
        #: text or a :class:`~dialectic.compiler.textbuild.Text`, it gives a ``Text``
        self.builds = builds

    def takes(self, acc: Any) -> bool:
        """Whether the steps from one with the accumulator ``acc`` append (it is a text)."""
        return type(acc) is str or (self.builds and type(acc) is Text)

    def text(self, v: Any, total: int) -> str:
        """``'' + v``, refused as ``acc + v`` would be; within the limit with ``total``
        characters before it."""
        try:
            piece = v if type(v) is str else add("", v, self.stringify, self.max_len)
            if total + len(piece) > self.max_len:
                raise TextTooLong(total + len(piece), self.max_len)
        except JsRefusal as exc:
            raise refused(exc, "+", self.path) from None
        return piece


def append_rest(
    app: TextAppend, s: State, xs: list[Any], acc: Any, order: range, steps: Steps
) -> Any:
    """The steps of the indices ``order`` (from the current one on), the accumulator ``acc``
    a text."""
    if app.builds:
        pieces = opened(acc)
        for i in order:
            steps.take(s, 1)
            grow(pieces, app.text(app.piece.apply(s, (acc, xs[i], i, xs)), pieces.size))
        return closed(pieces)
    parts = [acc]
    total = len(acc)
    apply = app.piece.apply
    for i in order:
        steps.take(s, 1)
        piece = app.text(apply(s, (acc, xs[i], i, xs)), total)
        total += len(piece)
        parts.append(piece)
    return "".join(parts)


async def append_rest_async(
    app: TextAppend, s: State, xs: list[Any], acc: Any, order: range, steps: Steps
) -> Any:
    """:func:`append_rest` with a piece that awaits."""
    if app.builds:
        pieces = opened(acc)
        for i in order:
            steps.take(s, 1)
            v = await app.piece.aapply(s, (acc, xs[i], i, xs))
            grow(pieces, app.text(v, pieces.size))
        return closed(pieces)
    parts = [acc]
    total = len(acc)
    for i in order:
        steps.take(s, 1)
        piece = app.text(await app.piece.aapply(s, (acc, xs[i], i, xs)), total)
        total += len(piece)
        parts.append(piece)
    return "".join(parts)
