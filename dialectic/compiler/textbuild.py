"""A text a loop builds by appends, in time linear in the text (SPEC 10, "Loops": "Cost").

A loop read as a fold (``while``, ``do...while``, a C-style ``for``, a ``for...of`` that reads
what it changes or has a ``break``) keeps a text accumulator in its state: ``_out2 = _if1 ?
out + _add1 : out``. Each ``+`` copies the text so far, so n appends cost n squared. Where
:mod:`dialectic.resolve.foldtext` proves that a field's versions go only to the next version,
the state's record and the reads it knows, the ``+`` makes a :class:`Text` instead: a version
of a shared list of pieces, which an append extends in place when the version is the list's
last one (O(the piece)), else copies once. A version is a value that never changes (an older
one reads its own prefix), so the order in which the step's lazy aliases run does not matter.

Every read of a version sees a Python text: ``out.length`` is counted as the pieces came (UTF-16
units), a test of its truth, ``=== 'lit'``, ``endsWith('lit')``, ``startsWith('lit')``,
``slice(-k)`` and ``at(-k)`` read a text as short as the answer needs (the same answer, the
same refusals), and any other read joins the pieces (once per version: the join is kept). The
loop's final state holds texts again. ``acc + E`` is ``acc + ('' + E)`` for a text ``acc``
(as :mod:`dialectic.compiler.textfold` has it): the same value, refusals and
``max_string_length`` check as the step-by-step ``+``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dialectic.compiler.expressions import refused
from dialectic.outcome.errors import JSONPath
from dialectic.resolve.foldtext import template_rest
from dialectic.run.evaluator import Compiled, State
from dialectic.tree.nodes import Get, Lambda, Method, Node, Op, Template, While
from dialectic.values.jsmethods import FOLDS
from dialectic.values.jsops import JsRefusal, TextTooLong, add
from dialectic.values.jsstrings import utf16_length

if TYPE_CHECKING:
    from dialectic.compiler.closures import Compiler

__all__ = ["Text", "closed", "grow", "opened", "text_site"]


class _Pieces:
    """The pieces shared by the versions of one text: ``size`` characters, ``units`` UTF-16
    code units in all; ``front``: a text built by prepends (``out = x + out``), its pieces
    kept last first."""

    __slots__ = ("parts", "size", "units", "front")

    def __init__(self, parts: list[str], size: int, units: int, front: bool = False) -> None:
        self.parts = parts
        self.size = size
        self.units = units
        self.front = front

    def joined(self) -> str:
        parts = self.parts
        if len(parts) != 1:
            parts[:] = ["".join(reversed(parts) if self.front else parts)]
        return parts[0]


class Text:
    """A version of a text a fold builds: the first ``size`` characters of ``pieces``."""

    __slots__ = ("pieces", "size", "units")

    def __init__(self, pieces: _Pieces, size: int, units: int) -> None:
        self.pieces = pieces
        self.size = size
        self.units = units

    def text(self) -> str:
        whole = self.pieces.joined()
        if len(whole) == self.size:
            return whole
        # (an older version: the start of the text appends make, the end of the prepends')
        return whole[len(whole) - self.size :] if self.pieces.front else whole[: self.size]

    def tail(self, k: int) -> str:
        """A text ending as this one does, with at least its last ``k`` characters (all of them
        when it has fewer)."""
        pieces = self.pieces
        if k >= self.size or pieces.size != self.size or pieces.front:
            return self.text()
        got: list[str] = []
        n = 0
        parts = pieces.parts
        i = len(parts)
        while n < k:
            i -= 1
            got.append(parts[i])
            n += len(parts[i])
        got.reverse()
        return "".join(got)

    def head(self, k: int) -> str:
        """A text starting as this one does, with at least its first ``k`` characters (all of
        them when it has fewer)."""
        if k >= self.size or self.pieces.front:
            return self.text()
        got: list[str] = []
        n = 0
        for part in self.pieces.parts:
            got.append(part)
            n += len(part)
            if n >= k:
                break
        out = "".join(got)
        return out if len(out) <= self.size else out[: self.size]


def _plain(v: Any) -> Any:
    return v.text() if type(v) is Text else v


def _truth(v: Any) -> Any:
    return ("x" if v.size else "") if type(v) is Text else v


def viewer(kind: str, arg: Any) -> Callable[[Any], Any]:
    """What a read of kind ``kind`` sees of a version (a text with the same answer)."""
    if kind == "truth":
        return _truth
    if kind == "tail" or kind == "head":
        k = int(arg)

        def part(v: Any) -> Any:
            if type(v) is not Text:
                return v
            return v.tail(k) if kind == "tail" else v.head(k)

        return part
    if kind == "equal":
        other = str(arg)

        def equal(v: Any) -> Any:
            if type(v) is not Text:
                return v
            return v.text() if v.size == len(other) else other + "\x00"

        return equal
    return _plain


def viewed(reader: Compiled, view: Callable[[Any], Any]) -> Compiled:
    """``reader`` whose value is seen through ``view``."""
    sync = reader.sync
    if sync is not None:
        return Compiled(sync=lambda s: view(sync(s)))
    aio = reader.aio
    assert aio is not None

    async def run(s: State) -> Any:
        return view(await aio(s))

    return Compiled(aio=run)


def length_of(raw: Compiled, generic: Compiled) -> Compiled:
    """``v.length`` of a version (``raw``), else as ``generic`` reads it."""
    rs, gs = raw.sync, generic.sync
    if rs is not None and gs is not None:

        def run(s: State) -> Any:
            v = rs(s)
            return v.units if type(v) is Text else gs(s)

        return Compiled(sync=run)

    async def arun(s: State) -> Any:
        v = rs(s) if rs is not None else await raw.aio(s)  # type: ignore[misc]
        if type(v) is Text:
            return v.units
        return gs(s) if gs is not None else await generic.aio(s)  # type: ignore[misc]

    return Compiled(aio=arun)


def opened(acc: str | Text, front: bool = False) -> _Pieces:
    """The pieces an append to ``acc`` extends (a prepend, ``front``): its own when it is the
    last version of them, built the same way, else new ones (an older version copied once, a
    text as the first piece)."""
    if type(acc) is Text:
        if acc.pieces.size == acc.size and acc.pieces.front == front:
            return acc.pieces
        whole = acc.text()
        return _Pieces([whole], len(whole), acc.units, front)
    assert type(acc) is str
    return _Pieces([acc], len(acc), utf16_length(acc), front)


def grow(pieces: _Pieces, piece: str) -> None:
    pieces.parts.append(piece)
    pieces.size += len(piece)
    pieces.units += utf16_length(piece)


def closed(pieces: _Pieces) -> Text:
    """The version of ``pieces`` that holds them all."""
    return Text(pieces, pieces.size, pieces.units)


def _appender(
    path: JSONPath, stringify: Callable[[Any], str], max_len: int, front: bool = False
) -> Callable[[list[Any]], Any]:
    """The ``+`` of a version and a piece (of a piece and a version, ``front``): the next
    version (or JavaScript's ``+`` when the version's operand is no text)."""

    def text(v: Any, total: int) -> str:
        try:
            piece = v if type(v) is str else add("", v, stringify, max_len)
            if total + len(piece) > max_len:
                raise TextTooLong(total + len(piece), max_len)
        except JsRefusal as exc:
            raise refused(exc, "+", path) from None
        return piece

    def append(vs: list[Any]) -> Any:
        left, right = vs
        t = type(left)
        if t is Text or t is str:
            pieces = opened(left)
            grow(pieces, text(right, pieces.size))
            return closed(pieces)
        try:
            return add(left, right, stringify, max_len)
        except JsRefusal as exc:
            raise refused(exc, "+", path) from None

    def prepend(vs: list[Any]) -> Any:
        left, right = vs
        t = type(right)
        if t is Text or t is str:
            pieces = opened(right, front=True)
            grow(pieces, text(left, pieces.size))
            return closed(pieces)
        try:
            return add(left, right, stringify, max_len)
        except JsRefusal as exc:
            raise refused(exc, "+", path) from None

    return prepend if front else append


def _template_append(c: Compiler, node: Template) -> Compiled | None:
    """`` `${v}...` `` of a version ``v``: the next version, the rest of the template its
    piece, when ``v`` is a text (else the template as written, which reads ``v`` again: an
    alias, read once); None (as written) for parts that wait."""
    left = c.compile(node.parts[0])  # type: ignore[arg-type]
    rest = c.compile(template_rest(node))
    whole = c._table[Template](c, node)
    ls, rs, ws = left.sync, rest.sync, whole.sync
    if ls is None or rs is None or ws is None:
        return None
    add_piece = _appender(node.path, c.serializer.stringify, c.limits.max_string_length)

    def run(s: State) -> Any:
        v = ls(s)
        if type(v) is Text or type(v) is str:
            return add_piece([v, rs(s)])
        return ws(s)

    return Compiled(sync=run)


def _texts(v: Any) -> Any:
    """A fold's final state (or a reduce's text) with texts for its versions."""
    if type(v) is Text:
        return v.text()
    if type(v) is dict and any(type(x) is Text for x in v.values()):
        return {k: (x.text() if type(x) is Text else x) for k, x in v.items()}
    return v


def text_site(c: Compiler, node: Node) -> Compiled | None:
    """The closure of ``node`` where :mod:`dialectic.resolve.foldtext` marked it (None: as
    written): a loop whose final state holds texts again, an append, a read."""
    texts = c.resolved.texts
    t = type(node)
    lam: Node | None = None
    if t is Method and node.name in FOLDS and node.args:  # type: ignore[attr-defined]
        lam = node.args[0]  # type: ignore[attr-defined]
    elif t is While:
        lam = node.step  # type: ignore[attr-defined]
    if type(lam) is Lambda and id(lam) in texts:
        c._text_loops.append(id(lam))
        try:
            return viewed(c._table[t](c, node), _texts)
        finally:
            c._text_loops.pop()
    mark = texts.get(id(node))
    if mark is None:
        return None
    _, kind, arg = mark
    if kind == "append" or kind == "prepend":
        if arg not in c._text_loops:  # (not compiled inside its loop: as written)
            return None
        if type(node) is Template:  # `${v}...`: v followed by the rest, for a text v
            return _template_append(c, node)
        assert type(node) is Op
        parts = [c.compile(o) for o in node.operands]
        stringify, max_len = c.serializer.stringify, c.limits.max_string_length
        return c._combine(parts, _appender(node.path, stringify, max_len, kind == "prepend"))
    if kind == "build":  # (a reduce appending to the text: :mod:`.textfold`)
        if arg not in c._text_loops:
            return None
        assert type(node) is Method
        c._text_builds.add(id(node.args[0]))
        return c._table[Method](c, node)
    if kind == "length":
        assert type(node) is Get
        return length_of(c.compile(node.target), c._table[Get](c, node))
    return viewed(c._table[t](c, node), viewer(kind, arg))
