"""The compiler: a resolved tree in, closures out (once per program).

The resolver (:mod:`dialectic.resolve.resolver`) has already decided names, bindings, alias
order and the static limits; the compiler turns each resolved node into a
:class:`~dialectic.run.evaluator.Compiled` closure in one walk: the coercer of every parameter,
which subtrees are synchronous (run inline) or asynchronous (run with anyio), literal fast paths.
Compile errors are collected, so one failure reports every problem found.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import partial
from typing import Any

from dialectic.compiler.access import Access
from dialectic.compiler.accumulate import ACC, counted, spread_owned
from dialectic.compiler.aliases import DEEP_ALIAS, alias_reader, local_reader
from dialectic.compiler.asyncfn import AsyncFn
from dialectic.compiler.calls import SHARED_SCALARS, CallsMixin
from dialectic.compiler.dagplan import static_dag
from dialectic.compiler.forms import FormsMixin, optional_link
from dialectic.compiler.getters import context_getter
from dialectic.compiler.lambdas import (
    spread_args,
)
from dialectic.compiler.literals import Literal
from dialectic.compiler.membergets import (
    _computed_get,
    _computed_keys,
    _literal_get,
    _values,
    param_get,
)
from dialectic.compiler.recursion import RecursionMixin
from dialectic.compiler.sitefacts import FnFacts, facts_table
from dialectic.compiler.templates import template
from dialectic.compiler.textbuild import text_site
from dialectic.limits import Limits
from dialectic.outcome.errors import (
    DialecticError,
    Failure,
    format_path,
)
from dialectic.registry.descriptions import Constant
from dialectic.registry.registry import Registry
from dialectic.resolve.resolver import Resolved
from dialectic.run.effects import effect_block, sync_in_order
from dialectic.run.evaluator import (
    MISSING,
    Compiled,
    State,
    async_many,
    sync_many,
)
from dialectic.run.gather import one_awaited
from dialectic.tree.dispatch import unbound_table
from dialectic.tree.nodes import (
    AliasRef,
    Arr,
    Binding,
    Block,
    ConstRef,
    ContextRef,
    Get,
    Lit,
    Method,
    Node,
    Obj,
    ParamRef,
    Spread,
    Template,
    Undefined,
    Unwrap,
)
from dialectic.values.coercion import TypeSystem
from dialectic.values.data import UNDEFINED, copier
from dialectic.values.serialize import Serializer


class CompileErrors(Exception):
    def __init__(self, errors: list[DialecticError]) -> None:
        super().__init__(str(errors[0]))
        self.errors = errors


class Compiler(CallsMixin, FormsMixin, RecursionMixin):
    """Compiles one resolved program; ``errors`` collects what cannot be compiled."""

    def __init__(
        self,
        registry: Registry,
        types: TypeSystem,
        serializer: Serializer,
        limits: Limits,
        tree: Any,
        resolved: Resolved,
    ) -> None:
        self.registry = registry
        self.types = types
        self.serializer = serializer
        # what depends only on the registry and type system: made once for them, not per
        # program (the type system keeps it)
        shared = types.compiler_parts
        if shared is None or shared[0] is not registry or shared[3] is not type(self):
            shared = types.compiler_parts = _shared_parts(registry, types, type(self))
        self.access = shared[1]
        #: the sandbox's member read (one bound method, shared by the program's readers)
        self.member = shared[2]
        self.limits = limits
        self.tree = tree
        self.resolved = resolved
        self.errors: list[DialecticError] = []
        #: asynchronous calls per function name, and in all ("*"): decides whether limiters
        #: are needed at all
        self.async_calls: dict[str, int] = {"*": 0}
        #: what the asynchronous calls of each function share (by the function's id)
        self._async_fns: dict[int, AsyncFn] = {}
        #: alias slot -> the closure that reads it (memoized), and its binding; aliases of
        #: arrow functions' bodies by (arrow nesting, slot)
        self._aliases: dict[int, tuple[Compiled, Binding]] = {}
        self._locals: dict[tuple[int, int], Compiled] = {}
        #: the compile method of each node class (built once per compiler class)
        self._table: dict[type[Node], Callable[[Any, Any], Compiled]] = shared[4]
        #: the call-site facts of the registry's functions (kept per registry)
        self._facts: dict[str, FnFacts] = shared[5]
        #: the facts of each function this program calls, found current (by the function's id:
        #: the resolved tree holds the function)
        self._checked: dict[int, FnFacts] = {}
        #: compiled literal scalars, by (type, value): shared by the call sites that pass them
        self._scalars: dict[tuple[type, Any], Compiled] = {}
        #: the asynchronous calls compiled, by node id (:meth:`twin`, dagplan)
        self._async_sites: dict[int, Compiled] = {}
        #: the compile methods that read the leaves of :meth:`twin` (made on first use), and
        #: those leaves (by node id) with the ids of those read, while it compiles
        self._twins: dict[type[Node], Callable[[Any, Any], Compiled]] | None = None
        self._twin_leaves: tuple[dict[int, Compiled], set[int]] | None = None
        #: nodes with effectful calls below them (SPEC 17); empty for most programs
        effects = resolved.effects
        self._marked: AbstractSet[int] = effects.marked if effects is not None else _NONE_MARKED
        #: the fold steps being compiled whose texts are built (:mod:`.textbuild`)
        self._text_loops: list[int] = []
        self._text_builds: set[int] = set()  # (their reduces' arrows: :mod:`.textfold`)
        #: the arrays and merges that make a ``reduce`` step's result (``reduce`` counts their
        #: copies: :func:`~dialectic.compiler.accumulate.step_results`)
        self._uncounted: set[int] = set()

    # -- entry ----------------------------------------------------------------------------
    def compile_root(self) -> Compiled:
        compiled = self.compile(self.resolved.root)
        if self.errors:
            raise CompileErrors(self.errors)
        return compiled

    def compile(self, node: Node) -> Compiled:
        try:
            out = (self.resolved.texts and text_site(self, node)) or self._table[type(node)](
                self, node
            )
        except DialecticError as exc:
            if not exc.path:
                exc.path = node.path
            self.errors.append(exc)
            return Compiled(sync=_unreachable)
        if self._marked and id(node) in self._marked:
            out.ordered = True  # effectful calls below: in program order (SPEC 17)
        return out

    # -- combinators ----------------------------------------------------------------------
    def _combine(self, children: list[Compiled], finish: Callable[[list[Any]], Any]) -> Compiled:
        fns: list[Callable[[State], Any]] = []
        ordered = 0
        for c in children:
            sync = c.sync
            if sync is None:
                break
            fns.append(sync)
            if c.ordered:
                ordered += 1
        if len(fns) == len(children):
            # SPEC 17: two effectful children or more stop at an ambiguity
            many = sync_in_order(fns) if ordered > 1 else sync_many(fns)
            return Compiled(lambda s: finish(many(s)))
        waits = [i for i, c in enumerate(children) if c.aio is not None]
        if len(waits) == 1 and sum(1 for c in children if c.ordered) <= 1:
            return Compiled(aio=one_awaited(children, waits[0], finish))
        amany = async_many(children)

        async def run(s: State) -> Any:
            return finish(await amany(s))

        return Compiled(aio=run)

    # -- data -----------------------------------------------------------------------------
    def _Lit(self, node: Lit) -> Compiled:
        value = node.value
        if _SHARED_SCALARS.get(type(value)) and not self._marked:
            return self._shared_literal(value)  # (compile() changes no shared one: no effects)
        return _literal(value)

    def _Undefined(self, node: Undefined) -> Compiled:
        return Compiled(sync=lambda s: UNDEFINED)

    def _Arr(self, node: Arr) -> Compiled:
        kids = [self.compile(c.value if isinstance(c, Spread) else c) for c in node.items]
        if not kids:
            return Compiled(sync=lambda s: [])
        spreads = [isinstance(c, Spread) for c in node.items]
        marked = self.resolved.accumulates.get(id(node))
        if marked is not None:  # a reduce's step: `[...acc, ...]` changes `acc` in place
            field = self.resolved.folds.get(id(node), ACC)
            return self._combine(kids, partial(spread_owned, marked[1], field, spreads, node.path))
        if any(spreads):
            path = node.path

            def spread(vs: list[Any]) -> list[Any]:
                return spread_args(vs, spreads, path)

            made = self._combine(kids, spread)  # (a copy: counted, SPEC 7)
            if self.resolved.steps_slot < 0 or id(node) in self._uncounted:
                return made
            return counted(made, self._steps(path))
        # an `undefined` element stays one while the program runs, as in JavaScript
        # (`[u].includes(undefined)`); it is null in what leaves the run (values.data.defined)
        return self._combine(kids, list)

    def _Obj(self, node: Obj) -> Compiled:
        keys = list(node.fields)
        kids = [self.compile(node.fields[k]) for k in keys]

        def finish(vs: list[Any]) -> dict[str, Any]:
            # an `undefined` field stays one while the program runs, as in JavaScript
            # (`Object.keys` lists it, `{...a, ...b}` takes it from `b`); the key is dropped
            # from what leaves the run (values.data.defined), as JSON drops it
            return dict(zip(keys, vs, strict=True))

        return self._combine(kids, finish)

    def _Unwrap(self, node: Unwrap) -> Compiled:
        def finish(vs: list[Any]) -> Any:
            v = vs[0]
            return v[0] if type(v) is list and len(v) == 1 else v

        return self._combine([self.compile(node.value)], finish)

    def _Template(self, node: Template) -> Compiled:
        lits = [""]  # the text before each expression, and after the last
        exprs = []
        for p in node.parts:
            if isinstance(p, str):
                lits[-1] += p
            else:
                exprs.append(self.compile(p))
                lits.append("")
        stringify, max_len = self.serializer.stringify, self.limits.max_string_length
        return template(lits, exprs, stringify, max_len, node.path, self._combine)

    # -- names ----------------------------------------------------------------------------
    def _ContextRef(self, node: ContextRef) -> Compiled:
        name = node.name
        return Compiled(sync=lambda s: s.context[name])

    def _AliasRef(self, node: AliasRef) -> Compiled:
        if node.frame >= 0:
            return self._locals[node.frame, node.slot]
        return self._aliases[node.slot][0]

    def _ConstRef(self, node: ConstRef) -> Compiled:
        read_constant = self._constant(node.const)
        name = node.written
        if name == node.const.name:
            return read_constant
        read = read_constant.sync
        assert read is not None
        note = (
            f"unknown name `{name}` at {format_path(node.path)}: read the constant "
            f"`{node.const.name}`, the only one with that name up to case and underscores"
        )

        def read_forgiven(s: State) -> Any:
            context = s.context
            if name in context:
                return context[name]
            if note not in s.warnings:
                s.warn(note)
            return read(s)

        return Compiled(sync=read_forgiven)

    def _constant(self, const: Constant) -> Compiled:
        if const.factory is None:
            return _literal(const.value)
        idx = self.resolved.constant_slots[const.name]
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

    def _Block(self, node: Block) -> Compiled:
        effects = self.resolved.effects
        if effects is not None and id(node) in effects.blocks:  # SPEC 17
            return effect_block(self, node, effects.blocks[id(node)])
        root = node is self.resolved.root and not self._marked
        targets: dict[int, Compiled] = {}
        for b in node.bindings:  # in dependency order: what an alias reads is compiled first
            target = self.compile(b.node)
            self.bind_alias(b, target)
            if root and b.frame == -1:
                targets[b.slot] = target
        body = self.compile(node.body)
        if root and body.aio is not None and not self.errors:
            # a static call graph: a task per call, no lazy machinery (dialectic.run.dagrun)
            dag = static_dag(node, targets, self._aliases, body, self.member, self)
            return dag or body
        return body

    def twin(self, node: Node, leaves: dict[int, Compiled]) -> Compiled | None:
        """``node`` compiled again with each node of ``leaves`` (by id) read by its closure
        there: a static call graph's expression, its calls read from their done tasks
        (:mod:`dialectic.compiler.dagexprs`); None if a leaf was not compiled on its own (a
        form that compiles its children its own way), or if that gives an asynchronous one."""
        table = self._table
        twins = self._twins
        if twins is None:  # (made once per program: each compile method, leaves first)
            twins = self._twins = {t: partial(_twin_compile, f) for t, f in table.items()}
        used: set[int] = set()
        self._twin_leaves = (leaves, used)
        self._table = twins
        errors = len(self.errors)
        try:
            out = self.compile(node)
        finally:
            self._table = table
            self._twin_leaves = None
        if len(self.errors) > errors:  # (none should be: the same nodes compiled before)
            del self.errors[errors:]
            return None
        if len(used) != len(leaves) or out.sync is None:
            return None
        return out

    def bind_alias(self, b: Binding, target: Compiled) -> Compiled:
        """The memoized reader of alias ``b``, published for the references compiled next."""
        if b.frame >= 0:
            reader = self._locals[b.frame, b.slot] = local_reader(b.frame, b.slot, target)
            return reader
        aliases = self._aliases
        deep = b.depth > DEEP_ALIAS and bool(b.deps)
        reader = alias_reader(b.slot, target, aliases if deep else None)
        aliases[b.slot] = (reader, b)
        return reader

    def publish_alias(self, b: Binding, reader: Compiled) -> None:
        """Make references to alias ``b`` use ``reader`` (effects: one that waits its turn)."""
        if b.frame >= 0:
            self._locals[b.frame, b.slot] = reader
        else:
            self._aliases[b.slot] = (reader, b)

    # -- member access ----------------------------------------------------------------------
    def _Get(self, node: Get) -> Compiled:
        target = node.target
        tt = type(target)
        if node.optional or tt is Get or tt is Method:
            link = optional_link(node)
            if link is not None:  # `a?.b`, `a?.b.c`, `x?.trim().length` (SPEC 1.2)
                return self._optional_chain(node, link)
        if node.soft:
            return self._soft_get(node)
        member = self.member
        path = node.path
        literal_keys = True
        for k in node.keys:
            if type(k) is not Lit:
                literal_keys = False
                break
        # a context value, or an arrow function's parameter, is read in place (one closure
        # call less on the hot path)
        ctx_name: str | None = None
        if literal_keys and tt is ContextRef:
            ctx_name = target.name  # type: ignore[attr-defined]
            first = _unreachable_compiled
        elif literal_keys and tt is ParamRef:
            keys = _values(node.keys)
            return Compiled(param_get(target, keys, member, path))  # type: ignore[arg-type]
        else:
            first = self.compile(target)
        if literal_keys and first.sync is not None:
            read = first.sync
            keys = _values(node.keys)
            if ctx_name is not None and len(keys) < 3:  # `user.name`, `user.profile.name`
                return Compiled(context_getter(ctx_name, keys, member, path))
            return Compiled(_literal_get(ctx_name, read, keys, member, path))
        parts = [first] + [self.compile(k) for k in node.keys]
        return self._combine(parts, _computed_get(member, path, 0, _computed_keys(node)))

    def _soft_get(self, node: Get) -> Compiled:
        """A member access where the program says the data may be missing (``node.soft``,
        SPEC 1.2 "Optional members"): a key whose bit is set reads a member the object lacks,
        or an index past the end, as undefined."""
        parts = [self.compile(node.target)] + [self.compile(k) for k in node.keys]
        return self._combine(
            parts, _computed_get(self.member, node.path, node.soft, _computed_keys(node))
        )


#: what a program with no effectful call marks (never changed)
_NONE_MARKED: frozenset[int] = frozenset()


def _shared_parts(registry: Registry, types: TypeSystem, cls: type) -> tuple[Any, ...]:
    """What every compiler of ``registry`` and ``types`` of the class ``cls`` reads and no
    program changes: (registry, member access, its bound ``member``, cls, the compile method
    of each node class, the call-site facts of the registry's functions)."""
    access = Access(registry, types)
    return (
        registry,
        access,
        access.member,
        cls,
        unbound_table(cls, "_"),
        facts_table(registry),
    )


def _twin_compile(compile_node: Callable[[Any, Any], Compiled], c: Compiler, n: Node) -> Compiled:
    """Compiler.twin's compile method: a leaf's closure, else the node compiled as always."""
    leaves = c._twin_leaves
    if leaves is not None:
        got = leaves[0].get(id(n))
        if got is not None:
            leaves[1].add(id(n))
            return got
    return compile_node(c, n)


def _unreachable(s: State) -> Any:
    raise AssertionError("a program with compile errors was run")


#: stands for a part that is not compiled, as it is read in place (never run)
_unreachable_compiled = Compiled(sync=_unreachable)


#: scalar types whose literals share one compiled closure per value (as call arguments do,
#: :data:`dialectic.compiler.calls.SHARED_SCALARS`; a dict of this module's own is faster to
#: read here)
_SHARED_SCALARS: dict[type, bool] = dict(SHARED_SCALARS)


def _literal(value: Any) -> Compiled:
    """A fixed value: a scalar is shared; a container (a quoted literal, a constant) is copied
    for every use, so a function that mutates its argument cannot change the next run."""
    fresh = copier(value)
    if fresh is not None:
        return Compiled(sync=lambda s: fresh())
    return Literal(value)
