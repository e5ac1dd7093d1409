"""JavaScript's ``+`` of synchronous operands, a chain of them fused (SPEC 1.7).

``a + b + c + d`` is left-associative: ``((a + b) + c) + d``, one ``$op`` node per ``+``. Its
closure evaluates the operands left to right and applies :func:`dialectic.values.jsops.add`
pairwise, as the nested closures would, in one function: a ``+`` whose left operand is itself
such a chain extends it (:class:`PlusChain`, up to :data:`CHAIN_MAX` operands; a longer chain
goes on as a new one). A refusal names the ``+`` that failed, by its own node's path; two texts
are joined in place, a literal operand is read in place (no closure call).

A chain that starts with a literal text (``"Hi " + name + "!"``) is text from its first ``+`` on,
and ``text + w`` is ``text + ("" + w)`` (the same text, the same refusal): with one to four
operands that are not literals, it runs unrolled, each such operand made text (or refused) as
soon as it is evaluated, the whole joined in one step (:func:`_text_chain`).

Every text a chain makes is within ``max_len`` (the run's ``max_string_length``, fixed when the
program is compiled), measured before it is built: else ``limit_exceeded`` at the ``+`` that
would cross it (SPEC 1.8, "Limits").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.compiler.literals import Literal
from dialectic.outcome.errors import DialecticError, JSONPath
from dialectic.run.evaluator import Compiled, State
from dialectic.values.jsops import JsRefusal, TextTooLong, add

#: the most operands one fused closure evaluates (bounds the compile cost of a long chain)
CHAIN_MAX = 16
#: a chain of ``+`` nodes is compiled in one walk of its left spine, building only the
#: closures that are kept (``Compiler._plus``; a test turns it off to compare with one
#: compile per ``+``)
SPINE = True

SyncFn = Callable[[State], Any]
#: an operand: its closure (None: a literal), its literal value, and the path of the `+` that
#: adds it (the first operand's is unused)
Term = tuple[SyncFn | None, Any, JSONPath]


class PlusChain(Compiled):
    """The compiled ``+`` chain: its operands (:data:`Term`), for a ``+`` after it to extend."""

    __slots__ = ("terms",)

    def __init__(self, sync: SyncFn, terms: tuple[Term, ...]) -> None:
        super().__init__(sync=sync)
        self.terms = terms


_PLUS = {"operator": "+"}


def _too_long(n: int, max_len: int, path: JSONPath) -> DialecticError:
    """The failure of the ``+`` at ``path``: its text would be ``n`` characters."""
    return TextTooLong(n, max_len).error(path, _PLUS)


def _refused(exc: JsRefusal, path: JSONPath) -> DialecticError:
    if type(exc) is TextTooLong:
        return exc.error(path, _PLUS)
    return DialecticError(
        "expression_error", exc.message, path, hint=exc.hint, details={"operator": "+"}
    )


def _term(c: Compiled, path: JSONPath) -> Term:
    if type(c) is Literal:
        return (None, c.value, path)
    return (c.sync, None, path)


def plus(
    left: Compiled,
    right: Compiled,
    path: JSONPath,
    stringify: Callable[[Any], str],
    max_len: int,
) -> Compiled:
    """The closure of ``left + right`` (both synchronous), at ``path``; a text it makes is
    within ``max_len`` (the run's ``max_string_length``)."""
    return chain(extend(left, right, path, stringify, max_len), stringify, max_len)


def extend(
    left: Compiled | tuple[Term, ...],
    right: Compiled,
    path: JSONPath,
    stringify: Callable[[Any], str],
    max_len: int,
) -> tuple[Term, ...]:
    """The operands of the chain ``left + right`` at ``path`` (``left``: a compiled operand,
    or the operands of a chain not built yet): ``left``'s extended while it has fewer than
    :data:`CHAIN_MAX`, else a new chain whose first operand is ``left``, built."""
    if type(left) is PlusChain:
        if len(left.terms) < CHAIN_MAX:
            return (*left.terms, _term(right, path))
        return (_term(left, ()), _term(right, path))
    if type(left) is tuple:
        if len(left) < CHAIN_MAX:
            return (*left, _term(right, path))
        return (_term(chain(left, stringify, max_len), ()), _term(right, path))
    return (_term(left, ()), _term(right, path))  # type: ignore[arg-type]


def chain(terms: tuple[Term, ...], stringify: Callable[[Any], str], max_len: int) -> PlusChain:
    """The compiled chain of ``terms``; a text it makes is within ``max_len``."""
    if len(terms) == 2:
        return PlusChain(_binary(terms, stringify, max_len), terms)
    text = _text_chain(terms, stringify, max_len)
    return PlusChain(text if text is not None else _chain(terms, stringify, max_len), terms)


def _binary(terms: tuple[Term, ...], stringify: Callable[[Any], str], max_len: int) -> SyncFn:
    (fa, ca, _), (fb, cb, path) = terms
    if fa is not None and fb is None:  # `x + '!'`
        room = max_len - len(cb) if type(cb) is str else 0  # the longest `x` that fits

        def plus_literal(s: State) -> Any:
            a = fa(s)
            if type(a) is str and type(cb) is str:
                if len(a) > room:
                    raise _too_long(len(a) + len(cb), max_len, path)
                return a + cb
            try:
                return add(a, cb, stringify, max_len)
            except JsRefusal as exc:
                raise _refused(exc, path) from None

        return plus_literal
    if fa is None and fb is not None:  # `'Hi ' + x`
        room = max_len - len(ca) if type(ca) is str else 0

        def literal_plus(s: State) -> Any:
            b = fb(s)
            if type(ca) is str and type(b) is str:
                if len(b) > room:
                    raise _too_long(len(ca) + len(b), max_len, path)
                return ca + b
            try:
                return add(ca, b, stringify, max_len)
            except JsRefusal as exc:
                raise _refused(exc, path) from None

        return literal_plus
    first = fa if fa is not None else (lambda s: ca)
    second = fb if fb is not None else (lambda s: cb)

    def plus_two(s: State) -> Any:
        a = first(s)
        b = second(s)
        if type(a) is str and type(b) is str:
            if len(a) + len(b) > max_len:  # measured before the text is built
                raise _too_long(len(a) + len(b), max_len, path)
            return a + b
        try:
            return add(a, b, stringify, max_len)
        except JsRefusal as exc:
            raise _refused(exc, path) from None

    return plus_two


def _chain(terms: tuple[Term, ...], stringify: Callable[[Any], str], max_len: int) -> SyncFn:
    (f0, c0, _), rest = terms[0], terms[1:]

    def plus_chain(s: State) -> Any:
        v = c0 if f0 is None else f0(s)
        for fn, const, path in rest:
            w = const if fn is None else fn(s)
            if type(v) is str and type(w) is str:
                if len(v) + len(w) > max_len:  # measured before the text is built
                    raise _too_long(len(v) + len(w), max_len, path)
                v += w
                continue
            try:
                v = add(v, w, stringify, max_len)
            except JsRefusal as exc:
                raise _refused(exc, path) from None
        return v

    return plus_chain


Text = Callable[[Any, JSONPath], str]


def _text_chain(
    terms: tuple[Term, ...], stringify: Callable[[Any], str], max_len: int
) -> SyncFn | None:
    """The unrolled closure of a chain that starts with a literal text, or None."""
    (f0, c0, _) = terms[0]
    if f0 is not None or type(c0) is not str:
        return None
    lits, fns, paths = [c0], [], []
    for fn, const, path in terms[1:]:
        if fn is None:
            try:
                lits[-1] += add("", const, stringify, max_len)  # a literal: made text once
            except JsRefusal:
                return None  # (`'a' + null`: refused when it is reached, as before)
        else:
            fns.append(fn)
            paths.append(path)
            lits.append("")
    unrolled = _TEXT_UNROLLED.get(len(fns))
    if unrolled is None:
        return None

    def text(w: Any, path: JSONPath) -> str:
        try:
            out: str = add("", w, stringify, max_len)
        except JsRefusal as exc:
            raise _refused(exc, path) from None
        return out

    return unrolled(lits, fns, paths, text, max_len)


def _text_1(
    lits: list[str], fns: list[SyncFn], paths: list[JSONPath], text: Text, max_len: int
) -> SyncFn:
    t0, t1 = lits
    fixed = len(t0) + len(t1)
    (f0,) = fns
    (p0,) = paths

    def plus_text_1(s: State) -> str:
        a = f0(s)
        if type(a) is not str:
            a = text(a, p0)
        n = fixed + len(a)
        if n > max_len:  # measured before the text is built
            raise _too_long(n, max_len, p0)
        return f"{t0}{a}{t1}"

    return plus_text_1


def _text_2(
    lits: list[str], fns: list[SyncFn], paths: list[JSONPath], text: Text, max_len: int
) -> SyncFn:
    t0, t1, t2 = lits
    fixed = len(t0) + len(t1) + len(t2)
    f0, f1 = fns
    p0, p1 = paths

    def plus_text_2(s: State) -> str:
        a = f0(s)
        if type(a) is not str:
            a = text(a, p0)
        b = f1(s)
        if type(b) is not str:
            b = text(b, p1)
        n = fixed + len(a) + len(b)
        if n > max_len:  # measured before the text is built
            raise _too_long(n, max_len, p1)
        return f"{t0}{a}{t1}{b}{t2}"

    return plus_text_2


def _text_3(
    lits: list[str], fns: list[SyncFn], paths: list[JSONPath], text: Text, max_len: int
) -> SyncFn:
    t0, t1, t2, t3 = lits
    fixed = len(t0) + len(t1) + len(t2) + len(t3)
    f0, f1, f2 = fns
    p0, p1, p2 = paths

    def plus_text_3(s: State) -> str:
        a = f0(s)
        if type(a) is not str:
            a = text(a, p0)
        b = f1(s)
        if type(b) is not str:
            b = text(b, p1)
        c = f2(s)
        if type(c) is not str:
            c = text(c, p2)
        n = fixed + len(a) + len(b) + len(c)
        if n > max_len:  # measured before the text is built
            raise _too_long(n, max_len, p2)
        return f"{t0}{a}{t1}{b}{t2}{c}{t3}"

    return plus_text_3


def _text_4(
    lits: list[str], fns: list[SyncFn], paths: list[JSONPath], text: Text, max_len: int
) -> SyncFn:
    t0, t1, t2, t3, t4 = lits
    fixed = len(t0) + len(t1) + len(t2) + len(t3) + len(t4)
    f0, f1, f2, f3 = fns
    p0, p1, p2, p3 = paths

    def plus_text_4(s: State) -> str:
        a = f0(s)
        if type(a) is not str:
            a = text(a, p0)
        b = f1(s)
        if type(b) is not str:
            b = text(b, p1)
        c = f2(s)
        if type(c) is not str:
            c = text(c, p2)
        d = f3(s)
        if type(d) is not str:
            d = text(d, p3)
        n = fixed + len(a) + len(b) + len(c) + len(d)
        if n > max_len:  # measured before the text is built
            raise _too_long(n, max_len, p3)
        return f"{t0}{a}{t1}{b}{t2}{c}{t3}{d}{t4}"

    return plus_text_4


_TEXT_UNROLLED: dict[
    int, Callable[[list[str], list[SyncFn], list[JSONPath], Text, int], SyncFn]
] = {
    1: _text_1,
    2: _text_2,
    3: _text_3,
    4: _text_4,
}
