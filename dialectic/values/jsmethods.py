"""JavaScript's methods of arrays and strings, and its global helpers (``Math``, ``Object``,
``JSON``, ``Number``, ``String``, ``parseInt``, ``parseFloat``, ``Array.isArray``), on JSON values
(SPEC.md section 1.8).

Like the operators (:mod:`dialectic.values.jsops`), each gives Node's value or raises
:class:`~dialectic.values.jsops.JsRefusal`. Strings are measured and indexed in UTF-16 code
units, as JavaScript does. Methods that take a function (``map``, ``filter``, ``sort``...) are
applied by the compiler (:mod:`dialectic.compiler.lambdas`); this module holds the rest and the
pieces those need (``sort_key``, ``same_value_zero``). The string methods and UTF-16 helpers are
in :mod:`dialectic.values.jsstrings`, the globals in :mod:`dialectic.values.jsglobals`; this
module re-exports them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from dialectic.values.arraysets import ARRAY_SETS
from dialectic.values.collections import JsIterator, is_collection
from dialectic.values.data import UNDEFINED
from dialectic.values.jsdate import DATE_METHODS
from dialectic.values.jsextras import (
    NUMBER_METHODS,
    REFUSED_METHODS,
    array_last_index_of,
    array_to_spliced,
    array_with,
)
from dialectic.values.jsformat import to_string_method
from dialectic.values.jsglobals import (
    GLOBALS,
    NAMESPACES,
    globals_table,
    json_stringify,
    parse_float,
    parse_int,
)
from dialectic.values.jslimits import ITEMS_LEFT, StepsSpent
from dialectic.values.jsonparse import json_parse
from dialectic.values.jsops import (
    MAX_ITEMS,
    MAX_SAFE,
    JsRefusal,
    TextTooLong,
    kind,
    strict_equal,
    too_many,
)
from dialectic.values.jsrelations import has_own_property
from dialectic.values.jsstrings import (
    STRING_METHODS,
    _a,
    _bmp,
    _int_arg,
    _relative,
    _split,
    _text,
    string_methods,
    to_string,
    utf16_index,
    utf16_length,
    utf16_slice,
)

__all__ = [
    "ALL_METHODS",
    "ARRAY_HIGHER",
    "ARRAY_PLAIN",
    "COLLECTION_CHANGES",
    "COLLECTION_READS",
    "FOLDS",
    "GLOBALS",
    "MUTATORS",
    "NAMESPACES",
    "NEW_ARRAY_METHODS",
    "NEW_TEXTS_METHODS",
    "STRING_METHODS",
    "_a",
    "array_method",
    "_split",
    "default_sorted",
    "globals_table",
    "json_parse",
    "json_stringify",
    "parse_float",
    "parse_int",
    "plain_method",
    "same_value_zero",
    "string_methods",
    "text_method",
    "to_string",
    "utf16_index",
    "utf16_length",
    "utf16_slice",
]

#: methods that take a function, by receiver type (applied by the compiler)
ARRAY_HIGHER = frozenset(
    {
        "map",
        "filter",
        "find",
        "findIndex",
        "findLast",
        "findLastIndex",
        "some",
        "every",
        "flatMap",
        "reduce",
        "reduceRight",
        "sort",
        "toSorted",
    }
)
#: the folds: ``reduce`` and ``reduceRight`` (its items from the last), one accumulator
#: carried from step to step; the checks and closures of one serve the other
FOLDS = frozenset({"reduce", "reduceRight"})
#: methods whose value is a new array in JavaScript, one no other value holds (``xs.map(f)``,
#: ``s.split(',')``, ``s.match(/x/g)``; ``splice`` too, but it changes its receiver, and
#: ``keys``/``entries``/``matchAll`` give iterators): reordering it in place is seen by nothing
#: else (read by the Plan front end, ``frontends/plan/reorder.py``, and the resolver,
#: ``resolve/inplace.py``)
NEW_ARRAY_METHODS = frozenset(
    {
        *("map", "filter", "slice", "concat", "flat", "flatMap"),
        *("toSorted", "toReversed", "toSpliced", "with", "split", "match"),
        *ARRAY_SETS,
    }
)
#: those of :data:`NEW_ARRAY_METHODS` whose items are new too (texts, made by the method)
NEW_TEXTS_METHODS = frozenset({"split", "match"})
#: methods that change the receiver in JavaScript: refused, with the idiom to use instead
MUTATORS = {
    "push": "[...xs, item]",
    "pop": "xs.slice(0, -1) and xs.at(-1)",
    "shift": "xs.slice(1) and xs[0]",
    "unshift": "[item, ...xs]",
    "splice": "xs.slice(...) and concat",
    "fill": "xs.map(() => value)",
    "copyWithin": "slice and concat",
}


def same_value_zero(a: Any, b: Any) -> bool:
    """``includes``' equality; refused for two arrays/objects (identity in JavaScript)."""
    return strict_equal(a, b, "includes")


# -- array methods without a function ---------------------------------------------------------
def _slice(xs: list[Any], start: Any = UNDEFINED, end: Any = UNDEFINED) -> list[Any]:
    n = len(xs)
    return xs[_relative(start, n, "start", 0) : _relative(end, n, "end", n)]


def _concat(xs: list[Any], *items: Any) -> list[Any]:
    out = list(xs)
    for item in items:
        if type(item) is list:
            out.extend(item)
        else:
            out.append(item)
    return out


def _includes(xs: list[Any], item: Any, start: Any = UNDEFINED) -> bool:
    if start is not UNDEFINED:  # (from an index: counted from the end when negative)
        xs = xs[_relative(start, len(xs), "the start", 0) :]
    same = _plain_equal(item)
    if same is not None:
        return any(map(same, xs))
    return any(same_value_zero(x, item) for x in xs)


def _index_of(xs: list[Any], item: Any, start: Any = UNDEFINED) -> int:
    first = 0 if start is UNDEFINED else _relative(start, len(xs), "the start", 0)
    same = _plain_equal(item)
    for i in range(first, len(xs)):
        x = xs[i]
        if same(x) if same is not None else strict_equal(x, item, "indexOf"):
            return i
    return -1


def _plain_equal(item: Any) -> Callable[[Any], bool] | None:
    """``x === item`` as one test per item, for a text, a boolean or a number below 2**53 in
    size (no other number shares its double, SPEC 1.7): what :func:`strict_equal` answers,
    without its call per item. None for any other item (strict_equal decides)."""
    t = type(item)
    if t is str or t is bool:
        return lambda x: type(x) is t and x == item
    if (t is int or t is float) and -MAX_SAFE < item < MAX_SAFE:
        return lambda x: (type(x) is int or type(x) is float) and x == item
    return None


def _join(xs: list[Any], sep: Any = ",", *, stringify: Callable[[Any], str], limit: int) -> str:
    between: str = "," if sep is UNDEFINED else _text(sep, "the separator")
    parts = []
    for x in xs:
        if x is None or x is UNDEFINED:
            parts.append("")
        elif type(x) is dict:
            raise JsRefusal(
                "join() of an array holding objects writes `[object Object]`",
                "Map the items to text first, e.g. xs.map(x => x.name).join(', '), or write "
                "JSON.stringify(xs).",
            )
        else:  # (an array inside: its items joined by `,`, as JavaScript writes it)
            parts.append(to_string(x, stringify, limit))
    total = sum(map(len, parts)) + len(between) * max(0, len(parts) - 1)
    if total > limit:  # measured before the text is built
        raise TextTooLong(total, limit)
    return between.join(parts)


def _at(xs: list[Any], i: Any = 0) -> Any:
    n = len(xs)
    k = _int_arg(i, "the index", 0)
    k = k + n if k < 0 else k
    return xs[k] if 0 <= k < n else UNDEFINED


def _flat(xs: list[Any], depth: Any = 1) -> list[Any]:
    d = _int_arg(depth, "the depth", 1)
    capped = d > 100  # (`xs.flat(Infinity)`: at most 100 levels, else refused)
    if capped:
        d = 100
    cap = ITEMS_LEFT.get()
    out: list[Any] = []
    stack: list[tuple[list[Any], int, int]] = [(xs, 0, d)]
    while stack:
        items, i, left = stack.pop()
        while i < len(items):
            x = items[i]
            i += 1
            if type(x) is list and left > 0:
                stack.append((items, i, left))
                items, i, left = x, 0, left - 1
                continue
            if capped and type(x) is list:
                raise JsRefusal(
                    "flat() would flatten more than 100 levels of arrays",
                    "Flatten fewer levels, or build the list with a loop.",
                )
            out.append(x)
            if len(out) > cap:  # (shared nested arrays could unfold exponentially)
                raise StepsSpent() if cap < MAX_ITEMS else too_many(len(out))
    return out


def _reverse(xs: list[Any]) -> list[Any]:
    return xs[::-1]


def default_sorted(xs: list[Any]) -> list[Any]:
    """JavaScript's ``sort()`` without a comparator: by each item's ``String(x)`` (numbers as
    JavaScript writes them: ``[10, 9, 1].sort()`` is ``[1, 10, 9]``), compared by UTF-16 code
    units (code points order the same unless a text has a character beyond U+FFFF: then every
    text is compared by its units), stable. An array, an object or a registered value is
    refused (JavaScript compares its items joined by commas, or `[object Object]`); undefined
    items are the caller's (they go last)."""
    if all(type(x) is str for x in xs):
        return sorted(xs) if all(map(_bmp, xs)) else sorted(xs, key=_units_key)
    keys = [_sort_text(x) for x in xs]
    key = keys.__getitem__ if all(map(_bmp, keys)) else lambda i: _units_key(keys[i])
    return [xs[i] for i in sorted(range(len(xs)), key=key)]


def _sort_text(x: Any) -> str:
    t = type(x)
    if t is str or t is int or t is float or t is bool or x is None:
        return to_string(x, str)
    if t is list or t is dict:
        raise JsRefusal(
            f"sort() without a comparator compares items as text, and {_a(kind(x))}'s text "
            "in JavaScript is "
            + ("its items joined by commas" if type(x) is list else "`[object Object]`"),
            "Pass a comparator on a field: .sort((a, b) => a.price - b.price), or "
            ".sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0).",
        )
    raise JsRefusal(
        f"sort() without a comparator compares items as text; {_a(kind(x))} has no text "
        "JavaScript would agree on",
        "Pass a comparator that compares a field of the items.",
    )


def _units_key(x: str) -> bytes:
    return x.encode("utf-16-be", "surrogatepass")


_ARRAY_METHODS: dict[str, Callable[..., Any]] = {
    "slice": _slice,
    "concat": _concat,
    "includes": _includes,
    "indexOf": _index_of,
    "at": _at,
    "flat": _flat,
    "reverse": _reverse,
    "toReversed": _reverse,
    "lastIndexOf": array_last_index_of,
    "with": array_with,
    "toSpliced": array_to_spliced,
    **ARRAY_SETS,  # (the versions of `xs[i] = v;` and `xs.length = n;`: values/arraysets.py)
    # an array's iterators: read by a spread, Array.from or a `for...of` loop
    "entries": lambda xs: JsIterator([[i, x] for i, x in enumerate(xs)]),
    "keys": lambda xs: JsIterator(list(range(len(xs)))),
    "values": lambda xs: JsIterator(list(xs)),
}


def array_method(
    name: str, stringify: Callable[[Any], str], limit: int
) -> Callable[..., Any] | None:
    """The array method ``name`` that takes no function, or None; ``join`` makes its text
    within ``limit`` (the run's ``max_string_length``)."""
    if name == "join":
        return partial(_join, stringify=stringify, limit=limit)
    return _ARRAY_METHODS.get(name)


def text_method(name: str, limit: int) -> Callable[..., Any] | None:
    """The string method ``name``, its text within ``limit``, or None."""
    return string_methods(limit).get(name)


ARRAY_PLAIN = frozenset(
    [
        "slice",
        "concat",
        "includes",
        "indexOf",
        "lastIndexOf",
        "join",
        "at",
        "flat",
        "reverse",
        "toReversed",
        "with",
        "toSpliced",
        "entries",
        "keys",
        "values",
    ]
)
#: the methods of a Map or a Set that read it (a registered function of the name wins for any
#: other receiver, an array's and a text's too)
COLLECTION_READS = frozenset(["get", "has", "keys", "values", "entries", "getAll"])
#: the methods that make a Map's or a Set's next version (SPEC 1.8); the Plan front end writes
#: them only for a statement `m.set(k, v);` that it reads as `m = m.set(k, v)`
#: (and a URL's, the statement `u.searchParams.set(k, v);`)
COLLECTION_CHANGES = frozenset(
    [
        *("set", "add", "delete", "clear", "append"),
        *("searchParams.set", "searchParams.append", "searchParams.delete"),
    ]
)
#: methods only values of the run have (``fmt.format(x)`` of an ``Intl.NumberFormat`` or an
#: ``Intl.DateTimeFormat``, the others refused as they run: the Plan
#: front end writes the method only for one; another receiver refuses it as it runs)
RUN_VALUE_METHODS = frozenset(["format", "formatToParts", "formatRange", "resolvedOptions"])


def plain_method(
    receiver: Any, name: str, stringify: Callable[[Any], str], limit: int
) -> Callable[..., Any]:
    """The method ``name`` of ``receiver`` (an array or a string) that takes no function; a
    text it makes is within ``limit`` (the run's ``max_string_length``) where its length is
    known before it is built (its caller measures the others)."""
    t = type(receiver)
    if name in ARRAY_SETS:  # (each checks its receiver: an array's item, an object's member)
        return ARRAY_SETS[name]
    if is_collection(receiver):
        receiver.method(name)  # (refused here for a name it has not)
        return lambda c, *args: c.method(name)(*args)
    if name == "toString":
        return to_string_method(stringify, limit)
    if name == "hasOwnProperty":
        return has_own_property
    refused = REFUSED_METHODS.get(name)
    if refused is not None and t is not int and t is not float:
        raise JsRefusal(*refused)
    if t is int or t is float:
        fn = NUMBER_METHODS.get(name)
        if fn is not None:
            return fn
        raise JsRefusal(
            f"numbers have no method `{name}` here",
            "The supported methods of numbers are: "
            + ", ".join(sorted([*NUMBER_METHODS, "toString"]))
            + ".",
        )
    if t is list:
        if name in MUTATORS:
            raise JsRefusal(
                f"{name}() changes the array in place, which a call tree does not do (Plan "
                f"reads `xs.{name}(...);` on an array the program made as the array's next "
                "version)",
                f"Build a new array instead: {MUTATORS[name]}.",
            )
        fn = array_method(name, stringify, limit)
        if fn is not None:
            return fn
        raise JsRefusal(f"arrays have no method `{name}` here", _known("array"))
    if t is str:
        fn = text_method(name, limit)
        if fn is not None:
            return fn
        raise JsRefusal(f"texts have no method `{name}` here", _known("string"))
    hint = "Methods work on arrays and texts; check the value first (`x ?? []`)."
    if t is dict and name in ("keys", "values", "entries"):  # `o.keys()`: Object's function
        hint = f"An object's {name} are `Object.{name}(o)` in JavaScript."
    raise JsRefusal(f"cannot call `.{name}()` on {_a(kind(receiver))}", hint)


def _known(what: str) -> str:
    names = sorted(ARRAY_PLAIN | ARRAY_HIGHER) if what == "array" else sorted(STRING_METHODS)
    return "The supported methods are: " + ", ".join(names) + "."


#: a regular expression's methods (SPEC 1.8, "Regular expressions"; `exec` is refused)
REGEX_METHODS = frozenset(["test", "exec"])

ALL_METHODS = frozenset(
    REGEX_METHODS
    | COLLECTION_READS
    | ARRAY_PLAIN
    | ARRAY_HIGHER
    | set(STRING_METHODS)
    | set(MUTATORS)
    | set(NUMBER_METHODS)
    | set(REFUSED_METHODS)
    | DATE_METHODS
    | set(ARRAY_SETS)
    | {"toString", "hasOwnProperty"}
)
