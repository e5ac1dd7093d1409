"""``$letrec`` and ``$apply`` (SPEC 1.2) written as Plan (a part of :mod:`.decompile`): each
function of a ``$letrec`` becomes a definition at the top of the program, ``const f = (n) =>
...;`` (Plan's recursive function, SPEC 10), the ``$letrec`` its expression, and ``$apply`` the
call ``f(args)``. Plan's own trees define a function once per use, each copy the same: a name
defined twice with different bodies has no Plan form."""

from __future__ import annotations

from typing import Any, Protocol

from dialectic.frontends.plan.decompileliterals import DecompileError, identifier

__all__ = ["apply_form", "definitions", "letrec_form"]

_SHAPE = '$letrec takes [["name", {"$fn": [params, body]}], ..., expression]'


class _Writer(Protocol):
    recursive: dict[str, str]

    def expr(self, node: Any, depth: int = 0) -> str: ...

    def arrow(self, value: Any, depth: int) -> str: ...


def letrec_form(writer: _Writer, value: Any, depth: int) -> str:
    if type(value) is not list or len(value) < 2:
        raise DecompileError(_SHAPE)
    for pair in value[:-1]:
        fn = pair[1] if type(pair) is list and len(pair) == 2 else None
        if type(pair[0]) is not str or type(fn) is not dict or len(fn) != 1 or "$fn" not in fn:
            raise DecompileError(
                '$letrec takes [["name", {"$fn": [params, body]}], ..., expression]'
            )
        name = identifier(pair[0], "the function")
        text = writer.arrow(fn["$fn"], depth + 1)[1:-1]  # (`(n) => ...`, unparenthesized)
        seen = writer.recursive.get(name)
        if seen is not None and seen != text:
            raise DecompileError(f"the recursive function `{name}` is defined twice, differently")
        writer.recursive[name] = text
    return writer.expr(value[-1], depth + 1)


def apply_form(writer: _Writer, value: Any, depth: int) -> str:
    if type(value) is not list or not value or type(value[0]) is not str:
        raise DecompileError('$apply takes ["name", argument, ...]')
    name = identifier(value[0], "the function")
    return f"{name}(" + ", ".join(writer.expr(a, depth + 1) for a in value[1:]) + ")"


def definitions(writer: _Writer) -> list[str]:
    """The recursive functions met, as statements for the top of the program."""
    return [f"const {name} = {text};" for name, text in writer.recursive.items()]
