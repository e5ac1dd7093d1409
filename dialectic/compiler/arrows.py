"""Arrow functions compiled (SPEC 1.8): :class:`Arrow`, and the frames its applications run in.

An arrow function is never a value: it is compiled with the method that receives it. Its
parameters live in a frame held by the context variable :data:`FRAME`, so concurrent
applications (each element of a ``map`` whose body calls an asynchronous function runs as its
own task) never see each other's parameters. Here too: the run's step budget (:class:`Steps`),
spread arguments and objects, JavaScript functions applied with their refusals located, and
:func:`comparator_key` (a sort comparator read as a key). Used by
:mod:`dialectic.compiler.lambdas` (methods) and the compiler.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from contextvars import ContextVar
from time import monotonic
from typing import Any

from dialectic.compiler.columns import Plain
from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError, JSONPath, LimitExceeded
from dialectic.run.compiled import Launch
from dialectic.run.evaluator import MISSING, Compiled, State, deadline_error
from dialectic.tree.nodes import Arr, Get, Global, Lambda, Lit, Node, Op, ParamRef
from dialectic.tree.walking import children, walk
from dialectic.values.collections import is_collection
from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import JsThrows
from dialectic.values.jsops import (
    MAX_ITEMS,
    OPERATORS,
    JsRefusal,
    TextTooLong,
    TooManyItems,
    kind,
    too_many,
)
from dialectic.values.jsstrings import _a as a_kind


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


#: applications of arrows whose body is a call of ready arguments start as the call does
#: (:class:`ArrowLaunch`; a test turns this off to compare with the general way)
LAUNCHES = True


class Arrow:
    """A compiled arrow function: ``apply(s, args)`` (synchronous body) or ``aapply``."""

    __slots__ = (
        "body", "arity", "is_async", "locals", "key", "descending", "direct", "owns", "appends",
        "launch",
    )  # fmt: skip

    def __init__(self, body: Compiled, arity: int, locals: int = 0) -> None:
        self.body = body
        self.arity = arity
        self.is_async = body.sync is None
        self.locals = locals
        #: a comparator ``(a, b) => K(a) - K(b)`` (or ``K(b) - K(a)``: ``descending``) as its
        #: key ``K``: sorting by key gives the same order with n applications, not n*log(n)
        self.key: Arrow | None = None
        self.descending = False
        #: the body as a plain function of the element, when it reads only its first
        #: parameter (:mod:`dialectic.compiler.direct`): applied with no frame
        self.direct: Plain | None = None
        #: a ``reduce`` arrow whose steps change the accumulator in place
        #: (:mod:`dialectic.compiler.accumulate`)
        self.owns = False
        #: a ``reduce`` arrow ``(acc, x) => acc + E``: its piece ``E`` (``TextAppend``,
        #: :mod:`dialectic.compiler.textfold`), so that appends to a text are linear
        self.appends: Any = None
        #: the body's call, when the body is an asynchronous call of ready arguments and the
        #: arrow has no aliases of its own: each application of it, one of several at once, is
        #: started as the call is (:class:`ArrowLaunch`)
        self.launch = body.launch if LAUNCHES and not locals and body.alias is None else None

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


class ArrowLaunch(Launch):
    """One application of an arrow whose body is an asynchronous call of ready arguments
    (``ids.map(id => getUser(id))``), started as its body's call is (:class:`Launch`): the
    arguments evaluated now in the application's frame, the implementation's own coroutine the
    fan-out's task, with no coroutine of the arrow's or the call's around it. The call's
    ``finish``, ``error`` and the rest are its body's."""

    __slots__ = ("call", "args")

    def __init__(self, call: Launch, args: tuple[Any, ...]) -> None:
        self.timeout = call.timeout
        self.call = call
        self.args = args

    def start(self, state: State) -> tuple[Coroutine[Any, Any, Any], list[Any] | None] | None:
        token = FRAME.set((*FRAME.get(), Frame(self.args, 0)))
        try:
            return self.call.start(state)
        finally:
            FRAME.reset(token)

    def finish(self, value: Any, state: State) -> Any:
        return self.call.finish(value, state)

    def error(self, exc: Exception, state: State) -> BaseException:
        return self.call.error(exc, state)

    def timed_out(self) -> DialecticError:
        return self.call.timed_out()

    def cancelled(self) -> DialecticError:
        return self.call.cancelled()


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
        if (n > 1 or not used & CHECK_EVERY) and monotonic() > s.deadline_at:
            raise deadline_error(s.limits, self.path)

    def left(self, s: State) -> int:
        """The steps this run may still take."""
        used = s.memo[self.slot]
        return self.limit - (0 if used is MISSING else used)

    def spent(self, s: State) -> None:
        """The ``max_steps`` failure of a method that stopped where the steps ran out."""
        self.take(s, self.limit + 1)

    def overdue(self, s: State) -> None:
        """The deadline's failure if the run is past it. A synchronous loop over elements gives
        the deadline's timer no chance to stop it, and one element may cost a million-character
        text operation: the loops call this every ``CHECK_EVERY + 1`` elements."""
        if monotonic() > s.deadline_at:
            raise deadline_error(s.limits, self.path)


#: (a power of two, minus one) the element loops check the deadline this often
CHECK_EVERY = 255


def refused(exc: JsRefusal, name: str, path: JSONPath) -> DialecticError:
    if type(exc) is TextTooLong or type(exc) is TooManyItems:  # limit_exceeded (SPEC 1.8)
        return exc.error(path, {"operator" if name in OPERATORS else "method": name})
    said = exc.said if type(exc) is JsThrows else None
    err = DialecticError(
        "expression_error", said or exc.message, path, hint=exc.hint, details={"method": name}
    )
    if type(exc) is JsThrows:  # (JavaScript throws too: `$try` may catch it)
        err.throws = True
        err.thrown = ({"name": exc.name, "message": exc.message},)
    return err


def apply_js(
    fn: Callable[..., Any], args: list[Any], name: str, path: JSONPath, method: bool = False
) -> Any:
    """A JavaScript method (``method``: ``args[0]`` its receiver) or global applied: its
    value, or `expression_error`."""
    try:
        return fn(*args)
    except JsRefusal as exc:
        raise refused(exc, name, path) from None
    except TypeError:  # the Python function's arity: JavaScript would ignore or misread them
        n = len(args) - method
        raise DialecticError(
            "expression_error",
            f"`{name}` was given {n} argument{'s' if n != 1 else ''}, more or fewer than "
            "Plan reads",
            path,
            hint=f"Give `{name}` the arguments SPEC.md section 1.8 lists for it, or compute "
            "what the others do another way (`s.slice(i).indexOf(t)` for a start).",
        ) from None


def spread_args(
    values: Sequence[Any], spreads: Sequence[bool], path: JSONPath, out: list[Any] | None = None
) -> list[Any]:
    """Argument or element values with ``...x`` expanded (onto the end of ``out``: a
    ``reduce``'s own accumulator, :mod:`dialectic.compiler.accumulate`)."""
    if out is None:
        out = []
    for v, is_spread in zip(values, spreads, strict=True):
        if not is_spread:
            out.append(v)
        elif type(v) is list:
            if len(out) + len(v) > MAX_ITEMS:  # `[...a, ...a]` alias after alias doubles
                raise DialecticError("limit_exceeded", too_many(len(out) + len(v)).message, path)
            out.extend(v)
        elif type(v) is str:  # by code points, as JavaScript iterates a text (`[..."😀a"]`)
            if len(out) + len(v) > MAX_ITEMS:
                raise DialecticError("limit_exceeded", too_many(len(out) + len(v)).message, path)
            out.extend(v)
        elif is_collection(v):  # a Map's [key, value] pairs, a Set's items, an iterator's
            try:
                items = v.items()
            except JsRefusal as exc:  # (a regular expression)
                raise DialecticError("expression_error", exc.message, path, hint=exc.hint) from None
            if len(out) + len(items) > MAX_ITEMS:
                raise DialecticError(
                    "limit_exceeded", too_many(len(out) + len(items)).message, path
                )
            out.extend(items)
        elif type(v) is dict:  # (also a `for...of` loop's list and an array pattern's value)
            raise DialecticError(
                "expression_error",
                "an object is not iterable: `...`, a `for...of` loop and an array pattern "
                "read an array or a text (JavaScript throws a TypeError)",
                path,
                hint="Go over its keys, values or pairs: Object.keys(o), Object.values(o), "
                "Object.entries(o) (for (const [k, v] of Object.entries(o)) ...).",
            )
        else:
            raise DialecticError(
                "expression_error",
                f"`...` spreads an array or a text, not {kind(v)}",
                path,
                hint="Give a default first: `...(xs ?? [])`.",
            )
    return out


def merge(
    parts: Sequence[Any], path: JSONPath, out: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``{...a, ...b}``: later parts win, an undefined value too (the key keeps its first
    place, as in JavaScript; what leaves the run drops it, as JSON does); into ``out``: a
    ``reduce``'s own accumulator (:mod:`dialectic.compiler.accumulate`)."""
    if out is None:
        out = {}
    for part in parts:
        kind_of = type(part)
        if part is None or part is UNDEFINED or kind_of is bool or kind_of is int:
            continue  # {...null}, {...(c && {a: 1})} add nothing, as in JavaScript
        if kind_of is not dict:
            if kind_of is float or part == "":
                continue  # (a number and an empty text have no members of their own either)
            raise DialecticError(
                "expression_error",
                "`...` in an object, and each source of `Object.assign`, copies an object's "
                f"members; this is {a_kind(kind(part))}"
                + (
                    " (JavaScript would copy its items or characters as members `0`, `1`, ...)"
                    if kind_of is str or kind_of is list
                    else ""
                ),
                path,
                hint="Spread objects only: {...a, b: 1}, Object.assign(o, {name: s}) for a "
                "member; an array's items or a text's characters as members: "
                "Object.fromEntries([...xs].map((x, i) => [i, x]))",
            )
        if "__proto__" in part:
            raise proto_merged(path)
        out.update(part)
    return out


def proto_merged(path: JSONPath) -> DialecticError:
    """The refusal of an object with a member ``__proto__`` (JSON text's, a function's reply's:
    nothing else makes one) spread or merged: ``{...o}`` copies it, ``Object.assign({}, o)``
    (the same tree) sets the new object's prototype with it, so neither is answered."""
    return DialecticError(
        "expression_error",
        "the object spread or merged here has a member `__proto__` (from JSON text or a "
        "function's reply): `Object.assign` would set the new object's prototype with it "
        "where a spread copies it",
        path,
        hint="Leave the member out first: Object.fromEntries(Object.entries(o).filter(([k]) "
        "=> k !== '__proto__')).",
    )


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
        if isinstance(a, Global) and isinstance(b, Global) and a.name == b.name == "Date":
            # `new Date(a.at) - new Date(b.at)`: a Date made of the item, its time the key
            if not a.args or len(a.args) != len(b.args):
                return False
            stack.extend(zip(a.args, b.args, strict=True))
            continue
        return False  # calls, aliases, anything else: not a plain key
    return True
