"""The closures of member reads (SPEC 1.2, "Member access"), made for the compiler's ``_Get`` and
for an arrow function's parameter: ``target.k1.k2`` with literal keys read in one loop
(:func:`_literal_get`, :func:`param_get`), ``target[k1][k2]`` from computed values
(:func:`_computed_get`: soft keys through ``soft_member``, a computed negative index refused
as before the start). Each is made by a function of its own: a closure's parts are cells of the
function that makes it, made on every call of that function. Moved out of
:mod:`dialectic.compiler.closures`, which keeps the compiler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.compiler.access import soft_member
from dialectic.compiler.lambdas import FRAME
from dialectic.outcome.errors import DialecticError, JSONPath
from dialectic.resolve.forbidden import forbidden_error, is_forbidden
from dialectic.run.evaluator import State
from dialectic.tree.nodes import Get, Lit, Node, ParamRef
from dialectic.values.data import UNDEFINED


# (the closures of `_Get` are made by functions of their own: a closure's parts are cells of
# the function that makes it, made on every call of that function, whichever way it returns)
def _literal_get(
    ctx_name: str | None,
    read: Callable[[State], Any],
    keys: tuple[Any, ...],
    member: Callable[[Any, Any, JSONPath], Any],
    path: JSONPath,
) -> Callable[[State], Any]:
    """``target.k1.k2...`` with literal keys: the context value ``ctx_name`` (if not None)
    or what ``read`` reads, then each key."""

    def get_literal(s: State) -> Any:
        v = s.context[ctx_name] if ctx_name is not None else read(s)
        for k in keys:
            if type(v) is dict:
                try:
                    v = v[k]
                    continue
                except (KeyError, TypeError):
                    pass
            v = member(v, k, path)
        return v

    return get_literal


def _computed_get(
    member: Callable[[Any, Any, JSONPath], Any],
    path: JSONPath,
    soft: int = 0,
    computed: int = 0,
) -> Callable[[list[Any]], Any]:
    """``target[k1][k2]...`` from the values of the target and its keys; key ``i`` reads
    through :func:`soft_member` if bit ``i`` of ``soft`` is set (SPEC 1.2, "Optional
    members"). A key computed by the program (bit ``i`` of ``computed``) that is a negative
    integer names no item of an array or a text, as in JavaScript (`xs[i - 1]` at `i = 0`):
    only a literal negative index counts from the end (SPEC 1.2)."""

    def finish(vs: list[Any]) -> Any:
        v = vs[0]
        for i, k in enumerate(vs[1:]):
            tk = type(k)
            if tk is str and is_forbidden(k):
                raise forbidden_error(k, path)
            if tk is int and k < 0 and computed >> i & 1 and (type(v) is list or type(v) is str):
                if soft >> i & 1:
                    v = UNDEFINED
                    continue
                raise _before_the_start(k, v, path)
            v = soft_member(member, v, k, path) if soft >> i & 1 else member(v, k, path)
        return v

    return finish


def _computed_keys(node: Get) -> int:
    """The bits of ``node``'s keys that the program computes (not literals)."""
    bits = 0
    for i, k in enumerate(node.keys):
        if type(k) is not Lit:
            bits |= 1 << i
    return bits


def _before_the_start(key: int, value: Any, path: JSONPath) -> DialecticError:
    what = "an array" if type(value) is list else "a text"
    shown = key if key > -(10**18) else "(a huge negative number)"
    return DialecticError(
        "index_out_of_range",
        f"the computed index {shown} is before the start of {what}: JavaScript reads no item "
        "there (undefined)",
        path,
        hint="If the index may be negative, give a default: `xs[i] ?? default`; for an item "
        "counted from the end write `xs.at(-1)`.",
    )


def _values(keys: tuple[Node, ...]) -> tuple[Any, ...]:
    """The values of literal keys (one or two read without a loop: most member paths)."""
    n = len(keys)
    if n == 1:
        return (keys[0].value,)  # type: ignore[attr-defined]
    if n == 2:
        return (keys[0].value, keys[1].value)  # type: ignore[attr-defined]
    return tuple([k.value for k in keys])  # type: ignore[attr-defined]


def param_get(
    param: ParamRef,
    keys: tuple[Any, ...],
    member: Callable[[Any, Any, JSONPath], Any],
    path: JSONPath,
) -> Callable[[State], Any]:
    """``x.k1.k2`` for the arrow function's parameter ``x``: read in place, as a context value
    is (the parameter reader's closure call saved on every element)."""
    frame, index = param.frame, param.index
    var = FRAME

    def get_param(s: State) -> Any:
        args = var.get()[frame].args
        v = args[index] if index < len(args) else UNDEFINED
        for k in keys:
            if type(v) is dict:
                try:
                    v = v[k]
                    continue
                except (KeyError, TypeError):
                    pass
            v = member(v, k, path)
        return v

    return get_param
