"""Compiling a template (``$template``, a Plan template literal): its text parts and the
values of its expressions joined, a value that is not text stringified (JavaScript's
``String()`` for scalars, JSON otherwise), the whole within ``max_string_length``.

Every expression runs, in program order, even after one is ambiguous: the ambiguities of all
of them are reported together (:func:`_rest`). A template of one to four synchronous
expressions (nearly every one a model writes) runs as one unrolled function: no loop, no list,
the text built in one step once its length is known to be within the limit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from dialectic.outcome.errors import DialecticError, JSONPath, LimitExceeded
from dialectic.run.evaluator import AmbiguityError, Compiled, State

Stringify = Callable[[Any], str]
Combine = Callable[[list[Compiled], Callable[[list[Any]], Any]], Compiled]
SyncFn = Callable[[State], Any]


def template(
    lits: list[str],
    exprs: list[Compiled],
    stringify: Stringify,
    max_len: int,
    path: JSONPath,
    combine: Combine,
) -> Compiled:
    """The closure of a template: ``exprs`` are its expressions (compiled, in order), ``lits``
    the text before each and after the last (adjacent text parts joined)."""
    if not exprs:
        text = lits[0]
        if len(text) > max_len:
            raise _too_long(len(text), max_len, path)
        return Compiled(sync=lambda s: text)
    fns: list[SyncFn] = []
    for c in exprs:
        if c.sync is None:
            break
        fns.append(c.sync)
    else:
        unrolled = _UNROLLED.get(len(fns))
        if unrolled is not None:
            return Compiled(sync=unrolled(lits, fns, stringify, max_len, path))
        return Compiled(sync=_looped(lits, fns, stringify, max_len, path))
    return combine(exprs, _joiner(lits, stringify, max_len, path))


def _joiner(
    lits: list[str], stringify: Stringify, max_len: int, path: JSONPath
) -> Callable[[list[Any]], str]:
    """The text of a template from its expressions' values (made apart from
    :func:`template`: a closure's parts are cells of the function that makes it, made on
    every call of that function, whichever way it returns)."""

    def finish(vs: list[Any]) -> str:
        out = [lits[0]]
        for v, lit in zip(vs, lits[1:], strict=True):
            out.append(_text(stringify, v, path))
            out.append(lit)
        total = sum(len(p) for p in out)
        if total > max_len:
            raise _too_long(total, max_len, path)
        return "".join(out)

    return finish


def _too_long(n: int, max_len: int, path: JSONPath) -> LimitExceeded:
    return LimitExceeded(
        "max_string_length",
        f"a template would produce {n} characters; the limit is {max_len}",
        path,
    )


def _text(stringify: Stringify, v: Any, path: JSONPath) -> str:
    """``v`` made text; a value that cannot be text fails here, at the template."""
    try:
        return stringify(v)
    except DialecticError as exc:
        if not exc.path:
            exc.path = path
        raise


def _rest(
    exc: AmbiguityError,
    fns: list[SyncFn],
    after: int,
    s: State,
    stringify: Stringify,
    path: JSONPath,
) -> NoReturn:
    """Expression ``after - 1`` was ambiguous: run the ones after it (program order), their
    ambiguities merged with ``exc``, and raise them all (another error stops it, as before)."""
    amb = exc
    for fn in fns[after:]:
        try:
            v = fn(s)
        except AmbiguityError as more:
            amb = amb.merged(more)
            continue
        if type(v) is not str:
            _text(stringify, v, path)  # as the text would be made: it may fail (too long)
    raise amb


def _looped(
    lits: list[str], fns: list[SyncFn], stringify: Stringify, max_len: int, path: JSONPath
) -> SyncFn:
    fixed = sum(map(len, lits))
    first, rest = lits[0], tuple(zip(fns, lits[1:], strict=True))

    def template_n(s: State) -> str:
        out = [first]
        total = fixed
        amb: AmbiguityError | None = None
        for fn, lit in rest:
            try:
                v = fn(s)
            except AmbiguityError as exc:
                amb = exc if amb is None else amb.merged(exc)  # program order
                continue
            if type(v) is not str:
                v = _text(stringify, v, path)
            total += len(v)
            out.append(v)
            out.append(lit)
        if amb is not None:
            raise amb
        if total > max_len:  # measured before joining: never an oversized string
            raise _too_long(total, max_len, path)
        return "".join(out)

    return template_n


def _one(
    lits: list[str], fns: list[SyncFn], stringify: Stringify, max_len: int, path: JSONPath
) -> SyncFn:
    t0, t1 = lits
    (f0,) = fns
    fixed = len(t0) + len(t1)

    def template_1(s: State) -> str:
        a = f0(s)  # alone: no other to run after an ambiguity
        if type(a) is not str:
            a = _text(stringify, a, path)
        n = fixed + len(a)
        if n > max_len:  # measured before joining: never an oversized string
            raise _too_long(n, max_len, path)
        return f"{t0}{a}{t1}"

    return template_1


def _two(
    lits: list[str], fns: list[SyncFn], stringify: Stringify, max_len: int, path: JSONPath
) -> SyncFn:
    t0, t1, t2 = lits
    f0, f1 = fns
    fixed = len(t0) + len(t1) + len(t2)

    def template_2(s: State) -> str:
        try:
            a = f0(s)
        except AmbiguityError as exc:
            _rest(exc, fns, 1, s, stringify, path)
        if type(a) is not str:
            a = _text(stringify, a, path)
        b = f1(s)  # the last: no other to run after an ambiguity
        if type(b) is not str:
            b = _text(stringify, b, path)
        n = fixed + len(a) + len(b)
        if n > max_len:  # measured before joining: never an oversized string
            raise _too_long(n, max_len, path)
        return f"{t0}{a}{t1}{b}{t2}"

    return template_2


def _three(
    lits: list[str], fns: list[SyncFn], stringify: Stringify, max_len: int, path: JSONPath
) -> SyncFn:
    t0, t1, t2, t3 = lits
    f0, f1, f2 = fns
    fixed = len(t0) + len(t1) + len(t2) + len(t3)

    def template_3(s: State) -> str:
        try:
            a = f0(s)
        except AmbiguityError as exc:
            _rest(exc, fns, 1, s, stringify, path)
        if type(a) is not str:
            a = _text(stringify, a, path)
        try:
            b = f1(s)
        except AmbiguityError as exc:
            _rest(exc, fns, 2, s, stringify, path)
        if type(b) is not str:
            b = _text(stringify, b, path)
        c = f2(s)  # the last: no other to run after an ambiguity
        if type(c) is not str:
            c = _text(stringify, c, path)
        n = fixed + len(a) + len(b) + len(c)
        if n > max_len:  # measured before joining: never an oversized string
            raise _too_long(n, max_len, path)
        return f"{t0}{a}{t1}{b}{t2}{c}{t3}"

    return template_3


def _four(
    lits: list[str], fns: list[SyncFn], stringify: Stringify, max_len: int, path: JSONPath
) -> SyncFn:
    t0, t1, t2, t3, t4 = lits
    f0, f1, f2, f3 = fns
    fixed = len(t0) + len(t1) + len(t2) + len(t3) + len(t4)

    def template_4(s: State) -> str:
        try:
            a = f0(s)
        except AmbiguityError as exc:
            _rest(exc, fns, 1, s, stringify, path)
        if type(a) is not str:
            a = _text(stringify, a, path)
        try:
            b = f1(s)
        except AmbiguityError as exc:
            _rest(exc, fns, 2, s, stringify, path)
        if type(b) is not str:
            b = _text(stringify, b, path)
        try:
            c = f2(s)
        except AmbiguityError as exc:
            _rest(exc, fns, 3, s, stringify, path)
        if type(c) is not str:
            c = _text(stringify, c, path)
        d = f3(s)  # the last: no other to run after an ambiguity
        if type(d) is not str:
            d = _text(stringify, d, path)
        n = fixed + len(a) + len(b) + len(c) + len(d)
        if n > max_len:  # measured before joining: never an oversized string
            raise _too_long(n, max_len, path)
        return f"{t0}{a}{t1}{b}{t2}{c}{t3}{d}{t4}"

    return template_4


_UNROLLED: dict[int, Callable[..., SyncFn]] = {1: _one, 2: _two, 3: _three, 4: _four}
