"""The tokens of :mod:`.recordfields`' rewrite: each change of a record's field written as the
record's new value (``R = {...R, "f": R.f op (V)}``), each statement making a record as ``if
(!R) R = {...};`` and each ``!(k in o)`` as ``!o[k]``."""

from __future__ import annotations

import json

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.recordchange import ASSIGN, Change, CheckedObject
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["rewrite", "write_field"]


def rewrite(source: str, tokens: Lexed, kept: list[CheckedObject]) -> Lexed:
    """The tokens with each change written as the record's new value, each statement making
    a record as ``if (!R) R = {...};`` and each ``!(k in o)`` as ``!o[k]``."""
    edits: list[tuple[int, str, object]] = []
    for found in kept:
        edits.extend((c.start, "change", c) for c in found.changes)
        edits.extend((m[0], "make", m) for m in found.makes)
        edits.extend((t[0], "test", t) for t in found.tests)
    edits.sort(key=lambda e: e[0])
    out = TokenWriter(tokens)
    at = 0
    for first, what, edit in edits:
        if first < at:
            continue  # (inside an edit already made)
        out.copy(at, first)
        if what == "change":
            at = _write_change(out, edit)  # type: ignore[arg-type]
        elif what == "make":
            at = _write_make(out, edit)  # type: ignore[arg-type]
        else:
            at = _write_test(out, tokens, edit)  # type: ignore[arg-type]
    out.copy(at, len(tokens.kinds))
    return out.lexed(source)


def _write_change(out: TokenWriter, c: Change) -> int:
    """``R = {...R, "f": VALUE}`` for the change ``c``; the token after what it replaced."""
    put, copy = out.put, out.copy
    op = c.after
    copy(c.obj, c.record)  # R
    put("=", "=", op)
    put("{", "{", op)
    put("op", "...", op)
    copy(c.obj, c.record)
    put(",", ",", op)
    return write_field(out, c)


def write_field(out: TokenWriter, c: Change) -> int:
    """``"f": VALUE}`` (``[K]: VALUE}`` for a computed field), the record's changed field,
    for the change ``c`` (its field read as the tokens from ``c.obj`` to ``c.after``); the
    token after what it replaced."""
    put, copy = out.put, out.copy
    op = c.after
    if c.computed:
        copy(c.record, c.after)  # `[K]`: the key computed
    else:
        put("str", json.dumps(c.name), c.record)
    put(":", ":", op)
    if c.kind == "push":
        put("[", "[", op)
        put("op", "...", op)
        copy(c.obj, c.after)  # R.f
        put(",", ",", op)
        copy(c.value, c.end)  # the pushed values
        put("]", "]", c.end)
        put("}", "}", c.end)
        return c.end + 1
    if c.kind in ("++", "--"):
        put("+", "+", op)
        copy(c.obj, c.after)
        put(c.kind[0], c.kind[0], op)
        put("num", "1", op)
        put("}", "}", op)
        return c.end
    operator = ASSIGN[c.kind]
    if operator:
        copy(c.obj, c.after)  # R.f op (V)
        put(operator if operator in "+-" else "op", operator, op)
    put("(", "(", op)
    copy(c.value, c.end)
    put(")", ")", c.end - 1)
    put("}", "}", c.end - 1)
    return c.end


def _write_make(out: TokenWriter, m: tuple[int, int, int, int, int]) -> int:
    """``if (!R) R = {...}`` for ``R ??= {...}`` and ``R = R || {...}``."""
    first, obj, record, literal, stop = m
    put, copy = out.put, out.copy
    put("name", "if", first)
    put("(", "(", first)
    put("op", "!", first)
    copy(obj, record)
    put(")", ")", record)
    copy(obj, record)
    put("=", "=", record)
    copy(literal, stop)
    return stop


def _write_test(out: TokenWriter, tokens: Lexed, t: tuple[int, int, int]) -> int:
    """``o[k]`` for ``(k in o)`` (after its `!`)."""
    open_, key, key_end = t
    obj = key_end + 1
    out.copy(obj, obj + 1)
    out.put("[", "[", open_)
    out.copy(key, key_end)
    out.put("]", "]", obj + 2)
    return obj + 2
