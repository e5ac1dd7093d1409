"""The resolver: syntax nodes + registry in, resolved nodes out (starlark-go's resolver is the
model: a pass of its own, before and apart from evaluation).

Everything about names and shape that can be known before a run is decided here, once, for every
consumer (the compiler, ``Runtime.compile`` / ``dialectic compile``, the canonical writer):

- names: an alias of an enclosing block, a registered constant (also up to case and
  underscores), a function used as a value (an error), a forbidden name, else a context value;
- calls: the function (also up to case and underscores, with a warning) and the binding of the
  arguments to its parameters (SPEC 1.5);
- aliases: a memo slot each, the aliases each one reads, the dependency order, cycles;
- static limits and checks: ``max_calls``, forbidden member and object keys, ``$use`` only at
  the top, literal templates within ``max_string_length``.

Problems are collected, so one pass reports every problem it finds (each node that fails becomes
an ``Undefined`` placeholder and the walk goes on).

Here: the walk, names, blocks of aliases and their order; calls are resolved by the mixin
:mod:`dialectic.resolve.calls`, expression forms (operators, methods, arrow functions) by
:mod:`dialectic.resolve.expressions`.
"""

from __future__ import annotations

from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError, JSONPath, LimitExceeded, clip
from dialectic.registry.registry import Registry
from dialectic.resolve.calls import CallsMixin
from dialectic.resolve.effects import EffectInfo, analyze
from dialectic.resolve.expressions import ExpressionsMixin, _Params
from dialectic.resolve.forbidden import forbidden_error, is_forbidden
from dialectic.tree.nodes import (
    AliasRef,
    Arr,
    Binding,
    Block,
    ConstRef,
    ContextRef,
    Get,
    Given,
    Let,
    Lit,
    Method,
    Node,
    Obj,
    ParamRef,
    Ref,
    Template,
    Undefined,
    Unwrap,
    unbound_table,
)


class ResolveErrors(Exception):
    """Every problem the resolver found (the first one is the message)."""

    def __init__(self, errors: list[DialecticError]) -> None:
        super().__init__(str(errors[0]))
        self.errors = errors


class _Scope:
    """The aliases of one block being resolved: name -> slot, and the aliases each binding
    reads directly (filled while its expression is resolved)."""

    __slots__ = ("slots", "frame", "reading", "start", "cond_base", "deps", "always", "height")

    def __init__(self, slots: dict[str, int], frame: int = -1) -> None:
        self.slots = slots
        #: -1: the slots are the run's memo; else the arrow function (by nesting index) whose
        #: application holds them
        self.frame = frame
        #: the binding whose expression is being resolved (None: the block's body), and the
        #: resolver's nesting level where that expression starts
        self.reading: str | None = None
        self.start = 0
        self.cond_base = 0
        #: alias -> {alias it reads: deepest nesting of such a read inside the expression}
        self.deps: dict[str, dict[str, int]] = {name: {} for name in slots}
        #: alias -> the aliases it reads whatever the data (not under a condition)
        self.always: dict[str, set[str]] = {name: set() for name in slots}
        #: alias -> nesting levels of its own expression
        self.height: dict[str, int] = dict.fromkeys(slots, 0)


class Resolved:
    """The resolver's result: the resolved root and what it learned about the program."""

    __slots__ = (
        "root",
        "mode",
        "warnings",
        "context_refs",
        "alias_names",
        "memo_size",
        "constant_slots",
        "calls",
        "steps_slot",
        "effects",
    )

    def __init__(
        self,
        root: Node,
        mode: str,
        warnings: list[str],
        context_refs: dict[str, JSONPath],
        alias_names: set[str],
        memo_size: int,
        constant_slots: dict[str, int],
        calls: int,
        steps_slot: int = -1,
    ) -> None:
        self.root = root
        self.mode = mode
        self.warnings = warnings
        #: context names the program reads, with the first place each is read
        self.context_refs = context_refs
        self.alias_names = alias_names
        #: memo slots: one per alias, one per constant with a factory
        self.memo_size = memo_size
        self.constant_slots = constant_slots
        self.calls = calls
        #: the memo slot that counts method steps, or -1
        self.steps_slot = steps_slot
        #: effectful calls and expression statements (SPEC 17): the plan, else None
        self.effects: EffectInfo | None = None


class Resolver(CallsMixin, ExpressionsMixin):
    """Resolves one program. With ``registry=None`` (corpus analysis) every call is a
    :class:`DomainCall` read by the analysis conventions and every free name a context value."""

    def __init__(self, registry: Registry | None, limits: Limits) -> None:
        self.registry = registry
        self.limits = limits
        self.errors: list[DialecticError] = []
        self.warnings: list[str] = []
        self.context_refs: dict[str, JSONPath] = {}
        self.alias_names: set[str] = set()
        self.memo_size = 0
        self.calls = 0
        self.constant_slots: dict[str, int] = {}
        self._scopes: list[_Scope] = []
        self._level = 0
        #: how many conditional branches (`? :` arms, right operands of && || ??) enclose the
        #: node being resolved
        self._conditional = 0
        #: parameters of the arrow functions around the node being resolved, innermost last
        self._arrows: list[tuple[str, ...]] = []
        #: per arrow being resolved: how many local alias slots its body has so far
        self._arrow_locals: list[int] = []
        #: alias blocks and arrow parameters around the node, innermost last (name lookup)
        self._env: list[_Scope | _Params] = []
        #: how often each alias or context name is read (a `sort` of a name read elsewhere
        #: would change what those reads see in JavaScript)
        self.ref_counts: dict[str, int] = {}
        self._in_place: list[tuple[Method, Node]] = []
        #: the memo slot counting method steps (-1: the program has no methods)
        self.steps_slot = -1
        #: write/destructive calls and expression statements seen (SPEC 17)
        self.ordered = 0
        self._signatures = {}
        self._table = unbound_table(type(self), "_")

    # -- entry ----------------------------------------------------------------------------
    def resolve_root(self, root: Node) -> Resolved:
        mode = root.mode if isinstance(root, Let) else "return"
        resolved = self.resolve(root, top=True)
        self._check_in_place()
        if self.calls > self.limits.max_calls:
            self.errors.insert(
                0,
                LimitExceeded(
                    "max_calls",
                    f"the program makes {self.calls} calls; the limit is {self.limits.max_calls}",
                ),
            )
        if self.errors:
            raise ResolveErrors(self.errors)
        out = Resolved(
            resolved,
            mode,
            self.warnings,
            self.context_refs,
            self.alias_names,
            self.memo_size,
            self.constant_slots,
            self.calls,
            self.steps_slot,
        )
        if self.ordered:  # effectful calls or expression statements (SPEC 17)
            out.effects = analyze(resolved)
        return out

    def resolve(self, node: Node, top: bool = False) -> Node:
        self._level += 1
        scopes = self._scopes
        if scopes:
            scope = scopes[-1]
            if scope.reading is not None:
                height = self._level - scope.start
                if height > scope.height[scope.reading]:
                    scope.height[scope.reading] = height
        try:
            if top and isinstance(node, Let):
                return self._block(node, top=True)
            handler = self._table.get(type(node))
            if handler is None:
                raise DialecticError("invalid_program", f"unknown node {type(node).__name__}")
            result: Node = handler(self, node)
            return result
        except DialecticError as exc:
            if not exc.path:
                exc.path = node.path
            self.errors.append(exc)
            return Undefined(node.path)
        finally:
            self._level -= 1

    def leaf(self) -> None:
        """What :meth:`resolve` records of a leaf below the current node (a literal, which
        resolves to itself): the height of the alias being read."""
        scopes = self._scopes
        if scopes:
            scope = scopes[-1]
            if scope.reading is not None:
                height = self._level + 1 - scope.start
                if height > scope.height[scope.reading]:
                    scope.height[scope.reading] = height

    # -- structure ------------------------------------------------------------------------
    def _Lit(self, node: Lit) -> Node:
        return node

    def _Undefined(self, node: Undefined) -> Node:
        return node

    def _Arr(self, node: Arr) -> Node:
        return Arr(node.path, self._items(node.items))

    def _Given(self, node: Given) -> Node:
        return node

    def _Obj(self, node: Obj) -> Node:
        for k in node.fields:
            if k == "__proto__":
                raise forbidden_error(k, (*node.path, k))
        fields: dict[str, Node] = {}
        for k, v in node.fields.items():
            if type(v) is Lit:  # a literal resolves to itself
                self.leaf()
                fields[k] = v
            else:
                fields[k] = self.resolve(v)
        return Obj(node.path, fields, node.explicit)

    def _Unwrap(self, node: Unwrap) -> Node:
        return Unwrap(node.path, self.resolve(node.value))

    def _Template(self, node: Template) -> Node:
        resolved: list[str | Node] = []
        literal = 0
        for p in node.parts:
            if isinstance(p, str):
                literal += len(p)
                resolved.append(p)
            else:
                resolved.append(self.resolve(p))
        parts = tuple(resolved)
        max_len = self.limits.max_string_length
        if literal > max_len:
            raise LimitExceeded(
                "max_string_length",
                f"a template would produce {literal} characters; the limit is {max_len}",
                node.path,
            )
        return Template(node.path, parts)

    def _Get(self, node: Get) -> Node:
        literal = True
        for k in node.keys:
            if isinstance(k, Lit):
                if isinstance(k.value, str) and is_forbidden(k.value):
                    raise forbidden_error(k.value, k.path)
            else:
                literal = False
        target = self.resolve(node.target)
        if literal:  # literal keys resolve to themselves
            for _ in node.keys:
                self.leaf()
            return Get(node.path, target, node.keys, node.optional)
        return Get(node.path, target, tuple([self.resolve(k) for k in node.keys]), node.optional)

    # -- names ----------------------------------------------------------------------------
    def _Ref(self, node: Ref) -> Node:
        name = node.name
        for scope in reversed(self._env):
            if isinstance(scope, _Params):
                if name in scope.params:
                    return ParamRef(node.path, name, scope.index, scope.params.index(name))
                continue
            slot = scope.slots.get(name)
            if slot is not None:
                if scope.reading is not None:
                    seen = scope.deps[scope.reading]
                    level = self._level - scope.start
                    if level > seen.get(name, 0):
                        seen[name] = level
                    if self._conditional == scope.cond_base:
                        scope.always[scope.reading].add(name)
                self.ref_counts[name] = self.ref_counts.get(name, 0) + 1
                return AliasRef(node.path, name, slot, scope.frame)
        self.ref_counts[name] = self.ref_counts.get(name, 0) + 1
        registry = self.registry
        if registry is None:
            if is_forbidden(name):
                raise forbidden_error(name, node.path)
            self.context_refs.setdefault(name, node.path)
            return ContextRef(node.path, name)
        const = registry.constants.get(name)
        if const is not None:
            self._constant_slot(const.name, const.factory is not None)
            return ConstRef(node.path, const, name)
        if name in registry.functions:
            raise DialecticError(
                "not_a_value",
                f"`{clip(name)}` is a function, not a value; functions cannot be stored or passed",
                node.path,
                hint=f'Call it: {{"{clip(name)}": {{...}}}} (Plan: {clip(name)}(...)).',
            )
        if is_forbidden(name):
            raise forbidden_error(name, node.path)
        fuzzy = registry.resolve_constant(name) if registry.constants else None
        if fuzzy is not None:
            # `Thursday` for the constant `thursday`: a context value of the exact name still
            # wins at run time; otherwise the constant is read, with a warning
            self._constant_slot(fuzzy.name, fuzzy.factory is not None)
            return ConstRef(node.path, fuzzy, name)
        self.context_refs.setdefault(name, node.path)
        return ContextRef(node.path, name)

    def _constant_slot(self, name: str, needs_slot: bool) -> None:
        if needs_slot and name not in self.constant_slots:
            self.constant_slots[name] = self.memo_size
            self.memo_size += 1

    def _Let(self, node: Let) -> Node:
        return self._block(node, top=False)

    def _block(self, node: Let, top: bool) -> Node:
        if node.mode == "use" and not top:
            raise DialecticError(
                "invalid_program", "$use is allowed only at the top of a program", node.path
            )
        slots: dict[str, int] = {}
        frame = len(self._arrows) - 1  # -1: not inside an arrow function
        for name in node.bindings:
            if frame < 0:
                slots[name] = self.memo_size
                self.memo_size += 1
            else:  # an alias of an arrow's body: one slot per application
                slots[name] = self._arrow_locals[-1]
                self._arrow_locals[-1] += 1
            if name.startswith("$"):
                self.ordered += 1  # an expression statement (SPEC 17)
            else:
                self.alias_names.add(name)
        scope = _Scope(slots, frame)
        self._scopes.append(scope)
        self._env.append(scope)
        try:
            exprs: dict[str, Node] = {}
            scope.start = self._level
            scope.cond_base = self._conditional
            for name, expr in node.bindings.items():
                scope.reading = name
                exprs[name] = self.resolve(expr)
            scope.reading = None
            body = self.resolve(node.body)
        finally:
            self._scopes.pop()
            self._env.pop()
        order = _dependency_order(node, scope.deps)
        # an alias's depth: the nesting levels its evaluation may recurse through, its own
        # expression's and, through each alias it reads, that one's (the compiler evaluates
        # the aliases under a deep one first, so no alias chain can exhaust Python's stack)
        depth: dict[str, int] = {}
        bindings = []
        for name in order:
            deps = scope.deps[name]
            depth[name] = max([scope.height[name], *(lv + depth[d] for d, lv in deps.items())])
            dep_slots = tuple(sorted(slots[d] for d in scope.always[name]))
            binding = Binding(name, slots[name], exprs[name], dep_slots, depth[name], frame)
            bindings.append(binding)
        return Block(node.path, tuple(bindings), body, node.mode)


def _dependency_order(node: Let, deps: dict[str, dict[str, int]]) -> list[str]:
    """Aliases in dependency order; a cycle is an error naming it (a -> b -> a)."""
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


def resolve(registry: Registry | None, limits: Limits, root: Node) -> Resolved:
    """Resolve a parsed program; raises :class:`ResolveErrors` with every problem found."""
    return Resolver(registry, limits).resolve_root(root)
