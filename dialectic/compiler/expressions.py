"""Compiling JavaScript's operators and the conditional (SPEC 1.7): strict operators evaluate
their operands (concurrently when asynchronous) and apply :mod:`dialectic.values.jsops`;
``&&``, ``||``, ``??`` and ``? :`` run the right operand or the branch only when it is taken.
``+`` of synchronous operands (and its chains) compiles in :mod:`dialectic.compiler.plus`; a
literal right operand is read in place."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from dialectic.compiler.literals import Literal
from dialectic.compiler.plus import plus
from dialectic.outcome.errors import DialecticError, JSONPath
from dialectic.run.evaluator import Compiled, State
from dialectic.values import jsops
from dialectic.values.jsnan import or_nan
from dialectic.values.jsops import JsRefusal, TextTooLong, TooManyItems

Combine = Callable[[list[Compiled], Callable[[list[Any]], Any]], Compiled]


def refused(exc: JsRefusal, op: str, path: JSONPath) -> DialecticError:
    if type(exc) is TextTooLong or type(exc) is TooManyItems:  # limit_exceeded (SPEC 1.8)
        return exc.error(path, {"operator": op})
    return DialecticError(
        "expression_error",
        exc.message,
        path,
        hint=exc.hint,
        details={"operator": op},
    )


def operator(
    op: str,
    operands: list[Compiled],
    path: JSONPath,
    combine: Combine,
    stringify: Callable[[Any], str],
    max_len: int,
) -> Compiled:
    """The closure of ``op`` applied to ``operands`` (already compiled); a text ``+`` makes is
    within ``max_len`` (the run's ``max_string_length``)."""
    if op in jsops.LOGICAL:
        return _logical(op, operands[0], operands[1], path)
    if len(operands) == 1:
        unary = jsops.UNARY[op]

        def apply1(vs: list[Any]) -> Any:
            try:
                return unary(vs[0])
            except JsRefusal as exc:
                raise refused(exc, op, path) from None

        only = operands[0].sync
        if only is not None:
            return Compiled(sync=lambda s: apply1([only(s)]))
        return combine(operands, apply1)
    if op == "+" and operands[0].sync is not None and operands[1].sync is not None:
        return plus(operands[0], operands[1], path, stringify, max_len)
    binary: Callable[[Any, Any], Any] = (
        partial(_add, stringify, max_len) if op == "+" else jsops.BINARY[op]
    )

    def apply2(vs: list[Any]) -> Any:
        try:
            return binary(vs[0], vs[1])
        except JsRefusal as exc:
            raise refused(exc, op, path) from None

    left, right = operands[0].sync, operands[1].sync
    if left is not None and type(operands[1]) is Literal:  # `x === 'a'`, `n * 2`
        const = operands[1].value

        def with_literal(s: State) -> Any:
            a = left(s)
            try:
                return binary(a, const)
            except JsRefusal as exc:
                raise refused(exc, op, path) from None

        return Compiled(sync=with_literal)
    if left is not None and right is not None:

        def both(s: State) -> Any:
            a = left(s)
            b = right(s)
            try:
                return binary(a, b)
            except JsRefusal as exc:
                raise refused(exc, op, path) from None

        return Compiled(sync=both)
    return combine(operands, apply2)


def nan_plus(operand: Compiled, path: JSONPath, combine: Combine) -> Compiled:
    """``+x`` where the program tests its value for NaN (SPEC 1.7): NaN where JavaScript's
    value is NaN."""
    plus1 = or_nan(jsops.plus)

    def apply1(vs: list[Any]) -> Any:
        try:
            return plus1(vs[0])
        except JsRefusal as exc:
            raise refused(exc, "+", path) from None

    only = operand.sync
    if only is not None:
        return Compiled(sync=lambda s: apply1([only(s)]))
    return combine([operand], apply1)


def _add(stringify: Callable[[Any], str], max_len: int, a: Any, b: Any) -> Any:
    return jsops.add(a, b, stringify, max_len)


def _take_right(op: str) -> Callable[[Any], bool]:
    if op == "&&":
        return jsops.truthy
    if op == "||":
        return jsops.logical_not
    return jsops.nullish


def _logical(op: str, left: Compiled, right: Compiled, path: JSONPath) -> Compiled:
    take = _take_right(op)
    lsync, rsync = left.sync, right.sync
    if lsync is not None and rsync is not None:

        def short(s: State) -> Any:
            v = lsync(s)
            return rsync(s) if take(v) else v

        return Compiled(sync=short)

    async def ashort(s: State) -> Any:
        v = lsync(s) if lsync is not None else await left.aio(s)  # type: ignore[misc]
        if not take(v):
            return v
        return rsync(s) if rsync is not None else await right.aio(s)  # type: ignore[misc]

    return Compiled(aio=ashort)


def conditional(test: Compiled, then: Compiled, otherwise: Compiled) -> Compiled:
    """``test ? then : otherwise``: only the branch taken runs."""
    tsync, a, b = test.sync, then.sync, otherwise.sync
    truthy = jsops.truthy
    if tsync is not None and a is not None and b is not None:
        return Compiled(sync=lambda s: a(s) if truthy(tsync(s)) else b(s))

    async def choose(s: State) -> Any:
        v = tsync(s) if tsync is not None else await test.aio(s)  # type: ignore[misc]
        branch = then if truthy(v) else otherwise
        if branch.sync is not None:
            return branch.sync(s)
        return await branch.aio(s)  # type: ignore[misc]

    return Compiled(aio=choose)
