"""Arrow functions of one element compiled to plain functions: :func:`plain_body`.

``xs.filter(f => f.airline === 'United')``, ``xs.map(f => ({...f, total: f.price * 2}))``,
``(a, b) => a.total - b.total`` read as its key: most arrow functions a model writes read only
their first parameter, call no function and hold no alias. Their body compiles here, a second
time, to a function ``fn(s, x)`` of the run's state and the element, with no frame pushed (the
:data:`~dialectic.compiler.arrows.FRAME` context variable is untouched) and no closure call for
a literal or for reading a member of the element: ``map``, ``filter``, ``find``, ``some``,
``every``, ``findIndex``, ``findLast`` and a sort's key apply it in a plain loop
(:mod:`dialectic.compiler.higherorder`).

It is the same program: every node reads, compares and refuses exactly as its closure in
:mod:`dialectic.compiler.closures` does (member access through the same sandbox, JavaScript's
operators from :mod:`dialectic.values.jsops` with the same errors and paths); only the
dispatch differs. A body with anything else (a call, a method, a template, an alias, another
arrow, the index or array parameter, a parameter of an enclosing arrow) is None here and runs
as before. ``tests/expressions/test_direct_bodies.py`` checks both ways agree, value for value
and error for error.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial
from typing import Any

from dialectic.compiler.access import soft_member
from dialectic.compiler.arrows import refused
from dialectic.compiler.columns import COMPARISONS, Plain, columnar
from dialectic.outcome.errors import JSONPath
from dialectic.run.evaluator import Compiled, State
from dialectic.tree.nodes import Arr, Cond, Get, Lit, Merge, Node, Obj, Op, Spread, Undefined
from dialectic.tree.resolved import AliasRef, ConstRef, ContextRef, ParamRef
from dialectic.tree.walking import children
from dialectic.values import jsops
from dialectic.values.data import UNDEFINED
from dialectic.values.jsops import MAX_SAFE, JsRefusal, truthy

__all__ = ["ElementFn", "Plain", "plain_body"]

#: a compiled arrow body of one element: ``fn(s, x)``
ElementFn = Callable[[State, Any], Any]

Member = Callable[[Any, Any, JSONPath], Any]

_NO = object()  # a key the object does not have: member access decides (an error, with hints)

_PLAIN = (Arr, Cond, Get, Lit, Merge, Obj, Op, Undefined)


def plain_body(
    body: Node,
    param: str,
    compile_node: Callable[[Node], Compiled],
    member: Member,
    stringify: Callable[[Any], str],
    max_len: int,
) -> Plain | None:
    """The body of an arrow function whose first parameter is ``param`` and that reads no
    other, as ``fn(s, x)`` (see the module's docstring), with its column shape; or None."""
    if not _plain(body, param):
        return None
    try:
        fn = _Builder(compile_node, member, stringify, max_len).build(body)
    except _NotPlain:
        return None
    bools = isinstance(body, Op) and body.op in COMPARISONS and len(body.operands) == 2
    return Plain(fn, columnar(body), bools)


class _NotPlain(Exception):
    """An alias or constant that is not synchronous: the body runs as before."""


def _plain(body: Node, param: str) -> bool:
    """Whether every node of ``body`` is one this module compiles (iteratively). Since no
    arrow function is nested in it, a parameter named ``param`` is this arrow's own."""
    stack = [body]
    while stack:
        n = stack.pop()
        if isinstance(n, ParamRef):
            if n.name != param or n.index != 0:
                return False
            continue
        if isinstance(n, ContextRef | ConstRef) or (isinstance(n, AliasRef) and n.frame < 0):
            continue
        if not isinstance(n, _PLAIN):
            return False
        if isinstance(n, Lit):
            if type(n.value) in (list, dict):
                return False  # a quoted container is copied per use: its closure does that
            continue
        if isinstance(n, Arr):
            stack.extend(i.value if isinstance(i, Spread) else i for i in n.items)
            continue
        if isinstance(n, Get) and (
            not all(isinstance(k, Lit) for k in n.keys) or _optional_below(n)
        ):
            return False
        stack.extend(children(n))
    return True


def _optional_below(node: Get) -> bool:
    """Whether an optional link sits in the chain below ``node`` (``a?.b.c`` short-circuits
    the whole chain: its closure handles that)."""
    n = node.target
    while isinstance(n, Get):
        if n.optional:
            return True
        n = n.target
    return False


class _Builder:
    def __init__(
        self,
        compile_node: Callable[[Node], Compiled],
        member: Member,
        stringify: Callable[[Any], str],
        max_len: int,
    ) -> None:
        self.compile_node = compile_node
        self.member = member
        self.stringify = stringify
        self.max_len = max_len  # the run's max_string_length: a text `+` makes is within it

    def build(self, node: Node) -> ElementFn:
        if isinstance(node, ParamRef):
            return _element
        if isinstance(node, Lit):
            value = node.value
            return lambda s, x: value
        if isinstance(node, Undefined):
            return lambda s, x: UNDEFINED
        if isinstance(node, ContextRef):
            name = node.name
            return lambda s, x: s.context[name]
        if isinstance(node, AliasRef | ConstRef):
            read = self.compile_node(node).sync
            if read is None:
                raise _NotPlain
            return lambda s, x: read(s)
        if isinstance(node, Get):
            return self.get(node)
        if isinstance(node, Op):
            return self.op(node)
        if isinstance(node, Cond):
            test, then, otherwise = (
                self.build(node.test),
                self.build(node.then),
                self.build(node.otherwise),
            )
            return lambda s, x: then(s, x) if truthy(test(s, x)) else otherwise(s, x)
        if isinstance(node, Obj):
            return self.obj(node)
        if isinstance(node, Merge):
            return self.merge(node)
        assert isinstance(node, Arr)
        return self.arr(node)

    # -- member access: the closure of membergets.param_get / get_literal, on the element -
    def get(self, node: Get) -> ElementFn:
        keys = tuple(k.value for k in node.keys)  # type: ignore[attr-defined]
        member, path = self.member, node.path
        target = self.build(node.target)
        optional = node.optional
        if node.soft:  # a member that may be missing (SPEC 1.2): the same loop, key by key
            return self._soft_get(node, keys, target)
        if len(keys) == 1 and not optional and target is _element:
            key = keys[0]

            def read1(s: State, x: Any) -> Any:
                if type(x) is dict:
                    v = x.get(key, _NO)
                    if v is not _NO:
                        return v
                return member(x, key, path)

            return read1

        def read(s: State, x: Any) -> Any:
            v = target(s, x)
            if optional and (v is None or v is UNDEFINED):
                return UNDEFINED
            for k in keys:
                if type(v) is dict:
                    w = v.get(k, _NO)
                    if w is not _NO:
                        v = w
                        continue
                v = member(v, k, path)
            return v

        return read

    def _soft_get(self, node: Get, keys: tuple[Any, ...], target: ElementFn) -> ElementFn:
        """``get`` where key ``i`` may name a member that is missing if bit ``i`` of
        ``node.soft`` is set: it reads through :func:`soft_member` (undefined)."""
        member, path, optional, soft = self.member, node.path, node.optional, node.soft
        readers = tuple(
            [partial(soft_member, member) if soft >> i & 1 else member for i in range(len(keys))]
        )

        def read_soft(s: State, x: Any) -> Any:
            v = target(s, x)
            if optional and (v is None or v is UNDEFINED):
                return UNDEFINED
            for k, read_member in zip(keys, readers, strict=True):
                if type(v) is dict:
                    w = v.get(k, _NO)
                    if w is not _NO:
                        v = w
                        continue
                v = read_member(v, k, path)
            return v

        return read_soft

    # -- operators: the closures of compiler.expressions ------------------------------------
    def op(self, node: Op) -> ElementFn:
        name, path = node.op, node.path
        operands = [self.build(o) for o in node.operands]
        if name in jsops.LOGICAL:
            left, right = operands
            take = jsops.truthy if name == "&&" else jsops.logical_not
            if name == "??":
                take = jsops.nullish

            def short(s: State, x: Any) -> Any:
                v = left(s, x)
                return right(s, x) if take(v) else v

            return short
        if len(operands) == 1:
            unary = jsops.UNARY[name]
            only = operands[0]

            def apply1(s: State, x: Any) -> Any:
                v = only(s, x)
                try:
                    return unary(v)
                except JsRefusal as exc:
                    raise refused(exc, name, path) from None

            return apply1
        binary: Callable[[Any, Any], Any] = (
            partial(_add, self.stringify, self.max_len) if name == "+" else jsops.BINARY[name]
        )
        a, b = node.operands
        if isinstance(b, Lit) and name in ("===", "!==") and _simple_literal(b.value):
            return _equal_literal(operands[0], b.value, name == "!==", self._key_of(a))
        if isinstance(b, Lit):
            return _with_literal(operands[0], b.value, binary, name, path, self._key_of(a))
        left, right = operands

        def both(s: State, x: Any) -> Any:
            u = left(s, x)
            v = right(s, x)
            try:
                return binary(u, v)
            except JsRefusal as exc:
                raise refused(exc, name, path) from None

        return both

    def _key_of(self, node: Node) -> tuple[Any, JSONPath] | None:
        """``x.key`` of the element: its key and path, to read in place."""
        if (
            isinstance(node, Get)
            and not node.optional
            and len(node.keys) == 1
            and isinstance(node.target, ParamRef)
        ):
            return node.keys[0].value, node.path  # type: ignore[attr-defined]
        return None

    # -- data -------------------------------------------------------------------------------
    def obj(self, node: Obj) -> ElementFn:
        fields = [(k, self.build(v)) for k, v in node.fields.items()]

        def make(s: State, x: Any) -> dict[str, Any]:
            return {k: fn(s, x) for k, fn in fields}  # (an undefined field is held, SPEC 1.2)

        return make

    def merge(self, node: Merge) -> ElementFn:
        # `{...a, k: v}`: an object part is written straight into the result
        parts: list[tuple[ElementFn | None, list[tuple[str, ElementFn]]]] = []
        for p in node.parts:
            if isinstance(p, Obj):
                parts.append((None, [(k, self.build(v)) for k, v in p.fields.items()]))
            else:
                parts.append((self.build(p), []))
        path = node.path
        from dialectic.compiler.arrows import merge as general

        first = parts[0][0]
        if len(parts) == 2 and first is not None and parts[1][0] is None:
            # `{...x, k: v}`: the first part is evaluated, then the fields, then merged
            fields = parts[1][1]

            def spread_then_fields(s: State, x: Any) -> dict[str, Any]:
                part = first(s, x)
                made = [(k, f(s, x)) for k, f in fields]
                out = (
                    part.copy()
                    if type(part) is dict and "__proto__" not in part
                    else general([part], path)
                )
                out.update(made)
                return out

            return spread_then_fields

        def combine(s: State, x: Any) -> dict[str, Any]:
            values: list[Any] = []
            for fn, fields in parts:
                if fn is not None:
                    values.append(fn(s, x))
                    continue
                values.append({k: f(s, x) for k, f in fields})
            return general(values, path)

        return combine

    def arr(self, node: Arr) -> ElementFn:
        from dialectic.compiler.arrows import spread_args

        items = [self.build(i.value if isinstance(i, Spread) else i) for i in node.items]
        spreads = [isinstance(i, Spread) for i in node.items]
        path = node.path

        if not any(spreads):
            return lambda s, x: [fn(s, x) for fn in items]

        def make(s: State, x: Any) -> list[Any]:
            return spread_args([fn(s, x) for fn in items], spreads, path)

        return make


def _element(s: State, x: Any) -> Any:
    return x


def _add(stringify: Callable[[Any], str], max_len: int, a: Any, b: Any) -> Any:
    return jsops.add(a, b, stringify, max_len)


def _simple_literal(value: Any) -> bool:
    """A literal :func:`_equal_literal` compares with Python's ``==``: for a number, one below
    2**53 in size (no integer beyond 2**53 has the same double; jsops decides the others)."""
    t = type(value)
    if t is int or t is float:
        return bool(-MAX_SAFE < value < MAX_SAFE)
    return value is None or t is str or t is bool


def _equal_literal(
    operand: ElementFn, lit: Any, negate: bool, key: tuple[Any, JSONPath] | None
) -> ElementFn:
    """``v === lit`` for a primitive ``lit`` (jsops.strict_equal, case by case: a value of
    another type is never equal, numbers compare as numbers, null only to null)."""
    t = type(lit)
    if lit is None:

        def same(v: Any) -> bool:
            return v is None
    elif t is int or t is float:

        def same(v: Any) -> bool:
            tv = type(v)
            return (tv is int or tv is float) and v == lit
    else:

        def same(v: Any) -> bool:
            return type(v) is t and v == lit

    if key is not None and lit is not None and t is not int and t is not float:
        k, _ = key
        if negate:

            def differs_at(s: State, x: Any) -> bool:
                if type(x) is dict:
                    v = x.get(k, _NO)
                    if v is not _NO:
                        return not (type(v) is t and v == lit)
                return not same(operand(s, x))

            return differs_at

        def equals_at(s: State, x: Any) -> bool:
            if type(x) is dict:
                v = x.get(k, _NO)
                if v is not _NO:
                    return type(v) is t and v == lit
            return same(operand(s, x))

        return equals_at
    if negate:
        return lambda s, x: not same(operand(s, x))
    return lambda s, x: same(operand(s, x))


def _with_literal(
    operand: ElementFn,
    lit: Any,
    binary: Callable[[Any, Any], Any],
    name: str,
    path: JSONPath,
    key: tuple[Any, JSONPath] | None,
) -> ElementFn:
    """``v OP lit``; for ``-``, ``*`` and ``+`` of two safe integers, the integer itself
    (what :mod:`dialectic.values.jsops` computes), checked against 2**53 as there."""
    integer = type(lit) is int and -MAX_SAFE <= lit <= MAX_SAFE
    fast = _INT_OPS.get(name) if integer else None
    k = key[0] if key is not None else _NO

    def apply(s: State, x: Any) -> Any:
        v = x.get(k, _NO) if type(x) is dict else _NO
        if v is _NO:
            v = operand(s, x)
        if fast is not None and type(v) is int:
            r = fast(v, lit)
            if -MAX_SAFE <= r <= MAX_SAFE and -MAX_SAFE <= v <= MAX_SAFE:
                return r
        try:
            return binary(v, lit)
        except JsRefusal as exc:
            raise refused(exc, name, path) from None

    return apply


_INT_OPS: dict[str, Callable[[int, int], int]] = {
    "-": operator.sub,
    "*": operator.mul,
    "+": operator.add,
}
