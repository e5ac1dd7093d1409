"""The resolver's expression forms: spreads, JavaScript methods and globals, arrow functions,
``while``, ``try`` and ``throw`` (a mixin of :class:`dialectic.resolve.resolver.Resolver`;
operators and conditionals: :mod:`dialectic.resolve.operators`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dialectic.outcome.errors import DialecticError, clip
from dialectic.outcome.hiddennames import HIDDEN_NAME
from dialectic.registry.registry import Registry, closest
from dialectic.resolve import build
from dialectic.resolve.foldstate import reduce_marks
from dialectic.resolve.foldtext import Marks, text_marks
from dialectic.resolve.inplace import Aliases, shared
from dialectic.resolve.maybe import Reads
from dialectic.resolve.maynan import NanState
from dialectic.resolve.operators import OperatorsMixin
from dialectic.resolve.passedtools import made_array_end, passed_function
from dialectic.tree.nodes import (
    AliasRef,
    Call,
    ContextRef,
    Get,
    Given,
    Global,
    Lambda,
    Lit,
    Merge,
    Method,
    Node,
    Ref,
    Spread,
    Throw,
    Try,
    While,
)
from dialectic.values.jsdate import SETTER_HINT, SETTERS
from dialectic.values.jsmethods import (
    ALL_METHODS,
    COLLECTION_CHANGES,
    FOLDS,
    GLOBALS,
    MUTATORS,
    RUN_VALUE_METHODS,
)
from dialectic.values.jsnan import TESTS as NAN_TESTS
from dialectic.values.lookalikes import FOREIGN_METHODS, METHOD_LOOKALIKES, lookalike_message

if TYPE_CHECKING:
    from dialectic.resolve.blocks import _Scope

__all__ = ["ExpressionsMixin"]


class _Params:
    """The parameters of an arrow function being resolved (``index``: its nesting level;
    ``positions``: each name's first position)."""

    __slots__ = ("params", "index", "positions")

    def __init__(self, params: tuple[str, ...], index: int) -> None:
        self.params = params
        self.index = index
        positions: dict[str, int] = {}
        for i, name in enumerate(params):
            positions.setdefault(name, i)
        self.positions = positions


#: the array methods whose arrow function's value is tested (truthy or not)
_PREDICATES = frozenset(
    {"filter", "find", "findLast", "findIndex", "findLastIndex", "some", "every"}
)


#: how a stack or a queue is written (SPEC 10, "Stacks and queues")
_WORKLIST = (
    " Or drain an array the program made, as a statement: const todo = [...xs]; "
    "while (todo.length) {{ const x = todo.{0}(); ... }} (todo used only by push, pop or "
    "shift statements and reads of its members)"
)
#: the new array a `let` takes instead of an array method's change in place inside an `if`
_LET_FORMS = {
    "splice": "xs.toSpliced(start, count, ...items)",
    "pop": "xs.slice(0, -1)",
    "shift": "xs.slice(1)",
    "unshift": "[item, ...xs]",
    "fill": "xs.map(() => value)",
}
#: the globals that read a regex match array's members (matchinfo)
_LISTS_MEMBERS = frozenset({"Object.keys", "Object.values", "Object.entries", "structuredClone"})


def _tested(node: Node) -> Node:
    """An arrow function whose value is tested: its body as a test (see ``build.soften``)."""
    lam: Any = node
    body = build.soften(lam.body)
    if body is lam.body:
        return node
    return build.lambda_(lam.path, lam.params, body, lam.locals)


class ExpressionsMixin(OperatorsMixin):
    """Expression forms of :class:`~dialectic.resolve.resolver.Resolver` (which sets these
    attributes up)."""

    registry: Registry | None
    errors: list[DialecticError]
    memo_size: int
    steps_slot: int
    ref_counts: dict[str, int]
    _conditional: int
    _arrow_count: int
    _arrow_locals: list[int]
    _env: list[_Scope | _Params]
    _may_see: Reads
    _present: dict[tuple[int, int], int]
    _candidates: set[tuple[int, int]]
    _nan: NanState
    match_members: bool
    _in_place: list[tuple[Method, Node, int, tuple[object, ...]]]
    reducers: list[tuple[Lambda, int, list[Node], dict[int, str | None]]]
    texts: Marks
    _cur: _Scope | None
    _bare: bool | None
    _reading: int
    _table: dict[type[Node], Callable[[Any, Any], Node]]

    if TYPE_CHECKING:

        def resolve(self, node: Node) -> Node: ...

        def leaf(self) -> None: ...

        def _Call(self, node: Call) -> Node: ...

        def _registered(self, registry: Registry, name: str) -> bool: ...

        def _failed(self, exc: DialecticError, node: Node) -> Node: ...

        def namespaced_name(self, receiver: Node, name: str) -> str | None: ...

    def _items(self, items: tuple[Node, ...]) -> tuple[Node, ...]:
        """Array elements or arguments: each may be a spread (``...xs``)."""
        out: list[Node] = []
        resolve = self.resolve
        inline = not self._reading  # nothing is measured outside an alias's expression
        table = self._table
        for c in items:
            if type(c) is Lit:  # a literal resolves to itself
                if self._cur is not None:
                    self.leaf()
                out.append(c)
            elif type(c) is Spread:
                out.append(Spread(c.path, resolve(c.value)))
            elif inline:
                try:  # resolve(c), inline
                    out.append(table[type(c)](self, c))
                except DialecticError as exc:
                    out.append(self._failed(exc, c))
            else:
                out.append(resolve(c))
        return tuple(out)

    def _items_lazy(self, items: tuple[Node, ...]) -> list[Node]:
        """Arguments with spreads resolved, arrow functions kept for :meth:`_arrow`."""
        out: list[Node] = []
        resolve = self.resolve
        for a in items:
            if type(a) is Lambda:
                out.append(a)
            elif type(a) is Spread:
                out.append(Spread(a.path, resolve(a.value)))
            else:
                out.append(resolve(a))
        return out

    def _Spread(self, node: Spread) -> Node:
        raise DialecticError(
            "invalid_program",
            "`...` (spread) is allowed only in an array, an object or a call's arguments",
            node.path,
        )

    def _Merge(self, node: Merge) -> Node:
        return Merge(node.path, tuple(self.resolve(part) for part in node.parts))

    def _Lambda(self, node: Lambda) -> Node:
        raise DialecticError(
            "invalid_program",
            "an arrow function can only be the argument of an array method "
            "(map, filter, find, some, every, sort, reduce, flatMap, ...)",
            node.path,
            hint="Functions are not values: write the arrow function inside the method call, "
            "e.g. xs.map(x => x.price), or (Plan) define it at the top of the program, "
            "const price = x => x.price;, and call it or pass it: xs.map(price).",
        )

    def _arrow(self, node: Lambda) -> Node:
        self._env.append(_Params(node.params, self._arrow_count))
        self._arrow_count += 1
        self._arrow_locals.append(0)
        self._conditional += 1  # the body runs once per element: maybe never
        try:
            body = self.resolve(node.body)
        finally:
            self._conditional -= 1
            self._arrow_count -= 1
            locals_ = self._arrow_locals.pop()
            self._env.pop()
        return build.lambda_(node.path, node.params, body, locals_)

    def _steps(self) -> None:
        if self.steps_slot < 0:
            self.steps_slot = self.memo_size
            self.memo_size += 1

    def _Method(self, node: Method) -> Node:
        registry = self.registry
        node = made_array_end(node) or node  # `t.split('.').pop()` (:mod:`.passedtools`)
        name = node.name
        if registry is not None and not node.optional:
            bare = self._bare
            if bare is None:
                bare = self._bare = bool(registry.bare_names())
            if bare:
                # `memory.search({...})`: a namespace's function named like a JavaScript method
                dotted = self.namespaced_name(node.target, name)
                if dotted is not None:
                    call = Call(node.path, dotted, "array", positional=node.args)
                    return self._Call(call)
        if (
            name not in ALL_METHODS
            and name not in COLLECTION_CHANGES
            and name not in RUN_VALUE_METHODS
        ):
            return self._not_a_method(node)
        changing = name in MUTATORS or (name in SETTERS and not _fresh_date(node, name))
        if changing and (registry is None or not self._registered(registry, name)):
            # refused before anything runs: run only when read, a change in place would be
            # missed where nothing reads its value (`const r = out.pop(); return out;`)
            if name in SETTERS:  # (a Date's: SPEC 1.8, "Dates")
                what, hint = "a Date", SETTER_HINT
                if name == "setYear":
                    hint = "Write setFullYear(y) (setYear is JavaScript's old form)."
            else:
                what = "the array"
                hint = f"Build a new array instead: {MUTATORS[name]}." + (
                    _WORKLIST.format(name) if name in ("pop", "shift") else ""
                )
                if name in _LET_FORMS:  # (`if (i !== -1) xs.splice(i, 1);`)
                    hint += (
                        " Inside an `if`, define the array with `let` and give it the new one: "
                        f"if (test) xs = {_LET_FORMS[name]};"
                    )
            raise DialecticError(
                "expression_error",
                f"{name}() changes {what} in place here, where Plan does not follow the change "
                "(it reads such a change only as a statement of its own, `xs.splice(...);`, on "
                "a name holding an array the program made, in a block, an `if` or a loop, or as "
                "the value of a simple statement: SPEC 10)",
                node.path,
                hint=hint,
                details={"method": name},
            )
        target = self.resolve(node.target)
        if node.optional:  # `x.b?.trim()`: `b` may be missing (SPEC 1.2)
            target = self._soft(target)
        args = tuple([passed_function(name, a, registry, self._program_name) for a in node.args])
        if args:  # the arrow functions' bodies after the other arguments
            lazy = self._items_lazy(args)
            args = tuple([self._arrow(a) if type(a) is Lambda else a for a in lazy])
            if name in _PREDICATES:  # `xs.filter(x => x.b)`: a test, so `b` may be missing
                args = tuple([_tested(a) if type(a) is Lambda else a for a in args])
                for a in args:  # `xs.filter(t => +t)`: NaN is falsy (SPEC 1.7)
                    if type(a) is Lambda:
                        self._nan.tested(a.body)
        if self.steps_slot < 0:
            self.steps_slot = self.memo_size
            self.memo_size += 1
        if name == "sort" or name == "reverse":
            self._in_place.append((node, target, self._arrow_count - 1, tuple(self._env)))
        elif name in FOLDS and args and type(args[0]) is Lambda:
            steps, fields = reduce_marks(args[0], self._arrow_count)
            if steps:
                self.reducers.append((args[0], self._arrow_count, steps, fields))
            self.texts.update(text_marks(args[0], self._arrow_count))  # (SPEC 10, "Cost")
        fallback = None
        if (
            registry is not None
            and self._registered(registry, name)
            and not any(type(a) is Lambda or type(a) is Spread for a in args)
        ):
            # `date.at('9:00am')`: the registered `at` for receivers that are not arrays/texts
            given = (
                Given(node.target.path, 0),
                *(Given(a.path, i + 1) for i, a in enumerate(args)),
            )
            call = Call(node.path, name, "array", positional=given)
            try:
                fallback = self._Call(call)
            except DialecticError:
                # the function cannot take these arguments (`'ab'.concat('c', 'd')` and a
                # plugin's `concat(a, b)`): the method is JavaScript's for every receiver
                fallback = None
        return build.method(node.path, target, name, args, fallback, node.optional)

    def _program_name(self, name: str) -> bool:
        """Whether an alias or a parameter of the program is named ``name`` here."""
        return any(name in (s.positions if isinstance(s, _Params) else s.slots) for s in self._env)

    def _not_a_method(self, node: Method) -> Node:
        """``x.f(...)`` where ``f`` is no JavaScript method: the registered function ``f``
        called as ``f(x, ...)``, else an error with the close names; ``s.length()`` and its
        kin, which Node never calls (:mod:`dialectic.values.lookalikes`), are refused unless
        ``x`` is a namespace."""
        registry = self.registry
        if node.name in METHOD_LOOKALIKES and self.namespaced_name(node.target, node.name) is None:
            message, hint = lookalike_message(node.name, _chain_text(node.target))
            raise DialecticError("invalid_program", message, node.path, hint=hint)
        if registry is not None and registry.resolve_function(node.name)[0] is not None:
            if node.optional:
                raise DialecticError(
                    "invalid_program",
                    f"`?.` before a call of the registered function `{clip(node.name)}` "
                    "is not supported",
                    node.path,
                    hint=f"Test the value first: x == null ? undefined : "
                    f"{clip(node.name)}(x, ...).",
                )
            if any(isinstance(a, Lambda | Spread) for a in node.args):
                raise DialecticError(
                    "invalid_program",
                    f"`{clip(node.name)}` is a registered function; it takes no arrow "
                    "functions or spread arguments",
                    node.path,
                )
            # x.f(a) for a registered f is the call f(x, a)
            call = Call(node.path, node.name, "array", positional=(node.target, *node.args))
            return self._Call(call)
        instead = FOREIGN_METHODS.get(node.name)
        if instead is not None:  # `xs.count()`, `s.strip()`: another language's method
            raise DialecticError(
                "unknown_function",
                f"`{clip(node.name)}` is not one of JavaScript's methods, nor a registered "
                "function",
                node.path,
                hint=f"Write {instead}.",
            )
        known = sorted(ALL_METHODS | set(registry.functions if registry is not None else ()))
        near = closest(node.name, known)
        raise DialecticError(
            "unknown_function",
            f"unknown method `{clip(node.name)}`"
            + (f"; did you mean {' or '.join(f'`{n}`' for n in near)}?" if near else ""),
            node.path,
            hint="Arrays and texts have JavaScript's methods (map, filter, sort, slice, join, "
            "includes, toUpperCase, split, ...); a registered function f can be called as "
            "x.f(...).",
        )

    def _Global(self, node: Global) -> Node:
        if node.name not in GLOBALS:
            near = closest(node.name, sorted(GLOBALS))
            raise DialecticError(
                "unknown_function",
                f"`{clip(node.name)}` is not a supported JavaScript global"
                + (f"; did you mean {' or '.join(f'`{n}`' for n in near)}?" if near else ""),
                node.path,
                hint="Supported: " + ", ".join(sorted(GLOBALS)) + ".",
            )
        self._steps()
        if node.name in _LISTS_MEMBERS:  # (a regex match array's index, input, groups)
            self.match_members = True
        args = self._items(node.args)
        if len(args) == 1 and node.name in NAN_TESTS:  # `isNaN(parseInt(t))` (SPEC 1.7)
            self._nan.tested(args[0])
        return Global(node.path, node.name, args)

    def _While(self, node: While) -> Node:
        """``$while``: the state, then the test and the step, each an arrow function applied
        once per iteration (the test's value is tested: its last key may be missing)."""
        init = self.resolve(node.init)
        test, step = node.test, node.step
        assert type(test) is Lambda and type(step) is Lambda  # (tree.forms checked)
        self._steps()
        tested, stepped = _tested(self._arrow(test)), self._arrow(step)
        if type(stepped) is Lambda:  # a fold's step changes its state's arrays in place
            steps, fields = reduce_marks(stepped, self._arrow_count)
            if steps:
                self.reducers.append((stepped, self._arrow_count, steps, fields))
        if type(stepped) is Lambda and type(tested) is Lambda:  # (texts: SPEC 10, "Cost")
            self.texts.update(text_marks(stepped, self._arrow_count, tested, self._arrow_count))
        return While(node.path, init, tested, stepped)

    def _Try(self, node: Try) -> Node:
        """``$try``: the body, then the handler, an arrow function applied to the error (it
        may never run)."""
        handler = node.handler
        assert type(handler) is Lambda  # (tree.forms checked)
        return Try(node.path, self.resolve(node.body), self._arrow(handler))

    def _Throw(self, node: Throw) -> Node:
        return Throw(node.path, self.resolve(node.value))

    def _check_in_place(self) -> None:
        """``xs.sort()`` reorders ``xs`` itself in JavaScript; dialectic returns a sorted copy,
        which is the same answer only if nothing else reads ``xs``."""
        seen = Aliases()  # (shared by the checks: each alias is walked once)
        for method, target, frame, env in self._in_place:
            why = shared(target, False, frame, env, self.ref_counts, seen)
            if why is None:
                continue
            root = target
            while isinstance(root, Get):
                root = root.target
            copy = "toSorted" if method.name == "sort" else "toReversed"
            if not (isinstance(root, AliasRef | ContextRef) and root.name == why):
                self.errors.append(
                    DialecticError(
                        "expression_error",
                        f"`{method.name}()` reorders its array itself in JavaScript, and that "
                        "array may be read elsewhere"
                        + (f" (through `{why}`)" if why and not HIDDEN_NAME.fullmatch(why) else "")
                        + "; dialectic would reorder a copy",
                        method.path,
                        hint=f"Reorder a copy: `.{copy}(...)`.",
                    )
                )
            elif root is not target:  # `groups[k].sort()`: an array inside the alias
                self.errors.append(
                    DialecticError(
                        "expression_error",
                        f"`{method.name}()` reorders an array inside `{root.name}` itself in "
                        f"JavaScript, and the program reads `{root.name}` elsewhere; dialectic "
                        "would reorder a copy",
                        method.path,
                        hint=f"Make the new value: `const sorted = Object.fromEntries("
                        f"Object.entries({root.name}).map(([k, v]) => [k, v.{copy}(...)]))` "
                        f"(an array: `{root.name}.map(v => v.{copy}(...))`), or reorder a copy "
                        f"where you read it: `{root.name}[k].{copy}(...)`.",
                    )
                )
            else:
                again = self.ref_counts.get(root.name, 0) <= 1  # (read in an arrow function)
                self.errors.append(
                    DialecticError(
                        "expression_error",
                        f"`{method.name}()` reorders `{root.name}` itself in JavaScript, and the "
                        + (
                            f"arrow function reads `{root.name}` again for each item"
                            if again
                            else f"program reads `{root.name}` elsewhere"
                        ),
                        method.path,
                        hint=f"Sort a copy: `{root.name}.{copy}(...)` or "
                        f"`[...{root.name}].{method.name}(...)`.",
                    )
                )


def _fresh_date(node: Method, name: str) -> bool:
    """Whether ``node`` is a setter of a new Date, ``new Date(d).setDate(x)``, which changes
    only that Date (nothing else holds it), so its value, the new time, is JavaScript's (the Plan
    front end writes the statement ``d.setDate(x);`` so: SPEC 1.8, "Dates")."""
    target = node.target
    return name != "setYear" and type(target) is Global and target.name == "Date"


def _chain_text(node: Node) -> str | None:
    """``u.name`` for a name and its literal members, as Plan writes it; else None."""
    keys: list[str] = []
    while isinstance(node, Get) and not node.optional:
        for k in reversed(node.keys):
            if not (isinstance(k, Lit) and isinstance(k.value, str) and k.value.isidentifier()):
                return None
            keys.append(k.value)
        node = node.target
    if not isinstance(node, Ref) or not node.name.isidentifier():
        return None
    return ".".join([node.name, *reversed(keys)])
