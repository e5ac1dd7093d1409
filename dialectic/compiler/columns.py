"""Whole-array fast paths for the commonest arrow functions: :func:`columnar`, :class:`Plain`.

``xs.map(x => x.name)``, ``xs.filter(x => x.airline === 'United')``, ``xs.map(x => ({...x,
total: x.price * 2}))``, a sort by ``a.total - b.total``: when every element is an object that
has the keys the body reads, the body is computed a column at a time: values read with
``operator.itemgetter``, compared and combined with ``operator`` functions, objects copied with
``dict.copy``, all through ``map`` (in C), with no Python call per element.

A column is computed only where it cannot differ from applying the arrow function element by
element (:mod:`dialectic.compiler.direct`, whose values and errors are the closures'): every
element a plain object holding the key (so no member access can fail), every value of a type
for which Python's operator is JavaScript's (texts compared only when ASCII, as JavaScript
compares UTF-16 code units), integer results within 2**53 (a float result is normalised by
:func:`dialectic.values.jsops.number`, so floats go element by element). Anything else returns
None, and the elements are applied one by one as before, errors and all: a column is pure, so
computing it and then dropping it changes nothing.
"""

from __future__ import annotations

import operator
from collections import deque
from collections.abc import Callable
from itertools import compress, repeat
from typing import Any

from dialectic.run.evaluator import State
from dialectic.tree.nodes import Get, Lit, Merge, Node, Obj, Op
from dialectic.tree.resolved import ParamRef
from dialectic.values.data import UNDEFINED
from dialectic.values.jsops import MAX_SAFE, truthy

__all__ = ["COMPARISONS", "Column", "Plain", "apply_columns", "columnar"]

#: the body's values for every element, or None: apply it element by element
Column = Callable[[State, list[Any]], list[Any] | None]

_INT = frozenset({int})
_NUMBERS = frozenset({int, float})
_STR = frozenset({str})

_EQUAL = {"===": operator.eq, "!==": operator.ne}
_ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_ARITHMETIC = {"-": operator.sub, "*": operator.mul, "+": operator.add}


class Plain:
    """An arrow body compiled by :mod:`dialectic.compiler.direct`: ``fn(s, x)``, and its
    ``column`` where :func:`columnar` has one."""

    __slots__ = ("fn", "column", "bools")

    def __init__(
        self, fn: Callable[[State, Any], Any], column: Column | None, bools: bool = False
    ) -> None:
        self.fn = fn
        self.column = column
        #: the column holds only booleans (the body is a comparison)
        self.bools = bools


def columnar(node: Node) -> Column | None:
    """The column function of an arrow body that reads only its element, or None where this
    module has no exact one (recursively: a body is shallow, its depth bounded by the parse)."""
    if isinstance(node, ParamRef):
        return _elements
    if isinstance(node, Get):
        return _get(node)
    if isinstance(node, Op) and len(node.operands) == 2:
        return _op(node)
    if isinstance(node, Merge):
        return _merge(node)
    if isinstance(node, Obj):
        return _obj(node)
    return None


#: the operators whose value is always a boolean
COMPARISONS = frozenset({*_EQUAL, *_ORDER, "==", "!="})


def _elements(s: State, xs: list[Any]) -> list[Any]:
    return xs


def _get(node: Get) -> Column | None:
    keys = [k.value for k in node.keys if isinstance(k, Lit) and type(k.value) is str]
    if node.optional or node.soft or len(keys) != len(node.keys):
        return None
    target = columnar(node.target)
    if target is None:
        return None

    def read(s: State, xs: list[Any]) -> list[Any] | None:
        values = target(s, xs)
        for k in keys:
            if values is None:
                return None
            values = _column(values, k)
        return values

    return read


def _column(xs: list[Any], key: str) -> list[Any] | None:
    """Every element's value at ``key``, if every element is an object that has it."""
    if not xs:
        return []
    types = set(map(type, xs))
    if len(types) != 1 or dict not in types:
        return None
    try:
        return list(map(operator.itemgetter(key), xs))
    except KeyError:
        return None


def _kinds_ok(values: list[Any], kinds: frozenset[type]) -> bool:
    if not set(map(type, values)) <= kinds:
        return False
    return kinds is not _STR or all(map(str.isascii, values))


def _op(node: Op) -> Column | None:
    left, right = node.operands
    if not isinstance(right, Lit):
        return None
    lit = right.value
    values = columnar(left)
    if values is None:
        return None
    t = type(lit)
    if (t is int or t is float) and not -MAX_SAFE < lit < MAX_SAFE:
        return None  # (an integer beyond 2**53 may have the literal's double: jsops decides)
    kinds: frozenset[type] | None
    compare: Callable[[Any, Any], Any]
    if node.op in _EQUAL and lit is None:
        compare = operator.is_ if node.op == "===" else operator.is_not
        kinds = None
    elif node.op in _EQUAL and t in (int, float, str, bool):
        compare, kinds = _EQUAL[node.op], (_NUMBERS if t in (int, float) else frozenset({t}))
    elif node.op in _ORDER and (t in (int, float) or (t is str and lit.isascii())):
        compare, kinds = _ORDER[node.op], (_NUMBERS if t in (int, float) else _STR)
    elif node.op in _ARITHMETIC and t is int and -MAX_SAFE <= lit <= MAX_SAFE:
        return _arithmetic(values, _ARITHMETIC[node.op], lit)
    elif node.op == "+" and t is str:
        return _concatenate(values, lit)
    else:
        return None

    if compare in (operator.eq, operator.ne):
        return _equality(values, lit, kinds, negate=compare is operator.ne)

    def test(s: State, xs: list[Any]) -> list[Any] | None:
        vs = values(s, xs)
        if vs is None or (kinds is not None and not _kinds_ok(vs, kinds)):
            return None
        return list(map(compare, vs, repeat(lit)))

    return test


def _equality(values: Column, lit: Any, kinds: frozenset[type] | None, negate: bool) -> Column:
    """``v === lit`` (``!==``: negated). JavaScript's answer is true only for a value of the
    literal's type, so only the values Python found equal have their types checked."""

    def test(s: State, xs: list[Any]) -> list[Any] | None:
        vs = values(s, xs)
        if vs is None:
            return None
        flags = list(map(operator.eq, vs, repeat(lit)))
        if kinds is not None and not set(map(type, compress(vs, flags))) <= kinds:
            return None
        return list(map(operator.not_, flags)) if negate else flags

    return test


def _arithmetic(values: Column, fn: Callable[[int, int], int], lit: int) -> Column | None:
    """``v OP lit`` of integers: an integer within 2**53, as jsops computes it. The results
    are checked against a bound that also keeps every operand within 2**53 (for ``*``, any
    non-zero literal; for ``+`` and ``-``, 2**53 less the literal's size)."""
    if fn is operator.mul:
        if lit == 0:
            return None
        bound = MAX_SAFE
    else:
        bound = MAX_SAFE - abs(lit)

    def compute(s: State, xs: list[Any]) -> list[Any] | None:
        vs = values(s, xs)
        if vs is None or not vs:
            return vs
        if not set(map(type, vs)) <= _INT:
            return None
        out = list(map(fn, vs, repeat(lit)))
        if min(out) < -bound or max(out) > bound:
            return None
        return out

    return compute


def _concatenate(values: Column, lit: str) -> Column:
    def compute(s: State, xs: list[Any]) -> list[Any] | None:
        vs = values(s, xs)
        if vs is None or not set(map(type, vs)) <= _STR:
            return None
        room = s.limits.max_string_length - len(lit)  # every text made is within the limit:
        if len("".join(vs)) > room and max(map(len, vs)) > room:  # (joined: one fast pass)
            return None  # (element by element: the failure at the first one too long)
        return list(map(operator.add, vs, repeat(lit)))

    return compute


#: an object's field: its key, its column, and whether the column reads values (which might
#: be undefined: the field is then dropped) rather than computing them with an operator
_Field = tuple[str, Column, bool]


def _fields(obj: Obj) -> list[_Field] | None:
    out = []
    for k, v in obj.fields.items():
        col = columnar(v)
        if col is None:
            return None
        out.append((k, col, not isinstance(v, Op)))
    return out


def _field_columns(fields: list[_Field], s: State, xs: list[Any]) -> list[list[Any]] | None:
    cols = []
    for _, col, reads in fields:
        vs = col(s, xs)
        if vs is None or (reads and UNDEFINED in vs):
            return None
        cols.append(vs)
    return cols


def _obj(node: Obj) -> Column | None:
    fields = _fields(node)
    if not fields:  # `x => ({})`: no column to count the elements by
        return None
    keys = [k for k, _, _ in fields]

    def build(s: State, xs: list[Any]) -> list[Any] | None:
        cols = _field_columns(fields, s, xs)
        if cols is None:
            return None
        return list(map(dict, map(zip, repeat(keys), zip(*cols, strict=True))))

    return build


def _merge(node: Merge) -> Column | None:
    """``{...x, k: v, ...}``: the element's copies with the fields written in."""
    if len(node.parts) != 2 or not isinstance(node.parts[1], Obj):
        return None
    base, fields = columnar(node.parts[0]), _fields(node.parts[1])
    if base is None or fields is None:
        return None

    def build(s: State, xs: list[Any]) -> list[Any] | None:
        objs = base(s, xs)
        if objs is None or (objs and set(map(type, objs)) != {dict}):
            return None
        if any(map(operator.contains, objs, repeat("__proto__"))):
            return None  # (the general merge refuses it)
        cols = _field_columns(fields, s, xs)
        if cols is None:
            return None
        out = list(map(dict.copy, objs))
        for (k, _, _), vs in zip(fields, cols, strict=True):
            deque(map(operator.setitem, out, repeat(k), vs), maxlen=0)
        return out

    return build


def apply_columns(name: str, plain: Plain, s: State, xs: list[Any]) -> Any:
    """``xs.name(arrow)`` computed a column at a time, or :data:`NotImplemented` where the
    elements must be applied one by one."""
    if plain.column is None or (name not in _BY_FLAGS and name != "map"):
        return NotImplemented
    values = plain.column(s, xs)
    if values is None:
        return NotImplemented
    if name == "map":
        return values
    flags = values if plain.bools else list(map(truthy, values))
    return _BY_FLAGS[name](xs, flags)


def _find(xs: list[Any], flags: list[Any]) -> Any:
    return xs[flags.index(True)] if True in flags else UNDEFINED


def _find_index(xs: list[Any], flags: list[Any]) -> Any:
    return flags.index(True) if True in flags else -1


def _find_last_index(xs: list[Any], flags: list[Any]) -> Any:
    for i in range(len(flags) - 1, -1, -1):
        if flags[i]:
            return i
    return -1


def _find_last(xs: list[Any], flags: list[Any]) -> Any:
    for x, hit in zip(reversed(xs), reversed(flags), strict=True):
        if hit:
            return x
    return UNDEFINED


_BY_FLAGS: dict[str, Callable[[list[Any], list[Any]], Any]] = {
    "filter": lambda xs, flags: list(compress(xs, flags)),
    "find": _find,
    "findIndex": _find_index,
    "findLast": _find_last,
    "findLastIndex": _find_last_index,
    "some": lambda xs, flags: True in flags,
    "every": lambda xs, flags: False not in flags,
}
