"""JavaScript's array methods that take a function (SPEC 1.8), element by element.

``map``, ``filter``, ``find``, ``some``, ... apply the arrow function to every element:
synchronously inline, or, when its body is asynchronous, concurrently for every element (in
order when it makes effectful calls, SPEC 17, and only as far as JavaScript goes); ``reduce``
in order; ``sort`` with a comparator, or by its key when :func:`comparator_key` found one. The
result is JavaScript's; every application and element visited counts against
``Limits.max_steps``. Called by :func:`dialectic.compiler.lambdas.method`.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
from typing import Any

from dialectic.compiler.accumulate import COPY_STEP, reduce_owned, reduce_owned_async
from dialectic.compiler.arrows import CHECK_EVERY, FRAME, Arrow, ArrowLaunch, Frame, Steps
from dialectic.compiler.columns import apply_columns
from dialectic.compiler.textfold import append_rest, append_rest_async
from dialectic.run.evaluator import Compiled, State, async_many
from dialectic.values import jsmethods as jm
from dialectic.values.data import UNDEFINED
from dialectic.values.jsops import MAX_ITEMS, MAX_SAFE, JsRefusal, is_number, kind, too_many, truthy
from dialectic.values.jstonumber import to_number


def _results_sync(arrow: Arrow, s: State, xs: list[Any], steps: Steps) -> Callable[[int], Any]:
    steps.take(s, len(xs))
    body = arrow.body.sync
    assert body is not None
    size = arrow.locals
    outer = FRAME.get()  # :meth:`Arrow.apply`, inlined: the frames around stay the same
    var = FRAME

    def at(i: int) -> Any:
        if not i & CHECK_EVERY:
            steps.overdue(s)
        token = var.set((*outer, Frame((xs[i], i, xs), size)))
        try:
            return body(s)
        finally:
            var.reset(token)

    return at


def _finish(name: str, xs: list[Any], results: list[Any]) -> Any:
    if name == "map":
        return results
    if name == "filter":
        return [x for x, r in zip(xs, results, strict=True) if truthy(r)]
    if name == "find":
        return next((x for x, r in zip(xs, results, strict=True) if truthy(r)), UNDEFINED)
    if name == "findLast":
        for x, r in zip(reversed(xs), reversed(results), strict=True):
            if truthy(r):
                return x
        return UNDEFINED
    if name == "findIndex":
        return next((i for i, r in enumerate(results) if truthy(r)), -1)
    if name == "findLastIndex":
        return next((i for i in range(len(results) - 1, -1, -1) if truthy(results[i])), -1)
    if name == "some":
        return any(truthy(r) for r in results)
    if name == "every":
        return all(truthy(r) for r in results)
    if name == "flatMap":
        out: list[Any] = []
        for r in results:
            if type(r) is list:
                out.extend(r)
            else:
                out.append(r)
            if len(out) > MAX_ITEMS:  # (arrays of shared arrays could unfold exponentially)
                raise too_many(len(out))
        return out
    raise AssertionError(name)


def apply_sync(name: str, arrow: Arrow, s: State, xs: list[Any], steps: Steps) -> Any:
    if arrow.direct is not None:
        steps.take(s, len(xs))
        out = apply_columns(name, arrow.direct, s, xs)
        if out is not NotImplemented:
            return out
        return _apply_direct(name, _checked(arrow.direct.fn, steps, len(xs)), s, xs)
    at = _results_sync(arrow, s, xs, steps)
    n = len(xs)
    # the short-circuiting ones stop where JavaScript stops
    if name == "find":
        for i in range(n):
            if truthy(at(i)):
                return xs[i]
        return UNDEFINED
    if name == "findIndex":
        for i in range(n):
            if truthy(at(i)):
                return i
        return -1
    if name == "findLast":  # from the end, as JavaScript (an effectful arrow sees it)
        for i in range(n - 1, -1, -1):
            if truthy(at(i)):
                return xs[i]
        return UNDEFINED
    if name == "findLastIndex":
        for i in range(n - 1, -1, -1):
            if truthy(at(i)):
                return i
        return -1
    if name == "some":
        return any(truthy(at(i)) for i in range(n))
    if name == "every":
        return all(truthy(at(i)) for i in range(n))
    return _finish(name, xs, [at(i) for i in range(n)])


def _checked(fn: Callable[[State, Any], Any], steps: Steps, n: int) -> Callable[[State, Any], Any]:
    """``fn`` checking the run's deadline every ``CHECK_EVERY + 1`` applications (``fn`` itself
    for ``n`` applications or fewer than that: no check would come, and no wrapper costs a
    frame per element)."""
    if n <= CHECK_EVERY:
        return fn
    count = 0

    def checked(s: State, x: Any) -> Any:
        nonlocal count
        count += 1
        if not count & CHECK_EVERY:
            steps.overdue(s)
        return fn(s, x)

    return checked


def _apply_direct(name: str, fn: Callable[[State, Any], Any], s: State, xs: list[Any]) -> Any:
    """:func:`apply_sync` for an arrow that reads only its element
    (:mod:`dialectic.compiler.direct`): the same applications in the same order, no frames."""
    if name == "map":
        return [fn(s, x) for x in xs]
    if name == "filter":
        return [x for x in xs if (r := fn(s, x)) is True or (r is not False and truthy(r))]
    if name == "find":
        for x in xs:
            if truthy(fn(s, x)):
                return x
        return UNDEFINED
    if name == "findIndex":
        for i, x in enumerate(xs):
            if truthy(fn(s, x)):
                return i
        return -1
    if name == "findLast":
        for x in reversed(xs):
            if truthy(fn(s, x)):
                return x
        return UNDEFINED
    if name == "findLastIndex":
        for i in range(len(xs) - 1, -1, -1):
            if truthy(fn(s, xs[i])):
                return i
        return -1
    if name == "some":
        return any(truthy(fn(s, x)) for x in xs)
    if name == "every":
        return all(truthy(fn(s, x)) for x in xs)
    return _finish(name, xs, [fn(s, x) for x in xs])


async def apply_async(name: str, arrow: Arrow, s: State, xs: list[Any], steps: Steps) -> Any:
    steps.take(s, len(xs))
    launch = arrow.launch
    if launch is None:
        kids = [
            Compiled(aio=functools.partial(arrow.aapply, args=(x, i, xs))) for i, x in enumerate(xs)
        ]
    else:  # (each application's call started as the call is: no coroutine of the arrow's)
        kids = []
        for i, x in enumerate(xs):
            args = (x, i, xs)
            kids.append(
                Compiled(
                    aio=functools.partial(arrow.aapply, args=args), launch=ArrowLaunch(launch, args)
                )
            )
    if arrow.body.ordered:  # effectful calls: element after element (SPEC 17)
        return await _apply_in_order(name, arrow, s, xs)
    results = await async_many(kids)(s) if kids else []
    return _finish(name, xs, results)


async def _apply_in_order(name: str, arrow: Arrow, s: State, xs: list[Any]) -> Any:
    """An arrow with effectful calls (SPEC 17): applied element after element, and only as
    far as JavaScript goes (``find``, ``some``, ... stop at their answer; ``findLast`` goes
    from the end)."""
    n = len(xs)
    if name in ("find", "findIndex", "some", "every", "findLast", "findLastIndex"):
        order = range(n - 1, -1, -1) if name in ("findLast", "findLastIndex") else range(n)
        for i in order:
            hit = truthy(await arrow.aapply(s, (xs[i], i, xs)))
            if name == "every" and not hit:
                return False
            if hit and name != "every":
                found = {"find": xs[i], "findLast": xs[i], "findIndex": i, "findLastIndex": i}
                return found.get(name, True)
        return {
            "find": UNDEFINED,
            "findLast": UNDEFINED,
            "findIndex": -1,
            "findLastIndex": -1,
            "some": False,
        }.get(name, True)
    results = [await arrow.aapply(s, (xs[i], i, xs)) for i in range(n)]
    return _finish(name, xs, results)


#: the accumulators a step may have copied (the list or the object it returns)
_MADE = frozenset({list, dict})


def _reduce_args(name: str, xs: list[Any], rest: list[Any]) -> tuple[Any, range]:
    """The first accumulator and the indices of the items the steps take, in their order
    (``reduceRight``: from the last item to the first)."""
    n = len(xs)
    right = name == "reduceRight"
    if rest:
        return rest[0], range(n - 1, -1, -1) if right else range(n)
    if not xs:
        raise JsRefusal(
            f"{name}() of an empty array with no initial value is a TypeError in JavaScript",
            f"Give an initial value: xs.{name}((sum, x) => sum + x, 0).",
        )
    return (xs[-1], range(n - 2, -1, -1)) if right else (xs[0], range(1, n))


def reduce_sync(
    name: str, arrow: Arrow, s: State, xs: list[Any], rest: list[Any], steps: Steps
) -> Any:
    """``xs.reduce(arrow, ...rest)`` (``reduceRight``) with a synchronous arrow function."""
    acc, order = _reduce_args(name, xs, rest)
    if arrow.owns:
        return reduce_owned(arrow, s, xs, acc, order, steps)
    app = arrow.appends
    for k, i in enumerate(order):
        if app is not None and app.takes(acc):  # (appends to a text: textfold)
            return append_rest(app, s, xs, acc, order[k:], steps)
        steps.take(s, 1)
        new = arrow.apply(s, (acc, xs[i], i, xs))
        if new is not acc and type(new) in _MADE and len(new) >= COPY_STEP:
            steps.take(s, len(new) // COPY_STEP)  # (a new accumulator: a copy, SPEC 7)
        acc = new
    return acc


async def reduce_async(
    name: str, arrow: Arrow, s: State, xs: list[Any], rest: list[Any], steps: Steps
) -> Any:
    """``xs.reduce(arrow, ...rest)`` (``reduceRight``) with an arrow function that awaits."""
    acc, order = _reduce_args(name, xs, rest)
    if arrow.owns:
        return await reduce_owned_async(arrow, s, xs, acc, order, steps)
    app = arrow.appends
    for k, i in enumerate(order):
        if app is not None and app.takes(acc):  # (as reduce_sync)
            return await append_rest_async(app, s, xs, acc, order[k:], steps)
        steps.take(s, 1)
        new = await arrow.aapply(s, (acc, xs[i], i, xs))
        if new is not acc and type(new) in _MADE and len(new) >= COPY_STEP:
            steps.take(s, len(new) // COPY_STEP)  # (as reduce_sync)
        acc = new
    return acc


def _comparator(arrow: Arrow, s: State, steps: Steps) -> Callable[[Any, Any], int]:
    def compare(a: Any, b: Any) -> int:
        steps.take(s, 1)
        r = arrow.apply(s, (a, b))
        if r is UNDEFINED:
            return 0
        if type(r) is bool or not is_number(r):
            raise JsRefusal(
                "a sort comparator must return a number (negative, zero or positive)",
                "Write (a, b) => a.price - b.price, or a.name < b.name ? -1 : 1 for texts.",
            )
        return int(r > 0) - int(r < 0)

    return compare


_NUMBERS = frozenset({int, float})


def _keys(key: Arrow, s: State, xs: list[Any], steps: Steps) -> list[Any]:
    """A sort's keys, applied one by one."""
    direct = key.direct
    if direct is None:
        apply = key.apply
        fn = _checked(lambda s, x: apply(s, (x,)), steps, len(xs))
    else:
        fn = _checked(direct.fn, steps, len(xs))
    return [fn(s, x) for x in xs]


def sort_values(xs: list[Any], arrow: Arrow | None, s: State, steps: Steps) -> list[Any]:
    n = len(xs)
    steps.take(s, n * max(1, math.ceil(math.log2(n + 1))))
    if arrow is not None and arrow.is_async:
        raise JsRefusal(
            "a sort comparator cannot call functions",
            "Compute the keys first with map, then sort on them.",
        )
    key = arrow.key if arrow is not None else None
    column = key.direct.column if key is not None and key.direct is not None else None
    keys = column(s, xs) if column is not None else None
    if keys is not None:  # every element an object (so none undefined), every key read
        present, tail = xs, []
    else:
        present = [x for x in xs if x is not UNDEFINED] if UNDEFINED in xs else xs
        tail = [UNDEFINED] * (n - len(present))  # undefined sorts last, as in JavaScript
    if arrow is None:
        return jm.default_sorted(present) + tail
    if key is not None:
        if keys is None:
            keys = _keys(key, s, present, steps)
        keys = _check_keys(keys)
        order = sorted(range(len(present)), key=keys.__getitem__, reverse=arrow.descending)
        return list(map(present.__getitem__, order)) + tail
    return sorted(present, key=functools.cmp_to_key(_comparator(arrow, s, steps))) + tail


def _text_key(k: str) -> Any:
    """A text's number, as ``-`` makes it (``Number(k)``); refused where JavaScript's is NaN
    (its comparator would answer NaN, read as "equal", whatever the other key)."""
    try:
        return to_number(k)
    except JsRefusal:
        raise JsRefusal(
            f"the comparator subtracts texts, and {json.dumps(k)[:40]} is no number (JavaScript "
            "subtracts NaN, which leaves the order to the sort's inner steps)",
            "Compare texts with (a, b) => a.localeCompare(b) or a < b ? -1 : 1; numbers in "
            "texts: (a, b) => Number(a) - Number(b) once each is a number.",
        ) from None


def _check_keys(keys: list[Any]) -> list[Any]:
    """The keys a comparator ``K(a) - K(b)`` subtracts: numbers JavaScript holds exactly (a
    Date's key is its time, as ``-`` takes it)."""
    kinds = set(map(type, keys))
    if kinds <= _NUMBERS and (int not in kinds or -MAX_SAFE <= min(keys) <= max(keys) <= MAX_SAFE):
        return keys
    if str in kinds:  # `Object.keys(counts).sort((a, b) => a - b)`: `-` makes them numbers
        return _check_keys([_text_key(k) if type(k) is str else k for k in keys])
    if any(getattr(t, "js_kind", None) == "Date" for t in kinds):
        return _check_keys(
            [
                k.number("the comparator's operand")
                if getattr(type(k), "js_kind", None) == "Date"
                else k
                for k in keys
            ]
        )
    for k in keys:
        if type(k) is int and abs(k) > MAX_SAFE:
            raise JsRefusal(
                "the comparator subtracts an integer beyond 2**53, which JavaScript cannot hold "
                "exactly (Node would order the numbers it holds instead)",
                "Sort large ids as text: (a, b) => (a.id < b.id ? -1 : 1) on ids the tool gives "
                "as strings; numbers to subtract must be within ±9007199254740992.",
            )
        if type(k) is bool or not is_number(k):
            raise JsRefusal(
                f"the comparator subtracts {kind(k)} values",
                "Compare numbers, or texts with a.name < b.name ? -1 : 1.",
            )
    return keys
