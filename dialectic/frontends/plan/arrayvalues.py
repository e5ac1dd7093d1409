"""The value of ``pop()``, ``shift()`` and ``splice(...)`` inside a statement (SPEC 10, "Changes
outside loops"), as programs drain a stack or take items off a list::

    while (stack.length) out.push(stack.pop());
    const first = q.shift();          const removed = xs.splice(1, 2);

Read on the tokens, only when the program as written is refused (:func:`.parse_plan` reads it
again), as :mod:`.stepvalues` reads ``i++``: a statement holding one call ``W.pop()`` is the
statement with ``W.at(-1)`` in its place followed by ``W.pop();`` (``shift``: ``W.at(0)``;
``splice(A)``: ``W.slice(A)``; ``splice(A, B, ...items)``: ``W.slice(A).slice(0, Math.max(B,
0))``, the items JavaScript removes), and the statement ``W.pop();`` is then the change the
blocks (:mod:`.arraychanges`) and the loops (:mod:`.worklist`) read, or refuse. Both read the
array before the change, as JavaScript's call does, so the statement must not be able to tell
when the change happened; it is read so only when (as :mod:`.stepvalues` asks of ``i++``):

- the statement is one of a block or a body without braces (written in braces with its change),
  starts with a name, ``const`` or ``let`` (no pattern), and holds no block;
- it holds one such call, on a plain name ``W`` that it reads nowhere else (the call's
  arguments may read it: JavaScript reads them before the change), whose arguments are names,
  numbers, texts, members, ``+`` and ``-`` only (read twice: no call);
- it holds no arrow, ``function``, ``&&``, ``||``, ``??``, ``?:`` or ``?.``, no name of a
  function the program defines, and no ``await`` inside a function's body; the program has no
  ``try``, ``catch``, ``finally``, ``then``, ``allSettled``, ``any`` or ``race``.

Anything else is left as written (the resolver refuses ``pop()`` there with what to write)."""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.lexer import Lexed, lex
from dialectic.frontends.plan.stepvalues import (
    _BRANCHING,
    _CATCHERS,
    _KEYWORDS,
    _function_names,
    _Statement,
    _statements,
)
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["array_values"]

_METHODS = frozenset(["pop", "shift", "splice"])
#: the tokens a `splice` argument may hold (read twice, so nothing that runs or changes)
_SIMPLE = frozenset(["name", "num", "str", ".", ",", "+", "-"])


def array_values(source: str, tokens: Lexed, plain: bool = True) -> Lexed | None:
    """``tokens`` with each statement holding the value of ``W.pop()``, ``W.shift()`` or
    ``W.splice(...)`` written as two (None: there is none to write). ``plain``: also the
    statements ``const x = W.pop();`` and ``x = W.shift();``, which :mod:`.worklist` reads
    first in a stack's or a queue's loop (this pass runs before it without them, and after
    it with them)."""
    if ".pop(" not in source and ".shift(" not in source and ".splice(" not in source:
        return None
    kinds, values = tokens.kinds, tokens.values
    if any(k == "name" and v in _CATCHERS for k, v in zip(kinds, values, strict=True)):
        return None
    found = _statements(tokens, _METHODS)
    if not found:
        return None
    functions = _function_names(kinds, values)
    chosen: list[tuple[_Statement, int, int]] = []
    for st in found:
        call = _one_call(kinds, values, st)
        if call is not None and (plain or not _plain(kinds, values, st, call[0], call[1])):
            if not _readable(tokens, functions, st, *call):
                continue
            chosen.append((st, *call))
    if not chosen:
        return None
    return _rewrite(source, tokens, chosen)


def _one_call(
    kinds: Sequence[str], values: Sequence[object], st: _Statement
) -> tuple[int, int] | None:
    """The statement's one call ``W.m(...)``: the token of ``W`` and of the call's ``)``
    (None: none, more than one, or the statement is the call alone)."""
    found: tuple[int, int] | None = None
    j = st.start
    while j < st.end:
        if (
            kinds[j] == "name"
            and values[j] in _METHODS
            and kinds[j - 1] == "."
            and kinds[j + 1] == "("
        ):
            if found is not None or kinds[j - 2] != "name" or j - 2 < st.start:
                return None
            if kinds[j - 3] == "." or (kinds[j - 3] == "op" and values[j - 3] == "?."):
                return None  # (a member's array: `o.xs.pop()`)
            close = _close(kinds, j + 1, st.end)
            if close < 0:
                return None
            found = (j - 2, close)
        j += 1
    if found is None or (found[0] == st.start and found[1] + 1 >= st.end):
        return None  # (`W.pop();` is a change of its own: :mod:`.arraychanges`)
    return found


def _plain(
    kinds: Sequence[str], values: Sequence[object], st: _Statement, name_at: int, close: int
) -> bool:
    """Whether the statement is ``const x = W.m();``, ``let x = W.m();`` or ``x = W.m();``."""
    at = st.start + (values[st.start] in ("const", "let"))
    return (
        close + 1 == st.end
        and kinds[at] == "name"
        and kinds[at + 1] == "="
        and at + 2 == name_at
        and values[name_at + 2] in ("pop", "shift")
    )


def _close(kinds: Sequence[str], open_at: int, end: int) -> int:
    """The ``)`` closing the ``(`` at ``open_at`` when the call's arguments are simple
    tokens (-1 otherwise)."""
    for j in range(open_at + 1, end):
        if kinds[j] == ")":
            return j
        if kinds[j] not in _SIMPLE:
            return -1
    return -1


def _readable(tokens: Lexed, functions: set[str], st: _Statement, name_at: int, close: int) -> bool:
    kinds, values = tokens.kinds, tokens.values
    first = values[st.start]
    if kinds[st.start] != "name" or (first in _KEYWORDS and first not in ("const", "let")):
        return False
    if first in ("const", "let") and kinds[st.start + 1] != "name":
        return False  # (a pattern's defaults are read after the value)
    method = values[name_at + 2]
    args = range(name_at + 4, close)
    if method != "splice" and len(args):
        return False
    if method == "splice" and (
        not len(args) or any(kinds[j] == "name" and values[j] in functions for j in args)
    ):
        return False
    name = values[name_at]
    for j in range(st.start, st.end):
        kind, value = kinds[j], values[j]
        if kind == "name":
            if value == name and j != name_at and not name_at < j < close:
                return False
            if value in functions or value == "function" or (value == "await" and st.in_function):
                return False
        elif (kind == "op" and value in _BRANCHING) or kind == "{" or kind == "}":
            return False
    return True


def _split_args(kinds: Sequence[str], first: int, close: int) -> list[tuple[int, int]]:
    """The arguments' token ranges (no brackets inside: :func:`_close`)."""
    out = []
    at = first
    for j in range(first, close):
        if kinds[j] == ",":
            out.append((at, j))
            at = j + 1
    if at < close:
        out.append((at, close))
    return out


def _rewrite(source: str, tokens: Lexed, chosen: list[tuple[_Statement, int, int]]) -> Lexed:
    """The tokens with each chosen statement written as two."""
    kinds, values = tokens.kinds, tokens.values
    out = TokenWriter(tokens)

    def put_text(text: str, j: int) -> None:
        small = lex(text)
        for kind, value in zip(small.kinds, small.values, strict=True):
            if kind != "eof":
                out.put(kind, value, j)

    at = 0
    for st, name_at, close in chosen:
        method = str(values[name_at + 2])
        out.copy(at, st.start)
        if st.wrap:
            out.put("{", "{", st.start)
        out.copy(st.start, name_at + 2)  # up to `W.`, then the value read before the change
        if method == "pop":
            put_text("at(-1)", name_at + 2)
        elif method == "shift":
            put_text("at(0)", name_at + 2)
        else:
            parts = _split_args(kinds, name_at + 4, close)
            out.put("name", "slice", name_at + 2)
            out.put("(", "(", name_at + 3)
            out.copy(*parts[0])
            out.put(")", ")", close)
            if len(parts) > 1:
                put_text(".slice(0, Math.max(", name_at + 2)
                out.copy(*parts[1])
                put_text(", 0))", close)
        out.copy(close + 1, st.end)
        out.put(";", ";", close)
        out.copy(name_at, close + 1)  # `W.pop();`
        out.put(";", ";", close)
        if st.wrap:
            out.put("}", "}", st.end - 1)
        at = st.end + 1 if st.semi else st.end
    out.copy(at, len(kinds))
    return out.lexed(source)
