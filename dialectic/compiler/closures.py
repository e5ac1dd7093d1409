"""The compiler: a call tree and a registry in, closures out (once per program).

Each node becomes a :class:`~dialectic.run.evaluator.Compiled` closure. Everything that can be
decided before a run is decided here: function resolution, argument binding, the coercer of every
parameter, alias dependency order and cycles, static limits (depth, nodes, calls), forbidden member
names, and which subtrees are synchronous (run inline) or asynchronous (run with anyio).
Compile errors are collected, so one failure reports every problem found.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.compiler.access import Access, forbidden_error, is_forbidden
from dialectic.compiler.invoke import Coercer, invocation
from dialectic.limits import Limits
from dialectic.outcome.errors import (
    Ambiguous,
    Candidate,
    DialecticError,
    Failure,
    JSONPath,
    LimitExceeded,
    clip,
)
from dialectic.registry.descriptions import Constant, FunctionDescription
from dialectic.registry.registry import Registry, closest
from dialectic.resolve.binding import bind
from dialectic.run.evaluator import (
    MISSING,
    AmbiguityError,
    AmbiguityItem,
    AsyncSlot,
    Compiled,
    State,
    async_many,
    sync_many,
)
from dialectic.tree.nodes import (
    Arr,
    Call,
    Get,
    Let,
    Lit,
    Node,
    Obj,
    Ref,
    Template,
    Undefined,
    Unwrap,
)
from dialectic.values.coercion import CoercionAmbiguity, TypeSystem
from dialectic.values.data import UNDEFINED, copier
from dialectic.values.serialize import Serializer


class _Err:
    """A memoized error: a second reference to a failed alias re-raises the same error."""

    __slots__ = ("exc",)

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


class CompileErrors(Exception):
    def __init__(self, errors: list[DialecticError]) -> None:
        super().__init__(str(errors[0]))
        self.errors = errors


class Compiler:
    def __init__(
        self,
        registry: Registry,
        types: TypeSystem,
        serializer: Serializer,
        limits: Limits,
        tree: Any,
    ) -> None:
        self.registry = registry
        self.types = types
        self.serializer = serializer
        self.access = Access(registry, types)
        self.limits = limits
        self.tree = tree
        self.errors: list[DialecticError] = []
        self.warnings: list[str] = []
        self.memo_size = 0
        self.calls = 0
        self.context_refs: dict[str, JSONPath] = {}
        #: asynchronous calls per function name, and in all ("*"): decides whether limiters
        #: are needed at all
        self.async_calls: dict[str, int] = {"*": 0}
        self.constant_slots: dict[str, int] = {}
        self.alias_names: set[str] = set()
        self.mode = "return"
        self._scopes: list[dict[str, tuple[int, Compiled]]] = []

    # -- entry ----------------------------------------------------------------------------
    def compile_root(self, root: Node) -> Compiled:
        if isinstance(root, Let):
            self.mode = root.mode
        compiled = self.compile(root, top=True)
        if self.calls > self.limits.max_calls:
            self.errors.insert(
                0,
                LimitExceeded(
                    "max_calls",
                    f"the program makes {self.calls} calls; the limit is {self.limits.max_calls}",
                ),
            )
        if self.errors:
            raise CompileErrors(self.errors)
        return compiled

    def compile(self, node: Node, top: bool = False) -> Compiled:
        try:
            if isinstance(node, Lit):
                return _literal(node.value)
            if isinstance(node, Call):
                return self._call(node)
            if isinstance(node, Ref):
                return self._ref(node)
            if isinstance(node, Get):
                return self._get(node)
            if isinstance(node, Template):
                return self._template(node)
            if isinstance(node, Obj):
                return self._object(node)
            if isinstance(node, Arr):
                return self._array(node)
            if isinstance(node, Let):
                return self._let(node, top)
            if isinstance(node, Undefined):
                return Compiled(sync=lambda s: UNDEFINED)
            if isinstance(node, Unwrap):
                return self._unwrap(node)
            raise DialecticError("invalid_program", f"unknown node {type(node).__name__}")
        except DialecticError as exc:
            if not exc.path:
                exc.path = node.path
            self.errors.append(exc)
            return Compiled(sync=_unreachable)

    # -- combinators ----------------------------------------------------------------------
    def _combine(self, children: list[Compiled], finish: Callable[[list[Any]], Any]) -> Compiled:
        if all(c.sync is not None for c in children):
            many = sync_many([c.sync for c in children])  # type: ignore[misc]
            return Compiled(sync=lambda s: finish(many(s)))
        amany = async_many(children)

        async def run(s: State) -> Any:
            return finish(await amany(s))

        return Compiled(aio=run)

    # -- data -----------------------------------------------------------------------------
    def _array(self, node: Arr) -> Compiled:
        kids = [self.compile(c) for c in node.items]
        if not kids:
            return Compiled(sync=lambda s: [])
        return self._combine(kids, lambda vs: [None if v is UNDEFINED else v for v in vs])

    def _object(self, node: Obj) -> Compiled:
        keys = list(node.fields)
        for k in keys:
            if k == "__proto__":
                raise forbidden_error(k, (*node.path, k))
        kids = [self.compile(node.fields[k]) for k in keys]

        def finish(vs: list[Any]) -> dict[str, Any]:
            return {k: v for k, v in zip(keys, vs, strict=True) if v is not UNDEFINED}

        return self._combine(kids, finish)

    def _unwrap(self, node: Unwrap) -> Compiled:
        def finish(vs: list[Any]) -> Any:
            v = vs[0]
            return v[0] if type(v) is list and len(v) == 1 else v

        return self._combine([self.compile(node.value)], finish)

    def _template(self, node: Template) -> Compiled:
        stringify = self.serializer.stringify
        max_len = self.limits.max_string_length
        path = node.path

        def too_long(n: int) -> LimitExceeded:
            return LimitExceeded(
                "max_string_length",
                f"a template would produce {n} characters; the limit is {max_len}",
                path,
            )

        def check(out: str) -> str:
            if len(out) > max_len:
                raise too_long(len(out))
            return out

        literal = [p if isinstance(p, str) else None for p in node.parts]
        exprs = [self.compile(p) for p in node.parts if not isinstance(p, str)]
        if not exprs:
            text = check("".join(p for p in literal if p is not None))
            return Compiled(sync=lambda s: text)
        if all(c.sync is not None for c in exprs):
            it = iter(exprs)
            pairs = tuple(
                (lit, None) if lit is not None else ("", next(it).sync) for lit in literal
            )

            def template(s: State) -> str:
                out = []
                amb: AmbiguityError | None = None
                for lit, fn in pairs:
                    if fn is None:
                        out.append(lit)
                    else:
                        try:
                            v = fn(s)
                        except AmbiguityError as exc:
                            amb = exc.merged(amb)
                            continue
                        out.append(v if type(v) is str else stringify(v))
                if amb is not None:
                    raise amb
                total = 0
                for part in out:  # measure before joining: never build an oversized string
                    total += len(part)
                if total > max_len:
                    raise too_long(total)
                return "".join(out)

            return Compiled(sync=template)

        def finish(vs: list[Any]) -> str:
            it = iter(vs)
            parts = [lit if lit is not None else stringify(next(it)) for lit in literal]
            total = sum(len(p) for p in parts)
            if total > max_len:
                raise too_long(total)
            return "".join(parts)

        return self._combine(exprs, finish)

    # -- names ----------------------------------------------------------------------------
    def _ref(self, node: Ref) -> Compiled:
        name = node.name
        for scope in reversed(self._scopes):
            if name in scope:
                idx, target = scope[name]
                return _alias_reader(idx, target)
        const = self.registry.constants.get(name)
        if const is not None:
            return self._constant(const)
        if name in self.registry.functions:
            raise DialecticError(
                "not_a_value",
                f"`{name}` is a function, not a value; functions cannot be stored or passed",
                node.path,
                hint=f'Call it: {{"{name}": {{...}}}} (Plan: {name}(...)).',
            )
        if is_forbidden(name):
            raise forbidden_error(name, node.path)
        fuzzy = self.registry.resolve_constant(name)
        if fuzzy is not None:
            # `Thursday` for the constant `thursday`: a context value of that exact name still
            # wins; otherwise the constant is read, with a warning
            read_constant = self._constant(fuzzy).sync
            assert read_constant is not None
            note = (
                f"unknown name `{name}` at {_fmt(node.path)}: read the constant `{fuzzy.name}`, "
                "the only one with that name up to case and underscores"
            )

            def read_forgiven(s: State) -> Any:
                context = s.context
                if name in context:
                    return context[name]
                if note not in s.warnings:
                    s.warnings.append(note)
                return read_constant(s)

            return Compiled(sync=read_forgiven)
        self.context_refs.setdefault(name, node.path)
        return Compiled(sync=lambda s: s.context[name])

    def _constant(self, const: Constant) -> Compiled:
        if const.factory is None:
            return _literal(const.value)
        idx = self.constant_slots.get(const.name)
        if idx is None:
            idx = self.constant_slots[const.name] = self.memo_size
            self.memo_size += 1
        factory = const.factory
        name = const.name

        def read(s: State) -> Any:
            v = s.memo[idx]
            if v is MISSING:
                try:
                    v = factory(s.ctx)
                except Failure as exc:
                    raise DialecticError(exc.code, f"`{name}`: {exc.message}", hint=exc.hint)
                s.memo[idx] = v
            return v

        return Compiled(sync=read)

    def _let(self, node: Let, top: bool) -> Compiled:
        if node.mode == "use" and not top:
            raise DialecticError(
                "invalid_program", "$use is allowed only at the top of a program", node.path
            )
        order = _dependency_order(node)
        scope: dict[str, tuple[int, Compiled]] = {}
        self._scopes.append(scope)
        try:
            for name in order:
                idx = self.memo_size
                self.memo_size += 1
                self.alias_names.add(name)
                scope[name] = (idx, self.compile(node.bindings[name]))
            return self.compile(node.body)
        finally:
            self._scopes.pop()

    # -- member access ----------------------------------------------------------------------
    def _get(self, node: Get) -> Compiled:
        for k in node.keys:
            if isinstance(k, Lit) and isinstance(k.value, str) and is_forbidden(k.value):
                raise forbidden_error(k.value, k.path)
        member = self.access.member
        path = node.path
        parts = [self.compile(node.target)] + [self.compile(k) for k in node.keys]
        if all(isinstance(k, Lit) for k in node.keys) and parts[0].sync is not None:
            target = parts[0].sync
            keys = tuple(k.value for k in node.keys)  # type: ignore[attr-defined]
            # a context value is read in place (one closure call less on the hot path)
            ctx_name = self._context_name(node.target)

            def get_literal(s: State) -> Any:
                v = s.context[ctx_name] if ctx_name is not None else target(s)
                for k in keys:
                    if type(v) is dict:
                        try:
                            v = v[k]
                            continue
                        except (KeyError, TypeError):
                            pass
                    v = member(v, k, path)
                return v

            return Compiled(sync=get_literal)

        def finish(vs: list[Any]) -> Any:
            v = vs[0]
            for k in vs[1:]:
                if type(k) is str and is_forbidden(k):
                    raise forbidden_error(k, path)
                v = member(v, k, path)
            return v

        return self._combine(parts, finish)

    def _context_name(self, node: Node) -> str | None:
        """The name if ``node`` is a reference that resolves to a context value."""
        if not isinstance(node, Ref) or node.name not in self.context_refs:
            return None
        if any(node.name in scope for scope in self._scopes):
            return None
        return node.name

    # -- calls ----------------------------------------------------------------------------
    def _call(self, node: Call) -> Compiled:
        if node.name not in self.registry.functions and is_forbidden(node.name):
            raise forbidden_error(node.name, node.path)
        fn, corrected = self.registry.resolve_function(node.name)
        if fn is None:
            raise self._unknown_function(node)
        if corrected is not None:
            self.warnings.append(
                f"unknown function `{node.name}` at {_fmt(node.path)}: ran `{corrected}`, the "
                "only function with that name up to case and underscores"
            )
        self.calls += 1
        bound = bind(self.registry, node, fn)
        params = self.registry.params(fn)
        specs: list[tuple[str, Compiled, Coercer | None, bool]] = []
        nodes: list[Node] = []
        for p in params:
            arg = bound.get(p.name)
            if arg is None:
                continue
            nodes.append(arg)
            specs.append(
                (p.name, self.compile(arg), self._coercer(fn, p.name, p.type, arg), p.optional)
            )
        return invocation(node, fn, specs, nodes, self.limits, self.async_calls)

    def _unknown_function(self, node: Call) -> DialecticError:
        names = self.registry.names()
        near = closest(node.name, names)
        if near:
            text = "did you mean " + " or ".join(f"`{n}`" for n in near) + "?"
        else:
            text = "no registered function has a similar name"
        return DialecticError(
            "unknown_function",
            f"unknown function `{clip(node.name)}`; {text}",
            node.path,
            hint="An object with one key is a call; to pass a one-key object as data write "
            '{"$object": {...}} (or {"$quote": ...}). `dialectic describe` lists the functions.',
            details={"closest": near},
        )

    def _coercer(
        self, fn: FunctionDescription, pname: str, ptype: str, arg: Node
    ) -> Coercer | None:
        """None for `any`; else (exact Python types or None, fit check, slow converter)."""
        if ptype == "any":
            return None
        check = self.types.checker(ptype)
        coerce = self.types.coerce
        path = arg.path
        tree = self.tree
        fname = fn.name

        def slow(v: Any, s: State) -> Any:
            if v is UNDEFINED or check(v):
                return v
            try:
                return coerce(v, ptype, s.ctx)
            except CoercionAmbiguity as amb:
                raise AmbiguityError([_coercion_ambiguity(amb, fname, pname, path, tree)])
            except Ambiguous as exc:  # a conversion found several results: refine the argument
                raise AmbiguityError([AmbiguityItem(exc.message, exc.candidates, path, fname)])
            except DialecticError as exc:
                raise DialecticError(
                    exc.code,
                    f"argument `{pname}` of `{fname}`: {exc.message}",
                    path,
                    hint=exc.hint,
                    details=exc.details,
                ) from None

        return (self.types.exact_types(ptype) or (), slow)


def _alias_reader(idx: int, target: Compiled) -> Compiled:
    if target.sync is not None:
        fn = target.sync

        def read(s: State) -> Any:
            v = s.memo[idx]
            if v is MISSING:
                try:
                    v = fn(s)
                except (DialecticError, AmbiguityError) as exc:
                    s.memo[idx] = _Err(exc)
                    raise
                s.memo[idx] = v
                return v
            if type(v) is _Err:
                raise v.exc
            return v

        return Compiled(sync=read)
    afn = target.aio
    assert afn is not None

    async def aread(s: State) -> Any:
        slot = s.memo[idx]
        if slot is MISSING:
            slot = s.memo[idx] = AsyncSlot()
            try:
                slot.value = await afn(s)
            except BaseException as exc:
                slot.error = exc
                raise
            finally:
                slot.event.set()
            return slot.value
        if not slot.event.is_set():
            await slot.event.wait()
        if slot.error is not None:
            raise slot.error
        return slot.value

    return Compiled(aio=aread)


def _unreachable(s: State) -> Any:
    raise AssertionError("a program with compile errors was run")


def _fmt(path: JSONPath) -> str:
    from dialectic.outcome.errors import format_path

    return format_path(path)


def references(node: Node, names: set[str] | frozenset[str]) -> set[str]:
    """Names from ``names`` that ``node`` references (iteratively; inner $let shadows)."""
    found: set[str] = set()
    stack: list[tuple[Node, frozenset[str]]] = [(node, frozenset())]
    while stack:
        n, shadow = stack.pop()
        if isinstance(n, Ref):
            if n.name in names and n.name not in shadow:
                found.add(n.name)
        elif isinstance(n, Call):
            if n.kind == "array":
                stack.extend((c, shadow) for c in n.positional)
            elif n.kind == "single" and n.single is not None:
                stack.append((n.single, shadow))
            elif n.kind == "object":
                from dialectic.tree.nodes import call_named

                stack.extend((c, shadow) for c in call_named(n).values())
        elif isinstance(n, Get):
            stack.append((n.target, shadow))
            stack.extend((k, shadow) for k in n.keys)
        elif isinstance(n, Template):
            stack.extend((p, shadow) for p in n.parts if isinstance(p, Node))
        elif isinstance(n, Obj):
            stack.extend((c, shadow) for c in n.fields.values())
        elif isinstance(n, Arr):
            stack.extend((c, shadow) for c in n.items)
        elif isinstance(n, Unwrap):
            stack.append((n.value, shadow))
        elif isinstance(n, Let):
            inner = shadow | frozenset(n.bindings)
            stack.extend((c, inner) for c in n.bindings.values())
            stack.append((n.body, inner))
    return found


def _dependency_order(node: Let) -> list[str]:
    """Aliases in dependency order; a cycle is a compile error naming it (a -> b -> a)."""
    names = set(node.bindings)
    deps = {name: references(expr, names) for name, expr in node.bindings.items()}
    order: list[str] = []
    state: dict[str, int] = {}  # 1 visiting, 2 done
    for start in node.bindings:
        if state.get(start) == 2:
            continue
        stack: list[tuple[str, list[str]]] = [(start, sorted(deps[start]))]
        trail = [start]
        state[start] = 1
        while stack:
            name, todo = stack[-1]
            if todo:
                nxt = todo.pop(0)
                st = state.get(nxt)
                if st == 1:
                    cycle = [*trail[trail.index(nxt) :], nxt]
                    raise DialecticError(
                        "cycle",
                        "the aliases depend on each other in a cycle: " + " -> ".join(cycle),
                        node.bindings[cycle[0]].path,
                        hint="An alias cannot use its own value, directly or through others.",
                        details={"cycle": cycle},
                    )
                if st is None:
                    state[nxt] = 1
                    stack.append((nxt, sorted(deps[nxt])))
                    trail.append(nxt)
            else:
                stack.pop()
                trail.pop()
                state[name] = 2
                order.append(name)
    return order


def _coercion_ambiguity(
    amb: CoercionAmbiguity, fname: str, pname: str, path: JSONPath, tree: Any
) -> AmbiguityItem:
    original = subtree(tree, path)
    candidates = []
    for p in amb.paths:
        via = p[1:-1]
        chain = " -> ".join(p)
        candidates.append(
            Candidate(
                f"the conversion {chain}",
                {"convert": {"value": original, "type": amb.target, "via": via}},
            )
        )
    message = (
        f"The argument `{pname}` of `{fname}` is {_art(amb.source)} and can become "
        f"{_art(amb.target)} in more than one way. Which conversion did you mean?"
    )
    return AmbiguityItem(message, candidates, path, fname)


def _art(t: str) -> str:
    return ("an " if t[:1] in "aeiou" else "a ") + t


def subtree(tree: Any, path: JSONPath) -> Any:
    node = tree
    for key in path:
        node = node[key]
    return node


def _literal(value: Any) -> Compiled:
    """A fixed value: a scalar is shared; a container (a quoted literal, a constant) is copied
    for every use, so a function that mutates its argument cannot change the next run."""
    fresh = copier(value)
    if fresh is not None:
        return Compiled(sync=lambda s: fresh())
    return Compiled(sync=lambda s: value)
