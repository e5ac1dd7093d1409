"""Arrow functions and JavaScript's methods (SPEC 1.8).

An arrow function is never a value: it is compiled with the method that receives it. Its
parameters live in a frame held by a context variable, so concurrent applications (each element
of a ``map`` whose body calls an asynchronous function runs as its own task) never see each
other's parameters. Methods that take a function apply it to every element: synchronously inline,
or, when the body is asynchronous, concurrently for every element (``reduce``: in order); the
result is JavaScript's. Every application and element visited counts against
``Limits.max_steps``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from typing import Any

from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError, JSONPath, LimitExceeded
from dialectic.run.evaluator import MISSING, Compiled, State, async_many
from dialectic.tree.nodes import Arr, Get, Lambda, Lit, Node, Op, ParamRef, children, walk
from dialectic.values import jsmethods as jm
from dialectic.values.data import UNDEFINED
from dialectic.values.jsops import MAX_SAFE, JsRefusal, is_number, kind, truthy


class Frame:
    """One application of an arrow function: its arguments and its body's alias slots."""

    __slots__ = ("args", "locals")

    def __init__(self, args: tuple[Any, ...], size: int) -> None:
        self.args = args
        self.locals: list[Any] = [MISSING] * size if size else []


#: values an enclosing node computed for a :class:`~dialectic.tree.nodes.Given` to read
GIVEN: ContextVar[tuple[Any, ...]] = ContextVar("dialectic_given", default=())

#: the applications of the arrow functions being evaluated, outermost first
FRAME: ContextVar[tuple[Frame, ...]] = ContextVar("dialectic_frame", default=())


def param_reader(frame: int, index: int) -> Compiled:
    def read(s: State) -> Any:
        args = FRAME.get()[frame].args
        return args[index] if index < len(args) else UNDEFINED

    return Compiled(sync=read)


class Arrow:
    """A compiled arrow function: ``apply(s, args)`` (synchronous body) or ``aapply``."""

    __slots__ = ("body", "arity", "is_async", "locals", "key", "descending")

    def __init__(self, body: Compiled, arity: int, locals: int = 0) -> None:
        self.body = body
        self.arity = arity
        self.is_async = body.sync is None
        self.locals = locals
        #: a comparator ``(a, b) => K(a) - K(b)`` (or ``K(b) - K(a)``: ``descending``) as its
        #: key ``K``: sorting by key gives the same order with n applications, not n*log(n)
        self.key: Arrow | None = None
        self.descending = False

    def apply(self, s: State, args: tuple[Any, ...]) -> Any:
        token = FRAME.set((*FRAME.get(), Frame(args, self.locals)))
        try:
            return self.body.sync(s)  # type: ignore[misc]
        finally:
            FRAME.reset(token)

    async def aapply(self, s: State, args: tuple[Any, ...]) -> Any:
        token = FRAME.set((*FRAME.get(), Frame(args, self.locals)))
        try:
            if self.body.sync is not None:
                return self.body.sync(s)
            return await self.body.aio(s)  # type: ignore[misc]
        finally:
            FRAME.reset(token)


class Steps:
    """The run's step budget, kept in one memo slot."""

    __slots__ = ("slot", "limit", "path")

    def __init__(self, slot: int, limits: Limits, path: JSONPath) -> None:
        self.slot = slot
        self.limit = limits.max_steps
        self.path = path

    def take(self, s: State, n: int) -> None:
        used = s.memo[self.slot]
        used = n if used is MISSING else used + n
        s.memo[self.slot] = used
        if used > self.limit:
            raise LimitExceeded(
                "max_steps",
                f"the run took more than {self.limit} method steps (arrow-function applications "
                "and elements visited)",
                self.path,
            )


def refused(exc: JsRefusal, name: str, path: JSONPath) -> DialecticError:
    return DialecticError(
        "expression_error", exc.message, path, hint=exc.hint, details={"method": name}
    )


def apply_js(fn: Callable[..., Any], args: list[Any], name: str, path: JSONPath) -> Any:
    """A JavaScript method or global applied: its value, or `expression_error`."""
    try:
        return fn(*args)
    except JsRefusal as exc:
        raise refused(exc, name, path) from None
    except TypeError:  # the Python function's arity: JavaScript would ignore or misread them
        raise DialecticError(
            "expression_error",
            f"`{name}` was given {len(args)} argument{'s' if len(args) != 1 else ''}, "
            "more or fewer than it takes",
            path,
        ) from None


def spread_args(values: Sequence[Any], spreads: Sequence[bool], path: JSONPath) -> list[Any]:
    """Argument or element values with ``...x`` expanded."""
    out: list[Any] = []
    for v, is_spread in zip(values, spreads, strict=True):
        if not is_spread:
            out.append(v)
        elif type(v) is list:
            out.extend(v)
        elif type(v) is str:
            out.extend(jm._split(v, ""))
        else:
            raise DialecticError(
                "expression_error",
                f"`...` spreads an array or a text, not {kind(v)}",
                path,
                hint="Give a default first: `...(xs ?? [])`.",
            )
    return out


def merge(parts: Sequence[Any], path: JSONPath) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in parts:
        if part is None or part is UNDEFINED:
            continue  # {...null} adds nothing, as in JavaScript
        if type(part) is not dict:
            raise DialecticError(
                "expression_error",
                "`...` in an object spreads another object",
                path,
                hint="Spread objects only: {...a, b: 1}.",
            )
        out.update(part)
    return out


# -- methods that take a function ---------------------------------------------------------------
def _results_sync(arrow: Arrow, s: State, xs: list[Any], steps: Steps) -> Callable[[int], Any]:
    steps.take(s, len(xs))
    body = arrow.body.sync
    assert body is not None
    size = arrow.locals
    outer = FRAME.get()  # :meth:`Arrow.apply`, inlined: the frames around stay the same
    var = FRAME

    def at(i: int) -> Any:
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
        return out
    raise AssertionError(name)


def _apply_sync(name: str, arrow: Arrow, s: State, xs: list[Any], steps: Steps) -> Any:
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
    if name == "some":
        return any(truthy(at(i)) for i in range(n))
    if name == "every":
        return all(truthy(at(i)) for i in range(n))
    return _finish(name, xs, [at(i) for i in range(n)])


async def _apply_async(name: str, arrow: Arrow, s: State, xs: list[Any], steps: Steps) -> Any:
    steps.take(s, len(xs))
    kids = [
        Compiled(aio=functools.partial(arrow.aapply, args=(x, i, xs))) for i, x in enumerate(xs)
    ]
    if arrow.body.ordered:  # effectful calls: element after element (SPEC 17)
        return await _apply_in_order(name, arrow, s, xs)
    results = await async_many(kids)(s) if kids else []
    return _finish(name, xs, results)


async def _apply_in_order(name: str, arrow: Arrow, s: State, xs: list[Any]) -> Any:
    """An arrow with effectful calls (SPEC 17): applied element after element, and only as
    far as JavaScript goes (``find``, ``some``, ... stop at their answer; ``findLast`` goes
    from the end)."""
    n = len(xs)
    if name in ("find", "findIndex", "some", "every", "findLast"):
        order = range(n - 1, -1, -1) if name == "findLast" else range(n)
        for i in order:
            hit = truthy(await arrow.aapply(s, (xs[i], i, xs)))
            if name == "every" and not hit:
                return False
            if hit and name != "every":
                return {"find": xs[i], "findLast": xs[i], "findIndex": i}.get(name, True)
        return {"find": UNDEFINED, "findLast": UNDEFINED, "findIndex": -1, "some": False}.get(
            name, True
        )
    results = [await arrow.aapply(s, (xs[i], i, xs)) for i in range(n)]
    return _finish(name, xs, results)


def _reduce_args(name: str, xs: list[Any], rest: list[Any]) -> tuple[Any, int]:
    if rest:
        return rest[0], 0
    if not xs:
        raise JsRefusal(
            f"{name}() of an empty array with no initial value is a TypeError in JavaScript",
            "Give an initial value: xs.reduce((sum, x) => sum + x, 0).",
        )
    return xs[0], 1


def _reduce_sync(
    name: str, arrow: Arrow, s: State, xs: list[Any], rest: list[Any], steps: Steps
) -> Any:
    """``xs.reduce(arrow, ...rest)`` with a synchronous arrow function."""
    acc, start = _reduce_args(name, xs, rest)
    for i in range(start, len(xs)):
        steps.take(s, 1)
        acc = arrow.apply(s, (acc, xs[i], i, xs))
    return acc


async def _reduce_async(
    name: str, arrow: Arrow, s: State, xs: list[Any], rest: list[Any], steps: Steps
) -> Any:
    """``xs.reduce(arrow, ...rest)`` with an arrow function that awaits."""
    acc, start = _reduce_args(name, xs, rest)
    for i in range(start, len(xs)):
        steps.take(s, 1)
        acc = await arrow.aapply(s, (acc, xs[i], i, xs))
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


def _sort(xs: list[Any], arrow: Arrow | None, s: State, steps: Steps) -> list[Any]:
    n = len(xs)
    steps.take(s, n * max(1, math.ceil(math.log2(n + 1))))
    present = [x for x in xs if x is not UNDEFINED]
    tail = [UNDEFINED] * (n - len(present))  # undefined sorts last, as in JavaScript
    if arrow is None:
        return sorted(present, key=jm.default_sort_key) + tail
    if arrow.is_async:
        raise JsRefusal(
            "a sort comparator cannot call functions",
            "Compute the keys first with map, then sort on them.",
        )
    key = arrow.key
    if key is not None:
        apply = key.apply
        keys = [apply(s, (x,)) for x in present]
        for k in keys:
            if type(k) is bool or not is_number(k) or (type(k) is int and abs(k) > MAX_SAFE):
                raise JsRefusal(
                    f"the comparator subtracts {kind(k)} values",
                    "Compare numbers, or texts with a.name < b.name ? -1 : 1.",
                )
        order = sorted(range(len(present)), key=keys.__getitem__, reverse=arrow.descending)
        return [present[i] for i in order] + tail
    return sorted(present, key=functools.cmp_to_key(_comparator(arrow, s, steps))) + tail


def method(
    name: str,
    target: Compiled,
    args: list[Compiled | Arrow],
    spreads: list[bool],
    path: JSONPath,
    steps: Steps,
    stringify: Callable[[Any], str],
    combine: Callable[[list[Compiled], Callable[[list[Any]], Any]], Compiled],
    fallback: Compiled | None = None,
) -> Compiled:
    """The closure of ``target.name(args)``; ``spreads`` flags the non-arrow arguments written
    ``...x``; ``fallback`` calls the registered function of that name for other receivers."""
    arrows = [a for a in args if isinstance(a, Arrow)]
    values = [a for a in args if isinstance(a, Compiled)]
    arrow = arrows[0] if arrows else None
    if len(arrows) > 1 or (arrow is not None and not isinstance(args[0], Arrow)):
        raise DialecticError(
            "invalid_program", f"`{name}` takes one arrow function, as its first argument", path
        )
    higher = name in jm.ARRAY_HIGHER

    def prepare(vs: list[Any]) -> tuple[Any, list[Any]]:
        receiver = vs[0]
        rest = spread_args(vs[1:], spreads, path)
        if higher and type(receiver) is list and arrow is None and name not in ("sort", "toSorted"):
            raise DialecticError(
                "expression_error",
                f"`{name}` needs an arrow function, e.g. xs.{name}(x => ...)",
                path,
            )
        return receiver, rest

    def plain(receiver: Any, rest: list[Any], s: State) -> Any:
        try:
            fn = jm.plain_method(receiver, name, stringify)
        except JsRefusal as exc:
            raise refused(exc, name, path) from None
        steps.take(s, 1 + (len(receiver) if type(receiver) is list else 0))
        return apply_js(fn, [receiver, *rest], name, path)

    def run_sync(s: State, vs: list[Any]) -> Any:
        receiver, rest = prepare(vs)
        if fallback is not None and type(receiver) is not list and type(receiver) is not str:
            token = GIVEN.set((receiver, *rest))
            try:
                return fallback.sync(s)  # type: ignore[misc]
            finally:
                GIVEN.reset(token)
        try:
            if higher and type(receiver) is list:
                if name in ("sort", "toSorted"):
                    return _sort(receiver, arrow, s, steps)
                assert arrow is not None
                if name == "reduce":
                    return _reduce_sync(name, arrow, s, receiver, rest, steps)
                return _apply_sync(name, arrow, s, receiver, steps)
        except JsRefusal as exc:
            raise refused(exc, name, path) from None
        if higher:
            raise refused(
                JsRefusal(f"`{name}` is an array method; the value is {jm._a(kind(receiver))}"),
                name,
                path,
            )
        return plain(receiver, rest, s)

    async def run_async(s: State, vs: list[Any]) -> Any:
        receiver, rest = prepare(vs)
        if fallback is not None and type(receiver) is not list and type(receiver) is not str:
            token = GIVEN.set((receiver, *rest))
            try:
                if fallback.sync is not None:
                    return fallback.sync(s)
                return await fallback.aio(s)  # type: ignore[misc]
            finally:
                GIVEN.reset(token)
        if not (higher and type(receiver) is list and arrow is not None and arrow.is_async):
            return run_sync(s, vs)
        try:
            if name == "reduce":
                return await _reduce_async(name, arrow, s, receiver, rest, steps)
            if name in ("sort", "toSorted"):
                return _sort(receiver, arrow, s, steps)
            return await _apply_async(name, arrow, s, receiver, steps)
        except JsRefusal as exc:
            raise refused(exc, name, path) from None

    parts = [target, *values]
    needs_async = (arrow is not None and arrow.is_async) or (
        fallback is not None and fallback.sync is None
    )
    if all(p.sync is not None for p in parts) and not needs_async:
        syncs = [p.sync for p in parts]

        def call(s: State) -> Any:
            return run_sync(s, [f(s) for f in syncs])  # type: ignore[misc]

        return Compiled(sync=call)
    gather = combine(parts, lambda vs: vs)

    async def acall(s: State) -> Any:
        vs = gather.sync(s) if gather.sync is not None else await gather.aio(s)  # type: ignore[misc]
        return await run_async(s, vs)

    return Compiled(aio=acall)


def global_call(
    name: str,
    args: list[Compiled],
    spreads: list[bool],
    path: JSONPath,
    steps: Steps,
    stringify: Callable[[Any], str],
    combine: Callable[[list[Compiled], Callable[[list[Any]], Any]], Compiled],
) -> Compiled:
    fn = jm.globals_table(stringify)[name]

    def finish(vs: list[Any]) -> Any:
        return apply_js(fn, spread_args(vs, spreads, path), name, path)

    if not args:
        return Compiled(sync=lambda s: finish([]))
    if all(a.sync is not None for a in args):
        syncs = [a.sync for a in args]

        def call(s: State) -> Any:
            vs = [f(s) for f in syncs]  # type: ignore[misc]
            steps.take(s, 1 + sum(len(v) for v in vs if type(v) is list))
            return finish(vs)

        return Compiled(sync=call)
    return combine(args, finish)


def comparator_key(node: Lambda) -> tuple[Node, bool] | None:
    """``(a, b) => K(a) - K(b)``: ``(K(a), False)``; ``K(b) - K(a)``: ``(K(b) read as K(a),
    True)``; anything else: None. ``K`` must read ``a`` (and not ``b``) the same way on both
    sides, so sorting by ``K`` gives exactly the comparator's order."""
    body = node.body
    if len(node.params) != 2 or node.locals or not isinstance(body, Op) or body.op != "-":
        return None
    if len(body.operands) != 2:  # `(a, b) => -a`: a negation, not a difference
        return None
    left, right = body.operands
    level = _level_of(left)
    if level is None:
        return None
    if _mirror(left, right, level, 0, 1):
        return left, False
    if _mirror(left, right, level, 1, 0):
        return right, True
    return None


def _level_of(node: Node) -> int | None:
    levels = {n.frame for n in walk(node) if isinstance(n, ParamRef)}
    return levels.pop() if len(levels) == 1 else None


def _mirror(x: Node, y: Node, level: int, ix: int, iy: int) -> bool:
    """Whether ``y`` is ``x`` with parameter ``ix`` of the arrow at ``level`` read as ``iy``,
    and ``x`` reads only parameter ``ix`` of it (iteratively)."""
    stack = [(x, y)]
    while stack:
        a, b = stack.pop()
        if type(a) is not type(b):
            return False
        if isinstance(a, ParamRef) and isinstance(b, ParamRef):
            if a.frame == level and (a.index != ix or b.index != iy or b.frame != level):
                return False
            if a.frame != level and (a.frame, a.index) != (b.frame, b.index):
                return False
            continue
        if isinstance(a, Lit) and isinstance(b, Lit):
            if type(a.value) is not type(b.value) or a.value != b.value:
                return False
            continue
        if isinstance(a, Get | Op | Arr):
            same = (
                (isinstance(a, Get) and isinstance(b, Get) and a.optional == b.optional)
                or (isinstance(a, Op) and isinstance(b, Op) and a.op == b.op)
                or isinstance(a, Arr)
            )
            ka, kb = list(children(a)), list(children(b))
            if not same or len(ka) != len(kb):
                return False
            stack.extend(zip(ka, kb, strict=True))
            continue
        return False  # calls, aliases, anything else: not a plain key
    return True
